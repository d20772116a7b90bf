// value-pullbacks: the per-point call of the log-sum-exp helper and its
// pullback, in the same iteration once the point's adjoint is fused with
// its forward work, become one value_and_pullback (the helper's max and
// exponentials run once); the pullback, guarded by its cotangent (1 / n,
// not a constant), keeps its guard, the plain call in the other branch. The
// call at the end, whose pullback's cotangent is computed from the call's
// value, stays a call and a pullback.
// RUN: %unfad --dump-after=skip-zero-adjoints --dump-format=json %s -- -std=c++17 -I%unfad_include > %t.json
// RUN: %unfad-opt --passes=lower-parallel %t.json | FileCheck %s --check-prefix=IN
// RUN: %unfad-opt --pass=value-pullbacks %t.json | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

static double log_sum_exp(const double* v, int n) {
  double top = v[0];
  for (int i = 1; i < n; ++i) top = std::max(top, v[i]);
  double s = 0;
  for (int i = 0; i < n; ++i) s += std::exp(v[i] - top);
  return top + std::log(s);
}

UNFAD_GRADIENT_WRT(w)
double softmax_loss(const std::vector<double>& w, const std::vector<double>& X, const std::vector<int>& label, int k) {
  const int d = static_cast<int>(w.size()) / k, n = static_cast<int>(label.size());
  std::vector<double> z(k);
  double loss = 0;
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c < k; ++c) {
      double a = 0;
      for (int j = 0; j < d; ++j) a += w[c * d + j] * X[i * d + j];
      z[c] = a;
    }
    loss += log_sum_exp(z.data(), k) - z[label[i]];
  }
  const double r = log_sum_exp(w.data(), k);
  return loss / n + r * r;
}
// IN-LABEL: def softmax_loss$grad(
// IN:           let [[T:t_[0-9]+]]: f64 = call log_sum_exp(z, k) in
// IN:           pullback log_sum_exp(z, k; d_loss; into d_z)
// IN:         let [[R:r_?[0-9]*]]: f64 = call log_sum_exp(w, k) in
// IN:         pullback log_sum_exp(w, k;

// CHECK-LABEL: def softmax_loss$grad(
// CHECK:           let [[V:log_sum_exp_value[_0-9]*]]: (f64, ()) =
// CHECK-NEXT:        if ne(d_loss, 0.0) then
// CHECK-NEXT:          value_and_pullback log_sum_exp(z, k; d_loss; into d_z)
// CHECK-NEXT:        else
// CHECK-NEXT:          (call log_sum_exp(z, k), ())
// CHECK:           let [[T:t_[0-9]+]]: f64 = [[V]]#0 in
// CHECK-NOT:       pullback log_sum_exp(z
// CHECK:         let {{r_?[0-9]*}}: f64 = call log_sum_exp(w, k) in
// CHECK:         pullback log_sum_exp(w, k;
