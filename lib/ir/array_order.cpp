// Array parameter summaries and the array order rule (see array_order.h).
#include "unfad/ir/array_order.h"

#include "unfad/ir/mutator.h"

#include <set>

namespace unfad::ir {

namespace {

// One pass over a function body: marks the array parameters it reads and
// writes, directly or through calls (using the summaries so far).
class UseScan : public Visitor {
public:
  UseScan(const Function &fn, const ArrayParamUses &uses, ArrayParamUse &me) : uses_(uses), me_(me) {
    for (size_t k = 0; k < fn.params.size(); ++k)
      if (fn.params[k].type->isArray()) param_[fn.params[k].name] = k;
  }
  bool hasArrayParams() const { return !param_.empty(); }
  bool changed = false;

protected:
  void visit(const Index *n) override {
    mark(me_.reads, n->array);
    Visitor::visit(n);
  }
  void visit(const Store *n) override {
    mark(me_.writes, n->array);
    Visitor::visit(n);
  }
  void visit(const Call *n) override {
    auto it = uses_.find(n->callee);
    if (it != uses_.end())
      for (size_t j = 0; j < n->args.size() && j < it->second.reads.size(); ++j) {
        if (it->second.reads[j]) mark(me_.reads, n->args[j]);
        if (it->second.writes[j]) mark(me_.writes, n->args[j]);
      }
    Visitor::visit(n);
  }

private:
  void mark(std::vector<bool> &flags, const Expr &array) {
    const auto *var = storageArray(array)->as<Var>(); // through views and rows
    if (!var) return;
    auto it = param_.find(var->name);
    if (it != param_.end() && !flags[it->second]) flags[it->second] = changed = true;
  }
  const ArrayParamUses &uses_;
  ArrayParamUse &me_;
  std::map<std::string, size_t> param_;
};

// The walk in evaluation order; `read` holds the arrays read so far.
class OrderWalk {
public:
  OrderWalk(const Function &fn, const ArrayParamUses &uses) : uses_(uses) {
    for (const Param &p : fn.params)
      if (p.type->isArray()) arrayParams_.insert(p.name);
  }
  std::vector<ArrayOrderViolation> violations;
  std::set<std::string> inout; // parameters written after a read, here or in a callee
  std::set<std::string> accumulated; // parameters added into before every path assigned them

  // The arrays read so far (on some path), and those assigned (`=` stores)
  // on every path so far.
  struct Reads {
    std::set<std::string> arrays, assigned;
    size_t count(const std::string &a) const { return arrays.count(a); }
    void insert(const std::string &a) { arrays.insert(a); }
  };
  void walk(const Expr &e, Reads &read) {
    switch (e->kind) {
    case Kind::Const: case Kind::Var: case Kind::Size: case Kind::Throw: return;
    case Kind::Resize: walk(e->as<Resize>()->size, read); return; // (before any use of the array: the front end checks)
    case Kind::Prim: for (auto &a : e->as<Prim>()->args) walk(a, read); return;
    case Kind::Opaque: for (auto &a : e->as<Opaque>()->args) walk(a, read); return;
    case Kind::Effect: for (auto &a : e->as<Effect>()->args) walk(a, read); return;
    case Kind::Tuple: for (auto &a : e->as<Tuple>()->elems) walk(a, read); return;
    case Kind::Proj: walk(e->as<Proj>()->tuple, read); return;
    case Kind::NewArray: walk(e->as<NewArray>()->size, read); return;
    case Kind::View: walk(e->as<View>()->offset, read); return; // no access of its own
    case Kind::Let: return walkLet(e->as<Let>(), read);
    case Kind::If: return walkIf(e->as<If>(), read);
    case Kind::Index: return walkIndex(e->as<Index>(), read);
    case Kind::Store: return walkStore(e->as<Store>(), read);
    case Kind::Call: return walkCall(e->as<Call>(), read);
    case Kind::Fold: {
      auto f = e->as<Fold>();
      walk(f->lo, read);
      walk(f->hi, read);
      walk(f->init, read);
      walk(f->body, read);
      walk(f->body, read); // a second iteration
      return;
    }
    case Kind::While: {
      auto w = e->as<While>();
      walk(w->init, read);
      for (int k = 0; k < 2; ++k) {
        walk(w->cond, read);
        walk(w->body, read);
      }
      walk(w->cond, read);
      return;
    }
    case Kind::Build: {
      auto b = e->as<Build>();
      walk(b->size, read);
      walk(b->body, read);
      walk(b->body, read); // a second element
      return;
    }
    case Kind::Sum: {
      auto s = e->as<Sum>();
      walk(s->lo, read);
      walk(s->hi, read);
      walk(s->body, read);
      walk(s->body, read); // a second term
      return;
    }
    case Kind::Pullback: case Kind::Lambda: case Kind::App:
      throw IRError("array order check on differentiated IR (it runs on the front end's IR)");
    }
  }

private:
  // The array variable an array expression (or a view into it) names.
  static const Var *arrayVar(const Expr &a) { return storageArray(a)->as<Var>(); }
  // Local arrays may be rewritten: reverse mode saves what a store
  // overwrites and checkpoints local arrays a loop reads and rewrites.
  bool isArrayParam(const std::string &name) const { return arrayParams_.count(name) != 0; }

  void walkLet(const Let *l, Reads &read) {
    walk(l->value, read);
    if (l->value->is<NewArray>()) read.arrays.erase(l->name); // a fresh buffer
    walk(l->body, read);
  }
  void walkIf(const If *i, Reads &read) {
    walk(i->cond, read);
    Reads thenRead = read, elseRead = read;
    walk(i->thenE, thenRead);
    walk(i->elseE, elseRead);
    read.arrays = thenRead.arrays;
    read.arrays.insert(elseRead.arrays.begin(), elseRead.arrays.end());
    read.assigned.clear();
    for (auto &a : thenRead.assigned)
      if (elseRead.assigned.count(a)) read.assigned.insert(a);
  }
  void walkIndex(const Index *x, Reads &read) {
    walk(x->index, read);
    if (x->type->isArray()) return walk(x->array, read); // a row: where its elements are, not one of them
    if (auto v = arrayVar(x->array)) read.insert(v->name);
  }
  void walkStore(const Store *x, Reads &read) {
    walk(x->index, read);
    walk(x->value, read);
    auto v = arrayVar(x->array);
    if (!v) return;
    if (read.count(v->name) && isArrayParam(v->name)) {
      violations.push_back({ArrayOrderViolation::WrittenAfterRead, x, v->name, ""});
      inout.insert(v->name);
    }
    if (x->mode == Store::Mode::Set) read.assigned.insert(v->name);
    else if (!read.assigned.count(v->name) && isArrayParam(v->name)) accumulated.insert(v->name);
  }
  void walkCall(const Call *c, Reads &read) {
    for (auto &a : c->args) walk(a, read);
    auto it = uses_.find(c->callee);
    if (it == uses_.end()) return;
    const ArrayParamUse &use = it->second;
    for (size_t j = 0; j < c->args.size() && j < use.writes.size(); ++j) {
      auto v = arrayVar(c->args[j]);
      if (!v && use.writes[j] && c->args[j]->type->isArray())
        violations.push_back({ArrayOrderViolation::RowWrittenByCallee, c, "", c->callee});
      if (!v) continue;
      for (size_t k = j + 1; k < c->args.size() && k < use.writes.size(); ++k)
        if (auto w = arrayVar(c->args[k]); w && w->name == v->name && (use.writes[j] || use.writes[k])) {
          violations.push_back({ArrayOrderViolation::PassedTwiceToWriter, c, v->name, c->callee});
          if (isArrayParam(v->name)) inout.insert(v->name); // (the call, inlined, reads and writes it)
        }
      if (use.writes[j] && read.count(v->name) && isArrayParam(v->name)) {
        violations.push_back({ArrayOrderViolation::WrittenAfterRead, c, v->name, c->callee});
        inout.insert(v->name);
      }
      // the callee restores it in its pullback, from the memory it was called with
      if (j < use.inout.size() && use.inout[j] && isArrayParam(v->name)) {
        if (!read.count(v->name)) // (else reported above)
          violations.push_back({ArrayOrderViolation::WrittenAfterRead, c, v->name, c->callee});
        inout.insert(v->name);
      }
      if (j < use.accumulates.size() && use.accumulates[j] && !read.assigned.count(v->name) && isArrayParam(v->name))
        accumulated.insert(v->name);
    }
    for (size_t j = 0; j < c->args.size() && j < use.reads.size(); ++j)
      if (auto v = arrayVar(c->args[j]); v && use.reads[j]) read.insert(v->name);
  }

  const ArrayParamUses &uses_;
  std::set<std::string> arrayParams_;
};

} // namespace

ArrayParamUses arrayParamUses(const std::vector<const Function *> &fns) {
  ArrayParamUses uses;
  for (const Function *fn : fns)
    uses[fn->name] = {std::vector<bool>(fn->params.size()), std::vector<bool>(fn->params.size())};
  for (bool changed = true; changed;) {
    changed = false;
    for (const Function *fn : fns) {
      UseScan scan(*fn, uses, uses[fn->name]);
      if (!scan.hasArrayParams()) continue;
      scan.visitExpr(fn->body);
      changed |= scan.changed;
    }
  }
  // In/out parameters, to a fixpoint too (a caller's argument to a callee's
  // in/out parameter is in/out in the caller).
  for (const Function *fn : fns) {
    uses[fn->name].inout.assign(fn->params.size(), false);
    uses[fn->name].accumulates.assign(fn->params.size(), false);
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (const Function *fn : fns) {
      OrderWalk walk(*fn, uses);
      OrderWalk::Reads read;
      walk.walk(fn->body, read);
      std::vector<bool> &inout = uses[fn->name].inout, &accumulates = uses[fn->name].accumulates;
      for (size_t k = 0; k < fn->params.size(); ++k) {
        if (!inout[k] && walk.inout.count(fn->params[k].name)) inout[k] = changed = true;
        if (!accumulates[k] && walk.accumulated.count(fn->params[k].name)) accumulates[k] = changed = true;
      }
    }
  }
  return uses;
}

std::vector<ArrayOrderViolation> arrayOrderViolations(const Function &fn, const ArrayParamUses &uses) {
  OrderWalk walk(fn, uses);
  OrderWalk::Reads read;
  walk.walk(fn.body, read);
  return std::move(walk.violations);
}

} // namespace unfad::ir
