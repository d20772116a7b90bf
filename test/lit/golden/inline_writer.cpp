// A helper that writes one element of a local array, called in a loop that
// reads the array: the helper is inlined (its store is visible), so the loop
// tapes the element each call overwrites, one entry per iteration (at the
// loop's own index: no index tape), instead of saving the whole array every
// iteration (O(n) per iteration, O(n^2) in all). No pullback of `set` is
// generated.
// RUN: %unfad %s --dump=ir -- -std=c++17 -I%unfad_include | FileCheck %s --check-prefix=IR
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
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
// IR-LABEL: def chain(
// IR-NOT:     call set
// IR:         store a[{{[a-z_0-9]+}}] = {{[a-z_0-9]+}} in
// CHECK-NOT:   set_pullback
// CHECK-LABEL: double chain_grad(const double* x, int n, double* d_x) {
// CHECK-NOT:     tape_a_index
// CHECK:         unfad::tape_buffer<double> tape_a_old({{[a-z_0-9]+}});
// CHECK-NOT:     tape_a(
// CHECK:         for (long [[I:[a-z_0-9]+]] = 1; [[I]] < n; ++[[I]]) {
// CHECK:           tape_a_old[{{[a-z_0-9]+}}] = {{[a-z_0-9]+}};
// CHECK:         a[{{[a-z_0-9]+}}] = tape_a_old[
