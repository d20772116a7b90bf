// The --dump stages of UNF paper Example 1.1, text and JSON. Loose checks:
// the stable parts of each stage's format.
// RUN: %unfad --dump=ir %s -- -std=c++17 | FileCheck --check-prefix=IR %s
// RUN: %unfad --dump=unf %s -- -std=c++17 | FileCheck --check-prefix=UNF %s
// RUN: %unfad --dump=reverse %s -- -std=c++17 | FileCheck --check-prefix=REV %s
// RUN: %unfad --dump=optimized %s -- -std=c++17 | FileCheck --check-prefix=OPT %s
// Every stage's JSON form is valid JSON.
// RUN: %unfad --dump=ir --dump-format=json %s -- -std=c++17 | %python -c "import json,sys; json.load(sys.stdin)"
// RUN: %unfad --dump=unf --dump-format=json %s -- -std=c++17 | %python -c "import json,sys; json.load(sys.stdin)"
// RUN: %unfad --dump=reverse --dump-format=json %s -- -std=c++17 | %python -c "import json,sys; json.load(sys.stdin)"
// RUN: %unfad --dump=optimized --dump-format=json %s -- -std=c++17 | %python -c "import json,sys; json.load(sys.stdin)"
// RUN: %unfad --dump=optimized --dump-format=json %s -- -std=c++17 | FileCheck --check-prefix=JSON %s
// An unknown stage is a usage error.
// RUN: not %unfad --dump=bogus %s -- -std=c++17 2>&1 | FileCheck --check-prefix=BAD %s
#include <unfad/unfad.h>

UNFAD_GRADIENT double f(double x1, double x2, double x3) {
  const double w1 = x1 * x2;
  const double w2 = w1 * x1;
  return w2;
}

// The IR stage: the typed let-IR of the source, the mark, every parameter active.
// IR:      def f(x1: f64 active, x2: f64 active, x3: f64 active) -> f64 [gradient] =
// IR-NEXT:   let w1: f64 = mul(x1, x2) in
// IR-NEXT:   let w2: f64 = mul(w1, x1) in
// IR-NEXT:   w2

// The UNF stage: every primitive applied to variables, every intermediate named.
// UNF:     unf f [x1: f64, x2: f64, x3: f64] -> f64 =
// UNF:     op mul/2 {{.*}}w1: f64
// UNF:     op mul/2 {{.*}}w2: f64

// The reverse stage: the gradient function, with continuations (lambdas) still present.
// REV:     def f$grad(x1: f64 active, x2: f64 active, x3: f64 active) -> (f64, f64, f64, f64) =
// REV:     fun (
// REV:     let w1: f64 = mul(x1, x2) in
// REV:     let w2: f64 = mul(w1, x1) in

// The optimised stage: the paper's SSA program, and no lambda left.
// OPT:      def f$grad(x1: f64 active, x2: f64 active, x3: f64 active) -> (f64, f64, f64, f64) =
// OPT-NOT:  fun (
// OPT:      let w1: f64 = mul(x1, x2) in
// OPT-NEXT: let w2: f64 = mul(w1, x1) in
// OPT-NOT:  fun (
// OPT:      (w2, add(w1, mul(x2, x1)), mul(x1, x1), 0.0)
// OPT-NOT:  fun (

// JSON:    "functions"
// JSON:    "f$grad"

// BAD: unknown dump stage 'bogus'
