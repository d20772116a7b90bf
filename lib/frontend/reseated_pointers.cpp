// Pointer locals re-seated between arrays, as GradBench's lstm walks its
// layers:
//
//   T* layer_output = output;                  // the scaled input
//   for (int i = 0; i < l; ++i) {
//     lstm_model(b, params[i], state[i], layer_output);
//     layer_output = state[i].hidden;          // now into the state buffer
//   }
//   for (int i = 0; i < b; ++i) output[i] = layer_output[i] * w[i] + bias[i];
//
// A pointer local keeps one array (pointers.cpp); when the function assigns
// it views into other arrays too, and each of those arrays can be named
// where the pointer is declared, the pointer is the array it points into
// now, among those, and an offset. The choice is an integer local (its
// tag, a synthetic VarDecl loops and branches carry like any variable): an
// assignment sets it to a constant, so straight-line code knows the array
// and is lowered as for any pointer. Where the tag is not known (after a
// loop or a branch that re-seats the pointer), a statement that uses the
// pointer is lowered once per array, under `if (tag == k)`, the pointer
// pointing into array k in branch k (lowerPerArray); the branches join as
// an `if`'s do. A use the split does not reach (a loop's condition) is an
// error at it, never a guess.
#include "lowering.h"

#include "unfad/ir/equal.h"

#include <clang/AST/RecursiveASTVisitor.h>

namespace unfad::frontend {

using namespace clang;

namespace {

// The right-hand sides of the plain assignments `p = E` in a body.
class Reseats : public RecursiveASTVisitor<Reseats> {
public:
  explicit Reseats(const VarDecl *p) : p_(p) {}
  std::vector<const Expr *> values;
  bool VisitBinaryOperator(BinaryOperator *b) {
    if (b->getOpcode() != BO_Assign) return true;
    if (const auto *d = dyn_cast<DeclRefExpr>(b->getLHS()->IgnoreParens()); d && d->getDecl() == p_)
      values.push_back(b->getRHS());
    return true;
  }

private:
  const VarDecl *p_;
};

// Whether `s` names `p` (not inside a lambda's body).
bool mentions(const Stmt *s, const VarDecl *p) {
  if (!s || isa<LambdaExpr>(s)) return false;
  if (const auto *d = dyn_cast<DeclRefExpr>(s); d && d->getDecl() == p) return true;
  for (const Stmt *c : s->children())
    if (mentions(c, p)) return true;
  return false;
}

} // namespace

// The array the pointer expression `e` points into, found without lowering
// it (its indices may name variables not bound yet): a pointer local's, an
// array variable's, a view member's; null when not known here.
ir::Expr Lowering::pointerArrayOf(const Expr *e, const Env &env) {
  e = e->IgnoreParenImpCasts();
  if (const auto *b = dyn_cast<BinaryOperator>(e); b && b->isAdditiveOp())
    return pointerArrayOf(b->getLHS()->getType()->isPointerType() ? b->getLHS() : b->getRHS(), env);
  if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_AddrOf) {
    const Expr *sub = u->getSubExpr()->IgnoreParens();
    if (const auto *s = dyn_cast<ArraySubscriptExpr>(sub)) return pointerArrayOf(s->getBase(), env);
    if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(sub); oc && oc->getOperator() == OO_Subscript)
      return pointerArrayOf(oc->getArg(0), env);
    return nullptr;
  }
  if (const auto *mc = dyn_cast<CXXMemberCallExpr>(e); mc && mc->getMethodDecl() && mc->getMethodDecl()->getIdentifier() &&
                                                        mc->getMethodDecl()->getName() == "data")
    return pointerArrayOf(mc->getImplicitObjectArgument(), env);
  if (const auto *d = dyn_cast<DeclRefExpr>(e)) {
    const auto *vd = dyn_cast<VarDecl>(d->getDecl());
    if (!vd) return nullptr;
    if (auto b = ptrBase_.find(vd); b != ptrBase_.end()) return reseated_.count(vd) ? nullptr : b->second;
    if (auto it = env.find(vd); it != env.end() && it->second->type->isArray()) return ir::rootArray(it->second);
    return nullptr;
  }
  const VarDecl *root;
  const Expr *index;
  std::vector<int> path;
  if (!e->getType()->isPointerType() || !viewPlaceShape(e, root, index, path)) return nullptr;
  const VarDecl *leaf = leafVar(root, path, e->getType().getUnqualifiedType());
  const auto &bases = index ? leafBase_ : ptrBase_;
  auto b = bases.find(leaf);
  return b == bases.end() ? nullptr : b->second;
}

// At the declaration of the pointer local `vd` pointing into `base`: the
// arrays its assignments make it point into, when more than one and all
// known here (then `vd` is re-seated: its tag is bound in `env`).
void Lowering::noteReseats(const VarDecl *vd, const ir::Expr &base, Env &env) {
  reseated_.erase(vd);
  const auto *fd = dyn_cast<FunctionDecl>(vd->getDeclContext());
  if (!fd || !fd->getBody()) return;
  Reseats finder(vd);
  finder.TraverseStmt(const_cast<Stmt *>(fd->getBody()));
  std::vector<ir::Expr> arrays{base};
  for (const Expr *value : finder.values) {
    ir::Expr a = pointerArrayOf(value, env);
    if (!a || !a->is<ir::Var>()) return; // (not known here: pointers.cpp diagnoses a mismatch where it is assigned)
    if (std::none_of(arrays.begin(), arrays.end(), [&](const ir::Expr &x) { return ir::alphaEqual(x, a); }))
      arrays.push_back(a);
  }
  if (arrays.size() < 2 || !base->is<ir::Var>()) return;
  SourceLocation loc = vd->getLocation();
  auto *tag = VarDecl::Create(ctx_, const_cast<DeclContext *>(vd->getDeclContext()), loc, loc,
                              &ctx_.Idents.get(vd->getNameAsString() + "_array"), ctx_.LongTy,
                              ctx_.getTrivialTypeSourceInfo(ctx_.LongTy), SC_None);
  reseated_[vd] = Reseated{arrays, tag};
  env[tag] = ir::Const::makeInt(0);
}

// The same for the pointer parameters of `def` moved in its body (pointer
// locals initialised with the argument, pointers.cpp), once all are bound.
void Lowering::noteMovedReseats(const FunctionDecl *def, Env &env) {
  for (const ParmVarDecl *p : def->parameters())
    if (auto b = ptrBase_.find(p); b != ptrBase_.end() && env.count(p) && movesPointer(def, p))
      noteReseats(p, b->second, env);
}

// `p = E` on a re-seated pointer: the tag of E's array (a constant), and
// p's array for what follows.
void Lowering::reseat(const VarDecl *vd, const ir::Expr &view, Env &env, SourceLocation loc) {
  const Reseated &r = reseated_.at(vd);
  const ir::Expr &a = ir::rootArray(view);
  for (size_t k = 0; k < r.arrays.size(); ++k)
    if (ir::alphaEqual(r.arrays[k], a)) {
      env[r.tag] = ir::Const::makeInt(int64_t(k));
      ptrBase_[vd] = a;
      return;
    }
  fail(loc, "pointer '" + vd->getNameAsString() + "' is made to point into an array not known where it is declared");
}

// The array a re-seated pointer points into here; an error where that is
// not known (a use the per-array split does not reach).
const ir::Expr &Lowering::reseatedArray(const VarDecl *vd, const Env &env, SourceLocation loc) {
  const Reseated &r = reseated_.at(vd);
  auto t = env.find(r.tag);
  const auto *c = t == env.end() ? nullptr : t->second->as<ir::Const>();
  if (!c)
    fail(loc, "pointer '" + vd->getNameAsString() + "' points into one of several arrays here (which one depends on "
              "the path taken), and this use of it cannot be generated once per array (statements using it can; a "
              "loop's or a branch's condition cannot): read what it needs into a local in a statement before");
  ptrBase_[vd] = r.arrays[size_t(c->ivalue)];
  return ptrBase_[vd];
}

// A statement that uses a re-seated pointer whose array is not known here:
// null when there is none (or the statement holds statements of its own,
// which are split one by one).
const VarDecl *Lowering::reseatedUse(const Stmt *st, const Env &env) {
  if (reseated_.empty() || (!isa<Expr>(st) && !isa<DeclStmt>(st) && !isa<ReturnStmt>(st))) return nullptr;
  for (const auto &[vd, r] : reseated_) {
    auto t = env.find(r.tag);
    if (t == env.end() || t->second->is<ir::Const>() || !env.count(vd)) continue;
    // (`p = E` sets the array: no split)
    if (const auto *b = dyn_cast<BinaryOperator>(st); b && b->getOpcode() == BO_Assign && !mentions(b->getRHS(), vd))
      if (const auto *d = dyn_cast<DeclRefExpr>(b->getLHS()->IgnoreParens()); d && d->getDecl() == vd) continue;
    if (mentions(st, vd)) return vd;
  }
  return nullptr;
}

// `st` once per array `vd` may point into: `if (tag == 0) st else if ...`,
// then the rest after the branches' assignments.
ir::Expr Lowering::lowerPerArray(const Stmt *st, const VarDecl *vd, const Seq *rest, Env &env, const Tail &tail) {
  const Reseated r = reseated_.at(vd);
  if (isa<ReturnStmt>(st))
    fail(st->getBeginLoc(), "a 'return' using pointer '" + vd->getNameAsString() + "', which points into one of "
                            "several arrays here, is not supported (compute the value into a local first)");
  std::vector<const VarDecl *> assigned;
  collectAssigned(st, env, assigned);
  Tail join = joinTail(assigned);
  ir::Expr chain;
  for (size_t k = r.arrays.size(); k-- > 0;) {
    Env ek = env;
    ek[r.tag] = ir::Const::makeInt(int64_t(k));
    ptrBase_[vd] = r.arrays[k];
    Seq one{&st, &st + 1, nullptr};
    ir::Expr branch = lowerSeq(&one, ek, join);
    chain = !chain ? branch
                   : ir::If::make(ir::Prim::make(ir::Op::Eq, {env.at(r.tag), ir::Const::makeInt(int64_t(k))}), branch, chain);
  }
  return continueAfterJoin(chain, assigned, rest, env, tail);
}

} // namespace unfad::frontend
