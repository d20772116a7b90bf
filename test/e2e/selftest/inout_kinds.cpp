// For the harness's self-test (not an e2e case): in/out array parameters (the
// spec's "inouts"), which f reads and then advances in place, in the array
// forms the harness passes, each with a hand-derived gradient. w_<name> in the
// formulas is the cotangent of the parameter's final value; the gradient with
// respect to an in/out parameter is the one with respect to its initial value
// (what d_<name> holds when f_grad returns).
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

struct Phase {
  double q, p;
};

// double* y advanced by one explicit Euler step of y' = k y
UNFAD_GRADIENT void euler_step(double* y, const double* k, double h, int n) {
  for (int i = 0; i < n; ++i) y[i] += h * k[i] * y[i];
}

// std::vector<double>& y relaxed in place (each element reads its neighbour's
// old value), returning the energy it had on entry
UNFAD_GRADIENT double relax(std::vector<double>& y, double a) {
  double energy = 0.0;
  for (double v : y) energy += v * v;
  for (std::size_t i = 0; i + 1 < y.size(); ++i) y[i] = a * y[i] + y[i + 1];
  return energy;
}

// std::array<double, 2>& y rotated by t
UNFAD_GRADIENT void rotate(std::array<double, 2>& y, double t) {
  const double c = std::cos(t);
  const double s = std::sin(t);
  const double x0 = y[0];
  y[0] = c * x0 - s * y[1];
  y[1] = s * x0 + c * y[1];
}

// double y[] squared in place, with an output beside it
UNFAD_GRADIENT void square_and_sum(double y[], int n, double* total) {
  total[0] = 0.0;
  for (int i = 0; i < n; ++i) {
    total[0] += y[i];
    y[i] = y[i] * y[i];
  }
}

// float* y damped by k, returning the work done
UNFAD_GRADIENT float damp(float* y, const float* k, int n) {
  float work = 0.0f;
  for (int i = 0; i < n; ++i) {
    work += y[i] * k[i];
    y[i] *= k[i];
  }
  return work;
}

// double (&y)[3] accumulated forward, returning its new last element
UNFAD_GRADIENT double cascade(double (&y)[3], double g) {
  y[1] += g * y[0];
  y[2] += g * y[1];
  return y[2];
}

// an array of structs advanced by a symplectic Euler step
UNFAD_GRADIENT void leapfrog(Phase* s, int n, double dt) {
  for (int i = 0; i < n; ++i) {
    s[i].q += dt * s[i].p;
    s[i].p -= dt * s[i].q;
  }
}

// std::vector of structs: a kick to the momenta
UNFAD_GRADIENT void kick(std::vector<Phase>& s, double force) {
  for (Phase& x : s) x.p += force * x.q;
}

// std::array<float, 3>& y scaled, returning its old sum
UNFAD_GRADIENT float scale_f(std::array<float, 3>& y, float c) {
  float sum = 0.0f;
  for (float& v : y) {
    sum += v;
    v *= c;
  }
  return sum;
}

/* e2e
[{"function": "euler_step", "inouts": {"y": 3},
  "points": [[[1.0, -0.5, 2.0], [0.3, 1.2, -0.7], 0.1, 3], [[0.25, 4.0, -1.5], [2.0, -1.0, 0.5], 0.5, 3]],
  "grad_formula": ["[w_y[i]*(1 + h*k[i]) for i in range(n)]",
                   "[w_y[i]*h*y[i] for i in range(n)]",
                   "sum(w_y[i]*k[i]*y[i] for i in range(n))"]},
 {"function": "relax", "inouts": {"y": 4},
  "points": [[[1.0, -2.0, 0.5, 3.0], 0.75]],
  "value_formula": "sum(v*v for v in y)",
  "grad_formula": ["[2*y[j] + (a*w_y[j] if j < 3 else w_y[j]) + (w_y[j-1] if j > 0 else 0) for j in range(4)]",
                   "sum(w_y[i]*y[i] for i in range(3))"]},
 {"function": "rotate", "inouts": {"y": 2},
  "points": [[[1.5, -0.5], 0.3]],
  "grad_formula": ["[cos(t)*w_y[0] + sin(t)*w_y[1], -sin(t)*w_y[0] + cos(t)*w_y[1]]",
                   "w_y[0]*(-sin(t)*y[0] - cos(t)*y[1]) + w_y[1]*(cos(t)*y[0] - sin(t)*y[1])"],
  "expect": [{"at": [[1.5, -0.5], 0.3], "grad": [[-0.8337230, 1.0521644], 1.1613851]}]},
 {"function": "square_and_sum", "outputs": {"total": 1}, "inouts": {"y": 3},
  "points": [[[1.0, 2.0, -0.5], 3]],
  "grad_formula": ["[w_total[0] + 2*w_y[i]*y[i] for i in range(n)]"]},
 {"function": "damp", "inouts": {"y": 3},
  "points": [[[1.0, -2.0, 0.5], [0.5, 0.25, 2.0], 3]],
  "value_formula": "sum(y[i]*k[i] for i in range(n))",
  "grad_formula": ["[k[i]*(1 + w_y[i]) for i in range(n)]", "[y[i]*(1 + w_y[i]) for i in range(n)]"]},
 {"function": "cascade", "inouts": {"y": 3},
  "points": [[[1.0, -0.5, 2.0], 0.7]],
  "value_formula": "y[2] + g*(y[1] + g*y[0])",
  "grad_formula": ["[(1 + w_y[2])*g*g + w_y[1]*g + w_y[0], (1 + w_y[2])*g + w_y[1], 1 + w_y[2]]",
                   "(1 + w_y[2])*(y[1] + 2*g*y[0]) + w_y[1]*y[0]"]},
 {"function": "leapfrog", "inouts": {"s": 2},
  "points": [[[[1.0, 0.5], [-0.25, 2.0]], 2, 0.1]],
  "grad_formula": ["[[w_s[i][0] - dt*w_s[i][1], dt*w_s[i][0] + (1 - dt*dt)*w_s[i][1]] for i in range(n)]",
                   "sum(w_s[i][0]*s[i][1] - w_s[i][1]*(s[i][0] + 2*dt*s[i][1]) for i in range(n))"]},
 {"function": "kick", "inouts": {"s": 3},
  "points": [[[[1.0, 0.5], [-0.25, 2.0], [0.75, -1.0]], 0.4]],
  "grad_formula": ["[[w[0] + force*w[1], w[1]] for w in w_s]",
                   "sum(w_s[i][1]*s[i][0] for i in range(3))"]},
 {"function": "scale_f", "inouts": {"y": 3},
  "points": [[[1.0, -2.0, 0.5], 1.5]],
  "value_formula": "sum(y)",
  "grad_formula": ["[1 + c*w for w in w_y]", "sum(w*v for w, v in zip(w_y, y))"]}]
*/
