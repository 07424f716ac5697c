// PhreeqcRM itself as a benchmark peer: its C API (RM_*) from the phreeqcrm wheel on
// PyPI, built with OpenMP, opened at run time so that
// nothing in the build depends on it. The wheel has no library of its own: the RM_
// functions are exported by its Python extension module, which needs libpython's
// symbols, so libpython is opened first (RTLD_GLOBAL) and its interpreter started: the
// module's RM_RunCells releases and retakes Python's lock around its OpenMP loop
// (PyEval_SaveThread), which needs an interpreter; no Python code is run.
//
// Which wheel: `pip install phreeqcrm==0.0.17`, whose threads run concurrently. 0.0.18
// to 0.0.20 take Python's lock in each worker for its whole share of cells (their
// BASIC-to-Python callback support), so their threads run one at a time
// (docs/PERFORMANCE.md, note h); this peer opens either.
//
// Where they are: OPSPLIT_PHREEQCRM_LIB (the path of _phreeqcrm.cpython-*.so) and
// OPSPLIT_PHREEQCRM_PYTHON (the path of libpython3.x.so.1.0). Prototypes as PhreeqcRM's
// RM_interface_C.h declares them (int ids, IRM_RESULT codes: 0 is IRM_OK).
#pragma once

#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <type_traits>

namespace bench::phreeqcrm {

class Library {
 public:
  Library() {
    const char* python = std::getenv("OPSPLIT_PHREEQCRM_PYTHON");
    const char* path = std::getenv("OPSPLIT_PHREEQCRM_LIB");
    if (path == nullptr || *path == '\0') {
      why_ = "set OPSPLIT_PHREEQCRM_LIB (and OPSPLIT_PHREEQCRM_PYTHON) to the phreeqcrm wheel's extension and libpython";
      return;
    }
    if (python != nullptr && *python != '\0') python_ = dlopen(python, RTLD_NOW | RTLD_GLOBAL);
    if (python_ != nullptr) {
      using Initialize = void (*)(int);
      if (auto start = reinterpret_cast<Initialize>(dlsym(python_, "Py_InitializeEx"))) start(0);
    }
    handle_ = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle_ == nullptr) {
      const char* e = dlerror();
      why_ = std::string("PhreeqcRM could not be opened: ") + (e ? e : "dlopen failed");
      return;
    }
    bool found = true;
    auto get = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(handle_, name));
      if (fn == nullptr) found = false, why_ = std::string("PhreeqcRM has no ") + name;
    };
    get(create, "RM_Create");
    get(destroy, "RM_Destroy");
    get(set_error_handler_mode, "RM_SetErrorHandlerMode");
    get(set_component_h2o, "RM_SetComponentH2O");
    get(set_units_solution, "RM_SetUnitsSolution");
    get(set_units_kinetics, "RM_SetUnitsKinetics");
    get(set_porosity, "RM_SetPorosity");
    get(set_saturation_user, "RM_SetSaturationUser");
    get(load_database, "RM_LoadDatabase");
    get(run_string, "RM_RunString");
    get(find_components, "RM_FindComponents");
    get(get_component, "RM_GetComponent");
    get(initial_phreeqc2module, "RM_InitialPhreeqc2Module");
    get(set_concentrations, "RM_SetConcentrations");
    get(get_concentrations, "RM_GetConcentrations");
    get(set_time_step, "RM_SetTimeStep");
    get(set_time, "RM_SetTime");
    get(run_cells, "RM_RunCells");
    get(get_error_string, "RM_GetErrorString");
    get(get_error_string_length, "RM_GetErrorStringLength");
    ok_ = found;
  }
  ~Library() {
    if (handle_ != nullptr) dlclose(handle_);
    if (python_ != nullptr) dlclose(python_);
  }
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  bool ok() const { return ok_; }
  const std::string& why() const { return why_; }
  // The module's last error text ("" when it has none).
  std::string error(int id) const {
    const int n = get_error_string_length(id);
    if (n <= 0) return "";
    std::string text(static_cast<size_t>(n) + 1, '\0');
    get_error_string(id, text.data(), n + 1);
    text.resize(static_cast<size_t>(n));
    return text;
  }

  int (*create)(int nxyz, int nthreads) = nullptr;
  int (*destroy)(int id) = nullptr;
  int (*set_error_handler_mode)(int id, int mode) = nullptr;
  int (*set_component_h2o)(int id, int tf) = nullptr;
  int (*set_units_solution)(int id, int option) = nullptr;
  int (*set_units_kinetics)(int id, int option) = nullptr;
  int (*set_porosity)(int id, double* por) = nullptr;
  int (*set_saturation_user)(int id, double* sat) = nullptr;
  int (*load_database)(int id, const char* db_name) = nullptr;
  int (*run_string)(int id, int workers, int initial_phreeqc, int utility, const char* input) = nullptr;
  int (*find_components)(int id) = nullptr;
  int (*get_component)(int id, int num, char* name, int length) = nullptr;
  int (*initial_phreeqc2module)(int id, int* initial_conditions1, int* initial_conditions2, double* fraction1) = nullptr;
  int (*set_concentrations)(int id, double* c) = nullptr;
  int (*get_concentrations)(int id, double* c) = nullptr;
  int (*set_time_step)(int id, double time_step) = nullptr;
  int (*set_time)(int id, double time) = nullptr;
  int (*run_cells)(int id) = nullptr;
  int (*get_error_string)(int id, char* errstr, int length) = nullptr;
  int (*get_error_string_length)(int id) = nullptr;

 private:
  void* python_ = nullptr;
  void* handle_ = nullptr;
  bool ok_ = false;
  std::string why_;
};

}  // namespace bench::phreeqcrm
