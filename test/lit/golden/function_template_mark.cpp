// A marked function template (template_methods.cpp): each instantiation the
// file uses at floating-point arguments gets an ordinary overload `f_grad`
// right after the template, in a block named with its arguments; calls pick
// the overload by their arguments. f<int> gets none (not differentiable).
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>

template <class T>
UNFAD_GRADIENT T f(T x, T y) {
  return std::sin(x) * y;
}

double use(double x) { return f(x, 2.0) + f(1.5f, 2.0f) + f(1, 2); }
