// `switch` as C++ programmers write it: over model kinds (an enum's constants) with a
// `return` in every case (and no return after the switch), over an int with
// `break`s, fall-through and a `default` in the middle, inside loops (where
// `break` leaves the switch and `continue` the loop), with an initialiser,
// and nested. Points are away from the kinks.
#include <unfad/unfad.h>

#include <cmath>

enum Activation { Linear, Tanh, Softplus, Square };

static double activate(int a, double z) {
  switch (a) {
  case Linear:
    return z;
  case Tanh:
    return std::tanh(z);
  case Softplus:
    return std::log1p(std::exp(z));
  case Square:
    return z * z;
  }
  return 0.0; // not reached
}

// every case returns; no return after the switch
UNFAD_GRADIENT double neuron(const double* w, const double* x, int n, int kind) {
  double z = 0.0;
  for (int i = 0; i < n; ++i) z += w[i] * x[i];
  switch (kind) {
  case Linear:
  case Tanh:
  case Softplus:
    return activate(kind, z);
  default:
    return activate(Square, z) * 0.5;
  }
}

// fall-through and a default in the middle: kind 0 scales then shifts, kind 1
// only shifts, kind 3 and 4 share a body, anything else is the default
UNFAD_GRADIENT double piecewise(double x, double y, int kind) {
  double r = x;
  switch (kind) {
  case 0:
    r *= y;
    [[fallthrough]];
  case 1:
    r += std::sin(y);
    break;
  default:
    r = x * x - y;
    break;
  case 3:
  case 4:
    r = std::exp(x * y);
  }
  return r * y;
}

// inside a loop: `break` leaves the switch, `continue` the loop; the kind of
// each term comes from a call in the switch's initialiser
static int kindOf(int i) { return i % 4; }

UNFAD_GRADIENT double mixed_terms(const double* x, int n, double scale) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    switch (int k = kindOf(i); k) {
    case 0:
      s += scale * x[i];
      break;
    case 1:
      if (x[i] < 0.0) continue;
      s += std::sqrt(x[i]);
      break;
    case 2:
      s -= x[i] * x[i];
      continue;
    default:
      s *= 1.0 + 0.1 * x[i];
    }
    s += 0.01 * scale;
  }
  return s;
}

// a return from inside a loop's switch, and a switch nested in a case
UNFAD_GRADIENT double first_big(const double* x, int n, int mode) {
  double acc = 1.0;
  for (int i = 0; i < n; ++i) {
    switch (mode) {
    case 0:
      if (x[i] > 2.0) return acc * x[i];
      acc += x[i];
      break;
    case 1:
      switch (i % 2) {
      case 0: acc *= x[i]; break;
      default: acc += 2.0 * x[i];
      }
      break;
    }
  }
  return acc;
}

/* e2e
[{"function": "neuron",
  "points": [[[0.5, -0.25, 1.0], [0.3, 0.8, -0.4], 3, 0],
             [[0.5, -0.25, 1.0], [0.3, 0.8, -0.4], 3, 1],
             [[0.5, -0.25, 1.0], [0.3, 0.8, -0.4], 3, 2],
             [[0.5, -0.25, 1.0], [0.3, 0.8, -0.4], 3, 7]]},
 {"function": "piecewise",
  "points": [[0.7, 1.3, 0], [0.7, 1.3, 1], [0.7, 1.3, 2], [0.7, 1.3, 3], [0.7, 1.3, 4], [-0.4, 0.6, -1]],
  "grad_formula": [
    "y*y if kind == 0 else y if kind == 1 else y*y*exp(x*y) if kind in (3, 4) else 2*x*y",
    "2*x*y + sin(y) + y*cos(y) if kind == 0 else x + sin(y) + y*cos(y) if kind == 1 else exp(x*y)*(1 + x*y) if kind in (3, 4) else x*x - 2*y"]},
 {"function": "mixed_terms",
  "points": [[[0.5, 1.2, 0.3, 0.8, 0.9, -0.5, 0.4, 1.1], 8, 1.5],
             [[0.2, 0.7, -0.6, 0.1, 1.4], 5, -0.5]]},
 {"function": "first_big",
  "points": [[[0.5, 1.2, 2.5, 0.8], 4, 0], [[0.5, 1.2, 1.5, 0.8], 4, 0],
             [[0.5, 1.2, 2.5, 0.8], 4, 1], [[0.5, 1.2], 2, 5]]}]
*/
