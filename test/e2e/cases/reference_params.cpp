// Helpers that update their arguments in place through non-const reference
// parameters: an accumulator (`accumulate(total, x[i])` into a local,
// `accumulate(out[i], x[i])` into an output row), `axpy(double& y, double a,
// double x)`, a helper that returns a value and advances a state, one with a
// loop, a nested call, struct references into std::vector<Vec3> elements and
// into a local struct, an int counter, and one variable passed to two
// reference parameters (each write is seen through the other name).
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

struct Vec3 {
  double x, y, z;
};

static void accumulate(double& acc, double v) { acc += v * v; }

static void axpy(double& y, double a, double x) { y += a * x; }

static void axpy_twice(double& y, double a, double x) {
  axpy(y, a, x);
  axpy(y, a, x * x);
}

static double relax(double& state, double u) {
  if (u > 2.0) {
    state = u;
    return 0.0;
  }
  state = 0.5 * state + std::sin(u);
  return state * state;
}

static void sum_squares(double& acc, const double* x, int n) {
  for (int i = 0; i < n; ++i) acc += x[i] * x[i];
}

static void add_scaled(Vec3& acc, const Vec3& p, double w) {
  acc.x += w * p.x;
  acc.y += w * p.y;
  acc.z += w * p.z;
}

static void next(int& k) { ++k; }

// the first element above the threshold, added in; how many were looked at
static int add_first_above(double& acc, const double* x, int n, double threshold) {
  double& target = acc;
  for (int i = 0; i < n; ++i) {
    if (x[i] > threshold) {
      target += x[i] * x[i];
      return i + 1;
    }
    target -= 0.1 * x[i];
  }
  return n;
}

static void mix(double& a, double& b) {
  a += b;
  b *= a;
}

UNFAD_GRADIENT double total_energy(const double* x, int n) {
  double total = 0.0;
  for (int i = 0; i < n; ++i) accumulate(total, x[i]);
  accumulate(total, total);
  return total;
}

UNFAD_GRADIENT void squares_into(const double* x, int n, double* out) {
  for (int i = 0; i < n; ++i) {
    out[i] = 1.0;
    accumulate(out[i], x[i]);
  }
}

UNFAD_GRADIENT double dot_axpy(const double* x, const double* y, int n, double a) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) axpy_twice(s, a * y[i], x[i]);
  return s;
}

UNFAD_GRADIENT double filtered(const double* u, int n) {
  double state = 0.25;
  double cost = 0.0;
  for (int i = 0; i < n; ++i) cost += relax(state, u[i]);
  return cost + state;
}

UNFAD_GRADIENT double rows_energy(const double* x, int n, int m) {
  double e = 0.0;
  for (int i = 0; i < n; ++i) sum_squares(e, x + i * m, m);
  return std::sqrt(e);
}

UNFAD_GRADIENT void weighted_centroids(const std::vector<Vec3>& p, const double* w, int n, std::vector<Vec3>& out) {
  Vec3 c{0.0, 0.0, 0.0};
  for (int i = 0; i < n; ++i) {
    add_scaled(out[i % 2], p[i], w[i]);
    add_scaled(c, p[i], w[i] * w[i]);
  }
  out[2] = c;
}

UNFAD_GRADIENT double every_other(const double* x, int n) {
  double s = 0.0;
  int k = 0;
  while (k < n) {
    s += x[k] * x[k];
    next(k);
    next(k);
  }
  return s;
}

UNFAD_GRADIENT double mixed(double x, double y) {
  double s = x, t = y;
  mix(s, t);
  mix(t, t);
  return s * t;
}

UNFAD_GRADIENT double scan(const double* x, int n) {
  double s = 1.0;
  int seen = add_first_above(s, x, n, 0.8);
  if (seen < n) seen += add_first_above(s, x + seen, n - seen, 0.8);
  return s * seen;
}

/* e2e
[{"function": "total_energy",
  "points": [[[0.5, -1.0, 2.0], 3], [[0.25, 0.75], 2]],
  "value_formula": "sum(v*v for v in x) + sum(v*v for v in x)**2"},
 {"function": "squares_into",
  "points": [[[0.5, -1.0, 2.0], 3]],
  "outputs": {"out": 3},
  "grad_formula": ["[2 * x[i] * w_out[i] for i in range(n)]"]},
 {"function": "dot_axpy",
  "points": [[[0.5, -1.0, 2.0], [1.5, 0.25, -0.5], 3, 0.75]],
  "value_formula": "sum(a * y[i] * (x[i] + x[i]**2) for i in range(n))"},
 {"function": "filtered",
  "points": [[[0.5, -1.0, 2.5, 0.3], 4], [[1.5, 0.25], 2]]},
 {"function": "rows_energy",
  "points": [[[0.5, -1.0, 2.0, 0.3, 1.1, -0.7], 2, 3]],
  "value_formula": "sqrt(sum(v*v for v in x))"},
 {"function": "weighted_centroids",
  "points": [[[[1.0, -2.0, 0.5], [0.25, 3.0, -1.5], [2.0, 0.75, 1.25]], [0.5, -1.5, 2.0], 3]],
  "outputs": {"out": 3}},
 {"function": "every_other",
  "points": [[[0.5, -1.0, 2.0, 0.3, 1.1], 5]],
  "value_formula": "sum(v*v for v in x[0::2])"},
 {"function": "mixed",
  "points": [[0.5, -1.25], [1.5, 0.75]],
  "value_formula": "4 * y**2 * (x + y)**3",
  "grad_formula": ["12 * y**2 * (x + y)**2", "8 * y * (x + y)**3 + 12 * y**2 * (x + y)**2"]},
 {"function": "scan",
  "points": [[[0.5, -1.0, 2.0, 0.3, 1.1, -0.7], 6], [[0.25, 0.5], 2]]}]
*/
