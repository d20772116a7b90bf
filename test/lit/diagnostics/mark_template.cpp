// UNFAD_GRADIENT on function templates unfad cannot give gradients (marked
// function templates themselves work: test/lit/golden/function_template_mark.cpp):
// instantiations whose gradients would be overloads with the same parameters,
// and a member function template. An error at each, non-zero exit, and a
// failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
// CHECK: mark_template.cpp:[[@LINE+1]]:40: error: cannot differentiate 'p': the gradients of 'p<3>' and 'p<4>' would be overloads with the same parameters (mark a function for each)
template <int N> UNFAD_GRADIENT double p(double x) { return N * x * x; }
struct S {
// CHECK: mark_template.cpp:[[@LINE+1]]:39: error: cannot differentiate 'g': member function templates cannot be marked yet
  template <class T> UNFAD_GRADIENT T g(T x) const { return x * x; }
};
double use(double x) { return p<3>(x) + p<4>(x) + S{}.g(x); }
