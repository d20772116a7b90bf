// Found by test/fuzz/fuzz.py (issue 4): a marked *static* function whose
// gradient the program does not call. Its generated `static double
// fuzz_sq_grad(...)` is unused, so `g++ -Wall -Werror` stops with
// "'double fuzz_sq_grad(double, double*)' defined but not used
// [-Wunused-function]" (clang++ is silent). Expected: generated code that is
// warning-free, e.g. `[[maybe_unused]] static double fuzz_sq_grad(...)`.
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT static double fuzz_sq(double a) { return a * std::sin(a); }

UNFAD_GRADIENT double fuzz_uses_sq(double x, double y) { return fuzz_sq(x * y) + y; }

/* e2e
{"function": "fuzz_uses_sq",
 "points": [[0.5, 2.0], [-1.25, 0.75]],
 "grad_formula": ["(sin(x*y) + x*y*cos(x*y))*y", "(sin(x*y) + x*y*cos(x*y))*x + 1"]}
*/
