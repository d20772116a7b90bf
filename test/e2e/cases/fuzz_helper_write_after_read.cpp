// Found by test/fuzz/fuzz.py --features base,loops,arrays (unfad-fuzz:7:55), shrunk,
// then by hand: a local array is read, then rewritten by a helper it is passed
// to. unfad rejects it: "array 'u' is written after it is read (not supported
// yet)", although README ("Supported C++") says local arrays may be rewritten
// freely and arrays may be passed to helpers; written directly (u[0] = ...)
// instead of through the helper, it is accepted.
#include <unfad/unfad.h>

#include <vector>

static void fill(const double* b, int n, double* o) {
  for (int i = 0; i < n; ++i) o[i] = 2.0 * b[i];
}

UNFAD_GRADIENT double fuzz_helper_write_after_read(const double* a, int n, double x) {
  std::vector<double> u(n, x);
  const double t = u[0] * u[0];
  fill(a, n, u.data());
  return t + u[n - 1];
}

/* e2e
{"function": "fuzz_helper_write_after_read",
 "points": [[[0.5, -1.25], 2, 0.75], [[1.5], 1, -2.0]],
 "value_formula": "x*x + 2*a[n-1]",
 "grad_formula": ["[2.0 if i == n - 1 else 0.0 for i in range(n)]", "2*x"]}
*/
