// Found by test/fuzz/fuzz.py (feature inout, unfad-fuzz:2:52), shrunk. An
// in/out pointer updated in place in a nest of loops with a strided one
// (i1 += 2): the strided loop's step count divides by its stride, which the
// undo log's sizing took for a possible trap, so it fell back on a whole
// copy, impossible for a pointer: "internal error: 'y' would need a whole
// copy" (fixed: division by a nonzero constant is pure, undo_log.cpp).
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <vector>

struct fuzz_bbe1dd1f09_V2 {
  double x, y;
};
UNFAD_GRADIENT double fuzz_bbe1dd1f09_f(const double* a0, double x0, int n, double* y, const std::vector<double>& a1, const std::vector<double>& a2) {
  for (int i0 = 0; i0 < n; ++i0) {
    for (int i1 = 0; i1 < n; i1 += 2) {
      for (int i2 = 0; i2 < 3; ++i2) {
        for (int i3 = 0; i3 < n; ++i3) {
          y[i3] -= 0.1 * y[i3];
        }
      }
    }
  }
  return x0;
}

/* e2e
{"function": "fuzz_bbe1dd1f09_f", "points": [[[1.921875, 0.640625, 1.1875, 0.09375, 0.53125], -1.328125, 5, [1.671875, 1.40625, 0.828125, -1.796875, -1.28125], [0.171875, -1.765625, -0.6875, -1.296875, 1.328125], [-0.65625, 1.296875, 0.3125, 1.921875, 0.40625]], [[1.671875, -1.90625, -1.59375, 0.859375, -1.734375], -0.796875, 5, [0.3125, 0.484375, 1.6875, -0.890625, -2.0], [-1.484375, 1.0, -0.15625, 0.90625, -0.9375], [0.875, -1.296875, -0.84375, 0.546875, -1.59375]], [[-0.859375, -1.0625, 0.046875, -0.75, 0.8125], 1.46875, 5, [-0.125, -1.90625, -1.078125, 0.203125, -1.953125], [-1.65625, 1.453125, 1.765625, -0.78125, 0.421875], [-2.0, -0.125, 0.578125, -0.25, -0.53125]], [[0.21875, -1.75, 1.4375, 0.8125, 0.203125], 0.03125, 5, [1.3125, -0.203125, -0.03125, 1.390625, -0.453125], [0.890625, -0.78125, 1.203125, 0.828125, 0.28125], [-1.828125, 1.125, -1.359375, 0.125, 0.40625]]], "rtol": 1e-05, "atol": 1e-06, "flags": ["-Wno-unused-parameter", "-Wno-unused-variable", "-Wno-unused-but-set-variable", "-Wno-unused-but-set-parameter"], "inouts": {"y": 5}}
*/
