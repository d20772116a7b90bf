// Members of structs of views as state: a `double` member carrying a
// derivative, a pointer member moved in a loop (`c.at += c.stride`) and
// chosen in a branch, a helper given a copy that it advances itself, and a
// helper returning a pointer from two `return`s into one array.
#include <unfad/unfad.h>

#include <cmath>

struct Cursor {
  const double* at;
  int stride;
  double scale;
};

// advances its own copy: the caller's cursor does not move
static double sum_steps(Cursor c, int steps) {
  double s = 0.0;
  for (int k = 0; k < steps; ++k) {
    s += c.scale * *c.at;
    c.at += c.stride;
  }
  return s;
}

static const double* pick(const double* a, int n, bool last) {
  if (last) return a + n - 1;
  return a;
}

UNFAD_GRADIENT double walk(const double* a, double w, int n, bool flip) {
  Cursor c{a, 2, w * w};
  double s = sum_steps(c, n / 2);
  if (flip) c.at = a + 1;
  else c.at = a + n - 1;
  for (int k = 0; k < 2; ++k) {
    s += std::sin(c.scale * c.at[0]);
    c.at -= 1;
    c.scale *= 0.5;
  }
  return s + *pick(a, n, flip) * *pick(a, n, !flip);
}

/* e2e
[{"function": "walk",
  "points": [[[0.5, -0.3, 0.2, 0.7, 0.1, -0.4], 1.3, 6, true],
             [[0.5, -0.3, 0.2, 0.7, 0.1, -0.4], -0.7, 6, false]]}]
*/
