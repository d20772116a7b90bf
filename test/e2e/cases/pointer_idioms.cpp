// C's pointer idioms as people write them: a pointer parameter moved in
// place (`++x`, `c += n` then `*--c`), `*p++` inside expressions (`s += *a++
// * *b++`, `*dst++ = s * *src++`), and loop conditions with side effects
// (`while (n--)`, `for (; n-- > 0;)`, `do ... while (--k)`, a condition
// calling a helper that advances its `int&` argument, `while (k++ < n)`,
// `while (++m, m <= n)`, a `for` with an increment and such a condition).
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double sum_squares(const double* x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    s += *x * *x;
    ++x;
  }
  return s;
}

UNFAD_GRADIENT double dot_walk(const double* a, const double* b, int n) {
  const double* end = a + n;
  double s = 0.0;
  while (a != end) s += *a++ * std::sin(*b++);
  return s;
}

// Horner's rule from the highest coefficient down
UNFAD_GRADIENT double horner(const double* c, int n, double x) {
  c += n;
  double r = 0.0;
  while (n--) r = r * x + *--c;
  return r;
}

// a helper that moves both its pointers and counts down its length
static void axpy(double* y, const double* x, double a, int n) {
  while (n--) *y++ += a * *x++;
}

UNFAD_GRADIENT void axpy_twice(const double* x, double a, int n, double* y) {
  axpy(y, x, a, n);
  axpy(y, x, a * a, n);
}

static void copy_scaled(double* dst, const double* src, int n, double s) {
  while (n-- > 0) *dst++ = s * *src++;
}

UNFAD_GRADIENT double scaled_norm(const double* v, int n, double s) {
  double w[8];
  copy_scaled(w, v, n, s);
  double r = 0.0;
  for (; n-- > 0;) r += w[n] * w[n] * (n + 1);
  return std::sqrt(r);
}

static bool advance(int& k, int n) { return ++k < n; }

UNFAD_GRADIENT double stepped(const double* x, int n) {
  int k = 0;
  double s = x[0];
  while (advance(k, n)) s = s * x[k] + std::exp(-x[k]);
  int left = n;
  do {
    s += 0.5 * x[left - 1] * s;
  } while (--left);
  int j = 0;
  while (j++ < n) s += 0.1 * x[j - 1] * x[j - 1];
  int m = 0;
  while (++m, m <= n) s -= 0.05 * std::cos(x[m - 1]);
  for (int i = 0; j-- > 1; i += 2) s += 0.01 * i * x[j - 1];
  return s;
}

/* e2e
[{"function": "sum_squares",
  "points": [[[0.5, -1.0, 2.0], 3], [[1.5, 0.25], 2]],
  "value_formula": "sum(v * v for v in x)",
  "grad_formula": ["[2 * v for v in x]"]},
 {"function": "dot_walk",
  "points": [[[0.5, -1.0, 2.0], [0.3, 1.1, -0.7], 3]],
  "value_formula": "sum(a[i] * sin(b[i]) for i in range(n))"},
 {"function": "horner",
  "points": [[[0.5, -1.0, 2.0, 0.75], 4, 1.3], [[2.0], 1, -0.4]],
  "value_formula": "sum(c[i] * x ** i for i in range(n))"},
 {"function": "axpy_twice",
  "points": [[[0.5, -1.0, 2.0], 0.7, 3, [0.2, 0.4, -0.6]]],
  "inouts": {"y": 3}},
 {"function": "scaled_norm",
  "points": [[[0.5, -1.0, 2.0, 0.3], 4, 1.7], [[1.5], 1, -0.3]],
  "value_formula": "sqrt(sum((s * v[i]) ** 2 * (i + 1) for i in range(n)))"},
 {"function": "stepped",
  "points": [[[0.5, -1.0, 0.8, 0.3], 4], [[0.9], 1]]}]
*/
