// More of what classes hold: static constexpr constants and static member
// functions, a const operator[] and an operator() called directly, a class
// with a nested class member, a method calling another method on *this (const
// and not), a method with a loop over its own fields, methods with early
// returns, methods and constructors in a loop condition and in operands of
// ?:, and methods of a class template.
#include <unfad/unfad.h>

#include <cmath>
#include <cstddef>
#include <vector>

struct Vec2 {
  double x;
  double y;
  Vec2(double x, double y) : x(x), y(y) {}
  double operator[](int i) const { return i == 0 ? x : y; }
  double cross(const Vec2& o) const { return x * o.y - y * o.x; }
};

class Gauss {
public:
  static constexpr double kHalf = 0.5;
  static double square(double v) { return v * v; }

  Gauss(double mu, double sigma) : mu(mu), sigma(sigma) {}
  // the negative log-density, up to a constant
  double operator()(double v) const { return kHalf * square((v - mu) / sigma) + std::log(sigma); }

  double mu;
  double sigma;
};

// A segment: two Vec2 members.
struct Segment {
  Vec2 a;
  Vec2 b;
  Segment(Vec2 a, Vec2 b) : a(a), b(b) {}
  double length() const { return std::hypot(b.x - a.x, b.y - a.y); }
  double area2(const Vec2& p) const {
    if (length() == 0.0) return 0.0; // an early return in a method
    return Vec2(b.x - a.x, b.y - a.y).cross(Vec2(p.x - a.x, p.y - a.y));
  }
  void shift(double dx) {
    a.x += dx;
    b.x += dx;
  }
  void stretch(double s) {
    shift(-a.x);        // a method of *this from a method
    b = Vec2(s * b.x, s * b.y);
  }
};

// A polynomial with its coefficients as fields, evaluated by a loop in a method.
struct Quadratic {
  double c0, c1, c2;
  Quadratic(double c0, double c1, double c2) : c0(c0), c1(c1), c2(c2) {}
  double at(double t) const {
    double acc = 0.0;
    for (int k = 2; k >= 0; --k) acc = acc * t + coefficient(k);
    return acc;
  }
  double coefficient(int k) const {
    if (k == 0) return c0;
    if (k == 1) return c1;
    return c2;
  }
  Quadratic derivative() const { return Quadratic(c1, 2.0 * c2, 0.0); }
  int terms() const { return 3; }
};

// Methods and a constructor in a loop condition and in the operands of ?:
// (expressions there: they write nothing).
UNFAD_GRADIENT double quadratic_terms(double c0, double c1, double c2, double t) {
  const Quadratic q(c0, c1, c2);
  double s = 0.0;
  for (int k = 0; k < q.terms(); ++k) s += q.coefficient(k) * t;
  return t > 0.0 ? s * q.at(t) : Quadratic(c0, c1, c2).derivative().at(t);
}

template <typename T>
struct Pair {
  T first, second;
  Pair(T first, T second) : first(first), second(second) {}
  T sum() const { return first + second; }
};

UNFAD_GRADIENT double gauss_nll(const std::vector<double>& data, double mu, double sigma) {
  const Gauss g(mu, sigma);
  double s = 0.0;
  for (std::size_t i = 0; i < data.size(); ++i) s += g(data[i]);
  return s + Gauss::square(mu) * Gauss::kHalf;
}

UNFAD_GRADIENT double segment_terms(double ax, double ay, double bx, double by, double px) {
  Segment s(Vec2(ax, ay), Vec2(bx, by));
  const double before = s.area2(Vec2(px, 1.0));
  s.stretch(px);
  const Vec2 d(s.b.x - s.a.x, s.b.y);
  return before + s.length() * d[0] + d[1] * Segment(Vec2(ax, 0.0), Vec2(0.0, ay)).length();
}

UNFAD_GRADIENT double quadratic_slope(double c0, double c1, double c2, double t) {
  const Quadratic q(c0, c1, c2);
  Pair<double> p(q.at(t), q.derivative().at(t));
  return p.sum() * q.coefficient(2);
}

/* e2e
[{"function": "gauss_nll",
  "points": [[[0.5, -1.25, 2.0, 0.75], 0.3, 1.5], [[1.1, 0.4, -0.3], -0.8, 0.7]],
  "value_formula": "sum(0.5*((v - mu)/sigma)**2 + log(sigma) for v in data) + 0.5*mu*mu"},
 {"function": "segment_terms",
  "points": [[0.5, -0.25, 1.5, 0.75, 2.0], [-1.0, 0.5, 0.25, 1.25, -0.75]]},
 {"function": "quadratic_slope",
  "points": [[0.5, -0.25, 1.5, 0.75], [-1.0, 0.5, 0.25, -1.25]],
  "value_formula": "(c0 + c1*t + c2*t*t + c1 + 2*c2*t)*c2"},
 {"function": "quadratic_terms",
  "points": [[0.5, -0.25, 1.5, 0.75], [-1.0, 0.5, 0.25, -1.25]],
  "value_formula": "(c0 + c1 + c2)*t*(c0 + c1*t + c2*t*t) if t > 0 else c1 + 2*c2*t"}]
*/
