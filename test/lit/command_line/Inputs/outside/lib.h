// A marked function in a header outside the directory of the file that
// includes it: not unfad's to rewrite when it processes that file.
#pragma once
#include <unfad/unfad.h>

inline UNFAD_GRADIENT double lib_sq(double x) { return x * x; }
