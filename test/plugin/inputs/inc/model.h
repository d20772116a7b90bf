// A marked function in a header: the plugin defines model_grad right after it.
#pragma once
#include <unfad/unfad.h>
#include <cmath>

inline double sq(double v) { return v * v; }

UNFAD_GRADIENT inline double model(double a, double b) {
  if (b < 0) return sq(a - 1.0) + std::log(1.0 + b * b) * a;
  return sq(a - 1.0) + b * a;
}
