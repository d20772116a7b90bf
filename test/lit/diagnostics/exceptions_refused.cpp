// `throw` is supported as a statement and as an arm of `?:`, the exception
// built from literals and from the function's numbers
// (lib/frontend/exceptions.cpp). What stays refused is located, and a failed
// -i leaves the file byte-identical: an exception reading a value of the
// function that is not a number (an array, given to a function building the
// message), a rethrow, a throw inside an arm of another `?:` (no statement
// can go there), try/catch (try_stmt.cpp).
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 -I%unfad_include 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <stdexcept>
#include <string>

static std::string describe(const double* x, int n) { return std::to_string(n) + " values from " + std::to_string(x[0]); }

UNFAD_GRADIENT double at(const double* x, int n, int i) {
// CHECK: exceptions_refused.cpp:[[@LINE+1]]:64: error: cannot differentiate 'at': the exception thrown here may only read numbers of the function ('x' is not one): the generated gradient rebuilds it from them
  if (i >= n) throw std::out_of_range("index past " + describe(x, n));
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
