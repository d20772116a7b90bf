// Lambdas in methods capturing `this` (`[&]`, `[this]`), as methods pass
// their members to std algorithms: reading members, writing them (`total_
// += t * t; ++count_;`) and calling a non-const method of the object from
// the lambda, in a plain class and in a class owning a std::vector, the
// method called in a loop, and giving `*this` to a helper that writes the
// members (a NaN before the loops knew of those writes). Refused before
// ("lambdas capturing 'this' are not supported").
#include <unfad/unfad.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

class Bag;
static void tally(Bag& b, double t);

class Bag {
 public:
  explicit Bag(int n) : n_(n), v_(n, 1.0) {}
  void absorb(const std::vector<double>& x) {
    std::for_each(x.begin(), x.end(), [&](double t) {
      total_ += t * t;
      ++count_;
    });
  }
  void absorb_scaled(const std::vector<double>& x, double s) {
    auto f = [this, s](double t) { total_ += s * std::sin(t); };
    for (double t : x) f(t);
  }
  void absorb_via(const std::vector<double>& x) {
    std::for_each(x.begin(), x.end(), [&](double t) { tally(*this, t); });
  }
  void add(double t) {
    total_ += std::cos(t);
    ++count_;
  }
  double mean() const { return total_ / count_ + v_[0] * n_; }

 private:
  int n_;
  double total_ = 0.0;
  int count_ = 0;
  std::vector<double> v_;
};

static void tally(Bag& b, double t) { b.add(t); }

struct Acc;
static void feed_one(Acc& a, double v);

struct Acc {
  double s = 0.0;
  int n = 0;
  void bump() { s *= 1.01; }
  void feed(const std::vector<double>& x, double w) {
    std::for_each(x.begin(), x.end(), [&](double v) {
      s += w * v * v;
      ++n;
      if (n % 2 == 0) bump();
    });
  }
  void feed_via(const std::vector<double>& x) {
    std::for_each(x.begin(), x.end(), [&](double v) { feed_one(*this, v); });
  }
  double weighted(const std::vector<double>& x) const {
    return std::accumulate(x.begin(), x.end(), 0.0, [this](double a, double v) { return a + s * v; });
  }
};

static void feed_one(Acc& a, double v) {
  a.s += std::sin(v);
  ++a.n;
}

UNFAD_GRADIENT double bagged(const std::vector<double>& x, double s) {
  Bag b(2);
  for (int r = 0; r < 2; ++r) {
    b.absorb(x);
    b.absorb_scaled(x, s * r);
    b.absorb_via(x);
  }
  return b.mean();
}

UNFAD_GRADIENT double fed(const std::vector<double>& x, double w) {
  Acc a;
  for (int r = 0; r < 3; ++r) {
    a.feed(x, w + r);
    a.feed_via(x);
  }
  return a.s / a.n + a.weighted(x);
}

/* e2e
[{"function": "bagged", "points": [[[0.7, -1.3, 0.4], 0.5], [[1.5, 0.25, -2.0], -1.0]]},
 {"function": "fed", "points": [[[0.7, -1.3, 0.4], 0.5], [[1.5, 0.25, -2.0], -1.0]]}]
*/
