// dead-stores: the sweep saves a[i], recomputes and stores the element the
// forward loop wrote, and puts the saved value back, with nothing reading
// a[i] in between: the recomputed store is overwritten before anything
// reads it, and the put-back writes what a[i] already holds; both go.
// RUN: %unfad --dump=reverse --dump-format=json %s -- -std=c++17 -I%unfad_include > %t.json
// RUN: %unfad-opt --passes=lower-parallel,partial-eval,split-struct-adds --format=json %t.json > %t.in.json
// RUN: %unfad-opt --passes=lower-parallel %t.in.json | FileCheck %s --check-prefix=IN
// RUN: %unfad-opt --pass=dead-stores %t.in.json | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

static void set(std::vector<double>& a, int i, double v) { a[i] = v; }

UNFAD_GRADIENT double chain(const double* x, int n) {
  std::vector<double> a(n, 1.0);
  for (int i = 1; i < n; ++i) set(a, i, std::sin(a[i - 1] + x[i]));
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[i] * a[i];
  return s;
}
// IN-LABEL: def chain$grad(
// IN:         fold [[I:i_[0-9_]+]] in reversed [1, n)
// IN:           let [[OLD:old_a_[0-9]+]]: f64 = a[[[I]]] in
// IN-NEXT:      let {{.*}}: () = store a[[[I]]] = v_{{[0-9]+}} in
// IN:           let {{.*}}: () = store a[[[I]]] = [[OLD]] in

// CHECK-LABEL: def chain$grad(
// CHECK:         fold [[I:i_[0-9_]+]] in reversed [1, n)
// CHECK:           let [[OLD:old_a_[0-9]+]]: f64 = a[[[I]]] in
// CHECK-NOT:       store a[[[I]]] =
// CHECK:           store d_x[[[I]]] +=
