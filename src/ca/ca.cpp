#include "core/device_array.hpp"
#include "ca/ca.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "ca/life.hpp"
#include "ca/life_launch.hpp"
#include "core/hash.hpp"
#include "core/progress.hpp"
#include "core/text_file.hpp"

using namespace opsplit;

namespace {

constexpr int64_t kMaxCells = int64_t(1) << 40;
// A lava kernel's grid has up to 65535 blocks of 8 rows; 2^31 cells take 240 GB.
constexpr int64_t kMaxLavaSide = 500000, kMaxLavaCells = int64_t(1) << 31;

void check_order(int order) {
  if (order != OPSPLIT_CA_ROW_MAJOR && order != OPSPLIT_CA_COLUMN_MAJOR)
    fail_argument("order=" + num(order) + " is not OPSPLIT_CA_ROW_MAJOR (0) or OPSPLIT_CA_COLUMN_MAJOR (1)");
}

}  // namespace

opsplit_ca_s::opsplit_ca_s(Context& ctx, int model, int64_t rows, int64_t cols)
    : ContextMember(ctx), model_(model), rows_(rows), cols_(cols), nwords_(0) {
  if (model != OPSPLIT_CA_LIFE && model != OPSPLIT_CA_SCIARA_FV2 && model != OPSPLIT_CA_SCIARA_FV3)
    fail_argument("model=" + num(model) +
                  " is not OPSPLIT_CA_LIFE (0), OPSPLIT_CA_SCIARA_FV2 (1) or OPSPLIT_CA_SCIARA_FV3 (2)");
  if (rows < 1 || cols < 1) fail_argument("rows=" + num(rows) + ", cols=" + num(cols) + ": each must be >= 1");
  if (rows > kMaxCells / cols)
    fail_argument("rows x cols = " + num(rows) + " x " + num(cols) + " is more than 2^40 cells");
  if (model != OPSPLIT_CA_LIFE) {
    if (rows < 3 || cols < 3 || rows > kMaxLavaSide || cols > kMaxLavaSide || rows * cols > kMaxLavaCells)
      fail_argument("rows=" + num(rows) + ", cols=" + num(cols) +
                    ": a lava grid has 3 to 500000 rows and columns (its outer ring is the sink) and at most 2^31 cells");
    lava_ = std::make_unique<ca::LavaGrid>(ctx, rows, cols, model == OPSPLIT_CA_SCIARA_FV3);
    return;
  }
  nwords_ = ca::words_per_row(cols);  // cols <= 2^40 here: no overflow
  cells_ = Buffer(ctx, word_count() * sizeof(uint64_t));
  next_ = Buffer(ctx, word_count() * sizeof(uint64_t));
  count_ = Buffer(ctx, sizeof(unsigned long long));
}

void opsplit_ca_s::require_life(const char* call) const {
  if (model_ != OPSPLIT_CA_LIFE)
    fail_argument(std::string(call) + " is for LIFE grids; a lava grid's state is in named substates "
                  "(opsplit_ca_set_substate, opsplit_ca_get_substate)");
}

ca::LavaGrid& opsplit_ca_s::lava(const char* call) {
  if (!lava_) fail_argument(std::string(call) + " is for the lava-flow models (SCIARA_FV2, SCIARA_FV3); this grid is LIFE");
  return *lava_;
}

const ca::LavaGrid& opsplit_ca_s::lava(const char* call) const {
  return const_cast<opsplit_ca_s*>(this)->lava(call);
}

void opsplit_ca_s::set_boundary(int boundary) {
  if (boundary != OPSPLIT_CA_CLOSED && boundary != OPSPLIT_CA_PERIODIC)
    fail_argument("boundary=" + num(boundary) + " is not OPSPLIT_CA_CLOSED (0) or OPSPLIT_CA_PERIODIC (1)");
  if (lava_ && boundary != OPSPLIT_CA_CLOSED)
    fail(OPSPLIT_ERROR_UNSUPPORTED, "a lava grid is CLOSED (its outer ring the sink where lava leaves, counted as lost)");
  periodic_ = boundary == OPSPLIT_CA_PERIODIC;
}

void opsplit_ca_s::set_rule(const char* rule) {
  require_life("opsplit_ca_set_rule");
  if (rule == nullptr) fail_argument("rule is NULL");
  rule_ = ca::parse_life_rule(rule);
}

size_t opsplit_ca_s::stored_words() const {
  if (!life_blocks_) return word_count();
  const ca::LifeBlock& b = life_blocks_->block;
  return static_cast<size_t>((b.rows + b.ghost[0] + b.ghost[1]) * b.stride);
}

int64_t opsplit_ca_s::first_word(int64_t r) const { return life_blocks_ ? life_blocks_->block.at(r, 0) : r * nwords_; }
int64_t opsplit_ca_s::row_stride() const { return life_blocks_ ? life_blocks_->block.stride : nwords_; }

// A block's words go into its storage beside ghosts of 0 (each generation brings them
// from the neighbours first).
void opsplit_ca_s::upload(const uint64_t* words) {
  std::vector<uint64_t> stored;
  if (life_blocks_) {
    stored.assign(stored_words(), 0);
    for (int64_t r = 0; r < rows_; ++r) std::copy_n(words + r * nwords_, nwords_, &stored[static_cast<size_t>(first_word(r))]);
    words = stored.data();
  }
  cells_.copy_in(words, stored_words() * sizeof(uint64_t));
}

void opsplit_ca_s::download(uint64_t* words) const {
  std::vector<uint64_t> stored(life_blocks_ ? stored_words() : 0);
  uint64_t* to = life_blocks_ ? stored.data() : words;
  cells_.copy_out(to, stored_words() * sizeof(uint64_t));
  if (life_blocks_)
    for (int64_t r = 0; r < rows_; ++r)
      std::copy_n(&stored[static_cast<size_t>(first_word(r))], nwords_, words + r * nwords_);
}

void opsplit_ca_s::set_cells(const uint8_t* cells, int order) {
  require_life("opsplit_ca_set_cells");
  check_order(order);
  if (cells == nullptr) fail_argument("cells is NULL");
  check_host_array(context(), cells, "cells");  // before the CPU packs it
  std::vector<uint64_t> words(word_count());
  ca::pack_cells(cells, rows_, cols_, order == OPSPLIT_CA_COLUMN_MAJOR, words.data());
  upload(words.data());
}

void opsplit_ca_s::get_cells(uint8_t* cells, int order) const {
  require_life("opsplit_ca_get_cells");
  check_order(order);
  if (cells == nullptr) fail_argument("cells is NULL");
  check_host_array(context(), cells, "cells");  // before the CPU packs it
  std::vector<uint64_t> words(word_count());
  download(words.data());
  ca::unpack_cells(words.data(), rows_, cols_, order == OPSPLIT_CA_COLUMN_MAJOR, cells);
}

void opsplit_ca_s::set_cells_device(const uint8_t* cells, int order) {
  require_cuda_context(context(), "opsplit_ca_set_cells");
  require_life("opsplit_ca_set_cells_device");
  check_order(order);
  check_device_array(context(), cells, cell_bytes(), 1, "cells", "opsplit_ca_set_cells");
  if (life_blocks_) cells_.zero();  // ghosts of 0, as upload leaves them
  ca::life_launchers(context()).pack_cells(context(), cells, rows_, cols_, order == OPSPLIT_CA_COLUMN_MAJOR,
                                           cells_.as<uint64_t>(), first_word(0), row_stride());
}

void opsplit_ca_s::get_cells_device(uint8_t* cells, int order) const {
  require_cuda_context(context(), "opsplit_ca_get_cells");
  require_life("opsplit_ca_get_cells_device");
  check_order(order);
  check_device_array(context(), cells, cell_bytes(), 1, "cells", "opsplit_ca_get_cells");
  ca::life_launchers(context()).unpack_cells(context(), cells_.as<const uint64_t>(), first_word(0), row_stride(), rows_, cols_,
                                             order == OPSPLIT_CA_COLUMN_MAJOR, cells);
}

void opsplit_ca_s::place_rle(const char* rle, int64_t row, int64_t col) {
  place_rle_text(attempt([&] {
                   require_life("opsplit_ca_place_rle");
                   if (rle == nullptr) fail_argument("rle is NULL");
                 }),
                 rle == nullptr ? std::string() : std::string(rle), row, col, "opsplit_ca_place_rle", nullptr);
}

void opsplit_ca_s::load_rle(const char* path, int64_t row, int64_t col) {
  std::string text;
  const std::exception_ptr read = attempt([&] {
    require_life("opsplit_ca_load_rle");
    if (path == nullptr) fail_argument("path is NULL");
    text = read_text_file(path);
  });
  place_rle_text(read, text, row, col, "opsplit_ca_load_rle", path);
}

// The pattern `text` at (row, col) of the whole grid, its box's cells dead and then its
// live ones; failed: what reading it did. Distributed: collective, every process places
// the cells of its block. A parse error names `path` where the text came from a file.
void opsplit_ca_s::place_rle_text(std::exception_ptr failed, const std::string& text, int64_t row, int64_t col,
                                  const char* call, const char* path) {
  int64_t place[4];
  get_place(place);
  const int64_t global_rows = place[2], global_cols = place[3];
  ca::RlePattern p;
  Fnv1a hash;
  for (char ch : text) hash.add(static_cast<unsigned char>(ch));
  settle(failed ? failed : attempt([&] {
    require_life(call);
    if (row < 0 || row >= global_rows || col < 0 || col >= global_cols)
      fail_argument("(row, col) = (" + num(row) + ", " + num(col) + ") is outside the " + num(global_rows) + " x " +
                    num(global_cols) + " grid");
    try {
      p = ca::parse_rle(text, global_cols, global_rows);
    } catch (const Error& e) {
      if (e.status() != OPSPLIT_ERROR_PARSE || path == nullptr) throw;
      fail(OPSPLIT_ERROR_PARSE, std::string(path) + ": " + e.what());
    }
    if (!p.rule.empty()) {
      const ca::LifeRule r = ca::parse_life_rule(p.rule);
      if (r.birth != rule_.birth || r.survive != rule_.survive)
        fail_argument("the pattern's rule " + ca::life_rule_string(r) + " is not the grid's " +
                      ca::life_rule_string(rule_) + " (opsplit_ca_set_rule first)");
    }
    if (!periodic_ && (row + p.height > global_rows || col + p.width > global_cols))
      fail_argument("the pattern's " + num(p.width) + " x " + num(p.height) + " box at (" + num(row) + ", " +
                    num(col) + ") does not fit the " + num(global_rows) + " x " + num(global_cols) + " closed grid");
  }),
         call, {row, col, static_cast<int64_t>(hash.value)}, "patterns or places");
  std::vector<uint64_t> words(word_count());
  download(words.data());
  // A cell of the whole grid (wrapped on a torus) to this block's word and bit, if here.
  auto set = [&](int64_t r, int64_t c, bool live) {
    const int64_t rr = (row + r) % global_rows - place[0], cc = (col + c) % global_cols - place[1];
    if (rr < 0 || rr >= rows_ || cc < 0 || cc >= cols_) return;
    uint64_t& word = words[static_cast<size_t>(rr * nwords_ + cc / ca::kBitsPerWord)];
    const uint64_t bit = uint64_t(1) << (cc % ca::kBitsPerWord);
    word = live ? word | bit : word & ~bit;
  };
  for (int64_t r = 0; r < p.height; ++r)
    for (int64_t c = 0; c < p.width; ++c) set(r, c, false);
  for (const auto& [r, c] : p.live) set(r, c, true);
  upload(words.data());
}

void opsplit_ca_s::step(int64_t nsteps, const char* call) {
  std::vector<int64_t> same = step_agreement();
  same.push_back(nsteps);
  settle(attempt([&] {
           if (nsteps < 0) fail_argument("nsteps=" + num(nsteps) + " is negative");
           if (nsteps > INT64_MAX - steps_)
             fail_argument("nsteps=" + num(nsteps) + " would take the generation count past 2^63 - 1 (it is " +
                           num(steps_) + ")");
           for (int a = 0; life_blocks_ && a < 2; ++a)
             if (life_blocks_->split[a] && life_blocks_->wraps[a] != periodic_)
               fail_argument(std::string("the grid is ") + (periodic_ ? "PERIODIC" : "CLOSED") +
                             " but its communicator " + (periodic_ ? "does not wrap" : "wraps") +
                             " along dimension " + num(a) + ", which it splits (boundary and communicator must agree)");
         }),
         call, same, "step counts, times, parameters, vents, rules, boundaries or nsteps");
  const std::string unit = lava_ ? "step" : "generation";
  Context& ctx = context();
  const int64_t start = steps_;
  const double start_time = lava_ ? lava_->time() : 0.0;
  // With a progress callback (on any process, when distributed): a report after each
  // twentieth of the generations.
  const Progress progress(ctx, group(), call);
  auto work = [&](int64_t begin, int64_t end) {
    if (lava_)  // the lava grid launches several steps at once
      advance_lava(end - begin, HUGE_VAL);
    else
      advance_life(end - begin);
    return end;
  };
  progress.run(
      nsteps, 20, work, [&](int64_t) { synchronize_generations(start, start_time); },
      [&](int64_t done) {
        return "after " + num(done) + " of " + num(nsteps) + " " + unit + "s; the grid is at " + unit + " " + num(steps_);
      });
  synchronize_generations(start, start_time);
}

// n generations of the LIFE grid: several a pass where the backend can
// (LifeLaunchers); a block, one around the ghosts' exchange.
void opsplit_ca_s::advance_life(int64_t n) {
  Context& ctx = context();
  try {
    const ca::LifeLaunchers& run = ca::life_launchers(ctx);
    const int per_pass = life_blocks_ ? 1 : run.generations_per_pass(rows_, cols_);
    if (life_blocks_) {  // a dimension not split wraps within the block on a torus
      life_blocks_->block.wrap_rows = periodic_ && !life_blocks_->split[0];
      life_blocks_->block.wrap_cols = periodic_ && !life_blocks_->split[1];
    }
    for (int64_t g = 0; g < n;) {
      const int m = static_cast<int>(std::min<int64_t>(per_pass, n - g));
      const uint64_t* in = cells_.as<const uint64_t>();
      uint64_t* out = next_.as<uint64_t>();
      if (life_blocks_)
        life_block_generation(in, out);
      else
        run.generations(ctx, in, out, rows_, cols_, rule_, periodic_, m);
      cells_.swap(next_);
      steps_ += m, g += m;
    }
  } catch (const Error& e) {  // refused before any work: the grid holds the last generation
    fail(e.status(), std::string(e.what()) + "; the grid is at generation " + num(steps_));
  }
}

// Waits for the generations launched since generation `start`. A device failure found
// here may have struck any of them: the cells are then undefined, and the message says
// so (the generation count is put back to `start`).
void opsplit_ca_s::synchronize_generations(int64_t start, double start_time) {
  try {  // nothing to wait for on the CPU
    if (lava_)
      lava_->synchronize();
    else
      context().synchronize();
  } catch (const Error& e) {
    if (lava_ && lava_->fv3()) fail_fv3_device(e);
    const int64_t reached = steps_;
    steps_ = start;
    if (lava_) lava_->set_steps(start, start_time);
    fail(e.status(), std::string(e.what()) + "; a step between " + num(start) + " and " + num(reached) +
                         " failed on the device: the grid's " + (lava_ ? "substates" : "cells") +
                         " are undefined until set again");
  }
}

void opsplit_ca_s::run_until(double t_sim) {
  ca::LavaGrid& g = lava("opsplit_ca_run_until");
  std::vector<int64_t> same = step_agreement();
  same.push_back(bits_of(t_sim));
  settle(attempt([&] {
           if (!std::isfinite(t_sim)) fail_argument("t_sim=" + num(t_sim) + " is not finite");
         }),
         "opsplit_ca_run_until", same, "step counts, times, parameters, vents or t_sim");
  if (g.fv3()) return run_until_fv3(t_sim);
  int64_t n = 0;
  if (t_sim > g.time()) {
    const double clock = g.get_parameter("Pclock");
    const double whole = std::ceil((t_sim - g.time()) / clock);
    if (!(whole < 9.0e18 - static_cast<double>(steps_))) fail_argument("t_sim=" + num(t_sim) + " is too many steps away");
    n = static_cast<int64_t>(whole);
    while (n > 0 && g.time_at(steps_ + n - 1) >= t_sim) --n;  // the first step count whose time reaches t_sim
    while (g.time_at(steps_ + n) < t_sim) ++n;
  }
  step(n, "opsplit_ca_run_until");
}

// fv3's clock varies: steps until the time is t_sim, the last one cut to end there. With
// a progress callback, a report after each kFv3ProgressSteps steps (the steps are the
// same with or without one: only t_sim cuts a step).
void opsplit_ca_s::run_until_fv3(double t_sim) {
  constexpr int64_t kFv3ProgressSteps = 4096;
  ca::LavaGrid& g = *lava_;
  Context& ctx = context();
  const double start_time = g.time();
  if (t_sim > start_time &&
      !((t_sim - start_time) / (g.get_parameter("Pr") * g.get_parameter("Ptmax")) < 9.0e18 - static_cast<double>(steps_)))
    fail_argument("t_sim=" + num(t_sim) + " is too many steps away (each at most Pr x Ptmax seconds)");
  const Progress progress(ctx, group(), "opsplit_ca_run_until");
  const int64_t chunk = progress.active() ? kFv3ProgressSteps : INT64_MAX - steps_;
  while (g.time() < t_sim) {
    advance_lava(chunk, t_sim);
    progress.report((g.time() - start_time) / (t_sim - start_time), g.time() < t_sim, [&] {
      return "at time " + num(g.time()) + " s of " + num(t_sim) + "; the grid is at step " + num(steps_);
    });
  }
}

// Up to n steps of the lava grid (fv3: until the time `until`). A refusal before a step,
// or fv3's clock stalling after one, names the step the grid holds; a device failure
// found when fv3 waits for its steps says its substates are undefined.
void opsplit_ca_s::advance_lava(int64_t n, double until) {
  try {
    lava_->advance(n, until);
  } catch (const Error& e) {
    if (lava_->fv3() && ca::device_failure(e)) fail_fv3_device(e);
    steps_ = lava_->steps();
    fail(e.status(), std::string(e.what()) + "; the grid is at step " + num(steps_));
  }
  steps_ = lava_->steps();
}

// fv3 on CUDA waits for its steps in each call: a device failure may have struck any step
// since the last wait. The grid keeps the counts of that wait (its substates undefined).
void opsplit_ca_s::fail_fv3_device(const Error& e) {
  lava_->after_device_failure();
  steps_ = lava_->steps();
  fail(e.status(), std::string(e.what()) + "; a step after step " + num(steps_) +
                       " failed on the device: the grid's substates are undefined until set again");
}

int64_t opsplit_ca_s::population() const {
  require_life("opsplit_ca_get_population");
  if (life_blocks_) {  // the blocks' counts (their ghosts left out), added
    std::vector<uint64_t> words(word_count());
    download(words.data());
    const int64_t mine = ca::live_cells(words.data(), static_cast<int64_t>(words.size()));
    const Group& group = life_blocks_->group;
    std::vector<int64_t> all(static_cast<size_t>(group.size()));
    group.allgather(&mine, std::vector<int64_t>(all.size(), 1), all.data());
    int64_t sum = 0;
    for (int64_t n : all) sum += n;
    return sum;
  }
  return ca::life_launchers(context()).live_cells(context(), cells_.as<const uint64_t>(),
                                                  static_cast<int64_t>(word_count()), count_.as<unsigned long long>());
}
