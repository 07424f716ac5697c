/* Writes a lava-flow map as a PNG (libpng through png_write_rgb): the terrain
 * hillshaded in grey, lava (fluid or solidified) coloured by its thickness, and the
 * outline of a reference flow (the real event's cells) in white. Callable from Fortran
 * through bind(C) (examples/lava_etna.f90). */
#ifndef OPSPLIT_EXAMPLES_LAVA_MAP_H
#define OPSPLIT_EXAMPLES_LAVA_MAP_H

#ifdef __cplusplus
extern "C" {
#endif

/* rows x cols cells, row-major, row 0 north. altitude and lava in m, cell the cell side
 * in m (the hillshade's slopes); reference: 0/1 per cell, or NULL for no outline. Each
 * cell is scale x scale pixels. Returns 0, or -1 with a message on stderr. */
int lava_map_write(const char* path, const double* altitude, const double* lava, const unsigned char* reference,
                   int rows, int cols, double cell, int scale);

/* The dataset's map of the real flow: an ESRI ASCII grid of 0/1 (rows x cols after a
 * six-line header) into mask. Returns the number of cells of the flow, or -1 with a
 * message on stderr. */
long lava_map_read_mask(const char* path, unsigned char* mask, int rows, int cols);

#ifdef __cplusplus
}
#endif

#endif
