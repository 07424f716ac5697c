// The symbolic half of the sparse LU (kernels/linalg/sparse_lu.cuh), on the host: an
// elimination order with little fill-in and the pattern the factors hold.
#pragma once

#include <utility>
#include <vector>

#include "linalg/sparse_lu.cuh"

namespace opsplit::linalg {

struct SparsePattern {
  int n = 0;
  std::vector<int> order;     // order[p]: the equation at elimination position p
  std::vector<int> position;  // its inverse
  std::vector<int> row_begin, col, diag;
  std::vector<int> update_begin, update_target;  // SparseLu's (kernels/linalg/sparse_lu.cuh)
  int nnz() const { return static_cast<int>(col.size()); }
  // The index among the nnz values of entry (equation i, equation j); -1 when the
  // pattern has no such entry.
  int slot(int i, int j) const;
  // A view over these arrays or over copies of them at the given bases (device memory).
  SparseLu view() const;
};

// The pattern of an n x n matrix with the given (row, column) entries plus the whole
// diagonal, for an elimination order chosen greedily by the Markowitz count
// (rows - 1) x (columns - 1) of the remaining matrix, ties to the lowest equation, with
// every fill-in entry that order creates. O(n^3) time and O(n^2) memory: meant for
// networks of up to a few hundred species.
SparsePattern analyze_sparse_lu(int n, const std::vector<std::pair<int, int>>& entries);

}  // namespace opsplit::linalg
