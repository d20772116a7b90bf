// loop-fusion: the adjoint sweep of the point loop carries state, the
// cotangent of the learned scale summed over the points; a state that only
// accumulates becomes a += into a one-element array (d_..._sum[0]), read
// after the loop, and the sweep, stateless then, fuses with the loop (the
// tapes of each point's values shrink to one point's).
// RUN: %unfad --dump=reverse --dump-format=json %s -- -std=c++17 -I%unfad_include > %t.json
// RUN: %unfad-opt --passes=lower-parallel,partial-eval,split-struct-adds,constant-tapes,duplicate-tapes,dead-stores,dead-arrays,dead-code,dead-loop-state,partial-eval --format=json %t.json > %t.in.json
// RUN: %unfad-opt --passes=lower-parallel %t.in.json | FileCheck %s --check-prefix=IN
// RUN: %unfad-opt --pass=loop-fusion %t.in.json | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

UNFAD_GRADIENT_WRT(p, scale)
double fit(const std::vector<double>& p, const std::vector<double>& y, int m, double scale) {
  const int n = static_cast<int>(y.size()) / m;
  std::vector<double> r(m);
  double total = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < m; ++j) r[j] = p[0] * j - y[i * m + j];
    double s = 0;
    for (int j = 0; j < m; ++j) s += std::exp(scale * r[j]);
    total += s;
  }
  return total;
}
// IN-LABEL: def fit$grad(
// IN:         fold i in [0, n)
// IN:         let [[D:d_state[_a-z0-9]*]]: (f64) =
// IN-NEXT:      fold [[I:i_[0-9]+]] in reversed [0, n) from [[S:d_state[_a-z0-9]*]] = (0.0) ->

// CHECK-LABEL: def fit$grad(
// CHECK:         let [[SUM:d_state[_a-z0-9]*_sum]]: [f64] = new f64[1] in
// CHECK:         fold i in [0, n)
// CHECK:           store [[SUM]][0] +=
// CHECK:         let {{d_state[_a-z0-9]*}}: (f64) = (add({{.*}}, [[SUM]][0])) in
// CHECK-NOT:     fold {{.*}} in reversed [0, n)
