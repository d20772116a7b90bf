// split-struct-adds: a struct cotangent added into an element of an adjoint
// array is added field by field, the fields that are 0 left out.
// RUN: %unfad --dump=reverse --dump-format=json %s -- -std=c++17 -I%unfad_include > %t.json
// RUN: %unfad-opt --passes=lower-parallel,partial-eval --format=json %t.json > %t.in.json
// RUN: %unfad-opt --passes=lower-parallel %t.in.json | FileCheck %s --check-prefix=IN
// RUN: %unfad-opt --pass=split-struct-adds %t.in.json | FileCheck %s
#include <unfad/unfad.h>

struct Vec3 {
  double x, y, z;
};

UNFAD_GRADIENT double sum_y(const Vec3* p, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += p[i].y;
  return s;
}
// IN-LABEL: def sum_y$grad(
// IN:         store d_p[[[I:i_[0-9]+]]] += Vec3{0.0, 1.0, 0.0} in

// CHECK-LABEL: def sum_y$grad(
// CHECK-NOT:     += Vec3{
// CHECK:         store d_p[[[I:i_[0-9]+]]].y += 1.0 in
// CHECK-NOT:     store d_p[[[I]]].x
// CHECK-NOT:     store d_p[[[I]]].z
