// Numbers at namespace scope that are not const, as scripts and physics codes
// keep their settings: `double g_gravity = 9.81;`, `int g_steps = 8;`, in a
// namespace, a static data member, read in the marked function and in its
// helpers. They were refused ("reads of global variable ... are not
// supported"). Nothing the call runs may write them (writes are diagnosed),
// so each holds one value during f or f_grad and is read by name: a constant
// of the differentiation, without an adjoint.
#include <unfad/unfad.h>

#include <cmath>

double g_gravity = 9.81;
int g_steps = 8;
namespace cfg {
double drag = 0.05;
float scale = 0.5f;
} // namespace cfg
struct Spring {
  static double stiffness;
};
double Spring::stiffness = 3.0;

static double drag_force(double v) { return cfg::drag * v * std::fabs(v); }

// A projectile's height after g_steps explicit Euler steps of length dt.
UNFAD_GRADIENT double height(double v0, double dt) {
  double y = 0.0, v = v0;
  for (int i = 0; i < g_steps; ++i) {
    y += dt * v;
    v -= dt * (g_gravity + drag_force(v));
  }
  return y;
}

UNFAD_GRADIENT double spring_energy(double x, double k) {
  return 0.5 * (Spring::stiffness + k) * x * x * cfg::scale;
}

/* e2e
[{"function": "height", "points": [[12.0, 0.1], [3.5, 0.25]]},
 {"function": "spring_energy", "points": [[0.7, 1.5]],
  "grad_formula": ["(3.0 + k) * x * 0.5", "0.5 * x * x * 0.5"]}]
*/
