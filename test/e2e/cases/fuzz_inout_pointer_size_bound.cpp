// Found by test/fuzz/fuzz.py (feature inout, unfad-fuzz:1:109), shrunk, then
// made finite (sum of squares under the sqrt). An in/out pointer y
// normalised in place in loops nested in a range-for over a local vector:
// the undo log of the outer loop could not be sized because the range-for's
// bound `size(u2)` was not recognised as pure, and the fallback, a whole copy
// per iteration, is impossible for a pointer: "internal error: 'y' would need
// a whole copy" (fixed: lib/ad/rev/undo_log.cpp pureScalar).
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <vector>

struct fuzz_e6d9f03a52_V2 {
  double x, y;
};
UNFAD_GRADIENT double fuzz_e6d9f03a52_f(const double* a0, double* y, double x0, const std::vector<double>& a2, const std::vector<double>& a1, int n, double x1) {
  std::vector<double> u2(n);
  for (int i12 = 0; i12 < n; ++i12) {
    for (double t9 : u2) {
      double t10 = 0.0;
      for (int i13 = 0; i13 < n; ++i13) {
        t10 += y[i13] * y[i13] * 0.5;
      }
      const double t11 = std::sqrt(1.0 + t10);
      for (int i14 = 0; i14 < n; ++i14) {
        y[i14] = y[i14] / t11 * 1.0;
      }
    }
  }
  return 0.5;
}

/* e2e
{"function": "fuzz_e6d9f03a52_f", "points": [[[0.4375, -0.734375, 1.90625, 1.984375, -0.046875], [-1.703125, -0.078125, 0.453125, -1.3125, -1.015625], -0.640625, [-0.859375, -1.46875, 1.921875, 1.265625, -0.6875], [1.0, 1.53125, -1.59375, -0.703125, 1.84375], 5, -1.859375], [[1.203125, -1.3125, -0.265625, -1.875, 1.0], [0.734375, -1.078125, -1.28125, 0.6875, -0.359375], 0.53125, [0.375, 1.65625, -2.0, 0.03125, -1.6875], [1.0, -0.828125, 0.890625, -1.140625, -0.03125], 5, 1.1875], [[-0.921875, -1.15625, -0.03125, 1.84375, 0.171875], [-0.21875, 0.5, 1.046875, -0.953125, -0.09375], 1.984375, [1.921875, -1.453125, 1.140625, 1.359375, -0.375], [0.46875, 0.34375, -0.3125, -1.703125, 1.21875], 5, -0.953125], [[1.1875, 0.5625, 1.671875, 0.296875, -0.328125], [1.15625, 0.3125, -1.171875, 1.046875, 1.125], -1.5625, [1.453125, -0.5625, 0.765625, 1.234375, -0.484375], [-1.640625, -1.171875, -1.96875, 0.546875, 0.890625], 5, 0.609375]], "rtol": 1e-05, "atol": 1e-06, "flags": ["-Wno-unused-parameter", "-Wno-unused-variable", "-Wno-unused-but-set-variable", "-Wno-unused-but-set-parameter"], "inouts": {"y": 5}}
*/
