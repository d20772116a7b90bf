// An integer division and a modulo by zero under a branch that is not
// taken: the optimiser folds the constants of the branch, and integer
// folding used to trap (SIGFPE killed unfad). Folding follows C++: a
// division by zero (or INT64_MIN / -1) is kept for run time, where this one
// never runs. (The generated code divides the constants 5 / 0, as the source
// does through variables, in the branch that never runs: the compilers' warning
// about that is turned off.)
#include <unfad/unfad.h>

UNFAD_GRADIENT double int_div_by_zero_folded(double x, int k) {
  int a = 5, b = 0;
  double r = x * x;
  if (k > 100) {
    r += x * (a / b);
    r -= x * (a % b);
  }
  return r;
}

/* e2e
{"function": "int_div_by_zero_folded", "flags": ["-Wno-div-by-zero", "-Wno-division-by-zero"],
 "points": [[2.0, 0], [-1.5, 3]],
 "value_formula": "x * x", "grad_formula": ["2 * x"]}
*/
