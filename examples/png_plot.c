#include "png_plot.h"

#include "png_slice.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Distinct colours that stay apart for colour-blind readers too (the Tableau 10 order). */
static const unsigned char palette[8][3] = {{31, 119, 180}, {255, 127, 14}, {44, 160, 44},  {214, 39, 40},
                                            {148, 103, 189}, {140, 86, 75}, {227, 119, 194}, {127, 127, 127}};
static const unsigned char black[3] = {0, 0, 0}, grid[3] = {225, 225, 225};

struct canvas {
  int width, height;
  int left, right, top, bottom; /* the plot area, inclusive pixel bounds */
  unsigned char* rgb;           /* width*height*3, row 0 at the top */
};

static void put(const struct canvas* c, long x, long y, const unsigned char colour[3]) {
  if (x < 0 || y < 0 || x >= c->width || y >= c->height) return;
  memcpy(c->rgb + 3 * ((size_t)y * (size_t)c->width + (size_t)x), colour, 3);
}

static void hline(const struct canvas* c, long x0, long x1, long y, const unsigned char colour[3]) {
  for (long x = x0; x <= x1; ++x) put(c, x, y, colour);
}

static void vline(const struct canvas* c, long x, long y0, long y1, const unsigned char colour[3]) {
  for (long y = y0; y <= y1; ++y) put(c, x, y, colour);
}

/* A segment `radius` pixels thick (Bresenham, a square stamp per pixel), kept inside
 * the plot area so that it never covers the frame. */
static void segment(const struct canvas* c, long x0, long y0, long x1, long y1, int radius,
                    const unsigned char colour[3]) {
  const long dx = labs(x1 - x0), dy = -labs(y1 - y0), sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
  long err = dx + dy;
  for (;;) {
    for (long v = y0 - radius; v <= y0 + radius; ++v)
      for (long u = x0 - radius; u <= x0 + radius; ++u)
        if (u > c->left && u < c->right && v > c->top && v < c->bottom) put(c, u, v, colour);
    if (x0 == x1 && y0 == y1) break;
    const long e2 = 2 * err;
    if (e2 >= dy) err += dy, x0 += sx;
    if (e2 <= dx) err += dx, y0 += sy;
  }
}

/* A "round" tick spacing (1, 2 or 5 times a power of ten) giving about 5 ticks. */
static double tick_step(double lo, double hi) {
  const double raw = (hi - lo) / 5, mag = pow(10, floor(log10(raw))), f = raw / mag;
  return mag * (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10);
}

/* The picture coordinate of value v on an axis lo..hi spanning pixels p0..p1. */
static long to_pixel(double v, double lo, double hi, int p0, int p1) {
  return lround(p0 + (v - lo) / (hi - lo) * (p1 - p0));
}

int png_plot_lines(const char* path, int width, int height, int npoints, const double* x, int nseries,
                   const double* y, int log_y) {
  if (width < 64 || height < 48 || width > 16384 || height > 16384 || npoints < 1 || nseries < 1 || !x || !y) {
    fprintf(stderr, "png_plot_lines: %s: bad arguments (%dx%d pixels, %d points, %d series)\n", path, width, height,
            npoints, nseries);
    return -1;
  }
  /* The data's range: finite x; finite y, and > 0 on a log axis (plotted as log10). */
  double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
  for (int i = 0; i < npoints; ++i) {
    if (!isfinite(x[i])) continue;
    xlo = fmin(xlo, x[i]), xhi = fmax(xhi, x[i]);
    for (int s = 0; s < nseries; ++s) {
      const double v = y[(size_t)s * (size_t)npoints + (size_t)i];
      if (!isfinite(v) || (log_y && v <= 0)) continue;
      const double w = log_y ? log10(v) : v;
      ylo = fmin(ylo, w), yhi = fmax(yhi, w);
    }
  }
  if (!(xlo <= xhi) || !(ylo <= yhi)) {
    fprintf(stderr, "png_plot_lines: %s: no point to plot (all non-finite%s)\n", path, log_y ? " or <= 0" : "");
    return -1;
  }
  if (xlo == xhi) xlo -= 0.5, xhi += 0.5;
  if (log_y) { /* whole decades, so that the frame's edges are ticks too */
    ylo = floor(ylo), yhi = ceil(yhi);
    if (ylo == yhi) yhi += 1;
  } else {
    const double pad = ylo == yhi ? (ylo == 0 ? 1 : 0.1 * fabs(ylo)) : 0.05 * (yhi - ylo);
    ylo -= pad, yhi += pad;
  }

  struct canvas c = {width, height, width / 12, width - 1 - width / 40, height / 40, height - 1 - height / 12, NULL};
  c.rgb = malloc((size_t)width * (size_t)height * 3);
  if (!c.rgb) {
    fprintf(stderr, "png_plot_lines: %s: out of memory\n", path);
    return -1;
  }
  memset(c.rgb, 255, (size_t)width * (size_t)height * 3);
  const int tick = width / 80 > 4 ? width / 80 : 4, radius = width >= 400 ? 1 : 0;

  /* Grid lines and tick marks (outside the frame): y at whole decades on a log axis (a
   * decade in k when they would crowd closer than 8 pixels, short ticks at 2..9 when a
   * decade is 40 pixels or more), else at round values; x at round values. */
  if (log_y) {
    const double per_decade = (c.bottom - c.top) / (yhi - ylo);
    const int every = per_decade >= 8 ? 1 : (int)ceil(8 / per_decade);
    for (double d = ylo; d <= yhi; d += 1) {
      const long py = to_pixel(d, ylo, yhi, c.bottom, c.top);
      if ((long)(d - ylo) % every == 0) {
        hline(&c, c.left + 1, c.right - 1, py, grid);
        hline(&c, c.left - tick, c.left, py, black);
      }
      if (per_decade >= 40 && d < yhi)
        for (int m = 2; m <= 9; ++m) hline(&c, c.left - tick / 2, c.left, to_pixel(d + log10(m), ylo, yhi, c.bottom, c.top), black);
    }
  } else {
    const double step = tick_step(ylo, yhi);
    for (double v = ceil(ylo / step) * step; v <= yhi; v += step) {
      const long py = to_pixel(v, ylo, yhi, c.bottom, c.top);
      hline(&c, c.left + 1, c.right - 1, py, grid);
      hline(&c, c.left - tick, c.left, py, black);
    }
  }
  {
    const double step = tick_step(xlo, xhi);
    for (double v = ceil(xlo / step) * step; v <= xhi + 1e-9 * step; v += step) {
      const long px = to_pixel(v, xlo, xhi, c.left, c.right);
      vline(&c, px, c.top + 1, c.bottom - 1, grid);
      vline(&c, px, c.bottom, c.bottom + tick, black);
    }
  }

  /* The series, in order (later ones on top); a left-out point breaks the line. */
  for (int s = 0; s < nseries; ++s) {
    const unsigned char* colour = palette[s % 8];
    long px = 0, py = 0;
    int have = 0;
    for (int i = 0; i < npoints; ++i) {
      const double v = y[(size_t)s * (size_t)npoints + (size_t)i];
      if (!isfinite(x[i]) || !isfinite(v) || (log_y && v <= 0)) {
        have = 0;
        continue;
      }
      const long qx = to_pixel(x[i], xlo, xhi, c.left, c.right);
      const long qy = to_pixel(log_y ? log10(v) : v, ylo, yhi, c.bottom, c.top);
      segment(&c, have ? px : qx, have ? py : qy, qx, qy, radius, colour);
      px = qx, py = qy, have = 1;
    }
  }

  hline(&c, c.left, c.right, c.top, black);
  hline(&c, c.left, c.right, c.bottom, black);
  vline(&c, c.left, c.top, c.bottom, black);
  vline(&c, c.right, c.top, c.bottom, black);

  const int rc = png_write_rgb(path, c.rgb, c.width, c.height);
  free(c.rgb);
  return rc;
}
