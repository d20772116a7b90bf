// Local std::vectors that grow: `v.push_back(x)`, `v.emplace_back(x)`, `v.emplace_back(a, b)` (by a constructor),
// `v.resize(n[, value])`, `v.assign(n, value)`, `v.clear()`, `v.pop_back()`,
// `v.reserve(n)`.
//
// Such a vector is one buffer, allocated where it is declared, and its
// length, an integer local that loops and branches carry like any other
// variable (a synthetic VarDecl, so collectAssigned and the loop state treat
// it as one). A push is a store at the current length followed by the length
// plus one; everything that asks for the vector's size (`size()`, `back()`,
// `end()`, range-for) reads the length, never the buffer's size. The buffer
// gets room for the most elements the calls in the vector's scope can reach:
// the front end bounds them from the trip counts of the loops around the
// calls (growthBound), so no store ever lands past the allocation and the
// reverse pass sees ordinary stores into an ordinary array (the elements a
// push overwrites after a `clear` are taped and restored like any other).
// A call whose count cannot be bounded where the vector is declared (in a
// `while` loop, in a loop whose bounds are computed later) is an error at it.
#include "lowering.h"

#include "unfad/ir/counts.h"
#include "unfad/ir/effects.h"
#include "unfad/ir/equal.h"
#include "unfad/ir/mutator.h"
#include "unfad/ir/traverse.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ParentMapContext.h>

#include <functional>

namespace unfad::frontend {

using namespace clang;

namespace {

bool growCall(llvm::StringRef n) {
  return n == "push_back" || n == "emplace_back" || n == "resize" || n == "assign" || n == "clear" || n == "insert" ||
         n == "pop_back" || n == "reserve";
}

const VarDecl *namedVar(const Expr *e) {
  const auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  return d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
}

// How a std::vector local's length is given where it is declared, as text
// to compare: `n` for `v(n)` / `v(n, x)`, `x.size()` for a copy `v(x)`
// (and for `v(y.size())` when y is itself such a copy); empty otherwise.
std::string declaredLength(const VarDecl *vd, const ASTContext &ctx, int depth = 0) {
  const auto *ce = vd && vd->getInit() ? dyn_cast<CXXConstructExpr>(vd->getInit()->IgnoreImplicit()) : nullptr;
  if (!ce || ce->getNumArgs() == 0 || depth > 4) return "";
  const Expr *a = ce->getArg(0)->IgnoreParenImpCasts();
  auto lengthOf = [&](const VarDecl *x) {
    std::string l = x->isLocalVarDecl() ? declaredLength(x, ctx, depth + 1) : "";
    return l.empty() ? x->getNameAsString() + ".size()" : l;
  };
  if (ce->getConstructor()->isCopyOrMoveConstructor()) {
    const VarDecl *x = namedVar(copySource(ce->getArg(0)));
    return x ? lengthOf(x) : "";
  }
  if (!a->getType()->isIntegerType() || isa<CXXDefaultArgExpr>(a)) return "";
  if (const auto *mc = dyn_cast<CXXMemberCallExpr>(a); mc && mc->getNumArgs() == 0 && mc->getMethodDecl() &&
                                                       mc->getMethodDecl()->getIdentifier() &&
                                                       mc->getMethodDecl()->getName() == "size")
    if (const VarDecl *x = namedVar(mc->getImplicitObjectArgument())) return lengthOf(x);
  std::string text;
  llvm::raw_string_ostream os(text);
  a->printPretty(os, nullptr, PrintingPolicy(ctx.getLangOpts()));
  return text;
}

// `d = s;` of std::vectors of numbers whose lengths may differ (an MLP's
// `cur = next;` across layers of other widths): `d` changes length, as a
// growing vector. Lengths the same by their declarations (`next(cur.size())`,
// both `(n)`) keep the plain element-wise copy (local_arrays.cpp).
const VarDecl *resizingAssignment(const Stmt *s, const ASTContext &ctx) {
  const auto *oc = dyn_cast<CXXOperatorCallExpr>(s);
  if (!oc || oc->getOperator() != OO_Equal || oc->getNumArgs() != 2) return nullptr;
  const VarDecl *d = namedVar(oc->getArg(0)), *src = namedVar(copySource(oc->getArg(1)));
  const auto *sd = d ? dyn_cast_or_null<ClassTemplateSpecializationDecl>(d->getType()->getAsCXXRecordDecl()) : nullptr;
  if (!d || !d->isLocalVarDecl() || !sd || !sd->isInStdNamespace() || sd->getName() != "vector" ||
      !sd->getTemplateArgs()[0].getAsType()->isArithmeticType())
    return nullptr;
  // `h = layer(L, h);`: what a helper returns has a length of its own
  const auto *call = dyn_cast<CallExpr>(stripTemporaries(copySource(oc->getArg(1))));
  const FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
  if (callee && !callee->isInStdNamespace() && callee->hasBody() &&
      ctx.hasSameUnqualifiedType(d->getType(), call->getType()))
    return d;
  if (!src || !ctx.hasSameUnqualifiedType(d->getType(), src->getType().getNonReferenceType())) return nullptr;
  std::string dl = declaredLength(d, ctx), sl = src->isLocalVarDecl() ? declaredLength(src, ctx) : "";
  if (sl.empty() && !src->isLocalVarDecl()) sl = src->getNameAsString() + ".size()";
  if (!dl.empty() && (dl == sl || dl == src->getNameAsString() + ".size()" || sl == d->getNameAsString() + ".size()"))
    return nullptr;
  return d;
}

// The local vectors a function body calls growing members on, or assigns
// arrays of other lengths.
void scanGrowCalls(const Stmt *s, const ASTContext &ctx, std::set<const VarDecl *> &out) {
  if (!s) return;
  if (const VarDecl *vd = resizingAssignment(s, ctx)) out.insert(vd);
  for (const Stmt *c : s->children()) scanGrowCalls(c, ctx, out);
}

// Every variable `s` calls a growing member on (`v.push_back(x)`, ...).
void walkGrowCalls(const Stmt *s, const std::function<void(const VarDecl *)> &found) {
  if (!s) return;
  if (const auto *mc = dyn_cast<CXXMemberCallExpr>(s); mc && mc->getMethodDecl() && mc->getMethodDecl()->getIdentifier())
    if (growCall(mc->getMethodDecl()->getName()))
      if (const VarDecl *vd = namedVar(mc->getImplicitObjectArgument())) found(vd);
  for (const Stmt *c : s->children()) walkGrowCalls(c, found);
}

// Bounds are counts (ir/counts.h: constants folded, null + x = null); in a
// maximum, though, null is "no such length" (minus infinity: max(null, x) = x).
ir::Expr constOf(int64_t v) { return ir::Const::makeInt(v); }
bool isConst(const ir::Expr &e, int64_t v) {
  const auto *c = e ? e->as<ir::Const>() : nullptr;
  return c && c->ivalue == v;
}
ir::Expr maxB(const ir::Expr &a, const ir::Expr &b) {
  if (!a || !b) return a ? a : b;
  return ir::alphaEqual(a, b) ? a : ir::maxCounts(a, b);
}
// The trip count of [lo, hi): hi - lo, or 0 when hi <= lo.
ir::Expr countB(const ir::Expr &lo, const ir::Expr &hi) {
  if (lo->is<ir::Const>() && hi->is<ir::Const>()) return constOf(std::max<int64_t>(0, hi->as<ir::Const>()->ivalue - lo->as<ir::Const>()->ivalue));
  ir::Expr d = isConst(lo, 0) ? hi : ir::Prim::make(ir::Op::Sub, {hi, lo});
  return ir::If::make(ir::Prim::make(ir::Op::Lt, {lo, hi}), d, constOf(0));
}

// What running an expression does to a vector's length L, as upper bounds:
// during it the length is at most max(L + relPeak, absPeak), after it at
// most max(L + relExit, absExit) (abs*: lengths set by a reset inside).
struct Growth {
  ir::Expr relPeak = constOf(0), absPeak, relExit = constOf(0), absExit;
  clang::SourceLocation first; // the first call that changes the length
  bool changes() const { return first.isValid(); }
};

Growth seqG(const Growth &a, const Growth &b) {
  if (!a.changes()) return b;
  if (!b.changes()) return a;
  Growth g;
  g.relPeak = maxB(a.relPeak, ir::addCounts(a.relExit, b.relPeak));
  g.absPeak = maxB(maxB(a.absPeak, ir::addCounts(a.absExit, b.relPeak)), b.absPeak);
  g.relExit = ir::addCounts(a.relExit, b.relExit);
  g.absExit = maxB(ir::addCounts(a.absExit, b.relExit), b.absExit);
  g.first = a.first;
  return g;
}

Growth eitherG(const Growth &a, const Growth &b) {
  Growth g;
  g.relPeak = maxB(a.relPeak, b.relPeak);
  g.absPeak = maxB(a.absPeak, b.absPeak);
  g.relExit = maxB(a.relExit, b.relExit);
  g.absExit = maxB(a.absExit, b.absExit);
  g.first = a.first.isValid() ? a.first : b.first;
  return g;
}

class GrowthWalk {
public:
  GrowthWalk(const std::map<const ir::Node *, GrowOp> &ops, const std::set<const ir::Node *> &mine,
             ir::NameSupply &names)
      : ops_(ops), mine_(mine), names_(names) {}
  clang::SourceLocation unbounded; // a change inside a `while` that grows the vector

  Growth walk(const ir::Expr &e) {
    switch (e->kind) {
    case ir::Kind::Let: {
      const auto &l = *e->as<ir::Let>();
      Growth g = walk(l.value);
      if (auto it = ops_.find(e.get()); it != ops_.end() && mine_.count(e.get())) g = seqG(g, op(it->second));
      return seqG(g, walk(l.body));
    }
    case ir::Kind::If: {
      const auto &i = *e->as<ir::If>();
      return seqG(walk(i.cond), eitherG(walk(i.thenE), walk(i.elseE)));
    }
    case ir::Kind::Fold: {
      const auto &f = *e->as<ir::Fold>();
      Growth pre = seqG(seqG(walk(f.lo), walk(f.hi)), walk(f.init));
      Growth body = walk(f.body);
      body.absPeak = overIterations(body.absPeak, f);
      body.absExit = overIterations(body.absExit, f);
      return seqG(pre, repeat(body, countB(f.lo, f.hi)));
    }
    case ir::Kind::While: {
      const auto &w = *e->as<ir::While>();
      Growth body = seqG(walk(w.cond), walk(w.body));
      if (body.changes() && body.relExit && !isConst(body.relExit, 0) && !unbounded.isValid()) unbounded = body.first;
      return seqG(walk(w.init), seqG(walk(w.cond), repeat(body, nullptr)));
    }
    default: {
      Growth g;
      for (const ir::Expr &c : ir::children(e)) g = seqG(g, walk(c));
      return g;
    }
    }
  }

private:
  const std::map<const ir::Node *, GrowOp> &ops_;
  const std::set<const ir::Node *> &mine_;
  ir::NameSupply &names_;

  static Growth op(const GrowOp &o) {
    Growth g;
    g.first = o.loc;
    if (o.reset) {
      g.absPeak = g.absExit = o.size;
      g.relExit = nullptr;
    } else {
      g.relPeak = g.relExit = o.added ? o.added : constOf(1);
    }
    return g;
  }

  // A length a reset in the loop `f`'s body sets, `cur.resize(widths[l])`
  // or `cur = next` (of a vector made in the body), may depend on the
  // iteration: its bound is its maximum over the iterations,
  //   fold l in [lo, hi) from 0: s -> max(s, n(l))
  // (the body's lets it names are substituted by growthRoom). One that
  // depends on the loop's state is left as it is (and refused there).
  ir::Expr overIterations(const ir::Expr &n, const ir::Fold &f) {
    if (!n || n->is<ir::Const>()) return n;
    std::set<std::string> inner = ir::boundNames(f.body);
    inner.insert(f.index);
    bool varies = false;
    for (const std::string &v : ir::freeVars(n)) {
      if (v == f.state) return n;
      varies = varies || inner.count(v);
    }
    if (!varies) return n;
    const std::string widest = names_.fresh("widest"), width = names_.fresh("width");
    const ir::Expr s = ir::Var::make(widest, ir::Type::i64()), w = ir::Var::make(width, ir::Type::i64());
    return ir::Fold::make(f.lo, f.hi, constOf(0), f.index, widest, ir::Let::make(width, n, ir::maxCounts(s, w)));
  }

  // `body` run `count` times (null: any number of times, its relExit 0).
  static Growth repeat(const Growth &body, const ir::Expr &count) {
    if (!body.changes()) return body;
    ir::Expr r = body.relExit ? body.relExit : constOf(0);
    ir::Expr all = count ? ir::mulCounts(count, r) : constOf(0);
    Growth g;
    g.first = body.first;
    // the last iteration starts at most `all - r` above the entry
    g.relPeak = ir::alphaEqual(body.relPeak, r) ? all : ir::addCounts(all, body.relPeak);
    g.absPeak = maxB(body.absPeak, ir::addCounts(body.absExit, ir::addCounts(all, body.relPeak)));
    g.relExit = all;
    g.absExit = ir::addCounts(body.absExit, all);
    return g;
  }
};

} // namespace

bool Lowering::growingVector(const VarDecl *vd) {
  const auto *fd = dyn_cast<FunctionDecl>(vd->getDeclContext());
  const Stmt *body = fd ? fd->getBody() : nullptr;
  if (!body) return false;
  auto it = growScan_.find(body);
  if (it == growScan_.end()) {
    it = growScan_.emplace(body, std::set<const VarDecl *>{}).first;
    scanGrowCalls(body, ctx_, it->second);
    walkGrowCalls(body, [&](const VarDecl *v) {
      if (v->isLocalVarDecl()) it->second.insert(v);
    });
  }
  return it->second.count(vd) > 0;
}

const VarDecl *Lowering::growingLength(const Expr *obj) {
  const VarDecl *vd = obj ? namedVar(obj) : nullptr;
  if (!vd && obj) vd = viewVectorOf(obj); // `this->layers`, `model.layers` (view_struct_vectors.cpp)
  auto it = vd ? growLen_.find(vd) : growLen_.end();
  return it == growLen_.end() ? nullptr : it->second;
}

bool Lowering::growsIn(const Stmt *x, const std::vector<const VarDecl *> &assigned) {
  const auto *e = dyn_cast<Expr>(x);
  const VarDecl *len = e ? growingLength(e) : nullptr;
  return len && std::find(assigned.begin(), assigned.end(), len) != assigned.end();
}

// The synthetic length variable of the growing vector `vd`, starting at
// `initial` (a let in `binds` unless a constant or a variable).
ir::Expr Lowering::bindGrowingLength(const VarDecl *vd, const ir::Expr &initial, Env &env, Binds &binds) {
  SourceLocation loc = vd->getLocation();
  std::string name = vd->getName().empty() ? "v" : vd->getNameAsString();
  const VarDecl *len = syntheticLong(vd, "_size");
  growLen_[vd] = len;
  ir::Expr v = initial;
  if (!v->is<ir::Const>() && !v->is<ir::Var>()) {
    std::string n = names_.fresh(name + "_size");
    binds.push_back({n, v});
    v = ir::Var::make(n, ir::Type::i64());
  }
  env[len] = v;
  return v;
}

// The room `vd`'s buffers need: `initial` elements, then the most the
// calls that change its length in `scope` (its declaration's scope; the
// ops added since `before`) can reach.
ir::Expr Lowering::growthRoom(const VarDecl *vd, const ir::Expr &initial, const ir::Expr &scope,
                              const std::set<const ir::Node *> &before, bool *known) {
  std::string name = vd->getName().empty() ? "v" : vd->getNameAsString();
  std::set<const ir::Node *> mine;
  for (const auto &[n, op] : growOps_)
    if (!before.count(n) && op.vector == vd) mine.insert(n);
  GrowthWalk walk(growOps_, mine, names_);
  Growth g = walk.walk(scope);
  if (walk.unbounded.isValid() && known) return *known = false, nullptr;
  if (walk.unbounded.isValid())
    fail(walk.unbounded, "growing '" + name + "' inside a 'while' loop is not supported (the room it needs is not known "
                         "where it is declared; use a counted 'for' loop)");
  ir::Expr room = maxB(ir::addCounts(initial, g.relPeak), g.absPeak);
  const std::set<std::string> inner = ir::boundNames(scope);
  // (a strided loop's ends, `from`/`to`, are lets before it, inside the
  // scope: their values, when they may be evaluated early, bound it as well;
  // so do the sizes of arrays made in the scope, and reads of arrays the
  // scope does not write, `widths[l + 1]`)
  struct Lets : ir::Visitor {
    std::map<std::string, ir::Expr> values;
    void visit(const ir::Let *l) override {
      values[l->name] = l->value;
      ir::Visitor::visit(l);
    }
  } lets;
  lets.visitExpr(scope);
  std::set<std::string> readable;
  const std::set<std::string> written = ir::memoryEffects(scope).writes;
  for (const std::string &v : ir::freeVars(scope))
    if (!written.count(v)) readable.insert(v);
  struct MadeSizes : ir::Mutator {
    const std::map<std::string, ir::Expr> *lets;
    ir::Expr visit(const ir::Size *z, const ir::Expr &self) override {
      const auto *a = z->array->as<ir::Var>();
      auto it = a ? lets->find(a->name) : lets->end();
      if (it != lets->end())
        if (const auto *made = it->second->as<ir::NewArray>()) return made->size;
      return self;
    }
  } madeSizes;
  madeSizes.lets = &lets.values;
  // (not ir::substitute: a let's value names the index of the loop it is in,
  // `widths[l]`, and so does overIterations' fold over that loop's
  // iterations, which binds the same name on purpose: no renaming)
  struct Inline : ir::Mutator {
    std::string name;
    ir::Expr value;
    ir::Expr visit(const ir::Var *v, const ir::Expr &self) override { return v->name == name ? value : self; }
  };
  for (int round = 0; round < 8; ++round) {
    ir::Expr sized = madeSizes.mutate(room);
    bool changed = sized != room;
    room = sized;
    for (const std::string &v : ir::freeVars(room))
      if (auto it = lets.values.find(v);
          inner.count(v) && it != lets.values.end() && ir::hoistableScalar(it->second, &readable)) {
        Inline in;
        in.name = v;
        in.value = it->second;
        room = in.mutate(room);
        changed = true;
      }
    if (!changed) break;
  }
  // (a read is evaluated where the vector is declared, for iterations and
  // branches that may not read it: it is guarded, 0 out of range; a
  // pointer parameter's has no size to guard by, it is read for every
  // iteration of the loops around the assignment that reads it)
  struct GuardedReads : ir::Mutator {
    const std::set<std::string> *unsized;
    ir::Expr visit(const ir::Index *x, const ir::Expr &self) override {
      ir::Expr i = mutate(x->index);
      ir::Expr inRange = ir::Prim::make(ir::Op::Le, {constOf(0), i});
      if (!unsized->count(x->array->as<ir::Var>()->name))
        inRange = ir::Prim::make(ir::Op::And, {inRange, ir::Prim::make(ir::Op::Lt, {i, ir::Size::make(x->array)})});
      return ir::If::make(inRange, ir::Index::make(x->array, i), ir::Const::zero(self->type));
    }
  } guarded;
  guarded.unsized = &unsizedArrays_;
  room = guarded.mutate(room);
  // (a maximum over a loop is computed once: `max(a, b)` names both twice)
  struct OnceEach : ir::Mutator {
    ir::NameSupply *names;
    Binds bound;
    ir::Expr visit(const ir::Fold *, const ir::Expr &self) override {
      for (const auto &[n, e] : bound)
        if (ir::alphaEqual(e, self)) return ir::Var::make(n, self->type);
      bound.push_back({names->fresh("room"), self});
      return ir::Var::make(bound.back().first, self->type);
    }
  } once;
  once.names = &names_;
  room = once.mutate(room);
  room = wrap(once.bound, room);
  // The size of an array resized later in the scope (a class's vector
  // member, resized_members.cpp) is not known at the declaration either:
  // read there, it is the size before the resize.
  struct SizeReads : ir::Visitor {
    std::set<std::string> resized;
    bool found = false;
    void visit(const ir::Size *z) override {
      if (auto v = z->array->as<ir::Var>(); v && resized.count(v->name)) found = true;
      ir::Visitor::visit(z);
    }
  } reads;
  for (const ir::Expr &a : ir::resizedArrays(scope))
    if (auto v = ir::rootArray(a)->as<ir::Var>()) reads.resized.insert(v->name);
  reads.visitExpr(room);
  bool unknown = reads.found;
  for (const std::string &v : ir::freeVars(room)) unknown = unknown || inner.count(v);
  if (unknown && known) return *known = false, nullptr;
  if (unknown)
    fail(g.first, "growing '" + name + "' here is not supported: how many elements it can reach is not known where "
                  "it is declared (it depends on values computed later, or on an outer loop's index as in a "
                  "triangular loop)");
  for (const ir::Node *n : mine) growOps_.erase(n);
  return room;
}

std::set<const ir::Node *> Lowering::growOpsNow() const {
  std::set<const ir::Node *> out;
  for (const auto &[n, op] : growOps_) out.insert(n);
  return out;
}

ir::Expr Lowering::bindGrowingVector(const VarDecl *vd, const ir::TypeP &et, LocalArrayInit &start, Env &env,
                                     const Tail &k, int64_t stride) {
  SourceLocation loc = vd->getLocation();
  Binds binds;
  ir::Expr initial = bindGrowingLength(vd, start.size, env, binds);
  // the stores of the initial elements, on a buffer of any size
  LocalArrayInit first = start;
  first.size = initial;
  std::set<const ir::Node *> before = growOpsNow();
  ir::Expr rest = bindLocalArray(vd, et, stride > 0, first, env, k); // (rows of `stride`: held flat)
  // rest is `let v = NewArray(initial) in ...`: give the buffer its room
  std::vector<std::pair<std::string, ir::Expr>> lets;
  ir::Expr body = rest;
  while (const auto *l = body->as<ir::Let>()) {
    if (l->value->is<ir::NewArray>()) break;
    lets.push_back({l->name, l->value});
    body = l->body;
  }
  const auto *alloc = body->as<ir::Let>();
  if (!alloc) fail(loc, "internal error: no allocation for a growing std::vector");
  ir::Expr room = growthRoom(vd, initial, alloc->body, before);
  if (stride > 0) room = ir::Prim::make(ir::Op::Mul, {room, constOf(stride)}); // (room in rows)
  binds.insert(binds.end(), lets.begin(), lets.end());
  binds.push_back({alloc->name, ir::NewArray::make(room, et)});
  return wrap(binds, alloc->body);
}

ir::Expr Lowering::lowerGrowingTable(const VarDecl *vd, const ArrayInfo &inner, const ir::TypeP &et, const Expr *init,
                                     Env &env, const Tail &k) {
  const auto *ce = init ? dyn_cast<CXXConstructExpr>(init) : nullptr;
  if (init && !(ce && llvm::all_of(ce->arguments(), [](const Expr *a) { return isa<CXXDefaultArgExpr>(a); })))
    fail(vd->getLocation(), "a local std::vector of rows that grows must start empty ('" + typeStr(vd->getType()) + " " +
                                vd->getNameAsString() + ";', then push_back)");
  if (!et->isScalar()) fail(vd->getLocation(), "a growing local std::vector of rows of non-numbers is not supported");
  const int64_t n = inner.size >= 0 ? inner.size : pushedRowLength(vd);
  if (n < 0) return lowerRaggedTable(vd, et, env, k); // rows of lengths known at run time (ragged_tables.cpp)
  LocalArrayInit start;
  start.size = constOf(0);
  start.flat = Flat{constOf(n), nullptr}; // (its number of rows is its length: growLen_)
  return bindGrowingVector(vd, et, start, env, k, n);
}

// The length of the rows a vector of std::vector rows is grown by: every
// `push_back({a, b, ...})` gives one of the same length; -1 when they may
// differ (a pushed array, braces of other lengths: a ragged table).
int64_t Lowering::pushedRowLength(const VarDecl *vd) {
  const auto *fd = dyn_cast<FunctionDecl>(vd->getDeclContext());
  int64_t n = -1;
  bool ragged = false;
  std::function<void(const Stmt *)> walk = [&](const Stmt *s) {
    if (!s) return;
    if (const auto *mc = dyn_cast<CXXMemberCallExpr>(s); mc && mc->getMethodDecl() && mc->getMethodDecl()->getIdentifier() &&
                                                        namedVar(mc->getImplicitObjectArgument()) == vd) {
      llvm::StringRef name = mc->getMethodDecl()->getName();
      const InitListExpr *list = mc->getNumArgs() == 1 ? bracedElements(mc->getArg(0)) : nullptr;
      // (`emplace_back(next)` of a row array is its push_back; of a count, `emplace_back(n)`, it is not)
      ArrayInfo row;
      const bool emplacedRow = name == "emplace_back" && mc->getNumArgs() == 1 &&
                               arrayInfo(mc->getArg(0)->getType(), row, SourceLocation());
      if (name == "push_back" && list && (n < 0 || n == int64_t(list->getNumInits()))) n = int64_t(list->getNumInits());
      else if (name == "push_back" || emplacedRow) ragged = true; // (an array, or braces of another length)
      else if (growCall(name) && name != "clear" && name != "pop_back" && name != "reserve")
        fail(mc->getExprLoc(), "a growing local std::vector of std::vector rows is only grown by 'push_back' or "
                               "'emplace_back' of rows (here: '" + name.str() + "'" +
                                   (name == "emplace_back" ? " of a count; push a row: 'std::vector<double>(n)'" : "") +
                                   "; or use std::array rows)");
    }
    for (const Stmt *c : s->children()) walk(c);
  };
  walk(fd ? fd->getBody() : nullptr);
  if (ragged) return -1;
  if (n < 0) fail(vd->getLocation(), "the rows of this growing std::vector have no length known from its push_backs");
  return n;
}

// The n values of a pushed row: braces (missing ones zero, as for a
// std::array), or an array value (a std::array local, a row of a table).
std::vector<ir::Expr> Lowering::pushedRow(const Expr *arg, int64_t n, const ir::TypeP &et, Env &env) {
  std::vector<ir::Expr> row;
  if (const InitListExpr *list = bracedElements(arg)) {
    if (list->getNumInits() == 1) // std::array's braces hold its C array's
      if (const auto *in = dyn_cast<InitListExpr>(list->getInit(0)->IgnoreImplicit())) list = in;
    for (const Expr *e : list->inits()) row.push_back(convert(lowerExpr(e, env), et));
  } else {
    const ir::Expr src = lowerArrayRef(arg, env);
    for (int64_t k = 0; k < n; ++k) row.push_back(convert(read(src, constOf(k), arg->getExprLoc()), et));
  }
  if (int64_t(row.size()) > n) fail(arg->getExprLoc(), "this row is longer than the vector's rows");
  while (int64_t(row.size()) < n) row.push_back(ir::Const::zero(et));
  return row;
}

// A reference local bound to a growing vector (`auto& r = v;`) reads and
// writes v's elements, but v's room was counted from the calls on v itself.
void Lowering::refuseGrowthThroughReference(const VarDecl *vd, SourceLocation loc) {
  if (vd && vd->getType()->isReferenceType() && !isa<ParmVarDecl>(vd))
    fail(loc, "a growing std::vector cannot be resized through a reference ('" + vd->getNameAsString() +
                  "'; call it on the vector itself)");
}

bool Lowering::lowerGrowCall(const Expr *e, const Seq *rest, Env &env, const Tail &tail, ir::Expr &out) {
  const Expr *x = e->IgnoreParens();
  if (const auto *c = dyn_cast<ExprWithCleanups>(x)) x = c->getSubExpr()->IgnoreParens();
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(x); oc && oc->getOperator() == OO_Equal)
    return lowerGrowAssign(oc, rest, env, tail, out);
  const auto *mc = dyn_cast<CXXMemberCallExpr>(x);
  if (!mc || !mc->getMethodDecl() || !mc->getMethodDecl()->getIdentifier()) return false;
  const VarDecl *len = growingLength(mc->getImplicitObjectArgument());
  if (!len) return false;
  std::string n = mc->getMethodDecl()->getNameAsString();
  SourceLocation loc = mc->getExprLoc();
  const VarDecl *vd = namedVar(mc->getImplicitObjectArgument());
  if (!vd) vd = viewVectorOf(mc->getImplicitObjectArgument());
  if (const VarDecl *table = objectTableOf(mc->getImplicitObjectArgument())) vd = table; // (through any name: object_tables.cpp)
  refuseGrowthThroughReference(vd, loc);
  if (pushRaggedRow(mc, vd, rest, env, tail, out)) return true; // rows of run-time lengths (ragged_tables.cpp)
  const bool views = viewArrays_.count(vd) > 0; // of view structs or pointers (view_struct_vectors.cpp)
  ir::Expr arr = views ? nullptr : lookupVar(vd, env, loc);
  ir::TypeP et = views ? nullptr : arr->type->elem();
  ir::Expr cur = env.at(len);
  Binds pre;
  ir::Expr next, resetTo, added;
  using M = ir::Store::Mode;
  {
    EffectScope scope(*this, &pre);
    checkSequenced(e);
    auto fill = [&](const ir::Expr &lo, const ir::Expr &hi, const ir::Expr &value) {
      std::string j = names_.fresh("i"), st = names_.fresh("state"), u = names_.fresh("_");
      ir::Expr body = store(arr, ir::Var::make(j, ir::Type::i64()), value, M::Set, loc);
      pre.push_back({names_.fresh("_"), ir::Fold::make(lo, hi, ir::Tuple::make({}), j, st,
                                                       ir::Let::make(u, body, ir::Tuple::make({})))});
    };
    auto sized = [&](const Expr *size, const Expr *value) {
      resetTo = lowerIndexExpr(size, env);
      next = resetTo;
      if (!resetTo->is<ir::Const>() && !resetTo->is<ir::Var>()) {
        std::string s = names_.fresh(vd->getNameAsString() + "_size");
        pre.push_back({s, resetTo});
        next = ir::Var::make(s, ir::Type::i64());
      }
      ir::Expr v = value ? convert(lowerExpr(value, env), et) : ir::Const::zero(et);
      if (!v->is<ir::Const>() && !v->is<ir::Var>()) {
        std::string s = names_.fresh(vd->getNameAsString() + "_fill");
        pre.push_back({s, v});
        v = ir::Var::make(s, et);
      }
      return v;
    };
    const auto table = views ? flatStride_.end() : flatStride_.find(vd);
    if (table != flatStride_.end()) { // rows held flat: row `cur` at [cur * stride, (cur + 1) * stride)
      if (n == "push_back" && mc->getNumArgs() == 1) {
        const int64_t stride = table->second.stride->as<ir::Const>()->ivalue;
        std::vector<ir::Expr> row = pushedRow(mc->getArg(0), stride, et, env);
        for (ir::Expr &v : row) // (values first: they may read the vector)
          if (!v->is<ir::Const>() && !v->is<ir::Var>()) {
            pre.push_back({names_.fresh(vd->getNameAsString() + "_new"), v});
            v = ir::Var::make(pre.back().first, et);
          }
        const ir::Expr at = ir::Prim::make(ir::Op::Mul, {cur, constOf(stride)});
        for (int64_t j = 0; j < stride; ++j)
          pre.push_back({names_.fresh("_"), store(arr, ir::Prim::make(ir::Op::Add, {at, constOf(j)}), row[size_t(j)], M::Set, loc)});
        next = ir::Prim::make(ir::Op::Add, {cur, constOf(1)});
      } else if (n == "pop_back" && mc->getNumArgs() == 0) {
        next = ir::Prim::make(ir::Op::Sub, {cur, constOf(1)});
      } else if (n == "clear" && mc->getNumArgs() == 0) {
        next = resetTo = constOf(0);
      } else if (n == "reserve" && mc->getNumArgs() == 1) {
        lowerIndexExpr(mc->getArg(0), env);
      } else {
        fail(loc, "'" + n + "' on a growing std::vector of rows is not supported (only push_back, pop_back, clear and reserve)");
      }
    } else if (views && n == "resize" && objectTableElem(viewArrays_.at(vd))) { // (object_tables.cpp)
      resetTo = lowerIndexExpr(mc->getArg(0), env);
      next = resetTo;
      if (!next->is<ir::Const>() && !next->is<ir::Var>()) {
        std::string s = names_.fresh(vd->getNameAsString() + "_size");
        pre.push_back({s, resetTo});
        next = ir::Var::make(s, ir::Type::i64());
      }
      if (mc->getNumArgs() != 1)
        fail(loc, "'resize(n, value)' of a vector of '" + typeStr(viewArrays_.at(vd)) + "' is not supported (resize(n))");
      resizeObjectTable(loc, vd, cur, next, env, pre);
    } else if (views && objectTableElem(viewArrays_.at(vd)) && n != "clear" && n != "reserve") {
      fail(loc, "'" + n + "' on a std::vector of '" + typeStr(viewArrays_.at(vd)) + "' is not supported (size it with "
                "resize(n), then write its elements)");
    } else if (views && (n == "push_back" || n == "emplace_back")) {
      pushViewElement(mc, vd, cur, env, pre);
      next = ir::Prim::make(ir::Op::Add, {cur, constOf(1)});
    } else if (views && (n == "resize" || n == "assign")) {
      fail(loc, "'" + n + "' on a std::vector of structs with pointer members or of pointers is not supported (grow "
                          "it with push_back or emplace_back)");
    } else if ((n == "push_back" && mc->getNumArgs() == 1) || n == "emplace_back") {
      // (`springs.emplace_back(k, 1.0)`: the element its constructor builds)
      const Expr *elem = mc->getNumArgs() == 1 ? mc->getArg(0) : emplacedElement(mc, vd);
      ir::Expr v = convert(lowerExpr(elem, env), et);
      next = ir::Prim::make(ir::Op::Add, {cur, constOf(1)});
      ensureRoom(arr, len, next, env, pre);
      pre.push_back({names_.fresh("_"), store(arr, cur, v, M::Set, loc)});
    } else if (n == "insert" && mc->getNumArgs() == 3 && !views && appendsAt(mc->getArg(0), arr, cur, env)) {
      // `v.insert(v.end(), first, last)`: the range appended
      ir::Expr src, lo, count;
      if (!iteratorRange(mc->getArg(1), mc->getArg(2), env, src, lo, count))
        fail(mc->getArg(1)->getExprLoc(), "the range inserted here is not recognised (write 'v.insert(v.end(), "
                                          "w.begin(), w.end())')");
      if (!ir::sameType(src->type->elem(), et)) fail(loc, "'insert' of a range of another element type");
      added = count; // (as written: the room is bounded where the vector is declared)
      next = ir::Prim::make(ir::Op::Add, {cur, count});
      ensureRoom(arr, len, next, env, pre);
      pre.push_back({names_.fresh("_"), effectLoop(count, [&](const ir::Expr &j) {
                       return store(arr, ir::Prim::make(ir::Op::Add, {cur, j}),
                                    read(src, ir::Prim::make(ir::Op::Add, {lo, j}), loc), M::Set, loc);
                     })});
    } else if (n == "pop_back" && mc->getNumArgs() == 0) {
      next = ir::Prim::make(ir::Op::Sub, {cur, constOf(1)});
    } else if (n == "clear" && mc->getNumArgs() == 0) {
      next = resetTo = constOf(0);
    } else if (n == "resize" && (mc->getNumArgs() == 1 || mc->getNumArgs() == 2)) {
      // the new elements are value-initialised (or copies of the value)
      ir::Expr v = sized(mc->getArg(0), mc->getNumArgs() == 2 ? mc->getArg(1) : nullptr);
      ensureRoom(arr, len, next, env, pre);
      fill(cur, next, v);
    } else if (n == "assign" && mc->getNumArgs() == 2 && mc->getArg(0)->getType()->isIntegerType()) {
      ir::Expr v = sized(mc->getArg(0), mc->getArg(1));
      ensureRoom(arr, len, next, env, pre);
      fill(constOf(0), next, v);
    } else if (n == "reserve" && mc->getNumArgs() == 1) {
      lowerIndexExpr(mc->getArg(0), env); // room is allocated where the vector is declared
    } else {
      fail(loc, "'" + n + "' on a growing std::vector is not supported (only push_back, emplace_back, resize, "
                          "assign(n, value), clear, pop_back, reserve and insert(v.end(), first, last))");
    }
  }
  if (!next) {
    out = wrap(pre, lowerSeq(rest, env, tail));
    return true;
  }
  out = setGrowingLength(vd, next, GrowOp{resetTo != nullptr, resetTo, added, loc, vd}, pre, rest, env, tail);
  return true;
}

ir::Expr Lowering::setGrowingLength(const VarDecl *vd, const ir::Expr &next, const GrowOp &op, Binds &pre,
                                    const Seq *rest, Env &env, const Tail &tail) {
  std::string nn = names_.fresh(vd->getNameAsString() + "_size");
  env[growLen_.at(vd)] = ir::Var::make(nn, ir::Type::i64());
  ir::Expr body = lowerSeq(rest, env, tail);
  ir::Expr let = ir::Let::make(nn, next, body);
  growOps_[let.get()] = op;
  return wrap(pre, let);
}

// `cur = next;` (or `= std::move(next)`) where `cur` is a growing vector
// because the arrays assigned to it may have other lengths: its length
// becomes next's, then next's elements are copied in,
//   let cur_size' = size(next) in for j in [0, cur_size'): cur[j] = next[j]
// Its room is bounded by the most elements the arrays assigned can have
// (growthRoom: a maximum over the loop when they are made in it).
bool Lowering::lowerGrowAssign(const CXXOperatorCallExpr *oc, const Seq *rest, Env &env, const Tail &tail, ir::Expr &out) {
  const VarDecl *vd = namedVar(oc->getArg(0));
  const VarDecl *len = vd ? growingLength(oc->getArg(0)) : nullptr;
  if (!len || viewArrays_.count(vd) || flatStride_.count(vd) || !namedVar(copySource(oc->getArg(1)))) return false;
  SourceLocation loc = oc->getExprLoc();
  refuseGrowthThroughReference(vd, loc);
  const Expr *src = copySource(oc->getArg(1));
  ArrayInfo si;
  if (!arrayInfo(src->getType(), si, SourceLocation()) || si.kind == ArrayInfo::Pointer) return false;
  const ir::Expr s = lowerArrayRef(src, env);
  const VarDecl *grown = growingLength(src);
  out = growAssignFrom(vd, s, grown ? env.at(grown) : ir::Size::make(s), loc, rest, env, tail);
  return true;
}

// `vd = s;` of a growing vector: s's `n` elements copied in, n its length.
ir::Expr Lowering::growAssignFrom(const VarDecl *vd, const ir::Expr &s, ir::Expr n, SourceLocation loc, const Seq *rest,
                                  Env &env, const Tail &tail) {
  const ir::Expr arr = lookupVar(vd, env, loc);
  if (!s->is<ir::Var>() || !ir::sameType(s->type, arr->type))
    fail(loc, "assignment of a whole std::vector is only supported from another of its type");
  Binds pre;
  if (!n->is<ir::Var>() && !n->is<ir::Const>()) {
    pre.push_back({names_.fresh(vd->getNameAsString() + "_size"), n});
    n = ir::Var::make(pre.back().first, ir::Type::i64());
  }
  pre.push_back({names_.fresh("_"), copyElements(s, nullptr, arr, nullptr, n, loc)});
  // (the room bound: next's buffer's size, as evaluated where `cur` is declared)
  return setGrowingLength(vd, n, GrowOp{true, ir::Size::make(s), nullptr, loc, vd}, pre, rest, env, tail);
}

// An output grown from empty (output_vectors.cpp; a local vector has its
// room already) holds `needed` elements: if its size (the variable growCap_
// holds, carried by loops like the length) is smaller, it is resized to
// twice that at least (as the vector's own push_back grows it: the resizes
// are amortised O(1)).
void Lowering::ensureRoom(const ir::Expr &out, const VarDecl *len, const ir::Expr &needed, Env &env, Binds &pre) {
  auto found = growCap_.find(len);
  if (found == growCap_.end()) return;
  const VarDecl *cap = found->second;
  ir::Expr have = env.at(cap);
  ir::Expr doubled = ir::Prim::make(ir::Op::Mul, {have, constOf(2)});
  std::string to = names_.fresh("grown");
  ir::Expr grownVar = ir::Var::make(to, ir::Type::i64());
  ir::Expr grow = ir::Let::make(to, ir::If::make(ir::Prim::make(ir::Op::Lt, {doubled, needed}), needed, doubled),
                                ir::Let::make(names_.fresh("_"), ir::Resize::make(out, grownVar), grownVar));
  std::string now = names_.fresh(cap->getNameAsString());
  pre.push_back({now, ir::If::make(ir::Prim::make(ir::Op::Lt, {have, needed}), grow, have)});
  env[cap] = ir::Var::make(now, ir::Type::i64());
}

// A synthetic `long` local beside `vd` (`<vd>_size`, `<vd>_room`): an
// integer the loops and branches carry like any variable.
const VarDecl *Lowering::syntheticLong(const VarDecl *vd, const std::string &suffix) {
  SourceLocation loc = vd->getLocation();
  std::string name = vd->getName().empty() ? "v" : vd->getNameAsString();
  return VarDecl::Create(ctx_, const_cast<DeclContext *>(vd->getDeclContext()), loc, loc,
                         &ctx_.Idents.get(name + suffix), ctx_.LongTy, ctx_.getTrivialTypeSourceInfo(ctx_.LongTy), SC_None);
}

// `at` is the end of the growing vector `arr` of length `len` (`v.end()`,
// `std::end(v)`, `v.begin() + v.size()`): an insert there appends.
bool Lowering::appendsAt(const Expr *at, const ir::Expr &arr, const ir::Expr &len, Env &env) {
  ir::Expr a, offset;
  if (!iteratorRef(at, env, a, offset) || !ir::alphaEqual(a, arr)) return false;
  const auto *gap = ir::differenceOf(offset, len)->as<ir::Const>();
  return gap && gap->ivalue == 0;
}

bool Lowering::passesGrowingVector(const CallExpr *ce, const FunctionDecl *fd) {
  const FunctionDecl *def = fd->getDefinition();
  if (!def || !def->hasBody() || ce->getNumArgs() != def->getNumParams() || isa<CXXOperatorCallExpr>(ce)) return false;
  bool passes = false;
  for (unsigned k = 0; k < ce->getNumArgs(); ++k) {
    const ParmVarDecl *p = def->getParamDecl(k);
    if (!growingLength(ce->getArg(k)) || !p->getType()->isReferenceType()) continue;
    std::set<const VarDecl *> grown; // (a helper growing it: growingArgument's copy, or its refusal)
    walkGrowCalls(def->getBody(), [&](const VarDecl *v) { grown.insert(v); });
    if (grown.count(p) || resizesVectorParam(def)) return false;
    passes = true;
  }
  return passes;
}

ir::Expr Lowering::growingArgument(const Expr *arg, const ir::Expr &array, bool written, Env &env) {
  SourceLocation loc = arg->getExprLoc();
  const VarDecl *vd = namedVar(arg);
  if (written)
    fail(loc, "a growing std::vector cannot be passed to a helper that may resize it ('" + vd->getNameAsString() +
                  "'; return the new elements, or grow the vector in the caller)");
  if (!effects_) fail(loc, "a growing std::vector can only be passed to a helper in a statement or an initializer");
  // the helper sees a vector of the vector's length: a copy of its elements
  ir::Expr len = env.at(growingLength(arg));
  std::string n = names_.fresh(vd->getNameAsString() + "_elems");
  arrNames_[n] = vd->getNameAsString() + "_elems";
  ir::Expr copy = ir::Var::make(n, array->type);
  effects_->push_back({n, ir::NewArray::make(len, array->type->elem())});
  effects_->push_back({names_.fresh("_"), effectLoop(len, [&](const ir::Expr &j) {
                         return store(copy, j, read(array, j, loc), ir::Store::Mode::Set, loc);
                       })});
  return copy;
}

} // namespace unfad::frontend

namespace unfad::frontend {

// (the declaration: lowering.h)
const DeclRefExpr *useAfter(const Stmt *s, const VarDecl *vd, SourceLocation after, const SourceManager &sm) {
  if (!s) return nullptr;
  if (const auto *d = dyn_cast<DeclRefExpr>(s); d && d->getDecl() == vd && sm.isBeforeInTranslationUnit(after, d->getBeginLoc()))
    return d;
  for (const Stmt *c : s->children())
    if (const DeclRefExpr *d = useAfter(c, vd, after, sm)) return d;
  return nullptr;
}

// `delete[] p` ends the buffer: p must not be used after it, and the delete
// must not repeat in a loop the buffer was not allocated in.
void Lowering::checkDelete(const CXXDeleteExpr *d, const VarDecl *vd) {
  const auto *fd = dyn_cast<FunctionDecl>(vd->getDeclContext());
  if (const DeclRefExpr *use = fd ? useAfter(fd->getBody(), vd, d->getEndLoc(), sm_) : nullptr)
    fail(use->getBeginLoc(), "use of '" + vd->getNameAsString() + "' after 'delete[]'");
  for (DynTypedNodeList ps = ctx_.getParents(*d); !ps.empty(); ps = ctx_.getParents(ps[0])) {
    const auto *s = ps[0].get<Stmt>();
    if (!s) break;
    if (!isa<ForStmt>(s) && !isa<WhileStmt>(s) && !isa<DoStmt>(s) && !isa<CXXForRangeStmt>(s)) continue;
    SourceRange r = s->getSourceRange();
    if (!sm_.isBeforeInTranslationUnit(r.getBegin(), vd->getLocation()) ||
        !sm_.isBeforeInTranslationUnit(vd->getLocation(), r.getEnd()))
      fail(d->getBeginLoc(), "'delete[] " + vd->getNameAsString() + "' inside a loop that did not allocate it (it would run more than once)");
  }
}

// `v.emplace_back(a, b)`: the constructor call `T(a, b)` it makes, as an
// expression of its own (the library's is deep in the allocator). The
// constructor is the one of T taking exactly these arguments, of their
// types when several do; otherwise the call is refused, asking for
// `push_back(T(a, b))`, where the compiler chose.
const Expr *Lowering::emplacedElement(const CXXMemberCallExpr *mc, const VarDecl *vd) {
  SourceLocation loc = mc->getExprLoc();
  ArrayInfo ai;
  arrayInfo(vd->getType(), ai, loc);
  QualType t = ai.elem.getUnqualifiedType();
  const auto *rd = t->getAsCXXRecordDecl();
  std::string spelled = "'" + typeStr(t) + "'";
  auto refuse = [&](const std::string &why) {
    fail(loc, "'emplace_back' with " + std::to_string(mc->getNumArgs()) + " arguments " + why + " (write 'v.push_back(" +
                  typeStr(t) + "(...))')");
  };
  if (!rd || tupleLike(t) || complexType(t)) refuse("into a std::vector of " + spelled + " is not supported");
  auto sameTypes = [&](const CXXConstructorDecl *c) {
    for (unsigned k = 0; k < mc->getNumArgs(); ++k)
      if (!ctx_.hasSameUnqualifiedType(c->getParamDecl(k)->getType().getNonReferenceType(), mc->getArg(k)->getType()))
        return false;
    return true;
  };
  std::vector<CXXConstructorDecl *> fits;
  for (CXXConstructorDecl *c : rd->ctors())
    if (!c->isDeleted() && !c->isCopyOrMoveConstructor() && c->getNumParams() == mc->getNumArgs()) fits.push_back(c);
  if (fits.size() > 1) {
    std::vector<CXXConstructorDecl *> exact;
    for (CXXConstructorDecl *c : fits)
      if (sameTypes(c)) exact.push_back(c);
    fits = exact;
  }
  if (fits.size() != 1) refuse("does not name one constructor of " + spelled);
  std::vector<Expr *> args;
  for (unsigned k = 0; k < mc->getNumArgs(); ++k) args.push_back(const_cast<Expr *>(mc->getArg(k)));
  return CXXConstructExpr::Create(ctx_, t, loc, fits.front(), false, args, false, false, false, false,
                                  CXXConstructionKind::Complete, mc->getSourceRange());
}

} // namespace unfad::frontend
