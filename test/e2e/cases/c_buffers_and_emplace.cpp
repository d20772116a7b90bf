// Two shapes people write that were refused (bug reports from trying code as
// it is written): C's memcpy/memset on buffers of numbers ("call to 'memcpy'
// whose body is not visible"), and emplace_back with a constructor's
// arguments ("'emplace_back' with other than one argument is not
// supported"): a chain of springs built in a vector of a class with a
// constructor, an overloaded constructor chosen by the argument types.
#include <unfad/unfad.h>

#include <cmath>
#include <cstring>
#include <vector>

// A ring buffer of the last four values, shifted with memmove's safe cousin
// (a copy into a scratch buffer), cleared with memset.
UNFAD_GRADIENT double smoothed(const double* x, int n) {
  double window[4];
  std::memset(window, 0, sizeof window);
  double scratch[4];
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    std::memcpy(scratch, window + 1, 3 * sizeof(double));
    scratch[3] = x[i];
    memcpy(window, scratch, sizeof(double) * 4);
    s += std::sin(window[3]) * window[0] + window[1] * window[2];
  }
  return s;
}

// A copy of the input into a vector, part of it cleared.
UNFAD_GRADIENT double copied(const double* x, int n) {
  std::vector<double> v(n);
  std::memcpy(v.data(), x, n * sizeof(double));
  std::memset(v.data() + n / 2, 0, (n - n / 2) * sizeof(double));
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += v[i] * v[i] * x[i];
  return s;
}

class Spring {
public:
  Spring(double k, double rest) : k_(k), rest_(rest) {}
  Spring(int k, double rest, double damping) : k_(k * (1.0 - damping)), rest_(rest) {}
  double energy(double x1, double x2) const {
    const double d = std::abs(x2 - x1) - rest_;
    return 0.5 * k_ * d * d;
  }

private:
  double k_, rest_;
};

UNFAD_GRADIENT double chain(const std::vector<double>& x, double k) {
  std::vector<Spring> springs;
  for (std::size_t i = 0; i + 1 < x.size(); ++i) springs.emplace_back(k * (1.0 + 0.1 * i), 1);
  springs.emplace_back(3, 0.5, 0.1); // the three-argument constructor, an int stiffness
  double e = 0.0;
  for (std::size_t i = 0; i + 1 < x.size(); ++i) e += springs[i].energy(x[i], x[i + 1]);
  return e + springs.back().energy(x.front(), x.back());
}

/* e2e
[{"function": "smoothed", "points": [[[0.5, -1.25, 2.0, 0.3, 1.1, -0.4], 6], [[1.5, 0.25], 2]]},
 {"function": "copied", "points": [[[0.5, -1.25, 2.0, 0.3, 1.1], 5]]},
 {"function": "chain", "points": [[[0.0, 1.3, 2.1, 3.4], 2.0], [[0.5, -0.4, 1.8], 0.7]]}]
*/
