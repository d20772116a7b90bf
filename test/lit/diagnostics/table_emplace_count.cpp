// A growing local std::vector of std::vector rows given a row by its
// constructor's arguments (`acts.emplace_back(n)`: a row of n zeros) rather
// than a row: an error at the call, non-zero exit, nothing written. (Rows
// pushed or emplaced as arrays are supported: test/e2e/cases/ragged_rows.cpp.)
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <vector>
UNFAD_GRADIENT double f(const double* x, int n) {
  std::vector<std::vector<double>> acts;
// CHECK: table_emplace_count.cpp:[[@LINE+1]]:8: error: cannot differentiate 'f': a growing local std::vector of std::vector rows is only grown by 'push_back' or 'emplace_back' of rows (here: 'emplace_back' of a count; push a row: 'std::vector<double>(n)'; or use std::array rows)
  acts.emplace_back(n);
  acts.back()[0] = x[0];
  return acts[0][0] * x[1];
}
