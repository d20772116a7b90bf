// Local text is supported when built once from text and the function's
// integers (golden/text_params.cpp). Refused at the declaration, with
// nothing written: a local string written after it is declared, and one
// built from a floating-point value of the function.
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
#include <unfad/unfad.h>
#include <string>

UNFAD_GRADIENT double chosen(double x) {
// CHECK: text_local_refused.cpp:[[@LINE+1]]:15: error: cannot differentiate 'chosen': a local text variable written after its declaration is not supported (declare a new one)
  std::string kind = "a";
  if (x > 0) kind = "b";
  return kind == "a" ? x : x * x;
}

UNFAD_GRADIENT double described(double x) {
// CHECK: text_local_refused.cpp:[[@LINE+1]]:15: error: cannot differentiate 'described': a local text variable must be built from text and the function's integers (a literal, a text parameter, `std::to_string(i)`)
  std::string what = std::to_string(x);
  return what.size() > 3 ? x : 2 * x;
}

// CHECK-NOT: unfad:begin
