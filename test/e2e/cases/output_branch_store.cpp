// An output written inside a branch inside a loop and updated again after
// the loop: recomputing the loop body for its gradient must not redo the
// write (it would overwrite the later update). Regression test.
#include <unfad/unfad.h>

UNFAD_GRADIENT void masked_square_then_bump(const double* x, int n, double k, double* out) {
  for (int i = 0; i < n; ++i) {
    if (x[i] > 0) out[i] = k * x[i] * x[i];
    else out[i] = -k;
  }
  out[0] += k * x[0];
}

/* e2e
{"function": "masked_square_then_bump", "outputs": {"out": 3},
 "points": [[[0.5, -1.5, 2.0], 3, 1.3], [[-0.75, 1.5, 0.25], 3, 0.6]]}
*/
