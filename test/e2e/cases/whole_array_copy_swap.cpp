// Double buffering as iterative schemes write it: `y = next;`, `y.swap(next)`
// and `std::swap(a, b)` of local std::vectors of one length (one declared
// with the other's size), and `=` between std::arrays and from braces. Each was refused
// before ("assignment of whole arrays is not supported yet", "'swap' on
// arrays is not supported yet"): bug reports from trying code as it is
// written.
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <utility>
#include <vector>

// Jacobi smoothing, the new values swapped in by the member swap.
UNFAD_GRADIENT double smooth_member_swap(const std::vector<double>& x) {
  std::vector<double> y = x;
  for (int it = 0; it < 3; ++it) {
    std::vector<double> next(y.size());
    for (std::size_t i = 0; i < y.size(); ++i) {
      const double l = i > 0 ? y[i - 1] : 0.0, r = i + 1 < y.size() ? y[i + 1] : 0.0;
      next[i] = 0.25 * l + 0.5 * y[i] + 0.25 * r;
    }
    y.swap(next);
  }
  double s = 0.0;
  for (double v : y) s += v * v * v;
  return s;
}

// A nonlinear map iterated, the result assigned back.
UNFAD_GRADIENT double iterate_assign(const std::vector<double>& x) {
  std::vector<double> y = x;
  for (int it = 0; it < 3; ++it) {
    std::vector<double> next(y.size());
    for (std::size_t i = 0; i < y.size(); ++i) next[i] = std::sin(y[i]) + (i ? y[i - 1] : 0.0);
    y = next;
  }
  double s = 0.0;
  for (double v : y) s += v * v;
  return s;
}

// Two buffers declared together, exchanged by std::swap every step.
UNFAD_GRADIENT double ping_pong(const std::vector<double>& x, double c) {
  std::vector<double> a = x, b(x.size());
  for (int it = 0; it < 4; ++it) {
    for (std::size_t i = 0; i < a.size(); ++i) b[i] = std::sin(a[i]) + c * a[(i + 1) % a.size()];
    std::swap(a, b);
  }
  double s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

// Fixed-size state: std::array assignment, from another and from braces.
UNFAD_GRADIENT double rotate_state(double t, int steps) {
  std::array<double, 3> p{1.0, 0.5, -0.25}, q{};
  p = {p[1] + 0.1 * t, p[0]}; // braces, read before any element is assigned; the third becomes 0
  for (int s = 0; s < steps; ++s) {
    q[0] = std::cos(t) * p[0] - std::sin(t) * p[1];
    q[1] = std::sin(t) * p[0] + std::cos(t) * p[1];
    q[2] = p[2] + 0.1 * p[0] * p[1];
    p = q;
  }
  return p[0] + 2.0 * p[1] + 3.0 * p[2];
}

/* e2e
[{"function": "smooth_member_swap", "points": [[[0.5, -1.25, 2.0, 0.3, 1.1]], [[1.5]]]},
 {"function": "iterate_assign", "points": [[[0.5, -1.25, 2.0, 0.3]]]},
 {"function": "ping_pong", "points": [[[0.5, -1.25, 2.0], 0.3], [[0.1, 0.7, -0.4, 1.2], -0.8]]},
 {"function": "rotate_state", "points": [[0.4, 3], [1.3, 5]]}]
*/
