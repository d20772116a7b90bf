// Found by test/fuzz/fuzz.py (feature "inplace", unfad-fuzz:1:81), shrunk by hand.
// The output is written whole, then updated in place inside an if-branch.
// unfad stopped with "internal error in unfad: reverse: the in/out array 'out'
// would need a whole copy, and its length is unknown (a pointer parameter)":
// a branch's stores in a nested loop were saved by copying the array. They
// now go to an undo log, as a loop iteration's do.
#include <unfad/unfad.h>

#include <vector>

UNFAD_GRADIENT double fuzz_inplace_output_in_branch(const std::vector<double>& a, double* out, double x, int n) {
  for (int i = 0; i < n; ++i) {
    out[i] = x * a[i];
  }
  if (x > 0.5) {
    for (int i = 0; i < n; ++i) {
      out[i] *= x;
    }
  }
  return x * x;
}

/* e2e
{"function": "fuzz_inplace_output_in_branch",
 "points": [[[0.5, -1.25, 2.0], null, 1.5, 3], [[0.5, -1.25, 2.0], null, -0.75, 3]],
 "outputs": {"out": 3}}
*/
