// `throw` is supported as a statement and as an arm of `?:` when the
// exception is built from literals (lib/frontend/exceptions.cpp). What stays
// refused is located, and a failed -i leaves the file byte-identical: an
// exception built from the function's values (the generated gradient
// rebuilds it where they are not in scope), a rethrow, a throw inside an arm
// of another `?:` (no statement can go there), try/catch (try_stmt.cpp).
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 -I%unfad_include 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <stdexcept>
#include <string>

UNFAD_GRADIENT double at(const double* x, int n, int i) {
// CHECK: exceptions_refused.cpp:[[@LINE+1]]:39: error: cannot differentiate 'at': the exception thrown here must be built from literals (such as std::invalid_argument("...")): the generated gradient rebuilds it where the function's values are not in scope
  if (i >= n) throw std::out_of_range("index " + std::to_string(i));
  return x[i] * x[i];
}

static double checked(double a) {
// CHECK: exceptions_refused.cpp:[[@LINE+1]]:14: error: cannot differentiate 'uses_checked': rethrowing ('throw;') is not supported: there is no 'try' in a differentiated function
  if (a < 0) throw;
  return a;
}
UNFAD_GRADIENT double uses_checked(double x) { return checked(x) * x; }

UNFAD_GRADIENT double nested(double x, int k) {
// CHECK: exceptions_refused.cpp:[[@LINE+1]]:31: error: cannot differentiate 'nested': a 'throw' inside a branch of '?:' is not supported (check before it, in a statement)
  return k > 0 ? (k < 9 ? x : throw std::domain_error("k")) : -x;
}

// CHECK-NOT: unfad:begin
