#pragma once
#include <unfad/unfad.h>

inline double opaque(double);

UNFAD_GRADIENT inline double h(double x) {
  return opaque(x) * x;
}
