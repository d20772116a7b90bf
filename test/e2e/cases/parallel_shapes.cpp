// Loops unfad recognises as parallel shapes (build/sum, UNF App. A): a
// map2-then-reduce dot product (fused into one sum), a map read twice (stays
// a build: its J^T reads the array's cotangent buffer), a one-hot sum
// (rewritten to one element), a shift, a sum with `-=`, a constant sum, and
// a build rewritten after it is filled (it stays a local array).
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

UNFAD_GRADIENT double dot_map2_reduce(const double* a, const double* b, int n) {
  std::vector<double> prod(n);
  for (int i = 0; i < n; ++i) prod[i] = a[i] * b[i];
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += prod[i];
  return s;
}

UNFAD_GRADIENT double softmax_mean(const double* a, int n) {
  std::vector<double> e(n);
  for (int i = 0; i < n; ++i) e[i] = std::exp(a[i]);
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += e[i];
  double q = 0.0;
  for (int i = 0; i < n; ++i) q += e[i] * a[i];
  return q / s;
}

UNFAD_GRADIENT double one_hot(const double* a, int n, int k) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += (i == k ? a[i] * a[i] : 0.0);
  return s + 0.5 * a[0];
}

UNFAD_GRADIENT double shifted(const double* a, int n) {
  std::vector<double> t(n);
  for (int i = 0; i < n; ++i) t[i] = i > 0 ? a[i - 1] : 0.0;
  double s = 0.0;
  for (int i = 0; i < n; ++i) s -= t[i] * std::sin(a[i]);
  return s;
}

UNFAD_GRADIENT double constant_sum(const double* a, int n, double x) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += 1.0;
  double c = 0.0;
  for (int i = 2; i < n; ++i) c += x * x;
  return s * a[0] + c;
}

UNFAD_GRADIENT double build_then_rewrite(const double* a, int n) {
  std::vector<double> t(n);
  for (int i = 0; i < n; ++i) t[i] = a[i] * a[i];
  t[0] = std::cos(a[1]);
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += t[i] * a[i];
  return s;
}

/* e2e
[{"function": "dot_map2_reduce",
  "points": [[[1.0, -2.0, 0.5, 3.0], [0.25, 1.5, -1.0, 2.0], 4], [[0.3], [0.7], 1]],
  "grad_formula": ["b", "a"]},
 {"function": "softmax_mean",
  "points": [[[0.1, -0.4, 1.2, 0.3], 4], [[2.0, 1.0], 2]]},
 {"function": "one_hot",
  "points": [[[1.5, -2.0, 0.75], 3, 1], [[1.5, -2.0, 0.75], 3, 0], [[1.5, -2.0, 0.75], 3, 5], [[1.5, -2.0, 0.75], 3, -1]],
  "grad_formula": ["[(2*a[i] if i == k else 0) + (0.5 if i == 0 else 0) for i in range(n)]"]},
 {"function": "shifted",
  "points": [[[0.3, -1.1, 0.8, 2.0, -0.6], 5], [[1.0], 1]]},
 {"function": "constant_sum",
  "points": [[[1.5, 2.0, 3.0, 4.0], 4, 0.75], [[1.5], 1, 2.0]],
  "grad_formula": ["[n if i == 0 else 0 for i in range(n)]", "2*x*max(n-2, 0)"]},
 {"function": "build_then_rewrite",
  "points": [[[0.3, -1.1, 0.8, 2.0], 4], [[0.5, 1.5], 2]]}]
*/
