// The simplest growing vector: push_back in a counted loop. The buffer and its
// adjoint are allocated once, before the loop, with room for the n pushes;
// a push is a store at the current length, which the loop carries like any
// integer local; reads go up to the length, never to the buffer's size, and
// no allocation happens inside a loop.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <vector>

UNFAD_GRADIENT double pushed(const double* x, int n) {
  std::vector<double> v;
  v.reserve(n);
  for (int i = 0; i < n; ++i) v.push_back(x[i] * x[i]);
  double s = 0.0;
  for (std::size_t i = 0; i < v.size(); ++i) s += v[i] * x[i];
  return s;
}
// CHECK-LABEL: double pushed_grad(
// CHECK:         std::vector<double> v([[ROOM:[a-z_0-9]+]]);
// CHECK-NEXT:    std::vector<double> d_v([[ROOM]]);
// CHECK-NOT:     push_back
// CHECK:         {{^}}  long [[LEN:[a-z_0-9]+]] = 0;{{$}}
// CHECK:         for (long [[I:[a-z_0-9]+]] = 0; [[I]] < n; ++[[I]]) {
// CHECK-NOT:       new
// CHECK:           v[[[LEN]]] = {{.*}};
// CHECK-NEXT:      [[LEN]] = [[LEN]] + 1;
// CHECK-NEXT:    }
// CHECK:         for (long [[J:[a-z_0-9]+]] = 0; [[J]] < [[LEN]]; ++[[J]]) {
// CHECK-NOT:       new
// CHECK:           d_v[[[J]]] += {{.*}};
// CHECK:         for (long [[K:[a-z_0-9]+]] = n - 1; [[K]] >= 0; --[[K]]) {
// CHECK-NOT:       new
// CHECK:           d_v[{{.*}}] = 0.0;
// CHECK:         return s;
