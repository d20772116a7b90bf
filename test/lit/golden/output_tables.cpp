// An output array of arrays (a product written into `C`): the stores go
// through the row the tool names `C_row`, the product's sum is a scalar
// register (starting at the 0 the loop stored before, stored into the row
// once: the additions in f's order), and the backward sweep reads and
// clears the output's cotangent d_C[i][j] in place; the replayed forward
// work of the backward sweep does not write the output again (C is left as
// f leaves it), and nothing is allocated.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s --check-prefix=NONEW
#include <unfad/unfad.h>
#include <vector>

UNFAD_GRADIENT void matmul(const std::vector<std::vector<double>>& A, const std::vector<std::vector<double>>& B,
                           std::vector<std::vector<double>>& C) {
  for (std::size_t i = 0; i < A.size(); ++i)
    for (std::size_t j = 0; j < B[0].size(); ++j) {
      C[i][j] = 0;
      for (std::size_t k = 0; k < B.size(); ++k) C[i][j] += A[i][k] * B[k][j];
    }
}
// CHECK-LABEL: void matmul_grad(const std::vector<std::vector<double>>& A, const std::vector<std::vector<double>>& B, std::vector<std::vector<double>>& C, std::vector<std::vector<double>>& d_A, std::vector<std::vector<double>>& d_B, std::vector<std::vector<double>>& d_C) {
// CHECK:           auto& C_row = C[[[I:[a-z_0-9]+]]];
// CHECK-NEXT:      double [[ACC:C_row_acc[_0-9]*]] = 0.0;
// CHECK:             [[ACC]] = [[ACC]] + {{.*}};
// CHECK-NEXT:      }
// CHECK-NEXT:      C_row[{{[a-z_0-9]+}}] = [[ACC]];
// CHECK:       for (long [[BI:[a-z_0-9]+]] = {{.*}}; [[BI]] >= 0; --[[BI]]) {
// CHECK-NOT:     C_row[
// CHECK:             const double [[D:[A-Za-z_0-9]+]] = d_C[[[BI]]][[[BJ:[a-z_0-9]+]]];
// CHECK-NEXT:        d_B[[[BK:[a-z_0-9]+]]][[[BJ]]] += A[[[BI]]][[[BK]]] * [[D]];
// CHECK-NEXT:        d_A[[[BI]]][[[BK]]] += B[[[BK]]][[[BJ]]] * [[D]];
// CHECK:           d_C[[[BI]]][[[BJ]]] = 0.0;
// NONEW-NOT: new
