// Found by test/fuzz/fuzz.py (unfad-fuzz:11:120), shrunk: unfad-crash.
// At the time it was found:
//   unfad exit code 1
//   batch.cpp: error: internal error in unfad: ill-typed IR: projection from non-tuple f64
// unfad fails with "internal error in unfad: ill-typed IR: projection from
// non-tuple f64". Needed (hand-checked; no structs involved): a do-while
// holding a loop that breaks at once (a dead store after the break), an if
// whose loop assigns x0 = h(a0) * h(a0) (a product of two helper calls; one
// call, or a[0] * 0.0, does not crash), and a reduction over a0 after the
// do-while. Replacing the do-while by a for loop, dropping the dead store or
// the reduction loop, or hoisting the assignment out of its inner loop all
// avoid the error.
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <vector>

struct fuzz_295c3b4e47_V2 {
  double x, y;
};
struct fuzz_295c3b4e47_V3 {
  double x;
  double y;
  double z;
};
inline double fuzz_295c3b4e47_h0(const double* b0, const double* b1, int n) {
  return 0.5;
}
UNFAD_GRADIENT double fuzz_295c3b4e47_f(int n, const fuzz_295c3b4e47_V3* p0, const double* a0, double x0) {
  int w0 = 0;
  do {
    ++w0;
    for (int i0 = 0; i0 < n; ++i0) {
      break;
      x0 = 0.5;
    }
    if (0.5 < x0) {
      for (int i1 = 0; i1 < n; ++i1) {
        x0 = fuzz_295c3b4e47_h0(a0, a0, n) * fuzz_295c3b4e47_h0(a0, a0, n);
      }
    }
  } while (w0 < 3);
  double t3 = 1.0;
  for (int i2 = 0; i2 < n; ++i2) {
    t3 += a0[i2];
  }
  return 0.5;
}

/* e2e
{"function": "fuzz_295c3b4e47_f", "points": [[3, [[1.890625, 1.34375, -1.65625], [-0.359375, 1.015625, 1.40625], [1.9375, 0.546875, -1.109375]], [-1.90625, 0.71875, -1.671875], -1.484375], [3, [[-1.09375, -0.5625, 0.5625], [1.875, 0.875, 1.421875], [1.828125, -0.21875, 0.140625]], [-0.125, 1.328125, -0.421875], 1.078125], [3, [[-0.421875, 0.203125, -1.046875], [-0.796875, 0.640625, 0.078125], [-1.34375, 0.859375, 1.921875]], [-0.25, 1.375, 1.703125], -1.765625], [3, [[-1.65625, 0.0, -0.484375], [-0.875, 1.609375, -1.1875], [0.734375, -1.5, 0.03125]], [-1.984375, -0.671875, 0.859375], -1.0625]], "rtol": 1e-05, "atol": 1e-06, "flags": ["-Wno-unused-parameter", "-Wno-unused-variable", "-Wno-unused-but-set-variable", "-Wno-unused-but-set-parameter"]}
*/
