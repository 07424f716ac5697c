#include "lava_map.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "png_slice.h"

/* Lava thickness 0..20 m from dark red through orange to pale yellow. */
static void lava_colour(double h, double rgb[3]) {
  double t = h / 20.0;
  if (t > 1) t = 1;
  rgb[0] = 150 + 105 * fmin(1.0, 2 * t + 0.3);
  rgb[1] = 20 + 200 * t;
  rgb[2] = 10 + 90 * t * t;
}

int lava_map_write(const char* path, const double* altitude, const double* lava, const unsigned char* reference,
                   int rows, int cols, double cell, int scale) {
  if (rows < 3 || cols < 3 || scale < 1 || !(cell > 0)) {
    fprintf(stderr, "lava_map_write: %s: a %dx%d map at scale %d, cell %g\n", path, rows, cols, scale, cell);
    return -1;
  }
  const int width = cols * scale, height = rows * scale;
  unsigned char* rgb = malloc((size_t)width * (size_t)height * 3);
  if (!rgb) {
    fprintf(stderr, "lava_map_write: %s: out of memory\n", path);
    return -1;
  }
  /* Light from the north-west, 45 degrees up: the Lambertian shade of each cell's
   * slope (central differences; one-sided at the edges). */
  const double sun[3] = {-0.5, 0.5, 0.7071067811865476};
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const int rn = r > 0 ? r - 1 : r, rs = r < rows - 1 ? r + 1 : r;
      const int cw = c > 0 ? c - 1 : c, ce = c < cols - 1 ? c + 1 : c;
      const double dzdx = (altitude[(long)r * cols + ce] - altitude[(long)r * cols + cw]) / ((ce - cw) * cell);
      const double dzdy = (altitude[(long)rn * cols + c] - altitude[(long)rs * cols + c]) / ((rs - rn) * cell);
      const double norm = sqrt(dzdx * dzdx + dzdy * dzdy + 1);
      double shade = (-dzdx * sun[0] - dzdy * sun[1] + sun[2]) / norm;
      if (shade < 0) shade = 0;
      double px[3] = {60 + 170 * shade, 60 + 170 * shade, 60 + 170 * shade};
      const long i = (long)r * cols + c;
      if (lava[i] > 0) {
        double lc[3];
        lava_colour(lava[i], lc);
        for (int k = 0; k < 3; ++k) px[k] = lc[k] * (0.55 + 0.45 * shade);
      }
      if (reference && reference[i]) { /* the outline: a reference cell beside a non-reference one */
        const int edge = !reference[(long)rn * cols + c] || !reference[(long)rs * cols + c] ||
                         !reference[(long)r * cols + cw] || !reference[(long)r * cols + ce];
        if (edge) px[0] = px[1] = px[2] = 255;
      }
      for (int y = 0; y < scale; ++y)
        for (int x = 0; x < scale; ++x) {
          unsigned char* p = rgb + 3 * ((size_t)(r * scale + y) * (size_t)width + (size_t)(c * scale + x));
          for (int k = 0; k < 3; ++k) p[k] = (unsigned char)lround(fmin(255.0, fmax(0.0, px[k])));
        }
    }
  const int rc = png_write_rgb(path, rgb, width, height);
  free(rgb);
  return rc;
}

long lava_map_read_mask(const char* path, unsigned char* mask, int rows, int cols) {
  FILE* f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "lava_map_read_mask: cannot open %s\n", path);
    return -1;
  }
  char key[64];
  double value;
  for (int i = 0; i < 6; ++i)
    if (fscanf(f, "%63s %lf", key, &value) != 2) {
      fprintf(stderr, "lava_map_read_mask: %s: no six-line ESRI header\n", path);
      fclose(f);
      return -1;
    }
  long count = 0;
  for (long i = 0; i < (long)rows * cols; ++i) {
    if (fscanf(f, "%lf", &value) != 1) {
      fprintf(stderr, "lava_map_read_mask: %s: %ld values, not %dx%d\n", path, i, rows, cols);
      fclose(f);
      return -1;
    }
    mask[i] = value > 0.5;
    count += mask[i];
  }
  fclose(f);
  return count;
}
