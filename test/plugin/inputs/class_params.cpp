// Objects of classes the generated code mirrors (a base class, a
// constructor that computes) as parameters of marked functions: the
// gradient reads them member by member as the caller passes them (the
// bases' members as inherited members) and adds into adjoint objects of the
// same classes. main checks every partial against central finite
// differences of f itself (or a hand-derived formula), never of f_grad.
#include <unfad/unfad.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "fdcheck.h"

namespace phys {

struct Body {
  double m;
  explicit Body(double mass) : m(mass) {}
  double weight() const { return 9.81 * m; }
};

struct Particle : Body {
  double v;
  Particle(double mass, double vel) : Body(mass), v(vel) {}
  double kinetic() const { return 0.5 * m * v * v; }
};

// A constructor that computes: mirrored, but its members are public.
struct Circle {
  double r, area;
  explicit Circle(double radius) : r(radius), area(3.14159 * radius * radius) {}
};

UNFAD_GRADIENT double energy(const Particle& p, double h) { return p.kinetic() + p.weight() * h; }

UNFAD_GRADIENT double total(const std::vector<Particle>& ps, const Circle& c) {
  double s = 0.0;
  for (const Particle& p : ps) s += p.kinetic() * c.area + std::sin(p.m * c.r);
  return s;
}

// An in/out object: d_p carries the cotangent of the members after the call
// in and holds that of the members before it on return.
UNFAD_GRADIENT double step(Particle& p, double dt) {
  p.v -= dt * p.weight() / p.m * 0.1 * p.v;
  p.m *= std::exp(-dt);
  return p.kinetic();
}

} // namespace phys

namespace {

const double kH = 1e-5;

int check_energy() {
  const phys::Particle p(2.0, 0.7);
  phys::Particle d(0.0, 0.0);
  double dh = 0.0;
  int bad = phys::energy_grad(p, 1.5, &d, &dh) == phys::energy(p, 1.5) ? 0 : 1;
  bad += fd_check("energy/dm", d.m, 0.5 * 0.7 * 0.7 + 9.81 * 1.5);
  bad += fd_check("energy/dv", d.v, 2.0 * 0.7);
  bad += fd_check("energy/dh", dh, 9.81 * 2.0);
  return bad;
}

int check_total() {
  std::vector<phys::Particle> ps{phys::Particle(1.0, 0.5), phys::Particle(2.5, -1.2), phys::Particle(0.4, 2.0)};
  const phys::Circle c(0.8);
  std::vector<phys::Particle> dps(3, phys::Particle(0.0, 0.0));
  phys::Circle dc(0.0);
  int bad = phys::total_grad(ps, c, dps, &dc) == phys::total(ps, c) ? 0 : 1;
  for (int i = 0; i < 3; ++i) {
    auto up = ps, down = ps;
    up[i].m += kH, down[i].m -= kH;
    bad += fd_check("total/dm", dps[i].m, (phys::total(up, c) - phys::total(down, c)) / (2 * kH));
    up = ps, down = ps;
    up[i].v += kH, down[i].v -= kH;
    bad += fd_check("total/dv", dps[i].v, (phys::total(up, c) - phys::total(down, c)) / (2 * kH));
  }
  // r and area are separate members of the object (the constructor is not rerun)
  phys::Circle up = c, down = c;
  up.r += kH, down.r -= kH;
  bad += fd_check("total/dr", dc.r, (phys::total(ps, up) - phys::total(ps, down)) / (2 * kH));
  up = c, down = c;
  up.area += kH, down.area -= kH;
  bad += fd_check("total/darea", dc.area, (phys::total(ps, up) - phys::total(ps, down)) / (2 * kH));
  return bad;
}

int check_step() {
  auto phi = [](double m, double v, double dt) {
    phys::Particle p(m, v);
    const double r = phys::step(p, dt);
    return r + 0.3 * p.m - 0.2 * p.v;
  };
  phys::Particle p(2.0, 0.7), q(2.0, 0.7), d(0.3, -0.2);
  double ddt = 0.0;
  int bad = phys::step_grad(p, 0.1, &d, &ddt) == phys::step(q, 0.1) && p.m == q.m && p.v == q.v ? 0 : 1;
  bad += fd_check("step/dm", d.m, (phi(2.0 + kH, 0.7, 0.1) - phi(2.0 - kH, 0.7, 0.1)) / (2 * kH));
  bad += fd_check("step/dv", d.v, (phi(2.0, 0.7 + kH, 0.1) - phi(2.0, 0.7 - kH, 0.1)) / (2 * kH));
  bad += fd_check("step/ddt", ddt, (phi(2.0, 0.7, 0.1 + kH) - phi(2.0, 0.7, 0.1 - kH)) / (2 * kH));
  return bad;
}

} // namespace

int main() {
  int bad = check_energy() + check_total() + check_step();
  std::printf("%s\n", bad ? "FAILED" : "PASSED");
  return bad;
}
