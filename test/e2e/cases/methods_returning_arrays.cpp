// Methods returning arrays by value, as C++ classes for models are written:
// a dense layer whose `forward` returns its output vector (chained through
// two layers), a method returning a std::array, one returning a copy of a
// member, and a non-const method that updates the object's state and returns
// an array. Checked against finite differences.
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <vector>

struct Dense {
  std::vector<double> W, b;
  int in, out;
  Dense(int i, int o, const std::vector<double>& w, const std::vector<double>& bias) : W(w), b(bias), in(i), out(o) {}
  std::vector<double> forward(const std::vector<double>& x) const {
    std::vector<double> y(out);
    for (int r = 0; r < out; ++r) {
      double s = b[r];
      for (int c = 0; c < in; ++c) s += W[r * in + c] * x[c];
      y[r] = std::log1p(std::exp(s));
    }
    return y;
  }
};

// Two layers: the first one's output is the second one's input.
UNFAD_GRADIENT double mlp(const std::vector<double>& w1, const std::vector<double>& b1, const std::vector<double>& w2,
                          const std::vector<double>& b2, const std::vector<double>& x) {
  const Dense l1(2, 3, w1, b1), l2(3, 1, w2, b2);
  return l2.forward(l1.forward(x))[0];
}

class Particle {
 public:
  Particle(double x, double y, double vx, double vy) : p_{x, y}, v_{vx, vy} {}
  std::array<double, 2> position() const { return p_; }
  std::array<double, 2> momentum(double m) const { return {m * v_[0], m * v_[1]}; }
  // advances by dt under a drag k and returns the new position
  std::array<double, 2> step(double dt, double k) {
    for (int d = 0; d < 2; ++d) {
      v_[d] -= k * v_[d] * std::abs(v_[d]) * dt;
      p_[d] += v_[d] * dt;
    }
    return p_;
  }

 private:
  std::array<double, 2> p_, v_;
};

// A trajectory under drag: the distance from a target after some steps.
UNFAD_GRADIENT double miss(double vx, double vy, double k, double tx, double ty) {
  Particle body(0.0, 0.0, vx, vy);
  std::array<double, 2> at{};
  for (int i = 0; i < 5; ++i) at = body.step(0.1, k);
  const std::array<double, 2> q = body.momentum(2.0), p = body.position();
  return std::hypot(at[0] - tx, at[1] - ty) + 0.1 * (q[0] * q[0] + q[1] * q[1]) + p[0] * p[1];
}
/* e2e
[{"function": "mlp", "points": [[[0.3, -1.2, 2.0, 0.5, 0.1, -0.4], [0.1, -0.2, 0.3], [0.7, -0.5, 0.2], [0.05], [1.0, 0.7]]]},
 {"function": "miss", "points": [[1.2, 0.8, 0.3, 0.5, 0.2]]}]
*/
