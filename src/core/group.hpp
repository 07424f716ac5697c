// The processes an object is spread over (opsplit/group.h): one, or a group a
// communication layer (opsplit_mpi) gave. The core calls only the group's two
// collectives, so it depends on no message-passing library.
#pragma once

#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "opsplit/group.h"

namespace opsplit {

// What a call did here: nullptr, or the exception it threw.
template <class F>
std::exception_ptr attempt(F&& f) noexcept {
  try {
    f();
    return nullptr;
  } catch (...) {
    return std::current_exception();
  }
}

class Group {
 public:
  Group() = default;                       // this process alone
  explicit Group(const opsplit_group& g);  // checked; released only once adopted
  Group(Group&& other) noexcept;
  Group& operator=(Group&& other) noexcept;
  Group(const Group&) = delete;
  Group& operator=(const Group&) = delete;
  ~Group();

  void adopt() { owned_ = true; }  // the object owns the group now: release at the end
  bool distributed() const { return distributed_; }
  int rank() const { return g_.rank; }
  int size() const { return g_.size; }

  // all = every process's mine[0 .. counts[rank]) in rank order (a copy when alone).
  void allgather(const int64_t* mine, const std::vector<int64_t>& counts, int64_t* all) const;
  // values = their maximum over the processes.
  void allmax(int64_t* values, int n) const;
  // Along axis: send[s] to the neighbour on side s, recv[s] from it (NULL: none).
  void exchange(int axis, const void* const send[2], void* const recv[2], size_t bytes) const;
  bool has_exchange() const { return g_.exchange != nullptr; }
  bool device_pointers() const { return g_.device_pointers != 0; }

  // Every process's call succeeds or fails together. `local` is this process's failure
  // (nullptr: none). If any process failed, every one throws: its own error, or the
  // failed process's status with a message naming it. `same`: values every process must
  // have passed alike (`names` says what they are), else INVALID_ARGUMENT everywhere.
  // Alone: rethrows `local`, nothing else.
  void settle(std::exception_ptr local, const char* call, const std::vector<int64_t>& same = {},
              const char* names = "") const;
  // settle, returning the minimum of x >= 0 over the processes (exact: one allmax of the
  // negated bits, which order as the doubles do).
  double settle_min(std::exception_ptr local, double x, const char* call) const;

 private:
  // This process's failure as one word (0: none), and the failure of any process.
  int64_t failure_word(std::exception_ptr local) const;
  void fail_with(int64_t word, const char* call) const;

  opsplit_group g_{nullptr, 0, 1, nullptr, nullptr, nullptr, nullptr, 0};
  bool distributed_ = false, owned_ = false;
};

// A double's bits as an int64 (for Group::settle's `same`).
int64_t bits_of(double x);

}  // namespace opsplit
