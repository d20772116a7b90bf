// Switches in loops in the shapes that stress the joins: a switch under an
// `if` in a `while`, `continue` from a case and from a switch nested in a case
// (a braced case body), a `return` from a default in the middle, GNU case
// ranges, and a switch writing an output array.
#include <unfad/unfad.h>
#include <cmath>
UNFAD_GRADIENT double tricky(const double* x, int n, double a) {
  double s = 0.0;
  int i = 0;
  while (i < n) {
    const int k = i;
    ++i;
    if (x[k] > -5.0) {
      switch (k % 3) {
      case 0:
        if (x[k] > 1.0) continue;
        s += a * x[k];
        break;
      case 1: {
        double t = x[k] * x[k];
        switch (k % 2) { case 0: t *= a; break; default: t += a; continue; }
        s += t;
      } break;
      default:
        s -= std::sin(a * x[k]);
        if (s > 100.0) return s;
      }
    }
    s *= 1.0 + 0.01 * a;
  }
  return s;
}
UNFAD_GRADIENT void outv(const double* x, int n, int kind, double* out) {
  for (int i = 0; i < n; ++i) {
    switch (kind + i) {
    case 0: out[i] = x[i]; break;
    case 1 ... 3: out[i] = x[i] * x[i]; break;
    default: out[i] = std::exp(x[i]);
    }
  }
}
/* e2e
[{"function": "tricky", "points": [[[0.5, 1.5, -0.3, 0.8, 2.0, 0.4, -0.7], 7, 1.3], [[0.2, 0.3, 0.4, 0.5, 0.6], 5, -0.8]]},
 {"function": "outv", "points": [[[0.5, 1.5, -0.3, 0.8, 2.0], 5, 0], [[0.5, 1.5, -0.3, 0.1, 0.2], 5, -1]], "outputs": {"out": 5}}]
*/
