// Found by test/fuzz/fuzz.py (feature "inplace", unfad-fuzz:4:142), shrunk by hand.
// The output is written whole, then a helper scales a view of it in place in a
// counted loop of step 2 (`i += 2`): unfad refused the call as "updated in place
// in a 'while' loop ... its length is not known here (a pointer)", though the
// loop's trip count is known before it runs. Strided counted loops are now
// folds over their steps (strided_loops.cpp).
#include <unfad/unfad.h>

#include <vector>

static void scale_view(double* o, int m, double y) {
  for (int j = 0; j < m; ++j) {
    o[j] *= y;
  }
}

UNFAD_GRADIENT double fuzz_inplace_output_step2_loop(const std::vector<double>& a, double* out, double x, int n) {
  for (int i = 0; i < n; ++i) {
    out[i] = x * a[i];
  }
  for (int i = 0; i < n; i += 2) {
    scale_view(out + n - 2, 2, 0.5 + 0.25 * x);
  }
  return x;
}

/* e2e
{"function": "fuzz_inplace_output_step2_loop",
 "points": [[[0.5, -1.25, 2.0], null, 1.5, 3], [[-0.5, 1.25, 2.0], null, -0.75, 3]],
 "outputs": {"out": 3}}
*/
