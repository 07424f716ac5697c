#include "core/handle.hpp"

#include <mutex>
#include <unordered_map>

namespace opsplit::registry {

namespace {
std::mutex& lock() {
  static std::mutex m;
  return m;
}
std::unordered_map<const void*, HandleKind>& live() {
  static auto* objects = new std::unordered_map<const void*, HandleKind>();  // never destroyed: safe at exit
  return *objects;
}
}  // namespace

void add(const void* object, HandleKind kind) {
  std::lock_guard<std::mutex> guard(lock());
  live()[object] = kind;
}

void remove(const void* object) {
  std::lock_guard<std::mutex> guard(lock());
  live().erase(object);
}

bool contains(const void* object, HandleKind kind) {
  std::lock_guard<std::mutex> guard(lock());
  auto it = live().find(object);
  return it != live().end() && it->second == kind;
}

}  // namespace opsplit::registry
