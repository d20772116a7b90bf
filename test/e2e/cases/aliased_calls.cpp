// A helper given one array twice, as an input and as the output it writes
// (`axpy(y, y, ...)`, overlapping views `shift(a, a + 1, n)`): the call is
// inlined, so reverse mode sees the stores as they happen and saves what
// each overwrites; the gradient is that of the code as it runs.
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

static void axpy(double a, const double* x, double* y, int n) {
  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}

// y <- a y + y = (1 + a) y, then the sum of squares
UNFAD_GRADIENT double self_axpy(const double* v, int n, double a) {
  std::vector<double> y(v, v + n);
  axpy(a, y.data(), y.data(), n);
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += y[i] * y[i];
  return s;
}

static void smooth_into(const double* in, double* out, int n) {
  for (int i = 0; i < n; ++i) out[i] = std::sin(in[i]) + 0.5 * in[i + 1];
}

// A shift through overlapping views of one buffer: each out[i] = b[i+1]
// reads b[i+1] and b[i+2] before they are overwritten (ascending i).
UNFAD_GRADIENT double shifted(const double* x, int n) {
  std::vector<double> b(x, x + n);
  smooth_into(b.data() + 1, b.data(), n - 2);
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += (i + 1) * b[i];
  return s;
}

// The same on the output itself.
UNFAD_GRADIENT void shifted_out(const double* x, int n, double* out) {
  for (int i = 0; i < n; ++i) out[i] = x[i] * x[i];
  smooth_into(out + 1, out, n - 2);
}

/* e2e
[{"function": "self_axpy", "points": [[[0.5, -1.25, 2.0], 3, 0.75], [[1.5], 1, -2.0]],
  "value_formula": "(1 + a)**2 * sum(t*t for t in v)",
  "grad_formula": ["[2*(1 + a)**2*v[i] for i in range(n)]", "2*(1 + a)*sum(t*t for t in v)"]},
 {"function": "shifted", "points": [[[0.5, -1.25, 2.0, 0.75, 1.5], 5], [[1.0, 0.3, -0.7, 2.2], 4]]},
 {"function": "shifted_out", "outputs": {"out": 5}, "points": [[[0.5, -1.25, 2.0, 0.75, 1.5], 5]]}]
*/
