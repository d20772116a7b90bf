// Marked member functions: a const method defined in its class, one defined
// out of line, a non-const method that updates its members (an in/out
// `*this`), a functor's operator() (gradient `grad`), a method of a nested
// class, UNFAD_GRADIENT_WRT leaving `this` passive, methods of derived
// classes (their gradients reach the bases' members as inherited members),
// and methods of a class owning a std::vector (const, and one updating the
// vector in place). main checks every
// gradient against central finite differences (of f itself, never of f_grad).
#include <unfad/unfad.h>

#include <cmath>
#include <string>
#include <vector>

#include "fdcheck.h"

namespace fit {

double sq(double v) { return v * v; }

// A model with two parameters, differentiated with respect to them and x.
struct Model {
  double a;
  double b;
  int passes; // passive

  UNFAD_GRADIENT double loss(const double* x, const double* y, int n) const {
    double s = 0.0;
    for (int i = 0; i < n; ++i) s += sq(predict(x[i]) - y[i]);
    return s / n;
  }
  double predict(double v) const { return a * std::tanh(b * v); }

  UNFAD_GRADIENT double penalty(double w) const;

  // One step of a recurrence on the members: `*this` is read, then written.
  UNFAD_GRADIENT double advance(double h) {
    const double na = a + h * b;
    b = b - h * std::sin(a);
    a = na;
    ++passes;
    return a * b;
  }
};

UNFAD_GRADIENT double Model::penalty(double w) const { return w * (a * a + std::exp(b)); }

// A function object: its gradient is `grad`.
struct Gaussian {
  double mu;
  double sigma;
  UNFAD_GRADIENT double operator()(double v) const {
    const double z = (v - mu) / sigma;
    return 0.5 * z * z + std::log(sigma);
  }
};

struct Outer {
  struct Spring {
    double k;
    double rest;
    // Only with respect to the positions: k and rest are constants here.
    UNFAD_GRADIENT_WRT(p, q) double energy(double p, double q) const { return 0.5 * k * sq(q - p - rest); }
  };
};

// Private data members: the gradient is a member, so it reads them as the
// method does.
class Pendulum {
  double length_;
  double damping_;

public:
  Pendulum(double length, double damping) : length_(length), damping_(damping) {}
  double length() const { return length_; }
  UNFAD_GRADIENT double energy(double theta, double omega) const {
    return 0.5 * length_ * length_ * omega * omega * std::exp(-damping_) + 9.81 * length_ * (1.0 - std::cos(theta));
  }
};

// Derived classes: the base's members are read and written by the marked
// methods of the derived class and by the base's methods they call.
struct Body {
  double m;
  explicit Body(double mass) : m(mass) {}
  double weight() const { return 9.81 * m; }
};

struct Particle : Body {
  double v;
  Particle(double mass, double vel) : Body(mass), v(vel) {}
  UNFAD_GRADIENT double energy(double h) const { return 0.5 * m * v * v + weight() * h; }
  // Writes the base's member and its own: an in/out `*this`.
  UNFAD_GRADIENT double kick(double dv) {
    v += dv / m;
    m *= 1.0 + 0.1 * dv;
    return m * v;
  }
};

// Two levels, protected members, a member of the middle class read through
// a method of the top one.
class Shape {
public:
  explicit Shape(double scale) : scale_(scale) {}

protected:
  double scale_;
};

class Rect : public Shape {
public:
  Rect(double s, double w, double h) : Shape(s), w_(w), h_(h) {}
  double area() const { return scale_ * scale_ * w_ * h_; }

protected:
  double w_, h_;
};

class Box : public Rect {
public:
  Box(double s, double w, double h, double d) : Rect(s, w, h), d_(d) {}
  UNFAD_GRADIENT double volume_cost(double price) const { return price * area() * d_ + std::sin(scale_ * w_); }
  double depth() const { return d_; }
  double width() const { return w_; }
  double height() const { return h_; }
  double scale() const { return scale_; }

private:
  double d_;
};

// A non-const method advancing its members in a loop: the undo log of
// `*this` records the element it overwrote (always 0, a reference is one
// element), which the printer could not write as an index of `(*this)`.
struct Damped {
  double a;
  double b;
  UNFAD_GRADIENT double run(double w) {
    for (int i = 0; i < 4; ++i) {
      const double na = a * std::cos(w) + b;
      b = 0.5 * b + 0.1 * a * a;
      a = na;
    }
    return a * b;
  }
};

// A class owning a std::vector (private, built by the constructor): its
// marked const method reads the coefficients through another method, with
// reverse iterators; the adjoint `d_this` is an object whose vector the
// caller sizes like the coefficients'.
class Poly {
public:
  explicit Poly(std::vector<double> c, double scale) : coef_(std::move(c)), scale_(scale) {}
  double eval(double x) const {
    double s = 0.0;
    for (auto it = coef_.rbegin(); it != coef_.rend(); ++it) s = s * x + *it;
    return scale_ * s;
  }
  UNFAD_GRADIENT double loss(const std::vector<double>& xs, const std::vector<double>& ys) const {
    double l = 0.0;
    for (size_t i = 0; i < xs.size(); ++i) {
      const double r = eval(xs[i]) - ys[i];
      l += r * r;
    }
    return l + 0.1 * coef_.back() * coef_.back();
  }
  // Updates the coefficients in place (an in/out `*this`: its vector's
  // elements; its other members stay).
  UNFAD_GRADIENT double shrink(double h) {
    for (double& c : coef_) c -= h * c * std::fabs(c);
    return eval(0.5) + coef_[0];
  }
  double coefficient(size_t k) const { return coef_[k]; }
  double scale() const { return scale_; }
  void nudge(size_t k, double h) { coef_[k] += h; }

private:
  std::vector<double> coef_;
  double scale_;
};

} // namespace fit

namespace {

const double kH = 1e-5;

int check_loss() {
  std::vector<double> x{0.3, -0.7, 1.1}, y{0.2, -0.4, 0.5};
  fit::Model m{0.8, 1.3, 0};
  fit::Model d{0.0, 0.0, 0};
  std::vector<double> dx(3, 0.0), dy(3, 0.0);
  int bad = m.loss_grad(x.data(), y.data(), 3, &d, dx.data(), dy.data()) == m.loss(x.data(), y.data(), 3) ? 0 : 1;
  fit::Model p = m, q = m;
  p.a += kH;
  q.a -= kH;
  bad += fd_check("loss/da", d.a, (p.loss(x.data(), y.data(), 3) - q.loss(x.data(), y.data(), 3)) / (2 * kH));
  p = m, q = m;
  p.b += kH;
  q.b -= kH;
  bad += fd_check("loss/db", d.b, (p.loss(x.data(), y.data(), 3) - q.loss(x.data(), y.data(), 3)) / (2 * kH));
  std::vector<double> xp = x, xm = x;
  xp[1] += kH;
  xm[1] -= kH;
  bad += fd_check("loss/dx1", dx[1], (m.loss(xp.data(), y.data(), 3) - m.loss(xm.data(), y.data(), 3)) / (2 * kH));
  return bad;
}

int check_penalty() {
  fit::Model m{0.8, 1.3, 0}, d{0.0, 0.0, 0};
  double dw = 0.0;
  int bad = m.penalty_grad(2.0, &d, &dw) == m.penalty(2.0) ? 0 : 1;
  bad += fd_check("penalty/da", d.a, 2.0 * 2.0 * m.a);
  bad += fd_check("penalty/db", d.b, 2.0 * std::exp(m.b));
  bad += fd_check("penalty/dw", dw, m.a * m.a + std::exp(m.b));
  return bad;
}

// advance writes *this: d_this carries the cotangent of the members after
// the call in (here zero) and holds that of the members before it on return.
int check_advance() {
  const fit::Model m0{0.8, 1.3, 0};
  fit::Model m = m0, d{0.0, 0.0, 0};
  double dh = 0.0;
  const double v = m.advance_grad(0.1, &d, &dh);
  fit::Model r = m0;
  int bad = v == r.advance(0.1) && m.a == r.a && m.b == r.b && m.passes == 1 ? 0 : 1;
  auto value = [&](double a, double b, double h) {
    fit::Model t{a, b, 0};
    return t.advance(h);
  };
  bad += fd_check("advance/da", d.a, (value(m0.a + kH, m0.b, 0.1) - value(m0.a - kH, m0.b, 0.1)) / (2 * kH));
  bad += fd_check("advance/db", d.b, (value(m0.a, m0.b + kH, 0.1) - value(m0.a, m0.b - kH, 0.1)) / (2 * kH));
  bad += fd_check("advance/dh", dh, (value(m0.a, m0.b, 0.1 + kH) - value(m0.a, m0.b, 0.1 - kH)) / (2 * kH));
  return bad;
}

int check_functor() {
  fit::Gaussian g{0.4, 1.7}, d{0.0, 0.0};
  double dv = 0.0;
  int bad = g.grad(1.2, &d, &dv) == g(1.2) ? 0 : 1;
  fit::Gaussian p{0.4 + kH, 1.7}, q{0.4 - kH, 1.7};
  bad += fd_check("gaussian/dmu", d.mu, (p(1.2) - q(1.2)) / (2 * kH));
  p = {0.4, 1.7 + kH}, q = {0.4, 1.7 - kH};
  bad += fd_check("gaussian/dsigma", d.sigma, (p(1.2) - q(1.2)) / (2 * kH));
  bad += fd_check("gaussian/dv", dv, (g(1.2 + kH) - g(1.2 - kH)) / (2 * kH));
  return bad;
}

int check_spring() {
  fit::Outer::Spring s{3.0, 0.5};
  double dp = 0.0, dq = 0.0;
  int bad = s.energy_grad(0.1, 1.4, &dp, &dq) == s.energy(0.1, 1.4) ? 0 : 1;
  bad += fd_check("spring/dp", dp, -3.0 * (1.4 - 0.1 - 0.5));
  bad += fd_check("spring/dq", dq, 3.0 * (1.4 - 0.1 - 0.5));
  return bad;
}

int check_pendulum() {
  const fit::Pendulum p(1.2, 0.3);
  fit::Pendulum d(0.0, 0.0);
  double dt = 0.0, dw = 0.0;
  int bad = p.energy_grad(0.4, 1.1, &d, &dt, &dw) == p.energy(0.4, 1.1) ? 0 : 1;
  bad += fd_check("pendulum/dlength", d.length(),
                  (fit::Pendulum(1.2 + kH, 0.3).energy(0.4, 1.1) - fit::Pendulum(1.2 - kH, 0.3).energy(0.4, 1.1)) / (2 * kH));
  bad += fd_check("pendulum/dtheta", dt, 9.81 * 1.2 * std::sin(0.4));
  bad += fd_check("pendulum/domega", dw, 1.2 * 1.2 * 1.1 * std::exp(-0.3));
  return bad;
}

int check_particle() {
  const fit::Particle p(2.0, 0.7);
  fit::Particle d(0.0, 0.0);
  double dh = 0.0;
  int bad = p.energy_grad(1.5, &d, &dh) == p.energy(1.5) ? 0 : 1;
  bad += fd_check("particle/dm", d.m, 0.5 * 0.7 * 0.7 + 9.81 * 1.5);
  bad += fd_check("particle/dv", d.v, 2.0 * 0.7);
  bad += fd_check("particle/dh", dh, 9.81 * 2.0);
  // kick: d_this in is the cotangent of the members after the call (here
  // m: 0.3, v: -0.2, and the value's 1), out that of the members before.
  auto phi = [](double m, double v, double dv) {
    fit::Particle t(m, v);
    const double r = t.kick(dv);
    return r + 0.3 * t.m - 0.2 * t.v;
  };
  fit::Particle q(2.0, 0.7), r(2.0, 0.7), dq(0.3, -0.2);
  double ddv = 0.0;
  bad += q.kick_grad(0.4, &dq, &ddv) == r.kick(0.4) && q.m == r.m && q.v == r.v ? 0 : 1;
  bad += fd_check("kick/dm", dq.m, (phi(2.0 + kH, 0.7, 0.4) - phi(2.0 - kH, 0.7, 0.4)) / (2 * kH));
  bad += fd_check("kick/dv", dq.v, (phi(2.0, 0.7 + kH, 0.4) - phi(2.0, 0.7 - kH, 0.4)) / (2 * kH));
  bad += fd_check("kick/ddv", ddv, (phi(2.0, 0.7, 0.4 + kH) - phi(2.0, 0.7, 0.4 - kH)) / (2 * kH));
  return bad;
}

int check_box() {
  const double s = 1.1, w = 0.6, h = 0.9, dd = 1.3, price = 2.5;
  const fit::Box b(s, w, h, dd);
  fit::Box d(0.0, 0.0, 0.0, 0.0);
  double dprice = 0.0;
  int bad = b.volume_cost_grad(price, &d, &dprice) == b.volume_cost(price) ? 0 : 1;
  // by hand: price s^2 w h d + sin(s w)
  bad += fd_check("box/dscale", d.scale(), 2.0 * price * s * w * h * dd + std::cos(s * w) * w);
  bad += fd_check("box/dwidth", d.width(), price * s * s * h * dd + std::cos(s * w) * s);
  bad += fd_check("box/ddepth", d.depth(), price * s * s * w * h);
  bad += fd_check("box/dheight", d.height(),
                  (fit::Box(s, w, h + kH, dd).volume_cost(price) - fit::Box(s, w, h - kH, dd).volume_cost(price)) / (2 * kH));
  bad += fd_check("box/dprice", dprice, s * s * w * h * dd);
  return bad;
}

int check_damped() {
  const fit::Damped m0{0.7, -0.4};
  fit::Damped m = m0, d{0.0, 0.0};
  double dw = 0.0;
  const double v = m.run_grad(0.3, &d, &dw);
  fit::Damped r = m0;
  int bad = v == r.run(0.3) && m.a == r.a && m.b == r.b ? 0 : 1;
  auto value = [](double a, double b, double w) {
    fit::Damped t{a, b};
    return t.run(w);
  };
  bad += fd_check("damped/da", d.a, (value(m0.a + kH, m0.b, 0.3) - value(m0.a - kH, m0.b, 0.3)) / (2 * kH));
  bad += fd_check("damped/db", d.b, (value(m0.a, m0.b + kH, 0.3) - value(m0.a, m0.b - kH, 0.3)) / (2 * kH));
  bad += fd_check("damped/dw", dw, (value(m0.a, m0.b, 0.3 + kH) - value(m0.a, m0.b, 0.3 - kH)) / (2 * kH));
  return bad;
}

} // namespace

int check_poly() {
  const std::vector<double> xs{0.3, -0.7, 1.1, 0.4}, ys{0.2, -0.4, 0.5, 0.1};
  const fit::Poly p({0.5, -1.25, 0.75}, 1.5);
  fit::Poly d({0.0, 0.0, 0.0}, 0.0);
  std::vector<double> dxs(4, 0.0), dys(4, 0.0);
  int bad = p.loss_grad(xs, ys, &d, dxs, dys) == p.loss(xs, ys) ? 0 : 1;
  for (size_t k = 0; k < 3; ++k) {
    fit::Poly up = p, down = p;
    up.nudge(k, kH);
    down.nudge(k, -kH);
    bad += fd_check(("poly/dc" + std::to_string(k)).c_str(), d.coefficient(k), (up.loss(xs, ys) - down.loss(xs, ys)) / (2 * kH));
  }
  const fit::Poly up({0.5, -1.25, 0.75}, 1.5 + kH), down({0.5, -1.25, 0.75}, 1.5 - kH);
  bad += fd_check("poly/dscale", d.scale(), (up.loss(xs, ys) - down.loss(xs, ys)) / (2 * kH));
  std::vector<double> xp = xs, xm = xs;
  xp[2] += kH;
  xm[2] -= kH;
  bad += fd_check("poly/dx2", dxs[2], (p.loss(xp, ys) - p.loss(xm, ys)) / (2 * kH));
  return bad;
}

// shrink writes the coefficients: d_this carries their cotangent after the
// call in (zero here), and holds that of their values before it on return.
int check_shrink() {
  const fit::Poly p0({0.5, -1.25, 0.75}, 1.5);
  fit::Poly p = p0, d({0.0, 0.0, 0.0}, 0.0), r = p0;
  double dh = 0.0;
  const double v = p.shrink_grad(0.1, &d, &dh);
  int bad = v == r.shrink(0.1) ? 0 : 1;
  for (size_t k = 0; k < 3; ++k) bad += p.coefficient(k) == r.coefficient(k) ? 0 : 1;
  for (size_t k = 0; k < 3; ++k) {
    fit::Poly up = p0, down = p0;
    up.nudge(k, kH);
    down.nudge(k, -kH);
    bad += fd_check(("shrink/dc" + std::to_string(k)).c_str(), d.coefficient(k), (up.shrink(0.1) - down.shrink(0.1)) / (2 * kH));
  }
  fit::Poly up = p0, down = p0;
  bad += fd_check("shrink/dh", dh, (up.shrink(0.1 + kH) - down.shrink(0.1 - kH)) / (2 * kH));
  fit::Poly su({0.5, -1.25, 0.75}, 1.5 + kH), sd({0.5, -1.25, 0.75}, 1.5 - kH);
  bad += fd_check("shrink/dscale", d.scale(), (su.shrink(0.1) - sd.shrink(0.1)) / (2 * kH));
  return bad;
}

int main() {
  int bad = check_loss() + check_penalty() + check_advance() + check_functor() + check_spring() + check_pendulum() +
            check_particle() + check_box() + check_damped() + check_poly() + check_shrink();
  std::printf("%s\n", bad ? "FAILED" : "PASSED");
  return bad;
}
