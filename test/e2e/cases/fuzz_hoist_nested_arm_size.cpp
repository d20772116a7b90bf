// Found by test/fuzz/fuzz.py --features base,loops,arrays,outputs (unfad-fuzz:1:26),
// shrunk: unfad crashed ("C++ printer: unbound variable"). The backward
// sweep of the i17 loop allocates the tapes of the i19 loop in the arm of an
// `if` nested in another arm; hoist-invariants moved that tape's size
// (`n - 1 + 1`) before the i17 loop, but not `n - 1`, a let of the outer arm
// it reads. A nested arm now hoists nothing that reads its enclosing arm's
// lets (lib/opt/hoist_invariants.cpp, hoistFromArm).
#include <unfad/unfad.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <iterator>
#include <numeric>
#include <vector>

struct fuzz_hoist_nested_arm_size_V2 {
  double x, y;
};
UNFAD_GRADIENT double fuzz_hoist_nested_arm_size_f(const std::vector<double>& a0, int n, double x0, double x1) {
  double t3 = 0.5;
  t3--;
  int m0 = n + 2;
  fuzz_hoist_nested_arm_size_V2 v0 = fuzz_hoist_nested_arm_size_V2{0.5, std::asin(0.6 * std::cos(x1))};
  bool c4 = (x0 - x1) > std::cos(x1);
  double t5 = tanh(std::cos(x0 * x0));
  t5 -= atan((-1.0) * x0);
  fuzz_hoist_nested_arm_size_V2 v1 = v0;
  c4 = c4 || c4;
  int m4 = n * 2;
  bool c7 = std::exp2(sin(x0)) >= v1.y;
  double t14 = a0[0];
  double t17 = log(1.0 + (t5 * t5));
  for (int i17 = 0; i17 < n; ++i17) {
    if (m0 < 1) {
      t17 += std::tanh(t17);
    } else if (c7) {
      bool c8 = a0[n - 1 - i17] <= (-1.0);
    } else if (erf(a0[n - 1 - i17]) >= a0[n - 1 - i17]) {
      fuzz_hoist_nested_arm_size_V2 v2 = v1;
      t5 *= 0.5 * sin(t14);
      for (int i19 = n - 1; i19 >= 0; --i19) {
        x1 *= 2.0 * atan(a0[i17] - a0[i19]);
        t17 += a0[n - 1 - i17];
      }
    } else {
      double t20 = a0[i17];
    }
    ++x1;
  }
  std::vector<double> u4(n, 0.5 * std::tanh(1.25));
  double t24 = std::cbrt(2.5 + std::atan(t17));
  return (((t17 - x0) + v0.y) + v1.y) * u4[0];
}

/* e2e
{"function": "fuzz_hoist_nested_arm_size_f", "points": [[[-0.875, 1.921875, 0.828125, 1.21875], 4, -1.484375, -0.890625], [[1.390625, 0.640625, -0.140625, -0.15625], 4, 0.296875, -1.609375], [[1.21875, 0.828125, 1.671875, -0.90625], 4, -0.1875, 0.40625], [[1.171875, -1.25, -0.421875, 1.796875], 4, 1.921875, -0.640625]], "rtol": 1e-05, "atol": 1e-06, "flags": ["-Wno-unused-parameter", "-Wno-unused-variable", "-Wno-unused-but-set-variable", "-Wno-unused-but-set-parameter"]}
*/
