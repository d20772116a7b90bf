// Found by test/fuzz/fuzz.py (feature inout, unfad-fuzz:11:43), shrunk. FIXED (partial evaluation entering a loop kept a load of the undo log's top
// shared across the inner loop that pushes to it, the log's name having been
// renamed; lib/opt/partial_eval.cpp forgetReadsWrittenInLoop): an in/out std::vector updated in place in a loop
// nest three deep (a 1-step loop between the outer and the inner loop),
// then in a second nest of two: f_grad leaves y different from what f
// leaves and the gradient is wrong (also with double* y). Each nest alone
// passes; so do the two nests with two levels each.
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <vector>

struct fuzz_b772f32bdc_V2 {
  double x, y;
};
UNFAD_GRADIENT double fuzz_b772f32bdc_f(const double* a1, const double* a2, std::vector<double>& y, const std::vector<double>& a0, double x0, int n) {
  for (int i0 = n - 1; i0 >= 0; --i0) {
    for (int i5 = 0; i5 < 1; ++i5) {
      for (int i6 = 0; i6 < n; ++i6) {
        y[i6] += 0.1 * (a1[i6] * y[i6]);
      }
    }
  }
  for (int i7 = 0; i7 < 2; ++i7) {
    for (int i8 = 0; i8 < n; ++i8) {
      y[i8] += 0.5 * 0.5;
    }
  }
  return a0[0];
}

/* e2e
{"function": "fuzz_b772f32bdc_f", "points": [[[1.765625, 1.328125], [1.578125, 0.21875], [-1.90625, 0.546875], [1.515625, 1.859375], 0.625, 2], [[-1.125, -1.21875], [0.375, -1.078125], [-1.3125, 0.09375], [-1.328125, -0.828125], 1.984375, 2], [[-1.578125, 1.90625], [-1.375, -0.390625], [1.796875, -1.53125], [0.375, -1.5], 1.546875, 2], [[-0.109375, -0.59375], [-1.203125, -1.796875], [-1.5, 0.875], [-1.390625, 0.265625], -0.09375, 2]], "rtol": 1e-05, "atol": 1e-06, "flags": ["-Wno-unused-parameter", "-Wno-unused-variable", "-Wno-unused-but-set-variable", "-Wno-unused-but-set-parameter"], "inouts": {"y": 2}}
*/
