// UNF paper, Example 1.1: the printed gradient has the paper's SSA shape.
// The tool's output contains this file's own comments, so CHECK/RUN lines
// are removed before FileCheck sees it.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

UNFAD_GRADIENT double f(double x1, double x2, double x3) {
  const double w1 = x1 * x2;
  const double w2 = w1 * x1;
  return w2;
}

// The block follows f right away, carries the contract's signature, and is
// straight-line SSA code with no lambda left.
// CHECK-LABEL: {{^}}UNFAD_GRADIENT double f(double x1, double x2, double x3) {
// CHECK:       {{^}}}
// CHECK-NEXT:  {{^}}// unfad:begin f_grad
// x3 is unused: the generator may mark it (and d_x3) [[maybe_unused]] to stay
// warning-free under -Wextra.
// CHECK-NEXT:  {{^}}double f_grad(double x1, double x2, {{(\[\[maybe_unused\]\] )?}}double x3, double* d_x1, double* d_x2, {{(\[\[maybe_unused\]\] )?}}double* d_x3) {
// CHECK-NOT:   {{\[&\]|\[=\]|std::function|fun \(}}
// The paper's SSA program: the primal, then the adjoints w1 + x2*x1 and
// x1*x1 (single-use temporaries folded into their accumulation); nothing
// accumulates into d_x3.
// CHECK-NEXT:  {{^}}  const double w1 = x1 * x2;
// CHECK-NEXT:  {{^}}  const double w2 = w1 * x1;
// CHECK-NEXT:  {{^}}  *d_x1 += {{w1 \+ x2 \* x1|x2 \* x1 \+ w1}};
// CHECK-NEXT:  {{^}}  *d_x2 += x1 * x1;
// CHECK-NEXT:  {{^}}  return w2;
// CHECK-NEXT:  {{^}}}
// CHECK-NEXT:  {{^}}// unfad:end f_grad
