// Lambdas stored in locals and called directly: no captures, captures by
// reference read and written (in loops too), by value (the value at the
// lambda's creation), init-captures, a captured array, nested lambdas, a
// lambda returning a struct, a generic lambda, reference parameters.
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

struct Vec2 {
  double x, y;
};

UNFAD_GRADIENT double no_captures(double x, double y) {
  auto sq = [](double v) { return v * v; };
  auto mix = [](double a, double b) -> double {
    if (a > b) return a * b;
    return a + std::sin(b);
  };
  return sq(x) + sq(y) * x + mix(x, y);
}

UNFAD_GRADIENT double captures_by_reference(const double* x, int n, double w) {
  double e = 0.0;
  int calls = 0;
  auto add = [&](double v) {
    e += w * v * v;
    ++calls;
  };
  for (int i = 0; i < n; ++i) add(x[i]);
  add(w);
  return e / calls;
}

UNFAD_GRADIENT double captures_by_value(double x, double y) {
  double a = x;
  auto f = [=](double v) { return a * v; };    // a as it is now
  auto g = [s = 2.0 * x, y](double v) { return s * v + y; };
  a = 3.0 * a;
  return f(y) + a + g(x);                       // x*y + 3x + 2x^2 + y
}

UNFAD_GRADIENT double captured_array(const std::vector<double>& x, double c) {
  auto term = [&x, c](int i) { return c * x[i] * x[i]; };
  double s = 0.0;
  for (int i = 0; i < (int)x.size(); ++i) s += term(i);
  return s;
}

UNFAD_GRADIENT double nested(double a, double b, double c) {
  auto sq = [](double v) { return v * v; };
  auto norm2 = [&](double u, double v) { return sq(u) + sq(v); };
  auto dist = [&](double u, double v) { return std::sqrt(norm2(u, v) + sq(c)); };
  return dist(a, b) * dist(b, c);
}

UNFAD_GRADIENT double returns_struct(double angle, double px, double py) {
  const double c = std::cos(angle), s = std::sin(angle);
  auto rotate = [c, s](Vec2 p) { return Vec2{c * p.x - s * p.y, s * p.x + c * p.y}; };
  const Vec2 q = rotate(rotate(Vec2{px, py}));
  return q.x * 2.0 + q.y * q.y;
}

UNFAD_GRADIENT double generic_and_reference(const double* x, int n) {
  auto cube = [](auto v) { return v * v * v; };
  auto bump = [](double& acc, double v) { acc += v; };
  double total = 0.0;
  for (int i = 0; i < n; ++i) bump(total, cube(x[i]));
  return total + cube(2.0);
}

UNFAD_GRADIENT double nested_writes(double x) {
  double s = 0.0;
  auto add = [&s](double v) { s += v; };
  auto twice = [&](double v) {
    add(v);
    add(2.0 * v);
  };
  twice(x);     // s = 3x
  twice(s * x); // s = 3x + 9x^2
  return s;
}

/* e2e
[{"function": "no_captures", "points": [[1.5, 0.25], [-0.5, 2.0]],
  "value_formula": "x*x + y*y*x + (x*y if x > y else x + sin(y))"},
 {"function": "captures_by_reference", "points": [[[0.5, -1.25, 2.0], 3, 1.5], [[1.5, 0.25], 2, -0.75]],
  "value_formula": "w * (sum(v*v for v in x[:n]) + w*w) / (n + 1)"},
 {"function": "captures_by_value", "points": [[1.5, 0.25], [-0.5, 2.0]],
  "value_formula": "x*y + 3*x + 2*x*x + y"},
 {"function": "captured_array", "points": [[[0.5, -1.25, 2.0], 1.5], [[1.5, 0.25], -0.75]],
  "value_formula": "c * sum(v*v for v in x)"},
 {"function": "nested", "points": [[0.5, -1.25, 2.0], [1.5, 0.25, -0.75]]},
 {"function": "returns_struct", "points": [[0.3, 1.0, -2.0], [2.0, 0.5, 0.25]]},
 {"function": "nested_writes", "points": [[1.5], [-0.5]], "value_formula": "3*x + 9*x*x"},
 {"function": "generic_and_reference", "points": [[[0.5, -1.25, 2.0], 3]],
  "value_formula": "sum(v**3 for v in x[:n]) + 8"}]
*/
