// Found by test/fuzz/fuzz.py --features base,loops,arrays --clangxx clang++-19
// (unfad-fuzz:1:36), shrunk: a loop carries x through a do-while loop but the
// result does not depend on it. f_grad's reverse loop then holds
// `d_state_loop_0 = d_state_loop_0;`, which clang++ -Wall warns about
// (-Wself-assign; an error under -Werror), next to a useless tape of x and a
// while loop that only recounts iterations.
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

/* e2e
{"function": "fuzz_self_assign_loop_adjoint",
 "points": [[-0.859375], [1.1875]],
 "value_formula": "0.5",
 "grad_formula": ["0"],
 "flags": ["-Wno-unused-but-set-parameter"]}
*/
