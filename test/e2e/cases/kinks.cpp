// The documented derivatives at non-differentiable points (README,
// "Non-differentiable points"): no finite differences here, only the values
// unfad promises.
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double kink_fabs(double x) { return std::fabs(x); }

UNFAD_GRADIENT double kink_fmin(double x, double y) { return std::fmin(x, y); }

UNFAD_GRADIENT double kink_fmax(double x, double y) { return std::fmax(x, y); }

// fmin/fmax return the other argument when one is NaN, and so does the derivative.
UNFAD_GRADIENT double kink_nan(double x) { return std::fmax(x, NAN) + 2.0 * std::fmin(NAN, x); }

UNFAD_GRADIENT double kink_floor(double x) { return std::floor(x) + std::ceil(x) + std::round(x) + std::trunc(x); }

UNFAD_GRADIENT double kink_branch(double x) { return x < 1.0 ? 2.0 * x : 3.0 * x - 1.0; }

/* e2e
[{"function": "kink_fabs", "fd": false,
  "expect": [{"at": [0], "grad": [0]}, {"at": [-2], "grad": [-1]}, {"at": [2], "grad": [1]}]},
 {"function": "kink_fmin", "fd": false,
  "expect": [{"at": [1, 1], "grad": [1, 0]}, {"at": [0.5, 1], "grad": [1, 0]}, {"at": [2, 1], "grad": [0, 1]}]},
 {"function": "kink_fmax", "fd": false,
  "expect": [{"at": [1, 1], "grad": [1, 0]}, {"at": [0.5, 1], "grad": [0, 1]}, {"at": [2, 1], "grad": [1, 0]}]},
 {"function": "kink_nan", "fd": false,
  "expect": [{"at": [1.5], "grad": [3]}, {"at": [-2], "grad": [3]}]},
 {"function": "kink_floor", "fd": false,
  "expect": [{"at": [2], "grad": [0]}, {"at": [2.5], "grad": [0]}, {"at": [-1.5], "grad": [0]}]},
 {"function": "kink_branch", "fd": false,
  "expect": [{"at": [1], "value": 2, "grad": [3]}, {"at": [0.5], "grad": [2]}]}]
*/
