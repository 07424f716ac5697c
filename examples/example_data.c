/* example_data.h: the data folder of an example program, installed or in the build tree. */
#define _XOPEN_SOURCE 700 /* readlink, realpath */
#include "example_data.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Both are set by examples/CMakeLists.txt: the source tree's data/, and the installed
 * data folder relative to the folder the examples are installed in. */
#ifndef OPSPLIT_EXAMPLE_SOURCE_DATA
#error "OPSPLIT_EXAMPLE_SOURCE_DATA must name the source tree's data folder"
#endif
#ifndef OPSPLIT_EXAMPLE_INSTALLED_DATA
#error "OPSPLIT_EXAMPLE_INSTALLED_DATA must name the installed data folder, relative to the examples"
#endif

static int copy_out(const char* folder, char* out, int capacity) {
  if (capacity <= 0 || strlen(folder) >= (size_t)capacity) return 1;
  strcpy(out, folder);
  return 0;
}

static int readable(const char* folder, const char* probe) {
  char path[4096];
  if (snprintf(path, sizeof path, "%s/%s", folder, probe) >= (int)sizeof path) return 0;
  FILE* f = fopen(path, "rb");
  if (f == NULL) return 0;
  fclose(f);
  return 1;
}

int example_data_dir(const char* probe, char* out, int capacity) {
  const char* env = getenv("OPSPLIT_DATA_DIR");
  if (env != NULL && *env != '\0') return copy_out(env, out, capacity);
  /* The program's own folder (Linux: /proc/self/exe; elsewhere this step finds nothing). */
  char exe[4096];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = '\0';
    char* slash = strrchr(exe, '/');
    char installed[4096 + 64];
    if (slash != NULL) {
      *slash = '\0';
      char* clean = NULL;
      if (snprintf(installed, sizeof installed, "%s/%s", exe, OPSPLIT_EXAMPLE_INSTALLED_DATA) < (int)sizeof installed &&
          readable(installed, probe) && (clean = realpath(installed, NULL)) != NULL) {
        const int rc = copy_out(clean, out, capacity);
        free(clean);
        return rc;
      }
    }
  }
  return copy_out(OPSPLIT_EXAMPLE_SOURCE_DATA, out, capacity);
}
