/* Conway's Life (ca.h, LIFE): the R-pentomino on a 1024 x 1024 torus, a PNG frame of the
 * central 384 x 384 cells every --every generations (live cells yellow on dark blue, 2 x 2
 * pixels each), the population printed with each. LifeWiki: the R-pentomino settles at
 * generation 1103 with 116 cells (the torus is large enough that no glider comes back by
 * then, nor by 1200); the program checks that at the end (stepping to 1103 if the frames
 * stop earlier) and exits 3 when it does not hold.
 *
 *   life_frames [--frames N] [--every G] [--out DIR]
 * N frames (default 13) G generations apart (default 100), written as DIR/life_NNNN.png
 * (default DIR: the current directory). The backend is AUTO: CUDA when a GPU is usable;
 * OPSPLIT_BACKEND=cpu|cuda chooses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <opsplit/opsplit.h>

#include "png_slice.h"

enum { kSide = 1024, kView = 384, kScale = 2 };

#define TRY(call)                                                         \
  do {                                                                    \
    if ((call) != OPSPLIT_SUCCESS) {                                      \
      fprintf(stderr, "life_frames: %s\n", opsplit_last_error_message()); \
      return 1;                                                           \
    }                                                                     \
  } while (0)

/* The central kView x kView cells as kScale x kScale pixels each. */
static int write_frame(const char* path, const uint8_t* cells) {
  static unsigned char rgb[kView * kScale * kView * kScale * 3];
  const int first = (kSide - kView) / 2;
  for (int y = 0; y < kView * kScale; ++y)
    for (int x = 0; x < kView * kScale; ++x) {
      const int alive = cells[(size_t)(first + y / kScale) * kSide + (size_t)(first + x / kScale)];
      unsigned char* p = rgb + 3 * ((size_t)y * kView * kScale + (size_t)x);
      p[0] = alive ? 253 : 13, p[1] = alive ? 231 : 8, p[2] = alive ? 37 : 60;
    }
  return png_write_rgb(path, rgb, kView * kScale, kView * kScale);
}

int main(int argc, char** argv) {
  int frames = 13, every = 100;
  const char* dir = ".";
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--frames") && i + 1 < argc) frames = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--every") && i + 1 < argc) every = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--out") && i + 1 < argc) dir = argv[++i];
    else {
      fprintf(stderr, "usage: %s [--frames N] [--every G] [--out DIR]\n", argv[0]);
      return 2;
    }
  }
  if (frames < 1 || every < 1) {
    fprintf(stderr, "life_frames: --frames and --every must be >= 1\n");
    return 2;
  }
  static uint8_t cells[kSide * kSide];
  opsplit_context ctx = NULL;
  opsplit_ca ca = NULL;
  TRY(opsplit_context_create(OPSPLIT_BACKEND_AUTO, &ctx));
  TRY(opsplit_ca_create(ctx, OPSPLIT_CA_LIFE, kSide, kSide, &ca)); /* a torus, B3/S23 */
  TRY(opsplit_ca_place_rle(ca, "x = 3, y = 3, rule = B3/S23\nb2o$2ob$bo!", kSide / 2, kSide / 2));
  int settled_ok = 1;
  for (int f = 0; f < frames; ++f) {
    if (f > 0) TRY(opsplit_ca_step(ca, every));
    int64_t generation = 0, population = 0;
    TRY(opsplit_ca_get_steps(ca, &generation));
    TRY(opsplit_ca_get_population(ca, &population));
    TRY(opsplit_ca_get_cells(ca, cells, OPSPLIT_CA_ROW_MAJOR));
    char path[1024];
    snprintf(path, sizeof path, "%s/life_%04lld.png", dir, (long long)generation);
    if (write_frame(path, cells) != 0) return 1;
    printf("generation %5lld population %5lld  %s\n", (long long)generation, (long long)population, path);
  }
  /* Settled from generation 1103 on: 116 cells then and after (no glider is back yet). */
  int64_t generation = 0, population = 0;
  TRY(opsplit_ca_get_steps(ca, &generation));
  if (generation < 1103) TRY(opsplit_ca_step(ca, 1103 - generation));
  TRY(opsplit_ca_get_steps(ca, &generation));
  TRY(opsplit_ca_get_population(ca, &population));
  settled_ok = population == 116;
  printf("generation %5lld population %5lld (LifeWiki: 116 from generation 1103)\n", (long long)generation,
         (long long)population);
  TRY(opsplit_ca_destroy(&ca));
  TRY(opsplit_context_destroy(&ctx));
  return settled_ok ? 0 : 3;
}
