// Found by test/fuzz/fuzz.py --features base,loops,arrays,outputs (unfad-fuzz:301:47),
// shrunk, then by hand: a helper's loop updates state (s.x, t) that never reaches
// its result. h_pullback still tapes the loop and runs it backwards with zero
// adjoints; where that dead state overflowed to inf, 0 * inf gives NaN:
// d/dx = NaN instead of 1 (d/dy = 1 is right). The adjoint of state that does
// not reach the result is zero and need not be computed at all (nor taped).
#include <unfad/unfad.h>

struct V2 {
  double x, y;
};

static double keep_y(V2 s) {
  double t = 0.5;
  for (int i = 0; i < 4; ++i) {
    s.x *= 1.0 + t * t;
    t += s.x;
  }
  return s.y;
}

UNFAD_GRADIENT double fuzz_dead_loop_state_nan(double x, double y) {
  return keep_y(V2{x * 1e100, y}) + x;
}

/* e2e
{"function": "fuzz_dead_loop_state_nan", "points": [[2.0, 3.0], [-1.5, 0.25]],
 "value_formula": "y + x", "grad_formula": ["1", "1"]}
*/
