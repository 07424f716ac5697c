#include "core/decomposition.hpp"

namespace opsplit {

std::vector<int64_t> check_borders(const Group& group, const opsplit_decomposition& d, const int64_t extent[3],
                                   const PlaceNames& names) {
  const int size = group.size();
  const std::vector<int64_t> mine{extent[0],       extent[1],       extent[2],       d.neighbours[0], d.neighbours[1],
                                  d.neighbours[2], d.neighbours[3], d.neighbours[4], d.neighbours[5]};
  std::vector<int64_t> all(static_cast<size_t>(kPlaceValues * size));
  group.allgather(mine.data(), std::vector<int64_t>(static_cast<size_t>(size), kPlaceValues), all.data());
  auto at = [&](int64_t rank, int i) { return all[static_cast<size_t>(kPlaceValues * rank + i)]; };
  for (int r = 0; r < size; ++r)
    for (int f = 0; f < 6; ++f) {
      const int64_t q = at(r, 3 + f);
      if (q < 0) continue;
      const int axis = f / 2, opposite = f ^ 1;
      if (at(q, 3 + opposite) != r)
        fail_argument("process " + num(r) + "'s " + names.face[f] + " neighbour is process " +
                      num(static_cast<long long>(q)) + ", whose " + names.face[opposite] + " neighbour is not " +
                      num(r) + " (not one Cartesian decomposition)");
      for (int b = 0; b < 3; ++b)
        if (b != axis && at(q, b) != at(r, b))
          fail_argument("process " + num(r) + " and its " + names.face[f] + " neighbour " +
                        num(static_cast<long long>(q)) + " share a " + names.border + " but have " + names.extent[b] + " = " +
                        num(static_cast<long long>(at(r, b))) + " and " + num(static_cast<long long>(at(q, b))));
    }
  return all;
}

}  // namespace opsplit
