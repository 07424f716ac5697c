// SCIARA-fv2 lava-flow grids on the host side: the named parameters and substates, the
// dataset's file formats, vents and their emission schedules, and the step loop on
// either backend (kernels/ca/sciara.cuh holds the per-cell numerics both share).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ca/sciara.cuh"
#include "core/buffer.hpp"
#include "core/context.hpp"

namespace opsplit::ca {

// The model's parameters under the names of the dataset's PARAMETERS.cfg, defaulting
// to its Etna 2006 calibration.
struct LavaParameters {
  double Pclock = 60.0;      // s of physical time per step
  double Pc = 10.0;          // cell side, m
  double PTsol = 1143.0;     // solidification temperature, K
  double PTvent = 1360.0;    // temperature of emitted lava, K
  double Pr_Tsol = 0.075;    // relaxation rate at PTsol
  double Pr_Tvent = 0.9;     // relaxation rate at PTvent
  double Phc_Tsol = 60.0;    // critical height at PTsol, m
  double Phc_Tvent = 0.4;    // critical height at PTvent, m
  double Pcool = 9.0;        // radiating area per cell, m^2
  double Prho = 2600.0;      // density, kg m^-3
  double Pepsilon = 0.9;     // emissivity
  double Psigma = 5.68e-8;   // Stefan-Boltzmann constant, W m^-2 K^-4
  double Pcv = 1150.0;       // specific heat, J kg^-1 K^-1
};
// The parameter called `name`; INVALID_ARGUMENT listing the names otherwise.
double& lava_parameter(LavaParameters& p, const std::string& name);
// Checks a value for `name` (finite, > 0; relaxation rates <= 1).
void check_lava_parameter(const std::string& name, double value);
// The step's constants; INVALID_ARGUMENT when PTvent <= PTsol.
LavaConstants lava_constants(const LavaParameters& p);
// PARAMETERS.cfg ("key value" lines): the parameters it names over `p`; its ncols and
// nrows must be the grid's; nsteps (a run length for the original program) is read and
// returned in *nsteps (-1 when absent).
LavaParameters read_lava_parameters(const std::string& path, int64_t rows, int64_t cols, LavaParameters p,
                                    int64_t* nsteps);

// A map of rows x cols values, row-major, first line north: an ESRI ASCII grid (its
// ncols/nrows must be the grid's, cell_size its cellsize, NODATA cells refused) or a
// headerless table of exactly rows x cols numbers.
struct GridFile {
  std::vector<double> values;
  double cell_size = 0.0;  // 0 without a header
};
GridFile read_grid_file(const std::string& path, int64_t rows, int64_t cols);

// Vents per grid: a cell in the vents' bounding box looks through all of them each step.
constexpr int kLavaMaxVents = 64;

struct LavaVent {
  int64_t row, col;
  std::vector<double> rates;  // m^3/s in each slot
  double slot_seconds;
};
// The dataset's VENTS.stt (a map: vent id > 0 at its cell) and EMISSIONS_RATE.stt
// ([TIME] slot length, then [VENT_ID] id [EMISSION_RATE] rates..., [END]), vents in id order.
std::vector<LavaVent> read_lava_vents(const std::string& vents_path, const std::string& rates_path, int64_t rows,
                                      int64_t cols);

// A sum that keeps the rounding error of its additions apart (the volumes' totals).
struct CompensatedSum {
  double sum = 0.0, error = 0.0;
  void add(double x);
  double value() const { return sum + error; }
};

// Rows r0..r1 and columns c0..c1 (inclusive); empty when r1 < r0.
struct LavaBox {
  int64_t r0 = 0, r1 = -1, c0 = 0, c1 = -1;
  bool empty() const { return r1 < r0; }
  LavaBox grown(int64_t by, int64_t rows, int64_t cols) const;
  void include(int64_t r, int64_t c);
  void include(const LavaBox& b);
  int64_t cells() const { return empty() ? 0 : (r1 - r0 + 1) * (c1 - c0 + 1); }
};

enum class LavaSubstate { altitude, thickness, temperature, solidified, lost };
// INVALID_ARGUMENT naming the known substates otherwise.
LavaSubstate lava_substate(const std::string& name);

// A SCIARA-fv2 grid: substates, parameters, vents and the clock, on the context's backend.
class LavaGrid {
 public:
  LavaGrid(Context& ctx, int64_t rows, int64_t cols);

  void set_substate(const std::string& name, const double* values, bool column_major);
  void get_substate(const std::string& name, double* values, bool column_major) const;
  void load_substate(const std::string& name, const std::string& path);

  void set_parameter(const std::string& name, double value);
  double get_parameter(const std::string& name) const;
  void load_parameters(const std::string& path);

  int64_t add_vent(int64_t row, int64_t col, const double* rates, int64_t nslots, double slot_seconds);
  void load_vents(const std::string& vents_path, const std::string& rates_path);
  int64_t vents() const { return static_cast<int64_t>(vents_.size()); }

  void set_all_cells(bool all) { all_cells_ = all; }
  bool all_cells() const { return all_cells_; }

  // n CA steps, each: emission, outflows, balance with cooling and solidification.
  void advance(int64_t n);
  int64_t steps() const { return steps_; }
  // After a device failure (the substates undefined until set again): the count put back.
  void set_steps(int64_t steps) { steps_ = steps; }
  double time() const { return static_cast<double>(steps_) * params_.Pclock; }
  double time_at(int64_t steps) const { return static_cast<double>(steps) * params_.Pclock; }
  // Waits for the launched steps (CUDA) and takes the box the device grew.
  void synchronize();
  ~LavaGrid();

  // m^3: emitted by the vents, fluid lava, solidified lava, lava that left the grid.
  void volumes(double& emitted, double& lava, double& solidified, double& lost) const;

 private:
  double* plane(LavaSubstate s, int buffer = -1) const;  // -1: the current one
  LavaPlanes planes() const;
  LavaVents vents_on_backend() const;
  std::vector<LavaVentSchedule> host_schedules() const;
  void count_emission(const LavaVents& e, int64_t step);
  void download(LavaSubstate s, double* host) const;
  void reset_region(const double* thickness);
  void check_vent_cell(int64_t row, int64_t col) const;

  Context& ctx_;
  int64_t rows_, cols_;
  LavaParameters params_;
  std::vector<LavaVent> vents_;
  Buffer altitude_[2], thickness_[2], temperature_[2], solidified_, lost_;  // CUDA uses both of each pair
  int current_ = 0;                            // CUDA: the pair's buffer holding the substates
  Buffer flows_, previous_temperature_;        // CPU: one step's scratch (8 planes of outflows)
  Buffer device_vents_, device_rates_;  // CUDA: the vents' schedules
  std::unique_ptr<class LavaLauncher> launcher_;  // CUDA
  LavaBox vent_box_;
  bool all_cells_ = false;
  LavaBox box_;  // every cell that has held lava since thickness was set, and the vents (CUDA: as last read)
  int64_t steps_ = 0;
  CompensatedSum emitted_;  // thickness the vents emitted
};

// Step `step` on the host's threads over the first buffers of g: emission, then the
// outflows of `region` into flows (8 planes) with each cell's temperature kept in
// previous, then the updates; `box` takes in every cell of the region holding lava after.
void lava_step_cpu(const LavaPlanes& g, double* flows, double* previous, const LavaVents& vents, int64_t step,
                   const LavaBox& region, const LavaConstants& k, int threads, LavaBox& box);

}  // namespace opsplit::ca
