// Reassignment and compound assignment (= += -= *= /= ++ --) turned into SSA.
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double compound(double x, double y) {
  double a = x;
  a += y;      // x + y
  a *= x;      // (x + y) x
  double b = y;
  b -= a;      // y - (x + y) x
  b /= x + 2;  // (y - (x + y) x) / (x + 2)
  a++;
  ++a;
  a--;         // (x + y) x + 1
  b = b * b + a;
  b += std::sin(b);
  double c = b;
  c = c * y;
  c = -c;
  return c + a * b;
}

/* e2e
{"function": "compound",
 "points": [[1.5, 0.5], [-0.75, 2.25], [3.0, -1.25], [0.125, 0.375]]}
*/
