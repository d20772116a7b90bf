// Side effects inside expressions, in the order C++ evaluates them: a post-
// increment index (`s += x[k++]` in a while loop), chained assignment of
// scalars and of array elements, a compound assignment used as a value,
// an assignment inside a compound assignment, the comma operator in a `for`
// increment and as an expression, and an `if` with an initialiser.
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double side_effects(const double* x, int n, double c) {
  double s = 0.0;
  int k = 0;
  while (k < n) s += x[k++];                 // s = sum x
  double a, b;
  a = b = c * s;                             // a = b = c s
  double u = (a += b) * c;                   // a = 2 c s, u = 2 c^2 s
  double t = 0.0;
  s += (t = std::sin(x[1]));                 // t = sin x1, s = sum x + t
  for (int i = 0, j = n - 1; i < j; ++i, --j) u += x[i] * x[j];
  double loc[3];
  loc[0] = loc[2] = x[0] * c;                // both x0 c
  loc[1] = (u += 1.0, u * 0.5);              // u += 1, loc1 = u / 2
  if (double w = x[2] * c; w > 0) u += w * w; else u -= w;
  int m = 0;
  double p = x[m++];                         // x0, m = 1
  p *= x[++m];                               // x0 x2, m = 2
  return u + s * t + loc[0] * loc[1] + loc[2] + a + p;
}

struct Pt {
  double x, y;
};

// The value of a post-increment of an array element is the old element; an
// assignment to one field inside another's; one declaration per full
// expression (`int j = i++, k = i;`); a store whose index has a side effect.
UNFAD_GRADIENT double effect_values(const double* x, int n) {
  double acc[3] = {x[0], x[1], x[2]};
  const double before = acc[1]++ * 2.0;      // 2 x1, acc1 = x1 + 1
  Pt p{0.0, 0.0};
  p.x = (p.y = x[0] * x[1]) + 1.0;           // y = x0 x1, x = x0 x1 + 1
  int i = 0;
  int j = i++, k = i;                        // j = 0, k = 1
  acc[k++] += x[j] * 3.0;                    // acc1 += 3 x0, k = 2
  double t;
  acc[k] *= (t = x[2]);                      // acc2 = x2 * x2
  double s = 0.0;
  int m = n;
  while (m > 0) s += x[--m] * 2.0;           // 2 sum x
  return before + p.x * p.y + acc[0] * t + acc[1] * acc[2] + s;
}

/* e2e
[{"function": "side_effects",
  "points": [[[0.5, -1.25, 2.0, 0.75], 4, 1.5], [[1.5, 0.25, -0.5, 2.0, -1.0], 5, -0.75], [[0.3, 0.6, 0.9], 3, 2.0]]},
 {"function": "effect_values",
  "points": [[[0.5, -1.25, 2.0, 0.75], 4], [[1.5, 0.25, -0.5], 3]],
  "value_formula": "2*x[1] + (x[0]*x[1] + 1)*x[0]*x[1] + x[0]*x[2] + (x[1] + 1 + 3*x[0])*x[2]*x[2] + 2*sum(x)"}]
*/
