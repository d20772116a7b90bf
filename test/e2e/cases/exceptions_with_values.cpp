// Exceptions whose message reads the function's numbers, as library code
// writes its argument checks: `std::to_string` of an index, of a size, of a
// double, in the marked function, in a loop, in a helper lowered into it and
// in an arm of `?:`, and `throw k;` of an int. Refused before ("the
// exception thrown here must be built from literals"). f_grad throws the
// same exception (same what()) where f does, with the adjoints untouched;
// the harness checks the message.
#include <unfad/unfad.h>

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

UNFAD_GRADIENT double prefix_energy(const std::vector<double>& x, int k) {
  if (k < 0 || k >= static_cast<int>(x.size()))
    throw std::out_of_range("index " + std::to_string(k) + " out of range for size " + std::to_string(x.size()));
  double s = 0;
  for (int i = 0; i <= k; ++i) s += x[i] * x[i];
  return s;
}

static double checked_log(double v, int i) {
  if (!(v > 0)) throw std::domain_error("log of a non-positive value at " + std::to_string(i + 1));
  return std::log(v);
}

UNFAD_GRADIENT double log_likelihood(const double* p, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    if (p[i] > 1) throw std::invalid_argument("probability " + std::to_string(p[i]) + " above one");
    s += checked_log(p[i], i);
  }
  return s;
}

UNFAD_GRADIENT double ratio(double a, double b, int tries) {
  return b != 0 ? a / b : throw std::runtime_error("zero denominator after " + std::to_string(tries) + " tries");
}

UNFAD_GRADIENT double code(double x, int k) {
  if (k > 3) throw k;
  return x * k;
}

/* e2e
[{"function": "prefix_energy", "points": [[[0.5, -1.25, 2.0], 1], [[0.5, -1.25, 2.0], 2]],
  "throws": [{"at": [[0.5, 1.0], 5], "what": "index 5 out of range for size 2"},
             {"at": [[0.5, 1.0], -1], "what": "index -1 out of range for size 2"}]},
 {"function": "log_likelihood", "points": [[[0.2, 0.5, 0.3], 3]],
  "throws": [{"at": [[0.2, -0.5, 0.3], 3], "what": "log of a non-positive value at 2"},
             {"at": [[0.2, 1.5, 0.3], 3], "what": "probability 1.500000 above one"}]},
 {"function": "ratio", "points": [[1.5, -0.5, 2]],
  "throws": [{"at": [1.0, 0.0, 7], "what": "zero denominator after 7 tries"}]},
 {"function": "code", "points": [[1.5, 2]]}]
*/
