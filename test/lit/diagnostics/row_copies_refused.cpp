// A range-based for copying rows of a run-time length (a std::vector row: a
// heap allocation per iteration) is an error at the loop variable; rows of a
// fixed length are copied (e2e/cases/structured_bindings_arrays.cpp).
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <vector>
UNFAD_GRADIENT double f(const std::vector<std::vector<double>> &rows) {
  double s = 0;
// CHECK: row_copies_refused.cpp:[[@LINE+1]]:13: error: cannot differentiate 'f': range-based 'for' copying rows of a run-time length is not supported (use 'const auto& row')
  for (auto row : rows) s += row[0];
  return s;
}
