// Found by test/fuzz/fuzz.py (feature inout, unfad-fuzz:11:12), shrunk. FIXED (a call counts as a write only where the callee writes that
// parameter: Reverser::writesTo): an in/out *pointer* y passed to a helper that reads
// it in one branch of an if and updated in place in the other branch:
// "internal error in unfad: reverse: the in/out array 'y' would need a whole
// copy, and its length is unknown" (no location). It should either need no
// copy or be a diagnostic at the construct; with std::vector<double>& y it
// works.
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <vector>

struct fuzz_de2e3568cb_V2 {
  double x, y;
};
template <typename T> T fuzz_de2e3568cb_h0(const T* b0, const T* b1, int n, T a0) {
  std::vector<T> u0(n);
  return 0.5;
}
UNFAD_GRADIENT double fuzz_de2e3568cb_f(double x0, int n, double* out, const double* a0, double* y, int k1, double x1, int k0, double x2) {
  const double t0 = a0[0];
  if (a0[n - 1] < y[0]) {
    const double t1 = fuzz_de2e3568cb_h0(y, a0, n, y[n - 1]);
    --x1;
  } else {
    y[0] *= 1.5;
  }
  return 0.5;
}

/* e2e
{"function": "fuzz_de2e3568cb_f", "points": [[-1.703125, 3, null, [1.875, -1.765625, -0.046875], [-0.640625, 2.0, -1.671875], 1, -1.5625, 0, -0.28125], [0.140625, 3, null, [-1.1875, -1.703125, -1.3125], [0.90625, 0.625, -1.359375], 2, 0.046875, 1, -1.265625], [1.171875, 3, null, [0.671875, -1.625, 0.546875], [-0.546875, -0.859375, -1.609375], 2, 0.546875, 1, -0.84375], [-0.96875, 3, null, [1.890625, 0.40625, -0.75], [1.140625, -1.9375, -0.484375], 2, 1.75, 3, -0.296875]], "rtol": 1e-05, "atol": 1e-06, "flags": ["-Wno-unused-parameter", "-Wno-unused-variable", "-Wno-unused-but-set-variable", "-Wno-unused-but-set-parameter"], "outputs": {"out": 3}, "inouts": {"y": 3}}
*/
