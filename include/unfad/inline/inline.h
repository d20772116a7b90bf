// Inlining of helpers that write arrays: a call `h(a, n, u, y)` to a
// (non-recursive, small) helper that writes one of its array arguments is
// replaced by the helper's body, its binders renamed and its parameters
// bound to the arguments (arrays are buffers: the body then stores into the
// caller's array directly).
//
// Why: reverse mode sees a call that writes a local array as one opaque
// effect, and a loop around it saves the whole array every iteration; with
// the stores visible, the loop tapes only the elements they overwrite (a
// helper setting one element of a long array in a loop was O(length) per
// iteration). Run on the front end's program, before recognition of
// parallel shapes and UNF.
#pragma once

#include "unfad/ir/ir.h"

namespace unfad::inlining {

ir::Program inlineArrayWriters(const ir::Program &p);

// A helper called from one place in the whole program (`UNFAD_GRADIENT
// double f(...) { return model<double>(...); }`, a thin marked wrapper, and
// then the model's own helpers, round by round): inlined there. Why:
// otherwise the gradient calls the helper for its value and then its
// pullback, which runs the helper's forward sweep again — two primals before
// any adjoint work; inlined, the marked function's own sweep does both. In a
// loop, a call is also a wall for the loop's taping (nested_tapes.cpp): a
// recurrent model's time step calling its `logsumexp` was re-run whole in
// the backward sweep. (No code grows: the helper had one caller.)
ir::Program inlineSingleCalls(const ir::Program &p);

// Small loop-free helpers (a `sigmoid`, a `sq`) called in a loop, inlined at
// those calls. Why: a call in a loop costs the helper's value in the forward
// sweep and then its pullback, which computes its forward part again (a
// sigmoid's exp twice per gate and step); inlined, the loop's sweep shares
// those values. Calls outside loops and helpers with loops stay calls (one
// pullback per helper, called wherever the helper is: the generated code
// keeps the program's structure where that costs little).
ir::Program inlineSmallHelpers(const ir::Program &p);

// Every call of a non-recursive helper without a registered derivative,
// inlined everywhere (callees first). Forward mode (UNFAD_JVP) runs on the
// result: a pushforward costs about one primal wherever it runs, so unlike
// a pullback it gains nothing from staying a call, and one function with
// the tangent next to each primal line is what a person would write. (The
// front end refuses recursive and custom-derivative callees of UNFAD_JVP
// functions: lib/frontend/forward_mode.cpp.)
ir::Program inlineAll(const ir::Program &p);

// Helpers that print (an ir::Effect in their body, or in a helper they
// call), inlined at every call, whatever their size. Why: f_grad prints what
// f prints, once. Inlined, a print is the marked function's own effect,
// which its backward sweep's recomputations leave out; as a call, the
// helper's value recomputed in a backward sweep, its pullback's forward sweep
// or a value-and-pullback would print again. (The front end refuses printing
// in recursive helpers, which are never inlined.)
ir::Program inlinePrinters(const ir::Program &p);

// All four, as the pipeline runs them before reverse mode.
inline ir::Program inlineForReverse(const ir::Program &p) {
  return inlineSingleCalls(inlineSmallHelpers(inlineArrayWriters(inlinePrinters(p))));
}

} // namespace unfad::inlining
