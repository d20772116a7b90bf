// Found by test/fuzz/fuzz.py (feature alias, unfad-fuzz:1:94), shrunk. FIXED (the same partial-evaluation bug as fuzz_inout_nested_step_loops: a
// load shared across a loop that writes the renamed array): a helper writing a local array through a view
// (`scale(&u0[i3 * 2], 2, c)`, reading and rewriting o[j]) called in a loop
// inside an if, then another in-place helper (`axpy`) on the array in a
// loop: d/da0[0] is wrong (0.6996 where finite differences give 0.7466).
// Without the if, without the first loop, or without the second loop, it
// passes.
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <vector>

struct fuzz_f4767c628c_V2 {
  double x, y;
};
void fuzz_f4767c628c_scale1(double* o, int m, double y) {
  for (int j = m - 1; j >= 0; --j) {
    o[j] = o[j] * y + 0.25 * std::sin(o[j]);
  }
}
void fuzz_f4767c628c_axpy2(double* o, const double* u, int m, double y) {
  for (int j = 0; j < m; ++j) {
    o[j] = o[j] + y * std::sin(u[j]);
  }
}
UNFAD_GRADIENT double fuzz_f4767c628c_f(int n, double x0, const std::vector<double>& a0, int k0, double* out, double x1) {
  std::vector<double> u0{x0, a0[0], x1};
  if (k0 == 0) {
    for (int i3 = 0; i3 < 1; ++i3) {
      fuzz_f4767c628c_scale1(&u0[i3 * 2], 2, 1.0);
    }
  }
  for (int i6 = 0; i6 < 1; ++i6) {
    fuzz_f4767c628c_axpy2(u0.data() + n - 3, &a0[0], n, 1.5);
  }
  for (int i7 = 0; i7 < n; ++i7) {
    out[i7] = u0[i7];
  }
  return x1;
}

/* e2e
{"function": "fuzz_f4767c628c_f", "points": [[3, -0.4375, [1.5625, -0.75, 0.6875], 0, null, -1.328125], [3, 1.015625, [-1.4375, 1.71875, 0.890625], 0, null, -1.203125], [3, 1.65625, [1.625, -0.8125, -0.890625], 0, null, 0.703125], [3, 0.8125, [-0.828125, -1.875, 0.515625], 2, null, 1.53125]], "rtol": 1e-05, "atol": 1e-06, "flags": ["-Wno-unused-parameter", "-Wno-unused-variable", "-Wno-unused-but-set-variable", "-Wno-unused-but-set-parameter"], "outputs": {"out": 3}}
*/
