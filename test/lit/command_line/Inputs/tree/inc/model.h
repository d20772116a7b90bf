// A marked function in a header that main.cpp includes from its own
// directory tree: `unfad -i main.cpp` writes model_grad here.
#pragma once
#include <unfad/unfad.h>

inline UNFAD_GRADIENT double model(double x, double y) { return x * x * y; }
