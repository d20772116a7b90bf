// Found by test/fuzz/fuzz.py --features base,loops,arrays,views (unfad-fuzz:3:44),
// shrunk: a loop nest whose value nothing uses (the function returns a
// constant) squares x2 until it overflows to inf. Reverse mode still gave the
// dead nest a backward sweep with zero cotangents, and 0 * inf put a NaN into
// d/da0[0] (finite differences: 0). Code whose value nothing uses is now
// dropped before reverse mode (lib/driver/pipeline.cpp, `prepared`).
#include <unfad/unfad.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <iterator>
#include <numeric>
#include <vector>

struct fuzz_dead_primal_loop_nan_V2 {
  double x, y;
};
UNFAD_GRADIENT double fuzz_dead_primal_loop_nan_f(double x0, double x1, const double* a1, double x2, int n, const double* a0) {
  double t0 = 0.5;
  std::vector<double> u0(n, a0[0]);
  double t1 = 0.5;
  double t2 = t0 + a1[n - 1];
  for (int i1 = 0; i1 < n; ++i1) {
    for (double t3 : u0) {
      double t4 = 1.0;
      const double* pv1 = u0.data() + 3 + 2;
      for (const double* pv0 = &u0[3]; pv0 != pv1; ++pv0) {
        t4 += std::sin(*pv0);
      }
      auto pv2 = u0.begin() + 2;
      const auto pv3 = pv2 + 3;
      while (pv2 != pv3) {
        x2 += *pv2++ * -x1;
      }
      double t5 = x2;
      x2 = x2 * t5;
    }
  }
  return 0.5;
}

/* e2e
{"function": "fuzz_dead_primal_loop_nan_f", "points": [[1.40625, 1.546875, [0.71875, 1.25, -0.4375, 0.78125, -1.96875], -1.421875, 5, [0.71875, 1.265625, 1.359375, -0.5625, 1.875]], [0.109375, 1.703125, [-0.109375, -1.5625, -0.109375, -1.9375, 0.171875], 1.4375, 5, [-1.203125, 1.0, -0.234375, 0.859375, -1.328125]], [-1.953125, -1.140625, [-1.78125, 1.59375, 0.78125, -1.5, 1.359375], -1.859375, 5, [-1.96875, -1.703125, -0.125, -1.609375, 1.421875]], [-0.15625, -1.828125, [1.03125, 0.84375, -1.28125, 1.859375, 0.234375], -0.125, 5, [-0.359375, 0.359375, 0.375, -0.765625, -1.828125]]], "rtol": 1e-05, "atol": 1e-06, "flags": ["-Wno-unused-parameter", "-Wno-unused-variable", "-Wno-unused-but-set-variable", "-Wno-unused-but-set-parameter"]}
*/
