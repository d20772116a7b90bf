// A local std::vector<size_t> passed to a helper taking
// `const std::vector<size_t>&`: the gradient declares the local with the
// helper's element type (it used to be std::vector<long>, which does not
// bind to the helper's parameter), and reads its elements as longs.
#include <unfad/unfad.h>

#include <cstddef>
#include <vector>

double gather_squares(const std::vector<double>& x, const std::vector<size_t>& idx, int k) {
  double s = 0.0;
  for (int i = 0; i < k; ++i) s += x[idx[i]] * x[idx[i]] * (i + 1.0);
  return s;
}

UNFAD_GRADIENT double reversed_weighted(const std::vector<double>& x, int n) {
  std::vector<size_t> idx(n);
  for (int i = 0; i < n; ++i) idx[i] = n - 1 - i;
  return gather_squares(x, idx, n);
}

/* e2e
{"function": "reversed_weighted",
 "points": [[[0.5, -1.25, 2.0], 3], [[1.5, 0.25], 2]],
 "grad_formula": ["[2*x[j]*(n-j) for j in range(n)]"]}
*/
