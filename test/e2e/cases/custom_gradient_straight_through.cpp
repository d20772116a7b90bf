// A registered derivative that is deliberately not the true one: a
// straight-through estimator (quantisation in the forward pass, the
// identity's derivative in the backward pass), as used to train quantised
// models. The true derivative of `quantize` is 0 almost everywhere, so the
// hand formulas below hold only if unfad calls the user's pullback.
#include <unfad/unfad.h>

#include <cmath>
#include <functional>
#include <numeric>
#include <vector>

// x rounded to a multiple of 1/4.
double quantize(double x) { return std::round(4.0 * x) / 4.0; }
void quantize_pullback(double x, double d_result, double* d_x) {
  (void)x;
  *d_x += d_result; // straight through
}
UNFAD_CUSTOM_GRADIENT(quantize, quantize_pullback);

UNFAD_GRADIENT double quantized_product(double x, double y) { return quantize(x) * y + quantize(x * y); }

// The function given by name to an algorithm: its registered derivative too.
UNFAD_GRADIENT double quantized_total(const std::vector<double>& x) {
  return std::transform_reduce(x.begin(), x.end(), 0.0, std::plus<>(), quantize);
}

/* e2e
[{"function": "quantized_product", "fd": false,
  "points": [[0.3, 2.0], [-1.1, 0.7], [2.05, -1.3]],
  "value_formula": "floor(4*x + 0.5)/4*y + floor(4*x*y + 0.5)/4",
  "grad_formula": ["y + y", "floor(4*x + 0.5)/4 + x"]},
 {"function": "quantized_total", "fd": false,
  "points": [[[0.3, -1.1, 2.05]], [[0.6]]],
  "value_formula": "sum(floor(4*v + 0.5)/4 for v in x)",
  "grad_formula": ["[1.0]*len(x)"]}]
*/
