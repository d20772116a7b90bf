// Arrays made from braces where an array is expected: an argument `{a, b,
// c}` of a `const std::vector<double>&` (or by-value std::vector, or
// std::array) parameter of a helper or a constructor, as literal knots and
// small vectors are passed. Each is a local array of the statement.
// Checked against finite differences.
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <vector>

static double sum_sq(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x * x;
  return s;
}

static double norm3(const std::array<double, 3>& v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

static double horner(std::vector<double> c, double x) {
  double r = 0;
  for (std::size_t k = c.size(); k-- > 0;) r = r * x + c[k];
  return r;
}

class Spline {
 public:
  Spline(const std::vector<double>& knots, const std::vector<double>& vals) : k_(knots), v_(vals) {}
  double operator()(double x) const {
    std::size_t i = 0;
    while (i + 2 < k_.size() && x > k_[i + 1]) ++i;
    const double t = (x - k_[i]) / (k_[i + 1] - k_[i]);
    return v_[i] + t * (v_[i + 1] - v_[i]);
  }

 private:
  std::vector<double> k_, v_;
};

UNFAD_GRADIENT double helpers(double a, double b, double c) {
  return sum_sq({a, b * c, 1.0}) + norm3({a, b, c}) + horner({1.0, a, b * b}, c);
}

// Literal knots, values given by the caller.
UNFAD_GRADIENT double spline(const std::vector<double>& vals, double x) {
  const Spline s({0.0, 1.0, 2.0, 3.0}, vals);
  return s(x) * s(x / 2);
}
/* e2e
[{"function": "helpers", "points": [[0.7, -1.2, 0.4]]},
 {"function": "spline", "points": [[[0.3, -1.2, 2.0, 0.5], 1.7], [[0.3, -1.2, 2.0, 0.5], 2.6]]}]
*/
