/* The groundwater module through CSDMS's C BMI (bmi-c's struct Bmi, filled by
 * opsplit/bmi/groundwater_bmi.h), driven as a framework drives any model: only through
 * the function table. The setup file is tests/data/groundwater/setup/decay.yaml (argument
 * 1): A -> B at k = 1e-5 1/s in four cells, A0 = 1, 2, 3, 4 mmol/L, one hour a step.
 * Built where pkg-config finds bmic (not Debian's or PyPI's: not in CI). */
#include <bmi.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opsplit/bmi/groundwater_bmi.h"

static int failures = 0;
#define CHECK(cond)                                                                              \
  do {                                                                                           \
    if (!(cond)) {                                                                               \
      fprintf(stderr, "%s:%d: %s failed (%s)\n", __FILE__, __LINE__, #cond, opsplit_last_error_message()); \
      failures++;                                                                                \
    }                                                                                            \
  } while (0)

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_bmi_c decay.yaml\n");
    return 2;
  }
  Bmi model;
  register_bmi_opsplit_gw(&model);
  CHECK(model.initialize(&model, "/nonexistent/setup.yaml") == BMI_FAILURE);
  CHECK(strstr(opsplit_last_error_message(), "/nonexistent/setup.yaml") != NULL);
  CHECK(model.update(&model) == BMI_FAILURE); /* nothing initialized */
  if (model.initialize(&model, argv[1]) != BMI_SUCCESS) {
    fprintf(stderr, "cannot initialize from %s: %s\n", argv[1], opsplit_last_error_message());
    return 1;
  }
  char text[BMI_MAX_VAR_NAME];
  CHECK(model.get_component_name(&model, text) == BMI_SUCCESS && strstr(text, "opsplit") != NULL);

  /* The variables describe themselves consistently. */
  int nin = 0, nout = 0;
  CHECK(model.get_input_item_count(&model, &nin) == BMI_SUCCESS && nin == 11);
  CHECK(model.get_output_item_count(&model, &nout) == BMI_SUCCESS && nout == 15);
  char** names = malloc(sizeof(char*) * (size_t)nout);
  for (int i = 0; i < nout; i++) names[i] = malloc(BMI_MAX_VAR_NAME);
  CHECK(model.get_output_var_names(&model, names) == BMI_SUCCESS);
  CHECK(strcmp(names[0], "Concentrations") == 0 && strcmp(names[nout - 1], "GridCellCount") == 0);
  for (int i = 0; i < nout; i++) {
    char type[BMI_MAX_TYPE_NAME], units[BMI_MAX_UNITS_NAME], location[BMI_MAX_UNITS_NAME], grid_type[BMI_MAX_TYPE_NAME];
    int grid = -1, itemsize = 0, nbytes = 0, rank = -1, size = 0;
    CHECK(model.get_var_type(&model, names[i], type) == BMI_SUCCESS);
    CHECK(model.get_var_units(&model, names[i], units) == BMI_SUCCESS && units[0] != '\0');
    CHECK(model.get_var_grid(&model, names[i], &grid) == BMI_SUCCESS);
    CHECK(model.get_var_itemsize(&model, names[i], &itemsize) == BMI_SUCCESS);
    CHECK(model.get_var_nbytes(&model, names[i], &nbytes) == BMI_SUCCESS);
    CHECK(model.get_var_location(&model, names[i], location) == BMI_SUCCESS);
    CHECK(model.get_grid_rank(&model, grid, &rank) == BMI_SUCCESS && rank == (grid == 0 ? 1 : 0));
    CHECK(model.get_grid_size(&model, grid, &size) == BMI_SUCCESS && size == (grid == 0 ? 4 : 1));
    CHECK(model.get_grid_type(&model, grid, grid_type) == BMI_SUCCESS);
    CHECK(strcmp(grid_type, grid == 0 ? "points" : "scalar") == 0);
    CHECK(itemsize == (strcmp(type, "int") == 0 ? 4 : 8) && (strcmp(type, "int") == 0 || strcmp(type, "double") == 0));
    CHECK(nbytes % (itemsize * size) == 0);
    CHECK(strcmp(location, grid == 0 ? "node" : "none") == 0);
  }
  for (int i = 0; i < nout; i++) free(names[i]);
  free(names);

  /* The clock and the decay: five updates, then until two days. */
  double start = -1, step = -1, now = -1, end = -1;
  CHECK(model.get_start_time(&model, &start) == BMI_SUCCESS && start == 0.0);
  CHECK(model.get_time_step(&model, &step) == BMI_SUCCESS && step == 3600.0);
  CHECK(model.get_end_time(&model, &end) == BMI_SUCCESS && end > 1e300);
  CHECK(model.get_time_units(&model, text) == BMI_SUCCESS && strcmp(text, "s") == 0);
  for (int k = 0; k < 5; k++) CHECK(model.update(&model) == BMI_SUCCESS);
  CHECK(model.get_current_time(&model, &now) == BMI_SUCCESS && now == 5 * 3600.0);
  CHECK(model.update_until(&model, 2 * 86400.0) == BMI_SUCCESS);
  CHECK(model.update_until(&model, 86400.0) == BMI_FAILURE); /* not back in time */
  int nbytes = 0;
  CHECK(model.get_var_nbytes(&model, "Concentrations", &nbytes) == BMI_SUCCESS && nbytes == 8 * 8);
  double c[8], at[2];
  CHECK(model.get_value(&model, "Concentrations", c) == BMI_SUCCESS);
  for (int g = 0; g < 4; g++) {
    const double a0 = 1e-3 * (g + 1);
    CHECK(fabs(c[g] - a0 * exp(-1e-5 * 2 * 86400.0)) < 1e-8 * a0);
    CHECK(fabs(c[g] + c[4 + g] - a0) < 1e-12 * a0);
  }
  int inds[2] = {7, 2};
  CHECK(model.get_value_at_indices(&model, "Concentrations", at, inds, 2) == BMI_SUCCESS);
  CHECK(at[0] == c[7] && at[1] == c[2]);

  /* Setting: whole, at indices, and refusals. */
  double porosity[4] = {0.3, 0.3, 0.3, 0.3}, back[4];
  CHECK(model.set_value(&model, "Porosity", porosity) == BMI_SUCCESS);
  double one[1] = {0.45};
  int cell[1] = {1};
  CHECK(model.set_value_at_indices(&model, "Porosity", cell, 1, one) == BMI_SUCCESS);
  CHECK(model.get_value(&model, "Porosity", back) == BMI_SUCCESS && back[0] == 0.3 && back[1] == 0.45);
  one[0] = 1.5;
  CHECK(model.set_value_at_indices(&model, "Porosity", cell, 1, one) == BMI_FAILURE);
  CHECK(strstr(opsplit_last_error_message(), "POROSITY") != NULL);
  int count[1] = {0};
  CHECK(model.get_value(&model, "GridCellCount", count) == BMI_SUCCESS && count[0] == 4);
  CHECK(model.set_value(&model, "GridCellCount", count) == BMI_FAILURE);
  CHECK(model.get_value(&model, "Nothing", c) == BMI_FAILURE);
  void* ptr = NULL;
  CHECK(model.get_value_ptr(&model, "Concentrations", &ptr) == BMI_FAILURE);
  CHECK(model.get_grid_x(&model, 0, c) == BMI_FAILURE);
  CHECK(model.get_grid_edge_count(&model, 0, count) == BMI_FAILURE);

  CHECK(model.finalize(&model) == BMI_SUCCESS);
  CHECK(model.finalize(&model) == BMI_SUCCESS); /* nothing left */
  CHECK(model.update(&model) == BMI_FAILURE);
  if (failures == 0) printf("test_bmi_c: all passed\n");
  return failures == 0 ? 0 : 1;
}
