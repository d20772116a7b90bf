// Helpers returning a pointer into one of their array arguments: a row of
// a matrix (`row(A, i, n)`, then indexed or passed on), and a copy into a
// destination that returns the advanced destination, called in sequence
// and in a loop (`d = copy_to(src, n, d)`).
#include <unfad/unfad.h>

#include <cmath>

static const double* row(const double* a, int i, int n) { return a + i * n; }

static double* copy_to(const double* src, int n, double* dst) {
  for (int i = 0; i < n; ++i) dst[i] = src[i];
  return dst + n;
}

static double dot(const double* a, const double* b, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

UNFAD_GRADIENT double rows_dot(const double* A, const double* x, int m, int n) {
  double s = 0.0;
  for (int i = 0; i < m; ++i) {
    const double* r = row(A, i, n);
    s += std::exp(dot(r, x, n)) + row(A, i, n)[0] * x[0];
  }
  return s;
}

UNFAD_GRADIENT void concat(const double* a, const double* b, int n, double* out) {
  double buf[6];
  double* end = copy_to(a, n, buf);
  end = copy_to(b, n, end);
  for (int i = 0; i < 2 * n; ++i) out[i] = buf[i] * buf[(i + 1) % (2 * n)];
}

UNFAD_GRADIENT double gather(const double* a, int m, int n) {
  double buf[8];
  double* d = buf;
  for (int i = 0; i < m; ++i) d = copy_to(row(a, m - 1 - i, n), n, d);
  double s = 0.0;
  for (int k = 0; k < m * n; ++k) s += buf[k] * buf[k] * a[k];
  return s + dot(row(buf, 1, n), a, n);
}

/* e2e
[{"function": "rows_dot",
  "points": [[[0.5, -0.3, 0.2, 0.7, 0.1, -0.4], [1.5, -0.5, 0.25], 2, 3]]},
 {"function": "concat",
  "points": [[[0.5, -0.3, 0.2], [0.7, 0.1, -0.4], 3]],
  "outputs": {"out": 6}},
 {"function": "gather",
  "points": [[[0.5, -0.3, 0.2, 0.7, 0.1, -0.4, 0.3, 0.9], 4, 2]]}]
*/
