// Found by test/fuzz/fuzz.py (unfad-fuzz:12:84), shrunk: unfad-crash.
// At the time it was found:
//   unfad exit code 1
//   batch.cpp: error: internal error in unfad: ill-typed IR: projection index out of range
// unfad fails with "internal error in unfad: ill-typed IR: projection index
// out of range". In this file every piece is needed (hand-checked): the
// element-wise copy of one fresh local array of structs into another under
// the if, the fmin reduction over the rows of the ragged A1 (bounded by
// A1[i].size()), both empty loops, and the while loop (a for loop instead
// does not fail). The result does not depend on any active input. Not
// specific to structs: with std::vector<double> sv0, sv1 and the copy inside
// an outer `for (int s = 0; s < 2; ++s)` loop that declares sv1, it fails the
// same way.
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <vector>

struct fuzz_b6a2637985_V2 {
  double x, y;
};
struct fuzz_b6a2637985_V3 {
  double x;
  double y;
  double z;
};
UNFAD_GRADIENT double fuzz_b6a2637985_f(const fuzz_b6a2637985_V3* p0, const std::vector<std::vector<double>>& A1, const std::array<std::array<double, 2>, 3>& A0, double x0, double x1, int n, const std::vector<double>& a0) {
  if (n > 1) {
    std::vector<fuzz_b6a2637985_V3> sv0(n);
    std::vector<fuzz_b6a2637985_V3> sv1(n);
    for (int i2 = 0; i2 < n; ++i2) {
      sv0[i2] = sv1[i2];
    }
    double t1 = 1.0;
    for (int i3 = n - 1; i3 >= 0; --i3) {
      for (int i4 = 0; i4 < static_cast<int>(A1[i3].size()); ++i4) {
        t1 = fmin(t1, A1[i3][i4]);
      }
    }
  }
  for (int i7 = 0; i7 < n; ++i7) {
  }
  for (int i8 = n - 1; i8 >= 0; --i8) {
    for (int i9 = 2 - 1; i9 >= 0; --i9) {
    }
  }
  double t6 = 0.5;
  int w1 = 0;
  while (w1 < 3 && (0.5 < 1.0)) {
    ++w1;
    t6 += 1.0;
  }
  return t6;
}

/* e2e
{"function": "fuzz_b6a2637985_f", "points": [[[[1.390625, 0.0, 0.046875], [-0.265625, 1.640625, -0.484375], [0.59375, -1.328125, -1.1875]], [[1.421875, -0.578125, 1.890625], [-0.625, -0.6875, -0.4375, 0.90625], [1.640625]], [[0.96875, 1.046875], [-0.0625, -0.546875], [1.203125, -0.359375]], 1.109375, 0.703125, 3, [-1.828125, -1.171875, 0.90625]], [[[-1.1875, 0.3125, 0.75], [0.28125, -0.265625, -0.15625], [0.359375, 1.234375, -1.984375]], [[-0.953125, -0.25, -0.09375], [-1.984375, 1.5625, 0.546875, 0.15625], [0.90625]], [[1.90625, 1.078125], [-0.5625, 0.953125], [-1.359375, -1.46875]], 0.484375, -1.9375, 3, [-1.984375, -1.640625, 0.421875]], [[[1.96875, -0.125, 1.1875], [1.28125, 0.640625, 1.015625], [-0.203125, -0.453125, -0.109375]], [[-0.578125, 0.109375, -1.875], [0.65625, -1.484375, -1.109375, -1.65625], [-0.890625]], [[0.765625, -0.015625], [-1.8125, 0.53125], [-0.078125, 1.578125]], 0.5625, -1.625, 3, [-0.3125, 0.25, 1.15625]], [[[0.1875, -0.09375, 2.0], [1.546875, -0.953125, 0.890625], [0.21875, 1.9375, 1.125]], [[1.046875, 0.03125, -0.453125], [-1.8125, 1.09375, 0.28125, -0.671875], [-1.34375]], [[-0.84375, 1.6875], [-0.59375, 0.171875], [-1.28125, -1.515625]], -0.59375, -1.390625, 3, [-0.53125, 0.046875, -0.609375]]], "rtol": 1e-05, "atol": 1e-06, "flags": ["-Wno-unused-parameter", "-Wno-unused-variable", "-Wno-unused-but-set-variable", "-Wno-unused-but-set-parameter"]}
*/
