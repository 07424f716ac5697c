/* Writes a line plot as an RGB PNG (libpng): the examples' time series.
 * No text: the frame, tick marks and each series in its own colour; the program that
 * calls it says which series is which (series 0 blue, 1 orange, 2 green, 3 red,
 * 4 purple, 5 brown, 6 pink, 7 grey, then again). Callable from Fortran through bind(C):
 *   integer(c_int) function png_plot_lines(path, width, height, npoints, x, nseries, y, log_y) &
 *       bind(C, name="png_plot_lines")
 *     character(kind=c_char), intent(in) :: path(*)   ! NUL-terminated
 *     integer(c_int), value :: width, height, npoints, nseries, log_y
 *     real(c_double), intent(in) :: x(npoints), y(npoints, nseries) */
#ifndef OPSPLIT_EXAMPLES_PNG_PLOT_H
#define OPSPLIT_EXAMPLES_PNG_PLOT_H

#ifdef __cplusplus
extern "C" {
#endif

/* x: npoints abscissae (any order; the axis spans their range); y: nseries series of
 * npoints values, series s at y[s*npoints + i]. log_y != 0: a log10 y axis spanning
 * whole decades, with a tick at each; points <= 0 are left out there, as are non-finite
 * points on either axis (the line breaks at them). The picture is width x height pixels
 * (at least 64 x 48). Returns 0, or -1 with a message on stderr. */
int png_plot_lines(const char* path, int width, int height, int npoints, const double* x, int nseries,
                   const double* y, int log_y);

#ifdef __cplusplus
}
#endif

#endif
