// Found by test/fuzz/fuzz.py --features base,loops,arrays --clangxx clang++-19
// (unfad-fuzz:1:36), shrunk: a loop carries x through a do-while loop but the
// result does not depend on it. f_grad's reverse loop then holds
// `d_state_loop_0 = d_state_loop_0;`, which clang++ -Wall warns about
// (-Wself-assign; an error under -Werror), next to a useless tape of x and a
// while loop that only recounts iterations.
// The second function (unfad-fuzz:1:73, after the first was fixed): a helper's
// nested loops update a and b, its result does not depend on them; its
// pullback holds `d_state_loop_0_1 = d_state_loop_0_1;`.
#include <unfad/unfad.h>

UNFAD_GRADIENT double fuzz_self_assign_loop_adjoint(double x) {
  for (int i = 3; i >= 0; --i) {
    int w = 0;
    do {
      ++w;
      ++x;
    } while (w < 2);
  }
  return 0.5;
}

static double fuzz_self_assign_helper(double a, double b) {
  for (int i = 0; i < 1; ++i) {
    for (int j = 0; j < 4; ++j) {
      a += a;
      b++;
    }
    --a;
  }
  return 0.5;
}

UNFAD_GRADIENT double fuzz_self_assign_nested(double x, double y) {
  return fuzz_self_assign_helper(y, x);
}

/* e2e
[{"function": "fuzz_self_assign_loop_adjoint",
  "points": [[-0.859375], [1.1875]],
  "value_formula": "0.5",
  "grad_formula": ["0"],
  "flags": ["-Wno-unused-but-set-parameter"]},
 {"function": "fuzz_self_assign_nested",
  "points": [[-0.859375, 0.5], [1.1875, -2.0]],
  "value_formula": "0.5",
  "grad_formula": ["0", "0"]}]
*/
