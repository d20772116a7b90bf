// Writes through the references functions return: an accessor into a
// vector written with `=`, `+=` and `++`, a non-const reference bound to
// the larger of two elements (`double& m = larger(w, 0, 1); m *= 2`), a
// method of a class owning a vector whose body computes the index before
// `return data[k];`, a method returning a reference to one of its object's
// fields, a helper returning a field of a struct passed by reference (and
// a field of an element of a vector of structs), a returned reference
// passed on to a reference parameter, and a reference returned through
// two helpers.
#include <unfad/unfad.h>

#include <cstddef>
#include <vector>

static double& at(std::vector<double>& v, int i) { return v[static_cast<size_t>(i)]; }

static double& larger(double* v, int i, int j) { return v[i] > v[j] ? v[i] : v[j]; }

static double& last(std::vector<double>& v) { return at(v, static_cast<int>(v.size()) - 1); }

static void accumulate(double& acc, double x) { acc += x * x; }

struct Grid {
  int nx, ny;
  std::vector<double> data;
  Grid(int x, int y) : nx(x), ny(y), data(static_cast<size_t>(x * y), 0.0) {}
  double& at(int i, int j) {
    const int k = i * ny + j;
    return data[static_cast<size_t>(k)];
  }
  double get(int i, int j) const { return data[static_cast<size_t>(i * ny + j)]; }
};

class Spring {
public:
  Spring(double k, double rest) : k_(k), rest_(rest) {}
  double& stiffness() { return k_; }
  double energy(double x) const { return 0.5 * k_ * (x - rest_) * (x - rest_); }

private:
  double k_, rest_;
};

struct Particle {
  double x, v, w;
};

static double& weight(Particle& p) { return p.w; }

UNFAD_GRADIENT double accessor_writes(const double* x, int n, double s) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) at(v, i) = s * x[i];
  for (int i = 1; i < n; ++i) at(v, i) += v[static_cast<size_t>(i - 1)] * x[i];
  ++at(v, 0);
  last(v) *= s;
  accumulate(at(v, 0), x[n - 1]);
  double r = 0.0;
  for (int i = 0; i < n; ++i) r += at(v, i) * at(v, i);
  return r;
}

UNFAD_GRADIENT double larger_doubled(double a, double b, double c) {
  double w[3] = {a * c, b, c};
  double& m = larger(w, 0, 1);
  m *= 2.0;
  m += c * c;
  larger(w, 1, 2) -= a;
  return w[0] * w[1] + w[2];
}

UNFAD_GRADIENT double grid_energy(const double* u, int n) {
  Grid g(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) g.at(i, j) = u[i] * u[j];
  for (int i = 0; i < n; ++i) g.at(i, i) += u[i];
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) s += g.get(i, j) * g.get(j, i) + g.at(i, j);
  return s;
}

UNFAD_GRADIENT double stiffened(double k, double x) {
  Spring sp(k, 1.0);
  sp.stiffness() *= 1.0 + x * x;
  double& kk = sp.stiffness();
  kk += k;
  return sp.energy(x) + kk;
}

UNFAD_GRADIENT double weighted(const double* x, int n) {
  std::vector<Particle> ps(static_cast<size_t>(n), Particle{0.0, 0.0, 1.0});
  Particle q{x[0], x[1], 0.5};
  for (int i = 0; i < n; ++i) {
    ps[static_cast<size_t>(i)].x = x[i];
    weight(ps[static_cast<size_t>(i)]) *= x[i];
    weight(q) += x[i] * x[0];
  }
  double e = weight(q);
  for (int i = 0; i < n; ++i) {
    const double w = weight(ps[static_cast<size_t>(i)]);
    e += w * ps[static_cast<size_t>(i)].x;
  }
  return e;
}

/* e2e
[{"function": "accessor_writes",
  "points": [[[0.5, -1.5, 2.0, 0.25], 4, 0.8], [[0.3, 0.6], 2, -2.5]]},
 {"function": "larger_doubled",
  "points": [[1.5, 0.5, 2.0], [0.3, 0.8, -0.4], [2.5, 1.0, 1.2]]},
 {"function": "grid_energy",
  "points": [[[0.5, -1.5, 2.0], 3], [[0.3, 0.6], 2]]},
 {"function": "stiffened",
  "points": [[2.0, 0.5], [0.7, -1.3]],
  "grad_formula": ["0.5*(2 + x*x)*(x - 1)**2 + (2 + x*x)",
                   "k*x*(x - 1)**2 + k*(2 + x*x)*(x - 1) + 2*x*k"]},
 {"function": "weighted",
  "points": [[[0.5, -1.5, 2.0], 3], [[0.3, 0.6, -0.2, 1.1], 4]]}]
*/
