// CUDA kernels and launchers of the field operations. The numerics are those of
// diffusion.cuh / boundary.cuh / layout.cuh / reduce.cuh, shared with the CPU. For one
// value type at a time: included by field_cuda_float.cu and field_cuda_double.cu only,
// so that the two precisions compile in parallel. Everything here has internal linkage.
#pragma once

#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#include "core/buffer.hpp"
#include "core/slab_exchange.hpp"
#include "field/launch.hpp"
#include "field/layout.cuh"
#include "field/reduce.cuh"

namespace opsplit::field {

namespace {

cudaStream_t stream_of(const Context& ctx) { return static_cast<cudaStream_t>(ctx.device().stream()); }

unsigned blocks_for(int64_t work, int threads) { return static_cast<unsigned>((work + threads - 1) / threads); }

// gridDim.y and gridDim.z are limited to 65535 blocks.
unsigned grid_yz(int64_t blocks, const char* what) {
  if (blocks > 65535)
    fail(OPSPLIT_ERROR_UNSUPPORTED, std::string("the CUDA backend supports at most 65535 ") + what + " here (got " +
                                        std::to_string(blocks) + ")");
  return static_cast<unsigned>(blocks);
}

// ---- ghosts -------------------------------------------------------------------
// Threads run along u (the faster of the other two axes); blockIdx.y strides over v (a
// face may be more than gridDim.y's 65535 cells along it), and blockIdx.z is the
// component and the side.
template <class T>
__global__ void fill_ghosts_kernel(T* data, Grid grid, int axis, const FaceCondition* bc, int64_t u_lo, int64_t u_len,
                                   int64_t v_lo, int64_t v_len) {
  const int64_t u = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (u >= u_len) return;
  const int c = blockIdx.z >> 1, side = blockIdx.z & 1;
  for (int64_t v = blockIdx.y; v < v_len; v += gridDim.y)
    fill_ghost(data + c * grid.comp_stride, grid, axis, side, u_lo + u, v_lo + v, bc[c * 6 + 2 * axis + side]);
}

template <class T>
void fill_ghosts(const Context& ctx, T* data, const Grid& grid, const FaceCondition* bc, unsigned axes) {
  for (int axis = 0; axis < 3; ++axis) {
    if (!grid.active(axis) || (axes >> axis & 1) == 0) continue;
    int ua, va;
    int64_t u_lo, u_len, v_lo, v_len;
    ghost_sweep(grid, axis, &ua, &va, &u_lo, &u_len, &v_lo, &v_len);
    dim3 blocks(blocks_for(u_len, 128), static_cast<unsigned>(std::min<int64_t>(v_len, 65535)),
                grid_yz(2 * grid.ncomp, "x 2 components"));
    fill_ghosts_kernel<<<blocks, 128, 0, stream_of(ctx)>>>(data, grid, axis, bc, u_lo, u_len, v_lo, v_len);
    cuda::check_launch("fill_ghosts_kernel");
  }
}

// ---- the 3D march: diffusion and the whole model ---------------------------------
// 3D grids. A block of TX x TY threads owns a WIDTH x (TY*RY) column of cells and
// marches it up a chunk of z, for G components at once (1 for diffusion, where
// components are independent; every component for a model, whose components react).
// Planes, with their one-cell halo rounded out to whole 16-byte pieces (rows are
// aligned for them, grid.cuh), stream from device memory into a ring of STAGES
// shared-memory slots through 16-byte cp.async copies, STAGES-1 planes ahead of the
// one computed, so enough bytes are in flight to cover memory latency. Each thread
// holds, in registers, the 3-wide neighbourhoods of its cells in planes k-1, k, k+1
// (the queue); the march is unrolled by three so that the queue rotates by renaming,
// not copying. One barrier per plane. What a cell becomes is the cell operation's
// (DiffuseCells, ModelCells, PotentialCells below), over the numerics of
// diffusion.cuh / model.cuh.
//
// A Cahn-Hilliard model of one component computes its chemical potentials in the march
// too (FusedPotential), instead of a pass before that writes them to memory and a read
// of 7 or 19 of them per cell: a reach of 2 (two halo rows and planes), the potentials
// of plane k+1 over the tile and a one-cell halo into a ring of three planes in shared
// memory, a second barrier, and a register queue of them like the values'. It halves a
// step's memory traffic (5 transfers of the field to 2) but a step stays bound by the
// instructions of two 19-point stencils per cell (docs/performance-history.md,
// 'Reaction-diffusion models, GPU').
//
// Two ways for a thread to own cells in each of its RY rows:
//  - PIECES (diffusion): V = 16 bytes / value size adjacent cells, read from shared
//    memory as whole pieces and stored as one: fewest instructions per cell;
//  - STRIDED (models): CX cells 32 apart, read one value per lane (consecutive lanes,
//    consecutive banks) and stored one value per lane: a queue of 3x3 values per cell
//    and component instead of 3 x (V+2), so that the G queues of a model fit in
//    registers with enough warps per SM left to hide the latency of each plane.
// The diffusion tile shape can be set at build time for tuning (the bench variants).
#ifndef OPSPLIT_TILE_X
#define OPSPLIT_TILE_X 32
#endif
#ifndef OPSPLIT_TILE_RY
#define OPSPLIT_TILE_RY 2
#endif
#ifndef OPSPLIT_TILE_Z
#define OPSPLIT_TILE_Z 32
#endif
#ifndef OPSPLIT_TILE_STAGES
#define OPSPLIT_TILE_STAGES 4
#endif
constexpr int TX = OPSPLIT_TILE_X, ZCHUNK = OPSPLIT_TILE_Z;
constexpr int STAGES = OPSPLIT_TILE_STAGES;
static_assert(STAGES >= 3, "the ring needs planes p-1 (being refilled), p+1 (taken) and one in flight");
static_assert(TX == 32, "a thread row is a warp (STRIDED ownership relies on it)");

// V values moved as one 16-byte piece.
template <class T>
struct alignas(16) Piece {
  static constexpr int V = 16 / sizeof(T);
  T v[V];
};

// The shape of a march: TY thread rows of RY cell rows, G components; CX > 0: STRIDED
// ownership of CX cells per row, CX = 0: PIECES. REACH: how far from a cell its
// operation reads (2: a model whose Cahn-Hilliard potentials are computed in the march,
// FusedPotential); the halo holds REACH rows and planes each side.
template <class T, int TY_, int RY_, int G_, int CX_, int MIN_BLOCKS_ = 0, int REACH_ = 1>
struct Tile {
  static constexpr int TY = TY_, RY = RY_, G = G_, TH = TY * RY;  // TH: tile height in cells
  static constexpr int MIN_BLOCKS = MIN_BLOCKS_;  // per SM, bounding the registers per thread; 0: no bound
  static constexpr int V = Piece<T>::V;
  static constexpr bool STRIDED = CX_ > 0;
  static constexpr int NE = STRIDED ? CX_ : V;  // cells per thread and row
  // One cell per row and thread: the threads of cells 0 and n-1 can read their own
  // cell for a NOFLUX x neighbour (HaloPlan).
  static constexpr bool MIRRORS_X = STRIDED && NE == 1;
  static constexpr int WIDTH = TX * NE;         // cells per tile row
  static constexpr int QW = STRIDED ? 3 : V + 2;  // queue columns per row: the cells' and their x-neighbours
  static constexpr int PIECES_X = WIDTH / V + 2;  // pieces per halo row: the tile's and one each side
  static constexpr int REACH = REACH_;
  static constexpr int PIECES = PIECES_X * (TH + 2 * REACH);  // pieces per halo plane
  static constexpr int LOADS = (PIECES + TX * TY - 1) / (TX * TY);  // pieces each thread copies per plane
  // Ring slots: STAGES, and two more per extra plane of reach (the planes a step reads
  // and the ones in flight both grow by one each side).
  static constexpr int RING = STAGES + 2 * (REACH - 1);
  static constexpr int RING_BYTES = RING * G * PIECES * static_cast<int>(sizeof(Piece<T>));
  // With a reach of 2: a ring of 3 planes of potentials, each the tile's cells and a
  // one-cell halo (MU_ROW x (TH + 2) values).
  static constexpr int MU_ROW = WIDTH + 2, MU_PLANE = MU_ROW * (TH + 2);
  static constexpr int SHARED_BYTES = RING_BYTES + (REACH > 1 ? 3 * MU_PLANE * static_cast<int>(sizeof(T)) : 0);
  static_assert(REACH == 1 || (STRIDED && NE == 1 && G == 1),
                "a reach of 2 is for one component, one cell per row and thread");
  static_assert(WIDTH % V == 0, "a tile row is whole pieces");
};
// Diffusion: 4 thread rows in float, 8 in double: a taller tile reads fewer halo rows
// per cell through L2, which double gains from and float does not
// (docs/performance-history.md, '3D diffusion, GPU', 0d1c118).
#ifdef OPSPLIT_TILE_Y
template <class T>
constexpr int kDiffusionRows = OPSPLIT_TILE_Y;
#else
template <class T>
constexpr int kDiffusionRows = sizeof(T) == 4 ? 4 : 8;
#endif
template <class T>
using DiffusionTile = Tile<T, kDiffusionRows<T>, OPSPLIT_TILE_RY, 1, 0>;
// Model shapes: STRIDED rows, 4 thread rows per block; one component: 4 cell rows per
// thread (float) or 2 (double); two float components: 2 rows, at least 3 blocks per SM;
// more: 1 row, and at least 4 (float) or 3 (double) blocks per SM. The best of those
// measured: more cell rows share a plane's per-thread work (barrier, ring addressing,
// copy issue) between more cells while the queues still fit the registers; three float
// components, and double Cahn-Hilliard with four rows, lost (docs/performance-history.md,
// 'Reaction-diffusion models, GPU', 5325cea).
template <class T, int G>
struct ModelShape {
  using type = Tile<T, 4, 1, G, 1, sizeof(T) == 4 ? 4 : 3>;
};
template <class T>
struct ModelShape<T, 1> {
  using type = Tile<T, 4, sizeof(T) == 4 ? 4 : 2, 1, 1, 1>;
};
template <>
struct ModelShape<float, 2> {
  using type = Tile<float, 4, 2, 2, 1, 3>;
};
template <class T, int G>
using ModelTile = typename ModelShape<T, G>::type;
// The shape with a reach of 2 (FusedPotential: one component), whose threads also hold
// a queue of potentials: OPSPLIT_FUSED_TY thread rows of OPSPLIT_FUSED_RY cell rows in
// float, half as many cell rows in double, no bound on registers: the best of the
// shapes measured (4 x 2 against a bound of 4 blocks per SM, 8 x 2 and 4 x 4;
// docs/performance-history.md, 'Reaction-diffusion models, GPU', 8bc7497).
#ifndef OPSPLIT_FUSED_TY
#define OPSPLIT_FUSED_TY 4
#endif
#ifndef OPSPLIT_FUSED_RY
#define OPSPLIT_FUSED_RY 2
#endif
#ifndef OPSPLIT_FUSED_MIN_BLOCKS
#define OPSPLIT_FUSED_MIN_BLOCKS 0
#endif
template <class T>
using FusedModelTile = Tile<T, OPSPLIT_FUSED_TY, sizeof(T) == 4 ? OPSPLIT_FUSED_RY : (OPSPLIT_FUSED_RY + 1) / 2, 1,
                            1, OPSPLIT_FUSED_MIN_BLOCKS, 2>;
// The G queues of the march in registers: up to 4 float components, 2 double ones.
// Three double components took 168 registers with spills and ran slower than the
// column kernel below, which they keep (docs/performance-history.md, 'Reaction-diffusion
// models, GPU').
constexpr bool queues_fit(int ncomp, size_t value_size) { return ncomp * value_size <= 16; }

// How a march gets the values around the grid, per axis. It does without its input's
// ghost layers where a ghost is a plain copy of a cell: filling them took a launch per
// axis and step, with gaps between the launches, and the x fill writes one value per
// row, one memory sector per value (docs/performance-history.md, '3D diffusion, GPU',
// 9caa691 and 5bccc64). A kernel
// copies the halo rows, planes and x neighbours that are ghosts from those cells
// instead, on the axes its cells allow (Cells::kCopiedHalo):
//  - kWrapped: every component PERIODIC on the axis: the cells across the grid (along
//    x only where n is a multiple of the 16-byte piece, so that whole pieces move);
//  - kMirrored: every component NOFLUX on both faces: the cells inside (along x only
//    in the model kernels, whose threads own one cell per row: the threads of cells 0
//    and n-1 read their own cell for the neighbour across the face);
//  - kFromMemory: otherwise (Dirichlet faces, components that differ): the ghosts,
//    filled before (fill_missing_ghosts). A kernel never reads an edge ghost of an
//    axis it copies, so such a fill may run before the fills of the axes before it.
// The model kernels copy x and y, not z: in a kernel of one cell per row and thread,
// the test of where a z ghost plane comes from, on every plane, cost more than the z
// fill. Putting the ghost values into the halo in shared memory instead, for every face
// kind, cost more than the fills (a second barrier per plane in the tiles at a face,
// and more instructions). Both measured in docs/performance-history.md, '3D diffusion,
// GPU', 5bccc64.
enum HaloSource : int { kFromMemory = 0, kWrapped = 1, kMirrored = 2 };
struct HaloPlan {
  int source[3];
  unsigned from_memory() const {
    unsigned axes = 0;
    for (int a = 0; a < 3; ++a)
      if (source[a] == kFromMemory) axes |= 1u << a;
    return axes;
  }
};

// Where index g of an axis of n cells, up to a reach outside them, reads from: the
// cells across (wrapped), the mirror image inside (mirrored), or the ghost in memory (a
// reach of 2 reads it for both halo layers, whose outer one the march does not use).
// The images are boundary.cuh's image_of, spelled out: calling it changed ptxas's
// registers and schedule of the 7-point float diffusion march, which ran slower
// (docs/performance-history.md, '3D diffusion, GPU', the planes by the copy engine).
__device__ int64_t halo_source(int64_t g, int64_t n, int source) {
  if (g >= 0 && g < n) return g;
  if (source == kWrapped) return g < 0 ? g + n : g - n;
  if (source == kMirrored) return g < 0 ? -1 - g : 2 * n - 1 - g;
  return g < 0 ? -1 : n;
}

// `copied`: the axes whose ghosts a kernel can copy; x_mirror: whether its shape can
// mirror x (Tile::MIRRORS_X).
template <class T>
HaloPlan plan_halo(const Grid& grid, const FaceCondition* faces_host, unsigned copied, bool x_mirror) {
  HaloPlan plan{{kFromMemory, kFromMemory, kFromMemory}};
  for (int a = 0; a < 3; ++a) {
    if (grid.g[a] != 1 || (copied >> a & 1) == 0) continue;
    int periodic = 0, noflux = 0;
    for (int c = 0; c < grid.ncomp; ++c)
      for (int side = 0; side < 2; ++side) {
        periodic += faces_host[6 * c + 2 * a + side].type == kPeriodic;
        noflux += faces_host[6 * c + 2 * a + side].type == kNoFlux;
      }
    if (periodic == 2 * grid.ncomp && (a > 0 || grid.n[0] % Piece<T>::V == 0)) plan.source[a] = kWrapped;
    if (noflux == 2 * grid.ncomp && (a > 0 || x_mirror)) plan.source[a] = kMirrored;
  }
  return plan;
}

// Queue slots B, H, A hold planes k-1, k, k+1 of one component; (r, e) is the
// thread's cell (unrolled loop indices, so every q index is a compile-time constant
// and q stays in registers). Row 0 / RY+1 of q is a halo row. PIECES: q[z][row][col],
// col 0 / V+1 the halo columns; STRIDED: q[z][row][e * 3 + 1 + dx].
template <class Shape, class T, int B, int H, int A>
struct QueueAt {
  const T (&q)[3][Shape::RY + 2][Shape::NE * Shape::QW];
  int r, e;
  __device__ T operator()(int dx, int dy, int dz) const {
    const int col = Shape::STRIDED ? e * 3 + 1 + dx : e + 1 + dx;
    return q[dz < 0 ? B : (dz == 0 ? H : A)][r + 1 + dy][col];
  }
};

// Cell operations: a block of component group `group` writes components group x G ..
// and reads components in_component(group) ..; for_block(group) gives its operation,
// called per cell with `values(g)` (the neighbourhood accessor of the group's
// component g), `at` (the cell's storage offset in component 0) and store(g, value).
// What it needs is read once per block (a load inside the march would be repeated
// after every store: the compiler cannot tell that `out` does not alias it).
template <int Points, class T>
struct DiffuseCells {
  static constexpr int kReach = 1;              // the stencil's
  static constexpr bool kWritesXGhosts = true;  // see march_3d_kernel
  static constexpr unsigned kCopiedHalo = kAllAxes;  // the axes whose ghosts it copies: HaloPlan
  const DiffusionWeights<T>* weights;
  struct Block {
    DiffusionWeights<T> w;
    template <class Values, class Store>
    __device__ void operator()(const Values& values, int64_t, Store&& store) const {
      store(0, diffusion_update<Points>(values(0), w));
    }
  };
  __device__ Block for_block(int c) const { return Block{weights[c]}; }
  __device__ int in_component(int c) const { return c; }
};

// The terms are kernel parameters (constant operands); which transport terms there are
// is known at compile time unless a per-cell wind blows (transport_terms).
// The halo a model kernel copies (HaloPlan): x and y, but only y with a Cahn-Hilliard
// term known at compile time: copying x too slowed the Cahn-Hilliard update kernel,
// where Turing and advection gained from it (docs/performance-history.md,
// 'Reaction-diffusion models, GPU', 63d5a5f).
constexpr unsigned model_copied_halo(int terms) { return known_potential_terms(terms) ? 2u : 3u; }

//
// Fused: the Cahn-Hilliard potentials are computed in the march (FusedPotential), not
// read from a buffer a pass before wrote: a reach of 2, and every ghost copied from
// the cells (the potential ring's ghosts are made from them).
template <class T>
struct FusedPotential {
  PotentialTerms<T> slot;  // the one Cahn-Hilliard component's
  int mu_mirror[3];        // per axis: its ghosts mirror their cells (NOFLUX), else wrap (PERIODIC)
};

template <int Points, int Kind, int NC, int Terms, class T, bool Fused = false>
struct ModelCells {
  static constexpr int kReach = Fused ? 2 : 1;
  static constexpr bool kWritesXGhosts = false;
  static constexpr unsigned kCopiedHalo = Fused ? kAllAxes : model_copied_halo(Terms);
  AllComponentTerms<T> terms;
  StepTerms<T> step;
  const T* mu;
  const T* velocity;
  Neighbours nb;
  FusedPotential<T> fused;
  template <class Values, class Potential, class Store>
  __device__ void operator()(const Values& values, const Potential& potential, int64_t at, Store&& store) const {
    T s_lo[3] = {0, 0, 0}, s_hi[3] = {0, 0, 0};
    if (Terms == kTermsFromFlags && step.velocity_field)
      face_courants(step, velocity, at, nb.step, nb.comp_stride, s_lo, s_hi);
    cell_update<Points, Kind, NC, Terms>(values, potential, s_lo, s_hi, terms.comp, step, store);
  }
  template <class Values, class Store>
  __device__ void operator()(const Values& values, int64_t at, Store&& store) const {
    (*this)(values, GlobalValues<T>{mu, at, nb}, at, store);
  }
  __device__ const ModelCells& for_block(int) const { return *this; }
  __device__ int in_component(int) const { return 0; }
};

// The chemical potential of Cahn-Hilliard slot c0 (one block group per slot): reads
// the slot's component, writes plane c0 of mu.
template <int Points, class T>
struct PotentialCells {
  static constexpr int kReach = 1;
  static constexpr bool kWritesXGhosts = false;
  static constexpr unsigned kCopiedHalo = 3;  // x and y
  const PotentialTerms<T>* slots;
  struct Block {
    PotentialTerms<T> p;
    template <class Values, class Store>
    __device__ void operator()(const Values& values, int64_t, Store&& store) const {
      store(0, chemical_potential<Points>(values(0), p));
    }
  };
  __device__ Block for_block(int slot) const { return Block{slots[slot]}; }
  __device__ int in_component(int slot) const { return slots[slot].comp; }
};

// The march's steps over one block (march_3d_kernel). Every member refers to one of the
// kernel's locals, as the lambdas these steps were captured them, so that the kernel
// compiles to the code it did as one function (a struct owning the state instead, with
// the same steps, ran 7-22 % slower on 19-point diffusion and fused Cahn-Hilliard:
// docs/performance-history.md).
template <int Points, class Shape, class T, class Cells, class Cell>
struct MarchSteps {
  using P = Piece<T>;
  static constexpr int V = P::V, TY = Shape::TY, RY = Shape::RY, TH = Shape::TH, G = Shape::G, NE = Shape::NE;
  static constexpr int PIECES_X = Shape::PIECES_X, PIECES = Shape::PIECES, LOADS = Shape::LOADS;
  static constexpr int R = Shape::REACH, RING = Shape::RING;
  static constexpr bool STRIDED = Shape::STRIDED;
  static constexpr int kStep = STRIDED ? TX : 1;
  static constexpr bool kXGhosts = Cells::kWritesXGhosts;
  // probe: NaN when any new value of the thread's since the last health test is NaN or
  // Inf (v * 0 is 0 for every finite v). Tested once per three planes (check_planes) in
  // the model kernels of reach 1, which gain from it; per row elsewhere: in 19-point
  // double diffusion it raised the registers (128 -> 154) and lost an SM's second block,
  // and fused double Cahn-Hilliard lost too (docs/performance-history.md,
  // 'Reaction-diffusion models, GPU', the health test once per three planes).
  static constexpr bool kCheckPerRow = !STRIDED || R > 1;
  static constexpr int ROW = PIECES_X * V;  // values per ring row
  // The halo cells of the potentials' planes a thread computes (reach 2), fixed for the
  // march: rows -1 and TH, then columns -1 and WIDTH.
  static constexpr int MU_HALO = 2 * Shape::MU_ROW + 2 * TH;
  static constexpr int HALO_CELLS = R > 1 ? (MU_HALO + TX * TY - 1) / (TX * TY) : 1;
  using Z0 = std::integral_constant<int, 0>;
  using Z1 = std::integral_constant<int, 1>;
  using Z2 = std::integral_constant<int, 2>;
  using NoQueue = std::false_type;
  // Reach 2 (FusedPotential): where the potential of tile cell (lx, ly) goes in a plane
  // of potentials (mu), and the ring offset of the cell it is computed at (at) with its
  // x-neighbours' offsets from there (lo, hi).
  struct PotentialSource {
    int mu, at, lo, hi;
  };

  const Grid& grid;
  const Cells& cells;
  const HaloPlan& halo;
  const Health& health;
  const bool& checked;
  P* const& ring;
  T* const& mu_ring;
  FedGhost (&x_ghost)[kXGhosts ? G : 1][2];
  const int &c0, &k0, &last_plane;
  const int64_t &i0, &j0;
  const int &tx, &ty, &tid;
  const int64_t &plane_stride, &row_stride;
  Cell cell;
  const int64_t (&offset)[LOADS];
  const bool (&loads)[LOADS];
  const int64_t& x;
  const int &mirror_lo, &mirror_hi;
  const int& cells_x;
  const bool (&inside)[RY];
  const T*& next;
  int64_t& at;
  T*& target;
  const int &feeds_lo, &feeds_hi;
  T (&q)[G][3][RY + 2][NE * Shape::QW];
  PotentialSource (&halo_cell)[HALO_CELLS];
  T (&qmu)[R > 1 ? 3 : 1][RY + 2][3];
  T& probe;

  // Plane p's ring slot. p >= 0: an unsigned remainder is one AND for a ring of 4,
  // where a signed one takes four instructions (SASS), twice per plane.
  __device__ __forceinline__ static int ring_slot(int p) { return static_cast<int>(static_cast<unsigned>(p) % RING); }

  // Starts copying plane p (k = k0 - R + p) into its ring slot; always commits a group
  // (empty past the last plane) so that the groups still pending are counted the same
  // way. `next` is plane p's first value of component c_in (planes are issued in order).
  __device__ __forceinline__ void issue(int p) {
    if (p <= last_plane) {
      const T* plane = next;
      if constexpr ((Cells::kCopiedHalo & 4) != 0 || R > 1) {  // the z ghosts' planes (HaloPlan)
        const int k = k0 - R + p;
        if (k < 0 || k >= grid.n[2]) plane += (halo_source(k, grid.n[2], halo.source[2]) - k) * plane_stride;
      }
#pragma unroll
      for (int g = 0; g < G; ++g) {
        P* dst = ring + (ring_slot(p) * G + g) * PIECES + tid;
#pragma unroll
        for (int l = 0; l < LOADS; ++l)
          if (loads[l]) __pipeline_memcpy_async(dst + l * TX * TY, plane + g * grid.comp_stride + offset[l], sizeof(P));
      }
      next += plane_stride;
    }
    __pipeline_commit();
  }

  // The neighbourhoods of the thread's cells in ring plane p into queue slot Z.
  template <int Z>
  __device__ __forceinline__ void take(int p, std::integral_constant<int, Z>) {
#pragma unroll
    for (int g = 0; g < G; ++g) {
      const P* slot = ring + (ring_slot(p) * G + g) * PIECES + (ty * RY + R - 1) * PIECES_X;
#pragma unroll
      for (int r = 0; r < RY + 2; ++r) {
        if constexpr (STRIDED) {
          // Cell e of the thread is value V + tx + 32 e of its halo row.
          const T* row = reinterpret_cast<const T*>(slot + r * PIECES_X) + V + tx;
#pragma unroll
          for (int e = 0; e < NE; ++e)
#pragma unroll
            for (int d = 0; d < 3; ++d)
              q[g][Z][r][e * 3 + d] = row[e * TX + d - 1 + (d == 0 ? mirror_lo : (d == 2 ? mirror_hi : 0))];
        } else {
          const P left = slot[r * PIECES_X + tx], mid = slot[r * PIECES_X + tx + 1], right = slot[r * PIECES_X + tx + 2];
          q[g][Z][r][0] = left.v[V - 1];
#pragma unroll
          for (int e = 0; e < V; ++e) q[g][Z][r][e + 1] = mid.v[e];
          q[g][Z][r][V + 1] = right.v[0];
        }
      }
    }
  }

  // A potential ghost that mirrors its cell (NOFLUX) is that cell's potential, computed
  // there; one that wraps is computed from the wrapped values around it, the operands of
  // the cell it copies in the same places (the potential pass's values, bit for bit). A
  // mirrored x has no ghosts in the ring: a face cell is its own neighbour across the face.
  __device__ __forceinline__ PotentialSource potential_source(int lx, int ly) const {
    int ex = lx, ey = ly;
    if constexpr (R > 1) {
      if (cells.fused.mu_mirror[0]) ex = static_cast<int>(min(max(i0 + lx, int64_t(0)), grid.n[0] - 1) - i0);
      if (cells.fused.mu_mirror[1]) ey = static_cast<int>(min(max(j0 + ly, int64_t(0)), grid.n[1] - 1) - j0);
    }
    const bool x_mirrored = halo.source[0] == kMirrored;
    return PotentialSource{ly * Shape::MU_ROW + lx, ey * ROW + ex, x_mirrored && i0 + ex == 0 ? 0 : -1,
                           x_mirrored && i0 + ex == grid.n[0] - 1 ? 0 : 1};
  }

  __device__ __forceinline__ void plan_potential_halo() {
    if constexpr (R > 1) {
  #pragma unroll
      for (int m = 0; m < HALO_CELLS; ++m) {
        const int h = min(tid + m * TX * TY, MU_HALO - 1), side = h - 2 * Shape::MU_ROW;
        halo_cell[m] = h < 2 * Shape::MU_ROW ? potential_source(h % Shape::MU_ROW - 1, h < Shape::MU_ROW ? -1 : TH)
                                             : potential_source(side < TH ? -1 : Shape::WIDTH, side % TH);
      }
    }
  }

  // The potentials of ring plane p, over the tile and its halo, into plane `ms` of the
  // potential ring. The thread's own cells inside the grid read planes p-1 and p from
  // queue slots ZL and ZM where FromQueue (the march holds them), plane p+1 from the
  // ring at fixed offsets (a mirrored x from mirror_lo / mirror_hi, as in take); those
  // past the grid's edge are halo cells of their neighbours.
  template <int ZL, int ZM, bool kFromQueue>
  __device__ __forceinline__ void potentials(int p, int ms, std::integral_constant<int, ZL>,
                                             std::integral_constant<int, ZM>,
                                             std::integral_constant<bool, kFromQueue>) {
    if constexpr (R > 1) {
      const PotentialTerms<T>& pt = cells.fused.slot;  // of component 0, the tile's one
      auto plane = [&](int pp) {  // cell (0, 0) of ring plane pp
        return reinterpret_cast<const T*>(ring + ring_slot(pp) * PIECES) + R * ROW + V;
      };
      const T *below = plane(p - 1), *here = plane(p), *above = plane(p + 1);
      T* mu = mu_ring + ms * Shape::MU_PLANE + Shape::MU_ROW + 1;  // cell (0, 0)
      auto compute = [&](const PotentialSource& src) {
        auto at = [&](int dx, int dy, int dz) {
          const T* pl = dz < 0 ? below : (dz == 0 ? here : above);
          return pl[src.at + dy * ROW + (dx < 0 ? src.lo : (dx > 0 ? src.hi : 0))];
        };
        mu[src.mu] = chemical_potential<Points>(at, pt);
      };
#pragma unroll
      for (int r = 0; r < RY; ++r) {
        if (!inside[r]) {
          compute(potential_source(tx, ty * RY + r));
          continue;
        }
        const int own = (ty * RY + r) * ROW + tx;
        auto at = [&](int dx, int dy, int dz) {
          if (kFromQueue && dz < 1) return q[0][dz < 0 ? ZL : ZM][r + 1 + dy][1 + dx];
          const T* pl = dz < 0 ? below : (dz == 0 ? here : above);
          return pl[own + dy * ROW + dx + (dx < 0 ? mirror_lo : (dx > 0 ? mirror_hi : 0))];
        };
        mu[(ty * RY + r) * Shape::MU_ROW + tx] = chemical_potential<Points>(at, pt);
      }
#pragma unroll
      for (int m = 0; m < HALO_CELLS; ++m)
        if (tid + m * TX * TY < MU_HALO) compute(halo_cell[m]);
    }
  }

  // The potentials around the thread's cells in queue slot Z, from plane ms of their
  // ring (the QueueAt layout).
  template <int Z>
  __device__ __forceinline__ void take_potentials(int ms, std::integral_constant<int, Z>) {
    const T* src = mu_ring + ms * Shape::MU_PLANE + ty * RY * Shape::MU_ROW + tx;
#pragma unroll
    for (int r = 0; r < RY + 2; ++r)
#pragma unroll
      for (int d = 0; d < 3; ++d) qmu[Z][r][d] = src[r * Shape::MU_ROW + d];
  }

  // Planes 0 .. RING-1 start at once; planes 0 .. 2R-1 are needed first.
  __device__ __forceinline__ void start() {
    for (int p = 0; p < RING; ++p) issue(p);
    __pipeline_wait_prior(RING - 2 * R);
    __syncthreads();
    // A mirrored z face's potential ghost plane is the face plane's (not computed).
    if constexpr (R > 1) {
      const bool mirror_lo_z = cells.fused.mu_mirror[2] && k0 == 0;
      if (!mirror_lo_z) potentials(R - 1, 0, Z0{}, Z0{}, NoQueue{});  // plane k0 - 1
      potentials(R, 1, Z0{}, Z0{}, NoQueue{});                        // plane k0
    }
    take(R - 1, Z0{});
    take(R, Z1{});
    if constexpr (R > 1) {
      __syncthreads();
      take_potentials(cells.fused.mu_mirror[2] && k0 == 0 ? 1 : 0, Z0{});
      take_potentials(1, Z1{});
    }
  }

  // Records new value `bad` of group component g at cell e of row j, plane k, if it is
  // not finite (rare).
  __device__ __forceinline__ void record_if_bad(T bad, int g, int e, int64_t j, int k) const {
    if (!is_finite(bad))
      atomicMin(health.first_bad, health_key(health.step, bad_position(health, grid.n, c0 + g, x + e * kStep, j, k)));
  }

  // Plane k (p = k - k0 + R). Issued so far: planes 0 .. p-R+RING-1, so waiting until
  // at most RING-1-2R groups are pending means plane p+R has landed. After the barrier
  // no step reads plane p-R any more (the last did up to R-1 planes below its own), so
  // its slot gets plane p-R+RING. With a reach of 2 the potentials of plane k+1 come
  // next, and a second barrier.
  template <int B, int H, int A>
  __device__ __forceinline__ void step(int k, std::integral_constant<int, B>, std::integral_constant<int, H> here,
                                       std::integral_constant<int, A> above) {
    const int p = k - k0 + R;
    __pipeline_wait_prior(RING - 1 - 2 * R);
    __syncthreads();
    take(p + 1, above);
    issue(p - R + RING);
    if constexpr (R > 1) {
      const bool mirror_hi_z = cells.fused.mu_mirror[2] && k + 1 == grid.n[2];
      if (!mirror_hi_z) potentials(p + 1, A, here, above, std::true_type{});
      __syncthreads();
      take_potentials(mirror_hi_z ? H : A, above);
    }
#pragma unroll
    for (int r = 0; r < RY; ++r) {
      if (!inside[r]) continue;
      T result[G][NE];
      if constexpr (kCheckPerRow) probe = T(0);
#pragma unroll
      for (int e = 0; e < NE; ++e) {
        // Cells past the grid's x edge are not computed where a thread owns more than one
        // cell 32 apart (a model's operation reads the wind and potential of its cell).
        if constexpr (STRIDED && NE > 1)
          if (e >= cells_x) continue;
        auto values = [&](int g) { return QueueAt<Shape, T, B, H, A>{q[g], r, e}; };
        auto store = [&](int g, T v) {
          result[g][e] = v;
          if (e < cells_x) probe += v * T(0);
        };
        if constexpr (R > 1) {  // the potentials' queue
          auto potential = [&](int) { return QueueAt<Shape, T, B, H, A>{qmu, r, e}; };
          cell(values, potential, at + r * row_stride + e * kStep, store);
        } else {
          cell(values, at + r * row_stride + e * kStep, store);
        }
      }
      if (kCheckPerRow && checked && probe != probe) {  // rare: record each bad value (probe is +-0 or NaN)
#pragma unroll
        for (int g = 0; g < G; ++g)
#pragma unroll
          for (int e = 0; e < NE; ++e)
            if (e < cells_x) record_if_bad(result[g][e], g, e, j0 + ty * RY + r, k);
      }
#pragma unroll
      for (int g = 0; g < G; ++g) {
        T* row = target + g * grid.comp_stride + r * row_stride;
        if (!STRIDED && cells_x == NE) {
          P piece;
#pragma unroll
          for (int e = 0; e < NE; ++e) piece.v[e] = result[g][e];
          *reinterpret_cast<P*>(row) = piece;
        } else {  // one value per lane, or the last piece of a row that ends inside it
#pragma unroll
          for (int e = 0; e < NE; ++e)
            if (e < cells_x) row[e * kStep] = result[g][e];
        }
        if (kXGhosts && (feeds_lo & feeds_hi) != -1) {  // rare: a thread at an x face
#pragma unroll
          for (int e = 0; e < NE; ++e)
#pragma unroll
            for (int side = 0; side < 2; ++side)
              if (e == (side == 0 ? feeds_lo : feeds_hi)) {
                const FedGhost& ghost = x_ghost[g][side];
                row[ghost.at - x] = ghost_from(ghost.face, result[g][e]);
              }
        }
      }
    }
    at += plane_stride;
    target += plane_stride;
  }

  // After planes k .. k_end-1 (target is past them): rare, with a NaN probe, the
  // thread reads back what it stored there and records each bad value. One test per
  // three planes instead of one per row (SASS: about 4 instructions per model cell), and
  // one copy of this path instead of one per row.
  __device__ __forceinline__ void check_planes(int k, int k_end) {
    if constexpr (!kCheckPerRow) {
      if (!checked || probe == probe) return;  // the probe is +-0 or NaN
      // Loops, not unrolled: this path must not raise the march's registers.
#pragma unroll 1
      for (int m = 0; m < (k_end - k) * RY * G * NE; ++m) {
        const int e = m % NE, g = m / NE % G, r = m / (NE * G) % RY, kk = k + m / (NE * G * RY);
        const int64_t j = j0 + ty * RY + r;
        if (e >= cells_x || j >= grid.n[1]) continue;
        const T* plane = target - (k_end - kk) * plane_stride;
        record_if_bad(plane[g * grid.comp_stride + r * row_stride + e * kStep], g, e, j, kk);
      }
      probe = T(0);
    }
  }
};

// A bound of blocks per SM only where a shape asks for one: even a bound of 1 changes
// ptxas's choices, and the 19-point diffusion kernel ran slower with it
// (docs/performance-history.md, 'Reaction-diffusion models, GPU', earlier measurements).
template <int Points, class Shape, class T, class Cells>
__global__ void __launch_bounds__(TX* Shape::TY, Shape::MIN_BLOCKS > 0 ? Shape::MIN_BLOCKS : 0)
    march_3d_kernel(const T* __restrict__ in, T* __restrict__ out, Grid grid, const __grid_constant__ Cells cells,
                    const HaloPlan halo, const FaceCondition* __restrict__ ghost_faces, int zchunks,
                    Health health) {
  // A launch after a failed step does nothing (the same answer for every thread);
  // without health.first_bad (an intermediate pass) values are not checked.
  const bool checked = health.first_bad != nullptr;
  if (checked && failed_before(health)) return;
  using P = Piece<T>;
  constexpr int V = P::V, TY = Shape::TY, RY = Shape::RY, TH = Shape::TH, G = Shape::G, NE = Shape::NE;
  constexpr int PIECES_X = Shape::PIECES_X, PIECES = Shape::PIECES, LOADS = Shape::LOADS;
  constexpr int R = Shape::REACH;
  static_assert(R == Cells::kReach, "the shape's halo is the operation's reach");
  constexpr bool STRIDED = Shape::STRIDED;
  extern __shared__ __align__(16) unsigned char ring_bytes[];  // one name for every instantiation
  P* ring = reinterpret_cast<P*>(ring_bytes);                   // [RING][G][PIECES]
  T* mu_ring = reinterpret_cast<T*>(ring_bytes + Shape::RING_BYTES);  // [3][MU_PLANE], reach 2
  const int group = static_cast<int>(blockIdx.z / zchunks);
  const int c0 = group * G;                    // the first component written
  const int c_in = cells.in_component(group);  // the first component read
  const int k0 = static_cast<int>(blockIdx.z % zchunks) * ZCHUNK;
  const int k1 = static_cast<int>(min(static_cast<int64_t>(k0 + ZCHUNK), grid.n[2]));
  const int last_plane = k1 - k0 + 2 * R - 1;  // planes p = 0 .. last_plane are k0-R .. k1+R-1
  const int64_t i0 = static_cast<int64_t>(blockIdx.x) * Shape::WIDTH, j0 = static_cast<int64_t>(blockIdx.y) * TH;
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * TX + tx;
  const int64_t plane_stride = grid.stride[2];
  const auto& cell = cells.for_block(group);

  // The pieces this thread copies: their offsets in plane p = 0 (k0 - R) of a
  // component, fixed for the march. A piece is needed when it holds a cell up to the
  // halo's high edge (i <= n, j <= n + R - 1); a ghost the march does without is copied
  // from its cell (HaloPlan).
  int64_t offset[LOADS];
  bool loads[LOADS];
#pragma unroll
  for (int l = 0; l < LOADS; ++l) {
    const int e = tid + l * TX * TY;
    int64_t gi = i0 - V + (e % PIECES_X) * V, gj = j0 - R + e / PIECES_X;
    loads[l] = e < PIECES && gi <= grid.n[0] && gj <= grid.n[1] + R - 1;
    if (halo.source[0] == kWrapped) gi = gi < 0 ? grid.n[0] - V : (gi == grid.n[0] ? 0 : gi);
    if (loads[l]) gj = halo_source(gj, grid.n[1], halo.source[1]);
    offset[l] = grid.index(0, gi, gj, k0 - R);
  }
  // The thread's cells of a row: x + e (PIECES) or x + 32 e (STRIDED), the first
  // `cells_x` of them inside the grid (<= 0: none).
  const int64_t x = STRIDED ? i0 + tx : i0 + tx * V;
  // A mirrored x (one cell per row and thread, HaloPlan): the threads of cells 0 and
  // n-1 read their x-neighbour across the face from the cell itself (the NOFLUX ghost).
  int mirror_lo = 0, mirror_hi = 0;
  if constexpr (Shape::MIRRORS_X && (Cells::kCopiedHalo & 1) != 0) {
    if (halo.source[0] == kMirrored) {
      mirror_lo = x == 0 ? 1 : 0;
      mirror_hi = x == grid.n[0] - 1 ? -1 : 0;
    }
  }
  constexpr int kStep = STRIDED ? TX : 1;
  const int cells_x = static_cast<int>(min(static_cast<int64_t>(NE), (grid.n[0] - x + kStep - 1) / kStep));
  bool inside[RY];
#pragma unroll
  for (int r = 0; r < RY; ++r) inside[r] = cells_x > 0 && j0 + ty * RY + r < grid.n[1];
  const T* plane0 = in + c_in * grid.comp_stride;  // component c_in (offset[] holds the plane)
  // The thread's first cell in component 0, and where its new value goes; a thread
  // with no cells (it stores nothing) points at the last one, not past the buffer.
  int64_t at = grid.index(0, min(x, grid.n[0] - 1), min(j0 + ty * RY, grid.n[1] - 1), k0);
  T* target = out + c0 * grid.comp_stride + at;
  const int64_t row_stride = grid.stride[1];
  // With Cells::kWritesXGhosts and ghost_faces (6 per component of `out`), the x
  // ghosts of `out` are written here, by the threads that store cells 0 and n-1 of a
  // row: each feeds one ghost, its mirror image on its own face or its periodic image
  // across, so that the next step needs no x ghost launch (one value per row, so one
  // memory sector per value: the dearest of the fills). The model kernels do not write
  // them (the code raised their registers and slowed them; docs/performance-history.md,
  // '3D diffusion, GPU', 9caa691): they mirror x from their cells or read ghosts that
  // were filled (HaloPlan).
  constexpr bool kXGhosts = Cells::kWritesXGhosts;
  // feeds_lo / feeds_hi: which of the thread's cells is cell 0 / n-1 (-1: none). The
  // ghost that cell 0 / n-1 of group component g feeds, its x index and its face, sit
  // in shared memory (read only where a cell feeds: a table held in registers across
  // the march cost up to 28 of them).
  __shared__ FedGhost x_ghost[kXGhosts ? G : 1][2];
  int feeds_lo = -1, feeds_hi = -1;
  if (kXGhosts && ghost_faces != nullptr) {
    if (cells_x > 0) {
      const int64_t to_last = grid.n[0] - 1 - x;
      feeds_lo = x == 0 ? 0 : -1;
      if (to_last >= 0 && to_last % kStep == 0 && to_last / kStep < cells_x) feeds_hi = static_cast<int>(to_last / kStep);
    }
    if (tid < 2 * G) {  // read before the first barrier below
      const int g = tid >> 1, side = tid & 1;
      x_ghost[g][side] = ghost_fed_by(side, grid.n[0], ghost_faces + 6 * (c0 + g));
    }
  }

  // What the steps hold across the march: the next plane to copy, the queues of values
  // (and, reach 2, of potentials), the health probe.
  const T* next = plane0;
  T q[G][3][RY + 2][NE * Shape::QW];
  using Steps = MarchSteps<Points, Shape, T, Cells, decltype(cell)>;
  typename Steps::PotentialSource halo_cell[Steps::HALO_CELLS];
  T qmu[R > 1 ? 3 : 1][RY + 2][3];
  T probe = T(0);
  Steps m{grid, cells, halo, health, checked, ring, mu_ring, x_ghost, c0, k0, last_plane, i0, j0, tx, ty, tid,
          plane_stride, row_stride, cell, offset, loads, x, mirror_lo, mirror_hi, cells_x, inside, next, at, target,
          feeds_lo, feeds_hi, q, halo_cell, qmu, probe};
  m.plan_potential_halo();
  m.start();
  using Z0 = std::integral_constant<int, 0>;
  using Z1 = std::integral_constant<int, 1>;
  using Z2 = std::integral_constant<int, 2>;
  for (int k = k0; k < k1; k += 3) {  // uniform across the block: the barriers inside are safe
    m.step(k, Z0{}, Z1{}, Z2{});
    if (k + 1 < k1) m.step(k + 1, Z1{}, Z2{}, Z0{});
    if (k + 2 < k1) m.step(k + 2, Z2{}, Z0{}, Z1{});
    m.check_planes(k, min(k + 3, k1));
  }
  __pipeline_wait_prior(0);  // no copy may outlive the block
}

// Lets `kernel` have `bytes` of dynamic shared memory: beyond the default 48 KiB a
// kernel must ask, per device, so every launch asks.
template <class Kernel>
void allow_shared_bytes(Kernel kernel, int bytes) {
  if (bytes <= 48 * 1024) return;
  const cudaError_t ok = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
  if (ok != cudaSuccess)
    fail(OPSPLIT_ERROR_DEVICE, std::string("cannot give the field kernel ") + std::to_string(bytes) +
                                   " bytes of shared memory: " + cudaGetErrorString(ok));
}

// Launches the march over a 3D grid, `groups` blocks of components along z; the
// ghosts of `in` that `halo` reads from memory must be filled. ghost_faces: see
// march_3d_kernel; NULL (or cells that do not write them) leaves the x ghosts of `out`
// alone, and so does an x axis that is wrapped. Returns the axes whose ghosts of `out`
// it wrote: x or none.
template <int Points, class Shape, class T, class Cells>
unsigned march_3d(const Context& ctx, const T* in, T* out, const Grid& grid, const Cells& cells, int groups,
                  const HaloPlan& halo, const FaceCondition* ghost_faces, Health health) {
  if (!Cells::kWritesXGhosts || grid.g[0] != 1 || halo.source[0] != kFromMemory) ghost_faces = nullptr;
  auto kernel = march_3d_kernel<Points, Shape, T, Cells>;
  allow_shared_bytes(kernel, Shape::SHARED_BYTES);
  const int zchunks = static_cast<int>((grid.n[2] + ZCHUNK - 1) / ZCHUNK);
  dim3 blocks(blocks_for(grid.n[0], Shape::WIDTH), grid_yz(blocks_for(grid.n[1], Shape::TH), "tiles along y"),
              grid_yz(static_cast<int64_t>(zchunks) * groups, "z-chunks x component groups"));
  kernel<<<blocks, dim3(TX, Shape::TY), Shape::SHARED_BYTES, stream_of(ctx)>>>(in, out, grid, cells, halo,
                                                                              ghost_faces, zchunks, health);
  cuda::check_launch("march_3d_kernel");
  return ghost_faces != nullptr ? 1u : 0u;
}

// The plan of a march of shape Shape whose cells copy the halo of the axes `copied`
// (Cells::kCopiedHalo); the ghosts it reads from memory are filled.
template <class Shape, class T>
HaloPlan prepare_march(const Context& ctx, Input<T>& in, const Grid& grid, unsigned copied) {
  const HaloPlan halo = plan_halo<T>(grid, in.faces_host, copied, Shape::MIRRORS_X);
  fill_missing_ghosts(ctx, in, grid, halo.from_memory(), fill_ghosts<T>);
  return halo;
}

// 1D and 2D grids (an axis of length 1 has neighbour offset 0): one thread per cell.
template <int Points, class T>
__global__ void diffuse_flat_kernel(const T* __restrict__ in, T* __restrict__ out, Grid grid,
                                    const DiffusionWeights<T>* __restrict__ weights, Health health) {
  const int64_t t = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (t >= grid.cells() * grid.ncomp || failed_before(health)) return;
  int c;
  int64_t i, j, k;
  host_position(grid, 0, t, &c, &i, &j, &k);
  const int64_t at = grid.index(c, i, j, k);
  const T v = diffusion_update<Points>(StridedAt<T>{in + at, grid.step(0), grid.step(1), grid.step(2)}, weights[c]);
  out[at] = v;
  if (!is_finite(v)) atomicMin(health.first_bad, health_key(health.step, t));
}

// Whether a grid takes the 3D march: diffusion, and the model of up to 3 components
// whose queues fit (with_component_count).
bool marches(const Grid& grid) { return grid.active(0) && grid.active(1) && grid.active(2); }
template <class T>
bool model_marches(const Grid& grid) {
  return marches(grid) && grid.ncomp <= 3 && queues_fit(grid.ncomp, sizeof(T));
}

// The 3D kernel writes the x ghosts of its output (march_3d).
template <int Points, class T>
unsigned diffuse_points(const Context& ctx, Input<T>& in, T* out, const Grid& grid,
                        const DiffusionWeights<T>* weights, Health health) {
  if (marches(grid)) {
    const HaloPlan halo = prepare_march<DiffusionTile<T>>(ctx, in, grid, DiffuseCells<Points, T>::kCopiedHalo);
    return march_3d<Points, DiffusionTile<T>>(ctx, in.data, out, grid, DiffuseCells<Points, T>{weights}, grid.ncomp,
                                              halo, in.faces, health);
  }
  fill_missing_ghosts(ctx, in, grid, kAllAxes, fill_ghosts<T>);
  diffuse_flat_kernel<Points, T>
      <<<blocks_for(grid.cells() * grid.ncomp, 256), 256, 0, stream_of(ctx)>>>(in.data, out, grid, weights, health);
  cuda::check_launch("diffuse_flat_kernel");
  return 0;
}

template <class T>
unsigned diffuse(const Context& ctx, Input<T>& in, T* out, const Grid& grid, int points,
                 const DiffusionWeights<T>* weights, Health health) {
  return points == 19 ? diffuse_points<19>(ctx, in, out, grid, weights, health)
                      : diffuse_points<7>(ctx, in, out, grid, weights, health);
}

// What diffuse and update read from memory: the march's HaloPlan (the model shapes all
// mirror x, and copy x and y unless a Cahn-Hilliard term is known: model_copied_halo),
// every ghost elsewhere.
template <class T>
unsigned ghosts_read(const Grid& grid, const FaceCondition* faces_host, bool pure_diffusion, bool potential_terms) {
  if (!marches(grid)) return kAllAxes;
  if (pure_diffusion)
    return plan_halo<T>(grid, faces_host, DiffuseCells<7, T>::kCopiedHalo, DiffusionTile<T>::MIRRORS_X).from_memory();
  if (potential_terms || !model_marches<T>(grid)) return kAllAxes;
  return plan_halo<T>(grid, faces_host, model_copied_halo(kKnownTerms), ModelTile<T, 1>::MIRRORS_X).from_memory();
}

// ---- the whole model ----------------------------------------------------------
// 3D grids of 1 to 3 components whose queues fit (queues_fit) take the march above
// (ModelCells). Other grids (1D, 2D, more components): one thread per (x, y) column of a block of 32 x 4 cells,
// marching up a chunk of kCellChunkZ planes with every neighbour read from global
// memory (the block's last few planes stay in L1).
constexpr int kCellBlockX = 32, kCellBlockY = 4, kCellChunkZ = 16;

dim3 cell_blocks(const Grid& grid, int64_t planes) {
  return dim3(blocks_for(grid.n[0], kCellBlockX), grid_yz(blocks_for(grid.n[1], kCellBlockY), "cell blocks along y"),
              grid_yz(blocks_for(planes, kCellChunkZ), "z-chunks of cells"));
}

// Terms: by value (constant operands) up to kMaxTermComponents components, else from
// device memory (`terms_in_memory`).
template <int Points, int Kind, int NC, class T>
__global__ void __launch_bounds__(kCellBlockX* kCellBlockY)
    update_kernel(const T* __restrict__ in, T* __restrict__ out, const T* __restrict__ mu,
                  const T* __restrict__ velocity, Grid grid, const __grid_constant__ AllComponentTerms<T> terms,
                  const ComponentTerms<T>* __restrict__ terms_in_memory, StepTerms<T> step, Health health) {
  const int64_t i = blockIdx.x * static_cast<int64_t>(kCellBlockX) + threadIdx.x;
  const int64_t j = blockIdx.y * static_cast<int64_t>(kCellBlockY) + threadIdx.y;
  const int64_t k0 = blockIdx.z * static_cast<int64_t>(kCellChunkZ);
  const int64_t k1 = min(k0 + kCellChunkZ, grid.n[2]);
  if (i >= grid.n[0] || j >= grid.n[1] || failed_before(health)) return;
  const ComponentTerms<T>* t = terms_in_memory != nullptr ? terms_in_memory : terms.comp;
  const Neighbours nb = neighbours_of(grid);
  for (int64_t k = k0; k < k1; ++k) {
    const int bad = update_cell<Points, Kind, NC>(in, out, mu, velocity, nb, grid.index(0, i, j, k), t, step);
    if (bad >= 0) atomicMin(health.first_bad, health_key(health.step, bad_position(health, grid.n, bad, i, j, k)));
  }
}

// The planes of all slots are one range of nz * nslots planes.
template <int Points, class T>
__global__ void __launch_bounds__(kCellBlockX* kCellBlockY)
    potential_kernel(const T* __restrict__ in, T* __restrict__ mu, Grid grid,
                     const PotentialTerms<T>* __restrict__ slots, int nslots) {
  const int64_t i = blockIdx.x * static_cast<int64_t>(kCellBlockX) + threadIdx.x;
  const int64_t j = blockIdx.y * static_cast<int64_t>(kCellBlockY) + threadIdx.y;
  const int64_t p0 = blockIdx.z * static_cast<int64_t>(kCellChunkZ);
  const int64_t p1 = min(p0 + kCellChunkZ, grid.n[2] * nslots);
  if (i >= grid.n[0] || j >= grid.n[1]) return;
  for (int64_t p = p0; p < p1; ++p) {
    const int64_t k = p % grid.n[2];
    const int slot = static_cast<int>(p / grid.n[2]);
    const PotentialTerms<T>& s = slots[slot];
    mu[grid.index(slot, i, j, k)] = chemical_potential<Points>(global_values(in, grid, grid.index(0, i, j, k))(s.comp), s);
  }
}

template <class T>
unsigned potential(const Context& ctx, Input<T>& in, T* mu, const Grid& grid, int points,
                   const PotentialTerms<T>* slots, int nslots, const FaceCondition*) {
  auto run = [&](auto points_constant) {
    constexpr int Points = decltype(points_constant)::value;
    if (marches(grid)) {
      const HaloPlan halo = prepare_march<ModelTile<T, 1>>(ctx, in, grid, PotentialCells<Points, T>::kCopiedHalo);
      march_3d<Points, ModelTile<T, 1>>(ctx, in.data, mu, grid, PotentialCells<Points, T>{slots}, nslots, halo,
                                        nullptr, Health{});
      return;
    }
    fill_missing_ghosts(ctx, in, grid, kAllAxes, fill_ghosts<T>);
    potential_kernel<Points, T><<<cell_blocks(grid, grid.n[2] * nslots), dim3(kCellBlockX, kCellBlockY), 0,
                                  stream_of(ctx)>>>(in.data, mu, grid, slots, nslots);
    cuda::check_launch("potential_kernel");
  };
  if (points == 19)
    run(std::integral_constant<int, 19>{});
  else
    run(std::integral_constant<int, 7>{});
  return 0;  // the kernels write no ghosts of mu
}

// The models whose march can compute the Cahn-Hilliard potential (FusedPotential): one
// component of the linear kind, a kernel each. With two or three components the queues
// of values and potentials spilled to local memory; precipitation's three float
// components, the potentials read from shared memory instead, ran slower (their tile
// is 4 cells high, and a halo of 2 doubles the rows each plane loads;
// docs/performance-history.md, 'Reaction-diffusion models, GPU', 8bc7497). Its
// Cahn-Hilliard term must be known at compile time. A function
// of run-time values and of compile-time ones alike.
constexpr bool fusable(int kind, int ncomp, int terms) {
  return kind == kLinear && ncomp == 1 && known_potential_terms(terms);
}

// Whether a model step computes its Cahn-Hilliard potential in the march: a fusable
// model whose potential ghosts are plain copies of cells, NOFLUX on both faces of an
// axis (the ghost mirrors) or PERIODIC on both with the march wrapping the axis (the
// ghost is computed across). `terms`: transport_terms'; the march's plan into `halo`.
template <class T>
bool fuses_potential(const Grid& grid, const FaceCondition* faces_host, const PotentialPass<T>& pass, int kind,
                     int terms, HaloPlan* halo, FusedPotential<T>* fused) {
  if (pass.nslots != 1 || !fusable(kind, grid.ncomp, terms)) return false;
  *halo = plan_halo<T>(grid, faces_host, kAllAxes, FusedModelTile<T>::MIRRORS_X);
  *fused = FusedPotential<T>{pass.slots_host[0], {0, 0, 0}};
  const FaceCondition* faces = faces_host + 6 * fused->slot.comp;
  for (int a = 0; a < 3; ++a) {
    const int lo = faces[2 * a].type, hi = faces[2 * a + 1].type;
    if (lo == kNoFlux && hi == kNoFlux)
      fused->mu_mirror[a] = 1;
    else if (lo != kPeriodic || hi != kPeriodic || halo->source[a] != kWrapped)
      return false;
  }
  return true;
}

template <class T>
unsigned update(const Context& ctx, Input<T>& input, T* out, const PotentialPass<T>& pass, const T* velocity,
                const Grid& grid, int points, int kind, const ComponentTerms<T>* terms,
                const ComponentTerms<T>* terms_host, const StepTerms<T>& step, Health health) {
  AllComponentTerms<T> by_value{};
  const bool fits = grid.ncomp <= kMaxTermComponents;
  if (fits)
    for (int c = 0; c < grid.ncomp; ++c) by_value.comp[c] = terms_host[c];
  const bool march = model_marches<T>(grid);
  const int terms_known = transport_terms(step, terms_host, grid.ncomp);
  // With Cahn-Hilliard terms known at compile time, the march computes the potentials
  // itself where it can (fuses_potential); else a pass before writes them to memory.
  FusedPotential<T> fused{};
  HaloPlan halo{};
  const bool fuse =
      march && !pass.in_memory && fuses_potential(grid, input.faces_host, pass, kind, terms_known, &halo, &fused);
  if (fuse) {
    fill_missing_ghosts(ctx, input, grid, halo.from_memory(), fill_ghosts<T>);
  } else {
    potential_into_memory(ctx, input, grid, points, pass, potential<T>, fill_ghosts<T>);
    // Every model shape (one cell per row and thread: MIRRORS_X) and kind copies the
    // halo of its transport terms (ModelCells::kCopiedHalo): one plan.
    if (march)
      halo = prepare_march<ModelTile<T, 1>>(ctx, input, grid, model_copied_halo(terms_known));
    else
      fill_missing_ghosts(ctx, input, grid, kAllAxes, fill_ghosts<T>);
  }
  const T* in = input.data;
  with_reaction_kind(kind, [&](auto k) {
    with_component_count(grid.ncomp, [&](auto nc) {
      constexpr int Kind = decltype(k)::value, NC = decltype(nc)::value;
      auto run = [&](auto points_constant) {
        constexpr int Points = decltype(points_constant)::value;
        if constexpr (NC > 0 && queues_fit(NC, sizeof(T))) {
          if (march) {
            with_transport_terms(terms_known, [&](auto terms_constant) {
              // (re-derived here: GCC does not take the enclosing lambdas' constants)
              constexpr int kKind = std::decay_t<decltype(k)>::value, kNC = std::decay_t<decltype(nc)>::value;
              constexpr int kPoints = std::decay_t<decltype(points_constant)>::value;
              constexpr int kTerms = decltype(terms_constant)::value;
              if constexpr (fusable(kKind, kNC, kTerms)) {
                if (fuse) {
                  const ModelCells<kPoints, kKind, kNC, kTerms, T, true> cells{
                      by_value, step, nullptr, velocity, neighbours_of(grid), fused};
                  march_3d<kPoints, FusedModelTile<T>>(ctx, in, out, grid, cells, 1, halo, nullptr, health);
                  return;
                }
              }
              const ModelCells<kPoints, kKind, kNC, kTerms, T> cells{by_value, step, pass.mu, velocity,
                                                                    neighbours_of(grid), {}};
              march_3d<kPoints, ModelTile<T, kNC>>(ctx, in, out, grid, cells, 1, halo, nullptr, health);
            });
            return;
          }
        }
        update_kernel<Points, Kind, NC, T><<<cell_blocks(grid, grid.n[2]), dim3(kCellBlockX, kCellBlockY), 0,
                                             stream_of(ctx)>>>(in, out, pass.mu, velocity, grid, by_value,
                                                               fits ? nullptr : terms, step, health);
        cuda::check_launch("update_kernel");
      };
      if (points == 19)
        run(std::integral_constant<int, 19>{});
      else
        run(std::integral_constant<int, 7>{});
    });
  });
  return 0;  // the model kernels write no ghosts of their output (march_3d_kernel)
}

template <class T>
__global__ void add_sources_kernel(T* out, const SourceTerm<T>* sources, int64_t n, Health health) {
  const int64_t s = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (s >= n || failed_before(health)) return;
  const T v = out[sources[s].at] + sources[s].amount;
  out[sources[s].at] = v;
  if (!is_finite(v)) atomicMin(health.first_bad, health_key(health.step, sources[s].position));
}

template <class T>
void add_sources(const Context& ctx, T* out, const Grid&, const SourceTerm<T>* sources, int64_t n, Health health) {
  if (n == 0) return;
  add_sources_kernel<<<blocks_for(n, 128), 128, 0, stream_of(ctx)>>>(out, sources, n, health);
  cuda::check_launch("add_sources_kernel");
}

// ---- several steps a pass (Launchers::steps_pass; docs/research/temporal_blocking_plan.md)
//
// At 7 points (below). At 19 points CUDA takes one step a pass: a pass with its levels
// in shared memory ran at 0.41-0.69x one step a pass on the H200 in every case measured
// (docs/PERFORMANCE.md note (n)) and was taken out.

// f(std::integral_constant<int, i>) for i = Begin .. End - 1, unrolled.
template <int Begin, int End, class F>
__host__ __device__ __forceinline__ void static_for(F&& f) {
  if constexpr (Begin < End) {
    f(std::integral_constant<int, Begin>{});
    static_for<Begin + 1, End>(f);
  }
}

// ---- 7 points: the levels in registers (the AN5D form) --------------------------------
//
// The 7-point pass keeps no planes of its levels: every thread holds, per level, the
// three planes around its cells in a register queue, and only the edge rows of a thread
// row go through shared memory. A block owns an x-y tile (the output, grown by MX cells
// a side along x and K along y) and marches along z. In round t, input plane t arrives
// (loaded a round ahead) and level s = 1 .. K makes its plane t - s from level s - 1's
// queue (planes t - s - 1 .. t - s + 1): each level trails the one below by one plane,
// all of them in one round, within the thread. A cell's x neighbours across threads come
// by warp shuffle (a thread row is a warp), its y neighbours across thread rows from the
// edge rows its neighbour rows stored in the round before: double-buffered by round
// parity, so one barrier a round serves every level. (Double's pass of pure diffusion
// stores every row and reads the x neighbours there too: CrossTile's XS.) Level s is
// right on the tile grown by K - s (a lane or a row at the tile's edge takes a neighbour
// that is not its own: the ring that is computed twice and thrown away), so level K is
// right on the output.
//
// The boundaries (cell_read): along a PERIODIC axis every position is a cell, read at
// its image: its update is its image's, bit for bit. Between two NOFLUX faces every
// position is read at its mirror image, and the mirror symmetry carries through the
// levels, so a position beyond a face holds its image's value at every level: the
// ghost's. Otherwise a cell reads the ghost beyond a face at level s as the face's rule
// applied to its own level-s value (the ghost's image is the cell itself), which is
// what a step's fill writes there; a 7-point update reads no edge ghost, so the order
// of the axes' fills does not enter.
//
// The tile: 32 x 12 threads of RX x 4 cells, 2 adjacent cells a thread in float (8-byte
// loads and stores) and 1 in double (whose shuffle is two), and the grid persistent:
// a block an SM (384 threads of up to 168 registers) with an equal share of every
// (component, tile, plane), its segments each with 2K rounds of warm-up. K up to 4
// (kCudaMaxStepsPerPass): the queues' 3 K RX 4 values are 96 registers at 4. Measured
// (H200, 512^3, the pass alone, fraction of the copy bound; docs/PERFORMANCE.md note
// (p), docs/research/an5d_prototype/library_tiles.cu): 32 x 16 threads (128 registers) spill at 4
// steps, float 1.22 / double 1.40 (queues moved each round) and 0.75 / 1.35 (the ring);
// 32 x 12 gives 1.37 / 1.52 and 1.42 / 1.54; at 5 steps the ring spills in float (0.99),
// and 32 x 8 threads of 8 rows (255 registers) spill in float (0.68). The x neighbours
// from the level's whole plane in shared memory (XS: a store and two loads a row against
// four shuffles in double): double's pure diffusion at 4 steps 1.511 / 1.514 and 1.525 /
// 1.531 against 1.501 / 1.500 and 1.513 / 1.512 in two runs; but float loses (1.44
// against 1.60), and so do double's passes that test faces (they spill: the DIRICHLET
// pass 1.26x one step a pass against 1.32x) and 32 x 10, 14 and 16 threads and 5 steps
// (1.34; 1.11-1.20 spilling at 128 or 168 registers). So XS is double's pass of pure
// diffusion that tests no face alone (diffuse_cross_steps_launch).
// Components: how many components a tile steps together (a coupled model's: each level's
// plane holds all of them; 1 where components do not couple, each a tile of its own).
template <class T, int K, int ThreadRows = 12, int RowsAThread = 4, bool XShared = false, int Components = 1>
struct CrossTile {
  static constexpr int BY = ThreadRows, RY = RowsAThread, RX = sizeof(T) == 4 ? 2 : 1, NC = Components;
  static constexpr int TW = 32 * RX, TH = BY * RY;  // the tile grown, in cells
  static constexpr int MX = (K + RX - 1) / RX * RX;  // the x margin: K in whole threads' cells
  static constexpr int OW = TW - 2 * MX, OH = TH - 2 * K;  // the output
  // XS: a level's whole plane goes through shared memory and the x neighbours across
  // threads are read there (rather than shuffled): tile row y at row y + 2, between two
  // rows each side that the edge cells read (and nothing writes). Otherwise each thread
  // row's first and last cell rows, between a slot each side that the tile's edge rows
  // read (and nothing writes).
  static constexpr bool XS = XShared;
  static constexpr int PLANE = XS ? (TH + 4) * TW : (BY + 2) * 2 * TW;
  static constexpr int UNWRITTEN_ROWS = XS ? 4 : 2;  // a plane's rows that nothing writes
  static __device__ int unwritten_row(int i) { return XS ? (i < 2 ? i : TH + i) : (i == 0 ? 1 : 2 * BY + 2); }
  static constexpr int SHARED_BYTES = 2 * K * NC * PLANE * static_cast<int>(sizeof(T));
  // Whether tile column i (row j) has cells on a face of an axis of n cells: its grown
  // tile starts at or before cell 0 or reaches cell n - 1.
  static __device__ bool column_at_face(int64_t i, int64_t n) { return i * OW - MX <= 0 || i * OW - MX + TW >= n; }
  static __device__ bool row_at_face(int64_t j, int64_t n) { return j * OH - K <= 0 || j * OH - K + TH >= n; }
};
constexpr int kCudaMaxStepsPerPass = 4;    // the 7-point pass, in registers
static_assert(kCudaMaxStepsPerPass <= kRemotePlanes, "a field's slabs carry a pass's planes");

// How the 7-point pass reads an axis beyond its faces: across a PERIODIC axis at the
// image; between two NOFLUX faces at the mirror image, folded as often as it takes (the
// values then stay mirror-symmetric about each face through every level: a position
// beyond a face is updated from the mirror images of its image's neighbours, the same
// sums in the other order, so it holds its image's value, the ghost's, with no test);
// otherwise at the nearest cell (a ghost beyond a DIRICHLET face is the face's rule,
// applied by the cell that reads it; the positions further out are read by no cell).
// A wind's upwind terms are not mirror-symmetric: with one (`symmetric` false), NOFLUX
// faces are read as the nearest cell too, their ghosts the face cells' values. Beyond a
// face to another process (kRemote: y or z, max_steps_per_pass) the pass reads the
// neighbour's rows or planes (RemotePlanes), and the other face keeps its reading: between a
// remote face and a NOFLUX one mirrored, which is one reflection there (the depth k <= n
// on a split axis: rd.cpp's remote_face_steps); between two remote faces no reading of
// cells (wrapped: read by none).
enum AxisReading : int { kReadWrapped, kReadMirrored, kReadClamped };

OPSPLIT_HD int axis_reading(const FaceCondition* axis_faces, bool symmetric) {
  const int low = axis_faces[0].type, high = axis_faces[1].type;
  if (low == kPeriodic || (low == kRemote && high == kRemote)) return kReadWrapped;
  const bool mirrors = symmetric && (low == kNoFlux || low == kRemote) && (high == kNoFlux || high == kRemote);
  return mirrors ? kReadMirrored : kReadClamped;
}

// What a distributed field's 7-point pass reads beyond its remote faces: the
// neighbours' cells, K deep, swapped into the pass's scratch before it reads them
// (swap_remote_planes). NULL: a side that is not remote.
//   low, high    beyond the z faces: [component][depth][plane], depth d the plane d - K
//                below the low face, nz + d above the high one; a plane of ny + 2K rows of
//                stride[1] values, `plane_values` (the rows beyond remote y faces too: the
//                corners), row y + K holding row y, its cells at lead[0] as in storage;
//                each pointer (K - lead[1]) rows on, where the pass's row offsets start
//   below, above beyond the y faces: [component][z][depth][row], depth d the row d - K
//                below the low face, ny + d above the high one, for the grid's planes
// (Rows beyond a remote y face are read at "virtual" offsets, (y + lead[1]) stride[1] as
// if the storage went on: the bases below take them to the slabs' rows.)
template <class T>
struct RemotePlanes {
  const T* low;
  const T* high;
  const T* below;
  const T* above;
  int64_t plane_values;  // (a parameter: computed in the kernel it cost the rounds registers)
};

// The output a launch of the 7-point pass makes: planes [first, first + count) along z of
// the tile rows [first_row, first_row + rows): the whole grid, or on a distributed field
// first the planes and tile rows that read no remote plane or row (made while those
// travel), then those that do (steps_pass).
struct PlaneRange {
  int first, count;
  int64_t first_row, rows;
};
// Which tile rows of a launch (diffuse_cross_steps_launch, which knows the tiles' height):
// all, those that read no row beyond a remote y face, those that read beyond the low one,
// beyond the high one.
enum class TileRows { kAll, kInside, kAtLow, kAtHigh };

// The cell read for position g of an axis of n cells. (The test for a cell first: the
// pass's loop reads a plane a round, and the divisions are for the planes beyond a face.)
template <class I>
__device__ I cell_read(I g, I n, int reading) {
  if (g >= 0 && g < n) return g;
  if (reading == kReadWrapped) return wrapped(g, n);
  if (reading == kReadMirrored) {
    const I m = (g % (2 * n) + 2 * n) % (2 * n);
    return m < n ? m : 2 * n - 1 - m;
  }
  return min(max(g, I(0)), n - 1);
}

// The cost of a plane of the 7-point pass: kFaceRoundCost / kPlainRoundCost for a tile
// that tests its cells for faces against one that does not (their rounds' instructions:
// about 4 000 against 2 200 in float, 3 100 against 1 550 in double).
constexpr int64_t kPlainRoundCost = 5, kFaceRoundCost = 9;

// The first work item (component, tile, plane; planes fastest, nz of them, tile rows
// first_row .. first_row + tiles_y - 1: the launch's PlaneRange) of share `part` of
// `parts` of the 7-point pass, the shares of equal cost (kFaceRoundCost). A tile tests
// when it has cells on a face of an axis read by kReadClamped (S: the CrossTile;
// symmetric: axis_reading's).
template <class S>
__device__ int64_t item_of_cost(int64_t part, int64_t parts, const Grid& grid, const FaceCondition* faces,
                                bool symmetric, int64_t tiles_x, int64_t first_row, int64_t tiles_y, int64_t nz) {
  const int64_t tiles = tiles_x * tiles_y;
  auto on_x_face = [&](int64_t i) { return S::column_at_face(i, grid.n[0]); };
  auto on_y_face = [&](int64_t j) { return S::row_at_face(j, grid.n[1]); };
  int64_t face_columns = 0, face_rows = 0;
  for (int64_t i = 0; i < tiles_x; ++i) face_columns += on_x_face(i);
  for (int64_t j = first_row; j < first_row + tiles_y; ++j) face_rows += on_y_face(j);
  auto tests = [&](int c, int axis) { return axis_reading(faces + 6 * c + 2 * axis, symmetric) == kReadClamped; };
  auto component_cost = [&](int c) {
    const int64_t plain = (tests(c, 0) ? tiles_x - face_columns : tiles_x) * (tests(c, 1) ? tiles_y - face_rows : tiles_y);
    return nz * (plain * kPlainRoundCost + (tiles - plain) * kFaceRoundCost);
  };
  int64_t total = 0;
  for (int c = 0; c < grid.ncomp; ++c) total += component_cost(c);
  // The cost before the share: part/parts of the total, in 128-bit-free steps.
  int64_t target = total / parts * part + total % parts * part / parts;
  if (part >= parts) return grid.ncomp * tiles * nz;
  int64_t item = 0;
  for (int c = 0; c < grid.ncomp; ++c) {
    const int64_t cost = component_cost(c);
    if (target >= cost) {
      target -= cost;
      item += tiles * nz;
      continue;
    }
    for (int64_t tile = 0; tile < tiles; ++tile) {
      const bool face =
          (tests(c, 0) && on_x_face(tile % tiles_x)) || (tests(c, 1) && on_y_face(first_row + tile / tiles_x));
      const int64_t plane_cost = face ? kFaceRoundCost : kPlainRoundCost;
      if (target >= nz * plane_cost) {
        target -= nz * plane_cost;
        item += nz;
        continue;
      }
      return item + (target + plane_cost - 1) / plane_cost;
    }
  }
  return grid.ncomp * tiles * nz;
}

// A thread's RX adjacent cells, moved as one access.
template <class T, int RX>
struct alignas(RX * sizeof(T)) Cells {
  T v[RX];
};

template <class T, int RX>
__device__ Cells<T, RX> cells_of(const T (&v)[RX]) {
  Cells<T, RX> cells;
#pragma unroll
  for (int rx = 0; rx < RX; ++rx) cells.v[rx] = v[rx];
  return cells;
}

// The seven values a 7-point update reads, in registers.
template <class T>
struct CrossAt {
  T centre, x_low, x_high, y_low, y_high, z_low, z_high;
  __device__ T operator()(int dx, int dy, int dz) const {
    return dx < 0 ? x_low : dx > 0 ? x_high : dy < 0 ? y_low : dy > 0 ? y_high : dz < 0 ? z_low : dz > 0 ? z_high : centre;
  }
};

// What the 7-point pass steps: pure diffusion (diffusion_update), or a model
// (model.cuh's cell_update: each component's diffusion, uniform wind, rate and source,
// and the reaction kind's terms) with its transport terms known (kNoTransport or
// kUniformAdvectionOnly: no per-cell wind, no Cahn-Hilliard term). A LINEAR model's
// components do not couple (a tile steps one); TURING's and GRAY_SCOTT's two do (a tile
// steps both: CrossTile's Components).
constexpr int kPassPureDiffusion = -1;

// Whether the update of a pass of `model` is mirror-symmetric, so that the pass reads
// NOFLUX faces at the mirror image (axis_reading): all but a wind's.
constexpr bool symmetric_update(int model) { return model == kPassPureDiffusion || (model & kUniformVelocity) == 0; }

// A model pass's step terms, one a level (the wind changes from step to step), passed by
// value.
template <class T, int K>
struct LevelSteps {
  StepTerms<T> at[K];
};

// TestsFaces: some component has an axis read by kReadClamped, whose face cells apply
// their ghosts (the tests cost registers, so a field without one does without them).
// (S: the tile, a CrossTile<T, K, ...>; Model: kPassPureDiffusion, or the transport terms
// of a model of reaction kind Kind, whose components' terms are `terms`, with
// kNoLinearTerms where no component has linear terms (cross_pass_model); Sources: there
// are point sources, `sources` and their index `source_planes` (a flag of the template:
// their code costs the rounds registers); RemoteRows: a distributed field's rows beyond
// remote y faces, read from `remote` (a flag too: each row's base at the load cost
// one-process passes 2-11 %, measured on the H200 at 8dd9254 + this code).)
template <int K, bool TestsFaces, class T, class S = CrossTile<T, K>, int Model = kPassPureDiffusion,
          bool Sources = false, int Kind = kLinear, bool RemoteRows = false>
__global__ void __launch_bounds__(32 * S::BY, 1)
    diffuse_cross_steps_kernel(const T* __restrict__ in, T* __restrict__ out, Grid grid,
                               const DiffusionWeights<T>* __restrict__ weights,
                               const ComponentTerms<T>* __restrict__ terms, LevelSteps<T, K> steps,
                               const SourceTerm<T>* __restrict__ sources, const int64_t* __restrict__ source_planes,
                               const FaceCondition* __restrict__ faces, RemotePlanes<T> remote, PlaneRange range,
                               Health health) {
  constexpr int RX = S::RX, RY = S::RY, TW = S::TW, TH = S::TH, PLANE = S::PLANE;
  constexpr int MX = S::MX, OW = S::OW, OH = S::OH, NC = S::NC;
  constexpr unsigned kLanes = 0xffffffffu;
  static_assert(NC == (Kind == kLinear ? 1 : reacting_components<Kind>()), "a tile steps the components that couple");
  static_assert(NC == 1 || (!TestsFaces && Model != kPassPureDiffusion), "coupled components: a model's, no face test");
  constexpr bool kSymmetric = symmetric_update(Model);  // (axis_reading)
  // Bits of a thread's cells that apply the ghost of a face (a kReadClamped axis's; x = 0
  // can only be a thread's first column: tiles start at multiples of RX), then of the
  // component's DIRICHLET faces.
  constexpr int kXLow = 0, kXHigh = 1, kYLow = 1 + RX, kYHigh = 1 + RX + RY, kDirichletFace = 1 + RX + 2 * RY;
  // Bits of `owned` past the cells' (r RX + rx) for the thread's rows beyond a remote y
  // face, low and high (no register of their own).
  constexpr int kBeyondLow = 16, kBeyondHigh = 24;
  static_assert(RX * RY <= kBeyondLow && RY <= kBeyondHigh - kBeyondLow, "a thread's cells and rows fit `owned`");
  extern __shared__ __align__(16) unsigned char pass_shared[];
  T* const edges = reinterpret_cast<T*>(pass_shared);  // [parity][level below K][component][PLANE]
  __shared__ T twice_value[6];  // the component's faces' 2 x value in T (ghost_from's)
  if (failed_before(health)) return;
  const int tx = threadIdx.x, ty = threadIdx.y, cx = tx * RX, cy = ty * RY;
  // The slots beyond the first and last thread rows' edge rows, which the tile's edge
  // rows read and nothing writes: zero, so that every value the pass makes is finite
  // where the input is (the health probe reads them all). (Ordered before the first
  // round by the segment's first barrier.)
  for (int i = ty * 32 + tx; i < 2 * K * NC * S::UNWRITTEN_ROWS * TW; i += 32 * S::BY) {
    const int slot = i / TW, at = i % TW;  // (parity, level, component, row)
    edges[slot / S::UNWRITTEN_ROWS * PLANE + S::unwritten_row(slot % S::UNWRITTEN_ROWS) * TW + at] = T(0);
  }
  const int64_t n[3] = {grid.n[0], grid.n[1], grid.n[2]};
  // Along z, and within a plane of storage, int: max_steps_per_pass leaves the larger
  // planes to single steps.
  const int nz = static_cast<int>(n[2]), lead_z = static_cast<int>(grid.lead[2]);
  const int plane_stride = static_cast<int>(grid.stride[2]);
  const int64_t tiles_x = (n[0] + OW - 1) / OW, tiles = tiles_x * range.rows;  // (the launch's)
  const int64_t work = grid.ncomp / NC * tiles * range.count;
  int64_t begin, end;
  if constexpr (TestsFaces) {
    // Shares of equal cost rather than equal planes: a tile with cells on an x or y face
    // whose ghosts they apply runs the round that tests, about 1.8x the others' (its
    // loop's instructions; with equal planes the blocks given such tiles finish last).
    begin = item_of_cost<S>(blockIdx.x, gridDim.x, grid, faces, kSymmetric, tiles_x, range.first_row, range.rows,
                            range.count);
    end = item_of_cost<S>(blockIdx.x + 1, gridDim.x, grid, faces, kSymmetric, tiles_x, range.first_row, range.rows,
                          range.count);
  } else {
    const int64_t share = (work + gridDim.x - 1) / gridDim.x;
    begin = min(work, blockIdx.x * share);
    end = min(work, begin + share);
  }
  T probe = T(0);  // NaN when a value the pass makes at level K is NaN or Inf (v * 0 is 0 for finite v)

  for (int64_t item = begin; item < end;) {  // segments: a run of planes of one tile
    const int64_t column = item / range.count, tile = column % tiles;
    const int c = static_cast<int>(column / tiles) * NC;  // the tile's (first) component
    const int z0 = range.first + static_cast<int>(item % range.count);
    const int z1 = static_cast<int>(min(int64_t(range.first + range.count), z0 + (end - item)));
    item += z1 - z0;
    if (ty == 0 && tx < 6) twice_value[tx] = static_cast<T>(2 * faces[6 * c + tx].value);
    const DiffusionWeights<T> w = Model == kPassPureDiffusion ? weights[c] : DiffusionWeights<T>{};
    ComponentTerms<T> model_terms[NC];
#pragma unroll
    for (int j = 0; j < NC; ++j) model_terms[j] = Model == kPassPureDiffusion ? ComponentTerms<T>{} : terms[c + j];
    // Level s's values of a cell (the pass's step s - 1) from the seven values of each
    // component it reads.
    auto step_of = [&](int s, const CrossAt<T>(&at)[NC], T(&made)[NC]) {
      if constexpr (Model == kPassPureDiffusion) {
        made[0] = diffusion_update<7>(at[0], w);
      } else {
        const T no_wind[3] = {T(0), T(0), T(0)};  // (read only with a per-cell wind)
        const auto values = [&](int j) { return at[j]; };
        cell_update<7, Kind, NC, Model>(values, values, no_wind, no_wind, model_terms, steps.at[s - 1],
                                        [&](int j, T v) { made[j] = v; });
      }
    };
    const int reading_x = axis_reading(faces + 6 * c, kSymmetric), reading_y = axis_reading(faces + 6 * c + 2, kSymmetric);
    const int reading_z = axis_reading(faces + 6 * c + 4, kSymmetric);
    // The axes whose faces' ghosts the reading cells apply (cell_read).
    // (y and z per face: a remote face's rows and planes are the neighbour's, with no rule
    // to apply.)
    const bool tests_x = reading_x == kReadClamped;
    const bool tests_y_low = reading_y == kReadClamped && faces[6 * c + 2].type != kRemote;
    const bool tests_y_high = reading_y == kReadClamped && faces[6 * c + 3].type != kRemote;
    const bool tests_z_low = reading_z == kReadClamped && faces[6 * c + 4].type != kRemote;
    const bool tests_z_high = reading_z == kReadClamped && faces[6 * c + 5].type != kRemote;
    const int64_t tile_row = range.first_row + tile / tiles_x;
    const int64_t x0 = (tile % tiles_x) * OW - MX, y0 = tile_row * OH - K;
    // Where the thread's columns and rows are read in a plane, which cells sit on a face
    // whose ghost they apply, and which are the tile's own.
    int col[RX], row[RY];
    unsigned on_face = 0, owned = 0;
#pragma unroll
    for (int rx = 0; rx < RX; ++rx) {
      const int64_t x = x0 + cx + rx;
      col[rx] = static_cast<int>(cell_read(x, n[0], reading_x) + grid.lead[0]);
      if (tests_x && x == 0) on_face |= 1u << kXLow;
      if (tests_x && x == n[0] - 1) on_face |= 1u << (kXHigh + rx);
    }
#pragma unroll
    for (int r = 0; r < RY; ++r) {
      const int64_t y = y0 + cy + r;
      // (Beyond a remote y face: the virtual row, those past K, which reach no output
      // cell, at the farthest swapped.)
      int64_t read = 0;
      if (RemoteRows && y < 0 && remote.below != nullptr) {
        read = y, owned |= 1u << (kBeyondLow + r);
      } else if (RemoteRows && y >= n[1] && remote.above != nullptr) {
        read = min(y, n[1] + K - 1), owned |= 1u << (kBeyondHigh + r);
      } else {
        read = cell_read(y, n[1], reading_y);
      }
      row[r] = static_cast<int>((read + grid.lead[1]) * grid.stride[1]);
      if (tests_y_low && y == 0) on_face |= 1u << (kYLow + r);
      if (tests_y_high && y == n[1] - 1) on_face |= 1u << (kYHigh + r);
#pragma unroll
      for (int rx = 0; rx < RX; ++rx)
        if (cx + rx >= MX && cx + rx < TW - MX && x0 + cx + rx < n[0] && cy + r >= K && cy + r < TH - K && y < n[1])
          owned |= 1u << (r * RX + rx);
    }
    for (int face = 0; face < 6; ++face)
      if (faces[6 * c + face].type == kDirichlet) on_face |= 1u << (kDirichletFace + face);
    // ghost_from(faces[face], cell), with the face's value from shared memory.
    auto ghost = [&](int face, T cell) { return on_face >> (kDirichletFace + face) & 1u ? twice_value[face] - cell : cell; };
    // Whole RX-cell accesses where the columns are adjacent in storage and aligned.
    // (Warp-wide, so that the round branches past the cell-by-cell accesses instead of
    // issuing them under a predicate.)
    const bool whole = __all_sync(kLanes, col[RX - 1] == col[0] + RX - 1 && col[0] % RX == 0);
    // And every thread of the warp owns each of its rows whole or not at all (all but a
    // tile on a high x face of an odd number of cells in float): a row a store.
    bool pairs = true;
#pragma unroll
    for (int r = 0; r < RY; ++r) {
      const unsigned mine = owned >> (r * RX) & ((1u << RX) - 1);
      pairs = pairs && (mine == 0 || mine == (1u << RX) - 1);
    }
    const bool rows_whole = whole && __all_sync(kLanes, pairs);
    // The tile has cells on an x or y face whose ghost they apply (the rest, most, skip
    // the tests).
    const bool tile_on_face =
        (tests_x && S::column_at_face(tile % tiles_x, n[0])) ||
        ((tests_y_low || tests_y_high) && S::row_at_face(tile_row, n[1]));
    const T* in_c = in + c * grid.comp_stride;  // (component c + j at j comp_stride on)
    T* out_c = out + c * grid.comp_stride;
    auto plane_at = [&](int z) {
      return static_cast<int64_t>(cell_read(z, nz, reading_z) + lead_z) * plane_stride;
    };
    // Whether position z lies beyond a remote z face, and there component c + j's plane,
    // the neighbour's (the depths past K, which reach no output cell, at the farthest
    // swapped). (The test alone where that serves: the pointer's test for NULL cost the
    // one-process rounds registers.)
    auto beyond_remote_z = [&](int z) { return (z < 0 && remote.low != nullptr) || (z >= nz && remote.high != nullptr); };
    auto remote_plane = [&](int j, int z) -> const T* {
      const int64_t depth = z < 0 ? max(z + K, 0) : min(z - nz, K - 1);
      return (z < 0 ? remote.low : remote.high) + (static_cast<int64_t>(c + j) * K + depth) * remote.plane_values;
    };
    // Component c + j's input plane at position z. (A plane of the grid first, as plane_at
    // reads it: the tests beyond it cost the rounds 1-3 % when they came first.)
    auto input_plane = [&](int j, int z) -> const T* {
      const T* const component = in_c + j * grid.comp_stride;
      if (z >= 0 && z < nz) return component + static_cast<int64_t>(z + lead_z) * plane_stride;
      if (beyond_remote_z(z)) return remote_plane(j, z);
      return component + plane_at(z);
    };

    // q[s][slot][j][r][rx]: level s's last three planes (of each component j), a ring:
    // the plane a level makes in round t goes to slot (t - t0) % 3 (t0 the segment's first
    // round), so that with the loop unrolled by three every slot is a constant and no
    // register moves. (Zero at first: what the warm-up's first rounds make from them
    // never reaches the output.)
    T q[K][3][NC][RY][RX];
#pragma unroll
    for (int s = 0; s < K; ++s)
#pragma unroll
      for (int i = 0; i < 3; ++i)
#pragma unroll
        for (int j = 0; j < NC; ++j)
#pragma unroll
          for (int r = 0; r < RY; ++r)
#pragma unroll
            for (int rx = 0; rx < RX; ++rx) q[s][i][j][r][rx] = T(0);
    // The base of component c + j's rows beyond remote y face `side` (0 low, 1 high) in
    // plane z (the grid's plane, or its image, whose rows the swap carried), for the
    // virtual rows: below the low face rows -K..-1 are the slot's 0..K-1, above the high
    // face rows n..n+K-1.
    auto rows_beyond = [&](int side, int j, int z) {
      const int64_t at = (static_cast<int64_t>(c + j) * nz + cell_read(z, nz, reading_z)) * K;
      return side == 0 ? remote.below + (at + K - grid.lead[1]) * grid.stride[1]
                       : remote.above + (at - n[1] - grid.lead[1]) * grid.stride[1];
    };
    auto load = [&](int z, T(&plane_values)[NC][RY][RX]) {
#pragma unroll
      for (int j = 0; j < NC; ++j) {
        const T* plane = input_plane(j, z);
        // Each row's base: the plane's, but beyond a remote y face in a plane of the grid
        // or its image (beyond a remote z face the plane has every row). (A warp's rows
        // are one thread row's: the branch is the warp's.)
        const T* bases[RY];
#pragma unroll
        for (int r = 0; r < RY; ++r) bases[r] = plane;
        if (RemoteRows && (owned >> kBeyondLow) != 0 && !beyond_remote_z(z)) {
#pragma unroll
          for (int r = 0; r < RY; ++r) {
            if (owned >> (kBeyondLow + r) & 1u) bases[r] = rows_beyond(0, j, z);
            if (owned >> (kBeyondHigh + r) & 1u) bases[r] = rows_beyond(1, j, z);
          }
        }
        if (whole) {
#pragma unroll
          for (int r = 0; r < RY; ++r) {
            const Cells<T, RX> v = *reinterpret_cast<const Cells<T, RX>*>(bases[r] + (row[r] + col[0]));
#pragma unroll
            for (int rx = 0; rx < RX; ++rx) plane_values[j][r][rx] = v.v[rx];
          }
        } else {
#pragma unroll
          for (int r = 0; r < RY; ++r)
#pragma unroll
            for (int rx = 0; rx < RX; ++rx) plane_values[j][r][rx] = bases[r][row[r] + col[rx]];  // (int sums)
        }
      }
    };
    // A plane's first and last rows, for the thread rows beside (XS: every row, for the
    // threads beside too); component j's PLANE values after j - 1's.
    auto store_edges = [&](const T(&plane)[NC][RY][RX], T* level_edges) {
#pragma unroll
      for (int j = 0; j < NC; ++j) {
        T* const to = level_edges + j * PLANE;
        if constexpr (S::XS) {
#pragma unroll
          for (int r = 0; r < RY; ++r)
            *reinterpret_cast<Cells<T, RX>*>(to + (cy + r + 2) * TW + cx) = cells_of(plane[j][r]);
        } else {
          *reinterpret_cast<Cells<T, RX>*>(to + ((ty + 1) * 2) * TW + cx) = cells_of(plane[j][0]);
          *reinterpret_cast<Cells<T, RX>*>(to + ((ty + 1) * 2 + 1) * TW + cx) = cells_of(plane[j][RY - 1]);
        }
      }
    };
    // The point sources of the plane a level made at position p (its cell's, read as the
    // level's values are: a position beyond a face holds its image's value), added as
    // add_sources adds them after a step. source_planes[c nz + z]: the first source of
    // component c's plane z (sorted by position). Whether a level's plane has any is a
    // bit of planes_with_sources, shifted in a round for level 1's plane: its test a
    // round ahead (`next_has`), so that no round waits for the index (which cost the
    // rounds about 15 % when each level read it: docs/PERFORMANCE.md note (q)).
    auto sources_of = [&](int j, int p) {
      // (None beyond a remote face: the neighbour's cells there; rd.cpp keeps our sources
      // that deep from the face.)
      if (beyond_remote_z(p)) return std::make_pair(int64_t(0), int64_t(0));
      const int64_t key = static_cast<int64_t>(c + j) * nz + cell_read(p, nz, reading_z);
      return std::make_pair(source_planes[key], source_planes[key + 1]);
    };
    auto plane_has_sources = [&](int p) {
      bool any = false;
#pragma unroll
      for (int j = 0; j < NC; ++j) {
        const auto [from, to] = sources_of(j, p);
        any = any || to > from;
      }
      return any;
    };
    unsigned planes_with_sources = 0;  // bit s - 1: level s's plane this round
    bool next_has = false;             // plane t - 1's, for round t
    auto add_sources_at = [&](int s, int p, T(&made)[NC][RY][RX]) {
      if constexpr (Sources) {
        if ((planes_with_sources >> (s - 1) & 1u) == 0) return;
        const int zc = static_cast<int>(cell_read(p, nz, reading_z));
#pragma unroll
        for (int j = 0; j < NC; ++j) {
          const auto [from, to] = sources_of(j, p);
          const int64_t plane_start = (c + j) * grid.comp_stride + static_cast<int64_t>(zc + lead_z) * plane_stride;
          for (int64_t i = from; i < to; ++i) {
            const int64_t in_plane = sources[i].at - plane_start;
            const T amount = sources[i].amount;
#pragma unroll
            for (int r = 0; r < RY; ++r)
#pragma unroll
              for (int rx = 0; rx < RX; ++rx)
                if (row[r] + col[rx] == in_plane) made[j][r][rx] = made[j][r][rx] + amount;
          }
        }
      }
    };
    // The next plane of a level from the three planes below (`low`, `mid`, `high` along z)
    // and the edge rows of `mid`. on_face_tile (a constant where it is inlined): cells on
    // a face read its ghost by the face's rule (z: `z_low`, `z_high` for the plane). (Not
    // a generic lambda: array parameters in one crash nvcc 13.0's front end.)
    auto advance = [&](int s, bool on_face_tile, const T(&low)[NC][RY][RX], const T(&mid)[NC][RY][RX],
                       const T(&high)[NC][RY][RX], const T* below_edges, bool z_low, bool z_high,
                       T(&made)[NC][RY][RX]) {
      const int before = S::XS ? (cy + 1) * TW : (ty * 2 + 1) * TW, after = S::XS ? (cy + RY + 2) * TW : (ty + 2) * 2 * TW;
      Cells<T, RX> row_before[NC], row_after[NC];
#pragma unroll
      for (int j = 0; j < NC; ++j) {
        row_before[j] = *reinterpret_cast<const Cells<T, RX>*>(below_edges + j * PLANE + before + cx);
        row_after[j] = *reinterpret_cast<const Cells<T, RX>*>(below_edges + j * PLANE + after + cx);
      }
#pragma unroll
      for (int r = 0; r < RY; ++r) {
        // (The lanes at a warp's ends read a cell that is not their neighbour, the other
        // end of a row: theirs is the ring thrown away.)
        T x_before[NC], x_after[NC];
#pragma unroll
        for (int j = 0; j < NC; ++j) {
          const T* const plane_edges = below_edges + j * PLANE;
          x_before[j] = S::XS ? plane_edges[(cy + r + 2) * TW + cx - 1] : __shfl_up_sync(kLanes, mid[j][r][RX - 1], 1);
          x_after[j] = S::XS ? plane_edges[(cy + r + 2) * TW + cx + RX] : __shfl_down_sync(kLanes, mid[j][r][0], 1);
        }
#pragma unroll
        for (int rx = 0; rx < RX; ++rx) {
          CrossAt<T> at[NC];
#pragma unroll
          for (int j = 0; j < NC; ++j) {
            const T centre = mid[j][r][rx];
            at[j] = CrossAt<T>{centre,
                               rx > 0 ? mid[j][r][rx - 1] : x_before[j],
                               rx < RX - 1 ? mid[j][r][rx + 1] : x_after[j],
                               r > 0 ? mid[j][r - 1][rx] : row_before[j].v[rx],
                               r < RY - 1 ? mid[j][r + 1][rx] : row_after[j].v[rx],
                               low[j][r][rx],
                               high[j][r][rx]};
            if (on_face_tile) {  // (TestsFaces: one component)
              if (rx == 0 && (on_face >> kXLow & 1u)) at[j].x_low = ghost(0, centre);
              if (on_face >> (kXHigh + rx) & 1u) at[j].x_high = ghost(1, centre);
              if (on_face >> (kYLow + r) & 1u) at[j].y_low = ghost(2, centre);
              if (on_face >> (kYHigh + r) & 1u) at[j].y_high = ghost(3, centre);
              if (z_low) at[j].z_low = ghost(4, centre);
              if (z_high) at[j].z_high = ghost(5, centre);
            }
          }
          T cell[NC];
          step_of(s, at, cell);
#pragma unroll
          for (int j = 0; j < NC; ++j) made[j][r][rx] = cell[j];
        }
      }
    };
    // Round t, (t - t0) % 3 = phase: input plane t is level 0's newest, in its slot since
    // the round before.
    auto round = [&](auto on_face_constant, auto phase_constant, int t) {
      constexpr int newest = decltype(phase_constant)::value, mid = (newest + 2) % 3, oldest = (newest + 1) % 3;
      constexpr int kLevelPlanes = NC * PLANE;  // a level's values in `edges`
      const T* read = edges + (t & 1) * (K * kLevelPlanes);
      T* written = edges + ((t + 1) & 1) * (K * kLevelPlanes);
      store_edges(q[0][newest], written);
      if constexpr (Sources) {
        planes_with_sources = planes_with_sources << 1 | static_cast<unsigned>(next_has);
        next_has = plane_has_sources(t);
      }
      static_for<1, K + 1>([&](auto s_constant) {
        constexpr int s = decltype(s_constant)::value;
        const int p = t - s;
        const auto& below = q[s - 1];
        const bool face = decltype(on_face_constant)::value;
        const bool z_low = tests_z_low && p == 0, z_high = tests_z_high && p == nz - 1;
        if constexpr (s < K) {
          // Into the slot of the level's oldest plane, which level s + 1 read last round.
          advance(s, face, below[oldest], below[mid], below[newest], read + (s - 1) * kLevelPlanes, z_low, z_high,
                  q[s][newest]);
          add_sources_at(s, p, q[s][newest]);
          store_edges(q[s][newest], written + s * kLevelPlanes);
        } else {
          T made[NC][RY][RX];
          advance(s, face, below[oldest], below[mid], below[newest], read + (s - 1) * kLevelPlanes, z_low, z_high,
                  made);
          add_sources_at(s, p, made);
          if (p >= z0) {
#pragma unroll
            for (int j = 0; j < NC; ++j) {
              T* plane = out_c + j * grid.comp_stride + plane_at(p);
              if (rows_whole) {
#pragma unroll
                for (int r = 0; r < RY; ++r)
                  if (owned >> (r * RX) & 1u)
                    *reinterpret_cast<Cells<T, RX>*>(plane + (row[r] + col[0])) = cells_of(made[j][r]);
              } else {
#pragma unroll
                for (int r = 0; r < RY; ++r)
#pragma unroll
                  for (int rx = 0; rx < RX; ++rx)
                    if (owned >> (r * RX + rx) & 1u) plane[row[r] + col[rx]] = made[j][r][rx];
              }
              // Every cell of the tile, owned or not: the others' values are finite where
              // the input is (the edge slots nothing writes are zeroed at the kernel's
              // start), but for a reaction that overflows in a margin cell first (a cubic
              // term from a zeroed neighbour): then the pass's steps run again one at a
              // time, which find no failure or the true one.
#pragma unroll
              for (int r = 0; r < RY; ++r)
#pragma unroll
                for (int rx = 0; rx < RX; ++rx) probe += made[j][r][rx] * T(0);
            }
          }
        }
        // The next input plane, once level 1 has read the oldest of level 0's, into its
        // slot (the levels above hide the load).
        if constexpr (s == 1) load(t + 1, q[0][oldest]);
      });
    };
    // Rounds from .. to - 1, each followed by the barrier that hands its edge rows to
    // the next; `from` at ring phase 0 (a multiple of 3 rounds after the segment's first).
    auto march = [&](auto on_face_constant, int from, int to) {
      for (int t = from; t < to; t += 3) {
        round(on_face_constant, std::integral_constant<int, 0>{}, t);
        __syncthreads();
        if (t + 1 < to) {
          round(on_face_constant, std::integral_constant<int, 1>{}, t + 1);
          __syncthreads();
        }
        if (t + 2 < to) {
          round(on_face_constant, std::integral_constant<int, 2>{}, t + 2);
          __syncthreads();
        }
      }
    };

    __syncthreads();  // twice_value
    const int first = z0 - K, t_end = z1 + K;
    load(first, q[0][0]);
    if constexpr (Sources) next_has = plane_has_sources(first - 1);  // (the first rounds' levels: warm-up)
    if constexpr (TestsFaces) {
      // The rounds that read ghosts: all of a tile with face cells, and those of levels at
      // a z face's plane (round t makes planes t - K .. t - 1). The others, [lo, hi) in
      // whole triples, take the round without tests: a loop of its own, so that its
      // registers are not the testing round's.
      int lo = t_end, hi = t_end;
      if (!tile_on_face) {
        const int plain_from = tests_z_low ? max(first, K + 1) : first;
        const int plain_to = tests_z_high ? min(t_end, nz) : t_end;
        lo = first + (plain_from - first + 2) / 3 * 3;
        hi = max(lo, first + (plain_to - first) / 3 * 3);
        if (lo >= t_end) lo = hi = t_end;
      }
#pragma unroll 1
      for (int part = 0; part < 3; ++part) {  // (one copy of the testing loop for both of its parts)
        if (part == 1)
          march(std::false_type{}, lo, hi);
        else
          march(std::true_type{}, part == 0 ? first : hi, part == 0 ? lo : t_end);
      }
    } else {
      march(std::false_type{}, first, t_end);
    }
  }
  // A bad value: the caller runs the pass's steps again one at a time, which name it.
  if (probe != probe) atomicMin(health.first_bad, health_key(health.step, 0));
}

// What the 7-point pass of `terms` steps (the kernel's Model): pure diffusion, or a
// model with or without a uniform wind (step_terms[0], in host memory, says which), and
// with or without linear terms.
template <class T>
int cross_pass_model(const PassTerms<T>& terms) {
  if (!terms.model()) return kPassPureDiffusion;
  return (terms.step_terms[0].advect ? kUniformAdvectionOnly : kNoTransport) |
         (terms.linear_terms ? 0 : kNoLinearTerms);
}

// Whether that pass's cells test faces for their rule: some axis of some component read
// by kReadClamped (faces_host: 6 a component, host memory).
inline bool cross_pass_tests_faces(const Grid& grid, const FaceCondition* faces_host, int model) {
  for (int axis = 0; axis < 3 * grid.ncomp; ++axis)
    if (axis_reading(faces_host + 2 * axis, symmetric_update(model)) == kReadClamped) return true;
  return false;
}

// Whether the 7-point pass steps a model of reaction kind `kind` on `grid`: LINEAR (a tile
// a component), or TURING or GRAY_SCOTT with its two reacting components alone, which a
// tile steps together and so reads alike along each axis (a third, LINEAR component, or
// components of which one is periodic along an axis and the other not: one step a pass).
inline bool cross_pass_steps_kind(int kind, const Grid& grid, const FaceCondition* faces_host, int model) {
  if (kind == kLinear) return true;
  if ((kind != kTuring && kind != kGrayScott) || grid.ncomp != 2) return false;
  const bool symmetric = symmetric_update(model);
  for (int axis = 0; axis < 3; ++axis)
    if (axis_reading(faces_host + 2 * axis, symmetric) != axis_reading(faces_host + 6 + 2 * axis, symmetric))
      return false;
  return true;
}

// The tile of the 7-point pass of a coupled model's two components (CrossTile<T, K> is
// pure diffusion's and LINEAR models', a component a tile): rows a thread so that both
// components' three planes of K levels fit the registers, at most 3 steps a pass.
// Measured (docs/research/an5d_prototype/coupled_tiles.cu, H200, 512^3, Turing on NOFLUX
// faces, fraction of the copy bound, float32 / float64): 3 steps in 12 thread rows of 3
// 1.171 / 1.099 (10 or 11 rows of 3: 1.02-1.13, 8 of 4: 1.00 / 1.05); 4 steps in 12 of 2
// 0.972 / 0.979 (its tile's output is 16 rows; 8 of 4: 0.95 / 1.10, 10 of 3 spills:
// 0.66); 2 steps in 12 of 4 0.916 / 1.056. (float64's 12 x 3 keeps 8 bytes in local memory.)
constexpr int kCudaMaxCoupledStepsPerPass = 3;
template <class T, int K>
using CoupledCrossTile = CrossTile<T, K, 12, K == 2 ? 4 : 3, false, 2>;

template <int K, class T>
void diffuse_cross_steps_launch(const Context& ctx, const T* in, T* out, const Grid& grid, const PassTerms<T>& terms,
                                const int64_t* source_planes, const FaceCondition* faces,
                                const FaceCondition* faces_host, RemotePlanes<T> remote, TileRows which,
                                int first_plane, int planes, Health health) {
  using S = CrossTile<T, K>;
  using Plain = CrossTile<T, K, S::BY, S::RY, sizeof(T) == 8>;  // pure diffusion testing no face (CrossTile: XS)
  using Coupled = CoupledCrossTile<T, K>;
  LevelSteps<T, K> steps{};
  if (terms.model())
    for (int s = 0; s < K; ++s) steps.at[s] = terms.step_terms[s];
  // (A uniform wind's upwind terms only where there is one: with zero weights they
  // would still turn a -0 into +0.)
  const int model = cross_pass_model(terms);
  const bool tests_faces = cross_pass_tests_faces(grid, faces_host, model);
  // (The face tests only for pure diffusion without sources: max_steps_per_pass.)
  if (tests_faces && (model != kPassPureDiffusion || source_planes != nullptr))
    fail(OPSPLIT_ERROR_INTERNAL, "a 7-point pass of a model or sources that tests faces");
  if (terms.model() && !cross_pass_steps_kind(terms.kind, grid, faces_host, model))
    fail(OPSPLIT_ERROR_INTERNAL, "a 7-point pass of a model it does not step");
  // The kernel with its tile: shared bytes, thread rows, output cells and components.
  struct Choice {
    decltype(&diffuse_cross_steps_kernel<K, false, T, S>) kernel;
    int bytes, thread_rows, width, height, components;
  };
  auto choice = [](auto tile, auto kernel) -> Choice {
    using Tile = decltype(tile);
    return {kernel, Tile::SHARED_BYTES, Tile::BY, Tile::OW, Tile::OH, Tile::NC};
  };
  auto with_sources = [&](auto model_constant, auto kind_constant, auto rows_constant) -> Choice {
    constexpr int M = decltype(model_constant)::value, Kd = decltype(kind_constant)::value;
    constexpr bool R = decltype(rows_constant)::value;
    if constexpr (Kd != kLinear) {
      if constexpr (K <= kCudaMaxCoupledStepsPerPass) {
        if (source_planes != nullptr)
          return choice(Coupled{}, diffuse_cross_steps_kernel<K, false, T, Coupled, M, true, Kd, R>);
        return choice(Coupled{}, diffuse_cross_steps_kernel<K, false, T, Coupled, M, false, Kd, R>);
      } else {
        fail(OPSPLIT_ERROR_INTERNAL, "a 7-point pass of a coupled model's " + std::to_string(K) +
                                         " steps (max_steps_per_pass allows " +
                                         std::to_string(kCudaMaxCoupledStepsPerPass) + ")");
      }
    } else {
      if (source_planes != nullptr)
        return choice(S{}, diffuse_cross_steps_kernel<K, false, T, S, M, true, kLinear, R>);
      if constexpr (M == kPassPureDiffusion) {
        if (tests_faces) return choice(S{}, diffuse_cross_steps_kernel<K, true, T, S, M, false, kLinear, R>);
        return choice(Plain{}, diffuse_cross_steps_kernel<K, false, T, Plain, M, false, kLinear, R>);
      }
      return choice(S{}, diffuse_cross_steps_kernel<K, false, T, S, M, false, kLinear, R>);
    }
  };
  const bool remote_rows = remote.below != nullptr || remote.above != nullptr;
  auto with_rows = [&](auto model_constant, auto kind_constant) -> Choice {
    if (remote_rows) return with_sources(model_constant, kind_constant, std::true_type{});
    return with_sources(model_constant, kind_constant, std::false_type{});
  };
  auto of_kind = [&](auto model_constant) -> Choice {
    if constexpr (decltype(model_constant)::value == kPassPureDiffusion) {
      return with_rows(model_constant, std::integral_constant<int, kLinear>{});
    } else {
      if (terms.kind == kTuring) return with_rows(model_constant, std::integral_constant<int, kTuring>{});
      if (terms.kind == kGrayScott) return with_rows(model_constant, std::integral_constant<int, kGrayScott>{});
      return with_rows(model_constant, std::integral_constant<int, kLinear>{});
    }
  };
  const Choice chosen = [&] {
    switch (model) {
      case kPassPureDiffusion: return of_kind(std::integral_constant<int, kPassPureDiffusion>{});
      case kNoTransport: return of_kind(std::integral_constant<int, kNoTransport>{});
      case kNoTransport | kNoLinearTerms: return of_kind(std::integral_constant<int, kNoTransport | kNoLinearTerms>{});
      case kUniformAdvectionOnly: return of_kind(std::integral_constant<int, kUniformAdvectionOnly>{});
      case kUniformAdvectionOnly | kNoLinearTerms:
        return of_kind(std::integral_constant<int, kUniformAdvectionOnly | kNoLinearTerms>{});
      default: fail(OPSPLIT_ERROR_INTERNAL, "a 7-point pass of transport terms it has no kernel for");
    }
  }();
  allow_shared_bytes(chosen.kernel, chosen.bytes);
  const int sms = ctx.device().multiprocessors(), threads = 32 * chosen.thread_rows;
  int per_sm = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, chosen.kernel, threads, chosen.bytes) != cudaSuccess)
    fail(OPSPLIT_ERROR_DEVICE, "cannot read diffuse_cross_steps_kernel's blocks a multiprocessor");
  // The tile rows: a tile row t reads rows t OH - K to (t + 1) OH + K - 1.
  const int64_t oh = chosen.height, tiles_y = blocks_for(grid.n[1], chosen.height);
  const int64_t at_low = faces_host[2].type == kRemote ? std::min(tiles_y, (K + oh - 1) / oh) : 0;
  const int64_t at_high =
      faces_host[3].type == kRemote ? std::max(at_low, grid.n[1] >= K ? (grid.n[1] - K) / oh : 0) : tiles_y;
  PlaneRange range{first_plane, planes, 0, tiles_y};
  if (which == TileRows::kInside) range.first_row = at_low, range.rows = at_high - at_low;
  if (which == TileRows::kAtLow) range.rows = at_low;
  if (which == TileRows::kAtHigh) range.first_row = at_high, range.rows = tiles_y - at_high;
  if (range.rows <= 0 || range.count <= 0) return;
  // Blocks a multiprocessor holds, but no segment of fewer than K planes where a column
  // has them (a segment marches K planes before its first and K after its last: a range
  // of a face's few planes takes whole columns).
  const int64_t columns = grid.ncomp / chosen.components * blocks_for(grid.n[0], chosen.width) * range.rows;
  const int64_t work = columns * range.count;
  const unsigned blocks = static_cast<unsigned>(std::min<int64_t>(
      {work, int64_t(sms) * std::max(per_sm, 1), columns * std::max(range.count / K, 1)}));
  chosen.kernel<<<blocks, dim3(32, chosen.thread_rows), chosen.bytes, stream_of(ctx)>>>(
      in, out, grid, terms.weights, terms.terms, steps, terms.sources, source_planes, faces, remote, range, health);
  cuda::check_launch("diffuse_cross_steps_kernel");
}

// The bytes of the messages a pass of k steps swaps a side (launch.hpp's values).
template <class T>
size_t remote_rows_bytes(const Grid& grid, int k) {
  return static_cast<size_t>(remote_rows_values(grid, k)) * sizeof(T);
}
template <class T>
size_t remote_planes_bytes(const Grid& grid, const FaceCondition* faces_host, int k) {
  const int remote_y_faces = (faces_host[2].type == kRemote) + (faces_host[3].type == kRemote);
  return static_cast<size_t>(remote_planes_values(grid, remote_y_faces, k)) * sizeof(T);
}

// At 7 points on 3D grids (the march's), on one process: pure diffusion up to
// kCudaMaxStepsPerPass steps a pass; also a model without a per-cell wind (the caller
// fuses models without Cahn-Hilliard terms only: opsplit_rd_s::fused_steps_per_pass;
// LINEAR ones, and TURING and GRAY_SCOTT with their two components alone, read alike, up
// to kCudaMaxCoupledStepsPerPass: cross_pass_steps_kind) and point sources, where the pass
// tests no face (every axis PERIODIC or, without a wind, NOFLUX on both faces: the pass
// that tests faces holds more values than the registers do with them, and ran slower
// than one step a pass, docs/PERFORMANCE.md note (q)); elsewhere one step a pass.
// A distributed field: the 7-point pass, with the rows beyond its remote y faces and the
// planes beyond its remote z faces swapped while it makes what does not read them
// (swap_remote_planes, steps_pass; rd.cpp adds the depth's and the
// sources' rule, remote_face_steps); K what the field's slabs carry; one step a pass
// with a remote x face (a tile's columns beyond it: not built). At 19 points one step a
// pass (above). The 7-point pass addresses a plane of storage in int (its planes all fit
// below 2^31 values).
template <class T>
int max_steps_per_pass(const Context&, const Grid& grid, const FaceCondition* faces_host, int points,
                       const PassTerms<T>& terms) {
  if (points != 7 || !marches(grid)) return 1;
  int most_remote = kCudaMaxStepsPerPass;  // the planes a slab of the field's carries
  if (terms.group != nullptr) {
    if (faces_host[0].type == kRemote || faces_host[1].type == kRemote) return 1;
    const bool remote_y = faces_host[2].type == kRemote || faces_host[3].type == kRemote;
    const bool remote_z = faces_host[4].type == kRemote || faces_host[5].type == kRemote;
    auto carried = [&](int k) {
      return (!remote_y || remote_rows_bytes<T>(grid, k) <= terms.exchange->slot_bytes()) &&
             (!remote_z || remote_planes_bytes<T>(grid, faces_host, k) <= terms.exchange->slot_bytes());
    };
    while (most_remote > 1 && !carried(most_remote)) --most_remote;
    if (most_remote < 2) return 1;
  }
  if (terms.model() || terms.nsources > 0) {
    if (terms.model() && terms.velocity != nullptr) return 1;
    const int model = cross_pass_model(terms);
    if (cross_pass_tests_faces(grid, faces_host, model)) return 1;
    if (terms.model() && !cross_pass_steps_kind(terms.kind, grid, faces_host, model)) return 1;
  }
  // (The 7-point pass folds z positions in int: cell_read's 2 nz; and addresses a plane's
  // rows in int, beyond a remote y face K - 1 rows past the plane's ghosts.)
  if (grid.stride[2] + kCudaMaxStepsPerPass * grid.stride[1] > INT32_MAX || grid.n[2] > INT32_MAX / 2) return 1;
  return std::min(most_remote,
                  terms.model() && terms.kind != kLinear ? kCudaMaxCoupledStepsPerPass : kCudaMaxStepsPerPass);
}
// The 7-point pass's scratch (its levels live in registers): the sources' index of planes
// (source_planes_kernel), then on a distributed field what it reads beyond its remote
// faces (RemotePlanes: the z sides' where a z face is remote, then the y sides' where a
// y face is; 256 bytes on, and each a whole number of rows: the whole-cells loads).
template <class T>
int64_t source_index_values(const Grid& grid, const PassTerms<T>& terms) {
  if (terms.nsources == 0) return 0;
  const int64_t bytes = (grid.ncomp * grid.n[2] + 1) * static_cast<int64_t>(sizeof(int64_t));
  return (bytes + 255) / 256 * 256 / static_cast<int64_t>(sizeof(T));
}
inline int64_t remote_planes_side_values(const Grid& grid, int steps) {
  return grid.ncomp * steps * (grid.n[1] + 2 * steps) * grid.stride[1];
}
inline int64_t remote_rows_side_values(const Grid& grid, int steps) {
  return grid.ncomp * grid.n[2] * steps * grid.stride[1];
}
// The values of a side's region in that scratch (0 where the axis has no remote face).
struct RemoteScratch {
  int64_t planes_side, rows_side;
};
inline RemoteScratch remote_scratch(const Grid& grid, const FaceCondition* faces_host, int steps) {
  const bool remote_y = faces_host[2].type == kRemote || faces_host[3].type == kRemote;
  const bool remote_z = faces_host[4].type == kRemote || faces_host[5].type == kRemote;
  return {remote_z ? remote_planes_side_values(grid, steps) : 0, remote_y ? remote_rows_side_values(grid, steps) : 0};
}
template <class T>
int64_t steps_scratch_values(const Context&, const Grid& grid, const FaceCondition* faces_host,
                             const PassTerms<T>& terms, int steps) {
  if (terms.group == nullptr) return source_index_values(grid, terms);
  const RemoteScratch side = remote_scratch(grid, faces_host, steps);
  return source_index_values(grid, terms) + 2 * (side.planes_side + side.rows_side);
}
// Where cell (c, d, y, x) of a run of planes lies in a layout: c comp + d plane + y row + x.
struct PlanesLayout {
  int64_t comp, plane, row;
  __device__ int64_t at(int64_t c, int64_t d, int64_t y, int64_t x) const { return c * comp + d * plane + y * row + x; }
};
// Copies the cells of `depth` planes of `rows` rows of nx cells, of `ncomp` components,
// between two layouts.
template <class T>
__global__ void copy_planes_kernel(const T* from, PlanesLayout from_layout, T* to, PlanesLayout to_layout, int64_t nx,
                                   int64_t rows, int64_t depth, int64_t values) {
  const int64_t e = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (e >= values) return;
  const int64_t x = e % nx, y = e / nx % rows, d = e / (nx * rows) % depth, c = e / (nx * rows * depth);
  to[to_layout.at(c, d, y, x)] = from[from_layout.at(c, d, y, x)];
}
template <class T>
void copy_planes(const Context& ctx, const T* from, PlanesLayout from_layout, T* to, PlanesLayout to_layout,
                 const Grid& grid, int64_t rows, int64_t depth) {
  const int64_t values = grid.ncomp * depth * rows * grid.n[0];
  if (values == 0) return;
  copy_planes_kernel<<<blocks_for(values, 256), 256, 0, stream_of(ctx)>>>(from, from_layout, to, to_layout, grid.n[0],
                                                                          rows, depth, values);
  cuda::check_launch("copy_planes_kernel");
}

// Swaps with the neighbours what the pass reads beyond its remote faces, into `scratch`
// (steps_scratch_values's, RemotePlanes' layout), each axis in one message a side
// through the field's slabs (sized for them at attach: max_steps_per_pass keeps K to
// what a slab holds), of cells alone: first along y the K rows next to each remote y
// face in every plane, [component][z][depth][cell]; then along z the K planes next to
// each remote z face, their rows from y = -K (or 0) to ny + K (or ny), the rows beyond
// the y faces from the first swap (so the corners come from the diagonal neighbour
// through the z neighbour), [component][depth][row][cell]. during_y() and during_z(rows)
// enqueue work on the stream while the y rows and the z planes travel (which must not
// touch them or read beyond the faces whose cells are travelling; `rows`: the y swap's
// RemotePlanes, ready). during_y runs only where no z face is remote: the z pack follows
// the y unpack on the stream, so the z swap's send would wait for work enqueued under
// the y swap (its mark), and a failure of it would skip the z swap the neighbours wait
// in. during_z runs after the y swap where no z face is remote. Collective: every
// process of the pass swaps, after a failed pass too.
template <class T, class DuringY, class DuringZ>
RemotePlanes<T> swap_remote_planes(const Context& ctx, const PassTerms<T>& terms, const T* data, const Grid& grid,
                                   const FaceCondition* faces_host, int K, T* scratch, DuringY during_y,
                                   DuringZ during_z) {
  const bool remote_y[2] = {faces_host[2].type == kRemote, faces_host[3].type == kRemote};
  const bool remote_z[2] = {faces_host[4].type == kRemote, faces_host[5].type == kRemote};
  const int64_t nx = grid.n[0], ny = grid.n[1], nz = grid.n[2], s1 = grid.stride[1];
  const int64_t plane_values = (ny + 2 * K) * s1;  // a z slab's plane (RemotePlanes)
  const RemoteScratch side = remote_scratch(grid, faces_host, K);
  T* const planes[2] = {scratch, scratch + side.planes_side};
  T* const rows[2] = {side.rows_side > 0 ? scratch + 2 * side.planes_side : nullptr,
                      side.rows_side > 0 ? scratch + 2 * side.planes_side + side.rows_side : nullptr};
  const T* const first_cell = data + grid.index(0, 0, 0, 0);
  // The layouts: the grid's (from cell (0, 0, 0) on), a slot's (packed), the scratch's.
  const PlanesLayout in_grid{grid.comp_stride, grid.stride[2], s1}, rows_in_scratch{nz * K * s1, K * s1, s1},
      planes_in_scratch{K * plane_values, plane_values, s1};
  const int64_t row_lead = grid.lead[0];
  if (remote_y[0] || remote_y[1]) {
    const size_t bytes = remote_rows_bytes<T>(grid, K);
    if (bytes > terms.exchange->slot_bytes())
      fail(OPSPLIT_ERROR_INTERNAL, "a swap of " + std::to_string(K) + " rows is larger than the field's slabs");
    const PlanesLayout in_slot{nz * K * nx, K * nx, nx};  // [component][z][depth][cell]
    terms.exchange->swap(
        ctx, *terms.group, 1, remote_y, bytes,
        [&](int side, void* slot) {  // ours, the neighbour's: from row 0 or ny - K
          copy_planes(ctx, first_cell + (side == 0 ? 0 : (ny - K) * s1), in_grid, static_cast<T*>(slot), in_slot, grid,
                      K, nz);
        },
        [&](int side, void* slot) {  // theirs, beyond our face
          copy_planes(ctx, static_cast<const T*>(slot), in_slot, rows[side] + row_lead, rows_in_scratch, grid, K, nz);
        },
        [&] {
          if (!remote_z[0] && !remote_z[1]) during_y();
        });
  }
  const RemotePlanes<T> swapped_rows{nullptr, nullptr, remote_y[0] ? rows[0] : nullptr,
                                     remote_y[1] ? rows[1] : nullptr, plane_values};
  if (!remote_z[0] && !remote_z[1]) {
    during_z(swapped_rows);
    return swapped_rows;
  }
  const int64_t below = remote_y[0] ? K : 0, above = remote_y[1] ? K : 0, slot_rows = below + ny + above;
  const size_t bytes = remote_planes_bytes<T>(grid, faces_host, K);
  if (bytes > terms.exchange->slot_bytes())
    fail(OPSPLIT_ERROR_INTERNAL, "a swap of " + std::to_string(K) + " planes is larger than the field's slabs");
  const PlanesLayout in_slot{K * slot_rows * nx, slot_rows * nx, nx};  // [component][depth][row][cell]
  terms.exchange->swap(
      ctx, *terms.group, 2, remote_z, bytes,
      [&](int side, void* slot) {  // ours, the neighbour's: from plane 0 or nz - K, the rows beyond y too
        const int64_t z = side == 0 ? 0 : nz - K;
        T* const to = static_cast<T*>(slot);
        // (The rows beyond a y face only where it is remote: elsewhere `rows` is NULL.)
        if (below > 0) copy_planes(ctx, rows[0] + row_lead + z * K * s1, rows_in_scratch, to, in_slot, grid, below, K);
        copy_planes(ctx, first_cell + z * grid.stride[2], in_grid, to + below * nx, in_slot, grid, ny, K);
        if (above > 0)
          copy_planes(ctx, rows[1] + row_lead + z * K * s1, rows_in_scratch, to + (below + ny) * nx, in_slot, grid,
                      above, K);
      },
      [&](int side, void* slot) {  // theirs, beyond our face: row y at row y + K of a plane
        copy_planes(ctx, static_cast<const T*>(slot), in_slot, planes[side] + (K - below) * s1 + row_lead,
                    planes_in_scratch, grid, slot_rows, K);
      },
      [&] { during_z(swapped_rows); });
  const int64_t first_row = (K - grid.lead[1]) * s1;  // (RemotePlanes)
  return {remote_z[0] ? planes[0] + first_row : nullptr, remote_z[1] ? planes[1] + first_row : nullptr,
          swapped_rows.below, swapped_rows.above, plane_values};
}

// first[key] for key = c nz + z in 0 .. keys: the first source (sorted by position) of
// component c's plane z or later; first[keys] = n.
template <class T>
__global__ void source_planes_kernel(const SourceTerm<T>* sources, int64_t n, int64_t plane_cells, int64_t keys,
                                     int64_t* first) {
  const int64_t key = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (key > keys) return;
  int64_t lo = 0, hi = n;  // the first source whose position is key * plane_cells or beyond
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (sources[mid].position < key * plane_cells)
      lo = mid + 1;
    else
      hi = mid;
  }
  first[key] = lo;
}

template <class T>
unsigned steps_pass(const Context& ctx, Input<T>& in, T* out, T* scratch, const Grid& grid, int points,
                    const PassTerms<T>& terms, int steps, Health health) {
  if (points != 7) fail(OPSPLIT_ERROR_INTERNAL, "a 19-point pass (max_steps_per_pass allows none)");
  int64_t* source_planes = nullptr;
  if (terms.nsources > 0) {
    source_planes = reinterpret_cast<int64_t*>(scratch);
    const int64_t keys = grid.ncomp * grid.n[2];
    source_planes_kernel<<<blocks_for(keys + 1, 128), 128, 0, stream_of(ctx)>>>(
        terms.sources, terms.nsources, grid.n[0] * grid.n[1], keys, source_planes);
    cuda::check_launch("source_planes_kernel");
  }
  static_for<2, kCudaMaxStepsPerPass + 1>([&](auto k_constant) {
    constexpr int K = decltype(k_constant)::value;
    if (steps != K) return;
    // (The 7-point pass reads no ghost: cell_read.)
    auto launch = [&](RemotePlanes<T> remote, TileRows rows, int first, int count) {
      if (count > 0)
        diffuse_cross_steps_launch<K>(ctx, in.data, out, grid, terms, source_planes, in.faces, in.faces_host, remote,
                                      rows, first, count, health);
    };
    const int nz = static_cast<int>(grid.n[2]);
    if (terms.group == nullptr) return launch({nullptr, nullptr, nullptr, nullptr, 0}, TileRows::kAll, 0, nz);
    // A distributed field's planes more than K from a remote z face read none of the
    // neighbours' planes, and its tile rows that read no row beyond a remote y face none
    // of their rows: made while those travel (OPSPLIT_HALO_OVERLAP=0: after). Where no z
    // face is remote, the inner tile rows under the y swap (no remote cell read: the
    // one-process kernel), then the tile rows at the y faces; else every tile row of the
    // inner planes under the z swap (the y swap first, whole: swap_remote_planes), then
    // the K planes next to each remote z face.
    const bool remote_y = in.faces_host[2].type == kRemote || in.faces_host[3].type == kRemote;
    const int low = in.faces_host[4].type == kRemote ? K : 0, high = in.faces_host[5].type == kRemote ? K : 0;
    const bool overlap = halo_overlap_allowed() && nz > low + high;
    const int inner = nz - low - high;
    const RemotePlanes<T> remote = swap_remote_planes(
        ctx, terms, in.data, grid, in.faces_host, K, scratch + source_index_values(grid, terms),
        [&] {  // (no z face remote)
          if (overlap) launch({nullptr, nullptr, nullptr, nullptr, 0}, TileRows::kInside, 0, nz);
        },
        [&](RemotePlanes<T> rows) {
          if (!overlap) return;
          if (!remote_y || low > 0 || high > 0) return launch(rows, TileRows::kAll, low, inner);
          launch(rows, TileRows::kAtLow, 0, nz);
          launch(rows, TileRows::kAtHigh, 0, nz);
        });
    if (!overlap) return launch(remote, TileRows::kAll, 0, nz);
    launch(remote, TileRows::kAll, 0, low);
    launch(remote, TileRows::kAll, nz - high, high);
  });
  return 0;
}

// ---- layouts and sums -----------------------------------------------------------
template <class T>
__global__ void pack_kernel(const T* data, Grid grid, T* host_layout, int layout) {
  const int64_t h = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (h >= grid.cells() * grid.ncomp) return;
  int c;
  int64_t i, j, k;
  host_position(grid, layout, h, &c, &i, &j, &k);
  host_layout[h] = data[grid.index(c, i, j, k)];
}

template <class T>
__global__ void unpack_kernel(const T* host_layout, Grid grid, T* data, int layout) {
  const int64_t h = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (h >= grid.cells() * grid.ncomp) return;
  int c;
  int64_t i, j, k;
  host_position(grid, layout, h, &c, &i, &j, &k);
  data[grid.index(c, i, j, k)] = host_layout[h];
}

template <class T>
void pack(const Context& ctx, const T* data, const Grid& grid, T* host_layout, int layout) {
  pack_kernel<<<blocks_for(grid.cells() * grid.ncomp, 256), 256, 0, stream_of(ctx)>>>(data, grid, host_layout, layout);
  cuda::check_launch("pack_kernel");
}

template <class T>
void unpack(const Context& ctx, const T* host_layout, const Grid& grid, T* data, int layout) {
  unpack_kernel<<<blocks_for(grid.cells() * grid.ncomp, 256), 256, 0, stream_of(ctx)>>>(host_layout, grid, data,
                                                                                      layout);
  cuda::check_launch("unpack_kernel");
}

template <class T>
__global__ void row_sums_kernel(const T* data, Grid grid, int comp, double* sums) {
  const int64_t row = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (row < grid.n[1] * grid.n[2]) sums[row] = row_sum(data, grid, comp, row);
}

template <class T>
__global__ void row_extremes_kernel(const T* data, Grid grid, int comp, double* out) {
  const int64_t row = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (row < grid.n[1] * grid.n[2]) row_extremes(data, grid, comp, row, &out[2 * row], &out[2 * row + 1]);
}

template <int Points, class T>
__global__ void row_energy_kernel(const T* data, Grid grid, int comp, PotentialTerms<double> terms, double volume,
                                  double* sums) {
  const int64_t row = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (row < grid.n[1] * grid.n[2]) sums[row] = row_energy<Points>(data, grid, comp, row, terms, volume);
}

// Runs `launch(device_results)` for `per_row` doubles per row and brings them back.
template <class Launch>
std::vector<double> per_row(const Context& ctx, const Grid& grid, int per_row, Launch&& launch) {
  const int64_t rows = grid.n[1] * grid.n[2];
  std::vector<double> out(static_cast<size_t>(rows * per_row));
  Buffer device(const_cast<Context&>(ctx), out.size() * sizeof(double));
  launch(blocks_for(rows, 128), device.as<double>());
  cuda::check_launch("a row reduction kernel");
  ctx.device().copy_to_host(out.data(), device.data(), device.bytes());
  return out;
}

template <class T>
std::vector<double> row_sums(const Context& ctx, const T* data, const Grid& grid, int comp) {
  return per_row(ctx, grid, 1, [&](unsigned blocks, double* out) {
    row_sums_kernel<<<blocks, 128, 0, stream_of(ctx)>>>(data, grid, comp, out);
  });
}

template <class T>
std::vector<double> row_extremes(const Context& ctx, const T* data, const Grid& grid, int comp) {
  return per_row(ctx, grid, 2, [&](unsigned blocks, double* out) {
    row_extremes_kernel<<<blocks, 128, 0, stream_of(ctx)>>>(data, grid, comp, out);
  });
}

template <class T>
std::vector<double> row_energy(const Context& ctx, const T* data, const Grid& grid, int comp, int points,
                               const PotentialTerms<double>& terms, double volume) {
  return per_row(ctx, grid, 1, [&](unsigned blocks, double* out) {
    auto kernel = points == 19 ? row_energy_kernel<19, T> : row_energy_kernel<7, T>;
    kernel<<<blocks, 128, 0, stream_of(ctx)>>>(data, grid, comp, terms, volume, out);
  });
}

// ---- a distributed field's ghost exchange: face slabs (halo.cuh) -----------------------
template <class T>
__global__ void pack_face_kernel(const T* data, Grid grid, FaceSlab s, int64_t layer, T* slab) {
  const int64_t e = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (e < s.values(grid.ncomp)) slab[e] = data[slab_index(grid, s, layer, e)];
}

template <class T>
__global__ void unpack_face_kernel(const T* slab, Grid grid, FaceSlab s, int64_t layer, T* data) {
  const int64_t e = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (e < s.values(grid.ncomp)) data[slab_index(grid, s, layer, e)] = slab[e];
}

template <class T>
void pack_face(const Context& ctx, const T* data, const Grid& grid, int axis, int side, T* slab) {
  const FaceSlab s = face_slab(grid, axis);
  pack_face_kernel<<<blocks_for(s.values(grid.ncomp), 256), 256, 0, stream_of(ctx)>>>(
      data, grid, s, sent_layer(grid, axis, side), slab);
  cuda::check_launch("pack_face_kernel");
}

template <class T>
void unpack_face(const Context& ctx, const T* slab, const Grid& grid, int axis, int side, T* data) {
  const FaceSlab s = face_slab(grid, axis);
  unpack_face_kernel<<<blocks_for(s.values(grid.ncomp), 256), 256, 0, stream_of(ctx)>>>(
      slab, grid, s, ghost_layer(grid, axis, side), data);
  cuda::check_launch("unpack_face_kernel");
}

// The table of this value type's launchers (launch.hpp).
template <class T>
const Launchers<T>& cuda_table() {
  static const Launchers<T> table{fill_ghosts<T>, ghosts_read<T>, diffuse<T>,      update<T>,     add_sources<T>,
                                  pack<T>,        unpack<T>,      row_sums<T>,     row_extremes<T>, row_energy<T>,
                                  pack_face<T>,   unpack_face<T>,  potential<T>,    steps_pass<T>,
                                  max_steps_per_pass<T>, steps_scratch_values<T>};
  return table;
}

}  // namespace
}  // namespace opsplit::field
