// A template helper instantiated at double, helpers in other namespaces, and
// a marked function inside a namespace (f_grad goes in the same namespace).
#include <unfad/unfad.h>

#include <cmath>

template <typename T> T cube(T a) { return a * a * a; }

template <typename T> T lerp(T a, T b, T t) { return a + t * (b - a); }

namespace phys {
namespace detail {
double spring(double d, double k) { return 0.5 * k * d * d; }
} // namespace detail

inline double energy(double d) { return detail::spring(d - 1.0, 4.0) + std::exp(-d); }
} // namespace phys

namespace model {

UNFAD_GRADIENT double templ(double x, double y) {
  return cube(x) + cube<double>(y) * x + lerp(x, y, 0.25) + phys::energy(x * y);
}

} // namespace model

/* e2e
{"function": "templ", "call": "model::templ",
 "points": [[0.5, 1.25], [-1.5, 0.75], [2.0, -2.5]],
 "grad_formula": [
   "3*x*x + y**3 + 0.75 + (4*(x*y - 1) - exp(-x*y))*y",
   "3*y*y*x + 0.25 + (4*(x*y - 1) - exp(-x*y))*x"]}
*/
