// A call of a function whose body is not visible: refused (the message
// names both ways out); with --numerical-fallback a warning at the call,
// and a gradient by central differences.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck --check-prefix=REFUSED %s
// RUN: %unfad --numerical-fallback %s -- -std=c++17 2>&1 >/dev/null | FileCheck --check-prefix=WARN %s
// RUN: %unfad --numerical-fallback %s -- -std=c++17 2>/dev/null | FileCheck --check-prefix=CODE %s
#include <unfad/unfad.h>

double opaque(double a, int k);
UNFAD_GRADIENT double f(double x) {
// REFUSED: numerical_fallback.cpp:[[@LINE+2]]:10: error: cannot differentiate 'f': call to 'opaque' whose body is not visible (give it a derivative with UNFAD_CUSTOM_GRADIENT, or differentiate it numerically with --numerical-fallback)
// WARN: numerical_fallback.cpp:[[@LINE+1]]:10: warning: 'opaque' has no visible body: differentiated by a numerical derivative (central differences, --numerical-fallback)
  return opaque(x, 2) * x;
}
// CODE: opaque_pullback(double a, int k, double d_return, double* d_a)
// CODE: opaque(unfad::no_grad(a)
