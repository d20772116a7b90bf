// Found by test/fuzz/fuzz.py --features base,loops,arrays,outputs (unfad-fuzz:7:2),
// shrunk, then by hand: a helper writes into a local array of the marked
// function (h(a, n, u.data())). f_grad calls the primal helper but never its
// pullback (which is generated), so nothing flows back through the helper's
// writes: d/da = (0, 0) instead of (1, 0) here, and the same with a C array.
// Also when the helper writes the marked function's output (unfad-fuzz:1:48):
// f(a, n, out) { h(a, n, out); } with out[i] = 2 a[i] gives d_a = 0, not 2 d_out.
#include <unfad/unfad.h>

#include <vector>

static void add_first(const double* b, int n, double* o) {
  o[0] += b[n - 1];
}

static void scale_into(const double* b, int n, double* o, double s) {
  for (int i = 0; i < n; ++i) o[i] = s * b[i];
}

UNFAD_GRADIENT double fuzz_helper_writes_vector(const double* a, int n) {
  std::vector<double> u(n);
  add_first(a, 1, u.data());
  return u[0];
}

UNFAD_GRADIENT double fuzz_helper_writes_c_array(const double* a, int n, double s) {
  double u[3] = {};
  scale_into(a, n, u, s);
  return u[0] * u[n - 1];
}

UNFAD_GRADIENT void fuzz_helper_writes_output(const double* a, int n, double* out) {
  scale_into(a, n, out, 2.0);
}

/* e2e
[{"function": "fuzz_helper_writes_vector", "points": [[[0.5, 1.5], 2], [[-1.25], 1]],
  "grad_formula": ["[1.0 if i == 0 else 0.0 for i in range(n)]"]},
 {"function": "fuzz_helper_writes_c_array", "points": [[[0.5, 1.5, -2.0], 3, 0.75], [[-1.25, 0.5], 2, 2.0]],
  "value_formula": "s*s*a[0]*a[n-1]",
  "grad_formula": ["[s*s*((a[n-1] if i == 0 else 0) + (a[0] if i == n-1 else 0)) for i in range(n)]", "2*s*a[0]*a[n-1]"]},
 {"function": "fuzz_helper_writes_output", "points": [[[0.5, 1.5], 2], [[-1.25, 0.5, 2.0], 3]],
  "outputs": {"out": 3}}]
*/
