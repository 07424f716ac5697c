// The groundwater module's setup file and BMI face, on the backend OPSPLIT_BACKEND names:
// a file with every key against the same module built through the C API (every number
// the same bits), the BMI calls against the module's own (update against run, indexed
// access against whole arrays, the clock), a decay against its exact solution, and bad
// files, each refused with its line.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "opsplit/groundwater.h"

namespace {

using test::Mechanism;

const std::string kSetupDir = std::string(OPSPLIT_TEST_DATA) + "/groundwater/setup/";

struct Loaded {
  opsplit_gw gw = nullptr;
  Loaded(opsplit_context ctx, const std::string& path) {
    EXPECT_EQ(opsplit_gw_load_yaml(ctx, path.c_str(), &gw), OPSPLIT_SUCCESS) << opsplit_last_error_message();
    if (gw == nullptr) throw std::runtime_error("cannot load " + path + ": " + opsplit_last_error_message());
  }
  ~Loaded() { EXPECT_EQ(opsplit_gw_destroy(&gw), OPSPLIT_SUCCESS); }
  operator opsplit_gw() const { return gw; }
};

std::vector<double> doubles(opsplit_gw gw, const char* name) {
  int64_t nbytes = 0;
  EXPECT_EQ(opsplit_gw_bmi_get_var_info(gw, name, nullptr, nullptr, nullptr, nullptr, &nbytes, nullptr),
            OPSPLIT_SUCCESS)
      << opsplit_last_error_message();
  std::vector<double> v(static_cast<size_t>(nbytes) / sizeof(double));
  EXPECT_EQ(opsplit_gw_bmi_get_value(gw, name, v.data()), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  return v;
}

// Same bits, NaN equal to NaN (the grid cells the mapping leaves out).
void expect_same(const std::vector<double>& a, const std::vector<double>& b, const char* what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (size_t i = 0; i < a.size(); ++i)
    EXPECT_TRUE(std::memcmp(&a[i], &b[i], sizeof(double)) == 0) << what << "[" << i << "]: " << a[i] << " vs " << b[i];
}

// dechlorination.yaml through the C API, call by call.
opsplit_gw build_dechlorination(opsplit_context ctx) {
  Mechanism m(ctx);
  const char* names[] = {"PCE", "TCE", "DCE", "VC", "ethene", "lactate", "O2", "biomass", "PCE_sorbed"};
  int s[9];
  for (int i = 0; i < 9; ++i) s[i] = m.species(names[i]);
  enum { PCE, TCE, DCE, VC, ETHENE, LACTATE, O2, BIOMASS, SORBED };
  const int r0 = m.decay(s[PCE], {s[TCE]}, {1.0}, 2.0e-6);
  EXPECT_EQ(opsplit_mechanism_add_rate_factor(m, r0, OPSPLIT_FACTOR_INHIBITION, s[O2], 6.0e-6, 0.0), OPSPLIT_SUCCESS);
  m.decay(s[TCE], {s[DCE]}, {1.0}, 7.0e-7);
  m.decay(s[DCE], {s[VC]}, {1.0}, 3.0e-7);
  EXPECT_EQ(opsplit_mechanism_name_parameter(m, 0, "TEMP"), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_mechanism_name_parameter(m, 1, "PRESS"), OPSPLIT_SUCCESS);
  int r3 = -1;
  const double one = 1.0;
  EXPECT_EQ(opsplit_mechanism_add_reaction_yields(m, 1, &s[VC], nullptr, 1, &s[ETHENE], &one, &r3), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_mechanism_set_rate_expression(m, r3, "1.0e-6*exp(-2000*(1/TEMP - 1/298.15))"), OPSPLIT_SUCCESS)
      << opsplit_last_error_message();
  const int r4 = m.decay(s[BIOMASS], {s[BIOMASS], s[LACTATE], s[O2]}, {1.4, -1.0, -0.6}, 2.0e-5);
  EXPECT_EQ(opsplit_mechanism_add_rate_factor(m, r4, OPSPLIT_FACTOR_MONOD, s[LACTATE], 1.0e-4, 0.0), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_mechanism_add_rate_factor(m, r4, OPSPLIT_FACTOR_MONOD, s[O2], 3.0e-6, 1.0e-7), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_mechanism_add_rate_factor(m, r4, OPSPLIT_FACTOR_THRESHOLD, s[O2], 2.0e-7, 1.0e7), OPSPLIT_SUCCESS);
  m.decay(s[BIOMASS], {}, {}, 1.0e-7);
  m.decay(s[PCE], {s[SORBED]}, {1.0}, 1.0e-6);
  m.decay(s[SORBED], {s[PCE]}, {1.0}, 4.0e-6);

  opsplit_gw gw = nullptr;
  EXPECT_EQ(opsplit_gw_create(ctx, m, 6, &gw), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  EXPECT_EQ(opsplit_gw_set_units(gw, OPSPLIT_GW_MG_PER_L, OPSPLIT_GW_PER_L_ROCK), OPSPLIT_SUCCESS);
  const double grams[9] = {165.83, 131.39, 96.94, 62.5, 28.05, 89.07, 32.0, 113.11, 165.83};
  EXPECT_EQ(opsplit_gw_set_molar_masses(gw, grams), OPSPLIT_SUCCESS);
  const int map[6] = {0, 1, 2, -1, 2, 3};
  EXPECT_EQ(opsplit_gw_set_mapping(gw, map), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_gw_set_mobile(gw, s[BIOMASS], 0), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_gw_set_mobile(gw, s[SORBED], 0), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_gw_set_isotherm(gw, s[TCE], OPSPLIT_GW_ISOTHERM_FREUNDLICH, 0.1, 0.8), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_gw_set_isotherm(gw, s[DCE], OPSPLIT_GW_ISOTHERM_LINEAR, 0.05, 0.0), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_gw_set_isotherm(gw, s[VC], OPSPLIT_GW_ISOTHERM_LANGMUIR, 2.0e3, 1.0e-4), OPSPLIT_SUCCESS);
  const std::vector<double> porosity = {0.25, 0.3, 0.2, 0.3, 0.35, 0.3}, saturation = {1, 0.9, 1, 1, 0.8, 1},
                            volume(6, 2.0), temperature = {10, 12, 15, 15, 18, 20}, bulk(6, 1.8);
  EXPECT_EQ(opsplit_gw_set_property(gw, OPSPLIT_GW_POROSITY, porosity.data()), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_gw_set_property(gw, OPSPLIT_GW_SATURATION, saturation.data()), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_gw_set_property(gw, OPSPLIT_GW_VOLUME, volume.data()), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_gw_set_property(gw, OPSPLIT_GW_TEMPERATURE, temperature.data()), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_gw_set_property(gw, OPSPLIT_GW_BULK_DENSITY, bulk.data()), OPSPLIT_SUCCESS);
  // Components PCE TCE DCE VC ethene lactate O2; immobile biomass, PCE_sorbed.
  std::vector<double> c(7 * 6, 0.0), solid(2 * 6, 0.0);
  const double pce[6] = {10, 5, 2, 0, 1, 0.5}, o2[6] = {8, 4, 1, 0, 0.5, 0.05}, sorbed[6] = {1e-6, 0, 2e-6, 0, 0, 5e-7};
  for (int g = 0; g < 6; ++g) {
    c[0 * 6 + g] = pce[g], c[5 * 6 + g] = 50, c[6 * 6 + g] = o2[g];
    solid[0 * 6 + g] = 1.0e-5, solid[1 * 6 + g] = sorbed[g];
  }
  EXPECT_EQ(opsplit_gw_set_concentrations(gw, c.data()), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  EXPECT_EQ(opsplit_gw_set_immobile(gw, solid.data()), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  EXPECT_EQ(opsplit_gw_set_method(gw, OPSPLIT_ODE_ROSENBROCK), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_gw_set_tolerances(gw, 1.0e-8, 1.0e-14), OPSPLIT_SUCCESS);
  return gw;
}

TEST(Setup, FileGivesTheModuleTheCallsGive) {
  test::Context ctx;
  Loaded file(ctx, kSetupDir + "dechlorination.yaml");
  opsplit_gw api = build_dechlorination(ctx);
  ASSERT_NE(api, nullptr);
  int64_t nxyz = 0, nchem = 0;
  int ncomp = 0, nimm = 0;
  OPSPLIT_OK(opsplit_gw_get_counts(file, &nxyz, &nchem, &ncomp, &nimm));
  EXPECT_EQ(nxyz, 6);
  EXPECT_EQ(nchem, 4);
  EXPECT_EQ(ncomp, 7);
  EXPECT_EQ(nimm, 2);
  const char* name = nullptr;
  OPSPLIT_OK(opsplit_gw_get_species_name(file, 8, &name));
  EXPECT_STREQ(name, "PCE_sorbed");
  double start = -1, now = -1, end = -1, step = -1;
  OPSPLIT_OK(opsplit_gw_bmi_get_times(file, &start, &now, &end, &step));
  EXPECT_EQ(start, 0.0);
  EXPECT_EQ(end, 864000.0);
  EXPECT_EQ(step, 86400.0);
  // Three days through BMI's update against three runs of the C API's module: the same
  // bits in every value either gives (the file set what the calls set).
  std::vector<double> c(7 * 6), c_api(7 * 6), m(2 * 6), m_api(2 * 6), r(7 * 6), r_api(7 * 6), moles(9), moles_api(9);
  for (int day = 0; day < 3; ++day) {
    OPSPLIT_OK(opsplit_gw_bmi_update(file));
    OPSPLIT_OK(opsplit_gw_run(api, 86400.0));
  }
  OPSPLIT_OK(opsplit_gw_get_concentrations(file, c.data()));
  OPSPLIT_OK(opsplit_gw_get_concentrations(api, c_api.data()));
  OPSPLIT_OK(opsplit_gw_get_immobile(file, m.data()));
  OPSPLIT_OK(opsplit_gw_get_immobile(api, m_api.data()));
  OPSPLIT_OK(opsplit_gw_get_retardation(file, r.data()));
  OPSPLIT_OK(opsplit_gw_get_retardation(api, r_api.data()));
  OPSPLIT_OK(opsplit_gw_get_moles(file, moles.data()));
  OPSPLIT_OK(opsplit_gw_get_moles(api, moles_api.data()));
  expect_same(c, c_api, "concentrations");
  expect_same(m, m_api, "immobile");
  expect_same(r, r_api, "retardation");
  expect_same(moles, moles_api, "moles");
  // The chemistry moved (PCE degraded, biomass grew where there was oxygen).
  EXPECT_LT(c[0], 10.0 * 0.9);
  EXPECT_GT(c[1 * 6 + 0], 0.1);
  OPSPLIT_OK(opsplit_gw_bmi_get_times(file, nullptr, &now, nullptr, nullptr));
  EXPECT_EQ(now, 3 * 86400.0);
  // BMI's arrays are the C API's, NaN where the mapping leaves a grid cell out.
  std::vector<double> bmi_c = doubles(file, "Concentrations");
  for (int i = 0; i < 7; ++i) c_api[static_cast<size_t>(i * 6 + 3)] = std::nan("");
  expect_same(bmi_c, c_api, "BMI Concentrations");
  std::vector<double> bmi_r = doubles(file, "Retardation");
  for (int i = 0; i < 7; ++i) r_api[static_cast<size_t>(i * 6 + 3)] = std::nan("");
  expect_same(bmi_r, r_api, "BMI Retardation");
  EXPECT_EQ(opsplit_gw_destroy(&api), OPSPLIT_SUCCESS);
}

TEST(Bmi, VariablesDescribeThemselves) {
  test::Context ctx;
  Loaded gw(ctx, kSetupDir + "dechlorination.yaml");
  int inputs = 0, outputs = 0;
  OPSPLIT_OK(opsplit_gw_bmi_get_var_count(gw, OPSPLIT_GW_BMI_INPUT, &inputs));
  OPSPLIT_OK(opsplit_gw_bmi_get_var_count(gw, OPSPLIT_GW_BMI_OUTPUT, &outputs));
  EXPECT_EQ(inputs, 11);
  EXPECT_EQ(outputs, 15);
  for (int i = 0; i < outputs; ++i) {
    const char *name = nullptr, *type = nullptr, *units = nullptr, *location = nullptr;
    int grid = -1, itemsize = 0;
    int64_t nbytes = 0;
    OPSPLIT_OK(opsplit_gw_bmi_get_var_name(gw, OPSPLIT_GW_BMI_OUTPUT, i, &name));
    OPSPLIT_OK(opsplit_gw_bmi_get_var_info(gw, name, &type, &units, &grid, &itemsize, &nbytes, &location));
    int rank = -1;
    int64_t size = 0;
    const char* grid_type = nullptr;
    OPSPLIT_OK(opsplit_gw_bmi_get_grid_info(gw, grid, &rank, &size, &grid_type));
    EXPECT_EQ(itemsize, std::strcmp(type, "int") == 0 ? 4 : 8) << name;
    EXPECT_EQ(nbytes % (itemsize * size), 0) << name;  // whole values per grid point
    EXPECT_STREQ(location, grid == 0 ? "node" : "none") << name;
    EXPECT_STREQ(grid_type, grid == 0 ? "points" : "scalar") << name;
    if (i < inputs) {
      const char* input = nullptr;
      OPSPLIT_OK(opsplit_gw_bmi_get_var_name(gw, OPSPLIT_GW_BMI_INPUT, i, &input));
      EXPECT_STREQ(input, name);
    }
  }
  const char* units = nullptr;
  int64_t nbytes = 0;
  OPSPLIT_OK(opsplit_gw_bmi_get_var_info(gw, "Concentrations", nullptr, &units, nullptr, nullptr, &nbytes, nullptr));
  EXPECT_STREQ(units, "mg L-1");
  EXPECT_EQ(nbytes, 7 * 6 * 8);
  OPSPLIT_OK(opsplit_gw_bmi_get_var_info(gw, "ImmobileAmounts", nullptr, nullptr, nullptr, nullptr, &nbytes, nullptr));
  EXPECT_EQ(nbytes, 2 * 6 * 8);
  OPSPLIT_OK(opsplit_gw_bmi_get_var_info(gw, "Temperature", nullptr, &units, nullptr, nullptr, &nbytes, nullptr));
  EXPECT_STREQ(units, "degC");
  EXPECT_EQ(nbytes, 6 * 8);
  int count[2] = {0, 0};
  OPSPLIT_OK(opsplit_gw_bmi_get_value(gw, "ComponentCount", &count[0]));
  OPSPLIT_OK(opsplit_gw_bmi_get_value(gw, "GridCellCount", &count[1]));
  EXPECT_EQ(count[0], 7);
  EXPECT_EQ(count[1], 6);
  EXPECT_EQ(doubles(gw, "Temperature"), (std::vector<double>{10, 12, 15, 15, 18, 20}));
  // Misuse: an unknown name, an output set, a role or grid that does not exist.
  double x = 1.0;
  EXPECT_EQ(opsplit_gw_bmi_get_value(gw, "Concentration", &x), OPSPLIT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(opsplit_last_error_message(), "\"Concentration\" is not a variable"), nullptr);
  EXPECT_EQ(opsplit_gw_bmi_set_value(gw, "Retardation", &x), OPSPLIT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(opsplit_last_error_message(), "is an output"), nullptr);
  EXPECT_EQ(opsplit_gw_bmi_get_var_count(gw, static_cast<opsplit_gw_bmi_role>(2), &inputs),
            OPSPLIT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(opsplit_gw_bmi_get_grid_info(gw, 2, nullptr, nullptr, nullptr), OPSPLIT_ERROR_INVALID_ARGUMENT);
}

TEST(Bmi, DecayFollowsItsExactSolutionThroughUpdate) {
  test::Context ctx;
  Loaded gw(ctx, kSetupDir + "decay.yaml");
  const double k = 1.0e-5, a0[4] = {1.0e-3, 2.0e-3, 3.0e-3, 4.0e-3};
  for (int step = 0; step < 5; ++step) OPSPLIT_OK(opsplit_gw_bmi_update(gw));  // 5 h
  const double until = 2.0 * 86400.0;
  OPSPLIT_OK(opsplit_gw_bmi_update_until(gw, until));
  double now = 0;
  OPSPLIT_OK(opsplit_gw_bmi_get_times(gw, nullptr, &now, nullptr, nullptr));
  EXPECT_EQ(now, until);
  const std::vector<double> c = doubles(gw, "Concentrations");
  for (int g = 0; g < 4; ++g) {
    EXPECT_NEAR(c[static_cast<size_t>(g)], a0[g] * std::exp(-k * until), 1e-8 * a0[g]) << g;
    EXPECT_NEAR(c[static_cast<size_t>(g)] + c[static_cast<size_t>(4 + g)], a0[g], 1e-12 * a0[g]) << g;
  }
  // update_until cannot go back; the module keeps its time.
  EXPECT_EQ(opsplit_gw_bmi_update_until(gw, until - 1.0), OPSPLIT_ERROR_INVALID_ARGUMENT);
  OPSPLIT_OK(opsplit_gw_bmi_get_times(gw, nullptr, &now, nullptr, nullptr));
  EXPECT_EQ(now, until);
  // A new step through set_value, and Time itself moved.
  const double hour = 3600.0, day0 = 0.0;
  OPSPLIT_OK(opsplit_gw_bmi_set_value(gw, "TimeStep", &hour));
  OPSPLIT_OK(opsplit_gw_bmi_set_value(gw, "Time", &day0));
  OPSPLIT_OK(opsplit_gw_bmi_update(gw));
  OPSPLIT_OK(opsplit_gw_bmi_get_times(gw, nullptr, &now, nullptr, nullptr));
  EXPECT_EQ(now, hour);
  const double negative = -1.0;
  EXPECT_EQ(opsplit_gw_bmi_set_value(gw, "TimeStep", &negative), OPSPLIT_ERROR_INVALID_ARGUMENT);
  // A step that did not run (cancelled by the progress callback) leaves the clock; the CPU
  // backend reports progress as it goes, so there it is cancelled.
  std::vector<double> before = doubles(gw, "Concentrations");
  OPSPLIT_OK(opsplit_context_set_progress_callback(ctx, [](double, const char*, void*) { return 1; }, nullptr));
  const opsplit_status cancelled = opsplit_gw_bmi_update(gw);
  OPSPLIT_OK(opsplit_context_set_progress_callback(ctx, nullptr, nullptr));
  opsplit_backend backend = OPSPLIT_BACKEND_AUTO;
  OPSPLIT_OK(opsplit_context_get_backend(ctx, &backend));
  if (backend == OPSPLIT_BACKEND_CPU) {
    EXPECT_EQ(cancelled, OPSPLIT_ERROR_CANCELLED);
  }
  OPSPLIT_OK(opsplit_gw_bmi_get_times(gw, nullptr, &now, nullptr, nullptr));
  if (cancelled == OPSPLIT_ERROR_CANCELLED) {
    EXPECT_EQ(now, hour) << "a cancelled step leaves the clock";
    expect_same(doubles(gw, "Concentrations"), before, "a cancelled step's concentrations");
  } else {
    EXPECT_EQ(cancelled, OPSPLIT_SUCCESS);
    EXPECT_EQ(now, 2 * hour);
  }
}

TEST(Bmi, IndexedAccessIsTheWholeArrays) {
  test::Context ctx;
  Loaded gw(ctx, kSetupDir + "dechlorination.yaml");
  const std::vector<double> before = doubles(gw, "Concentrations");
  // Indexed reads are the whole array's values.
  const int at[4] = {0, 13, 41, 3};
  double got[4];
  OPSPLIT_OK(opsplit_gw_bmi_get_value_at_indices(gw, "Concentrations", got, at, 4));
  for (int j = 0; j < 4; ++j) {
    const double want = before[static_cast<size_t>(at[j])];
    EXPECT_TRUE(std::memcmp(&got[j], &want, sizeof want) == 0) << at[j];
  }
  // Indexed writes change those values only (PCE in grid cell 1; O2 in grid cell 5).
  const int where[2] = {1, 6 * 6 + 5};
  const double values[2] = {7.5, 0.25};
  OPSPLIT_OK(opsplit_gw_bmi_set_value_at_indices(gw, "Concentrations", where, 2, values));
  std::vector<double> after = doubles(gw, "Concentrations");
  std::vector<double> want = before;
  want[1] = 7.5, want[6 * 6 + 5] = 0.25;
  expect_same(after, want, "after an indexed write");
  // A refused write (one bad value among good ones) changes nothing.
  const double bad[2] = {1.0, std::nan("")};
  EXPECT_EQ(opsplit_gw_bmi_set_value_at_indices(gw, "Concentrations", where, 2, bad), OPSPLIT_ERROR_INVALID_ARGUMENT);
  expect_same(doubles(gw, "Concentrations"), want, "after a refused write");
  const int outside[1] = {42};
  EXPECT_EQ(opsplit_gw_bmi_get_value_at_indices(gw, "Concentrations", got, outside, 1), OPSPLIT_ERROR_INVALID_ARGUMENT);
  // A property: a whole write, an out-of-range one refused, and the C API sees it.
  const double porosity[6] = {0.3, 0.3, 0.3, 0.3, 0.3, 0.3};
  OPSPLIT_OK(opsplit_gw_bmi_set_value(gw, "Porosity", porosity));
  std::vector<double> p(6);
  OPSPLIT_OK(opsplit_gw_get_property(gw, OPSPLIT_GW_POROSITY, p.data()));
  EXPECT_EQ(p, std::vector<double>(porosity, porosity + 6));
  const int cell[1] = {2};
  const double too_much[1] = {1.5};
  EXPECT_EQ(opsplit_gw_bmi_set_value_at_indices(gw, "Porosity", cell, 1, too_much), OPSPLIT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(opsplit_last_error_message(), "POROSITY"), nullptr) << opsplit_last_error_message();
  // Grid cells 2 and 4 share chemistry cell 2, which reads grid cell 2: a value given for
  // grid cell 4 is not kept, one for grid cell 2 reaches both.
  const double shared_values[1] = {99.0};
  const int non_first[1] = {4}, first[1] = {2};
  OPSPLIT_OK(opsplit_gw_bmi_set_value_at_indices(gw, "Concentrations", non_first, 1, shared_values));
  after = doubles(gw, "Concentrations");
  EXPECT_EQ(after[4], want[2]) << "grid cell 4 reads its chemistry cell, which grid cell 2 gives";
  OPSPLIT_OK(opsplit_gw_bmi_set_value_at_indices(gw, "Concentrations", first, 1, shared_values));
  after = doubles(gw, "Concentrations");
  EXPECT_EQ(after[2], 99.0);
  EXPECT_EQ(after[4], 99.0);
  // Nothing asked, nothing done: count 0 reads and writes no value, even with NULLs.
  OPSPLIT_OK(opsplit_gw_bmi_get_value_at_indices(gw, "Concentrations", nullptr, nullptr, 0));
  OPSPLIT_OK(opsplit_gw_bmi_set_value_at_indices(gw, "Concentrations", nullptr, 0, nullptr));
  expect_same(doubles(gw, "Concentrations"), after, "after count 0");
  EXPECT_EQ(opsplit_gw_bmi_set_value_at_indices(gw, "Status", nullptr, 0, nullptr), OPSPLIT_ERROR_INVALID_ARGUMENT)
      << "an output stays an output";
  // Status after a run: every chemistry cell ran, the left-out grid cell did not.
  OPSPLIT_OK(opsplit_gw_bmi_update(gw));
  int status[6];
  OPSPLIT_OK(opsplit_gw_bmi_get_value(gw, "Status", status));
  for (int g = 0; g < 6; ++g) EXPECT_EQ(status[g], g == 3 ? static_cast<int>(OPSPLIT_GW_CELL_NOT_RUN) : static_cast<int>(OPSPLIT_ODE_OK)) << g;
}

// A file written for one test, removed after it.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string& text) {
    path = ::testing::TempDir() + "opsplit_gw_setup_" + std::to_string(counter()++) + ".yaml";
    std::ofstream(path) << text;
  }
  ~TempFile() { std::remove(path.c_str()); }
  static int& counter() {
    static int n = 0;
    return n;
  }
};

TEST(Setup, BadFilesAreRefusedWithTheirLine) {
  test::Context ctx;
  const std::string head = "opsplit-groundwater: 1\ncells: 3\nspecies: [A, B]\n";
  const std::string reaction = "reactions:\n  - {reactants: [A], products: {B: 1}, k: 1.0e-5}\n";
  struct Case {
    std::string text;
    opsplit_status status;
    std::string says;
  };
  const Case cases[] = {
      {head + reaction + "porosoty: 0.2\n", OPSPLIT_ERROR_PARSE, ":6: unknown key \"porosoty\""},
      {head + "reactions:\n  - {reactants: [A], products: {C: 1}, k: 1.0e-5}\n", OPSPLIT_ERROR_PARSE,
       ":5: no species \"C\""},
      {head + "reactions:\n  - {reactants: [A], products: {B: 1}, k: -2}\n", OPSPLIT_ERROR_PARSE,
       "reaction 0 (A => B): k=-2 is negative"},
      {head + "reactions:\n  - {reactants: [A], products: {B: 1}}\n", OPSPLIT_ERROR_PARSE, "needs one of k"},
      {head + "reactions:\n  - {reactants: [A], products: {B: 1}, rate: \"2*TEMPO\"}\n", OPSPLIT_ERROR_PARSE, ":5:"},
      {head + reaction + "properties: {porosity: [0.2, 1.5, 0.2]}\n", OPSPLIT_ERROR_PARSE,
       ":6: POROSITY of grid cell 1 is 1.5"},
      {head + reaction + "properties: {porosity: [0.2, 0.2]}\n", OPSPLIT_ERROR_PARSE, "has 2 values for 3 cells"},
      {head + reaction + "mapping: [0, 2, 1, 0]\n", OPSPLIT_ERROR_PARSE, "mapping has 4 entries"},
      {head + reaction + "immobile: [B]\nisotherms: {B: {type: linear, k: 1}}\n", OPSPLIT_ERROR_PARSE,
       "B is immobile"},
      {head + reaction + "isotherms: {A: {type: linear, k: 0}}\n", OPSPLIT_ERROR_PARSE, "k=0 must be finite and > 0"},
      {head + reaction + "units: {solution: ppm}\n", OPSPLIT_ERROR_PARSE, "\"ppm\" is not mg/L"},
      {head + reaction + "units: {solution: mg/L}\ninitial: {A: 1}\n", OPSPLIT_ERROR_PARSE, "no molar masses"},
      {head + reaction + "reactions_extra: 1\n", OPSPLIT_ERROR_PARSE, "unknown key"},
      {head + "reactions:\n  - {reactants: [A], k: 1, factors: [{monod: B}]}\n", OPSPLIT_ERROR_PARSE, "K is missing"},
      {head + "reactions:\n  - {reactants: [A], k: 1, factors: [{monod: B, K: -1}]}\n", OPSPLIT_ERROR_PARSE, ":5:"},
      {head + reaction + "time: {step: -5}\n", OPSPLIT_ERROR_PARSE, "step=-5 is negative"},
      {"opsplit-groundwater: 2\ncells: 3\n", OPSPLIT_ERROR_UNSUPPORTED, "format version 2"},
      {"cells: [3\n", OPSPLIT_ERROR_PARSE, ":2: end of sequence flow not found"},
      {"- just\n- a list\n", OPSPLIT_ERROR_PARSE, "not a map"},
      {head + "reactions: []\ncells2: 1\n", OPSPLIT_ERROR_PARSE, "unknown key \"cells2\""},
      {"opsplit-groundwater: 1\ncells: 1.5\nspecies: [A]\n", OPSPLIT_ERROR_PARSE, "not an integer"},
      {head + reaction + "molar_masses: {A: 10, bogus: 3}\n", OPSPLIT_ERROR_PARSE, ":6: unknown key \"bogus\""},
      {head + reaction + "molar_masses: {A: 10, B: -1}\n", OPSPLIT_ERROR_PARSE, ":6: grams_per_mole[1] (B)=-1"},
      {head + "reactions:\n  - {reactants: [A], k: 1, factors: [{monod: B, K: 1, f: 2}]}\n", OPSPLIT_ERROR_PARSE,
       "unknown key \"f\" in reaction 0 (A => 0)'s monod factor"},
      {head + "reactions:\n  - {reactants: [A], k: 1, factors: [{threshold: B, K: 1, f: 2, c_th: 1}]}\n",
       OPSPLIT_ERROR_PARSE, "unknown key \"c_th\""},
      {head + "cells: 5\n" + reaction, OPSPLIT_ERROR_PARSE, ":4: \"cells\" is given twice in the file"},
      {head + reaction + "time: {step: 1, step: -99}\n", OPSPLIT_ERROR_PARSE, "\"step\" is given twice"},
      {head + "reactions:\n  - {reactants: [A], products: {B: 1}, k: +-5}\n", OPSPLIT_ERROR_PARSE,
       "\"+-5\" is not a number"},
  };
  for (const Case& c : cases) {
    TempFile file(c.text);
    opsplit_gw gw = nullptr;
    EXPECT_EQ(opsplit_gw_load_yaml(ctx, file.path.c_str(), &gw), c.status) << c.text << opsplit_last_error_message();
    EXPECT_EQ(gw, nullptr);
    const std::string message = opsplit_last_error_message();
    EXPECT_NE(message.find(c.says), std::string::npos) << c.text << "\n -> " << message;
    EXPECT_EQ(message.rfind("opsplit_gw_load_yaml: ", 0), 0u) << message;
  }
  opsplit_gw gw = nullptr;
  EXPECT_EQ(opsplit_gw_load_yaml(ctx, (kSetupDir + "missing.yaml").c_str(), &gw), OPSPLIT_ERROR_IO);
  EXPECT_EQ(opsplit_gw_load_yaml(ctx, nullptr, &gw), OPSPLIT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(opsplit_gw_load_yaml(ctx, (kSetupDir + "decay.yaml").c_str(), nullptr), OPSPLIT_ERROR_INVALID_ARGUMENT);
}

}  // namespace
