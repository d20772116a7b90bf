// Selection loops whose chosen branch computes the value it assigns
// (`if (x[i] > best) best = x[i];` reads x[i] again in the branch): the
// forward loop records the winner only, no tape of the running maximum
// (lib/ad/rev/selection.cpp), also in a helper called once per row.
#include <unfad/unfad.h>

#include <cmath>

// GradBench's log-sum-exp: the maximum found by an if.
UNFAD_GRADIENT double logsumexp_if(const double* x, int n) {
  double top = x[0];
  for (int i = 1; i < n; ++i)
    if (x[i] > top) top = x[i];
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += std::exp(x[i] - top);
  return top + std::log(s);
}

static double row_logsumexp(const double* v, int n) {
  double top = v[0];
  for (int i = 1; i < n; ++i)
    if (v[i] > top) top = v[i];
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += std::exp(v[i] - top);
  return top + std::log(s);
}

// The helper's pullback runs once per row (gmm's per-point log-sum-exp).
UNFAD_GRADIENT double rows_logsumexp_helper(const double* a, double w, int rows, int cols) {
  double total = 0.0;
  for (int r = 0; r < rows; ++r) total += w * row_logsumexp(a + r * cols, cols);
  return total;
}

struct Vec3 {
  double x, y, z;
};

static double dist2(const Vec3& a, const Vec3& b) {
  const double dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
  return dx * dx + dy * dy + dz * dz;
}

// The farthest of some points from a centre, through a helper in the branch.
UNFAD_GRADIENT double farthest(const double* pts, const double* centre, int n) {
  const Vec3 c{centre[0], centre[1], centre[2]};
  double best = 0.25;
  for (int i = 0; i < n; ++i) {
    const Vec3 p{pts[3 * i], pts[3 * i + 1], pts[3 * i + 2]};
    if (dist2(p, c) > best) best = dist2(p, c);
  }
  return std::sqrt(best);
}

// The else-branch chooses, through a conditional expression.
UNFAD_GRADIENT double scaled_min(const double* x, double w, int n) {
  double best = 1e300;
  for (int i = 0; i < n; ++i) best = best <= w * x[i] ? best : w * x[i];
  return best * w;
}

// Not a selection: the branch's value reads the state (a running blend).
UNFAD_GRADIENT double blend_up(const double* x, int n) {
  double a = x[0];
  for (int i = 1; i < n; ++i)
    if (x[i] > a) a = 0.5 * (a + x[i]);
  return a * a;
}

/* e2e
[{"function": "logsumexp_if", "points": [[[0.5, -1.25, 2.0, 0.75], 4], [[-0.5], 1], [[3.0, 1.0, -2.0], 3]],
  "value_formula": "log(sum(exp(x[i]) for i in range(n)))"},
 {"function": "rows_logsumexp_helper",
  "points": [[[0.5, -1.25, 2.0, 0.75, 0.1, 0.4], 1.5, 2, 3], [[0.5, 2.5, -0.5], -0.7, 1, 3]],
  "value_formula": "w * sum(log(sum(exp(a[r*cols+c]) for c in range(cols))) for r in range(rows))"},
 {"function": "farthest", "points": [[[0.5, -1.25, 2.0, 0.75, 0.1, 0.4, -0.3, 0.2, 0.9], [0.1, 0.2, 0.3], 3],
                                     [[0.1, 0.2, 0.35], [0.1, 0.2, 0.3], 1]],
  "value_formula": "sqrt(max([0.25] + [sum((pts[3*i+m]-centre[m])**2 for m in range(3)) for i in range(n)]))"},
 {"function": "scaled_min", "points": [[[0.5, -1.25, 2.0, 0.75], 1.3, 4], [[0.5, -1.25, 2.0], -0.4, 3]],
  "value_formula": "min(w*x[i] for i in range(n)) * w"},
 {"function": "blend_up", "points": [[[0.5, -1.25, 2.0, 0.75, 3.0], 5], [[0.5], 1]]}]
*/
