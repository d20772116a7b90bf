// The determinant by expansion in minors, recursively, as it is usually
// written without copying matrices: the rows and columns still in the minor
// are kept in index arrays that each call modifies and puts back before it
// returns (an in/out passive array of a recursive function).
#include <unfad/unfad.h>

#include <cstddef>
#include <vector>

// Expansion along row `row` over the columns not yet used.
static double minor_det(const double* a, int n, int row, std::vector<int>& used) {
  if (row == n) return 1.0;
  double det = 0.0;
  double sign = 1.0;
  for (int j = 0; j < n; ++j) {
    if (used[j]) continue;
    used[j] = 1;
    det += sign * a[row * n + j] * minor_det(a, n, row + 1, used);
    used[j] = 0;
    sign = -sign;
  }
  return det;
}

UNFAD_GRADIENT double det_used(const double* a, int n) {
  std::vector<int> used(n, 0);
  return minor_det(a, n, 0, used);
}

// The same with linked lists of the remaining rows and columns: next_row[k]
// is the row after k in the minor (k == n is the list's head), likewise
// next_col; a column is unlinked for the sub-minor and linked back after.
static double linked_det(const double* a, std::size_t n, std::size_t m, std::vector<std::size_t>& next_row,
                         std::vector<std::size_t>& next_col) {
  const std::size_t r0 = next_row[n];
  std::size_t cj = next_col[n];
  if (m == 1) return a[r0 * n + cj];
  double det = 0.0;
  int sign = 1;
  next_row[n] = next_row[r0];
  std::size_t prev = n;
  for (std::size_t j = 0; j < m; ++j) {
    const double pivot = a[r0 * n + cj];
    next_col[prev] = next_col[cj];
    const double sub = linked_det(a, n, m - 1, next_row, next_col);
    next_col[prev] = cj;
    if (sign > 0)
      det = det + pivot * sub;
    else
      det = det - pivot * sub;
    prev = cj;
    cj = next_col[cj];
    sign = -sign;
  }
  next_row[n] = r0;
  return det;
}

UNFAD_GRADIENT double det_linked(const std::vector<double>& a, std::size_t n) {
  std::vector<std::size_t> next_row(n + 1), next_col(n + 1);
  for (std::size_t k = 0; k < n; ++k) {
    next_row[k] = k + 1;
    next_col[k] = k + 1;
  }
  next_row[n] = 0;
  next_col[n] = 0;
  return linked_det(a.data(), n, n, next_row, next_col);
}

/* e2e
[{"function": "det_used",
  "points": [[[2.0, -1.0, 0.5, 1.5, 3.0, -2.0, 0.25, 1.0, 4.0], 3], [[1.5, 2.0, -0.5, 0.75], 2], [[3.0], 1]],
  "value_formula": "a[0] if n == 1 else (a[0]*a[3] - a[1]*a[2] if n == 2 else a[0]*(a[4]*a[8]-a[5]*a[7]) - a[1]*(a[3]*a[8]-a[5]*a[6]) + a[2]*(a[3]*a[7]-a[4]*a[6]))",
  "grad_formula": ["[1.0] if n == 1 else ([a[3], -a[2], -a[1], a[0]] if n == 2 else [a[4]*a[8]-a[5]*a[7], a[5]*a[6]-a[3]*a[8], a[3]*a[7]-a[4]*a[6], a[2]*a[7]-a[1]*a[8], a[0]*a[8]-a[2]*a[6], a[1]*a[6]-a[0]*a[7], a[1]*a[5]-a[2]*a[4], a[2]*a[3]-a[0]*a[5], a[0]*a[4]-a[1]*a[3]])"]},
 {"function": "det_linked",
  "points": [[[2.0, -1.0, 0.5, 1.5, 3.0, -2.0, 0.25, 1.0, 4.0], 3],
             [[1.0, 0.5, -0.25, 2.0, 0.75, 1.5, -1.0, 0.5, 0.3, -0.6, 2.0, 1.1, -0.4, 0.9, 0.2, 1.3], 4]]}]
*/
