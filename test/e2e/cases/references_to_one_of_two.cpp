// A non-const reference bound to one of two objects, chosen when it is
// bound (`double& big = x > y ? x : y;`), then written through: the write
// lands on the chosen object, and later reads of both objects see it. In a
// loop (both objects are carried), nested (one of three), to struct fields,
// to a local or an array element, handed on to a helper and a lambda, and
// the object of a non-const method call. Checked against finite differences.
#include <unfad/unfad.h>

#include <cmath>
#include <utility>
#include <vector>

UNFAD_GRADIENT double doubled_larger(double a, double b) {
  double x = a * a, y = b + 1.0;
  double& big = (x > y) ? x : y;
  big *= 2.0;
  return x * y + std::sin(big);
}

// Widen whichever end is farther from the middle, a few times.
UNFAD_GRADIENT double widened(double a, double b, double m) {
  double lo = a, hi = b;
  if (lo > hi) std::swap(lo, hi);
  for (int k = 0; k < 4; ++k) {
    double& end = (m - lo > hi - m) ? lo : hi;
    end += (end - m) * 0.25;
    ++end;
  }
  return lo * hi + std::exp(0.1 * (hi - lo));
}

struct Acc { double sum, sq; };

// One of three accumulators, by sign; a field written through the reference.
UNFAD_GRADIENT double by_sign(const std::vector<double>& x) {
  Acc neg{0, 0}, zero{0, 0}, pos{0, 0};
  for (double v : x) {
    Acc& a = v < -0.1 ? neg : (v > 0.1 ? pos : zero);
    a.sum += v;
    a.sq += v * v;
  }
  return neg.sum * pos.sq + zero.sq + pos.sum;
}

// A local or an element of the output, whichever the flag picks.
UNFAD_GRADIENT void routed(const std::vector<double>& x, int flag, std::vector<double>& out) {
  double spill = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    out[i] = 0;
    double& dst = (flag > 0 && i % 2 == 0) ? out[i] : spill;
    dst += std::tanh(x[i]);
  }
  out[0] += spill * spill;
}
// An element of one of two outputs, written twice through the reference.
UNFAD_GRADIENT void split(const std::vector<double>& x, std::vector<double>& a, std::vector<double>& b) {
  for (std::size_t i = 0; i < x.size(); ++i) { a[i] = 0; b[i] = 1; }
  for (std::size_t i = 0; i < x.size(); ++i) {
    double& d = x[i] > 0 ? a[i] : b[x.size() - 1 - i];
    d += x[i] * x[i];
    d *= 1.5;
  }
}
static void bump(double& acc, double v) { acc += v; }

struct Moments {
  double s = 0, n = 0;
  void add(double v) { s += v * v; n += 1; }
  double mean() const { return s / n; }
};

// A non-const method called on the chosen object.
UNFAD_GRADIENT double split_moments(const std::vector<double>& x, double y) {
  Moments above, below;
  for (double v : x) {
    Moments& m = v > y ? above : below;
    m.add(v);
  }
  return above.mean() - 2 * below.mean();
}

// The reference handed on: to a helper writing its reference parameter, and
// captured by a lambda that writes it.
UNFAD_GRADIENT double handed_on(const std::vector<double>& x, double y) {
  double a = 0, b = 1;
  for (double v : x) {
    double& r = v > y ? a : b;
    auto put = [&](double w) { r += w; };
    put(v);
    bump(r, v * v);
  }
  return a * b;
}
/* e2e
[{"function": "doubled_larger", "points": [[1.5, 0.3], [0.2, 0.4]]},
 {"function": "widened", "points": [[1.5, 0.3, 0.8], [0.2, 2.4, 1.9]]},
 {"function": "by_sign", "points": [[[0.3, -1.2, 2.0, 0.05, -0.5]]]},
 {"function": "split", "points": [[[0.3, -1.2, 2.0, -0.5]]], "outputs": {"a": 4, "b": 4}},
 {"function": "handed_on", "points": [[[0.3, -1.2, 2.0, -0.5], 0.1]]},
 {"function": "split_moments", "points": [[[0.3, -1.2, 2.0, -0.5], 0.1]]},
 {"function": "routed", "points": [[[0.3, -1.2, 2.0, 0.5], 1], [[0.3, -1.2, 2.0, 0.5], 0]], "outputs": {"out": 4}}]
*/
