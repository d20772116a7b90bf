// Found by test/fuzz/fuzz.py --features base,loops,arrays (unfad-fuzz:101:154),
// reduced by hand: the generated code does not compile. The helper h0 takes a
// struct (V2, global namespace) and is called both from the marked global h1
// and from the marked m::f. Its pullback is emitted once in h1's block (global)
// and again in f's block inside namespace m; the call in m::f_grad finds
// m::h0_pullback by ordinary lookup and ::h0_pullback by argument-dependent
// lookup (through V2): "call of overloaded 'h0_pullback(V2, double, V2*)' is
// ambiguous". (With double arguments only, lookup stops at m:: and it compiles.)
#include <unfad/unfad.h>

struct V2 {
  double x, y;
};

inline double h0(V2 s) { return s.x * s.y; }

UNFAD_GRADIENT double h1(double a) { return h0(V2{a, a}) * 2.0; }

namespace m {
UNFAD_GRADIENT double f(double x) { return h0(V2{x, 1.5}) + x; }
} // namespace m

/* e2e
[{"function": "h1", "points": [[0.5], [-1.25]], "grad_formula": ["4*a"]},
 {"function": "f", "call": "m::f", "points": [[0.5], [-1.25]], "grad_formula": ["2.5"]}]
*/
