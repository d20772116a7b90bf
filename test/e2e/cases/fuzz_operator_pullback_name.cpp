// Found while fuzzing (issue 4): a helper that is an overloaded operator.
// unfad names its pullback after the C++ name, `operator+_pullback`, which is
// not an identifier: the generated code does not compile (second `unfad -i`
// and the compilers fail). Expected: a valid name (e.g. `operator_plus_pullback`).
#include <unfad/unfad.h>

struct FzV {
  double x, y;
};

static FzV operator+(FzV a, FzV b) { return {a.x + b.x, a.y + b.y}; }

UNFAD_GRADIENT double fuzz_operator_plus(double x, double y) {
  const FzV v = FzV{x, 1.0} + FzV{2.0, x * y};
  return v.x * v.y;
}

/* e2e
{"function": "fuzz_operator_plus",
 "points": [[0.5, 2.0], [-1.25, 0.75]],
 "grad_formula": ["(1 + x*y) + (x + 2)*y", "(x + 2)*x"]}
*/
