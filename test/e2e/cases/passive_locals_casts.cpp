// int and bool locals are passive; casts between float, double and int.
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double passive_locals(double x, double y, int n) {
  int k = n * 2 + 1;       // passive
  k += 3;
  bool big = k > 6;        // passive
  const int j = static_cast<int>(x);  // truncation: derivative zero
  double r = x * static_cast<double>(k) + y * (double)n;
  if (big)
    r = r * y;
  r += j * y;              // j is passive: only y's derivative
  const float xf = static_cast<float>(x);  // double -> float -> double
  r += static_cast<double>(xf) * 0.0 + k;
  return r;
}

UNFAD_GRADIENT double int_arith(double x, int n, int m) {
  const int q = n / m;
  const int rem = n % m;
  const long big = static_cast<long>(n) * 1000;
  double r = x;
  if (q > 1 && rem != 0)
    r = r * x;
  return r * (double)big / 1000.0 + q;
}

/* e2e
[{"function": "passive_locals",
  "points": [[1.5, 0.5, 1], [-2.75, 2.25, 3], [3.25, -1.25, 0], [0.125, 0.375, -2]]},
 {"function": "int_arith",
  "points": [[1.5, 7, 3], [-0.75, 6, 3], [2.5, 1, 4]],
  "grad_formula": ["(2*x if (n//m > 1 and n % m != 0) else 1) * n"]}]
*/
