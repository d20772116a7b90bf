// Found by test/fuzz/fuzz.py (seed 200, program 31; shrunk by hand): the
// generated code does not compile. A helper's pullback is emitted once, in the
// first generated block that needs it -- here `fuzz_ns_h0_pullback` in the
// block of the marked `fuzz_ns::fuzz_ns_h1`, inside namespace fuzz_ns -- and a
// later block in another namespace (`fuzz_ns_f_grad`, global) calls it
// unqualified: "use of undeclared identifier 'fuzz_ns_h0_pullback'".
#include <unfad/unfad.h>

namespace fuzz_ns {
inline double fuzz_ns_h0(double a) { return a * a; }
UNFAD_GRADIENT inline double fuzz_ns_h1(double a) { return fuzz_ns_h0(a) * 2.0; }
} // namespace fuzz_ns

UNFAD_GRADIENT double fuzz_ns_f(double x) { return fuzz_ns::fuzz_ns_h1(x) + x; }

/* e2e
[{"function": "fuzz_ns_f", "points": [[0.5], [-1.25]], "grad_formula": ["4*x + 1"]},
 {"function": "fuzz_ns_h1", "call": "fuzz_ns::fuzz_ns_h1", "points": [[0.5], [-1.25]], "grad_formula": ["4*a"]}]
*/
