// Tables that stay refused, each an error at the construct: a helper
// returning a table whose rows have no fixed length, and a copy of such a
// table (its shape is not known where it is declared).
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>

#include <array>
#include <vector>

static std::vector<std::vector<double>> outer(const std::vector<double>& a) {
  std::vector<std::vector<double>> m(a.size(), std::vector<double>(a.size()));
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < a.size(); ++j) m[i][j] = a[i] * a[j];
  return m;
}

UNFAD_GRADIENT double ragged(const std::vector<double>& a) {
// CHECK: fixed_tables_refused.cpp:[[@LINE+1]]:12: error: cannot differentiate 'ragged': functions returning arrays of arrays are only supported with fixed sizes ('outer' returns 'std::vector<std::vector<double>>'; return a std::array<std::array<T, N>, M>, or a flat std::vector and use 'a[i * n + j]')
  auto m = outer(a);
  return m[0][1];
}

UNFAD_GRADIENT double copy_of_parameter(const std::vector<std::vector<double>>& M) {
// CHECK: fixed_tables_refused.cpp:[[@LINE+1]]:36: error: cannot differentiate 'copy_of_parameter': local arrays of arrays are only supported with constant sizes or as 'std::vector<std::vector<T>> m(rows, std::vector<T>(cols))' ('std::vector<std::vector<double>>'; or use a flat std::vector and 'a[i * n + j]')
  std::vector<std::vector<double>> C = M;
  C[0][0] += 1;
  return C[0][0] * C[1][1];
}
