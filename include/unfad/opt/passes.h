// The optimiser's passes, one entry point each (one file each under
// lib/opt/), and the registry that names them. lib/opt/pipeline.cpp runs
// them in order; `unfad-opt --pass=NAME` runs one.
#pragma once

#include "unfad/ir/ir.h"

#include <string>
#include <unordered_set>
#include <vector>

namespace unfad::opt {

// What the passes know about the function they rewrite.
struct PassContext {
  // Names residual code may not take: the parameters, and the d_<param>
  // names the printer gives adjoint arguments.
  std::vector<std::string> reserved;
  // Helpers known to write none of their parameters: calling them, or their
  // pullbacks (which only add into buffers), commutes with += sweeps.
  std::unordered_set<std::string> pureCallees;
  // Helpers that may throw (pure or not): a loop calling one runs to its end
  // before its adjoint sweep adds into anything (f_grad throws where f
  // throws, with the adjoints untouched).
  std::unordered_set<std::string> raisingCallees;
  // Helpers whose value_and_pullback the program has (value_pullbacks.cpp).
  std::unordered_set<std::string> valueAndPullbacks;
};

// Every pass: the rewritten expression; *changed (when given) says whether
// the pass rewrote anything, for passes whose rewrite enables another round.
using PassFunction = ir::Expr (*)(const ir::Expr &e, const PassContext &context, bool *changed);

// build/sum become the loops they stand for (ir::lowerParallel).
ir::Expr lowerParallelPass(const ir::Expr &e, const PassContext &context, bool *changed = nullptr);
// A branch ending in a throw becomes a check before the rest (hoist_throws.cpp).
ir::Expr hoistThrows(const ir::Expr &e, const PassContext &context, bool *changed = nullptr);
// Whether `e`'s let chain throws: one of its top-level lets binds a Throw.
bool letChainThrows(const ir::Expr &e);
// β-reduction of continuations, forward substitution, tuple projection,
// let normalisation, the algebraic rules and CSE (partial_eval.h).
ir::Expr partialEvaluate(const ir::Expr &e, const PassContext &context, bool *changed = nullptr);
// a[i] += Vec3{0, y, 0}  ~>  a[i].y += y
ir::Expr splitStructAdds(const ir::Expr &e, const PassContext &context, bool *changed = nullptr);
// Stores overwritten, or putting back what was read, before anything reads.
ir::Expr deadStores(const ir::Expr &e, const PassContext &context, bool *changed = nullptr);
// Reads of a scratch tape whose every store writes one constant are it.
ir::Expr constantTapes(const ir::Expr &e, const PassContext &context, bool *changed = nullptr);
// Two scratch tapes stored once each, with the same value at the same
// index, are one (duplicate_tapes.cpp).
ir::Expr duplicateTapes(const ir::Expr &e, const PassContext &context, bool *changed = nullptr);
// Stores into local arrays that nothing reads before they are overwritten
// whole (liveness of arrays).
ir::Expr deadArrays(const ir::Expr &e, const PassContext &context, bool *changed = nullptr);
// Lets nobody uses, stores into local arrays nobody reads.
ir::Expr deadCode(const ir::Expr &e, const PassContext &context, bool *changed = nullptr);
// An array allocated empty and first resized is allocated at that size
// (sized_allocations.cpp).
ir::Expr sizedAllocations(const ir::Expr &e, const PassContext &context, bool *changed = nullptr);
// Loop-state leaves that feed nothing but themselves are handed back
// unchanged, for partial evaluation to drop (dead_loop_state.cpp).
ir::Expr deadLoopState(const ir::Expr &e, const PassContext &context, bool *changed = nullptr);
// A loop and its adjoint sweep become one loop.
ir::Expr loopFusion(const ir::Expr &e, const PassContext &context, bool *changed = nullptr);
// A loop (or a pure call) computing what an earlier one computed reuses it.
ir::Expr loopCSE(const ir::Expr &e, const PassContext &context, bool *changed = nullptr);
// Single-use temporaries folded into their use; += updates merged.
ir::Expr singleUse(const ir::Expr &e, const PassContext &context, bool *changed = nullptr);
// += at a loop-invariant index accumulates in a register of the loop.
ir::Expr promoteAccumulators(const ir::Expr &e, const PassContext &context, bool *changed = nullptr);
// A stateless adjoint loop whose every += is scaled by one cotangent runs
// only when that cotangent is nonzero.
ir::Expr skipZeroAdjoints(const ir::Expr &e, const PassContext &context, bool *changed = nullptr);
// A helper's call and its pullback in one block become one value_and_pullback.
ir::Expr valuePullbacks(const ir::Expr &e, const PassContext &context, bool *changed = nullptr);
// A cotangent buffer known zero is stored into by its first loop, and the
// resets nothing reads go (first_adds.cpp).
ir::Expr firstAdds(const ir::Expr &e, const PassContext &context, bool *changed = nullptr);
// Scratch buffers and trap-free invariant arithmetic move out of loops.
ir::Expr hoistInvariants(const ir::Expr &e, const PassContext &context, bool *changed = nullptr);

// The pass names (kebab-case), in pipeline order.
const std::vector<std::string> &passNames();
// The pass of that name, or null.
PassFunction findPass(const std::string &name);

// The whole pipeline (optimize() in optimize.h), stopped right after the
// first run of the pass `stopAfter` when it is not empty.
ir::Expr runPipeline(const ir::Expr &e, const PassContext &context, const std::string &stopAfter = "");
// What the primal program's helpers do (`pureCallees`, `raisingCallees`),
// and the context of a function of the program: that, its parameters reserved.
PassContext calleesContext(const ir::Program *primal);
PassContext contextFor(const ir::Function &f, const PassContext &callees);
// The helpers whose g$value_and_pullback the generated program has.
void noteValueAndPullbacks(const ir::Program &generated, PassContext &context);

} // namespace unfad::opt
