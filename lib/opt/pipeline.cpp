// The optimiser's pipeline: which passes run, in which order, how often;
// and the registry of pass names (`unfad-opt --pass=NAME`, dumps after a
// pass).
#include "unfad/opt/optimize.h"
#include "unfad/opt/passes.h"
#include "unfad/ir/effects.h"
#include "unfad/ir/mutator.h"

#include <algorithm>

namespace unfad::opt {

using namespace unfad::ir;

namespace {

struct NamedPass {
  const char *name;
  PassFunction run;
};

// In pipeline order.
const NamedPass kPasses[] = {
    {"lower-parallel", lowerParallelPass},
    {"hoist-throws", hoistThrows},
    {"partial-eval", partialEvaluate},
    {"split-struct-adds", splitStructAdds},
    {"constant-tapes", constantTapes},
    {"duplicate-tapes", duplicateTapes},
    {"dead-stores", deadStores},
    {"dead-arrays", deadArrays},
    {"dead-code", deadCode},
    {"sized-allocations", sizedAllocations},
    {"dead-loop-state", deadLoopState},
    {"loop-fusion", loopFusion},
    {"loop-cse", loopCSE},
    {"single-use", singleUse},
    {"promote-accumulators", promoteAccumulators},
    {"skip-zero-adjoints", skipZeroAdjoints},
    {"value-pullbacks", valuePullbacks},
    {"first-adds", firstAdds},
    {"hoist-invariants", hoistInvariants},
};

// Runs passes by name until the pass `stopAfter` has run once; after that
// every run is skipped, so the pipeline below reads as the whole pipeline.
class Runner {
public:
  Runner(const PassContext &context, std::string stopAfter) : context_(context), stopAfter_(std::move(stopAfter)) {}

  bool stopped() const { return stopped_; }

  Expr run(PassFunction pass, const char *name, const Expr &e, bool *changed = nullptr) {
    if (changed) *changed = false;
    if (stopped_) return e;
    Expr r = pass(e, context_, changed);
    stopped_ = stopAfter_ == name;
    return r;
  }

  // Partial evaluation and the clean-up after it.
  Expr cleanUp(const Expr &e) {
    Expr r = run(partialEvaluate, "partial-eval", e);
    r = run(splitStructAdds, "split-struct-adds", r);
    // Removing a dead read can leave a tape write-only, whose stores are
    // then dead too; a loop-state leaf nobody reads, handed back unchanged,
    // is dropped by partial evaluation, which leaves its reads dead: iterate
    // to a fixpoint.
    for (size_t before = 0, after = size(r); before != after && !stopped_;) {
      before = after;
      r = run(constantTapes, "constant-tapes", r);
      r = run(duplicateTapes, "duplicate-tapes", r);
      r = run(deadStores, "dead-stores", r);
      r = run(deadArrays, "dead-arrays", r);
      r = run(deadCode, "dead-code", r);
      r = run(sizedAllocations, "sized-allocations", r);
      bool deadState = false;
      r = run(deadLoopState, "dead-loop-state", r, &deadState);
      if (deadState) r = run(partialEvaluate, "partial-eval", r);
      after = size(r);
    }
    return r;
  }

private:
  const PassContext &context_;
  std::string stopAfter_;
  bool stopped_ = false;
};

} // namespace

Expr lowerParallelPass(const Expr &e, const PassContext &, bool *changed) {
  Expr r = lowerParallel(e);
  if (changed) *changed = r != e;
  return r;
}

const std::vector<std::string> &passNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (auto &p : kPasses) out.push_back(p.name);
    return out;
  }();
  return names;
}

PassFunction findPass(const std::string &name) {
  auto it = std::find_if(std::begin(kPasses), std::end(kPasses), [&](const NamedPass &p) { return name == p.name; });
  return it == std::end(kPasses) ? nullptr : it->run;
}

Expr runPipeline(const Expr &e, const PassContext &context, const std::string &stopAfter) {
  Runner passes(context, stopAfter);
  // build/sum become the loops they stand for: the loop rewrites below
  // (fusion of sweeps, loop CSE, invariant state) then apply to them too.
  Expr r = passes.run(lowerParallelPass, "lower-parallel", e);
  r = passes.run(hoistThrows, "hoist-throws", r);
  r = passes.cleanUp(r);
  // Fusing outer loops makes their inner loops siblings: repeat.
  // A round that fuses nothing leaves the IR as it was (its sweeps keep
  // their direction).
  for (int round = 0; round < 4; ++round) {
    bool fused = false;
    Expr candidate = passes.run(loopFusion, "loop-fusion", r, &fused);
    if (!fused) break;
    r = passes.cleanUp(candidate); // CSE across the fused halves
  }
  bool shared = false;
  r = passes.run(loopCSE, "loop-cse", r, &shared);
  if (shared) r = passes.cleanUp(r);
  r = passes.run(singleUse, "single-use", r);
  bool promoted = false;
  r = passes.run(promoteAccumulators, "promote-accumulators", r, &promoted);
  if (promoted) r = passes.run(singleUse, "single-use", r);
  r = passes.run(skipZeroAdjoints, "skip-zero-adjoints", r);
  r = passes.run(valuePullbacks, "value-pullbacks", r);
  r = passes.run(firstAdds, "first-adds", r);
  return passes.run(hoistInvariants, "hoist-invariants", r);
}

PassContext calleesContext(const Program *primal) {
  PassContext context;
  for (auto &g : primal ? primal->functions : std::vector<Function>{}) {
    if (std::none_of(g.params.begin(), g.params.end(), [](auto &q) { return q.written; }))
      context.pureCallees.insert(g.name);
    if (memoryEffects(g.body, primal).raises) context.raisingCallees.insert(g.name);
  }
  return context;
}

// `g` for the name g + suffix, else empty.
static std::string withoutSuffix(const std::string &name, const std::string &suffix) {
  if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) return "";
  return name.substr(0, name.size() - suffix.size());
}

void noteValueAndPullbacks(const Program &generated, PassContext &context) {
  for (auto &f : generated.functions)
    if (auto g = withoutSuffix(f.name, valueAndPullbackFunctionName("")); !g.empty()) context.valueAndPullbacks.insert(g);
}

PassContext contextFor(const Function &f, const PassContext &callees) {
  PassContext context = callees;
  for (auto &p : f.params) {
    context.reserved.push_back(p.name);
    context.reserved.push_back("d_" + p.name);
  }
  return context;
}

Expr optimize(const Expr &e) { return runPipeline(e, PassContext{}); }

Function optimize(const Function &f) {
  Function g = f;
  g.body = runPipeline(f.body, contextFor(f, PassContext{}));
  return g;
}

// The pullback functions `e` calls (g$pullback, g$value_and_pullback; not
// the functions it calls itself).
static std::unordered_set<std::string> pullbacksCalled(const Expr &e) {
  struct Collect : Visitor {
    std::unordered_set<std::string> names;
    void visit(const Pullback *p) override {
      names.insert(p->withValue ? valueAndPullbackFunctionName(p->callee) : pullbackFunctionName(p->callee));
      Visitor::visit(p);
    }
  } collect;
  collect.visitExpr(e);
  return collect.names;
}

// The program without the pullbacks that nothing calls once optimised (a
// call whose cotangent is zero, or whose result is dead, loses its pullback).
// A dump after a pass (`forDump`) keeps g$value_and_pullback beside a kept
// g$pullback: value-pullbacks, run on the dump, needs to know it exists.
static Program withoutUncalledPullbacks(Program p, bool forDump) {
  auto isPullback = [](const Function &f) {
    return !withoutSuffix(f.name, pullbackFunctionName("")).empty() ||
           !withoutSuffix(f.name, valueAndPullbackFunctionName("")).empty();
  };
  std::unordered_set<std::string> used;
  std::vector<const Function *> work;
  for (auto &f : p.functions)
    if (!isPullback(f)) work.push_back(&f);
  while (!work.empty()) {
    const Function *f = work.back();
    work.pop_back();
    for (auto &name : pullbacksCalled(f->body))
      if (const Function *g = p.find(name); g && used.insert(g->name).second) work.push_back(g);
  }
  if (forDump)
    for (auto &f : p.functions)
      if (auto g = withoutSuffix(f.name, valueAndPullbackFunctionName("")); !g.empty() && used.count(pullbackFunctionName(g)))
        used.insert(f.name);
  std::vector<Function> kept;
  for (auto &f : p.functions)
    if (!isPullback(f) || used.count(f.name)) kept.push_back(f);
  p.functions = std::move(kept);
  return p;
}

Program optimizeUpTo(const Program &p, const Program *primal, const std::string &stopAfter) {
  Program out = p;
  PassContext callees = calleesContext(primal); // (once: a scan of every helper)
  noteValueAndPullbacks(p, callees);
  for (auto &f : out.functions) f.body = runPipeline(f.body, contextFor(f, callees), stopAfter);
  return withoutUncalledPullbacks(std::move(out), !stopAfter.empty());
}

Program optimize(const Program &p, const Program *primal) { return optimizeUpTo(p, primal, ""); }

} // namespace unfad::opt
