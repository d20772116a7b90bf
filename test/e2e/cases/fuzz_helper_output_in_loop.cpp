// Found by test/fuzz/fuzz.py --features base,loops,arrays,outputs (unfad-fuzz:7:8),
// shrunk, then by hand: a helper adds into the output array (o[i] += 0.5) and is
// called inside a loop. f_grad performs the writes more than once: out ends as
// (1, 1) after the for loop (f: (0.5, 0.5)) and as (1.5, 1.5) after the while
// loop: the loop is run again (twice for the while loop: counting pass and
// taping pass) with its writes to the output. Called outside a loop it is right.
#include <unfad/unfad.h>

static void add_half(double* o, int n) {
  for (int i = 0; i < n; ++i) o[i] += 0.5;
}

UNFAD_GRADIENT double fuzz_helper_output_in_for(double x, int n, double* out) {
  for (int i = 0; i < 1; ++i) add_half(out, n);
  return x * x;
}

UNFAD_GRADIENT double fuzz_helper_output_in_while(double x, int n, double* out) {
  int w = 1;
  while (w > 0) {
    --w;
    add_half(out, n);
  }
  return x * x;
}

/* e2e
[{"function": "fuzz_helper_output_in_for", "points": [[1.5, 2], [-0.25, 3]], "outputs": {"out": 3},
  "grad_formula": ["2*x"]},
 {"function": "fuzz_helper_output_in_while", "points": [[1.5, 2], [-0.25, 3]], "outputs": {"out": 3},
  "grad_formula": ["2*x"]}]
*/
