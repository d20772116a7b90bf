// Found by test/fuzz/fuzz.py --features base,loops,arrays (unfad-fuzz:2:69), shrunk
// (then by hand): an early return on one path, then a loop that rewrites a local
// array. f_grad runs the continuation once for the value (squaring u in place),
// then runs the loop again from the squared values to record its tape, without
// restoring u: at x = -1.40625 d/dx = 3.955 (2 x^2) instead of -2.8125 (2 x).
// Without the early return the gradient is right. The second function (from
// unfad-fuzz:2:120) shows the same without a loop: an in-place update after the
// join is applied twice (d/dy = -0.5 (1 + y) instead of -0.5).
#include <unfad/unfad.h>

#include <vector>

UNFAD_GRADIENT double fuzz_early_return_array_loop(double x, int n) {
  std::vector<double> u(n, x);
  if (x > 0.1) return x;
  for (int i = 0; i < n; ++i) {
    u[i] = u[i] * u[i];
  }
  return u[0];
}

UNFAD_GRADIENT double fuzz_early_return_array_store(double x, double y) {
  std::vector<double> u(1);
  u[0] -= 0.5;
  if (x > 0.5) return 0.5 * x;
  u[0] += u[0] * y;
  return u[0];
}

/* e2e
[{"function": "fuzz_early_return_array_loop",
  "points": [[-1.40625, 2], [-0.5, 1], [-1.671875, 3], [1.25, 2]],
  "value_formula": "x if x > 0.1 else x*x",
  "grad_formula": ["1 if x > 0.1 else 2*x"]},
 {"function": "fuzz_early_return_array_store",
  "points": [[0.25, 1.921875], [-1.0, 0.234375], [1.5, 0.5]],
  "value_formula": "0.5*x if x > 0.5 else -0.5 - 0.5*y",
  "grad_formula": ["0.5 if x > 0.5 else 0", "0 if x > 0.5 else -0.5"]}]
*/
