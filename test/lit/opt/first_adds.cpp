// first-adds: each step's reverse sweep first adds into every element of
// d_k1 and d_k2 (loops over [0, n) at their own index), which the previous
// step left zero: those adds become stores, and the resets after the reads
// (d_k2[i] = 0 for i in [1, n), then d_k2[0] = 0) go, nothing reading them
// before the next step's stores. d_tmp's first add is at i - 1 and does not
// cover d_tmp[n - 1]: its add and its reset stay.
// RUN: %unfad --dump-after=skip-zero-adjoints --dump-format=json %s -- -std=c++17 -I%unfad_include > %t.json
// RUN: %unfad-opt --passes=lower-parallel %t.json | FileCheck %s --check-prefix=IN
// RUN: %unfad-opt --pass=first-adds %t.json | FileCheck %s
#include <unfad/unfad.h>

#include <vector>

static void rhs(const double *x, const double *y, double *dy, int n) {
  dy[0] = x[0];
  double c = 0.0;
  for (int i = 1; i < n; ++i) {
    c += x[i];
    dy[i] = c * y[i - 1];
  }
}

// Heun's method (a two-stage Runge-Kutta step).
UNFAD_GRADIENT_WRT(x, y) void heun(const double *x, int n, int s, double *y) {
  std::vector<double> k1(n), k2(n), tmp(n);
  const double h = 2.0 / s;
  for (int i = 0; i < n; ++i) y[i] = 0.0;
  for (int step = 0; step < s; ++step) {
    rhs(x, y, k1.data(), n);
    for (int i = 0; i < n; ++i) tmp[i] = y[i] + h * k1[i];
    rhs(x, tmp.data(), k2.data(), n);
    for (int i = 0; i < n; ++i) y[i] += 0.5 * h * (k1[i] + k2[i]);
  }
}
// IN-LABEL: def heun$grad(
// IN:         fold step_1 in reversed [0, s)
// IN:           fold [[I:i_[0-9_]+]] in reversed [0, n)
// IN:             store d_k2[[[I]]] += d_t
// IN-NEXT:        store d_k1[[[I]]] += d_t
// IN:           fold [[J:i_[0-9_]+]] in reversed [1, n)
// IN:             let d_k2_i: f64 = d_k2[[[J]]] in
// IN-NEXT:        store d_k2[[[J]]] = 0.0
// IN-NEXT:        store d_tmp[{{t_[0-9]+}}] +=
// IN:           store d_k2[0] = 0.0
// IN:             store d_tmp[[[K:i_[0-9_]+]]] = 0.0

// CHECK-LABEL: def heun$grad(
// CHECK:         fold step_1 in reversed [0, s)
// CHECK:           fold [[I:i_[0-9_]+]] in reversed [0, n)
// CHECK:             store d_k2[[[I]]] = d_t
// CHECK-NEXT:        store d_k1[[[I]]] = d_t
// CHECK:           fold [[J:i_[0-9_]+]] in reversed [1, n)
// CHECK:             let d_k2_i: f64 = d_k2[[[J]]] in
// CHECK-NEXT:        store d_tmp[{{t_[0-9]+}}] +=
// CHECK:           let d_k2_i_1: f64 = d_k2[0] in
// CHECK-NOT:       store d_k2
// CHECK:             store d_tmp[{{i_[0-9_]+}}] = 0.0
// CHECK-NOT:       store d_k1[{{.*}}] = 0.0
// CHECK:         ((), (), ())
