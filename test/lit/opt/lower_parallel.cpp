// lower-parallel: a sum (and a build) becomes the fold it stands for, so
// that the loop rewrites apply to it.
// RUN: %unfad --dump=reverse --dump-format=json %s -- -std=c++17 -I%unfad_include > %t.json
// RUN: %unfad --dump=reverse %s -- -std=c++17 -I%unfad_include | FileCheck %s --check-prefix=IN
// RUN: %unfad-opt --pass=lower-parallel %t.json | FileCheck %s
#include <unfad/unfad.h>

#include <vector>

UNFAD_GRADIENT double dot(const double* a, const double* b, int n) {
  std::vector<double> prod(n);
  for (int i = 0; i < n; ++i) prod[i] = a[i] * b[i];
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += prod[i];
  return s;
}
// IN-LABEL: def dot$grad(
// IN:         sum [[I:[a-z_0-9]+]] in [0, n) ->

// CHECK-LABEL: def dot$grad(
// CHECK-NOT:     sum
// CHECK:         fold {{[a-z_0-9]+}} in [0, n) from {{[a-z_0-9]+}} = 0.0 ->
// CHECK-NOT:     sum
