// The partial evaluator (Huot & Shaikhha §5.1, Fig. 12), one online pass:
//
//   (fun (x1..xn) -> e)(e1..en)  ~>  let x1 = e1 in ... e         (β)
//   let x = y in e / let x = c in e  ~>  e[y/x] / e[c/x]          (forward substitution)
//   π_i <e1..en>  ~>  e_i                                         (tuple projection)
//   let x = <e1..en> in e  ~>  let x1 = e1 .. in e[<x1..xn>/x]    (scalar replacement)
//   if true then a else b ~> a;  if c then a else a ~> a          (conditionals)
//   0*e ~> 0, 1*e ~> e, e+0 ~> e, ...                             (algebra, simplify.cpp)
//
// with common-subexpression elimination on the way. Continuations are
// linear, so inlining them never duplicates work; after the pass no Lambda
// or App remains.
//
// Binder names are unique in the input (the AD stage makes them so), which
// lets the evaluator keep one environment instead of closures.
//
// partial_eval.cpp: the walk over the nodes, residual lets and CSE;
// partial_eval_loops.cpp: what it learns about a loop's state (components
// that never change, cotangents that stay zero).
#pragma once

#include "support.h"

#include <set>
#include <unordered_map>
#include <unordered_set>

namespace unfad::opt {

class PartialEvaluator {
public:
  // `reserved`: names residual code may not take (parameters, and the
  // d_<param> names the printer gives adjoint arguments).
  // `pure`: helpers known to write none of their parameters.
  PartialEvaluator(const ir::Expr &root, const std::vector<std::string> &reserved,
                   const std::unordered_set<std::string> &pure);

  ir::Expr run(const ir::Expr &e) { return block(e); }

private:
  const std::unordered_set<std::string> &pure_;
  std::unordered_map<std::string, ir::Expr> env_; // static values of variables
  std::unordered_set<std::string> emitted_;       // residual binder names
  std::unordered_map<std::string, std::string> cse_;        // printed value -> the variable holding it
  std::unordered_map<std::string, std::string> memoryKeys_; // cse_ keys that read an array -> the array
  std::vector<std::string> cseLog_;
  // Condition variables known in the block being evaluated: inside
  // the branches of `if c`, and after a check `if c then () else throw`.
  std::unordered_map<std::string, bool> facts_;
  std::vector<std::string> factsLog_;
  void learn(const ir::Expr &cond, bool value);
  // A costly pure subexpression met only nested inside an emitted let's
  // value (the -sin(t) of cos' in forward code), keyed like cse_: where that
  // let is, so a later `let s = sin(t)` can move up to it and be shared.
  struct NestedSite {
    Lets *lets;
    size_t index;
  };
  std::unordered_map<std::string, NestedSite> nested_;
  std::vector<std::string> nestedLog_;
  std::unordered_map<std::string, int> suffix_;
  Lets *cur_ = nullptr;
  // Inside the body of a continuation (the adjoint code) a zero is a
  // cotangent that is absent, and 0 * e is 0 whatever e is (where dead
  // forward state overflowed, 0 * inf would otherwise poison the gradient
  // with NaN). Outside (the primal code, whose value f_grad returns) only
  // IEEE-exact rewrites apply.
  int continuationDepth_ = 0;
  bool strict() const { return continuationDepth_ == 0; }

  // --- partial_eval.cpp: residual code
  ir::Expr block(const ir::Expr &e, const ir::Expr &cond = nullptr, bool holds = true);
  std::string residualName(const std::string &hint);
  ir::Expr emit(const std::string &hint, const ir::Expr &v);
  ir::Expr emitMemoryRead(const std::string &hint, const ir::Expr &v);
  void forwardStore(const ir::Expr &v);
  // --- partial_eval_nested.cpp
  void recordNestedSites(const ir::Expr &v);
  ir::Expr hoistToNestedSite(const std::string &name, const std::string &key, const ir::Expr &v);
  ir::Expr reify(const ir::Expr &v);
  ir::Expr atomize(const std::string &hint, const ir::Expr &v);
  ir::Expr splitIf(const std::string &hint, const ir::Expr &ifExpr);
  void bind(const std::string &name, const ir::Expr &v) { env_[name] = atomize(name, v); }
  void forgetSizesResizedBy(const ir::Expr &v);
  void forgetReadsWrittenBy(const ir::Expr &v);
  void forgetReadsWrittenInLoop(const ir::Expr &body);
  void forgetReadsOf(const std::set<std::string> &written, bool all);
  void loopBinder(const std::string &name, const ir::TypeP &t);

  // --- partial_eval.cpp: one case per node kind
  ir::Expr evaluate(const ir::Expr &e);
  ir::Expr evaluatePrim(const ir::Prim *p);
  ir::Expr evaluateIf(const ir::If *i);
  ir::Expr evaluatePullback(const ir::Pullback *c);
  ir::Expr evaluateStore(const ir::Store *x);
  ir::Expr evaluateFold(const ir::Fold *f);
  ir::Expr evaluateWhile(const ir::While *w);
  ir::Expr evaluateApp(const ir::App *a);

  // --- partial_eval_loops.cpp: a loop's state
  ir::Expr resimplify(const ir::Expr &e) const;
  ir::Expr invariantState(const ir::Expr &e);
  ir::Expr invariantScalarState(const ir::Fold *f, const ir::Expr &e);
  ir::Expr zeroState(const ir::Expr &e);
  std::set<std::vector<int>> zeroLeaves(const ir::Fold *f) const;
  ir::Expr constantTail(const ir::Expr &e, std::unordered_map<std::string, ir::Expr> known) const;
};

// Residual names: the binder's name without the numeric suffix that the
// fresh-name supply added to continuation parameters (d_x1_7 -> d_x1).
std::string stripSuffix(const std::string &hint);

} // namespace unfad::opt
