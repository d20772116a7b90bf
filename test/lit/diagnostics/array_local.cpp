// a local array of arrays whose rows have no length: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <vector>
UNFAD_GRADIENT double f(double x, int n) {
// CHECK: array_local.cpp:[[@LINE+1]]:36: error: cannot differentiate 'f': local arrays of arrays are only supported with constant sizes or as 'std::vector<std::vector<T>> m(rows, std::vector<T>(cols))' ('std::vector<std::vector<double>>'; or use a flat std::vector and 'a[i * n + j]')
  std::vector<std::vector<double>> a(n);
  return x * a.size();
}
