// Found by the libFuzzer harness (test/fuzz/frontend_fuzzer.cpp) under
// UBSan, on the seed corpus (kmeans.cpp: `double best = 1e300;`):
// lib/ir/nodes.cpp, Const::make, `static_cast<int64_t>(v)` of a double
// constant outside the range of int64_t (1e300, infinity, NaN) is undefined
// behaviour ("1e+300 is outside the range of representable values of type
// 'long'"). Passes in a normal build; fails under scripts/sanitize.sh until
// Const::make only converts values that fit.
#include <unfad/unfad.h>

#include <limits>

UNFAD_GRADIENT double fuzz_huge_constant(double x, double y) {
  double best = 1e300;
  if (x * y < best)
    best = x * y;
  const double inf = std::numeric_limits<double>::infinity();
  return (y < inf ? best : 0.0) - 1e-300 * x;
}

/* e2e
{"function": "fuzz_huge_constant", "points": [[0.5, 2.0], [-1.25, 0.75]],
 "grad_formula": ["y - 1e-300", "x"]}
*/
