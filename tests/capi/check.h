/* A minimal test harness for the C-API tests (plain C11). */
#ifndef OPSPLIT_TEST_CHECK_H
#define OPSPLIT_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

#include "opsplit/opsplit.h"

static int checks_passed = 0, checks_failed = 0;

#define CHECK(cond)                                                              \
  do {                                                                           \
    if (cond) {                                                                  \
      checks_passed++;                                                           \
    } else {                                                                     \
      checks_failed++;                                                           \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                            \
  } while (0)

#define CHECK_OK(call)                                                                                   \
  do {                                                                                                   \
    opsplit_status check_status_ = (call);                                                               \
    if (check_status_ == OPSPLIT_SUCCESS) {                                                              \
      checks_passed++;                                                                                   \
    } else {                                                                                             \
      checks_failed++;                                                                                   \
      fprintf(stderr, "%s:%d: %s -> %s: %s\n", __FILE__, __LINE__, #call, opsplit_status_string(check_status_), \
              opsplit_last_error_message());                                                             \
    }                                                                                                    \
  } while (0)

/* The call fails with `want`, and the message starts with the function's name and
 * contains `word` (the argument or the limit it names). */
static inline void expect_error_at(opsplit_status got, opsplit_status want, const char* function, const char* word,
                            const char* text, int line) {
  const char* msg = opsplit_last_error_message();
  int ok = got == want && strncmp(msg, function, strlen(function)) == 0 && msg[strlen(function)] == ':' &&
           strstr(msg, word) != NULL;
  if (ok) {
    checks_passed++;
  } else {
    checks_failed++;
    fprintf(stderr, "line %d: %s\n  got %s \"%s\"\n  want %s with \"%s\" naming \"%s\"\n", line, text,
            opsplit_status_string(got), msg, opsplit_status_string(want), function, word);
  }
}
#define EXPECT_ERROR(call, want, function, word) expect_error_at((call), (want), (function), (word), #call, __LINE__)

static inline int check_summary(void) {
  printf("%d passed, %d failed\n", checks_passed, checks_failed);
  return checks_failed == 0 ? 0 : 1;
}

#endif
