#include "png_slice.h"

#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>

/* A perceptually ordered scale: dark blue, blue, teal, yellow-green, yellow. */
static void colour(double t, unsigned char rgb[3]) {
  static const double stops[5][3] = {{13, 8, 135}, {84, 104, 196}, {33, 145, 140}, {144, 215, 67}, {253, 231, 37}};
  if (!(t > 0)) t = 0; /* NaN too */
  if (t > 1) t = 1;
  const double x = t * 4;
  int i = (int)x;
  if (i > 3) i = 3;
  const double f = x - i;
  for (int c = 0; c < 3; ++c) rgb[c] = (unsigned char)lround(stops[i][c] + f * (stops[i + 1][c] - stops[i][c]));
}

int png_slice_write(const char* path, const double* values, int nx, int ny, double lo, double hi) {
  if (nx < 1 || ny < 1) {
    fprintf(stderr, "png_slice_write: %s: empty slice %dx%d\n", path, nx, ny);
    return -1;
  }
  if (lo == hi) {
    lo = hi = values[0];
    for (long i = 0; i < (long)nx * ny; ++i) {
      if (values[i] < lo) lo = values[i];
      if (values[i] > hi) hi = values[i];
    }
    if (lo == hi) hi = lo + 1;
  }
  unsigned char* rgb = malloc((size_t)nx * (size_t)ny * 3);
  if (!rgb) {
    fprintf(stderr, "png_slice_write: %s: out of memory\n", path);
    return -1;
  }
  for (int y = 0; y < ny; ++y) /* y grows upward: the last row is the picture's top */
    for (int x = 0; x < nx; ++x)
      colour((values[(long)y * nx + x] - lo) / (hi - lo), rgb + 3 * ((size_t)(ny - 1 - y) * (size_t)nx + (size_t)x));
  const int rc = png_write_rgb(path, rgb, nx, ny);
  free(rgb);
  return rc;
}

int png_write_rgb(const char* path, const unsigned char* rgb, int width, int height) {
  FILE* out = fopen(path, "wb");
  if (!out) {
    perror(path);
    return -1;
  }
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (!png || !info || setjmp(png_jmpbuf(png))) {
    fprintf(stderr, "png_write_rgb: %s: libpng failed\n", path);
    png_destroy_write_struct(&png, &info);
    fclose(out);
    return -1;
  }
  png_init_io(png, out);
  png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int y = 0; y < height; ++y) png_write_row(png, (png_const_bytep)(rgb + 3 * (size_t)y * (size_t)width));
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  if (fclose(out) != 0) {
    perror(path);
    return -1;
  }
  return 0;
}
