// Classes owning `new[]` memory through a pointer member, as matrix classes
// written before std::vector (ADBench's LightMatrix) are:
//
//   template <typename T> class Mat {
//   public:
//     Mat() : owner_(true), rows_(0), cols_(0), data_(nullptr) {}
//     Mat(int r, int c) : owner_(true), rows_(r), cols_(c) { data_ = new T[r * c]; }
//     ~Mat() { if (owner_ && data_ != nullptr) delete[] data_; }
//     void resize(int r, int c) {
//       if (rows_ * cols_ != r * c) {
//         if (owner_) delete[] data_;
//         if (r * c > 0) data_ = new T[r * c]; else data_ = nullptr;
//       }
//       rows_ = r; cols_ = c;
//     }
//     T& operator()(int i, int j) { return data_[j * rows_ + i]; }
//     bool owner_; int rows_, cols_; T* data_;
//   };
//
// A pointer member the destructor frees with `delete[]` (an owned buffer)
// is the array it owns, as a std::vector member is (vector_members.cpp):
// the object is split into its members, the buffer a local array of its
// own. What the class does with the memory is then about that array's size:
// - `data_ = new T[n]` is a resize to n (resized_members.cpp: the elements
//   the array keeps are the old ones up to n, the new ones zero; `new T[n]`
//   leaves them indeterminate, so reading them is undefined in f already),
//   `data_ = nullptr` a resize to 0, `delete[] data_` nothing;
// - a statement made only of those, in branches (the `if` of `resize`
//   above), is one resize per buffer to the size the path taken leaves it
//   at: `c ? (r * c > 0 ? r * c : 0) : size(data_)`. It sits where the
//   statement is, not in a branch, so the array keeps one size wherever
//   the passes take it as fixed (placeResizes);
// - an `if` whose branches only `delete[]` (the destructor's) is nothing,
//   its condition (`data_ != nullptr`) never evaluated;
// - `data_ = fresh;` of a local `T* fresh = new T[n]` that nothing uses
//   after (a reallocation keeping the elements: new, copy, delete[] the
//   old, hand the new one over) is a resize to fresh's length and a copy
//   of its elements; so is a move's `data_ = other.data_;` (and
//   `data_(other.data_)`), the moved-from object's `other.data_ = nullptr;`
//   a resize of its array to 0;
// - `this != &other` is known where the method is lowered into its caller
//   (sameObject): the objects are the same exactly when their arrays are.
// Anything else done with an owned buffer (pointing it at memory the
// object does not own, comparing it with null anywhere else) is refused
// where it is written: the array has no identity to compare or share.
#include "lowering.h"

#include "unfad/ir/equal.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>

namespace unfad::frontend {

using namespace clang;

namespace {

// `delete[] this->name` somewhere in `s`.
bool deletesMember(const Stmt *s, llvm::StringRef name) {
  if (!s) return false;
  if (const auto *d = dyn_cast<CXXDeleteExpr>(s); d && d->isArrayForm()) {
    const auto *m = dyn_cast<MemberExpr>(d->getArgument()->IgnoreParenImpCasts());
    if (m && isa<CXXThisExpr>(m->getBase()->IgnoreParenImpCasts()) && m->getMemberDecl()->getName() == name) return true;
  }
  for (const Stmt *c : s->children())
    if (deletesMember(c, name)) return true;
  return false;
}

} // namespace

// A pointer member to numbers that its class's destructor frees with
// `delete[]`: the class owns the memory it points to.
bool Lowering::ownedBuffer(const FieldDecl *f) {
  const auto *rd = f ? dyn_cast<CXXRecordDecl>(f->getParent()) : nullptr;
  if (!rd || rd->isInStdNamespace() || rd->isLambda() || rd->isUnion() || !f->getType()->isPointerType()) return false;
  QualType pt = f->getType()->getPointeeType();
  if (pt.isConstQualified() || !pt->isArithmeticType() || pt->isBooleanType()) return false;
  const CXXDestructorDecl *dtor = rd->getDestructor();
  if (!dtor || !dtor->isUserProvided()) return false;
  const FunctionDecl *def = dtor->getDefinition();
  if (!def || !def->hasBody()) // (a template's destructor nobody has used yet: its pattern's)
    if (const FunctionDecl *pattern = dtor->getTemplateInstantiationPattern()) def = pattern;
  return def && def->hasBody() && deletesMember(def->getBody(), f->getName());
}

// A member that is an array of the object's own: a std::vector of numbers
// or structs, or an owned buffer.
bool Lowering::arrayMember(const FieldDecl *f) { return vectorMember(f->getType()) || ownedBuffer(f); }

// `data_` (`this->data_` in a method, `other.data_`) of an owned buffer:
// its field.
const FieldDecl *Lowering::bufferMember(const Expr *e) {
  const auto *m = e ? dyn_cast<MemberExpr>(e->IgnoreParenImpCasts()) : nullptr;
  const auto *f = m ? dyn_cast<FieldDecl>(m->getMemberDecl()) : nullptr;
  return f && ownedBuffer(f) ? f : nullptr;
}

// `data_ = <rhs>` of an owned buffer (else null).
static const BinaryOperator *assignedBuffer(const Stmt *st) {
  const auto *e = dyn_cast_or_null<Expr>(st);
  if (const auto *c = dyn_cast_or_null<ExprWithCleanups>(e)) e = c->getSubExpr();
  const auto *b = e ? dyn_cast<BinaryOperator>(e->IgnoreParens()) : nullptr;
  return b && b->getOpcode() == BO_Assign ? b : nullptr;
}

// `data_ = new T[n]` or `data_ = nullptr`: the assignment (else null).
const BinaryOperator *Lowering::bufferAssignment(const Stmt *st) {
  const BinaryOperator *b = assignedBuffer(st);
  if (!b || !bufferMember(b->getLHS())) return nullptr;
  return bufferAllocation(b->getRHS()) ? b : nullptr;
}

// Whether `x` is what an owned buffer can be given: 'new T[n]', 'nullptr',
// or a choice between them (`n > 0 ? new T[n] : nullptr`).
bool Lowering::bufferAllocation(const Expr *x) {
  x = x->IgnoreParenImpCasts();
  if (const auto *c = dyn_cast<ConditionalOperator>(x))
    return !c->getCond()->HasSideEffects(ctx_) && bufferAllocation(c->getTrueExpr()) &&
           bufferAllocation(c->getFalseExpr());
  return isNullPointer(x, ctx_) || isa<CXXNewExpr>(x);
}

// The length the allocation `x` (bufferAllocation) gives `f`: n of
// 'new T[n]', 0 of 'nullptr'.
ir::Expr Lowering::allocatedLength(const Expr *x, const FieldDecl *f, Env &env) {
  x = x->IgnoreParenImpCasts();
  if (const auto *c = dyn_cast<ConditionalOperator>(x)) {
    if (const Expr *m = mentionedBuffer(c->getCond()))
      fail(m->getExprLoc(), "a condition reading '" + cast<MemberExpr>(m->IgnoreParenImpCasts())->getMemberNameInfo().getAsString() +
                                "', memory its object owns, choosing its allocation is not supported");
    return ir::If::make(toBool(lowerExpr(c->getCond(), env)), allocatedLength(c->getTrueExpr(), f, env),
                        allocatedLength(c->getFalseExpr(), f, env));
  }
  if (isNullPointer(x, ctx_)) return ir::Const::makeInt(0);
  return ownedNewLength(cast<CXXNewExpr>(x), f, env);
}

// The length `new T[n]` given to the owned buffer `f` allocates: n.
ir::Expr Lowering::ownedNewLength(const CXXNewExpr *ne, const FieldDecl *f, Env &env) {
  if (!ne->isArray() || !ne->getArraySize() || ne->getNumPlacementArgs() != 0 || ne->hasInitializer())
    fail(ne->getBeginLoc(), "only 'new T[n]' (no initial values, no placement) is supported for '" +
                                f->getNameAsString() + "'");
  return convert(lowerExpr(*ne->getArraySize(), env), ir::Type::i64());
}

// Whether `s` does nothing but allocate and free owned buffers (`sizes`:
// whether it allocates).
bool Lowering::bufferOnly(const Stmt *s, bool &sizes) {
  if (!s || isa<NullStmt>(s)) return true;
  if (const auto *cs = dyn_cast<CompoundStmt>(s)) {
    for (const Stmt *c : cs->body())
      if (!bufferOnly(c, sizes)) return false;
    return cs->size() != 0;
  }
  if (const auto *is = dyn_cast<IfStmt>(s))
    return !is->getInit() && !is->getConditionVariable() && !is->isConsteval() &&
           !is->getCond()->HasSideEffects(ctx_) && bufferOnly(is->getThen(), sizes) && bufferOnly(is->getElse(), sizes);
  const auto *e = dyn_cast<Expr>(s);
  if (!e) return false;
  if (const auto *d = dyn_cast<CXXDeleteExpr>(e->IgnoreParens())) return d->isArrayForm() && bufferMember(d->getArgument());
  if (bufferAssignment(e)) return sizes = true;
  return false;
}

// The buffers' sizes after `s` (bufferOnly), from `sizes` before it (a
// buffer missing from it: its array's size).
void Lowering::bufferSizes(const Stmt *s, Env &env, Binds &pre, std::map<const FieldDecl *, BufferSize> &sizes) {
  if (!s || isa<NullStmt>(s)) return;
  if (const auto *cs = dyn_cast<CompoundStmt>(s)) {
    for (const Stmt *c : cs->body()) bufferSizes(c, env, pre, sizes);
    return;
  }
  if (const auto *is = dyn_cast<IfStmt>(s)) {
    bool allocates = false;
    bufferOnly(is, allocates);
    if (!allocates) return; // (frees only: the destructor's `if (data_ != nullptr) delete[] data_;`)
    ir::Expr cond;
    {
      if (const Expr *m = mentionedBuffer(is->getCond()))
        fail(m->getExprLoc(), "a condition reading '" + cast<MemberExpr>(m->IgnoreParenImpCasts())->getMemberNameInfo().getAsString() +
                                  "', memory its object owns, around its reallocation is not supported");
      EffectScope es(*this, &pre);
      cond = toBool(lowerExpr(is->getCond(), env));
    }
    std::map<const FieldDecl *, BufferSize> t = sizes, e = sizes;
    bufferSizes(is->getThen(), env, pre, t);
    bufferSizes(is->getElse(), env, pre, e);
    for (const auto *side : {&t, &e})
      for (const auto &[f, bs] : *side) {
        auto current = [&, f = f](const std::map<const FieldDecl *, BufferSize> &m) {
          auto it = m.find(f);
          return it != m.end() ? it->second.size : ir::Size::make(bs.array);
        };
        sizes[f] = BufferSize{bs.array, ir::If::make(cond, current(t), current(e)), bs.where};
      }
    return;
  }
  if (isa<CXXDeleteExpr>(cast<Expr>(s)->IgnoreParens())) return;
  const BinaryOperator *b = bufferAssignment(s);
  const FieldDecl *f = bufferMember(b->getLHS());
  ir::Expr array = lowerArrayRef(b->getLHS(), env);
  ObjectRows rows;
  ir::Expr rowIndex;
  if (!array->is<ir::Var>() && !objectRow(array, rows, rowIndex)) // (an element's of an object table: object_tables.cpp)
    fail(b->getOperatorLoc(), "reallocating '" + f->getNameAsString() + "' of this object is not supported (of a local "
                              "object, or of one a helper or method is given by reference or pointer, it is)");
  ir::Expr size;
  {
    EffectScope es(*this, &pre);
    size = allocatedLength(b->getRHS(), f, env);
  }
  sizes[f] = BufferSize{array, size, b->getOperatorLoc()};
}

// The first owned buffer `e` reads (null if none).
const Expr *Lowering::mentionedBuffer(const Stmt *e) {
  if (!e) return nullptr;
  if (const auto *x = dyn_cast<Expr>(e); x && bufferMember(x)) return x;
  for (const Stmt *c : e->children())
    if (const Expr *m = mentionedBuffer(c)) return m;
  return nullptr;
}

// A statement doing nothing but allocate and free owned buffers: one
// resize per buffer it allocates (see the file comment), then `rest`.
bool Lowering::lowerBufferStmt(const Stmt *st, const Seq *rest, Env &env, const Tail &tail, ir::Expr &out) {
  if (lowerBufferHandover(st, rest, env, tail, out)) return true;
  bool sizes = false;
  if ((!isa<IfStmt>(st) && !isa<Expr>(st)) || !bufferOnly(st, sizes)) return false;
  Binds pre;
  std::map<const FieldDecl *, BufferSize> after;
  bufferSizes(st, env, pre, after);
  std::vector<ir::Expr> resizes;
  for (const auto &[f, bs] : after) {
    std::string sizeName = names_.fresh(f->getNameAsString() + "_size");
    pre.push_back({sizeName, bs.size});
    resizes.push_back(recordedResize(bs.array, sizeName, bs.where, "'" + f->getNameAsString() + " = new T[n]'", bs.size));
  }
  std::function<ir::Expr(size_t)> chain = [&](size_t i) -> ir::Expr {
    if (i == resizes.size()) return lowerSeq(rest, env, tail);
    return effect(resizes[i], [&] { return chain(i + 1); });
  };
  out = wrap(pre, chain(0));
  return true;
}

// `data_ = fresh;` (see the file comment): the resize and the copy, then
// `rest`; false when `st` is not such a statement.
bool Lowering::lowerBufferHandover(const Stmt *st, const Seq *rest, Env &env, const Tail &tail, ir::Expr &out) {
  const BinaryOperator *b = assignedBuffer(st);
  const FieldDecl *f = b ? bufferMember(b->getLHS()) : nullptr;
  if (!f || bufferAssignment(b)) return false; // (`= new T[n]`, `= nullptr`: lowerBufferStmt)
  const auto *ref = dyn_cast<DeclRefExpr>(b->getRHS()->IgnoreParenImpCasts());
  const auto *vd = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
  const bool stolen = bufferMember(b->getRHS()); // `data_ = other.data_;` of a move: a copy
  SourceLocation loc = b->getOperatorLoc();
  if (!stolen && (!vd || !ptrBase_.count(vd)))
    fail(loc, "assigning '" + f->getNameAsString() + "', memory its object frees in its destructor, anything but "
              "'new T[n]', 'nullptr', a local 'T* p = new T[n]' or another object's such member is not supported (the "
              "object owns its elements as a std::vector does; copy them instead)");
  std::string source = stolen ? "other." + f->getNameAsString() : vd->getNameAsString();
  if (!stolen) {
    const auto *fd = dyn_cast<FunctionDecl>(vd->getDeclContext());
    const auto *ne = vd->getInit() ? dyn_cast<CXXNewExpr>(vd->getInit()->IgnoreParenImpCasts()) : nullptr;
    if (!ne)
      fail(loc, "assigning '" + f->getNameAsString() + "', memory its object frees in its destructor, a pointer other "
                "than a local 'T* p = new T[n]' is not supported");
    if (const DeclRefExpr *use = fd ? useAfter(fd->getBody(), vd, b->getEndLoc(), sm_) : nullptr)
      fail(use->getBeginLoc(), "use of '" + vd->getNameAsString() + "' after it is handed to '" + f->getNameAsString() +
                                   "' is not supported (the object's array is a copy of it)");
  }
  ir::Expr dst = lowerArrayRef(b->getLHS(), env), src = lowerArrayRef(b->getRHS(), env);
  if (!dst->is<ir::Var>())
    fail(loc, "reallocating '" + f->getNameAsString() + "' of this object is not supported (of a local object, or of "
              "one a helper or method is given by reference or pointer, it is)");
  ir::Expr from = ir::viewOffset(src);
  ir::Expr n = ir::Prim::make(ir::Op::Sub, {ir::Size::make(ir::rootArray(src)), from});
  std::string sizeName = names_.fresh(f->getNameAsString() + "_size");
  ir::Expr resize = recordedResize(dst, sizeName, loc, "'" + f->getNameAsString() + " = " + source + "'");
  ir::Expr copy = copyElements(ir::rootArray(src), from, dst, ir::Const::makeInt(0), ir::Var::make(sizeName, ir::Type::i64()), loc);
  out = ir::Let::make(sizeName, n, effect(resize, [&] { return effect(copy, [&] { return lowerSeq(rest, env, tail); }); }));
  return true;
}

// `this == &other` / `this != &other` (an assignment operator's check
// for self-assignment) of objects of a split class with an array member:
// the same object exactly when they hold the same array (each object's
// array is its own). Null when `b` compares anything else.
ir::Expr Lowering::sameObject(const BinaryOperator *b, Env &env) {
  if (b->getOpcode() != BO_EQ && b->getOpcode() != BO_NE) return nullptr;
  auto array = [&](const Expr *e) -> ir::Expr {
    e = e->IgnoreParenImpCasts();
    const VarDecl *root = viewThisRoot(e);
    if (const auto *u = dyn_cast<UnaryOperator>(e); !root && u && u->getOpcode() == UO_AddrOf) {
      const Expr *index = nullptr;
      std::vector<int> path;
      if (!viewPlaceShape(u->getSubExpr(), root, index, path) || index || !path.empty()) return nullptr;
    } else if (!root) {
      const Expr *p = viewPointerDeref(e); // a helper's `Mat* p` given one object
      const auto *d = p ? dyn_cast<DeclRefExpr>(p) : nullptr;
      root = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
    }
    if (!root) return nullptr;
    QualType t = viewRootType(root);
    for (const ViewLeaf &l : viewLeaves(t))
      if (l.vector && l.views.isNull()) return lookupVar(leafVar(root, l.path, l.type), env, e->getExprLoc());
    return nullptr;
  };
  ir::Expr a = array(b->getLHS()), c = a ? array(b->getRHS()) : nullptr;
  if (!a || !c) return nullptr;
  const bool same = ir::alphaEqual(a, c);
  return ir::Const::makeBool(b->getOpcode() == BO_EQ ? same : !same);
}

// What an owned buffer's initializer makes it (`data_(nullptr)`, `data_(new
// T[n])`, a move constructor's `data_(other.data_)`: a copy of other's
// elements); false when `f` is no owned buffer.
bool Lowering::bufferInit(const FieldDecl *f, const Expr *x, Env &env, LocalArrayInit &start) {
  if (!ownedBuffer(f) || !x) return false;
  x = x->IgnoreParenImpCasts();
  if (isNullPointer(x, ctx_)) return start.size = ir::Const::makeInt(0), true;
  if (bufferMember(x)) {
    start.copyFrom = lowerArrayRef(x, env);
    start.size = ir::Size::make(start.copyFrom);
    return true;
  }
  if (!bufferAllocation(x))
    fail(x->getExprLoc(), "initialising '" + f->getNameAsString() + "', memory its object frees in its destructor, with "
                          "anything but 'new T[n]' or 'nullptr' is not supported (the object owns its elements as a "
                          "std::vector does)");
  start.size = allocatedLength(x, f, env);
  return true;
}

} // namespace unfad::frontend
