// MICM itself as a benchmark peer: the C API of libmusica (the musica wheel on PyPI,
// `pip install musica==0.17.2`), opened at run time, so that nothing in the build
// depends on it. The prototypes and structures are declared here as musica 0.17.2
// defines them (docs/research/micm_format.md, section 4; the wheel ships no headers).
//
// Where the library is: OPSPLIT_MUSICA_LIB (a path to libmusica.so.0), else the loader's
// search path. MICM solves a batch of cells in states of kMicmCellsPerState cells with
// its vector-ordered Rosenbrock solver (ROS3, vector size 4): of the layouts and state
// sizes measured (1, 4 and 64 cells, standard and vector order), the fastest per cell.
#pragma once

#include <dlfcn.h>

#include <cstddef>
#include <cstdlib>
#include <algorithm>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

namespace bench::micm {

struct String {
  char* value = nullptr;
  size_t size = 0;
};
struct Error {
  int code = 0, severity = 0;
  String category, message;
};
struct Mapping {
  String name;
  size_t index;
};
struct Mappings {
  Mapping* mappings = nullptr;
  size_t size = 0;
};
struct Conditions {
  double temperature, pressure, air_density;
};
struct SolverStats {
  size_t function_calls, jacobian_updates, number_of_steps, accepted, rejected, decompositions, solves,
      constraint_init_iterations;
  double final_time;
};
struct RosenbrockParameters {
  double relative_tolerance;
  double* absolute_tolerances;
  size_t num_absolute_tolerances;
  double h_min, h_max, h_start;
  size_t max_number_of_steps, constraint_init_max_iterations;
  double constraint_init_tolerance;
};
constexpr int kVectorRosenbrock = 1;  // MICMSolver::Rosenbrock
constexpr int kMicmCellsPerState = 64;

// The library's functions; ok() false (and why() saying why) when it could not be opened.
class Library {
 public:
  Library() {
    const char* path = std::getenv("OPSPLIT_MUSICA_LIB");
    handle_ = dlopen(path != nullptr && *path != '\0' ? path : "libmusica.so.0", RTLD_NOW | RTLD_LOCAL);
    if (handle_ == nullptr) {
      const char* e = dlerror();
      why_ = std::string("libmusica is not available (set OPSPLIT_MUSICA_LIB): ") + (e ? e : "dlopen failed");
      return;
    }
    bool found = true;
    auto get = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(handle_, name));
      if (fn == nullptr) found = false, why_ = std::string("libmusica has no ") + name;
    };
    get(create_micm, "CreateMicm");
    get(delete_micm, "DeleteMicm");
    get(create_state, "CreateMicmState");
    get(delete_state, "DeleteState");
    get(conditions, "GetConditionsPointer");
    get(concentrations, "GetOrderedConcentrationsPointer");
    get(rate_parameters, "GetOrderedRateParametersPointer");
    get(species_ordering, "GetSpeciesOrdering");
    get(parameter_ordering, "GetUserDefinedRateParametersOrdering");
    get(concentration_strides, "GetConcentrationsStrides");
    get(parameter_strides, "GetUserDefinedRateParametersStrides");
    get(set_rosenbrock, "SetRosenbrockSolverParameters");
    get(solve, "MicmSolve");
    get(vector_size, "GetVectorSize");
    get(delete_error, "DeleteError");
    get(delete_string, "DeleteString");
    get(delete_mappings, "DeleteMappings");
    ok_ = found;
  }
  ~Library() {
    if (handle_ != nullptr) dlclose(handle_);
  }
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  bool ok() const { return ok_; }
  const std::string& why() const { return why_; }

  void* (*create_micm)(const char*, int, Error*) = nullptr;
  void (*delete_micm)(void*, Error*) = nullptr;
  void* (*create_state)(void*, size_t, Error*) = nullptr;
  void (*delete_state)(void*, Error*) = nullptr;
  Conditions* (*conditions)(void*, size_t*, Error*) = nullptr;
  double* (*concentrations)(void*, size_t*, Error*) = nullptr;
  double* (*rate_parameters)(void*, size_t*, Error*) = nullptr;
  void (*species_ordering)(void*, Mappings*, Error*) = nullptr;
  void (*parameter_ordering)(void*, Mappings*, Error*) = nullptr;
  void (*concentration_strides)(void*, Error*, size_t*, size_t*) = nullptr;
  void (*parameter_strides)(void*, Error*, size_t*, size_t*) = nullptr;
  void (*set_rosenbrock)(void*, const RosenbrockParameters*, Error*) = nullptr;
  void (*solve)(void*, void*, double, String*, SolverStats*, Error*) = nullptr;
  size_t (*vector_size)(int) = nullptr;
  void (*delete_error)(Error*) = nullptr;
  void (*delete_string)(String*) = nullptr;
  void (*delete_mappings)(Mappings*) = nullptr;

 private:
  void* handle_ = nullptr;
  bool ok_ = false;
  std::string why_;
};

// One thread's MICM: a solver and a state of kMicmCellsPerState cells, with opsplit's
// species and parameter orders mapped onto MICM's (by name).
class Solver {
 public:
  // species and inputs: opsplit's names in opsplit's order (inputs after TEMP, PRESS, M).
  Solver(const Library& lib, const std::string& config, double rtol, double atol,
         const std::vector<std::string>& species, const std::vector<std::string>& inputs)
      : lib_(lib) {
    Error e;
    micm_ = lib.create_micm(config.c_str(), kVectorRosenbrock, &e);
    if (!check(e, "CreateMicm")) return;
    std::vector<double> atols(species.size(), atol);
    RosenbrockParameters p{rtol, atols.data(), atols.size(), 0.0, 0.0, 0.0, 100000, 10, 0.1};
    lib.set_rosenbrock(micm_, &p, &e);  // before the state: MICM copies tolerances into new states
    if (!check(e, "SetRosenbrockSolverParameters")) return;
    state_ = lib.create_state(micm_, kMicmCellsPerState, &e);
    if (!check(e, "CreateMicmState")) return;
    vector_ = lib.vector_size(kVectorRosenbrock);
    species_index_ = order(lib.species_ordering, species, "species");
    parameter_index_ = order(lib.parameter_ordering, inputs, "inputs");
    lib.concentration_strides(state_, &e, &cell_stride_, &species_stride_);
    check(e, "GetConcentrationsStrides");
    lib.parameter_strides(state_, &e, &parameter_cell_stride_, &parameter_stride_);
    check(e, "GetUserDefinedRateParametersStrides");
  }
  ~Solver() {
    Error e;
    if (state_ != nullptr) lib_.delete_state(state_, &e), lib_.delete_error(&e);
    if (micm_ != nullptr) lib_.delete_micm(micm_, &e), lib_.delete_error(&e);
  }
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;
  const std::string& error() const { return error_; }

  // Cells [0, n) of y (AOS, opsplit's species order) with params (AOS: TEMP, PRESS, M,
  // then the inputs) over dt; y is overwritten. Returns false (error() says why) when
  // MICM did not converge. Counts MICM's accepted steps (shared by a state's cells).
  bool run(double* y, const double* params, int64_t n, double dt, double& steps) {
    const size_t ns = species_index_.size(), np = parameter_index_.size() + 3;
    for (int64_t first = 0; first < n && error_.empty(); first += kMicmCellsPerState) {
      const int64_t count = std::min<int64_t>(kMicmCellsPerState, n - first);
      Error e;
      size_t size = 0;
      Conditions* cond = lib_.conditions(state_, &size, &e);
      double* c = lib_.concentrations(state_, &size, &e);
      double* rates = lib_.rate_parameters(state_, &size, &e);
      if (!check(e, "the state's arrays")) return false;
      for (int64_t i = 0; i < kMicmCellsPerState; ++i) {  // a short last state repeats its last cell
        const int64_t cell = first + std::min(i, count - 1);
        const double* p = params + cell * static_cast<int64_t>(np);
        cond[i] = {p[0], p[1], p[2]};
        for (size_t k = 0; k < ns; ++k) c[at(i, species_index_[k], ns, cell_stride_, species_stride_)] = y[cell * ns + k];
        for (size_t q = 0; q < parameter_index_.size(); ++q)
          rates[at(i, parameter_index_[q], parameter_index_.size(), parameter_cell_stride_, parameter_stride_)] = p[3 + q];
      }
      for (double elapsed = 0; elapsed < dt * (1 - 1e-12);) {
        String state_name;
        SolverStats stats{};
        lib_.solve(micm_, state_, dt - elapsed, &state_name, &stats, &e);
        const std::string name = state_name.value != nullptr ? state_name.value : "";
        lib_.delete_string(&state_name);
        if (!check(e, "MicmSolve")) return false;
        steps += static_cast<double>(stats.accepted) * static_cast<double>(count);
        if (name != "Converged" && name != "Convergence Exceeded Max Steps" && name != "ConvergenceExceededMaxSteps")
          return error_ = "MICM stopped: " + name, false;
        if (stats.final_time <= 0) return error_ = "MICM made no progress", false;
        elapsed += stats.final_time;
      }
      for (int64_t i = 0; i < count; ++i)
        for (size_t k = 0; k < ns; ++k)
          y[(first + i) * static_cast<int64_t>(ns) + static_cast<int64_t>(k)] =
              c[at(i, species_index_[k], ns, cell_stride_, species_stride_)];
    }
    return error_.empty();
  }

 private:
  // Element (cell, item) of a state array of `items` per cell in MICM's layout: blocks of
  // vector_ cells, strided inside a block.
  size_t at(int64_t cell, size_t item, size_t items, size_t cell_stride, size_t item_stride) const {
    const auto c = static_cast<size_t>(cell);
    return (c / vector_) * items * vector_ + item * item_stride + (c % vector_) * cell_stride;
  }
  bool check(Error& e, const char* what) {
    if (e.code != 0 && error_.empty())
      error_ = std::string(what) + ": " + (e.message.value != nullptr ? e.message.value : "error");
    lib_.delete_error(&e);
    e = Error{};
    return error_.empty();
  }
  // MICM's index of each of `names` (opsplit's order); an error when one is missing.
  std::vector<size_t> order(void (*get)(void*, Mappings*, Error*), const std::vector<std::string>& names,
                            const char* what) {
    Mappings m;
    Error e;
    get(state_, &m, &e);
    std::vector<size_t> out;
    if (!check(e, what)) return out;
    std::map<std::string, size_t> index;
    for (size_t i = 0; i < m.size; ++i) index[m.mappings[i].name.value] = m.mappings[i].index;
    lib_.delete_mappings(&m);
    for (const std::string& n : names) {
      const auto it = index.find(n);
      if (it == index.end()) {
        error_ = std::string("MICM's state has no ") + what + " " + n;
        return {};
      }
      out.push_back(it->second);
    }
    if (out.size() != index.size()) error_ = std::string("MICM's state has other ") + what + " than opsplit's";
    return out;
  }

  const Library& lib_;
  void* micm_ = nullptr;
  void* state_ = nullptr;
  size_t vector_ = 1, cell_stride_ = 0, species_stride_ = 0, parameter_cell_stride_ = 0, parameter_stride_ = 0;
  std::vector<size_t> species_index_, parameter_index_;
  std::string error_;
};

}  // namespace bench::micm
