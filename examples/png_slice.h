/* Writes a 2D slice of a field as a colour PNG (libpng): the examples' pictures.
 * Callable from Fortran through bind(C) (examples/seed_problems.f90). */
#ifndef OPSPLIT_EXAMPLES_PNG_SLICE_H
#define OPSPLIT_EXAMPLES_PNG_SLICE_H

#ifdef __cplusplus
extern "C" {
#endif

/* values: nx*ny doubles, x fastest (row y = values[y*nx .. y*nx+nx-1]); y grows
 * upward in the picture. lo..hi maps onto the colour scale (lo == hi: the slice's own
 * range). Returns 0, or -1 with a message on stderr. */
int png_slice_write(const char* path, const double* values, int nx, int ny, double lo, double hi);

/* Writes width x height RGB pixels (3 bytes each, rows from the top) as a PNG: the one
 * libpng writer of the examples' pictures (png_plot.c draws into such a buffer).
 * Returns 0, or -1 with a message on stderr. */
int png_write_rgb(const char* path, const unsigned char* rgb, int width, int height);

#ifdef __cplusplus
}
#endif

#endif
