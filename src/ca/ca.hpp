// A CA grid: rows x cols cells on the context's backend. LIFE keeps bit-packed rows
// (kernels/ca/life.cuh) in two buffers, a generation reading one and writing the other;
// SCIARA_FV2 and SCIARA_FV3 keep their substates in a LavaGrid (src/ca/sciara.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <exception>
#include <string>
#include <vector>

#include "ca/life.cuh"
#include "ca/sciara.hpp"
#include "core/buffer.hpp"
#include "core/context.hpp"
#include "core/handle.hpp"
#include "core/slab_exchange.hpp"
#include "opsplit/ca.h"

struct opsplit_ca_s : opsplit::Handle<opsplit::HandleKind::ca>, opsplit::ContextMember {
  opsplit_ca_s(opsplit::Context& ctx, int model, int64_t rows, int64_t cols);

  int64_t rows() const { return rows_; }
  int64_t cols() const { return cols_; }
  int64_t steps() const { return steps_; }
  int model() const { return model_; }

  void set_boundary(int boundary);
  void set_rule(const char* rule);
  void set_cells(const uint8_t* cells, int order);
  void get_cells(uint8_t* cells, int order) const;
  // The same from and to a host's device array of byte cells (checked here).
  void set_cells_device(const uint8_t* cells, int order);
  void get_cells_device(uint8_t* cells, int order) const;
  size_t cell_bytes() const { return static_cast<size_t>(rows_) * static_cast<size_t>(cols_); }
  void place_rle(const char* rle, int64_t row, int64_t col);
  void load_rle(const char* path, int64_t row, int64_t col);
  void step(int64_t nsteps, const char* call = "opsplit_ca_step");
  int64_t population() const;

  // SCIARA models: their grid (INVALID_ARGUMENT on a LIFE grid, naming `call`).
  opsplit::ca::LavaGrid& lava(const char* call);
  const opsplit::ca::LavaGrid& lava(const char* call) const;
  // Steps until the time reaches t_sim (already there: none).
  void run_until(double t_sim);

  // Over processes (opsplit/group.h; src/ca/distributed.cpp). attach is collective,
  // and so, after it, are the calls that settle: every process calls them alike, and a
  // failure or a differing value (`same`) on one fails them on all. Alone: rethrows local.
  void attach(const opsplit_group& group, const opsplit_decomposition& d);
  bool distributed() const { return (lava_ && lava_->distributed()) || life_blocks_; }
  void settle(std::exception_ptr local, const char* call, const std::vector<int64_t>& same = {},
              const char* names = "") const;
  // first_row, first_col, global_rows, global_cols (alone: 0, 0, rows, cols).
  void get_place(int64_t place[4]) const;

 private:
  void require_life(const char* call) const;
  void place_rle_text(std::exception_ptr failed, const std::string& text, int64_t row, int64_t col, const char* call,
                      const char* path);
  // What a step needs alike on every process: the steps and time so far and, for lava,
  // its parameters and vents.
  std::vector<int64_t> step_agreement() const;
  void synchronize_generations(int64_t start, double start_time);
  void run_until_fv3(double t_sim);
  void advance_lava(int64_t n, double until);
  void advance_life(int64_t n);
  [[noreturn]] void fail_fv3_device(const opsplit::Error& e);
  // The grid's words (distributed: the block's, without its ghosts), row r at r * nwords_.
  void upload(const uint64_t* words);
  void download(uint64_t* words) const;
  size_t word_count() const { return static_cast<size_t>(rows_ * nwords_); }
  // Where row r's first word is stored, and the words from a row to the next: rows one
  // after another, or a block's rows between ghosts.
  int64_t first_word(int64_t r) const;
  int64_t row_stride() const;
  // The storage's words: the grid's, or a block's with its ghosts.
  size_t stored_words() const;
  // LIFE over processes (distributed.cpp): the attach's half that allocates, the
  // ghosts' exchange before a generation, the block's place of a pattern.
  struct LifeBlocks;
  std::unique_ptr<LifeBlocks> prepare_life(const bool remote[4], const bool wraps[2], int64_t first_row,
                                           int64_t first_col, int64_t global_rows, int64_t global_cols,
                                           bool device_pointers);
  // One generation of this process's block, its ghosts exchanged within (distributed.cpp).
  void life_block_generation(const uint64_t* in, uint64_t* out);
  // The group of a distributed grid (nullptr: alone).
  const opsplit::Group* group() const;

  int model_;
  int64_t rows_, cols_, nwords_;
  bool periodic_ = true;
  opsplit::ca::LifeRule rule_{1u << 3, 1u << 2 | 1u << 3};  // B3/S23
  int64_t steps_ = 0;
  opsplit::Buffer cells_, next_;  // bit-packed rows; cells_ holds the current generation
  opsplit::Buffer count_;         // the population's counter on the backend (CUDA's)
  std::unique_ptr<opsplit::ca::LavaGrid> lava_;
  std::unique_ptr<LifeBlocks> life_blocks_;  // LIFE over processes
};

// A LIFE grid's block of a grid decomposed over processes: the group, the storage's
// layout (a ghost row or word on each side where a neighbour lies), the block's place,
// whether the communicator wraps along each split dimension, and the exchange's slabs.
struct opsplit_ca_s::LifeBlocks {
  opsplit::Group group;
  opsplit::ca::LifeBlock block;
  bool wraps[2];  // rows, cols: a split dimension the communicator makes periodic
  bool split[2];
  int64_t row0, col0, global_rows, global_cols;
  opsplit::SlabExchange slabs;   // a line of words a side
  opsplit::Buffer cells, next;    // the new storage, until attach takes it
};
