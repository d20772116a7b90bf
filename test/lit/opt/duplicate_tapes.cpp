// duplicate-tapes: a cell reads h[i] three times, and the time loop's
// forward sweep captures each read; partial evaluation makes them one
// value, stored into three tapes at the same index. Two of the tapes go:
// one store per iteration, and the backward sweep reads the first.
// RUN: %unfad --dump=reverse --dump-format=json %s -- -std=c++17 -I%unfad_include > %t.json
// RUN: %unfad-opt --passes=lower-parallel,partial-eval,split-struct-adds --format=json %t.json > %t.in.json
// RUN: %unfad-opt --passes=lower-parallel %t.in.json | FileCheck %s --check-prefix=IN
// RUN: %unfad-opt --pass=duplicate-tapes %t.in.json | FileCheck %s
// RUN: %unfad %s -- -std=c++17 -I%unfad_include | grep -v '^//' | grep -c 'tape_buffer<double>' | FileCheck %s --check-prefix=CODE
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

UNFAD_GRADIENT double gates(int steps, int b, const double* w, const double* seq) {
  std::vector<double> h(b, 0.5);
  double total = 0.0;
  for (int t = 0; t < steps; ++t) {
    for (int i = 0; i < b; ++i) {
      const double in = seq[t * b + i] * h[i];
      h[i] = std::tanh(h[i] * w[i] + in) * std::sin(h[i] * w[b + i]);
    }
    for (int i = 0; i < b; ++i) total += h[i];
  }
  return total;
}
// Before: h[i] read once (t_4 below), taped three times at the same index.
// IN-LABEL: def gates$grad(
// IN:           let {{.*}}: () = store [[A:tape_t[_0-9]*]][[[AT:.*]]] = [[V:t_[0-9]+]] in
// IN-NEXT:      let {{.*}}: () = store [[B:tape_t[_0-9]*]][[[AT]]] = [[V]] in
// IN-NEXT:      let {{.*}}: () = store {{tape_t[_0-9]*}}[[[AT]]] = {{t_[0-9]+}} in
// IN-NEXT:      let {{.*}}: () = store {{tape_t[_0-9]*}}[[[AT]]] = [[V]] in

// After: one tape of h[i], one of the other value.
// CHECK-LABEL: def gates$grad(
// CHECK:           let {{.*}}: () = store [[A:tape_t[_0-9]*]][[[AT:.*]]] = [[V:t_[0-9]+]] in
// CHECK-NEXT:      let {{.*}}: () = store {{tape_t[_0-9]*}}[[[AT]]] = {{t_[0-9]+}} in
// CHECK-NOT:       = [[V]] in
// CHECK:         fold

// The generated code: two tapes of doubles.
// CODE: 2
