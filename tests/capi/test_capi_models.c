/* C-API tests of the reaction, Cahn-Hilliard, advection, source, clock and diagnostic
 * entry points: bad input gets the right status and a message naming the argument,
 * changes nothing, and leaves the objects usable (checked by a final step whose
 * result is verified against the emission budget). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

#define N 6
#define CELLS (N * N * N)

int main(void) {
  opsplit_context ctx = NULL, other = NULL;
  CHECK_OK(opsplit_context_create(OPSPLIT_BACKEND_AUTO, &ctx));
  CHECK_OK(opsplit_context_create(OPSPLIT_BACKEND_CPU, &other));
  opsplit_field field = NULL, wind = NULL, wind2 = NULL, wind_f32 = NULL, small = NULL, foreign = NULL;
  CHECK_OK(opsplit_field_create(ctx, N, N, N, 3, OPSPLIT_FLOAT64, &field));
  CHECK_OK(opsplit_field_create(ctx, N, N, N, 3, OPSPLIT_FLOAT64, &wind));
  CHECK_OK(opsplit_field_create(ctx, N, N, N, 2, OPSPLIT_FLOAT64, &wind2));
  CHECK_OK(opsplit_field_create(ctx, N, N, N, 3, OPSPLIT_FLOAT32, &wind_f32));
  CHECK_OK(opsplit_field_create(ctx, N, N, 2, 3, OPSPLIT_FLOAT64, &small));
  CHECK_OK(opsplit_field_create(other, N, N, N, 3, OPSPLIT_FLOAT64, &foreign));
  opsplit_rd rd = NULL, rd1 = NULL;
  CHECK_OK(opsplit_rd_create(ctx, 3, &rd));
  CHECK_OK(opsplit_rd_create(ctx, 1, &rd1));

  /* ---- reaction kind and parameters ---- */
  const char* set_reaction = "opsplit_rd_set_reaction";
  EXPECT_ERROR(opsplit_rd_set_reaction(NULL, OPSPLIT_REACTION_TURING), OPSPLIT_ERROR_INVALID_HANDLE, set_reaction, "rd");
  EXPECT_ERROR(opsplit_rd_set_reaction(rd, (opsplit_reaction)4), OPSPLIT_ERROR_INVALID_ARGUMENT, set_reaction, "kind=4");
  EXPECT_ERROR(opsplit_rd_set_reaction(rd, (opsplit_reaction)-1), OPSPLIT_ERROR_INVALID_ARGUMENT, set_reaction,
               "kind=-1");
  EXPECT_ERROR(opsplit_rd_set_reaction(rd1, OPSPLIT_REACTION_TURING), OPSPLIT_ERROR_INVALID_ARGUMENT, set_reaction,
               "TURING needs 2 components");
  const char* set_param = "opsplit_rd_set_reaction_parameter";
  const char* get_param = "opsplit_rd_get_reaction_parameter";
  double value = 0;
  EXPECT_ERROR(opsplit_rd_set_reaction_parameter(rd, "gamma", 1.0), OPSPLIT_ERROR_INVALID_ARGUMENT, set_param,
               "not a parameter of the LINEAR reaction (it has none)");
  CHECK_OK(opsplit_rd_set_reaction(rd, OPSPLIT_REACTION_TURING));
  CHECK_OK(opsplit_rd_get_reaction_parameter(rd, "gamma", &value));
  CHECK(value == 26.0);
  CHECK_OK(opsplit_rd_set_reaction_parameter(rd, "gamma", 9.0));
  CHECK_OK(opsplit_rd_get_reaction_parameter(rd, "gamma", &value));
  CHECK(value == 9.0);
  EXPECT_ERROR(opsplit_rd_set_reaction_parameter(rd, "delta", 1.0), OPSPLIT_ERROR_INVALID_ARGUMENT, set_param,
               "(alpha, beta, gamma)");
  EXPECT_ERROR(opsplit_rd_set_reaction_parameter(rd, NULL, 1.0), OPSPLIT_ERROR_INVALID_ARGUMENT, set_param,
               "name is NULL");
  EXPECT_ERROR(opsplit_rd_set_reaction_parameter(rd, "alpha", NAN), OPSPLIT_ERROR_INVALID_ARGUMENT, set_param,
               "alpha=nan");
  EXPECT_ERROR(opsplit_rd_set_reaction_parameter(NULL, "alpha", 1.0), OPSPLIT_ERROR_INVALID_HANDLE, set_param, "rd");
  EXPECT_ERROR(opsplit_rd_get_reaction_parameter(rd, "alpha", NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, get_param,
               "value is NULL");
  EXPECT_ERROR(opsplit_rd_get_reaction_parameter(rd, "F", &value), OPSPLIT_ERROR_INVALID_ARGUMENT, get_param,
               "TURING");
  CHECK_OK(opsplit_rd_get_reaction_parameter(rd, "gamma", &value));
  CHECK(value == 9.0); /* failed calls changed nothing */
  /* PRECIPITATION's lambda..sigma are component 2's Cahn-Hilliard term. */
  CHECK_OK(opsplit_rd_set_reaction(rd, OPSPLIT_REACTION_PRECIPITATION));
  CHECK_OK(opsplit_rd_set_cahn_hilliard(rd, 2, 0.5, 0.25, 2.0, 0.125));
  CHECK_OK(opsplit_rd_get_reaction_parameter(rd, "lambda", &value));
  CHECK(value == 0.5);
  CHECK_OK(opsplit_rd_get_reaction_parameter(rd, "sigma", &value));
  CHECK(value == 0.125);
  EXPECT_ERROR(opsplit_rd_set_reaction_parameter(rd, "lambda", -1.0), OPSPLIT_ERROR_INVALID_ARGUMENT, set_param,
               "lambda=-1");

  /* ---- linear and Cahn-Hilliard terms ---- */
  const char* linear = "opsplit_rd_set_linear";
  EXPECT_ERROR(opsplit_rd_set_linear(rd, 3, 1, 0), OPSPLIT_ERROR_INVALID_ARGUMENT, linear, "comp=3");
  EXPECT_ERROR(opsplit_rd_set_linear(rd, -1, 1, 0), OPSPLIT_ERROR_INVALID_ARGUMENT, linear, "comp=-1");
  EXPECT_ERROR(opsplit_rd_set_linear(rd, 0, INFINITY, 0), OPSPLIT_ERROR_INVALID_ARGUMENT, linear, "rate=inf");
  EXPECT_ERROR(opsplit_rd_set_linear(rd, 0, 0, NAN), OPSPLIT_ERROR_INVALID_ARGUMENT, linear, "source=nan");
  EXPECT_ERROR(opsplit_rd_set_linear(NULL, 0, 0, 0), OPSPLIT_ERROR_INVALID_HANDLE, linear, "rd");
  const char* ch = "opsplit_rd_set_cahn_hilliard";
  EXPECT_ERROR(opsplit_rd_set_cahn_hilliard(rd, 0, -1, 1, 1, 1), OPSPLIT_ERROR_INVALID_ARGUMENT, ch, "m=-1");
  EXPECT_ERROR(opsplit_rd_set_cahn_hilliard(rd, 0, 1, 1, 1, -2), OPSPLIT_ERROR_INVALID_ARGUMENT, ch, "kappa=-2");
  EXPECT_ERROR(opsplit_rd_set_cahn_hilliard(rd, 0, 1, NAN, 1, 1), OPSPLIT_ERROR_INVALID_ARGUMENT, ch, "b=nan");
  EXPECT_ERROR(opsplit_rd_set_cahn_hilliard(rd, 0, 1, 1, INFINITY, 1), OPSPLIT_ERROR_INVALID_ARGUMENT, ch, "u=inf");
  EXPECT_ERROR(opsplit_rd_set_cahn_hilliard(rd, 5, 1, 1, 1, 1), OPSPLIT_ERROR_INVALID_ARGUMENT, ch, "comp=5");
  EXPECT_ERROR(opsplit_rd_set_cahn_hilliard(NULL, 0, 1, 1, 1, 1), OPSPLIT_ERROR_INVALID_HANDLE, ch, "rd");

  /* ---- velocity ---- */
  const char* vel = "opsplit_rd_set_velocity";
  EXPECT_ERROR(opsplit_rd_set_velocity(rd, 3, 1, 0, 0, 0), OPSPLIT_ERROR_INVALID_ARGUMENT, vel, "axis=3");
  EXPECT_ERROR(opsplit_rd_set_velocity(rd, -1, 1, 0, 0, 0), OPSPLIT_ERROR_INVALID_ARGUMENT, vel, "axis=-1");
  EXPECT_ERROR(opsplit_rd_set_velocity(rd, 0, NAN, 0, 0, 0), OPSPLIT_ERROR_INVALID_ARGUMENT, vel, "constant=nan");
  EXPECT_ERROR(opsplit_rd_set_velocity(rd, 0, 1, INFINITY, 0, 0), OPSPLIT_ERROR_INVALID_ARGUMENT, vel, "amplitude");
  EXPECT_ERROR(opsplit_rd_set_velocity(rd, 0, 1, 0, NAN, 0), OPSPLIT_ERROR_INVALID_ARGUMENT, vel, "angular_frequency");
  EXPECT_ERROR(opsplit_rd_set_velocity(rd, 0, 1, 0, 0, -INFINITY), OPSPLIT_ERROR_INVALID_ARGUMENT, vel, "phase");
  EXPECT_ERROR(opsplit_rd_set_velocity(NULL, 0, 1, 0, 0, 0), OPSPLIT_ERROR_INVALID_HANDLE, vel, "rd");
  const char* vf = "opsplit_rd_set_velocity_field";
  EXPECT_ERROR(opsplit_rd_set_velocity_field(rd, wind2), OPSPLIT_ERROR_INVALID_ARGUMENT, vf, "ncomp=2");
  EXPECT_ERROR(opsplit_rd_set_velocity_field(rd, foreign), OPSPLIT_ERROR_INVALID_ARGUMENT, vf, "different contexts");
  EXPECT_ERROR(opsplit_rd_set_velocity_field(NULL, wind), OPSPLIT_ERROR_INVALID_HANDLE, vf, "rd");
  EXPECT_ERROR(opsplit_rd_set_velocity_field(rd, (opsplit_field)(void*)rd1), OPSPLIT_ERROR_INVALID_HANDLE, vf,
               "velocity");
  double* w = calloc(3 * CELLS, sizeof(double));
  w[CELLS + 7] = NAN;
  CHECK_OK(opsplit_field_upload(wind, w, OPSPLIT_LAYOUT_PLANAR));
  EXPECT_ERROR(opsplit_rd_set_velocity_field(rd, wind), OPSPLIT_ERROR_INVALID_ARGUMENT, vf, "component y");
  w[CELLS + 7] = 0.5;
  CHECK_OK(opsplit_field_upload(wind, w, OPSPLIT_LAYOUT_PLANAR));
  CHECK_OK(opsplit_rd_set_velocity_field(rd, wind_f32));
  double dt = 0;
  const char* step = "opsplit_rd_step";
  EXPECT_ERROR(opsplit_rd_step(rd, field, 0.01, 1), OPSPLIT_ERROR_INVALID_ARGUMENT, step, "different precisions");
  CHECK_OK(opsplit_rd_set_velocity_field(rd, wind));
  EXPECT_ERROR(opsplit_rd_step(rd, small, 0.01, 1), OPSPLIT_ERROR_INVALID_ARGUMENT, step, "6x6x6 cells but field is 6x6x2");
  /* The wind is a copy: destroying its field changes nothing. */
  CHECK_OK(opsplit_field_destroy(&wind));
  CHECK_OK(opsplit_rd_max_stable_dt(rd, field, &dt));
  CHECK(dt > 0 && dt < INFINITY);

  /* ---- sources and clock ---- */
  const char* src = "opsplit_rd_add_source";
  EXPECT_ERROR(opsplit_rd_add_source(rd, 3, 0, 0, 0, 1), OPSPLIT_ERROR_INVALID_ARGUMENT, src, "comp=3");
  EXPECT_ERROR(opsplit_rd_add_source(rd, 0, -1, 0, 0, 1), OPSPLIT_ERROR_INVALID_ARGUMENT, src, "negative index");
  EXPECT_ERROR(opsplit_rd_add_source(rd, 0, 0, 0, 0, NAN), OPSPLIT_ERROR_INVALID_ARGUMENT, src, "rate=nan");
  EXPECT_ERROR(opsplit_rd_add_source(NULL, 0, 0, 0, 0, 1), OPSPLIT_ERROR_INVALID_HANDLE, src, "rd");
  CHECK_OK(opsplit_rd_add_source(rd, 1, 2, 3, N, 1.0)); /* k = N is outside: refused at the step */
  EXPECT_ERROR(opsplit_rd_step(rd, field, dt, 1), OPSPLIT_ERROR_INVALID_ARGUMENT, step, "outside the field");
  CHECK_OK(opsplit_rd_clear_sources(rd));
  EXPECT_ERROR(opsplit_rd_clear_sources(NULL), OPSPLIT_ERROR_INVALID_HANDLE, "opsplit_rd_clear_sources", "rd");
  EXPECT_ERROR(opsplit_rd_set_time(rd, NAN), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_rd_set_time", "t=nan");
  EXPECT_ERROR(opsplit_rd_set_time(NULL, 0), OPSPLIT_ERROR_INVALID_HANDLE, "opsplit_rd_set_time", "rd");
  EXPECT_ERROR(opsplit_rd_get_time(rd, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_rd_get_time", "t is NULL");
  EXPECT_ERROR(opsplit_rd_get_time(NULL, &value), OPSPLIT_ERROR_INVALID_HANDLE, "opsplit_rd_get_time", "rd");

  /* ---- diagnostics ---- */
  const char* fe = "opsplit_rd_free_energy";
  double energy = 0, lo = 0, hi = 0;
  EXPECT_ERROR(opsplit_rd_free_energy(rd, field, 0, &energy), OPSPLIT_ERROR_INVALID_ARGUMENT, fe,
               "component 0 has no Cahn-Hilliard term");
  EXPECT_ERROR(opsplit_rd_free_energy(rd, field, 3, &energy), OPSPLIT_ERROR_INVALID_ARGUMENT, fe, "comp=3");
  EXPECT_ERROR(opsplit_rd_free_energy(rd, field, 2, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, fe, "energy is NULL");
  EXPECT_ERROR(opsplit_rd_free_energy(rd1, field, 0, &energy), OPSPLIT_ERROR_INVALID_ARGUMENT, fe, "ncomp");
  EXPECT_ERROR(opsplit_rd_free_energy(NULL, field, 0, &energy), OPSPLIT_ERROR_INVALID_HANDLE, fe, "rd");
  EXPECT_ERROR(opsplit_rd_free_energy(rd, NULL, 0, &energy), OPSPLIT_ERROR_INVALID_HANDLE, fe, "field");
  const char* mm = "opsplit_field_component_min_max";
  EXPECT_ERROR(opsplit_field_component_min_max(field, 3, &lo, &hi), OPSPLIT_ERROR_INVALID_ARGUMENT, mm, "comp=3");
  EXPECT_ERROR(opsplit_field_component_min_max(field, 0, NULL, &hi), OPSPLIT_ERROR_INVALID_ARGUMENT, mm, "min");
  EXPECT_ERROR(opsplit_field_component_min_max(field, 0, &lo, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, mm, "max");
  EXPECT_ERROR(opsplit_field_component_min_max(NULL, 0, &lo, &hi), OPSPLIT_ERROR_INVALID_HANDLE, mm, "field");

  /* After all that, the objects still work: with sources only (no velocity, no
   * reactions) each cell's emission adds exactly rate * t to the sum. */
  CHECK_OK(opsplit_rd_set_reaction(rd, OPSPLIT_REACTION_LINEAR));
  CHECK_OK(opsplit_rd_set_velocity_field(rd, NULL));
  CHECK_OK(opsplit_rd_set_velocity(rd, 0, 0, 0, 0, 0));
  CHECK_OK(opsplit_rd_set_cahn_hilliard(rd, 2, 0, 0, 0, 0));
  CHECK_OK(opsplit_rd_set_diffusion(rd, 1, 0.5));
  CHECK_OK(opsplit_rd_add_source(rd, 1, 2, 3, 4, 0.75));
  CHECK_OK(opsplit_rd_add_source(rd, 1, 0, 0, 0, 0.25));
  CHECK_OK(opsplit_rd_set_time(rd, 10.0));
  double before = 0, after = 0, t = 0;
  CHECK_OK(opsplit_field_component_sum(field, 1, &before));
  CHECK_OK(opsplit_rd_step(rd, field, 0.1, 20));
  CHECK_OK(opsplit_field_component_sum(field, 1, &after));
  CHECK(fabs(after - before - 1.0 * 2.0) < 1e-13);
  CHECK_OK(opsplit_rd_get_time(rd, &t));
  CHECK(fabs(t - 12.0) < 1e-13);
  CHECK_OK(opsplit_field_component_min_max(field, 1, &lo, &hi));
  CHECK(lo >= 0 && hi > 0 && hi < 2.0);

  free(w);
  CHECK_OK(opsplit_rd_destroy(&rd));
  CHECK_OK(opsplit_rd_destroy(&rd1));
  CHECK_OK(opsplit_field_destroy(&field));
  CHECK_OK(opsplit_field_destroy(&wind2));
  CHECK_OK(opsplit_field_destroy(&wind_f32));
  CHECK_OK(opsplit_field_destroy(&small));
  CHECK_OK(opsplit_field_destroy(&foreign));
  CHECK_OK(opsplit_context_destroy(&ctx));
  CHECK_OK(opsplit_context_destroy(&other));
  return check_summary();
}
