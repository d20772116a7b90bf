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

} // namespace unfad::inlining
