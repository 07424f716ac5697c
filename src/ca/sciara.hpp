// SCIARA-fv2 and -fv3 lava-flow grids on the host side: the named parameters and
// substates, the dataset's file formats, vents and their emission schedules, and the step
// loops on either backend (kernels/ca/sciara.cuh and sciara_fv3.cuh hold the per-cell
// numerics both share).
#pragma once

#include <cmath>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ca/lava_backend.hpp"
#include "ca/lava_box.hpp"
#include "ca/sciara_fv3.cuh"
#include "core/buffer.hpp"
#include "core/context.hpp"
#include "core/error.hpp"
#include "core/group.hpp"
#include "core/slab_exchange.hpp"

namespace opsplit::ca {

// The models' parameters under the names of the dataset's PARAMETERS.cfg (fv3's by the
// thesis' symbols in the same style), defaulting to their Etna 2006 calibrations: fv2's
// the dataset's, fv3's the thesis' table (its sigma the dataset's).
struct LavaParameters {
  double Pclock = 60.0;      // fv2: s of physical time per step
  double Pc = 10.0;          // cell side, m
  double PTsol = 1143.0;     // solidification temperature, K
  double PTvent = 1360.0;    // temperature of emitted lava, K
  double Pr_Tsol = 0.075;    // fv2: relaxation rate at PTsol
  double Pr_Tvent = 0.9;     // fv2: relaxation rate at PTvent
  double Phc_Tsol = 60.0;    // critical height at PTsol, m (fv3: 23.066)
  double Phc_Tvent = 0.4;    // critical height at PTvent, m (fv3: 1.014)
  double Pcool = 9.0;        // cooling parameter (fv2's radiating area; fv3's delta, 1.507)
  double Prho = 2600.0;      // density, kg m^-3
  double Pepsilon = 0.9;     // emissivity
  double Psigma = 5.68e-8;   // Stefan-Boltzmann constant, W m^-2 K^-4
  double Pcv = 1150.0;       // specific heat, J kg^-1 K^-1
  double Ptmax = 120.0;      // fv3: the clock's upper value, s
  double Pdp_Tsol = 0.5;     // fv3: velocity dissipation at PTsol
  double Pdp_Tvent = 0.315;  // fv3: velocity dissipation at PTvent
  double Pr = 0.5;           // fv3: relaxation rate of the clock
  double Pg = 9.81;          // fv3: gravity, m s^-2
};
// The defaults of SCIARA_FV2 (fv3 false) or SCIARA_FV3.
LavaParameters lava_default_parameters(bool fv3);
// The parameter called `name`; INVALID_ARGUMENT listing the model's names otherwise.
double& lava_parameter(LavaParameters& p, const std::string& name, bool fv3);
// Checks a value for `name` (finite, > 0; relaxation rates and dissipations <= 1, < 1).
void check_lava_parameter(const std::string& name, double value);
// The step's constants; INVALID_ARGUMENT when PTvent <= PTsol.
LavaConstants lava_constants(const LavaParameters& p);
Lava3Constants lava3_constants(const LavaParameters& p);
// PARAMETERS.cfg ("key value" lines): the parameters it names over `p`; its ncols and
// nrows must be the grid's; nsteps (a run length for the original program) is read and
// returned in *nsteps (-1 when absent).
LavaParameters read_lava_parameters(const std::string& path, int64_t rows, int64_t cols, LavaParameters p, bool fv3,
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
// Slots of a vent's schedule: checked before `rates` is read, so that a count larger
// than the host's array is refused rather than read past (a year of one-minute slots).
constexpr int64_t kLavaMaxSlots = int64_t(1) << 20;

struct LavaVent {
  int64_t row, col;
  std::vector<double> rates;  // m^3/s in each slot
  double slot_seconds;
};
// The dataset's VENTS.stt (a map: vent id > 0 at its cell) and EMISSIONS_RATE.stt
// ([TIME] slot length, then [VENT_ID] id [EMISSION_RATE] rates..., [END]), vents in id order.
std::vector<LavaVent> read_lava_vents(const std::string& vents_path, const std::string& rates_path, int64_t rows,
                                      int64_t cols);

enum class LavaSubstate { altitude, thickness, temperature, solidified, lost, momentum_x, momentum_y };
// INVALID_ARGUMENT naming the model's substates otherwise (momentum is fv3's).
LavaSubstate lava_substate(const std::string& name, bool fv3);

// Whether an error is the device's (a CUDA call failed or its memory ran out).
inline bool device_failure(const Error& e) {
  return e.status() == OPSPLIT_ERROR_DEVICE || e.status() == OPSPLIT_ERROR_OUT_OF_MEMORY;
}

// A SCIARA-fv2 or -fv3 grid: substates, parameters, vents and the clock, on the
// context's backend.
class LavaGrid {
 public:
  LavaGrid(Context& ctx, int64_t rows, int64_t cols, bool fv3);
  bool fv3() const { return fv3_; }

  // Makes the grid (rows x cols, no vents, no steps yet) this process's block of a grid of
  // global_rows x global_cols decomposed over a group, its first cell at (first_row,
  // first_col); remote: whether its north, south, west and east sides border another
  // process. Local, in two halves: prepare_attach allocates (and may fail), attach
  // cannot; the caller checks the decomposition with the other processes and settles
  // between them. From then on the substates (set and got as the block), vents (global
  // rows and columns), steps and volumes are collective. device_pointers: the group
  // exchanges device memory (else a CUDA grid stages its slabs through the host).
  struct Attachment;
  std::unique_ptr<Attachment> prepare_attach(const bool remote[4], int64_t first_row, int64_t first_col,
                                             int64_t global_rows, int64_t global_cols, bool device_pointers);
  void attach(std::unique_ptr<Attachment> a, Group&& group) noexcept;
  ~LavaGrid();
  bool distributed() const { return block_ != nullptr; }
  // Every parameter's bits, the vents' count and a hash of them: what a distributed step
  // needs alike on every process.
  std::vector<int64_t> agreement() const;
  const Group* group() const { return block_ ? &block_->group : nullptr; }
  // The block's group, or this process alone (whose settles only rethrow).
  const Group& group_or_alone() const {
    static const Group alone;
    return block_ ? block_->group : alone;
  }
  const LavaShape& place() const { return shape_; }  // of the storage
  const LavaBox& block() const { return own_; }        // the host's block in the storage

  // The block's values (distributed: this process's block, row and column 0 its first).
  void set_substate(const std::string& name, const double* values, bool column_major);
  void get_substate(const std::string& name, double* values, bool column_major) const;
  // The same in the host's device memory (CUDA; opsplit_ca_set_substate_device).
  void set_substate_device(const std::string& name, const double* values, bool column_major);
  void get_substate_device(const std::string& name, double* values, bool column_major) const;

  // The loads read and check their files first, then agree(what that did) (which
  // throws where any process failed: a distributed grid's processes settle), and only
  // then change the grid. Files are of the whole grid.
  using Agree = std::function<void(std::exception_ptr)>;
  static void alone(std::exception_ptr failed) {
    if (failed) std::rethrow_exception(failed);
  }
  void load_substate(const std::string& name, const std::string& path, const Agree& agree = alone);

  void set_parameter(const std::string& name, double value);
  double get_parameter(const std::string& name) const;
  void load_parameters(const std::string& path, const Agree& agree = alone);

  // row and col in the whole grid.
  int64_t add_vent(int64_t row, int64_t col, const double* rates, int64_t nslots, double slot_seconds);
  void load_vents(const std::string& vents_path, const std::string& rates_path, const Agree& agree = alone);
  int64_t vents() const { return static_cast<int64_t>(vents_.size()); }

  void set_all_cells(bool all) { all_cells_ = all; }
  bool all_cells() const { return all_cells_; }

  // n CA steps (fv2 each: emission, outflows, balance with cooling and solidification;
  // fv3: its clock, outflows and momenta, balance, emission); fv3 stops at time
  // `until`, its last step cut to end there. fv3 on CUDA waits for its steps.
  void advance(int64_t n, double until = HUGE_VAL);
  int64_t steps() const { return steps_; }
  // fv2, after a device failure (the substates undefined until set again): the counts put back.
  void set_steps(int64_t steps, double time) { steps_ = steps, time_ = time; }
  // fv3, after a device failure: the device's counts made the host's again (those of
  // the last wait; nothing if the device refuses).
  void after_device_failure() noexcept;
  double time() const { return fv3_ ? time_ : static_cast<double>(steps_) * params_.Pclock; }
  double time_at(int64_t steps) const { return static_cast<double>(steps) * params_.Pclock; }
  // Waits for the launched steps (CUDA) and takes the box the device grew.
  void synchronize();

  // m^3: emitted by the vents, fluid lava, solidified lava, lava that left the grid.
  // Distributed: collective, the whole grid's.
  void volumes(double& emitted, double& lava, double& solidified, double& lost) const;

 private:
  Buffer& buffer(LavaSubstate s, int buffer = -1);  // -1: the current one
  const Buffer& buffer(LavaSubstate s, int buffer = -1) const {
    return const_cast<LavaGrid*>(this)->buffer(s, buffer);
  }
  double* plane(LavaSubstate s, int buffer = -1) const { return this->buffer(s, buffer).as<double>(); }
  LavaPlanes planes() const;
  LavaVents vents_on_backend() const;
  LavaVents vents_on_host(const std::vector<LavaVentSchedule>& schedules) const;  // schedules: host_schedules()
  // Altitude, thickness, temperature and momentum in pairs of buffers: fv3, and fv2
  // where the backend keeps pairs.
  bool paired() const { return fv3_ || backend_->fv2_pairs(); }
  void mirror(LavaSubstate s);
  std::vector<LavaVentSchedule> host_schedules() const;
  void download(LavaSubstate s, double* host) const;
  // The block of substate s as the host gives and takes it (column- or row-major).
  LavaValueBlock value_block(LavaSubstate s, bool column_major) const;
  void require_writable(LavaSubstate s) const;  // "lost" is read-only
  // The box of the storage cells given a positive value, when `found` (the check of b's
  // values) found none bad; else INVALID_ARGUMENT naming the first.
  LavaBox accepted(const std::string& name, const LavaValueBlock& b, const LavaValueCheck& found) const;
  // Checked values into substate s: write() puts them into its plane after the steps;
  // `lava` the checked box.
  void store(LavaSubstate s, const LavaBox& lava, const std::function<void()>& write);
  void store_from_host(LavaSubstate s, const LavaValueBlock& b, const double* values, const LavaBox& lava);
  void reset_region(const LavaBox& lava);
  void set_device_state();
  // The backend's state made the grid's (it waits for the steps); whether fv3's steps stalled.
  bool take_backend_state();
  void set_backend_vents();
  LavaStepPlace step_place() const {
    return {shape_, own_, own_and_ring(), all_cells_, flows_.as<double>(), previous_temperature_.as<double>()};
  }
  void advance_fv3(int64_t n, double until);
  void check_vent_cell(int64_t row, int64_t col) const;
  // add_vent's checks, for a grid of vents_before vents.
  void check_vent(int64_t row, int64_t col, const double* rates, int64_t nslots, double slot_seconds,
                  int64_t vents_before) const;
  // The host's block: own_ in the storage.
  int64_t block_rows() const { return own_.r1 - own_.r0 + 1; }
  int64_t block_cols() const { return own_.c1 - own_.c0 + 1; }
  // Where outflows and motions are computed: the block and, on remote sides, the first
  // band of ghosts (copies of the neighbours' cells that send the block lava).
  LavaBox own_and_ring() const;
  // Distributed: the ghost bands from the neighbours (the paired substates' buffer
  // `buffer`), each ghost holding lava taken into the box.
  void exchange_ghosts(int buffer);
  // The device's box and counts made the host's, where attach left them behind.
  void device_state_current();

  // A distributed grid's group and exchange buffers.
  struct Block {
    Group group;
    bool remote[4];      // north, south, west, east
    SlabExchange slabs;  // a LavaSlab a side
  };
  // The buffers of a pair of substates and the single ones, in one list.
  std::vector<Buffer*> buffers();

 public:
  // A grid's new storage and place, ready to be taken (prepare_attach).
  struct Attachment {
    std::vector<Buffer> buffers;  // the new storage of each of targets
    std::vector<Buffer*> targets;  // buffers()
    std::unique_ptr<Block> block;
    int64_t rows, cols;
    LavaBox own;
    LavaShape shape;
  };

 private:

  Context& ctx_;
  std::unique_ptr<LavaBackend> backend_;  // made first: the buffers' pairing is its
  int64_t rows_, cols_;  // the storage: the block, and 2 bands of ghosts on its remote sides
  LavaShape shape_;
  LavaBox own_;  // the block in the storage
  std::unique_ptr<Block> block_;
  bool fv3_;
  LavaParameters params_;
  std::vector<LavaVent> vents_;
  Buffer altitude_[2], thickness_[2], temperature_[2], momentum_x_[2], momentum_y_[2];  // paired(): both of each pair
  Buffer solidified_, lost_;
  int current_ = 0;                      // paired(): the pair's buffer holding the substates
  Buffer flows_, previous_temperature_;  // fv2 unpaired (the CPU): one step's scratch (8 planes of outflows)
  Buffer motion_;                        // fv3: one step's motions (25 planes)
  bool device_state_due_ = false;       // attach moved the box; the backend's is old
  LavaBox vent_box_;
  bool all_cells_ = false;
  LavaBox box_;  // every cell that has held lava since thickness was set, and the vents (CUDA: as last read)
  int64_t steps_ = 0;
  double time_ = 0.0;       // fv3: the sum of the steps' clocks, s
  CompensatedSum emitted_;  // thickness the vents emitted
};

}  // namespace opsplit::ca
