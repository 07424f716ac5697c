// Life-like automata on bit-packed rows (kernels/ca/life.cuh, src/ca/life.cpp, the C
// API of include/opsplit/ca.h): every generation against a plain cell-by-cell reference
// for many rules, sizes and both boundaries; known patterns against their published
// behaviour (LifeWiki: the glider, the R-pentomino, diehard, the blinker, HighLife's
// replicator); rule strings and RLE, good and bad. Registered on both backends.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ca/life.hpp"
#include "core/error.hpp"
#include "helpers.hpp"

namespace {

using opsplit::ca::LifeRule;
using opsplit::ca::parse_life_rule;
using opsplit::ca::parse_rle;

// One generation cell by cell: neighbours at (r + dr, c + dc), wrapped on a torus
// (counted as often as they occur, as on a 1- or 2-wide torus) or dead outside.
std::vector<uint8_t> reference_step(const std::vector<uint8_t>& g, int64_t rows, int64_t cols, LifeRule rule,
                                    bool periodic) {
  std::vector<uint8_t> next(g.size());
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      int n = 0;
      for (int dr = -1; dr <= 1; ++dr)
        for (int dc = -1; dc <= 1; ++dc) {
          if (dr == 0 && dc == 0) continue;
          int64_t rr = r + dr, cc = c + dc;
          if (periodic) {
            rr = (rr + rows) % rows, cc = (cc + cols) % cols;
          } else if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) {
            continue;
          }
          n += g[static_cast<size_t>(rr * cols + cc)];
        }
      const bool alive = g[static_cast<size_t>(r * cols + c)] != 0;
      next[static_cast<size_t>(r * cols + c)] = ((alive ? rule.survive : rule.birth) >> n) & 1u;
    }
  return next;
}

// A pattern's live cells at (row0, col0) on an otherwise dead rows x cols torus.
std::vector<uint8_t> place(const std::string& rle, int64_t rows, int64_t cols, int64_t row0, int64_t col0) {
  std::vector<uint8_t> cells(static_cast<size_t>(rows * cols), 0);
  for (const auto& [r, c] : parse_rle(rle).live)
    cells[static_cast<size_t>(((row0 + r) % rows) * cols + (col0 + c) % cols)] = 1;
  return cells;
}

// A LIFE grid through the C API on the backend OPSPLIT_BACKEND names (each ctest
// registration sets it: the CUDA one runs every test here on the GPU).
struct Grid {
  test::Context ctx;
  opsplit_ca ca = nullptr;
  int64_t rows, cols;
  Grid(int64_t rows_, int64_t cols_, const char* rule = "B3/S23", bool periodic = true) : rows(rows_), cols(cols_) {
    EXPECT_EQ(opsplit_ca_create(ctx, OPSPLIT_CA_LIFE, rows, cols, &ca), OPSPLIT_SUCCESS) << opsplit_last_error_message();
    EXPECT_EQ(opsplit_ca_set_rule(ca, rule), OPSPLIT_SUCCESS) << opsplit_last_error_message();
    EXPECT_EQ(opsplit_ca_set_boundary(ca, periodic ? OPSPLIT_CA_PERIODIC : OPSPLIT_CA_CLOSED), OPSPLIT_SUCCESS);
  }
  ~Grid() { EXPECT_EQ(opsplit_ca_destroy(&ca), OPSPLIT_SUCCESS); }
  void set(const std::vector<uint8_t>& cells) {
    EXPECT_EQ(opsplit_ca_set_cells(ca, cells.data(), OPSPLIT_CA_ROW_MAJOR), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  }
  std::vector<uint8_t> cells() const {
    std::vector<uint8_t> c(static_cast<size_t>(rows * cols));
    EXPECT_EQ(opsplit_ca_get_cells(ca, c.data(), OPSPLIT_CA_ROW_MAJOR), OPSPLIT_SUCCESS) << opsplit_last_error_message();
    return c;
  }
  void step(int64_t n) { EXPECT_EQ(opsplit_ca_step(ca, n), OPSPLIT_SUCCESS) << opsplit_last_error_message(); }
  int64_t population() const {
    int64_t p = -1;
    EXPECT_EQ(opsplit_ca_get_population(ca, &p), OPSPLIT_SUCCESS) << opsplit_last_error_message();
    return p;
  }
};

// parse(text) throws opsplit::Error with `status` and a message containing `why`.
template <class Parse>
void expect_refused(Parse parse, const std::string& text, opsplit_status status, const std::string& why) {
  try {
    parse(text);
    ADD_FAILURE() << "accepted \"" << text << "\"";
  } catch (const opsplit::Error& e) {
    EXPECT_EQ(e.status(), status) << text;
    EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << text << ": " << e.what();
  }
}

const LifeRule kConway = {1u << 3, 1u << 2 | 1u << 3};

TEST(LifeRules, ParseEveryNotation) {
  for (const char* text : {"B3/S23", "b3/s23", "S23/B3", "23/3"}) {
    const LifeRule r = parse_life_rule(text);
    EXPECT_EQ(r.birth, kConway.birth) << text;
    EXPECT_EQ(r.survive, kConway.survive) << text;
  }
  EXPECT_EQ(opsplit::ca::life_rule_string(parse_life_rule("B36/S23")), "B36/S23");
  EXPECT_EQ(opsplit::ca::life_rule_string(parse_life_rule("34678/3678")), "B3678/S34678");  // Day & Night
  const LifeRule seeds = parse_life_rule("B2/S");
  EXPECT_EQ(seeds.birth, 1u << 2);
  EXPECT_EQ(seeds.survive, 0u);
}

TEST(LifeRules, RefuseWhatTheyCannotRun) {
  const std::pair<const char*, const char*> bad[] = {
      {"B3S23", "not of the form"},  {"B3/S23/", "not of the form"}, {"", "not of the form"},
      {"B9/S23", "digits 0-8"},      {"B3/S2a", "Hensel"},           {"B33/S23", "repeats the digit 3"},
      {"B0/S8", "B0"},               {"X3/S23", "one B part and one S part"},
      {"B3/B23", "one B part and one S part"}};
  for (const auto& [text, why] : bad) expect_refused(parse_life_rule, text, OPSPLIT_ERROR_INVALID_ARGUMENT, why);
}

TEST(LifeRle, ReadsHeaderCommentsAndRuns) {
  const auto p = parse_rle("#N Glider\n#C a comment\nx = 3, y = 3, rule = B3/S23\nbob$2bo$\n3o!\n");
  EXPECT_EQ(p.width, 3);
  EXPECT_EQ(p.height, 3);
  EXPECT_EQ(p.rule, "B3/S23");
  const std::vector<std::pair<int64_t, int64_t>> glider = {{0, 1}, {1, 2}, {2, 0}, {2, 1}, {2, 2}};
  EXPECT_EQ(p.live, glider);
  // Blank rows by a run count before '$' ("3$": the row ends and two blank ones follow),
  // no rule, CR LF line ends.
  // A run count split across lines, a comment line inside the runs, text after '!'.
  const auto split = parse_rle("x = 12, y = 2\n1\n#C inside\n2o$o!trailing text");
  EXPECT_EQ(split.live.size(), 13u);
  EXPECT_EQ(split.live.back(), (std::pair<int64_t, int64_t>{1, 0}));
  const auto q = parse_rle("x = 2, y = 4\r\no3$bo!\r\n");
  const std::vector<std::pair<int64_t, int64_t>> two = {{0, 0}, {3, 1}};
  EXPECT_EQ(q.live, two);
  EXPECT_EQ(q.rule, "");
}

TEST(LifeRle, NamesTheFault) {
  const std::pair<const char*, const char*> bad[] = {
      {"bo$2bo$3o!", "x = <width>"},
      {"y = 3, x = 3\nbo!", "must start with"},
      {"x = 3, y = 3, foo = 1\nbo!", "unknown header item \"foo\""},
      {"x = 3, y = q\nbo!", "is not a size"},
      {"x = 3, y = 3\nbo$2bA!", "line 2: 'A' is not a state"},
      {"x = 3, y = 3\n4o!", "past the header's 3 x 3 box"},
      {"x = 3, y = 1\nbo$o!", "past the header's"},
      {"x = 3, y = 3\nbo$2bo$3o", "does not end with '!'"}};
  for (const auto& [text, why] : bad)
    expect_refused([](const std::string& t) { return parse_rle(t); }, text, OPSPLIT_ERROR_PARSE, why);
}

// A random soup: each cell alive with probability 0.35.
std::vector<uint8_t> soup(int64_t rows, int64_t cols, std::mt19937_64& rng) {
  std::bernoulli_distribution alive(0.35);
  std::vector<uint8_t> cells(static_cast<size_t>(rows * cols));
  for (auto& c : cells) c = alive(rng) ? 1 : 0;
  return cells;
}

// Every generation of random soups equals the cell-by-cell reference, bit for bit: sizes
// around the 64-cell words (1, 63, 64, 65, 130 columns), 1- and 2-row tori, both
// boundaries, the named rules and random ones.
TEST(LifeGrid, EqualsTheCellByCellReference) {
  std::vector<LifeRule> rules = {kConway, parse_life_rule("B36/S23"), parse_life_rule("B2/S"),
                                 parse_life_rule("B3678/S34678"), parse_life_rule("B1/S012345678")};
  std::mt19937_64 rng(2026);
  for (int i = 0; i < 12; ++i) rules.push_back({static_cast<uint32_t>(rng() & 0x1fe), static_cast<uint32_t>(rng() & 0x1ff)});
  const std::pair<int64_t, int64_t> sizes[] = {{1, 1},   {1, 5},   {2, 3},   {3, 64},  {5, 65},  {7, 130},
                                                {17, 200}, {64, 63}, {9, 1},   {4, 128}, {2, 129}, {3, 2},
                                                {2, 2},   {1, 64},  {1, 65}};
  for (const LifeRule& rule : rules)
    for (const auto& [rows, cols] : sizes)
      for (bool periodic : {true, false}) {
        std::vector<uint8_t> cells = soup(rows, cols, rng);
        Grid grid(rows, cols, opsplit::ca::life_rule_string(rule).c_str(), periodic);
        grid.set(cells);
        for (int g = 0; g < 12; ++g) {
          cells = reference_step(cells, rows, cols, rule, periodic);
          grid.step(1);
          ASSERT_EQ(grid.cells(), cells) << opsplit::ca::life_rule_string(rule) << " " << rows << "x" << cols
                                         << (periodic ? " torus" : " closed") << " generation " << g + 1;
          int64_t alive_cells = 0;
          for (uint8_t c : cells) alive_cells += c;
          ASSERT_EQ(grid.population(), alive_cells);
        }
      }
}

// Many generations a call (CUDA: several a pass in shared-memory tiles where cols is a
// multiple of 64) equal the reference stepped one at a time: grids smaller and larger
// than a tile, rows not a multiple of its 32, both boundaries, three rules.
TEST(LifeGrid, ManyGenerationsACallEqualTheReference) {
  const std::vector<LifeRule> rules = {kConway, parse_life_rule("B36/S23"), parse_life_rule("B2/S")};
  const std::pair<int64_t, int64_t> sizes[] = {{1, 64}, {2, 128}, {3, 64}, {37, 128}, {70, 192}, {33, 2112}, {45, 130}};
  std::mt19937_64 rng(11);
  for (const LifeRule& rule : rules)
    for (const auto& [rows, cols] : sizes)
      for (bool periodic : {true, false}) {
        std::vector<uint8_t> cells = soup(rows, cols, rng);
        Grid grid(rows, cols, opsplit::ca::life_rule_string(rule).c_str(), periodic);
        grid.set(cells);
        for (int calls = 0; calls < 3; ++calls) {
          const int gens = 1 + 7 * calls + calls * calls;  // 1, 9, 19
          for (int g = 0; g < gens; ++g) cells = reference_step(cells, rows, cols, rule, periodic);
          grid.step(gens);
          ASSERT_EQ(grid.cells(), cells) << opsplit::ca::life_rule_string(rule) << " " << rows << "x" << cols
                                         << (periodic ? " torus" : " closed") << " after call " << calls + 1;
        }
      }
}

// The glider moves one cell down and one right every 4 generations, across the torus'
// edges: after 4k generations the grid is the start shifted by (k, k).
TEST(LifeGrid, GliderCrossesTheTorus) {
  const std::string glider = "x = 3, y = 3, rule = B3/S23\nbob$2bo$3o!";
  const int64_t rows = 37, cols = 70;
  Grid grid(rows, cols);
  OPSPLIT_OK(opsplit_ca_place_rle(grid.ca, glider.c_str(), 5, 60));
  for (int64_t k = 1; k <= 80; ++k) {
    grid.step(4);
    ASSERT_EQ(grid.cells(), place(glider, rows, cols, 5 + k, 60 + k)) << "after " << 4 * k << " generations";
    ASSERT_EQ(grid.population(), 5);
  }
  int64_t steps = 0;
  OPSPLIT_OK(opsplit_ca_get_steps(grid.ca, &steps));
  EXPECT_EQ(steps, 320);
}

// LifeWiki: the R-pentomino settles at generation 1103 with 116 cells (six gliders among
// them); diehard vanishes at generation 130; the blinker has period 2. The 1024 x 1024
// torus is large enough that no glider wraps around and back within 1200 generations.
TEST(LifeGrid, KnownPatternsKeepTheirPublishedHistory) {
  {
    const int64_t n = 1024;
    Grid grid(n, n);
    OPSPLIT_OK(opsplit_ca_place_rle(grid.ca, "x = 3, y = 3\nb2o$2ob$bo!", n / 2, n / 2));
    grid.step(1103);
    EXPECT_EQ(grid.population(), 116);
    grid.step(97);
    EXPECT_EQ(grid.population(), 116) << "generation 1200";
  }
  {
    const int64_t n = 128;
    Grid grid(n, n, "B3/S23", false);
    OPSPLIT_OK(opsplit_ca_place_rle(grid.ca, "x = 8, y = 3\n6bob$2o6b$bo3b3o!", 60, 60));
    grid.step(129);
    EXPECT_GT(grid.population(), 0) << "generation 129";
    grid.step(1);
    EXPECT_EQ(grid.population(), 0) << "generation 130";
  }
  {
    Grid grid(5, 5, "B3/S23", false);
    const auto start = place("x = 3, y = 1\n3o!", 5, 5, 2, 1);
    grid.set(start);
    grid.step(1);
    EXPECT_EQ(grid.cells(), place("x = 1, y = 3\no$o$o!", 5, 5, 1, 2));
    grid.step(1);
    EXPECT_EQ(grid.cells(), start);
  }
}

// HighLife (B36/S23): the replicator (LifeWiki) becomes two copies of itself after 12
// generations, each 12 cells, and four after 36 (population 12 * 2^popcount(k) at
// generation 12 k; checked here for k = 1..4).
TEST(LifeGrid, HighLifeReplicatorCopiesItself) {
  const std::string replicator = "x = 5, y = 5, rule = B36/S23\n2b3o$bo2bo$o3bo$o2bo$3o!";
  const int64_t n = 256;
  Grid grid(n, n, "B36/S23");
  OPSPLIT_OK(opsplit_ca_place_rle(grid.ca, replicator.c_str(), 120, 120));
  const int64_t expected[] = {24, 24, 48, 24};
  for (int k = 1; k <= 4; ++k) {
    grid.step(12);
    EXPECT_EQ(grid.population(), expected[k - 1]) << "generation " << 12 * k;
    if (k == 1) {  // exactly the start shifted by (-2, -2) and by (+2, +2)
      std::vector<uint8_t> two = place(replicator, n, n, 118, 118);
      const std::vector<uint8_t> second = place(replicator, n, n, 122, 122);
      for (size_t i = 0; i < two.size(); ++i) two[i] |= second[i];
      EXPECT_EQ(grid.cells(), two);
    }
  }
}

// place_rle writes the pattern's whole box (its dead cells too) and wraps on a torus;
// the cells outside the box keep their state. Any nonzero input value is alive.
TEST(LifeGrid, PlaceRleWritesItsBoxAndWraps) {
  const int64_t n = 10;
  Grid grid(n, n);
  std::vector<uint8_t> all(static_cast<size_t>(n * n), 0);
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<uint8_t>(i % 2 ? 255 : 2);
  grid.set(all);
  EXPECT_EQ(grid.population(), n * n);
  OPSPLIT_OK(opsplit_ca_place_rle(grid.ca, "x = 3, y = 3\nbob$2bo$3o!", 8, 9));
  std::vector<uint8_t> expected(all.size(), 1);
  const int64_t box_rows[] = {8, 9, 0}, box_cols[] = {9, 0, 1};
  for (int64_t r : box_rows)
    for (int64_t c : box_cols) expected[static_cast<size_t>(r * n + c)] = 0;
  for (const auto& [r, c] : std::vector<std::pair<int64_t, int64_t>>{{0, 1}, {1, 2}, {2, 0}, {2, 1}, {2, 2}})
    expected[static_cast<size_t>(box_rows[r] * n + box_cols[c])] = 1;
  EXPECT_EQ(grid.cells(), expected);
}

// Column-major cells (Fortran's cells(rows, cols)) are the transpose of row-major ones.
TEST(LifeGrid, ColumnMajorCellsAreTheTranspose) {
  const int64_t rows = 3, cols = 70;
  Grid grid(rows, cols);
  std::vector<uint8_t> row_major(static_cast<size_t>(rows * cols), 0), column_major(row_major.size(), 0);
  std::mt19937_64 rng(7);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      const uint8_t v = static_cast<uint8_t>(rng() % 2);
      row_major[static_cast<size_t>(r * cols + c)] = v;
      column_major[static_cast<size_t>(c * rows + r)] = v;
    }
  OPSPLIT_OK(opsplit_ca_set_cells(grid.ca, column_major.data(), OPSPLIT_CA_COLUMN_MAJOR));
  EXPECT_EQ(grid.cells(), row_major);
  std::vector<uint8_t> back(row_major.size(), 9);
  OPSPLIT_OK(opsplit_ca_get_cells(grid.ca, back.data(), OPSPLIT_CA_COLUMN_MAJOR));
  EXPECT_EQ(back, column_major);
}

// A progress callback that cancels leaves the grid at a completed generation, and says
// which.
TEST(LifeGrid, ACancelledStepStopsAtAGeneration) {
  Grid grid(64, 64);
  OPSPLIT_OK(opsplit_ca_place_rle(grid.ca, "x = 3, y = 3\nbob$2bo$3o!", 10, 10));
  int calls = 0;
  auto cancel_at_third = [](double, const char*, void* user) -> int { return ++*static_cast<int*>(user) == 3; };
  OPSPLIT_OK(opsplit_context_set_progress_callback(grid.ctx, cancel_at_third, &calls));
  EXPECT_EQ(opsplit_ca_step(grid.ca, 40), OPSPLIT_ERROR_CANCELLED);
  EXPECT_NE(std::string(opsplit_last_error_message()).find("generation 6"), std::string::npos)
      << opsplit_last_error_message();
  int64_t steps = 0;
  OPSPLIT_OK(opsplit_ca_get_steps(grid.ca, &steps));
  EXPECT_EQ(steps, 6);  // three reports, two generations each
  Grid plain(64, 64);
  OPSPLIT_OK(opsplit_ca_place_rle(plain.ca, "x = 3, y = 3\nbob$2bo$3o!", 10, 10));
  plain.step(6);
  EXPECT_EQ(grid.cells(), plain.cells());
  OPSPLIT_OK(opsplit_context_set_progress_callback(grid.ctx, nullptr, nullptr));
}

}  // namespace
