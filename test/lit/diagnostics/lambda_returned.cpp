// a lambda returned by a function: an error at the construct, non-zero exit, nothing written.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
static auto scaler(double a) {
  return [a](double v) { return a * v; };
}
UNFAD_GRADIENT double f(double x) {
// CHECK: lambda_returned.cpp:[[@LINE+1]]:12: error: cannot differentiate 'f': lambdas returned by functions are not supported ('g')
  auto g = scaler(x);
  return g(x);
}
