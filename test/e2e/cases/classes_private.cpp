// Classes as people write them, with private data: a Spring with private
// stiffness and rest length and const accessors, a Circle whose
// constructor computes (it stores r * r), a Counter-like Accumulator whose
// default constructor sets non-zero values and whose setters change it, a
// Vec3 with private coordinates passed to and returned from helpers, objects
// made in loops and kept in a local std::vector. None of the classes is
// changed for unfad: the generated code holds their objects as their fields.
#include <unfad/unfad.h>

#include <cmath>
#include <cstddef>
#include <vector>

class Vec3 {
public:
  Vec3() = default;
  Vec3(double x, double y, double z) : x_(x), y_(y), z_(z) {}
  double x() const { return x_; }
  double y() const { return y_; }
  double z() const { return z_; }
  Vec3 operator-(const Vec3& o) const { return Vec3(x_ - o.x_, y_ - o.y_, z_ - o.z_); }
  Vec3 operator*(double s) const { return Vec3(s * x_, s * y_, s * z_); }
  Vec3& operator+=(const Vec3& o) {
    x_ += o.x_;
    y_ += o.y_;
    z_ += o.z_;
    return *this;
  }
  double norm() const { return std::sqrt(x_ * x_ + y_ * y_ + z_ * z_); }

private:
  double x_ = 0.0, y_ = 0.0, z_ = 0.0;
};

class Spring {
  double k_, rest_;

public:
  Spring(double k, double rest) : k_(k), rest_(rest) {}
  double k() const { return k_; }
  double rest() const { return rest_; }
  void stiffen(double f) { k_ *= f; }
  double energy(const Vec3& a, const Vec3& b) const {
    const double stretch = (a - b).norm() - rest_;
    return 0.5 * k_ * stretch * stretch;
  }
};

class Circle {
public:
  explicit Circle(double r) : r2_(r * r) {}
  double area() const { return kPi * r2_; }
  double radius() const { return std::sqrt(r2_); }

private:
  static constexpr double kPi = 3.141592653589793;
  double r2_;
};

// A default constructor that sets non-zero values, and setters.
class Accumulator {
public:
  Accumulator() : scale_(1.0), total_(0.0), count_(0) {}
  void set_scale(double s) { scale_ = s; }
  void add(double v) {
    total_ += scale_ * v;
    ++count_;
  }
  double mean() const { return total_ / count_; }
  int count() const { return count_; }

private:
  double scale_;
  double total_;
  int count_;
};

// Helpers taking and returning objects of such classes.
Vec3 midpoint(const Vec3& a, const Vec3& b) { return Vec3((a.x() + b.x()) / 2, (a.y() + b.y()) / 2, (a.z() + b.z()) / 2); }
double spring_energy(const Spring& s, const Vec3& a, const Vec3& b) { return s.energy(a, b); }
Spring stiffer(Spring s, double f) {
  s.stiffen(f);
  return s;
}

UNFAD_GRADIENT double spring_pair(double k, double rest, double ax, double ay, double bx, double by) {
  const Spring s(k, rest);
  const Vec3 a(ax, ay, 0.0), b(bx, by, 1.0);
  const Spring t = stiffer(s, 2.0);
  return spring_energy(s, a, b) + t.energy(a, midpoint(a, b)) + s.k() * t.rest();
}

UNFAD_GRADIENT double circles(const std::vector<double>& r, double w) {
  double s = 0.0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    const Circle c(r[i] * w);
    s += c.area() + c.radius();
  }
  return s;
}

UNFAD_GRADIENT double running_mean(const std::vector<double>& v, double scale) {
  Accumulator acc;
  acc.add(1.0); // with the default scale
  acc.set_scale(scale);
  for (double x : v) acc.add(x * x);
  return acc.mean() * acc.count();
}

// A chain of springs between consecutive points, kept in a local vector.
UNFAD_GRADIENT double chain(const std::vector<double>& xs, double k, double rest) {
  std::vector<Spring> springs;
  for (std::size_t i = 0; i + 1 < xs.size(); ++i) springs.push_back(Spring(k * (1.0 + 0.5 * i), rest));
  Vec3 sum;
  double e = 0.0;
  for (std::size_t i = 0; i + 1 < xs.size(); ++i) {
    const Vec3 a(xs[i], 0.0, 0.0), b(xs[i + 1], 1.0, 0.0);
    e += springs[i].energy(a, b);
    sum += (b - a) * springs[i].k();
  }
  return e + sum.norm();
}

/* e2e
[{"function": "spring_pair",
  "points": [[2.0, 0.5, 0.1, 0.2, 1.3, -0.4], [0.7, 1.5, -1.0, 0.5, 0.25, 1.25]]},
 {"function": "circles",
  "points": [[[0.5, 1.25, 2.0], 0.8], [[1.5, 0.3], 1.1]],
  "value_formula": "sum(pi*(v*w)**2 + abs(v*w) for v in r)"},
 {"function": "running_mean",
  "points": [[[0.5, -1.25, 2.0], 0.8], [[1.5, 0.3], -1.1]],
  "value_formula": "1.0 + scale*sum(x*x for x in v)"},
 {"function": "chain",
  "points": [[[0.0, 1.5, 2.25, 4.0], 2.0, 0.75], [[0.5, -1.0, 1.0], 1.2, 0.5]]}]
*/
