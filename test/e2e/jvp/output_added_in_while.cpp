// Found by the fuzzer in forward mode (test/fuzz/fuzz.py --features
// base,loops,arrays,outputs,inout,retarr,jvp --seed 2, program 46): an output
// pointer added into inside a do-while loop, beside an in/out pointer, was
// refused ("updated in place in a 'while' loop, and its length is not known
// here"). That is a limit of reverse mode, which counts a while loop's
// iterations in a first run and must restore the array it rewrites; forward
// mode runs the loop once beside its tangent and copies nothing. Reverse mode
// still refuses this function (documented), so there is no reverse wrapper:
// finite differences along the direction are the reference.
#include <unfad/unfad.h>

#include <cmath>

UNFAD_JVP void advance(double* y, double x, double* out, int n) {
  for (int i = 0; i < n; ++i) y[i] = y[i] * std::cos(x) + 0.5 * y[n - 1 - i];
  int w = 0;
  do {
    ++w;
    out[0] += x * y[w % n] + std::sin(y[0]);
  } while (w < 3 && y[0] < 10.0);
  for (int i = 1; i < n; ++i) out[i] = y[i] * out[0];
}

/* jvp
{"function": "advance",
 "params": [["y", "inout", 3], ["x", "scalar"], ["out", "inout", 3], ["n", "int"]],
 "points": [[[0.5, -0.25, 1.0], 0.3, [0.25, -0.5, 0.75], 3], [[-1.0, 0.7, 0.2], -1.2, [0.0, 0.0, 0.0], 3]]}
*/
