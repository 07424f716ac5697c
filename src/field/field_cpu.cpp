// CPU (OpenMP) launchers of the field operations.
#include <cstdint>

#include "field/launch.hpp"
#include "field/layout.cuh"
#include "field/reduce.cuh"

namespace opsplit::field {

namespace {

template <class T>
void fill_ghosts(const Context& ctx, T* data, const Grid& grid, const FaceCondition* bc) {
  for (int axis = 0; axis < 3; ++axis) {  // in order: edge ghosts need the axes before
    if (!grid.active(axis)) continue;
    int ua, va;
    int64_t u_lo, u_len, v_lo, v_len;
    ghost_sweep(grid, axis, &ua, &va, &u_lo, &u_len, &v_lo, &v_len);
    const int64_t lines = grid.ncomp * 2 * v_len;
#pragma omp parallel for num_threads(ctx.threads()) schedule(static)
    for (int64_t line = 0; line < lines; ++line) {
      const int c = static_cast<int>(line / (2 * v_len));
      const int side = static_cast<int>(line / v_len % 2);
      const int64_t v = v_lo + line % v_len;
      T* comp = data + c * grid.comp_stride;
      for (int64_t u = u_lo; u < u_lo + u_len; ++u)
        fill_ghost(comp, grid, axis, side, u, v, bc[c * 6 + 2 * axis + side]);
    }
  }
}

template <int Points, class T>
void diffuse_points(const Context& ctx, const T* in, T* out, const Grid& grid, const DiffusionWeights<T>* weights) {
  const int64_t rows = grid.ncomp * grid.n[2] * grid.n[1];
  const int64_t sx = grid.step(0), sy = grid.step(1), sz = grid.step(2);
#pragma omp parallel for num_threads(ctx.threads()) schedule(static)
  for (int64_t row = 0; row < rows; ++row) {
    const int c = static_cast<int>(row / (grid.n[2] * grid.n[1]));
    const int64_t j = row % grid.n[1], k = row / grid.n[1] % grid.n[2];
    const int64_t base = grid.index(c, 0, j, k);
    const DiffusionWeights<T> w = weights[c];
    if (sx == 1) {  // the usual case: unit stride lets the compiler vectorize the row
      for (int64_t i = 0; i < grid.n[0]; ++i)
        out[base + i] = diffusion_update<Points>(StridedAt<T>{in + base + i, 1, sy, sz}, w);
    } else {
      for (int64_t i = 0; i < grid.n[0]; ++i)
        out[base + i] = diffusion_update<Points>(StridedAt<T>{in + base + i, sx, sy, sz}, w);
    }
  }
}

template <class T>
void diffuse(const Context& ctx, const T* in, T* out, const Grid& grid, int points, const DiffusionWeights<T>* weights) {
  if (points == 19)
    diffuse_points<19>(ctx, in, out, grid, weights);
  else
    diffuse_points<7>(ctx, in, out, grid, weights);
}

template <class T>
void pack(const Context& ctx, const T* data, const Grid& grid, T* host, int layout) {
  const int64_t total = grid.cells() * grid.ncomp;
#pragma omp parallel for num_threads(ctx.threads()) schedule(static)
  for (int64_t h = 0; h < total; ++h) {
    int c;
    int64_t i, j, k;
    host_position(grid, layout, h, &c, &i, &j, &k);
    host[h] = data[grid.index(c, i, j, k)];
  }
}

template <class T>
void unpack(const Context& ctx, const T* host, const Grid& grid, T* data, int layout) {
  const int64_t total = grid.cells() * grid.ncomp;
#pragma omp parallel for num_threads(ctx.threads()) schedule(static)
  for (int64_t h = 0; h < total; ++h) {
    int c;
    int64_t i, j, k;
    host_position(grid, layout, h, &c, &i, &j, &k);
    data[grid.index(c, i, j, k)] = host[h];
  }
}

template <class T>
std::vector<double> row_sums(const Context& ctx, const T* data, const Grid& grid, int comp) {
  std::vector<double> sums(static_cast<size_t>(grid.n[1] * grid.n[2]));
  const int64_t rows = static_cast<int64_t>(sums.size());
#pragma omp parallel for num_threads(ctx.threads()) schedule(static)
  for (int64_t row = 0; row < rows; ++row) sums[static_cast<size_t>(row)] = row_sum(data, grid, comp, row);
  return sums;
}

}  // namespace

template <class T>
const Launchers<T>& cpu_launchers() {
  static const Launchers<T> table{fill_ghosts<T>, diffuse<T>, pack<T>, unpack<T>, row_sums<T>};
  return table;
}

template const Launchers<float>& cpu_launchers<float>();
template const Launchers<double>& cpu_launchers<double>();

}  // namespace opsplit::field
