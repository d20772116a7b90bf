// partial-eval: the continuations of reverse mode are applied (β), their
// arguments substituted, tuples projected, 0 * e and 1 * e simplified in the
// adjoint code: no fun and no application remains, and the partials of x * y
// are left as residual lets.
// RUN: %unfad --dump=reverse --dump-format=json %s -- -std=c++17 -I%unfad_include > %t.json
// RUN: %unfad --dump=reverse %s -- -std=c++17 -I%unfad_include | FileCheck %s --check-prefix=IN
// RUN: %unfad-opt --pass=partial-eval %t.json | FileCheck %s
#include <unfad/unfad.h>

UNFAD_GRADIENT double product(double x, double y) { return x * y; }
// IN-LABEL: def product$grad(
// IN:         fun (
// IN:         Y{{(_[0-9]+)?}}(

// CHECK-LABEL: def product$grad(
// CHECK-NOT:     fun (
// CHECK:         let result: f64 = mul(x, y) in
// CHECK-NOT:     fun (
// CHECK:         (result, y, x)
