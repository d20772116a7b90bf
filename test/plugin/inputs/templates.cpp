// Marked methods of class templates (template_methods.cpp): each
// specialization the file instantiates at floating-point (or integer)
// arguments gets its gradient, declared in the template with the
// specialization's types and defined after it as an explicit specialization
// of the member. A const method at T = double and T = float, a non-const
// method of a template over an int (an in/out `*this`), a
// method defined out of line, a functor template, and a marked function
// template (an overload `rosen_grad` per instantiation, double and float). main checks every
// gradient against central finite differences of the method itself (or a
// hand-derived formula).
#include <unfad/unfad.h>

#include <cmath>

#include "fdcheck.h"

namespace phys {

template <class T>
struct Spring {
  T k;
  T x0;
  UNFAD_GRADIENT T energy(T x) const { return T(0.5) * k * (x - x0) * (x - x0) + std::sin(k * x); }
};

// One step of a recurrence on the members, at frequency N.
template <int N>
struct Damped {
  double a;
  double b;
  UNFAD_GRADIENT double run(double w) {
    const double na = a * std::cos(N * w) + b;
    b = 0.5 * b + 0.1 * a * a;
    a = na;
    return a * b;
  }
};

template <class T>
struct Gauss {
  T mu;
  T sigma;
  UNFAD_GRADIENT T nll(T v) const;
};

template <class T>
UNFAD_GRADIENT T Gauss<T>::nll(T v) const {
  const T z = (v - mu) / sigma;
  return T(0.5) * z * z + std::log(sigma);
}

template <class T>
struct Cubic {
  T c;
  UNFAD_GRADIENT T operator()(T x) const { return c * x * x * x; }
};

// A marked function template: an overload `rosen_grad` per instantiation.
template <class T>
UNFAD_GRADIENT T rosen(const T* x, int n) {
  T s = 0;
  for (int i = 0; i + 1 < n; ++i) s += T(100) * (x[i + 1] - x[i] * x[i]) * (x[i + 1] - x[i] * x[i]) + (1 - x[i]) * (1 - x[i]);
  return s;
}

} // namespace phys

namespace {

const double kH = 1e-5;

int check_spring() {
  const phys::Spring<double> s{3.0, 0.5};
  phys::Spring<double> d{0.0, 0.0};
  double dx = 0.0;
  int bad = s.energy_grad(1.4, &d, &dx) == s.energy(1.4) ? 0 : 1;
  bad += fd_check("spring/dk", d.k, 0.5 * 0.9 * 0.9 + 1.4 * std::cos(3.0 * 1.4));
  bad += fd_check("spring/dx0", d.x0, -3.0 * 0.9);
  bad += fd_check("spring/dx", dx, (s.energy(1.4 + kH) - s.energy(1.4 - kH)) / (2 * kH));
  // the float specialization has its own gradient
  const phys::Spring<float> f{3.0f, 0.5f};
  phys::Spring<float> df{0.0f, 0.0f};
  float dfx = 0.0f;
  bad += f.energy_grad(1.4f, &df, &dfx) == f.energy(1.4f) ? 0 : 1;
  bad += std::fabs(dfx - dx) <= 1e-4 * std::fabs(dx) ? 0 : 1;
  bad += std::fabs(df.k - d.k) <= 1e-4 * std::fabs(d.k) ? 0 : 1;
  return bad;
}

int check_damped() {
  // phi = run's value + 0.3 a_after - 0.2 b_after (d_this in: the
  // cotangent of the members after the call; out: of those before it)
  auto phi = [](double a, double b, double w) {
    phys::Damped<4> t{a, b};
    const double r = t.run(w);
    return r + 0.3 * t.a - 0.2 * t.b;
  };
  phys::Damped<4> q{0.8, -0.3}, r{0.8, -0.3}, dq{0.3, -0.2};
  double dw = 0.0;
  int bad = q.run_grad(0.7, &dq, &dw) == r.run(0.7) && q.a == r.a && q.b == r.b ? 0 : 1;
  bad += fd_check("damped/da", dq.a, (phi(0.8 + kH, -0.3, 0.7) - phi(0.8 - kH, -0.3, 0.7)) / (2 * kH));
  bad += fd_check("damped/db", dq.b, (phi(0.8, -0.3 + kH, 0.7) - phi(0.8, -0.3 - kH, 0.7)) / (2 * kH));
  bad += fd_check("damped/dw", dw, (phi(0.8, -0.3, 0.7 + kH) - phi(0.8, -0.3, 0.7 - kH)) / (2 * kH));
  return bad;
}

int check_gauss() {
  const phys::Gauss<double> g{0.4, 1.7};
  phys::Gauss<double> d{0.0, 0.0};
  double dv = 0.0;
  int bad = g.nll_grad(1.2, &d, &dv) == g.nll(1.2) ? 0 : 1;
  const phys::Gauss<double> p{0.4 + kH, 1.7}, m{0.4 - kH, 1.7};
  bad += fd_check("gauss/dmu", d.mu, (p.nll(1.2) - m.nll(1.2)) / (2 * kH));
  const phys::Gauss<double> ps{0.4, 1.7 + kH}, ms{0.4, 1.7 - kH};
  bad += fd_check("gauss/dsigma", d.sigma, (ps.nll(1.2) - ms.nll(1.2)) / (2 * kH));
  bad += fd_check("gauss/dv", dv, (g.nll(1.2 + kH) - g.nll(1.2 - kH)) / (2 * kH));
  return bad;
}

int check_cubic() {
  const phys::Cubic<double> c{1.5};
  phys::Cubic<double> d{0.0};
  double dx = 0.0;
  int bad = c.grad(0.6, &d, &dx) == c(0.6) ? 0 : 1;
  bad += fd_check("cubic/dc", d.c, 0.6 * 0.6 * 0.6);
  bad += fd_check("cubic/dx", dx, 3.0 * 1.5 * 0.6 * 0.6);
  return bad;
}

int check_rosen() {
  const double x[3] = {0.5, -0.3, 1.2};
  double dx[3] = {0.0, 0.0, 0.0};
  int bad = phys::rosen_grad(x, 3, dx) == phys::rosen(x, 3) ? 0 : 1;
  for (int i = 0; i < 3; ++i) {
    double p[3] = {x[0], x[1], x[2]}, m[3] = {x[0], x[1], x[2]};
    p[i] += kH;
    m[i] -= kH;
    bad += fd_check("rosen/dx", dx[i], (phys::rosen(p, 3) - phys::rosen(m, 3)) / (2 * kH));
  }
  const float xf[3] = {0.5f, -0.3f, 1.2f};
  float dxf[3] = {0.0f, 0.0f, 0.0f};
  bad += phys::rosen_grad(xf, 3, dxf) == phys::rosen(xf, 3) ? 0 : 1;
  for (int i = 0; i < 3; ++i) bad += std::fabs(dxf[i] - dx[i]) <= 1e-4 * std::fmax(1.0, std::fabs(dx[i])) ? 0 : 1;
  return bad;
}

} // namespace

int main() {
  const int bad = check_spring() + check_damped() + check_gauss() + check_cubic() + check_rosen();
  std::printf(bad ? "FAILED\n" : "PASSED\n");
  return bad ? 1 : 0;
}
