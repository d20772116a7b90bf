// Integer bit operations steering numerical code, as written: parity by
// `i & 1`, halving by `i >> 1`, a mask in a loop (`(mask >> k) & 1`, a
// subset of terms), `^` and `~`, compound `|=`, `<<=`, `&=` on integer
// locals and array elements. Refused before ("bitwise operator '&' is not
// supported"). They are passive (integers), printed with their operands in
// parentheses.
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double alternating(const double* x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    const double sign = (i & 1) ? -1.0 : 1.0;
    s += sign * x[i] * x[i >> 1] + std::abs(i - 2) * x[i];
  }
  return s;
}

UNFAD_GRADIENT double subset_energy(const double* x, int n, int mask) {
  double s = 0;
  for (int k = 0; k < n; ++k)
    if ((mask >> k) & 1) s += std::exp(x[k]) * (k ^ 3);
  return s + (~mask & 7) * x[0];
}

UNFAD_GRADIENT double flags(const double* x, int n) {
  int seen = 0, bits[4] = {1, 2, 4, 8};
  double s = 0;
  for (int i = 0; i < n; ++i) {
    if (x[i] > 0) seen |= 1 << (i % 4);
    bits[i % 4] <<= 1;
    bits[i % 4] &= 15;
    s += x[i] * (seen + bits[i % 4]);
  }
  return s;
}

/* e2e
[{"function": "alternating", "points": [[[0.3, -1.2, 2.0, 0.5, 0.7], 5]],
  "grad_formula": ["[(1 if i % 2 == 0 else -1) * x[i // 2] + abs(i - 2) + sum((1 if j % 2 == 0 else -1) * x[j] for j in range(5) if j // 2 == i) for i in range(5)]"]},
 {"function": "subset_energy", "points": [[[0.3, -1.2, 2.0, 0.5], 4, 11], [[0.3, -1.2, 2.0, 0.5], 4, 4]]},
 {"function": "flags", "points": [[[0.3, -1.2, 2.0, 0.5, 0.7, -0.1], 6]]}]
*/
