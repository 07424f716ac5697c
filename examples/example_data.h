/* Where the examples find opsplit's data files (data/README.md): the Etna 2006 dataset
 * and the combustion mechanisms, in a folder holding etna2006/ and mechanisms/. */
#ifndef OPSPLIT_EXAMPLE_DATA_H
#define OPSPLIT_EXAMPLE_DATA_H

#ifdef __cplusplus
extern "C" {
#endif

/* Writes to `out` (NUL-terminated, `capacity` bytes) the data folder that holds the file
 * `probe` (a path inside it, "etna2006/VENTS.stt"), looking in turn at
 *   $OPSPLIT_DATA_DIR, when it is set (taken as it is, whether or not it has the file);
 *   <prefix>/share/opsplit of an installed example (found from the program's own place);
 *   the source tree's data/ (the build tree's examples).
 * Returns 0; 1 when the folder's name does not fit `out`. A missing file is left for the
 * reader to report, with its path. */
int example_data_dir(const char* probe, char* out, int capacity);

#ifdef __cplusplus
}
#endif
#endif
