// A lambda with a range-for in its body, called twice in one expression
// (`layer(t) * layer(2 * t)`): its loop's iterators are its own locals,
// fresh at each call, not variables the two calls both write (the first
// version refused it: "two calls in this expression may modify
// '__begin2'"). A lambda writing a captured accumulator twice in one
// expression stays refused (test/lit/diagnostics).
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

UNFAD_GRADIENT double two_layers(const std::vector<double>& w, double t) {
  auto act = [](double z) { return std::tanh(z); };
  auto layer = [&](double x) {
    double s = 0;
    for (double wi : w) s += act(wi * x);
    return s;
  };
  return layer(t) * layer(2 * t);
}

UNFAD_GRADIENT double local_counter(const double* x, int n) {
  auto weighted = [&](double scale) {
    int k = 0;
    double s = 0;
    while (k < n) s += scale * x[k++];
    return s;
  };
  return weighted(1.0) * weighted(0.5) + weighted(2.0);
}

/* e2e
[{"function": "two_layers", "points": [[[0.3, -1.2, 2.0], 0.4]]},
 {"function": "local_counter", "points": [[[0.3, -1.2, 2.0], 3]]}]
*/
