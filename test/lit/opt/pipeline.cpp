// No pass named: the whole pipeline, the IR unfad prints as C++ (the
// README's least-squares gradient: one fused loop, the inner loop shared,
// the tape gone), in text or in JSON.
// RUN: %unfad --dump=reverse --dump-format=json %s -- -std=c++17 -I%unfad_include > %t.json
// RUN: %unfad-opt %t.json > %t.txt
// RUN: FileCheck %s < %t.txt
// RUN: %unfad --dump=optimized %s -- -std=c++17 -I%unfad_include | diff - %t.txt
// RUN: %unfad-opt --format=json %t.json | FileCheck %s --check-prefix=JSON
// RUN: %unfad-opt --format=json - < %t.json | FileCheck %s --check-prefix=JSON
#include <unfad/unfad.h>

UNFAD_GRADIENT double least_squares(const double* A, const double* b, const double* x, int m, int n) {
  double s = 0.0;
  for (int i = 0; i < m; ++i) {
    double r = -b[i];
    for (int j = 0; j < n; ++j) r += A[i * n + j] * x[j];
    s += r * r;
  }
  return s;
}
// CHECK-LABEL: def least_squares$grad(
// CHECK:         fold i in [0, m) from {{[a-z_0-9]+}} = 0.0 ->
// CHECK:           fold j in [0, n) from
// CHECK:           fold j_{{[0-9]+}} in [0, n) from
// CHECK:             store d_x[
// CHECK:           store d_b[i] +=
// CHECK-NOT:     fold
// CHECK-NOT:     tape
// JSON: "functions": [
// JSON: "name": "least_squares$grad"
