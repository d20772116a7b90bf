// Argument checks (a throw at the top, a throw in a loop, a switch whose
// default throws): the gradient throws the same exception at the same point
// of its forward sweep, once; the backward sweep neither repeats the checks
// nor keeps flags saying which branch ran (the branch that throws became a
// check: hoist_throws.cpp); the loop with a check is not fused with its
// adjoint sweep (a throw leaves the adjoints untouched).
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>
#include <stdexcept>

UNFAD_GRADIENT double nll(const double* p, int n) {
  if (n <= 0) throw std::invalid_argument("nll: empty");
  double s = 0;
  for (int i = 0; i < n; ++i) {
    if (p[i] <= 0) throw std::domain_error("nll: p <= 0");
    s -= std::log(p[i]);
  }
  return s;
}

// CHECK-LABEL: double nll_grad(const double* p, int n, double* d_p) {
// CHECK:         if ({{.*}}) {
// CHECK-NEXT:      throw std::invalid_argument("nll: empty");
// CHECK-NEXT:    }
// CHECK:         for (long i = 0; i < n; ++i) {
// CHECK:           if ({{.*}}) {
// CHECK-NEXT:        throw std::domain_error("nll: p <= 0");
// CHECK-NEXT:      }
// CHECK:           std::log(
// CHECK-NEXT:    }
// CHECK-NEXT:    for (long [[I:i_[0-9]+]] = n - 1; [[I]] >= 0; --[[I]]) {
// CHECK-NOT:       throw
// CHECK:           d_p[[[I]]] +=
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// CHECK:       // unfad:end nll_grad

UNFAD_GRADIENT double act(int kind, double x) {
  switch (kind) {
  case 0: return std::tanh(x);
  default: throw std::invalid_argument("unknown activation");
  }
}

// CHECK-LABEL: double act_grad(int kind, double x, double* d_x) {
// CHECK-NEXT:    const bool c = kind == 0;
// CHECK-NEXT:    if (!c) {
// CHECK-NEXT:      throw std::invalid_argument("unknown activation");
// CHECK-NEXT:    }
// CHECK-NEXT:    const double t = std::tanh(x);
// CHECK-NEXT:    *d_x += 1.0 - t * t;
// CHECK-NEXT:    return t;
// CHECK-NEXT:  }

// A recursive helper that may throw stays a call: the loop calling it runs to
// its end before the sweep calls its pullback (the sweep is not fused into
// it), and the pullback's cotangent, the constant 1, guards nothing.
static double fraction(double x, int depth) {
  if (x < 0) throw std::domain_error("fraction: x < 0");
  return depth == 0 ? 1.0 : 1.0 + x / fraction(x, depth - 1);
}

UNFAD_GRADIENT double fraction_sum(const double* x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += fraction(x[i], 4);
  return s;
}

// CHECK-LABEL: double fraction_sum_grad(const double* x, int n, double* d_x) {
// CHECK:         for (long i = 0; i < n; ++i) {
// CHECK-NOT:       pullback
// CHECK:           ::fraction(
// CHECK-NOT:       pullback
// CHECK:         }
// CHECK-NEXT:    for (long [[I:i_[0-9]+]] = n - 1; [[I]] >= 0; --[[I]]) {
// CHECK-NOT:       if (true)
// CHECK:           fraction_pullback({{.*}}, 4, 1.0, &{{.*}});
// CHECK:         }
// CHECK-NEXT:    return state;
