// Standard algorithms given callables, lowered to loops like those of
// std_algorithms.cpp: std::transform (unary and binary), std::for_each,
// std::generate, std::accumulate and std::inner_product with operations,
// std::transform_reduce (the plain, binary and unary forms). The callable
// is a lambda (or a local holding one), a function's name, or std::plus,
// std::minus, std::multiplies, std::divides; a lambda's body is lowered
// into the loop's body (lambdas.cpp), so no closure object is left. The
// caller's variables the lambdas may write through their captures are
// carried by the loop.
#include "lowering.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>

namespace unfad::frontend {

using namespace clang;

namespace {

// std::plus<> and friends: the operator they apply.
bool stdOperation(QualType t, ir::Op &op) {
  const auto *rd = t.getNonReferenceType()->getAsCXXRecordDecl();
  if (!rd || !rd->isInStdNamespace() || !rd->getIdentifier()) return false;
  llvm::StringRef n = rd->getName();
  if (n == "plus") op = ir::Op::Add;
  else if (n == "minus") op = ir::Op::Sub;
  else if (n == "multiplies") op = ir::Op::Mul;
  else if (n == "divides") op = ir::Op::Div;
  else return false;
  return true;
}

} // namespace

// The callable `e` designates, to be called with `arity` arguments.
bool Lowering::callableArg(const Expr *e, unsigned arity, Env &env, Callable &out) {
  SourceLocation loc = e->getExprLoc();
  if (stdOperation(e->getType(), out.primOp)) {
    if (arity != 2) fail(loc, "this operation takes two arguments");
    out.prim = true;
    return true;
  }
  const Expr *x = stripCallable(e);
  if (const auto *d = dyn_cast<DeclRefExpr>(x); d && isa<FunctionDecl>(d->getDecl())) {
    out.fn = cast<FunctionDecl>(d->getDecl());
    return true;
  }
  if (const auto *d = dyn_cast<DeclRefExpr>(x); d && isa<VarDecl>(d->getDecl()) && functions_.count(cast<VarDecl>(d->getDecl()))) {
    out.fn = functions_.at(cast<VarDecl>(d->getDecl()));
    return true;
  }
  if (const auto *d = dyn_cast<DeclRefExpr>(x); d && isStdFunction(e->getType()))
    if (const auto *v = dyn_cast<VarDecl>(d->getDecl()); v && closures_.count(v)) { // (std_function.cpp)
      out.closure = closures_.at(v);
      out.op = callOperator(out.closure, arity, loc);
      return true;
    }
  const CXXRecordDecl *rd = closureRecord(e->getType());
  if (!rd && (rd = functorRecord(e->getType()))) { // a functor: its operator() with `arity` parameters
    Binds binds;
    closureOf(e, env, binds, out.closure);
    if (!effects_) fail(loc, "a function object is not supported here (use a separate statement)");
    effects_->insert(effects_->end(), binds.begin(), binds.end());
    out.op = callOperator(out.closure, arity, loc);
    return true;
  }
  if (!rd) return false;
  Binds binds;
  if (!closureOf(e, env, binds, out.closure))
    fail(loc, "this lambda argument is not supported (pass a lambda or a local holding one)");
  if (!binds.empty()) {
    if (!effects_) fail(loc, "a lambda with by-value captures is not supported here (use a separate statement)");
    effects_->insert(effects_->end(), binds.begin(), binds.end());
  }
  out.op = callOperator(out.closure, arity, loc);
  return true;
}

// The call operator of closure `c` taking `arity` arguments: a functor's
// `operator()`, a lambda's, or the one instantiation of a generic lambda's.
const FunctionDecl *Lowering::callOperator(const Closure &c, unsigned arity, SourceLocation loc) {
  const CXXRecordDecl *rd = c.rd;
  const FunctionDecl *op = nullptr;
  if (c.self) { // a functor
    for (const CXXMethodDecl *m : rd->methods())
      if (m->getOverloadedOperator() == OO_Call && m->getNumParams() == arity && !m->isStatic()) op = m;
    if (!op) fail(loc, "this function object has no call operator taking " + std::to_string(arity) + " argument(s)");
    return op;
  }
  if (!rd->isGenericLambda()) {
    op = rd->getLambdaCallOperator();
  } else {
    for (const FunctionDecl *s : rd->getDependentLambdaCallOperator()->specializations()) {
      if (s->getNumParams() != arity) continue;
      if (op) fail(loc, "a generic lambda called with arguments of different types is not supported here");
      op = s;
    }
  }
  if (!op || op->getNumParams() != arity)
    fail(loc, "this lambda is called with " + std::to_string(arity) + " argument(s) here");
  return op;
}

ir::Expr Lowering::applyCallable(const Callable &c, const std::vector<CallArg> &args, Env &env, SourceLocation loc) {
  if (c.op) return callClosure(c.closure, c.op, args, env, loc);
  std::vector<ir::Expr> vs;
  for (const CallArg &a : args) vs.push_back(a.value ? a.value : read(a.array, a.index, loc));
  if (c.prim) {
    ir::TypeP t = vs[0]->type->isFloat() ? vs[0]->type : vs[1]->type;
    if (!t->isScalar()) fail(loc, "this operation on non-scalar values is not supported");
    return ir::Prim::make(c.primOp, {convert(vs[0], t), convert(vs[1], t)});
  }
  // a function with a registered derivative (custom_derivatives.cpp): a call
  // of its stand-in, as lowerCustomCall makes it
  if (!customScanned_) findCustomGradients();
  if (auto it = customGradients_.find(c.fn->getCanonicalDecl()); it != customGradients_.end()) {
    if (c.fn->getNumParams() != vs.size()) fail(loc, "call with a wrong number of arguments");
    size_t idx = customEntry(c.fn, &it->second, loc);
    for (size_t k = 0; k < vs.size(); ++k) {
      ir::TypeP pt = entries_[idx].fn.params[k].type;
      if (pt->isArray()) fail(loc, "'" + c.fn->getNameAsString() + "' takes an array, which is not supported here");
      vs[k] = convert(vs[k], pt);
    }
    ir::Expr call = ir::Call::make(entries_[idx].irName, vs, entries_[idx].fn.result);
    locs_[call.get()] = loc;
    return call;
  }
  // a function's name: a call of the helper, as lowerHelperCall makes it
  const FunctionDecl *def = c.fn->getDefinition();
  std::string fname = c.fn->getNameAsString();
  if (!def || !def->hasBody()) fail(loc, "call to '" + fname + "' whose body is not visible");
  if (def->getNumParams() != vs.size()) fail(loc, "call with a wrong number of arguments");
  if (takesOutReference(def) || inlinedHelper(def) || isa<CXXMethodDecl>(def))
    fail(loc, "'" + fname + "' cannot be given to an algorithm (pass a lambda calling it)");
  checkFunction(def);
  for (unsigned k = 0; k < vs.size(); ++k) {
    ir::TypeP pt = paramType(def->getParamDecl(k));
    if (pt->isArray()) fail(loc, "'" + fname + "' takes an array, which is not supported here");
    vs[k] = convert(vs[k], pt);
  }
  QualType drt = def->getReturnType();
  ir::TypeP result = drt->isVoidType() ? ir::Type::unit() : typeOf(drt.getUnqualifiedType(), def->getLocation());
  size_t idx = request(def, false, passiveArguments(vs));
  if (!entries_[idx].done) queue_.push_back(idx);
  if (!entries_[idx].callSite.isValid()) entries_[idx].callSite = loc, entries_[idx].calledAt = fname;
  ir::Expr call = ir::Call::make(entries_[idx].irName, vs, result);
  locs_[call.get()] = loc;
  return call;
}

std::vector<const VarDecl *> Lowering::callableRoots(const std::vector<const Callable *> &cs, const Env &env) {
  std::vector<const VarDecl *> w, out;
  for (const Callable *c : cs)
    if (c->op) closureWrites(c->closure.rd, w, 0);
  for (const VarDecl *v : w)
    if (auto it = env.find(v); it != env.end() && !it->second->type->isArray() && std::find(out.begin(), out.end(), v) == out.end())
      out.push_back(v);
  return out;
}

// for j in [0, n): acc = step(j, acc, env) (`init` null: no accumulator),
// the caller's variables `roots` carried along; the value is the final
// accumulator (or `()`), the roots get their final values in `env`.
ir::Expr Lowering::callableLoop(const ir::Expr &n, const ir::Expr &init, const std::vector<const VarDecl *> &roots,
                                Env &env, SourceLocation loc,
                                const std::function<ir::Expr(const ir::Expr &, const ir::Expr &, Env &)> &step) {
  std::vector<ir::Expr> start;
  if (init) start.push_back(init);
  for (const VarDecl *r : roots) start.push_back(env.at(r));
  bool bare = start.size() == 1;
  ir::Expr s0 = bare ? start[0] : ir::Tuple::make(start);
  size_t first = init ? 1 : 0;
  ir::Expr loop = foldRange(n, s0, [&](const ir::Expr &j, const ir::Expr &st) {
    Env inner = env;
    Binds b;
    auto part = [&](size_t k) { return bare ? st : ir::Expr(ir::Proj::make(st, int(k))); };
    ir::Expr acc;
    if (init) {
      std::string an = names_.fresh("acc");
      b.push_back({an, part(0)});
      acc = ir::Var::make(an, init->type);
    }
    for (size_t k = 0; k < roots.size(); ++k) {
      std::string rn = names_.fresh(roots[k]->getNameAsString());
      ir::Expr v = part(first + k);
      b.push_back({rn, v});
      inner[roots[k]] = ir::Var::make(rn, v->type);
    }
    ir::Expr next;
    {
      EffectScope scope(*this, &b);
      next = step(j, acc, inner);
    }
    std::vector<ir::Expr> end;
    if (init) end.push_back(convert(next, init->type));
    for (const VarDecl *r : roots) end.push_back(inner.at(r));
    return wrap(b, bare ? end[0] : ir::Tuple::make(end));
  });
  if (roots.empty()) return loop;
  if (!effects_) fail(loc, "this algorithm's lambda writes a captured variable here, which is not supported (use a "
                           "separate statement)");
  std::string ln = names_.fresh("loop");
  effects_->push_back({ln, loop});
  ir::Expr lv = ir::Var::make(ln, loop->type);
  for (size_t k = 0; k < roots.size(); ++k) {
    std::string rn = names_.fresh(roots[k]->getNameAsString());
    ir::Expr v = bare ? lv : ir::Expr(ir::Proj::make(lv, int(first + k)));
    effects_->push_back({rn, v});
    env[roots[k]] = ir::Var::make(rn, v->type);
  }
  return init ? ir::Expr(ir::Proj::make(lv, 0)) : ir::Expr(ir::Tuple::make({}));
}

// std::count_if, std::any_of, std::all_of, std::none_of with a predicate:
// a loop over the whole range counting (or and-ing, or-ing) its results, a
// passive value. The short-circuiting ones stop at the first decisive
// element, which changes nothing when the predicate writes no captured
// variable (a predicate that does is refused).
ir::Expr Lowering::lowerPredicateAlgorithm(const CallExpr *ce, Env &env) {
  llvm::StringRef name = ce->getDirectCallee()->getName();
  bool count = name == "count_if", anyOf = name == "any_of", allOf = name == "all_of", noneOf = name == "none_of";
  if (!(count || anyOf || allOf || noneOf) || ce->getNumArgs() != 3) return nullptr;
  SourceLocation loc = ce->getExprLoc();
  Walk w;
  ir::Expr n;
  if (!rangeWalk(ce->getArg(0), ce->getArg(1), env, w, n)) return nullptr;
  Callable pred;
  if (!callableArg(ce->getArg(2), 1, env, pred)) return nullptr;
  std::vector<const VarDecl *> roots = callableRoots({&pred}, env);
  if (!count && !roots.empty())
    fail(loc, "'std::" + name.str() + "' with a predicate that writes a captured variable is not supported (it stops "
                                     "at the first decisive element)");
  ir::Expr init = count ? ir::Const::makeInt(0) : ir::Const::makeBool(!anyOf);
  return callableLoop(n, init, roots, env, loc, [&](const ir::Expr &j, const ir::Expr &acc, Env &in) -> ir::Expr {
    std::vector<CallArg> x{CallArg{nullptr, w.array, w.at(j), nullptr}};
    ir::Expr p = toBool(applyCallable(pred, x, in, loc));
    if (count) return ir::If::make(p, ir::Prim::make(ir::Op::Add, {acc, ir::Const::makeInt(1)}), acc);
    if (anyOf) return ir::Prim::make(ir::Op::Or, {acc, p});
    return ir::Prim::make(ir::Op::And, {acc, noneOf ? ir::Prim::make(ir::Op::Not, {p}) : p});
  });
}

ir::Expr Lowering::lowerCallableAlgorithm(const CallExpr *ce, Env &env) {
  const FunctionDecl *fd = ce->getDirectCallee();
  if (!fd || !fd->isInStdNamespace() || !fd->getIdentifier()) return nullptr;
  llvm::StringRef name = fd->getName();
  unsigned nargs = ce->getNumArgs();
  SourceLocation loc = ce->getExprLoc();
  auto at = [](const ir::Expr &lo, const ir::Expr &j) { return ir::Prim::make(ir::Op::Add, {lo, j}); };
  auto arg = [&](unsigned k) { return ce->getArg(k); };
  ir::Expr a, lo, n;
  Walk w, b, d; // (ranges read, and a destination, may be walked backwards)
  bool unaryT = name == "transform" && nargs == 4, binaryT = name == "transform" && nargs == 5;
  if (unaryT || binaryT || ((name == "for_each" || name == "generate") && nargs == 3)) {
    if (!rangeWalk(arg(0), arg(1), env, w, n)) return nullptr;
    Callable f;
    unsigned arity = binaryT ? 2 : name == "generate" ? 0 : 1;
    if (!callableArg(arg(nargs - 1), arity, env, f)) return nullptr;
    if (binaryT && !iteratorWalk(arg(2), env, b))
      fail(arg(2)->getExprLoc(), "the second range of 'std::transform' is not recognised as an array");
    if ((unaryT || binaryT) && !iteratorWalk(arg(nargs - 2), env, d))
      fail(arg(nargs - 2)->getExprLoc(), "the destination of 'std::transform' is not recognised as an iterator into an array");
    if (name == "generate") d = w;
    return callableLoop(n, nullptr, callableRoots({&f}, env), env, loc, [&](const ir::Expr &j, const ir::Expr &, Env &in) {
      std::vector<CallArg> args;
      if (name != "generate") args.push_back(CallArg{nullptr, w.array, w.at(j), nullptr});
      if (binaryT) args.push_back(CallArg{nullptr, b.array, b.at(j), nullptr});
      ir::Expr v = applyCallable(f, args, in, loc);
      if (d.array)
        effects_->push_back({names_.fresh("_"), store(d.array, d.at(j), convert(v, d.array->type->elem()), ir::Store::Mode::Set, loc)});
      return ir::Expr();
    });
  }
  if ((name == "replace" && nargs == 4) || (name == "replace_if" && nargs == 4)) {
    // a[j] = new where a[j] == old (pred(a[j])). `old` and `new` are read at
    // each element, as the library's references are (one may be an element
    // the loop replaces: `std::replace(v.begin(), v.end(), v[0], 1.0)`).
    if (!iteratorRange(arg(0), arg(1), env, a, lo, n)) return nullptr;
    Callable pred;
    if (name == "replace_if" && !callableArg(arg(2), 1, env, pred)) return nullptr;
    const ir::TypeP t = a->type->elem();
    if (!t->isScalar()) fail(loc, "'std::" + name.str() + "' of non-scalar values is not supported");
    return callableLoop(n, nullptr, name == "replace_if" ? callableRoots({&pred}, env) : std::vector<const VarDecl *>{},
                        env, loc, [&](const ir::Expr &j, const ir::Expr &, Env &in) {
                          const std::string x = names_.fresh("x");
                          effects_->push_back({x, read(a, at(lo, j), loc)});
                          const ir::Expr xv = ir::Var::make(x, t);
                          ir::Expr hit = name == "replace"
                                             ? ir::Prim::make(ir::Op::Eq, {xv, convert(lowerExpr(arg(2), in), t)})
                                             : toBool(applyCallable(pred, {CallArg{nullptr, nullptr, nullptr, xv}}, in, loc));
                          ir::Expr value = convert(lowerExpr(arg(3), in), t);
                          effects_->push_back({names_.fresh("_"), ir::If::make(hit, store(a, at(lo, j), value, ir::Store::Mode::Set, loc),
                                                                                ir::Tuple::make({}))});
                          return ir::Expr();
                        });
  }
  if (ir::Expr counted = lowerPredicateAlgorithm(ce, env)) return counted;
  // acc = reduce(acc, combine(x[j], y[j])) or reduce(acc, map(x[j]))
  bool accumulate = name == "accumulate" && nargs == 4, inner = name == "inner_product" && nargs == 6;
  bool treduce2 = name == "transform_reduce" && (nargs == 4 || nargs == 6), treduce1 = name == "transform_reduce" && nargs == 5;
  if (!accumulate && !inner && !treduce2 && !treduce1) return nullptr;
  if (!rangeWalk(arg(0), arg(1), env, w, n)) return nullptr;
  bool two = inner || treduce2;
  if (two && !iteratorWalk(arg(2), env, b))
    fail(arg(2)->getExprLoc(), "the second range of 'std::" + name.str() + "' is not recognised as an array");
  unsigned initArg = two ? 3 : 2;
  Callable reduce, combine;
  if (nargs == 4 && treduce2) {
    reduce.prim = combine.prim = true;
    reduce.primOp = ir::Op::Add, combine.primOp = ir::Op::Mul;
  } else {
    if (!callableArg(arg(initArg + 1), 2, env, reduce)) return nullptr;
    if (!accumulate && !callableArg(arg(initArg + 2), two ? 2 : 1, env, combine)) return nullptr;
  }
  ir::TypeP t = typeOf(ce->getType().getUnqualifiedType(), loc);
  // (a struct of numbers too: `std::accumulate(pts.begin(), pts.end(), Vec2{0, 0}, add)`)
  if (!t->isScalar() && !t->isStruct()) fail(loc, "'std::" + name.str() + "' of non-scalar values is not supported");
  ir::Expr init = t->isScalar() ? convert(lowerExpr(arg(initArg), env), t) : lowerExpr(arg(initArg), env);
  return callableLoop(n, init, callableRoots({&reduce, &combine}, env), env, loc,
                      [&](const ir::Expr &j, const ir::Expr &acc, Env &in) {
                        std::vector<CallArg> xs{CallArg{nullptr, w.array, w.at(j), nullptr}};
                        if (two) xs.push_back(CallArg{nullptr, b.array, b.at(j), nullptr});
                        ir::Expr x = accumulate ? nullptr : applyCallable(combine, xs, in, loc);
                        std::vector<CallArg> rs{CallArg{nullptr, nullptr, nullptr, acc},
                                                accumulate ? xs[0] : CallArg{nullptr, nullptr, nullptr, x}};
                        return applyCallable(reduce, rs, in, loc);
                      });
}

} // namespace unfad::frontend
