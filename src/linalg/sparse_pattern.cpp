#include "linalg/sparse_pattern.hpp"

#include <algorithm>

namespace opsplit::linalg {

int SparsePattern::slot(int i, int j) const {
  const int p = position[static_cast<size_t>(i)], q = position[static_cast<size_t>(j)];
  const auto first = col.begin() + row_begin[static_cast<size_t>(p)];
  const auto last = col.begin() + row_begin[static_cast<size_t>(p) + 1];
  const auto it = std::lower_bound(first, last, q);
  return it != last && *it == q ? static_cast<int>(it - col.begin()) : -1;
}

SparseLu SparsePattern::view() const {
  SparseLu s;
  s.n = n;
  s.nnz = nnz();
  s.order = order.data();
  s.row_begin = row_begin.data();
  s.col = col.data();
  s.diag = diag.data();
  s.update_begin = update_begin.data();
  s.update_target = update_target.data();
  return s;
}

SparsePattern analyze_sparse_lu(int n, const std::vector<std::pair<int, int>>& entries) {
  const auto un = static_cast<size_t>(n);
  std::vector<char> nz(un * un, 0);  // nz[i * n + j]: entry (i, j), in equations
  for (int i = 0; i < n; ++i) nz[static_cast<size_t>(i) * un + static_cast<size_t>(i)] = 1;
  for (const auto& [i, j] : entries) nz[static_cast<size_t>(i) * un + static_cast<size_t>(j)] = 1;
  auto at = [&](int i, int j) -> char& { return nz[static_cast<size_t>(i) * un + static_cast<size_t>(j)]; };

  SparsePattern s;
  s.n = n;
  std::vector<char> done(un, 0);
  for (int step = 0; step < n; ++step) {
    int best = -1;
    long best_count = 0;
    for (int k = 0; k < n; ++k) {
      if (done[static_cast<size_t>(k)]) continue;
      long rows = 0, cols = 0;
      for (int i = 0; i < n; ++i)
        if (!done[static_cast<size_t>(i)] && i != k) rows += at(i, k), cols += at(k, i);
      const long count = rows * cols;
      if (best < 0 || count < best_count) best = k, best_count = count;
    }
    // Eliminating `best` fills (i, j) wherever (i, best) and (best, j) are entries.
    done[static_cast<size_t>(best)] = 1;
    for (int i = 0; i < n; ++i)
      if (!done[static_cast<size_t>(i)] && at(i, best))
        for (int j = 0; j < n; ++j)
          if (!done[static_cast<size_t>(j)] && at(best, j)) at(i, j) = 1;
    s.order.push_back(best);
  }
  s.position.assign(un, 0);
  for (int p = 0; p < n; ++p) s.position[static_cast<size_t>(s.order[static_cast<size_t>(p)])] = p;
  s.row_begin.push_back(0);
  for (int p = 0; p < n; ++p) {
    const int i = s.order[static_cast<size_t>(p)];
    for (int q = 0; q < n; ++q) {
      if (!at(i, s.order[static_cast<size_t>(q)])) continue;
      if (q == p) s.diag.push_back(static_cast<int>(s.col.size()));
      s.col.push_back(q);
    }
    s.row_begin.push_back(static_cast<int>(s.col.size()));
  }
  // Each entry k left of row p's diagonal (column j) updates row p where U's row j has
  // entries; the fill-in above put every such column in row p's pattern.
  s.update_begin.assign(1, 0);
  for (int p = 0; p < n; ++p)
    for (int k = s.row_begin[static_cast<size_t>(p)]; k < s.row_begin[static_cast<size_t>(p) + 1]; ++k) {
      const int j = s.col[static_cast<size_t>(k)];
      if (k < s.diag[static_cast<size_t>(p)])
        for (int u = s.diag[static_cast<size_t>(j)] + 1; u < s.row_begin[static_cast<size_t>(j) + 1]; ++u)
          s.update_target.push_back(s.slot(s.order[static_cast<size_t>(p)], s.order[static_cast<size_t>(s.col[static_cast<size_t>(u)])]));
      s.update_begin.push_back(static_cast<int>(s.update_target.size()));
    }
  return s;
}

}  // namespace opsplit::linalg
