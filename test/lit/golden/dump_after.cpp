// --dump-after=PASS prints the program after that optimiser pass: after
// partial evaluation no continuation is left, and the dead product the
// adjoint sweep recomputes is still there until dead-code runs.
// RUN: %unfad --dump-after=partial-eval %s -- -std=c++17 -I%unfad_include | FileCheck %s --check-prefix=PE
// RUN: %unfad --dump-after=hoist-invariants %s -- -std=c++17 -I%unfad_include > %t.last
// RUN: %unfad --dump=optimized %s -- -std=c++17 -I%unfad_include > %t.optimized
// RUN: diff %t.last %t.optimized
// RUN: %unfad --dump-after=partial-eval --dump-format=json %s -- -std=c++17 -I%unfad_include | FileCheck %s --check-prefix=JSON
// RUN: not %unfad --dump-after=no-such-pass %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not %unfad --dump=ir --dump-after=dead-code %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s --check-prefix=BOTH
#include <unfad/unfad.h>

UNFAD_GRADIENT double dot(const double* x, const double* y, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += x[i] * y[i];
  return s;
}
// PE-LABEL: def dot$grad(
// PE-NOT:     fun (
// PE:         mul(

// JSON: "name": "dot$grad"

// UNKNOWN: unknown optimiser pass 'no-such-pass' (expected lower-parallel, hoist-throws, partial-eval,
// BOTH: '--dump' and '--dump-after' exclude each other
