// Reference locals written through: an accumulator into an output row
// (`double& acc = out[i]`), a second name of a scalar local (`double& r =
// s`, also bound inside a loop body), references to struct elements of a
// local array (`Acc& a = accs[i % 2]`), to a field (`double& cx = c.x`,
// `double& m = p->y`), into a pointer view, a const reference that sees a
// later write, and a reference whose index variable changes after it was
// bound (it keeps designating the element it was bound to).
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

struct Acc {
  double sum, sq;
};

struct Vec3 {
  double x, y, z;
};

UNFAD_GRADIENT void row_sums(const double* a, int n, int m, double* out) {
  for (int i = 0; i < n; ++i) {
    double& acc = out[i];
    acc = 0.0;
    for (int j = 0; j < m; ++j) acc += a[i * m + j] * a[i * m + j];
  }
}

UNFAD_GRADIENT double alias_sum(const double* x, int n) {
  double s = 0.0;
  double& r = s;
  for (int i = 0; i < n; ++i) r += std::sin(x[i]) * s + x[i];
  r *= 2.0;
  r = r * r;
  return s + r;
}

UNFAD_GRADIENT double alias_in_body(const double* x, int n) {
  double s = 1.0;
  for (int i = 0; i < n; ++i) {
    double& r = s;
    r = r * x[i] + 1.0;
  }
  return s;
}

UNFAD_GRADIENT double moments(const double* x, int n) {
  Acc accs[2] = {};
  for (int i = 0; i < n; ++i) {
    Acc& a = accs[i % 2];
    a.sum += x[i];
    a.sq += x[i] * x[i];
  }
  return accs[0].sq * accs[1].sum + accs[1].sq;
}

UNFAD_GRADIENT double field_refs(const double* x, int n) {
  Vec3 c{0.0, 1.0, 0.0};
  double& cx = c.x;
  std::vector<Vec3> pts(n);
  for (int i = 0; i < n; ++i) {
    cx += x[i];
    Vec3* p = pts.data() + i;
    double& m = p->y;
    m = x[i] * cx;
    pts[i].z = m + 1.0;
  }
  double t = 0.0;
  for (int i = 0; i < n; ++i) t += pts[i].y * pts[i].z;
  return t + c.x * c.y;
}

UNFAD_GRADIENT void pairs(const double* x, int n, double* out) {
  for (int i = 0; i < n; ++i) {
    double* o = out + 2 * i;
    double& first = o[0];
    double& second = *(o + 1);
    first = x[i];
    second = x[i] * x[i];
    first -= 3.0 * x[i];
  }
}

UNFAD_GRADIENT double bound_index(const double* x, int n) {
  double buf[4] = {1.0, 2.0, 3.0, 4.0};
  int k = 0;
  double& e = buf[k];
  k = 2;
  for (int i = 0; i < n; ++i) {
    e += x[i];
    buf[k] += x[i] * e;
    e = e * 2.0;
  }
  const double& v = buf[k];
  buf[k] = buf[k] * buf[0];
  return v + buf[0];
}

/* e2e
[{"function": "row_sums",
  "points": [[[0.5, -1.0, 2.0, 0.3, 1.1, -0.7], 2, 3]],
  "outputs": {"out": 2},
  "grad_formula": ["[2 * a[k] * w_out[k // m] for k in range(n * m)]"]},
 {"function": "alias_sum",
  "points": [[[0.5, -1.0, 2.0], 3], [[0.25, 0.75], 2]]},
 {"function": "alias_in_body",
  "points": [[[0.5, -1.0, 2.0], 3], [[0.25, 0.75], 2]]},
 {"function": "moments",
  "points": [[[0.5, -1.0, 2.0, 0.3, 1.1], 5]],
  "value_formula": "sum(v*v for v in x[0::2]) * sum(x[1::2]) + sum(v*v for v in x[1::2])"},
 {"function": "field_refs",
  "points": [[[0.5, -1.0, 2.0], 3], [[0.25, 0.75], 2]]},
 {"function": "pairs",
  "points": [[[0.5, -1.0, 2.0], 3]],
  "outputs": {"out": 6},
  "grad_formula": ["[w_out[2*i] * (1 - 3) + w_out[2*i+1] * 2 * x[i] for i in range(n)]"]},
 {"function": "bound_index",
  "points": [[[0.5, -1.0, 2.0], 3], [[0.25], 1]]}]
*/
