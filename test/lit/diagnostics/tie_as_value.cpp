// std::tie is only supported as the target of an assignment statement: a tuple of references held in a local is an error there.
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
#include <unfad/unfad.h>
#include <tuple>
UNFAD_GRADIENT double f(double x) {
  double a = x, b = 2.0 * x;
  // CHECK: tie_as_value.cpp:[[@LINE+1]]:8: error: cannot differentiate 'f': 'std::tuple<double &, double &>', a tuple of references (as std::tie makes), is only supported as the target of an assignment statement ('std::tie(a, b) = f(x);')
  auto t = std::tie(a, b);
  return std::get<0>(t) * b;
}
UNFAD_GRADIENT double g(double x) {
  double a = x, b = 2.0 * x;
  // CHECK: tie_as_value.cpp:[[@LINE+1]]:22: error: cannot differentiate 'g': 'std::tie' is only supported as the target of an assignment statement ('std::tie(a, b) = f(x);')
  return std::get<0>(std::tie(a, b)) * b;
}
