// A small physics objective for the quick start: a 0.5 kg mass hangs from
// two elastic cables. energy(x, y) is the potential energy of the mass at
// (x, y); its minimum is the equilibrium position.
//
// `unfad -i energy.cpp -- -std=c++17 -I<unfad>/include` writes energy_grad
// right after energy (between "// unfad:begin" and "// unfad:end" lines).
#include <unfad/unfad.h>

#include <cmath>

namespace demo {

struct Vec2 {
  double x, y;
};

static Vec2 sub(Vec2 a, Vec2 b) { return Vec2{a.x - b.x, a.y - b.y}; }

static double norm(Vec2 v) { return std::sqrt(v.x * v.x + v.y * v.y); }

// Elastic energy of a cable of rest length L and stiffness k between a and b.
// A cable only pulls: it stores energy only when stretched.
static double cable(Vec2 a, Vec2 b, double k, double L) {
  const double stretch = norm(sub(a, b)) - L;
  if (stretch > 0.0)
    return 0.5 * k * stretch * stretch;
  return 0.0;
}

UNFAD_GRADIENT double energy(double x, double y) {
  const Vec2 p{x, y};
  double e = cable(p, Vec2{-1.0, 1.0}, 40.0, 1.2);
  e += cable(p, Vec2{1.5, 1.0}, 25.0, 1.0);
  e += 0.5 * 9.81 * y; // gravity
  return e;
}

} // namespace demo
