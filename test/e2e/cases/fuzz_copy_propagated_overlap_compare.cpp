// Found by test/fuzz/fuzz.py (unfad-fuzz:12:688), shrunk: generated-warning.
// At the time it was found:
//   -Wall -Wextra warns about the generated code:
//   [clang++-19] processed.cpp:258: warning: overlapping comparisons always evaluate to true [-Wtautological-overlap-compare]
// Regression: the generated code was not -Wall -Wextra clean with clang: unfad propagates
// the copy `int m1 = k0;` into the condition, `k0 > 0 || k0 != 1`, and clang
// warns "overlapping comparisons always evaluate to true"
// [-Wtautological-overlap-compare] (the primal, `k0 > 0 || m1 != 1`, has no
// warning). Also seen as `n < 1 && n >= 1` and `k0 > 1 && k0 < 0` ("always
// false") in unfad-fuzz:11:753 and unfad-fuzz:11:955. The printer now names the
// second comparison of such a pair (`const bool c_1 = k0 != 1;`).
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <vector>

struct fuzz_3a22eb3634_V2 {
  double x, y;
};
struct fuzz_3a22eb3634_V3 {
  double x;
  double y;
  double z;
};
UNFAD_GRADIENT double fuzz_3a22eb3634_f(double x0, int k0, const std::vector<double>& a0, int n, const std::array<fuzz_3a22eb3634_V3, 4>& p0, const double A0[4][3], const fuzz_3a22eb3634_V3* p1) {
  const double t6 = x0;
  int m1 = k0;
  fuzz_3a22eb3634_V2 v0 = ((k0 > 0) || (m1 != 1)) ? fuzz_3a22eb3634_V2{t6, x0} : fuzz_3a22eb3634_V2{0.5, t6};
  return v0.x;
}

/* e2e
{"function": "fuzz_3a22eb3634_f", "points": [[-0.34375, 3, [1.640625, -0.796875, -0.453125, -1.578125], 4, [[-0.359375, 0.21875, 0.46875], [-0.1875, -1.90625, 1.65625], [-0.0625, -1.015625, -0.84375], [-1.875, 0.65625, -0.71875]], [[1.578125, -0.1875, 1.265625], [0.84375, -0.375, 1.171875], [-0.703125, 0.15625, -0.953125], [-1.765625, -1.1875, 1.0]], [[0.625, 1.3125, 1.0625], [1.8125, 0.203125, 0.390625], [-1.625, -0.734375, -0.828125], [-0.625, 0.46875, 0.015625]]], [1.765625, 2, [-1.484375, -0.703125, -0.703125, 1.578125], 4, [[1.234375, 0.140625, 1.75], [-0.34375, 0.390625, 0.640625], [-0.546875, -1.3125, 0.765625], [0.234375, -0.921875, -0.640625]], [[-0.78125, -1.1875, 0.484375], [0.515625, 1.46875, 1.859375], [-1.609375, -1.984375, 0.75], [1.078125, -1.328125, 0.296875]], [[1.0, 1.765625, 1.4375], [1.125, -0.046875, 0.359375], [1.234375, -1.796875, -0.90625], [-0.859375, 1.421875, -1.609375]]], [1.78125, 1, [1.328125, 0.34375, 1.9375, 0.890625], 4, [[1.71875, -0.09375, 1.609375], [-0.515625, 1.59375, 0.5625], [0.296875, 1.234375, 1.09375], [-0.09375, -1.859375, -0.625]], [[-1.703125, 1.796875, 0.5], [-0.984375, -1.453125, -1.171875], [1.046875, -1.21875, -1.34375], [1.9375, 0.421875, -1.375]], [[0.5, 1.09375, -0.5], [-0.90625, -0.09375, 1.71875], [-0.953125, 1.5, -1.421875], [-0.84375, 1.671875, 1.5]]], [1.03125, 3, [-0.71875, 0.59375, 1.109375, -0.46875], 4, [[-1.25, 1.25, 0.25], [-0.796875, 0.375, 1.03125], [0.6875, -1.5, -1.796875], [0.625, -1.796875, 0.046875]], [[-0.171875, 1.390625, -0.015625], [0.875, 1.75, -0.6875], [1.5625, -0.8125, 1.75], [-0.390625, -0.34375, 0.0625]], [[-1.28125, 0.046875, -0.921875], [0.203125, 1.609375, 0.140625], [-0.15625, -0.890625, -1.921875], [-1.78125, 1.578125, -1.390625]]]], "rtol": 1e-05, "atol": 1e-06, "flags": ["-Wno-unused-parameter", "-Wno-unused-variable", "-Wno-unused-but-set-variable", "-Wno-unused-but-set-parameter"]}
*/
