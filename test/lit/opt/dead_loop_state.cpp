// dead-loop-state: the cotangent of the running power is summed over the
// adjoint sweep and never read after it; the sweep, skipped when its seed
// is zero (`if d != 0 then fold .. else init`), hands it back unchanged, and
// so the cotangent of the loop's other state component the sweep never
// changes. The sweep then carries nothing (partial-eval drops invariant
// state) and loop-fusion runs it forwards (OPT).
// RUN: %unfad --dump=reverse --dump-format=json %s -- -std=c++17 -I%unfad_include > %t.json
// RUN: %unfad-opt --passes=lower-parallel,partial-eval,split-struct-adds,constant-tapes,duplicate-tapes,dead-stores,dead-arrays,dead-code --format=json %t.json > %t.in.json
// RUN: %unfad-opt --passes=lower-parallel %t.in.json | FileCheck %s --check-prefix=IN
// RUN: %unfad-opt --pass=dead-loop-state %t.in.json | FileCheck %s
// RUN: %unfad --dump=optimized %s -- -std=c++17 -I%unfad_include | FileCheck %s --check-prefix=OPT
#include <unfad/unfad.h>

UNFAD_GRADIENT_WRT(x)
double llsq(const double *x, int m, int n) {
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    const double t = -1.0 + i * 2.0 / (n - 1);
    double r = t > 0 ? 1.0 : -1.0;
    double power = 1.0;
    for (int j = 0; j < m; ++j) {
      r -= x[j] * power;
      power *= t;
    }
    sum += r * r;
  }
  return 0.5 * sum;
}
// IN-LABEL: def llsq$grad(
// IN:         if ne([[SEED:d_[a-z0-9_]+]], 0.0) then
// IN-NEXT:      fold [[J:j_[0-9]+]] in reversed [0, m) from [[S:d_state[_a-z0-9]*]] = (([[SEED]], 0.0), 0.0) ->
// IN:             store d_x[[[J]]] +=
// IN-NEXT:        (([[S]]#0#0, [[DP:d_power[_0-9]+]]), add([[S]]#1,

// CHECK-LABEL: def llsq$grad(
// CHECK:         if ne([[SEED:d_[a-z0-9_]+]], 0.0) then
// CHECK-NEXT:      fold [[J:j_[0-9]+]] in reversed [0, m) from [[S:d_state[_a-z0-9]*]] =
// CHECK:             store d_x[[[J]]] +=
// CHECK-NEXT:        (([[S]]#0#0, [[S]]#0#1), [[S]]#1)
// CHECK-NEXT:    else

// OPT-LABEL: def llsq$grad(
// OPT:         fold [[J:j_[0-9]+]] in [0, m) from {{.*}} = () ->
// OPT-NOT:       d_power
// OPT:           store d_x[[[J]]] +=
