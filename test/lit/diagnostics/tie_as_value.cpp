// std::tie is only supported as the target of an assignment statement: anywhere else it is an error at the call.
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
#include <unfad/unfad.h>
#include <tuple>
UNFAD_GRADIENT double f(double x) {
  double a = x, b = 2.0 * x;
  // CHECK: tie_as_value.cpp:[[@LINE+1]]:12: error: cannot differentiate 'f': 'std::tie' is only supported as the target of an assignment statement ('std::tie(a, b) = f(x);')
  auto t = std::tie(a, b);
  return std::get<0>(t) * b;
}
