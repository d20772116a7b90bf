// A vector member of a class owning std::vectors (vector_members.cpp)
// resized after the object is built, as a matrix class's `resize` does:
//
//   void Mat::resize(int r, int c) { data_.resize(r * c); nrows_ = r; ncols_ = c; }
//   void mat_mult(const Mat& a, const Mat& b, Mat* out) { out->resize(a.nrows_, b.ncols_); ... }
//   Mat tmp;                 // default-constructed: data_ is empty
//   mat_mult(a, b, &tmp);    // sized by the callee
//
// `data_.resize(n)`, `data_.resize(n, v)`, `data_.assign(n, v)` and
// `data_.clear()` are ir::Resize on the object's local array (its elements
// kept up to the smaller size, the new ones zero, as std::vector does),
// followed by the stores of the fill value. Reverse mode puts the old size
// and the elements a shrink dropped back in the J^T (lib/ad/rev/resize.cpp).
//
// The array's size then changes at run time, which the passes that take an
// array's size as fixed (snapshots sized once before a loop, a size hoisted
// out of a loop) must never see: a resize sits in the same block as the
// array's allocation, never in a loop or a branch of its own the array
// outlives. There, it is a check that the size stays (placeResizes, run on
// the lowered function: `prev = next;` in a loop, a product into a buffer
// made before the loop). Whatever knew the array's length at allocation
// forgets it (localLengths_): later copies and size() read it at run time.
#include "lowering.h"

#include "unfad/ir/equal.h"
#include "unfad/ir/mutator.h"
#include "unfad/ir/traverse.h"

#include <clang/AST/DeclCXX.h>

#include <algorithm>
#include <optional>

namespace unfad::frontend {

using namespace clang;

// `m.data_.resize(...)` or `data_.resize(...)` in a method, on a vector
// member of a split object, or `y.resize(...)` in a helper given a
// std::vector by reference (`void layer(const W& w, const std::vector<double>&
// x, std::vector<double>& y) { y.assign(w.out, 0.0); ... }` called with a
// caller's local `std::vector<double> h;`): its effect on the array (null
// when `mc` is no such call).
ir::Expr Lowering::lowerMemberResize(const CXXMemberCallExpr *mc, Env &env) {
  const CXXMethodDecl *md = mc->getMethodDecl();
  if (!md || !md->getIdentifier()) return nullptr;
  llvm::StringRef n = md->getName();
  if (n != "resize" && n != "assign" && n != "clear") return nullptr;
  const Expr *object = mc->getImplicitObjectArgument()->IgnoreParenImpCasts();
  const auto *mem = dyn_cast<MemberExpr>(object);
  const auto *field = mem ? dyn_cast<FieldDecl>(mem->getMemberDecl()) : nullptr;
  const auto *ref = dyn_cast<DeclRefExpr>(object);
  const auto *param = ref ? dyn_cast<ParmVarDecl>(ref->getDecl()) : nullptr;
  ArrayInfo ai;
  std::string leaf;
  if (field && vectorMember(field->getType()) && ownsVector(dyn_cast<CXXRecordDecl>(field->getParent())))
    leaf = field->getNameAsString();
  else if (param && param->getDeclContext() != currentRoot_ && writableVectorParam(param, ai))
    leaf = param->getNameAsString(); // (a helper's: the caller's array)
  else
    return nullptr;
  SourceLocation loc = mc->getExprLoc();
  std::string spelled = "'" + leaf + "." + n.str() + "'";
  if (n == "clear" && mc->getNumArgs() != 0) return nullptr;
  if (n == "assign" && (mc->getNumArgs() != 2 || !mc->getArg(0)->getType()->isIntegralOrEnumerationType()))
    fail(loc, spelled + " is only supported as 'assign(n, value)'");
  if (n == "resize" && mc->getNumArgs() > 2) return nullptr;
  ir::Expr array = lowerArrayRef(object, env);
  const auto *var = array->as<ir::Var>();
  if (param && var) // (an output of the marked function: sized in its body, output_vectors.cpp)
    for (const ParmVarDecl *out : currentRoot_->parameters()) {
      auto it = env.find(out);
      const auto *given = it != env.end() && it->second->type->isArray() ? ir::rootArray(it->second)->as<ir::Var>() : nullptr;
      if (given && given->name == var->name) refuseOutputResize(loc, n.str(), out->getNameAsString());
    }
  ObjectRows rows;
  ir::Expr rowIndex;
  const bool row = objectRow(array, rows, rowIndex); // an element's of an object table (object_tables.cpp)
  if (!var && !row) fail(loc, spelled + " of this object is not supported (the member of a local object, or of an object a "
                                "helper or method is given by reference or pointer, is)");
  ir::TypeP et = array->type->elem();
  // (std::vector<T>::resize makes T{}: a struct's default member
  // initialisers, where its cotangent buffer must grow with zeros)
  if (!et->isScalar()) fail(loc, spelled + " of a vector of structs is not supported (a vector of numbers is)");
  ir::Expr size = n == "clear" ? ir::Const::makeInt(0) : convert(lowerExpr(mc->getArg(0), env), ir::Type::i64());
  ir::Expr value = mc->getNumArgs() == 2 ? convert(lowerExpr(mc->getArg(1), env), et) : nullptr;
  std::string sizeName = names_.fresh(leaf + "_size");
  ir::Expr sizeVar = ir::Var::make(sizeName, ir::Type::i64());
  ir::Expr resize = recordedResize(array, sizeName, loc, spelled, size);
  // resize(n, v) fills what it adds, [old size, n); assign(n, v) all of [0, n)
  std::string oldName = names_.fresh(leaf + "_old_size");
  ir::Expr old = ir::Var::make(oldName, ir::Type::i64());
  bool fillsAdded = n == "resize" && value;
  ir::Expr fill;
  if (fillsAdded) {
    ir::Expr added = ir::Prim::make(ir::Op::Sub, {sizeVar, old});
    fill = fillElements(array, old, ir::If::make(ir::Prim::make(ir::Op::Gt, {added, ir::Const::makeInt(0)}), added,
                                                 ir::Const::makeInt(0)),
                        value, loc);
  } else if (value) {
    fill = fillElements(array, nullptr, sizeVar, value, loc);
  }
  ir::Expr done = effect(resize, [&] { return fill ? effect(fill, [] { return ir::Tuple::make({}); }) : ir::Tuple::make({}); });
  if (fillsAdded) done = ir::Let::make(oldName, ir::Size::make(array), done);
  return ir::Let::make(sizeName, size, done);
}

// Whether `def` resizes a std::vector it is given by non-const reference,
// itself or through a helper it passes it to: such a helper is lowered
// into its caller, where the array is the caller's (a separate function
// could not change the size of its parameter's array).
bool Lowering::resizesVectorParam(const FunctionDecl *def) {
  if (markAttr(def)) return false; // (lowered on its own: its outputs sized in its body, output_vectors.cpp)
  std::set<std::pair<const FunctionDecl *, const ParmVarDecl *>> seen;
  std::function<bool(const FunctionDecl *, const ParmVarDecl *)> resizes = [&](const FunctionDecl *fd,
                                                                              const ParmVarDecl *p) {
    fd = fd ? fd->getDefinition() : nullptr;
    if (!fd || !fd->hasBody() || !seen.insert({fd, p}).second) return false;
    auto names = [&](const Expr *e) {
      const auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
      return d && d->getDecl() == p;
    };
    bool found = false;
    std::function<void(const Stmt *)> walk = [&](const Stmt *s) {
      if (!s || found) return;
      if (const auto *mc = dyn_cast<CXXMemberCallExpr>(s); mc && mc->getMethodDecl() &&
                                                           mc->getMethodDecl()->getIdentifier() &&
                                                           names(mc->getImplicitObjectArgument())) {
        llvm::StringRef n = mc->getMethodDecl()->getName();
        found = n == "resize" || n == "assign" || n == "clear";
      } else if (const auto *ce = dyn_cast<CallExpr>(s); ce && ce->getDirectCallee()) {
        const FunctionDecl *g = ce->getDirectCallee();
        for (unsigned k = 0; k < ce->getNumArgs() && k < g->getNumParams() && !found; ++k)
          if (names(ce->getArg(k))) found = resizes(g, g->getParamDecl(k));
      }
      for (const Stmt *c : s->children()) walk(c);
    };
    walk(fd->getBody());
    return found;
  };
  ArrayInfo ai;
  return std::any_of(def->param_begin(), def->param_end(),
                     [&](const ParmVarDecl *p) { return writableVectorParam(p, ai) && resizes(def, p); });
}

// `std::vector<T>& p`: a parameter through which a function may resize the
// vector it is given (`ai`: its array's shape).
bool Lowering::writableVectorParam(const ParmVarDecl *p, ArrayInfo &ai) {
  QualType t = p->getType();
  return t->isLValueReferenceType() && !t.getNonReferenceType().isConstQualified() &&
         arrayInfo(t, ai, SourceLocation()) && ai.kind == ArrayInfo::Vector;
}

// `resize array to <sizeName>` of a member's local array (a Var), recorded
// for placeResizes; what knew the array's length forgets it.
ir::Expr Lowering::recordedResize(const ir::Expr &array, const std::string &sizeName, SourceLocation loc,
                                  const std::string &spelled, const ir::Expr &value) {
  ObjectRows rows;
  if (ir::Expr index; objectRow(array, rows, index)) return rowResize(array, sizeName, value, loc, spelled); // (object_tables.cpp)
  localLengths_.erase(array->as<ir::Var>()->name); // (its length is read at run time from now on)
  resizeSites_[sizeName] = ResizeSite{loc, spelled};
  return ir::Resize::make(array, ir::Var::make(sizeName, ir::Type::i64()));
}

// Each resize of a member (lowerMemberResize, an assigned object) where its
// array is allocated: in the block that allocates it, a resize; in a loop
// body, a branch or an element function nested in that block, where the
// array's size must not change while the loop runs (snapshots, tapes and
// hoisted sizes take it as fixed there), a check that it keeps its size
// (the same size: no resize at all) which throws std::length_error where
// f would resize. Refused at the call: a resize of a parameter's array,
// and a nested resize of another constant size.
//
// An array still empty (a default-constructed object, `Mat tmp;`) first
// sized in a loop (`for (...) { mat_mult(acc, r, &tmp); acc = tmp; }`) is
// sized before the loop at the size its first iteration gives it, `lo <
// hi ? n(first) : 0`, and each iteration checks that size as above: the
// array then has one size while the loop runs, as the passes want it. That
// needs the resize in every iteration (in the loop body itself, not in a
// branch or a loop of its own) and its size computed from the loop's state
// and values from before the loop by integer arithmetic alone (the
// objects' sizes), not from the index (a size that changes every
// iteration); otherwise it is refused.
ir::Expr Lowering::placeResizes(const ir::Expr &body) {
  if (resizeSites_.empty()) return body;
  struct Alloc {
    int block;
    bool empty;    // allocated with no element, not resized since in its block
    ir::Expr size; // its size after the allocation or its block's last resize
  };
  std::map<std::string, Alloc> allocated;
  std::set<std::string> guarded; // the size variables of the resizes that become checks
  // The blocks being walked, innermost last: the loop whose body a block is
  // (null for anything else) and the block it sits in, and the scalar lets
  // of the body so far (pure: integer arithmetic on names), to compute a
  // size at the loop's first iteration.
  struct Frame {
    int block;
    const ir::Fold *loop;
    int outer;
    std::map<std::string, ir::Expr> pure;
    std::set<std::string> bound;
    // tuple lets (an inlined helper's result): each element's pure value (or null)
    std::map<std::string, std::vector<ir::Expr>> tuples;
  };
  std::vector<Frame> frames{{0, nullptr, -1, {}, {}}};
  std::map<const ir::Node *, std::vector<std::pair<ir::Expr, ir::Expr>>> presized; // loop -> (array, first size)
  // integer lets whose value is a constant (sizes the function fixes:
  // `Mat c(2, 2)`), to refuse a nested resize to another constant size
  std::map<std::string, int64_t> constants;
  std::function<std::optional<int64_t>(const ir::Expr &)> fold = [&](const ir::Expr &e) -> std::optional<int64_t> {
    if (auto c = e->as<ir::Const>(); c && c->type->isInt()) return c->ivalue;
    if (auto v = e->as<ir::Var>()) {
      auto it = constants.find(v->name);
      return it == constants.end() ? std::nullopt : std::optional<int64_t>(it->second);
    }
    auto p = e->as<ir::Prim>();
    if (!p || p->args.size() != 2 || (p->op != ir::Op::Add && p->op != ir::Op::Sub && p->op != ir::Op::Mul))
      return std::nullopt;
    auto a = fold(p->args[0]), b = fold(p->args[1]);
    if (!a || !b) return std::nullopt;
    return p->op == ir::Op::Add ? *a + *b : p->op == ir::Op::Sub ? *a - *b : *a * *b;
  };
  std::function<bool(const ir::Expr &)> pure = [&](const ir::Expr &e) {
    if (e->is<ir::Const>() || e->is<ir::Var>()) return true;
    // (an array keeps its size in a loop, which only checks it; one still
    // empty is empty until the body's first resize: firstIteration reads 0)
    if (auto n = e->as<ir::Size>()) return n->array->is<ir::Var>();
    if (auto i = e->as<ir::If>()) return pure(i->cond) && pure(i->thenE) && pure(i->elseE); // (`reshape`'s: owned_buffers.cpp)
    if (auto p = e->as<ir::Proj>()) return pure(p->tuple);
    if (auto t = e->as<ir::Tuple>()) return std::all_of(t->elems.begin(), t->elems.end(), pure);
    if (auto p = e->as<ir::Prim>()) return std::all_of(p->args.begin(), p->args.end(), pure);
    return false;
  };
  // `e[name := v]`, with `(a, b)#1` read as b (a helper's returned sizes)
  auto substituted = [](const ir::Expr &e, const std::string &name, const ir::Expr &v) {
    struct Projections : ir::Mutator {
      ir::Expr visit(const ir::Proj *n, const ir::Expr &me) override {
        ir::Expr t = mutate(n->tuple);
        if (const auto *tuple = t->as<ir::Tuple>()) return tuple->elems.at(size_t(n->index));
        return t == n->tuple ? me : ir::Proj::make(t, n->index);
      }
    } fold;
    return fold.mutate(ir::substitute(e, name, v));
  };
  std::function<ir::Expr(const ir::Expr &)> pureValue;
  std::map<std::string, std::pair<ir::Expr, ir::Expr>> joins; // early returns' joins: the condition, the returned value
  // `let ... in (flag, r)`: `let ... in r` (null when e ends otherwise)
  std::function<ir::Expr(const ir::Expr &, bool)> flagged = [&](const ir::Expr &e, bool flag) -> ir::Expr {
    if (const auto *l = e->as<ir::Let>()) {
      ir::Expr body = flagged(l->body, flag);
      return body ? ir::Let::make(l->name, l->value, body) : nullptr;
    }
    const auto *t = e->as<ir::Tuple>();
    const auto *c = t && t->elems.size() == 2 ? t->elems[0]->as<ir::Const>() : nullptr;
    return c && c->type->isBool() && (c->ivalue != 0) == flag ? t->elems[1] : nullptr;
  };
  // The lets of the chain `e` (innermost last) with their pure values (null:
  // none), an early return's join among them noted; `body` gets what they
  // scope over.
  using Lets = std::vector<std::pair<std::string, ir::Expr>>;
  auto letsOf = [&](const ir::Expr &e, ir::Expr &body) {
    Lets lets;
    body = e;
    while (auto l = body->as<ir::Let>()) {
      lets.push_back({l->name, pureValue(l->value)});
      if (const auto *c = l->value->as<ir::If>()) {
        ir::Expr returned = flagged(c->thenE, true);
        if (returned && flagged(c->elseE, false)) joins[l->name] = {c->cond, returned};
      }
      body = l->body;
    }
    return lets;
  };
  // `x` (pure code under `lets`) with the lets it reads put in; null when
  // one of those has no pure value.
  auto closed = [&](ir::Expr x, const Lets &lets) -> ir::Expr {
    for (auto it = lets.rbegin(); x && it != lets.rend(); ++it) {
      const auto used = ir::freeVars(x);
      if (std::find(used.begin(), used.end(), it->first) == used.end()) continue;
      x = it->second ? substituted(x, it->first, it->second) : nullptr;
    }
    return x;
  };
  // The pure value of each element of the tuple `e` (null where it has
  // none): a helper with an early return hands back the object's sizes on
  // both paths, `c ? (..., n) : (..., n)` is n whatever c.
  std::function<std::vector<ir::Expr>(const ir::Expr &)> pureElements = [&](const ir::Expr &e) {
    std::vector<ir::Expr> out(e->type->elems.size());
    if (const auto *t = e->as<ir::Tuple>()) {
      for (size_t i = 0; i < out.size(); ++i) out[i] = pureValue(t->elems[i]);
    } else if (const auto *v = e->as<ir::Var>()) {
      auto it = frames.back().tuples.find(v->name);
      if (it != frames.back().tuples.end()) out = it->second;
    } else if (const auto *c = e->as<ir::If>()) {
      // an early return's join (lib/frontend/statements.cpp): `let j = if c
      // then (true, r) else (false, _) in if j#0 then j#1 else rest` is
      // `if c then r else rest`
      const auto *flag = c->cond->as<ir::Proj>();
      const auto *taken = c->thenE->as<ir::Proj>();
      const auto *jv = flag && flag->index == 0 ? flag->tuple->as<ir::Var>() : nullptr;
      if (jv && taken && taken->index == 1 && taken->tuple->is<ir::Var>() && taken->tuple->as<ir::Var>()->name == jv->name)
        if (auto def = joins.find(jv->name); def != joins.end())
          return pureElements(ir::If::make(def->second.first, def->second.second, c->elseE));
      std::vector<ir::Expr> a = pureElements(c->thenE), b = pureElements(c->elseE);
      for (size_t i = 0; i < out.size(); ++i)
        if (a[i] && b[i] && ir::alphaEqual(a[i], b[i])) out[i] = a[i];
        else if (a[i] && b[i] && pure(c->cond)) out[i] = ir::If::make(c->cond, a[i], b[i]);
    } else if (e->is<ir::Let>()) {
      ir::Expr body;
      const Lets lets = letsOf(e, body);
      out = pureElements(body);
      for (ir::Expr &x : out) x = x ? closed(x, lets) : nullptr;
    }
    return out;
  };
  // The value of `e` as pure code: `e` itself, or the pure result of a
  // block of lets whose effects write no integer (an inlined helper given
  // the object, which hands back the object's sizes as it found them);
  // null otherwise.
  pureValue = [&](const ir::Expr &e) -> ir::Expr {
    if (const auto *p = e->as<ir::Proj>(); p && p->tuple->is<ir::Var>())
      if (auto it = frames.back().tuples.find(p->tuple->as<ir::Var>()->name); it != frames.back().tuples.end())
        return it->second.at(size_t(p->index));
    if (pure(e)) return e;
    if (!e->is<ir::Let>()) return nullptr;
    ir::Expr body;
    const Lets lets = letsOf(e, body);
    return pure(body) ? closed(body, lets) : nullptr;
  };
  // `size` at the first iteration of the loop of the innermost frame, in
  // names bound before the loop; null when it reads anything else, or the
  // loop's index (a size that changes with the iteration: f would resize
  // the object every time, which the check refuses).
  std::function<ir::Expr(ir::Expr)> firstIteration = [&](ir::Expr size) -> ir::Expr {
    const Frame &f = frames.back();
    const ir::Fold *loop = f.loop;
    if (!pure(loop->lo) || !pure(loop->hi) || !pure(loop->init)) return nullptr;
    // an array the body allocates has its allocation's size (a buffer
    // handed over to the object: `T* fresh = new T[n]; ... data_ = fresh;`)
    struct LocalSizes : ir::Mutator {
      const std::map<std::string, Alloc> *allocated;
      int block;
      ir::Expr visit(const ir::Size *n, const ir::Expr &me) override {
        const auto *v = n->array->as<ir::Var>();
        auto it = v ? allocated->find(v->name) : allocated->end();
        if (it == allocated->end() || it->second.block != block || it->second.empty) return mutateChildren(me);
        return it->second.size;
      }
    } locals;
    locals.allocated = &allocated;
    locals.block = f.block;
    for (bool changed = true; changed;) {
      changed = false;
      if (ir::Expr sized = locals.mutate(size); sized != size) size = sized, changed = true;
      for (const std::string &v : ir::freeVars(size)) {
        if (v == loop->index) return nullptr;
        if (auto it = f.pure.find(v); it != f.pure.end()) {
          size = ir::substitute(size, v, it->second);
          changed = true;
          break;
        }
        if (v != loop->state && f.bound.count(v)) return nullptr;
      }
    }
    // the arrays still empty are, at the first iteration, until this resize
    struct EmptySizes : ir::Mutator {
      const std::map<std::string, Alloc> *allocated;
      ir::Expr visit(const ir::Size *n, const ir::Expr &me) override {
        const auto *v = n->array->as<ir::Var>();
        auto it = v ? allocated->find(v->name) : allocated->end();
        return it != allocated->end() && it->second.empty ? ir::Const::makeInt(0) : mutateChildren(me);
      }
    } empties;
    empties.allocated = &allocated;
    return empties.mutate(ir::substitute(size, loop->state, loop->init));
  };
  int blocks = 0;
  std::function<void(const ir::Expr &, int)> walk = [&](const ir::Expr &e, int block) {
    if (auto l = e->as<ir::Let>()) {
      walk(l->value, block);
      if (l->value->type->isInt())
        if (auto c = fold(l->value)) constants[l->name] = *c;
      if (frames.back().block == block) {
        frames.back().bound.insert(l->name);
        if (ir::Expr v = pureValue(l->value)) frames.back().pure[l->name] = v;
        else if (l->value->type->isTuple()) frames.back().tuples[l->name] = pureElements(l->value);
      }
      if (auto na = l->value->as<ir::NewArray>()) {
        auto zero = na->size->as<ir::Const>();
        allocated[l->name] = Alloc{block, zero && zero->ivalue == 0, na->size};
      }
      walk(l->body, block);
      return;
    }
    if (auto r = e->as<ir::Resize>()) {
      const auto *sv = r->size->as<ir::Var>();
      auto site = sv ? resizeSites_.find(sv->name) : resizeSites_.end();
      if (site != resizeSites_.end()) {
        auto found = allocated.find(r->array->as<ir::Var>()->name);
        if (found == allocated.end())
          fail(site->second.loc, site->second.spelled + " resizes a vector the marked function is given (of an object "
                                                         "or a parameter); only vectors made in the function can be "
                                                         "resized by helpers and methods");
        auto now = fold(found->second.size), then = fold(r->size);
        if (found->second.block == block) {
          found->second.empty = false;
          found->second.size = r->size;
        } else if (ir::Expr first; found->second.empty && frames.back().block == block && frames.back().loop &&
                                   frames.back().outer == found->second.block &&
                                   (first = firstIteration(r->size))) {
          presized[frames.back().loop].push_back({r->array, first});
          found->second.empty = false;
          found->second.size = r->size;
          guarded.insert(sv->name);
        } else if (found->second.empty || (now && then && *now != *then)) {
          fail(site->second.loc, site->second.spelled + " inside a loop or a branch, of an object made outside it and "
                                                         "at another size, is not supported (make the object inside "
                                                         "the loop or branch, or give it that size before)");
        } else {
          guarded.insert(sv->name);
        }
      }
      walk(r->size, block);
      return;
    }
    // a loop's body, a branch's arms, an element function: blocks of their own
    bool nested = e->is<ir::Fold>() || e->is<ir::While>() || e->is<ir::If>() || e->is<ir::Build>() ||
                  e->is<ir::Sum>() || e->is<ir::Lambda>();
    if (!nested) return ir::forEachChild(*e, [&](const ir::Expr &c) { walk(c, block); });
    const auto *loop = e->as<ir::Fold>();
    ir::forEachChild(*e, [&](const ir::Expr &c) {
      const int inner = ++blocks;
      frames.push_back(Frame{inner, loop && c == loop->body ? loop : nullptr, block, {}, {}});
      walk(c, inner);
      frames.pop_back();
    });
  };
  walk(body, 0);
  if (guarded.empty()) return body;
  struct Guard : ir::Mutator {
    Lowering *self;
    const std::set<std::string> *guarded;
    const std::map<const ir::Node *, std::vector<std::pair<ir::Expr, ir::Expr>>> *presized;
    // the array sized before the loop: `lo < hi ? first : 0` (a loop that
    // never runs leaves it empty)
    ir::Expr visit(const ir::Fold *n, const ir::Expr &me) override {
      ir::Expr loop = mutateChildren(me);
      auto it = presized->find(n);
      if (it == presized->end()) return loop;
      for (auto at = it->second.rbegin(); at != it->second.rend(); ++at) { // (the first one found runs first)
        const auto &[array, first] = *at;
        const std::string size = self->names_.fresh(array->as<ir::Var>()->name + "_size");
        ir::Expr runs = ir::Prim::make(ir::Op::Lt, {n->lo, n->hi});
        ir::Expr resize = ir::Resize::make(array, ir::Var::make(size, ir::Type::i64()));
        loop = ir::Let::make(size, ir::If::make(runs, first, ir::Const::makeInt(0)),
                             ir::Let::make(self->names_.fresh("_"), resize, loop));
      }
      return loop;
    }
    ir::Expr visit(const ir::Resize *n, const ir::Expr &me) override {
      const auto *sv = n->size->as<ir::Var>();
      if (!sv || !guarded->count(sv->name)) return mutateChildren(me);
      const ResizeSite &site = self->resizeSites_.at(sv->name);
      // (no line number: it would change as f_grad is written above it; the
      // names and words need no escaping in a string literal)
      std::string text = "unfad: " + site.spelled + " in '" + self->currentRoot_->getNameAsString() +
                         "' changes the size of an object made outside the loop or branch it runs in, which unfad's "
                         "gradient does not do";
      ir::Expr changes = ir::Prim::make(ir::Op::Ne, {ir::Size::make(n->array), n->size});
      return ir::If::make(changes, ir::Throw::make("std::length_error(\"" + text + "\")", ir::Type::unit()),
                          ir::Tuple::make({}));
    }
  } guard;
  guard.self = this;
  guard.guarded = &guarded;
  guard.presized = &presized;
  return guard.mutate(body);
}

} // namespace unfad::frontend
