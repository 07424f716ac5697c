#include "ca/ca.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "ca/life.hpp"
#include "ca/life_cuda.hpp"

using namespace opsplit;

namespace {

constexpr int64_t kMaxCells = int64_t(1) << 40;

void check_order(int order) {
  if (order != OPSPLIT_CA_ROW_MAJOR && order != OPSPLIT_CA_COLUMN_MAJOR)
    fail_argument("order=" + num(order) + " is not OPSPLIT_CA_ROW_MAJOR (0) or OPSPLIT_CA_COLUMN_MAJOR (1)");
}

}  // namespace

opsplit_ca_s::opsplit_ca_s(Context& ctx, int model, int64_t rows, int64_t cols)
    : ContextMember(ctx), rows_(rows), cols_(cols), nwords_(0) {
  if (model != OPSPLIT_CA_LIFE) fail_argument("model=" + num(model) + " is not OPSPLIT_CA_LIFE (0)");
  if (rows < 1 || cols < 1) fail_argument("rows=" + num(rows) + ", cols=" + num(cols) + ": each must be >= 1");
  if (rows > kMaxCells / cols)
    fail_argument("rows x cols = " + num(rows) + " x " + num(cols) + " is more than 2^40 cells");
  nwords_ = ca::words_per_row(cols);  // cols <= 2^40 here: no overflow
  cells_ = Buffer(ctx, word_count() * sizeof(uint64_t));
  next_ = Buffer(ctx, word_count() * sizeof(uint64_t));
  if (ctx.is_cuda()) count_ = Buffer(ctx, sizeof(unsigned long long));
}

void opsplit_ca_s::set_boundary(int boundary) {
  if (boundary != OPSPLIT_CA_CLOSED && boundary != OPSPLIT_CA_PERIODIC)
    fail_argument("boundary=" + num(boundary) + " is not OPSPLIT_CA_CLOSED (0) or OPSPLIT_CA_PERIODIC (1)");
  periodic_ = boundary == OPSPLIT_CA_PERIODIC;
}

void opsplit_ca_s::set_rule(const char* rule) {
  if (rule == nullptr) fail_argument("rule is NULL");
  rule_ = ca::parse_life_rule(rule);
}

void opsplit_ca_s::upload(const uint64_t* words) {
  if (context().is_cuda())
    context().device().copy_to_device(cells_.data(), words, word_count() * sizeof(uint64_t));
  else
    std::memcpy(cells_.data(), words, word_count() * sizeof(uint64_t));
}

void opsplit_ca_s::download(uint64_t* words) const {
  if (context().is_cuda())
    context().device().copy_to_host(words, cells_.data(), word_count() * sizeof(uint64_t));
  else
    std::memcpy(words, cells_.data(), word_count() * sizeof(uint64_t));
}

void opsplit_ca_s::set_cells(const uint8_t* cells, int order) {
  check_order(order);
  if (cells == nullptr) fail_argument("cells is NULL");
  std::vector<uint64_t> words(word_count());
  ca::pack_cells(cells, rows_, cols_, order == OPSPLIT_CA_COLUMN_MAJOR, words.data());
  upload(words.data());
}

void opsplit_ca_s::get_cells(uint8_t* cells, int order) const {
  check_order(order);
  if (cells == nullptr) fail_argument("cells is NULL");
  std::vector<uint64_t> words(word_count());
  download(words.data());
  ca::unpack_cells(words.data(), rows_, cols_, order == OPSPLIT_CA_COLUMN_MAJOR, cells);
}

void opsplit_ca_s::place_rle(const char* rle, int64_t row, int64_t col) {
  if (rle == nullptr) fail_argument("rle is NULL");
  if (row < 0 || row >= rows_ || col < 0 || col >= cols_)
    fail_argument("(row, col) = (" + num(row) + ", " + num(col) + ") is outside the " + num(rows_) + " x " +
                  num(cols_) + " grid");
  const ca::RlePattern p = ca::parse_rle(rle, cols_, rows_);
  if (!p.rule.empty()) {
    const ca::LifeRule r = ca::parse_life_rule(p.rule);
    if (r.birth != rule_.birth || r.survive != rule_.survive)
      fail_argument("the pattern's rule " + ca::life_rule_string(r) + " is not the grid's " +
                    ca::life_rule_string(rule_) + " (opsplit_ca_set_rule first)");
  }
  if (!periodic_ && (row + p.height > rows_ || col + p.width > cols_))
    fail_argument("the pattern's " + num(p.width) + " x " + num(p.height) + " box at (" + num(row) + ", " + num(col) +
                  ") does not fit the " + num(rows_) + " x " + num(cols_) + (periodic_ ? " torus" : " closed grid"));
  std::vector<uint64_t> words(word_count());
  download(words.data());
  for (int64_t r = 0; r < p.height; ++r)  // the box's cells dead, then its live ones
    for (int64_t c = 0; c < p.width; ++c) {
      const int64_t rr = (row + r) % rows_, cc = (col + c) % cols_;
      words[static_cast<size_t>(rr * nwords_ + cc / ca::kBitsPerWord)] &= ~(uint64_t(1) << (cc % ca::kBitsPerWord));
    }
  for (const auto& [r, c] : p.live) {
    const int64_t rr = (row + r) % rows_, cc = (col + c) % cols_;
    words[static_cast<size_t>(rr * nwords_ + cc / ca::kBitsPerWord)] |= uint64_t(1) << (cc % ca::kBitsPerWord);
  }
  upload(words.data());
}

void opsplit_ca_s::step(int64_t nsteps) {
  if (nsteps < 0) fail_argument("nsteps=" + num(nsteps) + " is negative");
  if (nsteps > INT64_MAX - steps_)
    fail_argument("nsteps=" + num(nsteps) + " would take the generation count past 2^63 - 1 (it is " + num(steps_) +
                  ")");
  Context& ctx = context();
  const int64_t start = steps_;
  // With a progress callback: a report after each twentieth of the generations.
  const int64_t report_every = ctx.has_progress() ? std::max<int64_t>(1, nsteps / 20 + (nsteps % 20 != 0)) : nsteps;
  for (int64_t done = 0; done < nsteps;) {
    const int64_t chunk = std::min(report_every, nsteps - done);
    for (int64_t g = 0; g < chunk; ++g) {
      const auto* in = cells_.as<const uint64_t>();
      auto* out = next_.as<uint64_t>();
      try {
        if (ctx.is_cuda())
          ca::life_generation_cuda(ctx, in, out, rows_, cols_, rule_, periodic_);
        else
          ca::life_generation_cpu(in, out, rows_, cols_, rule_, periodic_, ctx.threads());
      } catch (const Error& e) {  // a launch refused: the grid holds the last generation
        fail(e.status(), std::string(e.what()) + "; the grid is at generation " + num(steps_));
      }
      cells_.swap(next_);
      ++steps_;
    }
    done += chunk;
    if (ctx.has_progress()) {
      synchronize_generations(start);
      const bool cancel = ctx.report_progress(static_cast<double>(done) / static_cast<double>(nsteps), "opsplit_ca_step");
      if (cancel && done < nsteps)
        fail(OPSPLIT_ERROR_CANCELLED, "cancelled by the progress callback after " + num(done) + " of " + num(nsteps) +
                                          " generations; the grid is at generation " + num(steps_));
    }
  }
  synchronize_generations(start);
}

// Waits for the generations launched since generation `start`. A device failure found
// here may have struck any of them: the cells are then undefined, and the message says
// so (the generation count is put back to `start`).
void opsplit_ca_s::synchronize_generations(int64_t start) {
  if (!context().is_cuda()) return;
  try {
    context().device().synchronize();
  } catch (const Error& e) {
    const int64_t reached = steps_;
    steps_ = start;
    fail(e.status(), std::string(e.what()) + "; a generation between " + num(start) + " and " + num(reached) +
                         " failed on the device: the grid's cells are undefined until set_cells");
  }
}

int64_t opsplit_ca_s::population() const {
  if (context().is_cuda())
    return ca::live_cells_cuda(context(), cells_.as<const uint64_t>(), static_cast<int64_t>(word_count()),
                               count_.as<unsigned long long>());
  return ca::live_cells(cells_.as<const uint64_t>(), static_cast<int64_t>(word_count()));
}
