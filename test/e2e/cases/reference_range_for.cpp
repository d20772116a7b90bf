// Range-based for loops by non-const reference, written through: each
// iteration's variable designates the element (a write is seen by a later
// read of the element, in this iteration and after the loop), over a local
// vector of numbers, a local array of structs, and an output.
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

struct Particle {
  double pos, vel;
};

UNFAD_GRADIENT double normalized_dot(const std::vector<double>& x) {
  std::vector<double> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) y[i] = x[i];
  double total = 0.0;
  for (double& v : y) {
    v = v * v + 1.0;
    total += v;
  }
  for (double& v : y) v /= total;
  double s = 0.0;
  for (size_t i = 0; i < y.size(); ++i) s += y[i] * x[i];
  return s;
}

UNFAD_GRADIENT double drift(const double* v0, int n, double dt) {
  std::vector<Particle> ps(n);
  for (int i = 0; i < n; ++i) ps[i].vel = v0[i];
  for (int step = 0; step < 3; ++step)
    for (auto& p : ps) {
      p.pos += dt * p.vel;
      p.vel -= dt * std::sin(p.pos);
    }
  double e = 0.0;
  for (const auto& p : ps) e += p.pos * p.pos + p.vel;
  return e;
}

UNFAD_GRADIENT void fill_then_add(const std::vector<double>& x, std::vector<double>& out) {
  for (double& o : out) o = 0.5;
  for (size_t i = 0; i < x.size(); ++i) out[i] += x[i] * x[i];
}

/* e2e
[{"function": "normalized_dot",
  "points": [[[0.5, -1.0, 2.0]], [[0.25, 0.75]]],
  "value_formula": "sum((v*v + 1) * v for v in x) / sum(v*v + 1 for v in x)"},
 {"function": "drift",
  "points": [[[0.5, -1.0, 2.0], 3, 0.1], [[0.25, 0.75], 2, 0.3]]},
 {"function": "fill_then_add",
  "points": [[[0.5, -1.0, 2.0]]],
  "outputs": {"out": 3},
  "grad_formula": ["[2 * x[i] * w_out[i] for i in range(len(x))]"]}]
*/
