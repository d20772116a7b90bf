// Pointer walks and outputs written through views: `for (p = a; p != a +
// n; ++p)`, `*p++`-free while loops with `p < end` and `end - p`, `p += d`,
// `*(p + j)`, a struct element read through `p->field`, and
// `double* o = out + 2 * i; o[0] = ...; o[1] = ...;`.
#include <unfad/unfad.h>

#include <cmath>

struct Pt {
  double x, y;
};

UNFAD_GRADIENT double walk_squares(const double* a, int n) {
  double s = 0.0;
  for (const double* p = a; p != a + n; ++p) s += *p * *p;
  return s;
}

UNFAD_GRADIENT double walk_strided(const double* a, int n, int d) {
  const double* end = a + n * d;
  const double* p = a;
  double s = 0.0;
  while (p < end) {
    s += *(p + 1) * std::sin(p[0]) + static_cast<double>(end - p);
    p += d;
  }
  return s;
}

UNFAD_GRADIENT double struct_walk(const Pt* pts, int n) {
  double s = 0.0;
  for (const Pt* p = pts; p < pts + n; p++) s += p->x * p->y;
  return s;
}

UNFAD_GRADIENT void polar(const double* r, const double* t, int n, double* out) {
  for (int i = 0; i < n; ++i) {
    double* o = out + 2 * i;
    o[0] = r[i] * std::cos(t[i]);
    o[1] = r[i] * std::sin(t[i]);
  }
}

/* e2e
[{"function": "walk_squares",
  "points": [[[0.5, -1.0, 2.0], 3], [[1.5, 0.25], 2]],
  "grad_formula": ["[2 * v for v in a]"]},
 {"function": "walk_strided",
  "points": [[[0.5, -1.0, 2.0, 0.3, 1.1, -0.7], 3, 2], [[0.5, -1.0, 2.0, 0.3, 1.1, -0.7], 2, 3]],
  "value_formula": "sum(a[i*d+1] * sin(a[i*d]) + (n*d - i*d) for i in range(n))"},
 {"function": "struct_walk",
  "points": [[[[0.5, -1.0], [2.0, 0.3], [1.1, -0.7]], 3]],
  "grad_formula": ["[[p[1], p[0]] for p in pts]"]},
 {"function": "polar",
  "points": [[[0.5, 1.5, 2.0], [0.3, -1.0, 2.5], 3]],
  "outputs": {"out": 6}}]
*/
