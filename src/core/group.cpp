#include "core/group.hpp"

#include <cstring>
#include <utility>

namespace opsplit {

Group::Group(const opsplit_group& g) : g_(g), distributed_(true) {
  if (g.size < 1 || g.rank < 0 || g.rank >= g.size)
    fail_argument("group: rank " + num(g.rank) + " of size " + num(g.size) + " is not a process of the group");
  if (g.allgather_int64 == nullptr || g.allmax_int64 == nullptr)
    fail_argument("group: allgather_int64 and allmax_int64 must be set");
}

Group::Group(Group&& other) noexcept
    : g_(other.g_), distributed_(other.distributed_), owned_(std::exchange(other.owned_, false)) {}

Group& Group::operator=(Group&& other) noexcept {
  if (this != &other) {
    if (owned_ && g_.release) g_.release(g_.user);
    g_ = other.g_, distributed_ = other.distributed_, owned_ = std::exchange(other.owned_, false);
  }
  return *this;
}

Group::~Group() {
  if (owned_ && g_.release) g_.release(g_.user);
}

void Group::allgather(const int64_t* mine, const std::vector<int64_t>& counts, int64_t* all) const {
  if (!distributed_) {
    std::memcpy(all, mine, static_cast<size_t>(counts.at(0)) * sizeof(int64_t));
    return;
  }
  char message[512] = "";
  if (g_.allgather_int64(g_.user, mine, counts.data(), all, message, sizeof message) != 0)
    fail(OPSPLIT_ERROR_COMMUNICATION, std::string("allgather failed: ") + message);
}

void Group::allmax(int64_t* values, int n) const {
  if (!distributed_) return;
  char message[512] = "";
  if (g_.allmax_int64(g_.user, values, n, message, sizeof message) != 0)
    fail(OPSPLIT_ERROR_COMMUNICATION, std::string("allmax failed: ") + message);
}

void Group::exchange(int axis, const void* const send[2], void* const recv[2], size_t bytes) const {
  char message[512] = "";
  if (g_.exchange == nullptr) fail(OPSPLIT_ERROR_INTERNAL, "the group has no exchange");
  if (g_.exchange(g_.user, axis, send, recv, bytes, message, sizeof message) != 0)
    fail(OPSPLIT_ERROR_COMMUNICATION, std::string("ghost exchange failed: ") + message);
}

int64_t Group::failure_word(std::exception_ptr local) const {
  if (!local) return 0;
  int status = OPSPLIT_ERROR_INTERNAL;
  try {
    std::rethrow_exception(local);
  } catch (const Error& e) {
    status = e.status();
  } catch (const std::bad_alloc&) {
    status = OPSPLIT_ERROR_OUT_OF_MEMORY;
  } catch (...) {
  }
  return (int64_t(g_.rank) + 1) << 8 | status;
}

void Group::fail_with(int64_t word, const char* call) const {
  if (word != 0)
    fail(static_cast<opsplit_status>(word & 0xff), "process " + num(static_cast<long long>((word >> 8) - 1)) + " of " +
                                                       num(g_.size) + " failed in " + call +
                                                       " (its message says why); this process stops too");
}

void Group::settle(std::exception_ptr local, const char* call, const std::vector<int64_t>& same,
                   const char* names) const {
  if (!distributed_) {
    if (local) std::rethrow_exception(local);
    return;
  }
  // [failed process + 1 and its status, packed], then each value and its complement: the
  // maximum of ~x is ~(the minimum of x), so max = x and max ~ = ~x on every process
  // exactly when all passed x.
  std::vector<int64_t> v{failure_word(local)};
  for (int64_t x : same) v.push_back(x), v.push_back(~x);
  allmax(v.data(), static_cast<int>(v.size()));
  if (local) std::rethrow_exception(local);
  fail_with(v[0], call);
  for (size_t i = 0; i < same.size(); ++i)
    if (v[1 + 2 * i] != same[i] || v[2 + 2 * i] != ~same[i])
      fail_argument(std::string("the processes passed different ") + names + " to " + call +
                    " (every process must pass the same)");
}

double Group::settle_min(std::exception_ptr local, double x, const char* call) const {
  if (!distributed_) {
    if (local) std::rethrow_exception(local);
    return x;
  }
  int64_t v[2] = {failure_word(local), -bits_of(x)};
  allmax(v, 2);
  if (local) std::rethrow_exception(local);
  fail_with(v[0], call);
  const int64_t bits = -v[1];
  double min;
  std::memcpy(&min, &bits, sizeof min);
  return min;
}

int64_t bits_of(double x) {
  int64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

}  // namespace opsplit
