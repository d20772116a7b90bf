// A lambda that writes a captured variable, called in a loop condition:
// refused (its write would have to happen before each test). A lambda that
// writes nothing is fine there (test/e2e/cases/lambda_predicates.cpp).
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
#include <unfad/unfad.h>

#include <algorithm>

UNFAD_GRADIENT double f(double x) {
  double steps = 0.0;
  auto shrink = [&steps](double v) {
    steps += 1.0;
    return v > 1.0;
  };
// CHECK: lambda_writes_in_condition.cpp:[[@LINE+1]]:10: error: cannot differentiate 'f': a call of a lambda that writes memory or the caller's variables inside a loop condition is not supported (use a separate statement)
  while (shrink(x)) x *= 0.5;
  return x + steps;
}

// CHECK: lambda_writes_in_condition.cpp:[[@LINE+3]]:20: error: cannot differentiate 'g': 'std::any_of' with a predicate that writes a captured variable is not supported (it stops at the first decisive element)
UNFAD_GRADIENT double g(const double* x, int n) {
  int seen = 0;
  const bool any = std::any_of(x, x + n, [&seen](double v) { ++seen; return v > 0.0; });
  return any ? x[0] * seen : x[0];
}
