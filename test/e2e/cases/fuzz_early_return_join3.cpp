// Found while fuzzing (issue 4): generated code size exponential in the number
// of if-statements that return early on one path and fall through on the
// others. The code after each such `if` (its continuation) is copied into every
// path that reaches it, so it doubles with each one: for n = 2, 4, 6, 8, 10 of
// them f_grad has 131, 635, 2651, 10715, 42971 lines. The test
// fuzz.early_return_linear_size compares this case (n = 3) with its sibling
// and expects linear growth.
#include <unfad/unfad.h>

UNFAD_GRADIENT double fuzz_early_return_join3(double x, double y) {
  double s = x;
  if (x > 0.5) {
    if (y > 0.25)
      return s * y;
    s = s * x;
  } else {
    s = s + y;
  }
  if (x > 1.5) {
    if (y > 1.25)
      return s * y;
    s = s * x;
  } else {
    s = s + y;
  }
  if (x > 2.5) {
    if (y > 2.25)
      return s * y;
    s = s * x;
  } else {
    s = s + y;
  }
  return s;
}

/* e2e
{"function": "fuzz_early_return_join3",
 "points": [[0.125, 1.0], [1.75, 0.125], [2.75, 0.0625], [1.25, 0.5], [4.0, -1.0], [6.75, 1.5]]}
*/
