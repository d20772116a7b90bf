// Second derivatives by reverse over reverse: a marked function
// that calls the generated gradient of another marked function (rosenbrock_grad,
// which does not exist in this file) is differentiated too, in the same run
// of unfad. The gradient of v . grad f(x) in x is the Hessian-vector product
// H(x) v. Checked against finite differences of the first-order gradient
// and against the hand-derived Hessian of Rosenbrock's function.
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

UNFAD_GRADIENT double rosenbrock(const double* x, int n) {
  double s = 0.0;
  for (int i = 0; i + 1 < n; ++i) {
    const double a = 1.0 - x[i], b = x[i + 1] - x[i] * x[i];
    s += a * a + 100.0 * b * b;
  }
  return s;
}

// v . grad rosenbrock(x)
UNFAD_GRADIENT_WRT(x) double rosenbrock_dir(const double* x, const double* v, int n) {
  std::vector<double> g(n, 0.0);
  rosenbrock_grad(x, n, g.data());
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += g[i] * v[i];
  return s;
}

// A Newton step's ingredients for a separable energy, whose Hessian is
// diagonal: its diagonal is H times a vector of ones (the shape of
// GradBench's k-means Hessian).
UNFAD_GRADIENT double energy(const std::vector<double>& x) {
  double s = 0.0;
  for (double t : x) s += std::cos(t) * t * t;
  return s;
}

UNFAD_GRADIENT double energy_curvature(const std::vector<double>& x) {
  std::vector<double> g(x.size(), 0.0);
  energy_grad(x, g);
  double s = 0.0;
  for (double t : g) s += t;
  return s;
}

/* e2e
[{"function": "rosenbrock_dir",
  "points": [[[0.5, -1.25, 2.0], [1.0, 0.5, -0.25], 3], [[1.5, 0.3, -0.7, 1.1], [0.2, -1.0, 0.4, 0.9], 4],
             [[0.8], [1.0], 1]],
  "grad_formula": ["[((2 + 1200*x[i]**2 - 400*x[i+1])*v[i] - 400*x[i]*v[i+1] if i + 1 < n else 0) + (200*v[i] - 400*x[i-1]*v[i-1] if i > 0 else 0) for i in range(n)]"]},
 {"function": "energy_curvature",
  "points": [[[0.5, -1.25, 2.0, 0.1]], [[3.0]]],
  "grad_formula": ["[(2 - t*t)*cos(t) - 4*t*sin(t) for t in x]"]}]
*/
