// Found by test/fuzz/fuzz.py (feature inout, unfad-fuzz:3:16), shrunk. Was
// an internal error ("the in/out array 'y' would need a whole copy"): an
// in/out *pointer* y updated in a triangular loop nest (for i2 = i1 + 1 ..
// n) after an early return, which puts the loops in a branch. The branch's
// undo log is sized before the `if`, and the count of its stores could not
// use the outer index i1 (bound inside the branch); it is now a sum over i1.
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <vector>

struct fuzz_3083a5183b_V2 {
  double x, y;
};
UNFAD_GRADIENT double fuzz_3083a5183b_f(const double* a0, double* y, double x0, const double* a1, int n, double x1, const double* a2) {
  if (1.0 < 0.5) {
    return 0.5;
  }
  for (int i1 = 0; i1 < n; ++i1) {
    double t1 = y[n - 1 - i1];
    for (int i2 = i1 + 1; i2 < n; ++i2) {
      for (int i3 = 0; i3 < 1; ++i3) {
        for (int i4 = 0; i4 < n; ++i4) {
          y[i4] -= 0.1 * 0.5;
        }
      }
    }
  }
  return 0.5;
}

/* e2e
{"function": "fuzz_3083a5183b_f", "points": [[[1.59375, -0.46875, 0.125, 1.421875, -1.34375], [0.5, -1.46875, -0.40625, -1.140625, -0.53125], -1.671875, [-0.359375, -0.40625, 1.578125, 0.84375, -0.015625], 5, -1.578125, [1.46875, 0.4375, -1.890625, 1.25, 1.5625]], [[0.609375, -0.203125, 0.21875, 1.6875, 0.515625], [-1.859375, -0.703125, 0.609375, 1.125, -0.6875], 0.125, [0.78125, 1.640625, 0.78125, -0.921875, -0.921875], 5, 1.609375, [0.390625, -0.90625, 1.5, 0.46875, 1.078125]], [[0.765625, -1.921875, 1.140625, 1.71875, -1.28125], [0.09375, 0.625, -1.484375, -1.671875, 1.359375], 1.296875, [-0.015625, -0.4375, -1.3125, 1.078125, -0.234375], 5, 0.53125, [-1.09375, 0.84375, -1.796875, 0.3125, -0.765625]], [[0.09375, 1.703125, 1.9375, 1.203125, -1.578125], [-0.546875, 1.875, 1.265625, 1.15625, -1.0625], -0.75, [0.4375, -1.484375, 0.34375, -1.375, 1.84375], 5, -1.6875, [-0.546875, 1.640625, -1.15625, 1.625, 1.375]]], "rtol": 1e-05, "atol": 1e-06, "flags": ["-Wno-unused-parameter", "-Wno-unused-variable", "-Wno-unused-but-set-variable", "-Wno-unused-but-set-parameter"], "inouts": {"y": 5}}
*/
