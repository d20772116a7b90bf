// Helpers returning arrays by value are lowered into their callers
// (returned_arrays.cpp; e2e returned_arrays): what stays refused is an error
// at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <array>
#include <vector>
static std::vector<double> twice(const std::vector<double> &x) { return {2 * x[0], 2 * x[1]}; }
static std::array<double, 2> halves(const std::array<double, 2> &a, bool flip) {
  if (flip)
// CHECK-DAG: array_returning_helper.cpp:[[@LINE+1]]:5: error: cannot differentiate 'early': 'halves' returns an array by value before its end, which is not supported (a function returning an array must have one 'return', its last statement)
    return {a[1] / 2, a[0] / 2};
  return {a[0] / 2, a[1] / 2};
}
static std::array<double, 2> down(const std::array<double, 2> &a, int k) {
  std::array<double, 2> r = a;
  if (k > 0)
// CHECK-DAG: array_returning_helper.cpp:[[@LINE+1]]:9: error: cannot differentiate 'recursive': recursive calls of a function returning an array are not supported ('down')
    r = down(a, k - 1);
  return r;
}
UNFAD_GRADIENT double conditional(const std::vector<double> &x) {
// CHECK-DAG: array_returning_helper.cpp:[[@LINE+1]]:21: error: cannot differentiate 'conditional': a call of 'twice', which returns an array, is not supported here: it is evaluated conditionally or repeatedly (an operand of '?:', '&&', '||', a loop condition; call it in a statement of its own before)
  return x[0] > 0 ? twice(x)[0] : x[1];
}
UNFAD_GRADIENT double early(const std::array<double, 2> &a) { return halves(a, a[0] > 1)[0]; }
UNFAD_GRADIENT double recursive(const std::array<double, 2> &a) { return down(a, 2)[0]; }
