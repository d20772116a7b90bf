// Parameters whose types are aliases: the kind of the parameter (and so its
// adjoint and whether it knows its size()) comes from what the alias names,
// not from its spelling. `const Vec&` with `Vec` a std::vector used to get
// the adjoint `Vec* d_x` (which does not compile) and `x.size()` an internal
// error; `DPtr` (a pointer to const) the adjoint `DPtr*`; `const Arr&` (a
// std::array) the adjoint `Arr*`.
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

using Vec = std::vector<double>;
using Arr = std::array<double, 3>;
using DPtr = const double*;
typedef double Real;
struct Point { double px, py; };
typedef Point PointT;
using Points = std::vector<PointT>;

UNFAD_GRADIENT double vec_alias(const Vec& x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i] * x[i];
  return s;
}

UNFAD_GRADIENT double vec_alias_size(const Vec& x) {
  double s = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) s += std::sin(x[i]) * (i + 1.0);
  return s;
}

UNFAD_GRADIENT double array_alias(const Arr& a, DPtr w, Real k) {
  double s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) s += w[i] * a[i] * a[i];
  return k * s;
}

UNFAD_GRADIENT double struct_typedef(const Points& p, const PointT* q, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += p[i].px * q[i].py - p[i].py * q[i].px;
  return s;
}

/* e2e
[{"function": "vec_alias",
  "points": [[[0.5, -1.25, 2.0], 3], [[1.5, 0.25], 2]],
  "grad_formula": ["[3*v*v for v in x]"]},
 {"function": "vec_alias_size",
  "points": [[[0.5, -1.25, 2.0]], [[1.5]]],
  "grad_formula": ["[cos(x[i])*(i+1) for i in range(len(x))]"]},
 {"function": "array_alias",
  "points": [[[0.5, -1.25, 2.0], [1.0, 2.0, 0.5], 1.5]],
  "grad_formula": ["[2*k*w[i]*a[i] for i in range(3)]", "[k*a[i]*a[i] for i in range(3)]",
                   "sum(w[i]*a[i]*a[i] for i in range(3))"]},
 {"function": "struct_typedef",
  "points": [[[[1.0, 2.0], [0.5, -1.0]], [[3.0, -0.5], [2.0, 1.5]], 2]]}]
*/
