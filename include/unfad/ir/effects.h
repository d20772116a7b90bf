// What evaluating an expression does to memory: the one analysis every pass
// asks instead of walking the tree for reads and writes itself.
//
// Arrays are named by the variable that holds them; an array expression that
// is not a variable (a fresh `new`, a projection) still sets the
// `readsMemory`/`writesMemory` flags.
#pragma once

#include "unfad/ir/ir.h"

#include <set>
#include <string>
#include <vector>

namespace unfad::ir {

struct MemoryEffects {
  // Arrays whose contents the expression may read: indexed, or passed to a
  // call or a pullback.
  std::set<std::string> reads;
  // Arrays it may write: stored to, accumulated into by a pullback, or
  // passed to a call. Without a program a call may write any array it is
  // given; with one, those its callee's summary marks `written`.
  std::set<std::string> writes;
  bool readsMemory = false;  // reads some array (named or not)
  bool writesMemory = false; // may write some array (see `writes`)
  // A Store or a pullback into buffers runs, here or, when a program was
  // given, inside a function it calls (even into the callee's own locals).
  bool stores = false;
  bool allocates = false; // a `new`/`scratch` array
  bool calls = false;     // a call to a helper
  // A `throw` may run (here or, with a program, in a callee), or an Effect
  // (printing: an order that must hold as much as a throw's). It also sets
  // `stores` and `writesMemory` (with no array named): an effect every pass
  // keeps, in order, and never speculates.
  bool raises = false;
  // An Effect (printing) may run, here or in a callee. (It also sets
  // `raises`, for its order.)
  bool prints = false;

  // Whether running this may change what `reader` reads.
  bool clobbers(const MemoryEffects &reader) const;
  // Whether it reads or writes the array named `array`.
  bool touches(const std::string &array) const { return reads.count(array) || writes.count(array); }
};

MemoryEffects memoryEffects(const Expr &e, const Program *p = nullptr);

// The arrays `e` resizes (Resize: their sizes change there).
std::vector<Expr> resizedArrays(const Expr &e);

} // namespace unfad::ir
