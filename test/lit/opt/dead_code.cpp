// dead-code: a let nothing uses and that writes nothing goes (here the
// product the adjoint sweep recomputes but does not need: its partials are
// x[i] and y[i]).
// RUN: %unfad --dump=reverse --dump-format=json %s -- -std=c++17 -I%unfad_include > %t.json
// RUN: %unfad-opt --passes=lower-parallel,partial-eval --format=json %t.json > %t.in.json
// RUN: %unfad-opt --passes=lower-parallel %t.in.json | FileCheck %s --check-prefix=IN
// RUN: %unfad-opt --pass=dead-code %t.in.json | FileCheck %s
#include <unfad/unfad.h>

UNFAD_GRADIENT double dot(const double* x, const double* y, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += x[i] * y[i];
  return s;
}
// IN-LABEL: def dot$grad(
// IN:         fold [[I:i_[0-9]+]] in [0, n)
// IN-NEXT:      let [[A:t_[0-9]+]]: f64 = x[[[I]]] in
// IN-NEXT:      let [[B:t_[0-9]+]]: f64 = y[[[I]]] in
// IN-NEXT:      let {{t_[0-9]+}}: f64 = mul([[A]], [[B]]) in

// CHECK-LABEL: def dot$grad(
// CHECK:         fold [[I:i_[0-9]+]] in [0, n)
// CHECK-NEXT:      let [[A:t_[0-9]+]]: f64 = x[[[I]]] in
// CHECK-NEXT:      let [[B:t_[0-9]+]]: f64 = y[[[I]]] in
// CHECK-NOT:       mul([[A]], [[B]])
// CHECK:           store d_
