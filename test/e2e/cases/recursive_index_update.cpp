// A recursive helper (never inlined) that advances an index array in place
// and leaves it advanced, called in a loop that tapes its value. Recomputing
// the loop body in the backward sweep read the call's value from its tape
// without running the call, so the index read after it was the one from
// before the call: the gradient went to the wrong element (finite
// differences disagreed in every component). Now the integer reads after
// such a call are taped too, or, where they are nested in a branch, the
// call runs again (lib/ad/rev/calls.cpp, tapes.cpp). Determinant by minors,
// whose recursion puts its index lists back, keeps its cost.
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

static double walk(const double* a, std::vector<int>& idx, int d) {
  if (d == 0) return a[idx[0]];
  idx[0] = (idx[0] + 1) % 3;
  return std::sin(a[idx[0]]) * walk(a, idx, d - 1);
}

// The index read at the top level of the body after the call.
UNFAD_GRADIENT double looped_walk(const double* a) {
  std::vector<int> idx(2, 0);
  double s = 0.0;
  for (int i = 0; i < 3; ++i) {
    const double w = walk(a, idx, 2);
    s += w * a[idx[0]] + std::cos(w);
  }
  return s;
}

// The index read inside a branch after the call, and written after it.
UNFAD_GRADIENT double branchy_walk(const double* a, int n) {
  std::vector<int> idx(1, 1);
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    const double w = walk(a, idx, i % 3);
    if (idx[0] != 2) {
      s += w * a[idx[0]];
    } else {
      s -= std::exp(0.5 * w) * a[0];
      idx[0] = 0;
    }
  }
  return s;
}

/* e2e
[{"function": "looped_walk", "points": [[[0.5, -1.25, 2.0]], [[1.5, 0.25, -0.75]]]},
 {"function": "branchy_walk", "points": [[[0.5, -1.25, 2.0], 5], [[1.5, 0.25, -0.75], 7]]}]
*/
