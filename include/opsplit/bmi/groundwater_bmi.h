/* The groundwater module behind CSDMS's C BMI (bmi-c's bmi.h, struct Bmi): for a
 * framework that drives models through that function table. Header-only, over
 * groundwater.h's opsplit_gw_bmi_* calls, so that libopsplit does not need bmi-c to
 * build; include it after bmi.h:
 *
 *   #include <bmi.h>
 *   #include <opsplit/bmi/groundwater_bmi.h>
 *   Bmi model;
 *   register_bmi_opsplit_gw(&model);
 *   model.initialize(&model, "setup.yaml");   // opsplit_gw_load_yaml on a context of
 *                                             // OPSPLIT_BACKEND (AUTO: CUDA when present)
 *   model.update(&model); ...
 *   model.finalize(&model);
 *
 * Every function returns BMI_SUCCESS or BMI_FAILURE; after a failure
 * opsplit_last_error_message() says why (the BMI has no channel for it). BMI's int
 * sizes (get_var_nbytes, get_grid_size) fail past INT_MAX. get_value_ptr and the grid
 * functions that need coordinates, shapes, edges or faces fail: the module's grid 0 is
 * points without coordinates, grid 1 a scalar (groundwater.h). The names, types and
 * units are groundwater.h's, copied into the caller's BMI_MAX_*-sized buffers. */
#ifndef OPSPLIT_BMI_GROUNDWATER_BMI_H
#define OPSPLIT_BMI_GROUNDWATER_BMI_H

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "opsplit/opsplit.h"

#ifndef BMI_MAX_VAR_NAME
#error "include bmi.h (CSDMS bmi-c) before opsplit/bmi/groundwater_bmi.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* What the Bmi's data points at: the context and the module. */
typedef struct opsplit_gw_bmi_model {
  opsplit_context ctx;
  opsplit_gw gw;
} opsplit_gw_bmi_model;

static inline opsplit_gw opsplit_gw_bmi_of(Bmi* self) {
  return self->data != NULL ? ((opsplit_gw_bmi_model*)self->data)->gw : NULL;
}
static inline int opsplit_gw_bmi_status(opsplit_status s) { return s == OPSPLIT_SUCCESS ? BMI_SUCCESS : BMI_FAILURE; }
static inline void opsplit_gw_bmi_copy(char* out, const char* text, size_t capacity) {
  strncpy(out, text, capacity - 1);
  out[capacity - 1] = '\0';
}

static inline int opsplit_gw_bmi_finalize_(Bmi* self) {
  opsplit_gw_bmi_model* m = (opsplit_gw_bmi_model*)self->data;
  if (m == NULL) return BMI_SUCCESS;
  opsplit_gw_destroy(&m->gw);
  opsplit_context_destroy(&m->ctx);
  free(m);
  self->data = NULL;
  return BMI_SUCCESS;
}
static inline int opsplit_gw_bmi_initialize_(Bmi* self, const char* config_file) {
  opsplit_gw_bmi_finalize_(self); /* a second initialize starts afresh */
  opsplit_gw_bmi_model* m = (opsplit_gw_bmi_model*)calloc(1, sizeof *m);
  if (m == NULL) return BMI_FAILURE;
  opsplit_status s = opsplit_context_create(OPSPLIT_BACKEND_AUTO, &m->ctx);
  if (s == OPSPLIT_SUCCESS) s = opsplit_gw_load_yaml(m->ctx, config_file, &m->gw);
  if (s != OPSPLIT_SUCCESS) {
    /* The failure's message ("function: why") outlives the context's destruction. */
    const char* message = opsplit_last_error_message();
    const size_t n = strlen(message);
    char* saved = (char*)malloc(n + 1);
    if (saved != NULL) memcpy(saved, message, n + 1);
    opsplit_context_destroy(&m->ctx);
    free(m);
    if (saved != NULL) {
      char* why = strstr(saved, ": ");
      if (why != NULL) *why = '\0';
      opsplit_set_last_error(s, saved, why != NULL ? why + 2 : "");
      free(saved);
    }
    return BMI_FAILURE;
  }
  self->data = m;
  return BMI_SUCCESS;
}
static inline int opsplit_gw_bmi_update_(Bmi* self) { return opsplit_gw_bmi_status(opsplit_gw_bmi_update(opsplit_gw_bmi_of(self))); }
static inline int opsplit_gw_bmi_update_until_(Bmi* self, double then) {
  return opsplit_gw_bmi_status(opsplit_gw_bmi_update_until(opsplit_gw_bmi_of(self), then));
}

static inline int opsplit_gw_bmi_get_component_name_(Bmi* self, char* name) {
  (void)self;
  opsplit_gw_bmi_copy(name, "opsplit groundwater reaction module", BMI_MAX_COMPONENT_NAME);
  return BMI_SUCCESS;
}
static inline int opsplit_gw_bmi_count_(Bmi* self, opsplit_gw_bmi_role role, int* count) {
  return opsplit_gw_bmi_status(opsplit_gw_bmi_get_var_count(opsplit_gw_bmi_of(self), role, count));
}
static inline int opsplit_gw_bmi_get_input_item_count_(Bmi* self, int* count) {
  return opsplit_gw_bmi_count_(self, OPSPLIT_GW_BMI_INPUT, count);
}
static inline int opsplit_gw_bmi_get_output_item_count_(Bmi* self, int* count) {
  return opsplit_gw_bmi_count_(self, OPSPLIT_GW_BMI_OUTPUT, count);
}
static inline int opsplit_gw_bmi_names_(Bmi* self, opsplit_gw_bmi_role role, char** names) {
  int n = 0;
  if (opsplit_gw_bmi_count_(self, role, &n) != BMI_SUCCESS) return BMI_FAILURE;
  for (int i = 0; i < n; i++) {
    const char* name = NULL;
    if (opsplit_gw_bmi_get_var_name(opsplit_gw_bmi_of(self), role, i, &name) != OPSPLIT_SUCCESS) return BMI_FAILURE;
    opsplit_gw_bmi_copy(names[i], name, BMI_MAX_VAR_NAME);
  }
  return BMI_SUCCESS;
}
static inline int opsplit_gw_bmi_get_input_var_names_(Bmi* self, char** names) {
  return opsplit_gw_bmi_names_(self, OPSPLIT_GW_BMI_INPUT, names);
}
static inline int opsplit_gw_bmi_get_output_var_names_(Bmi* self, char** names) {
  return opsplit_gw_bmi_names_(self, OPSPLIT_GW_BMI_OUTPUT, names);
}

/* One item of a variable's information into `out` (a text of `capacity` bytes, or an int). */
typedef enum { OPSPLIT_GW_BMI_GRID_, OPSPLIT_GW_BMI_TYPE_, OPSPLIT_GW_BMI_UNITS_, OPSPLIT_GW_BMI_ITEMSIZE_,
               OPSPLIT_GW_BMI_NBYTES_, OPSPLIT_GW_BMI_LOCATION_ } opsplit_gw_bmi_info_;
static inline int opsplit_gw_bmi_info_item_(Bmi* self, const char* name, opsplit_gw_bmi_info_ item, void* out,
                                            size_t capacity) {
  const char *type = NULL, *units = NULL, *location = NULL;
  int grid = 0, itemsize = 0;
  int64_t nbytes = 0;
  if (opsplit_gw_bmi_get_var_info(opsplit_gw_bmi_of(self), name, &type, &units, &grid, &itemsize, &nbytes,
                                  &location) != OPSPLIT_SUCCESS)
    return BMI_FAILURE;
  switch (item) {
    case OPSPLIT_GW_BMI_GRID_: *(int*)out = grid; break;
    case OPSPLIT_GW_BMI_ITEMSIZE_: *(int*)out = itemsize; break;
    case OPSPLIT_GW_BMI_NBYTES_:
      if (nbytes > INT_MAX) return BMI_FAILURE;
      *(int*)out = (int)nbytes;
      break;
    case OPSPLIT_GW_BMI_TYPE_: opsplit_gw_bmi_copy((char*)out, type, capacity); break;
    case OPSPLIT_GW_BMI_UNITS_: opsplit_gw_bmi_copy((char*)out, units, capacity); break;
    default: opsplit_gw_bmi_copy((char*)out, location, capacity);
  }
  return BMI_SUCCESS;
}
static inline int opsplit_gw_bmi_get_var_grid_(Bmi* self, const char* name, int* grid) {
  return opsplit_gw_bmi_info_item_(self, name, OPSPLIT_GW_BMI_GRID_, grid, 0);
}
static inline int opsplit_gw_bmi_get_var_type_(Bmi* self, const char* name, char* type) {
  return opsplit_gw_bmi_info_item_(self, name, OPSPLIT_GW_BMI_TYPE_, type, BMI_MAX_TYPE_NAME);
}
static inline int opsplit_gw_bmi_get_var_units_(Bmi* self, const char* name, char* units) {
  return opsplit_gw_bmi_info_item_(self, name, OPSPLIT_GW_BMI_UNITS_, units, BMI_MAX_UNITS_NAME);
}
static inline int opsplit_gw_bmi_get_var_itemsize_(Bmi* self, const char* name, int* size) {
  return opsplit_gw_bmi_info_item_(self, name, OPSPLIT_GW_BMI_ITEMSIZE_, size, 0);
}
static inline int opsplit_gw_bmi_get_var_nbytes_(Bmi* self, const char* name, int* nbytes) {
  return opsplit_gw_bmi_info_item_(self, name, OPSPLIT_GW_BMI_NBYTES_, nbytes, 0);
}
static inline int opsplit_gw_bmi_get_var_location_(Bmi* self, const char* name, char* location) {
  return opsplit_gw_bmi_info_item_(self, name, OPSPLIT_GW_BMI_LOCATION_, location, BMI_MAX_UNITS_NAME);
}

static inline int opsplit_gw_bmi_get_current_time_(Bmi* self, double* time) {
  return opsplit_gw_bmi_status(opsplit_gw_bmi_get_times(opsplit_gw_bmi_of(self), NULL, time, NULL, NULL));
}
static inline int opsplit_gw_bmi_get_start_time_(Bmi* self, double* time) {
  return opsplit_gw_bmi_status(opsplit_gw_bmi_get_times(opsplit_gw_bmi_of(self), time, NULL, NULL, NULL));
}
static inline int opsplit_gw_bmi_get_end_time_(Bmi* self, double* time) {
  return opsplit_gw_bmi_status(opsplit_gw_bmi_get_times(opsplit_gw_bmi_of(self), NULL, NULL, time, NULL));
}
static inline int opsplit_gw_bmi_get_time_step_(Bmi* self, double* step) {
  return opsplit_gw_bmi_status(opsplit_gw_bmi_get_times(opsplit_gw_bmi_of(self), NULL, NULL, NULL, step));
}
static inline int opsplit_gw_bmi_get_time_units_(Bmi* self, char* units) {
  (void)self;
  opsplit_gw_bmi_copy(units, "s", BMI_MAX_UNITS_NAME);
  return BMI_SUCCESS;
}

static inline int opsplit_gw_bmi_get_value_(Bmi* self, const char* name, void* dest) {
  return opsplit_gw_bmi_status(opsplit_gw_bmi_get_value(opsplit_gw_bmi_of(self), name, dest));
}
static inline int opsplit_gw_bmi_get_value_ptr_(Bmi* self, const char* name, void** dest) {
  (void)self, (void)name, (void)dest;
  return BMI_FAILURE; /* the module keeps moles per chemistry cell, not the host's array */
}
static inline int opsplit_gw_bmi_get_value_at_indices_(Bmi* self, const char* name, void* dest, int* inds, int count) {
  return opsplit_gw_bmi_status(opsplit_gw_bmi_get_value_at_indices(opsplit_gw_bmi_of(self), name, dest, inds, count));
}
static inline int opsplit_gw_bmi_set_value_(Bmi* self, const char* name, void* src) {
  return opsplit_gw_bmi_status(opsplit_gw_bmi_set_value(opsplit_gw_bmi_of(self), name, src));
}
static inline int opsplit_gw_bmi_set_value_at_indices_(Bmi* self, const char* name, int* inds, int count, void* src) {
  return opsplit_gw_bmi_status(opsplit_gw_bmi_set_value_at_indices(opsplit_gw_bmi_of(self), name, inds, count, src));
}

static inline int opsplit_gw_bmi_get_grid_rank_(Bmi* self, int grid, int* rank) {
  return opsplit_gw_bmi_status(opsplit_gw_bmi_get_grid_info(opsplit_gw_bmi_of(self), grid, rank, NULL, NULL));
}
static inline int opsplit_gw_bmi_get_grid_size_(Bmi* self, int grid, int* size) {
  int64_t n = 0;
  if (opsplit_gw_bmi_get_grid_info(opsplit_gw_bmi_of(self), grid, NULL, &n, NULL) != OPSPLIT_SUCCESS || n > INT_MAX)
    return BMI_FAILURE;
  *size = (int)n;
  return BMI_SUCCESS;
}
static inline int opsplit_gw_bmi_get_grid_type_(Bmi* self, int grid, char* type) {
  const char* text = NULL;
  if (opsplit_gw_bmi_get_grid_info(opsplit_gw_bmi_of(self), grid, NULL, NULL, &text) != OPSPLIT_SUCCESS)
    return BMI_FAILURE;
  opsplit_gw_bmi_copy(type, text, BMI_MAX_TYPE_NAME);
  return BMI_SUCCESS;
}
static inline int opsplit_gw_bmi_get_grid_node_count_(Bmi* self, int grid, int* count) {
  return opsplit_gw_bmi_get_grid_size_(self, grid, count); /* points: a node each */
}
/* What a grid of points without coordinates, or a scalar, does not have. */
static inline int opsplit_gw_bmi_no_grid_ints_(Bmi* self, int grid, int* out) {
  (void)self, (void)grid, (void)out;
  return BMI_FAILURE;
}
static inline int opsplit_gw_bmi_no_grid_doubles_(Bmi* self, int grid, double* out) {
  (void)self, (void)grid, (void)out;
  return BMI_FAILURE;
}

/* Fills model's function table (data NULL until initialize). Returns model. */
static inline Bmi* register_bmi_opsplit_gw(Bmi* model) {
  model->data = NULL;
  model->initialize = opsplit_gw_bmi_initialize_;
  model->update = opsplit_gw_bmi_update_;
  model->update_until = opsplit_gw_bmi_update_until_;
  model->finalize = opsplit_gw_bmi_finalize_;
  model->get_component_name = opsplit_gw_bmi_get_component_name_;
  model->get_input_item_count = opsplit_gw_bmi_get_input_item_count_;
  model->get_output_item_count = opsplit_gw_bmi_get_output_item_count_;
  model->get_input_var_names = opsplit_gw_bmi_get_input_var_names_;
  model->get_output_var_names = opsplit_gw_bmi_get_output_var_names_;
  model->get_var_grid = opsplit_gw_bmi_get_var_grid_;
  model->get_var_type = opsplit_gw_bmi_get_var_type_;
  model->get_var_units = opsplit_gw_bmi_get_var_units_;
  model->get_var_itemsize = opsplit_gw_bmi_get_var_itemsize_;
  model->get_var_nbytes = opsplit_gw_bmi_get_var_nbytes_;
  model->get_var_location = opsplit_gw_bmi_get_var_location_;
  model->get_current_time = opsplit_gw_bmi_get_current_time_;
  model->get_start_time = opsplit_gw_bmi_get_start_time_;
  model->get_end_time = opsplit_gw_bmi_get_end_time_;
  model->get_time_units = opsplit_gw_bmi_get_time_units_;
  model->get_time_step = opsplit_gw_bmi_get_time_step_;
  model->get_value = opsplit_gw_bmi_get_value_;
  model->get_value_ptr = opsplit_gw_bmi_get_value_ptr_;
  model->get_value_at_indices = opsplit_gw_bmi_get_value_at_indices_;
  model->set_value = opsplit_gw_bmi_set_value_;
  model->set_value_at_indices = opsplit_gw_bmi_set_value_at_indices_;
  model->get_grid_rank = opsplit_gw_bmi_get_grid_rank_;
  model->get_grid_size = opsplit_gw_bmi_get_grid_size_;
  model->get_grid_type = opsplit_gw_bmi_get_grid_type_;
  model->get_grid_shape = opsplit_gw_bmi_no_grid_ints_;
  model->get_grid_spacing = opsplit_gw_bmi_no_grid_doubles_;
  model->get_grid_origin = opsplit_gw_bmi_no_grid_doubles_;
  model->get_grid_x = opsplit_gw_bmi_no_grid_doubles_;
  model->get_grid_y = opsplit_gw_bmi_no_grid_doubles_;
  model->get_grid_z = opsplit_gw_bmi_no_grid_doubles_;
  model->get_grid_node_count = opsplit_gw_bmi_get_grid_node_count_;
  model->get_grid_edge_count = opsplit_gw_bmi_no_grid_ints_;
  model->get_grid_face_count = opsplit_gw_bmi_no_grid_ints_;
  model->get_grid_edge_nodes = opsplit_gw_bmi_no_grid_ints_;
  model->get_grid_face_edges = opsplit_gw_bmi_no_grid_ints_;
  model->get_grid_face_nodes = opsplit_gw_bmi_no_grid_ints_;
  model->get_grid_nodes_per_face = opsplit_gw_bmi_no_grid_ints_;
  return model;
}

#ifdef __cplusplus
}
#endif

#endif /* OPSPLIT_BMI_GROUNDWATER_BMI_H */
