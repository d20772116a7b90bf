#include <unfad/unfad.h>
#include <cmath>
#include "local.h"
#include "params.h"

UNFAD_GRADIENT double model(double a, double b) {
  if (a > b) return MODEL_SCALE * sq(a - MODEL_OFFSET) + std::sin(b);
  return std::exp(a * b) + b;
}
