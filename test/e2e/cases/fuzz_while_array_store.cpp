// Found by test/fuzz/fuzz.py --features base,loops,arrays (unfad-fuzz:1:10), shrunk
// by hand: a while loop whose body writes a local array. f_grad runs the loop once
// to count its iterations (with its stores), then runs it again from the state it
// left to record the tape, so the array is updated twice as often: at x = -1.9375
// f = x (1 - x)^2 = -16.7185 but f_grad returned -144.262, and d/dx = 106.85
// instead of 20.0117. Both with a data-dependent condition and with a counter only.
#include <unfad/unfad.h>

#include <vector>

UNFAD_GRADIENT double fuzz_while_array_store(double x) {
  double r[1] = {};
  r[0] = x;
  int w = 0;
  while (w < 2 && x < -1.0) {
    ++w;
    r[0] -= r[0] * x;
  }
  return r[0];
}

UNFAD_GRADIENT double fuzz_while_vector_store(double x) {
  std::vector<double> r(1);
  r[0] = x;
  int w = 0;
  while (w < 2) {
    ++w;
    r[0] -= r[0] * x;
  }
  return r[0];
}

/* e2e
[{"function": "fuzz_while_array_store",
  "points": [[-1.9375], [-1.5], [0.75]],
  "value_formula": "x*(1-x)**2 if x < -1 else x",
  "grad_formula": ["(1-x)**2 - 2*x*(1-x) if x < -1 else 1"]},
 {"function": "fuzz_while_vector_store",
  "points": [[-1.9375], [0.5], [2.0]],
  "value_formula": "x*(1-x)**2",
  "grad_formula": ["(1-x)**2 - 2*x*(1-x)"]}]
*/
