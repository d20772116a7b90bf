// A std::function is the callable it is built from (lib/frontend/std_function.cpp):
// one whose callable is made where the gradient's code cannot see it (returned
// by a function) or kept in a struct is refused, located, and nothing is written.
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
#include <unfad/unfad.h>
#include <cmath>
#include <functional>

std::function<double(double)> make(double k) { return [k](double t) { return k * t; }; }

UNFAD_GRADIENT double returned(double k) {
// CHECK: std_function_refused.cpp:[[@LINE+1]]:33: error: cannot differentiate 'returned': this std::function local ('g') is not supported: give it a lambda, a local holding one, or a function's name (the callable must be known where the gradient is generated)
  std::function<double(double)> g = make(k);
  return g(2.0);
}

struct Problem {
  std::function<double(double)> f;
  double x0;
};
double solve(const Problem& p) { return p.f(p.x0); }

UNFAD_GRADIENT double member(double k) {
// CHECK: std_function_refused.cpp:[[@LINE+1]]:11: error: cannot differentiate 'member': type 'Problem' has a std::function member ('f'), which is not supported (pass the callable to the function calling it, as a parameter)
  Problem p{[k](double t) { return std::sin(k * t); }, 1.0};
  return solve(p);
}

// CHECK-NOT: unfad:begin
