// An object's place in a decomposition over a group of processes (opsplit/group.h),
// checked on every process alike before it is taken, so that a mismatch fails the call
// everywhere with the same message. Fields (src/field/distributed.cpp) and CA grids share
// these checks; each names its own axes and faces.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/group.hpp"
#include "opsplit/group.h"

namespace opsplit {

struct PlaceNames {
  const char* face[6];    // "x-low", ... or "north", ...
  const char* extent[3];  // "nx", ... or "rows", ...
  const char* border;     // what neighbours share: "face" or "border"
};

// This process's own arguments, before anything is exchanged: dims and coords in range,
// dims making the group's size, neighbours -1 or a rank. unsplittable(a) is "" where axis
// a may be split over processes, else why not.
template <class Why>
void check_place(const Group& group, const opsplit_decomposition& d, const PlaceNames& names, Why unsplittable) {
  int64_t processes = 1;
  const std::string dims = num(d.dims[0]) + "x" + num(d.dims[1]) + "x" + num(d.dims[2]);
  for (int a = 0; a < 3; ++a) {
    if (d.dims[a] < 1) fail_argument("dims[" + num(a) + "]=" + num(d.dims[a]) + " is not >= 1");
    if (d.coords[a] < 0 || d.coords[a] >= d.dims[a])
      fail_argument("coords[" + num(a) + "]=" + num(d.coords[a]) + " is not in 0 .. " + num(d.dims[a] - 1));
    if (d.dims[a] > 1) {
      const std::string why = unsplittable(a);
      if (!why.empty()) fail_argument(why + " but dims[" + num(a) + "]=" + num(d.dims[a]) + " processes");
    }
    if (d.dims[a] > (int64_t(1) << 31) / processes) fail_argument("dims " + dims + " is too many processes");
    processes *= d.dims[a];
  }
  if (processes != group.size())
    fail_argument("dims " + dims + " make " + num(static_cast<long long>(processes)) + " processes, but the group has " +
                  num(group.size()));
  for (int f = 0; f < 6; ++f) {
    if (d.neighbours[f] < -1 || d.neighbours[f] >= group.size())
      fail_argument(std::string("neighbours[") + names.face[f] + "]=" + num(d.neighbours[f]) + " is not -1 or a rank");
    if (d.dims[f / 2] == 1 && d.neighbours[f] >= 0 && d.neighbours[f] != group.rank())
      fail_argument(std::string("neighbours[") + names.face[f] + "]=" + num(d.neighbours[f]) + " along dimension " +
                    num(f / 2) + ", which dims[" + num(f / 2) + "]=1 does not split");
  }
}

// Every process's extents and neighbours, gathered: each process checks every shared
// border (neighbours that name each other, the same extents along the border), so all
// reach the same verdict. Returns them, kPlaceValues a process in rank order: extent[3],
// neighbours[6]. Collective.
constexpr int kPlaceValues = 9;
std::vector<int64_t> check_borders(const Group& group, const opsplit_decomposition& d, const int64_t extent[3],
                                   const PlaceNames& names);

}  // namespace opsplit
