// Parallel shapes (UNF paper App. A, Knossos notes §1.2/§4): recognises the
// loops of the front end that are maps and reductions, and simplifies them.
//
//   let a = new[n]; fold i in [0, n): a[i] = e(i)   ~>  let a = build n (i -> e(i))
//   fold i in [lo, hi) from s = 0: s + e(i)          ~>  sum lo hi (i -> e(i))
//
// (e pure, not reading a or s). Then the rules of the papers:
//
//   sum lo hi (i -> b[i]) with b = build n (j -> e(j)) read nowhere else
//       ~>  sum lo hi (i -> e(i))                             (map fusion)
//   sum lo hi (i -> if i == k then e else 0)  ~>  if lo <= k < hi then e[k/i] else 0
//                                                             (sum of a one-hot build)
//   sum lo hi (i -> 0) ~> 0;  sum lo hi (i -> c) ~> max(hi - lo, 0) · c
//                                                             (ZerosLike / OnesLike)
// and unused builds are dropped. Everything else stays a fold. Run on the
// front end's program, before UNF and reverse mode.
#pragma once

#include "unfad/ir/ir.h"

namespace unfad::parallel {

// Runs countedWhileLoops and indexDeterminedState first.
ir::Program recognize(const ir::Program &p);
ir::Expr recognize(const ir::Expr &body, const ir::Program &p);

// Loop state whose next value depends on the index only (a re-seated
// pointer's tag and offset, `prev = x[i]` in a loop writing no doubles)
// becomes a function of the index, so the loop carries no state for it
// (index_state.cpp):
//   fold i in [lo, hi) from s = init -> (...; next(i))
//     ~>  fold i in [lo, hi) -> let s = (i == lo ? init : next(i - 1)) in (...)
//         with the value (lo < hi ? next(hi - 1) : init)
ir::Program indexDeterminedState(const ir::Program &p);

// A while loop whose condition compares a counter, stepped by a constant
// every iteration, with a bound the loop cannot change becomes a fold over
// its trip count (counted_while.cpp):
//   while (s.k != b) s := (..., s.k + 1, ...)  ~>  fold _ in [0, b - s0.k) ...
ir::Program countedWhileLoops(const ir::Program &p);

} // namespace unfad::parallel


