// Found by test/fuzz/fuzz.py (feature inout, unfad-fuzz:11:63), shrunk. FIXED (an output added into before it is assigned is restored with the in/out
// parameters, ir/array_order ArrayParamUse::accumulates): a function with an in/out parameter y and an output
// `out` updated with `+=`: f_grad leaves out[0] = 1 where f writes 0.5 (and
// returns phi off by the same). The backward sweep restores y (in/out) but
// not `out` (an output: `out[i] += e` does not count as a read), and
// redoInOutWrites (lib/ad/reverse.cpp) then runs f once more, which adds
// into `out` a second time.
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <vector>

UNFAD_GRADIENT double fuzz_9d4bc991f9_f(double x0, int k1, const double* a0, const double* a1, int k0, int n, double* out, std::vector<double>& y, double x1) {
  for (int i1 = 0; i1 < n; ++i1) {
    for (int i2 = n - 1; i2 >= 0; --i2) {
      out[i2] += 0.5;
    }
    for (int i3 = 0; i3 < 1; ++i3) {
      for (int i4 = 0; i4 < n; ++i4) {
        y[i4] -= 0.25 * y[i4];
      }
    }
  }
  return x1;
}

/* e2e
{"function": "fuzz_9d4bc991f9_f", "points": [[1.359375, 0, [1.59375], [-0.21875], 1, 1, null, [-0.171875], -0.296875], [-1.96875, 3, [0.609375], [-0.21875], 2, 1, null, [1.6875], -1.453125], [-0.5625, 2, [1.328125], [2.0], 3, 1, null, [-0.984375], 1.265625], [0.125, 1, [0.953125], [1.6875], 0, 1, null, [1.296875], 2.0]], "rtol": 1e-05, "atol": 1e-06, "flags": ["-Wno-unused-parameter", "-Wno-unused-variable", "-Wno-unused-but-set-variable", "-Wno-unused-but-set-parameter"], "outputs": {"out": 1}, "inouts": {"y": 1}}
*/
