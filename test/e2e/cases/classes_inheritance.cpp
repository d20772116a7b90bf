// Single inheritance without virtual functions: a Particle is a Body with a
// velocity. Base fields read and written from methods of the derived class,
// base methods called on a derived object (const and not), a derived
// constructor calling the base constructor, a Particle passed where a
// `const Body&` is expected (its base part), a copy into a Body (slicing),
// a two-level hierarchy with private members, derived objects in a local
// vector and an aggregate derived struct.
#include <unfad/unfad.h>

#include <cmath>
#include <cstddef>
#include <vector>

struct Body {
  double m;
  explicit Body(double mass) : m(mass) {}
  double mass() const { return m; }
  void grow(double f) { m *= f; }
};

struct Particle : Body {
  double v;
  Particle(double mass, double vel) : Body(mass), v(vel) {}
  double kinetic() const { return 0.5 * m * v * v; }
  double momentum() const { return mass() * v; }
  void accelerate(double dv) {
    v += dv;
    m += 0.1 * dv; // the base's field, from the derived class
  }
};

double weight(const Body& b) { return 9.81 * b.mass(); }

UNFAD_GRADIENT double particle_energy(double mass, double vel, double dv) {
  Particle p(mass, vel);
  const double before = p.kinetic() + weight(p);
  p.accelerate(dv);
  p.grow(1.5); // a base method changing the derived object
  const Body b = p; // slicing: the base part
  return before + p.kinetic() * p.momentum() + b.mass() * p.m;
}

// Two levels, private members, accessors.
class Shape {
public:
  explicit Shape(double scale) : scale_(scale) {}
  double scale() const { return scale_; }

protected:
  double scale_;
};

class Rect : public Shape {
public:
  Rect(double s, double w, double h) : Shape(s), w_(w), h_(h) {}
  double area() const { return scale_ * scale_ * w_ * h_; }

private:
  double w_, h_;
};

class Square : public Rect {
public:
  Square(double s, double a) : Rect(s, a, a) {}
  double diagonal() const { return std::sqrt(2.0 * area()); }
};

UNFAD_GRADIENT double shapes(const std::vector<double>& sides, double s) {
  std::vector<Square> squares;
  for (double a : sides) squares.push_back(Square(s, a));
  double total = 0.0;
  for (std::size_t i = 0; i < squares.size(); ++i) total += squares[i].diagonal() + squares[i].scale() * squares[i].area();
  return total;
}

// An aggregate with a base (C++17): brace initialisation, base first.
struct Point {
  double x, y;
};
struct Labeled : Point {
  double weight;
};

UNFAD_GRADIENT double labeled(double x, double y, double w) {
  Labeled l{{x, y}, w};
  l.x += y;
  const Point& p = l;
  return l.weight * (p.x * p.x + p.y);
}

/* e2e
[{"function": "particle_energy",
  "points": [[2.0, 0.5, 0.25], [0.7, -1.5, 1.0]]},
 {"function": "shapes",
  "points": [[[0.5, 1.25, 2.0], 0.8], [[1.5, 0.3], 1.1]],
  "value_formula": "sum(sqrt(2.0*s*s*a*a) + s*s*s*a*a for a in sides)"},
 {"function": "labeled",
  "points": [[0.5, 1.5, 2.0], [-1.0, 0.25, 0.75]],
  "value_formula": "w*((x + y)**2 + y)"}]
*/
