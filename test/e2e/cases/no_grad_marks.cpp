// Variables and members marked UNFAD_NO_GRAD: every read of them is a
// constant of the differentiation (like unfad::no_grad(x)), so no
// derivative flows through them. The hand formulas below hold only if the
// marks are honoured (finite differences would see the true derivatives).
#include <unfad/unfad.h>

#include <cmath>

// A step size computed from x, used as a constant.
UNFAD_GRADIENT double damped(double x, double y) {
  UNFAD_NO_GRAD double step = 0.5 * x;
  double acc = 0.0;
  for (int i = 0; i < 3; ++i) acc += step * y;
  step = step * 2.0; // assigned again: still no derivative
  return acc + x * x + step;
}

// A member marked in the class: the scale of a model is a hyperparameter.
struct Model {
  double gain;
  UNFAD_NO_GRAD double scale;
  double apply(double x) const { return gain * scale * x; }
};

UNFAD_GRADIENT double model_output(double g, double s, double x) {
  const Model m{g, s * x};
  return m.apply(x) + m.scale * std::sin(x);
}

/* e2e
[{"function": "damped", "fd": false,
  "points": [[0.5, 2.0], [-1.5, 0.25]],
  "value_formula": "3*0.5*x*y + x*x + x",
  "grad_formula": ["2*x", "3*0.5*x"]},
 {"function": "model_output", "fd": false,
  "points": [[1.5, 0.5, 2.0], [-0.5, 2.0, 0.75]],
  "value_formula": "g*s*x*x + s*x*sin(x)",
  "grad_formula": ["s*x*x", "0", "g*s*x + s*x*cos(x)"]}]
*/
