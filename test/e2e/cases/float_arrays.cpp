// float arrays: a const float* input with float adjoints.
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT float soft_l1(const float* x, int n, float eps) {
  float s = 0.0f;
  for (int i = 0; i < n; ++i) s += std::sqrt(x[i] * x[i] + eps);
  return s;
}

/* e2e
{"function": "soft_l1",
 "points": [[[0.5, -1.25, 2.0], 3, 0.25], [[1.5, 0.75], 2, 0.5]],
 "grad_formula": ["[v/sqrt(v*v + eps) for v in x]", "sum(0.5/sqrt(v*v + eps) for v in x)"]}
*/
