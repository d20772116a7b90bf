// Classes and structs with array members of a constant size: `double r[3]`,
// `std::array<double, 3> c`, `Vec3 corners[8]`, `double m[3][3]`.
//
// Such a member is its elements, each a field of the object's IR struct of
// its own, named as C++ names it (`r[0]`, `r[1]`, `m[2][1]`): the object
// stays a value (copies, loop state, parameters and results of helpers,
// adjoints are what they are for any struct), and the generated code reads
// and writes the elements as written, `d_v.r[1] += ...`. A mirrored class
// (class_layout.cpp) declares the member as an array again (`double r[3];`,
// printer/mirrors.cpp); an aggregate is built with braces, which C++ fills
// element by element (`P{x, y, z, m}` for `struct P { double pos[3]; double
// m; }`).
//
// An element is found at lowering time, so its index must be a constant:
// a literal, an expression of constants, or the index of a counted loop
// with constant bounds, which is unrolled when its body indexes a member
// array (lowerUnrolledFor: `for (int i = 0; i < 3; ++i) r[i] += o.r[i];`
// becomes three statements, as a compiler would make it). A read with any
// other index selects among the elements (`k == 0 ? r[0] : k == 1 ? r[1] :
// r[2]`); a write with one is refused at the index. Accessors returning a
// reference to an element (`double& operator[](int i) { return r[i]; }`,
// their body one `return`) designate the element for writes
// (`v[1] = x`, `m(i, j) += y`), as the member itself would.
#include "lowering.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include <optional>

namespace unfad::frontend {

using namespace clang;

// The number of elements of a member of type `t` held as fields (a C array
// or a std::array of a constant size; 0 for anything else) and their type.
int64_t memberArrayLength(QualType t, QualType *elem) {
  QualType ct = t.getCanonicalType();
  if (const auto *ca = dyn_cast<ConstantArrayType>(ct.getTypePtr())) {
    if (elem) *elem = ca->getElementType();
    return int64_t(ca->getSize().getZExtValue());
  }
  const auto *sd = dyn_cast_or_null<ClassTemplateSpecializationDecl>(ct->getAsCXXRecordDecl());
  if (!sd || !sd->isInStdNamespace() || sd->getName() != "array" || sd->getTemplateArgs().size() != 2) return 0;
  const TemplateArgument &n = sd->getTemplateArgs()[1];
  if (n.getKind() != TemplateArgument::Integral || sd->getTemplateArgs()[0].getKind() != TemplateArgument::Type) return 0;
  if (elem) *elem = sd->getTemplateArgs()[0].getAsType();
  return n.getAsIntegral().getExtValue();
}

// How many IR fields a data member of type `t` takes.
int64_t memberWidth(QualType t) {
  QualType el;
  int64_t n = memberArrayLength(t, &el);
  return n > 0 ? n * memberWidth(el) : 1;
}

// The IR field of a data member (its first element's, for an array): after
// the base object, if any, and the fields of the members before it.
int Lowering::fieldIndex(const FieldDecl *f) {
  const auto *crd = dyn_cast<CXXRecordDecl>(f->getParent());
  int64_t k = crd && crd->getNumBases() && !tupleLikeRecord(crd) ? 1 : 0; // (std::pair's empty base: pairs_tuples.cpp)
  for (const FieldDecl *g : f->getParent()->fields()) {
    if (g == f) break;
    k += memberWidth(g->getType());
  }
  return int(k);
}

namespace {

constexpr int64_t kMaxMemberElements = 64;

// An integer the index expression `e` always has (constants folded), if any.
std::optional<int64_t> constantIndex(const ir::Expr &e) {
  if (const auto *c = e->as<ir::Const>()) {
    if (!e->type->isInt()) return std::nullopt;
    return c->ivalue;
  }
  const auto *p = e->as<ir::Prim>();
  if (!p || !e->type->isInt()) return std::nullopt;
  std::vector<int64_t> v;
  for (const ir::Expr &a : p->args) {
    std::optional<int64_t> k = constantIndex(a);
    if (!k) return std::nullopt;
    v.push_back(*k);
  }
  switch (p->op) {
  case ir::Op::Add: return v[0] + v[1];
  case ir::Op::Sub: return v[0] - v[1];
  case ir::Op::Mul: return v[0] * v[1];
  case ir::Op::Neg: return -v[0];
  case ir::Op::Cast: return v[0];
  case ir::Op::Div: if (v[1] != 0) return v[0] / v[1]; return std::nullopt;
  case ir::Op::Mod: if (v[1] != 0) return v[0] % v[1]; return std::nullopt;
  default: return std::nullopt;
  }
}

const Expr *stripImplicit(const Expr *e) {
  while (true) {
    e = e->IgnoreParens();
    if (const auto *c = dyn_cast<ImplicitCastExpr>(e);
        c && (c->getCastKind() == CK_NoOp || c->getCastKind() == CK_ArrayToPointerDecay ||
              c->getCastKind() == CK_LValueToRValue))
      e = c->getSubExpr();
    else if (const auto *m = dyn_cast<MaterializeTemporaryExpr>(e)) e = m->getSubExpr();
    else return e;
  }
}

} // namespace

// Adds the fields of data member `name` of type `t` to a struct's fields:
// one, or one per element of an array member.
void Lowering::addMemberFields(const std::string &name, QualType t, const FieldDecl *f,
                               std::vector<std::string> &fields, std::vector<ir::TypeP> &types) {
  QualType el;
  int64_t n = memberArrayLength(t, &el);
  if (n <= 0) {
    fields.push_back(name);
    types.push_back(typeOf(t, f->getLocation()));
    return;
  }
  if (memberWidth(t) > kMaxMemberElements)
    fail(f->getLocation(), "member array '" + f->getNameAsString() + "' is too large: members of up to " +
                               std::to_string(kMaxMemberElements) + " elements are supported (use a std::vector parameter)");
  for (int64_t k = 0; k < n; ++k) addMemberFields(name + "[" + std::to_string(k) + "]", el, f, fields, types);
}

// Appends the values of data member `f` (of type `t`, starting at field
// `at` of the struct type `st`) initialised by `init` (null: zero).
void Lowering::memberValues(const Expr *init, QualType t, const ir::TypeP &st, Env &env, std::vector<ir::Expr> &es) {
  QualType el;
  int64_t n = memberArrayLength(t, &el);
  if (init)
    if (const auto *d = dyn_cast<CXXDefaultInitExpr>(init)) init = d->getExpr();
  if (n <= 0) {
    ir::TypeP ft = st->elems.at(es.size());
    es.push_back(init ? convert(lowerExpr(init, env), ft) : ir::Const::zero(ft));
    return;
  }
  const Expr *x = init ? init->IgnoreImplicit() : nullptr;
  if (x && (isa<ImplicitValueInitExpr>(x) || (isa<CXXConstructExpr>(x) && cast<CXXConstructExpr>(x)->getNumArgs() == 0)))
    x = nullptr;
  const auto *il = dyn_cast_or_null<InitListExpr>(x);
  if (il && il->isSyntacticForm() && il->getSemanticForm()) il = il->getSemanticForm();
  if (x && !il)
    fail(x->getExprLoc(), "this initialiser of a member array is not supported (initialise it with braces, "
                          "'{a, b, c}', or element by element)");
  if (il && t->isRecordType()) { // std::array: the braces around its C array, elided or not
    const Expr *inner = il->getNumInits() ? il->getInit(0) : nullptr;
    memberValues(inner, inner ? inner->getType() : QualType(), st, env, es);
    return;
  }
  for (int64_t k = 0; k < n; ++k) {
    const Expr *e = il && k < int64_t(il->getNumInits()) ? il->getInit(unsigned(k)) : nullptr;
    memberValues(e, el, st, env, es);
  }
}

// `obj.c = {x, y}` of a std::array member held as fields: the values of
// its fields (the braces' elements, zero for the rest), the first being
// field `first` of the object's struct `st`. Empty when `lhs` is no member
// array or `rhs` no braces.
std::vector<ir::Expr> Lowering::memberArrayAssigned(const Expr *lhs, const Expr *rhs, const ir::TypeP &st, int first,
                                                    Env &env) {
  const auto *m = rhs ? dyn_cast<MemberExpr>(lhs->IgnoreParens()) : nullptr;
  const auto *f = m ? dyn_cast<FieldDecl>(m->getMemberDecl()) : nullptr;
  const InitListExpr *r = rhs ? bracedElements(rhs) : nullptr;
  if (!f || memberArrayLength(f->getType(), nullptr) <= 0 || !r || !st->isStruct()) return {};
  std::vector<ir::Expr> es(size_t(first), nullptr); // (memberValues types field es.size())
  memberValues(r, f->getType(), st, env, es);
  return std::vector<ir::Expr>(es.begin() + first, es.end());
}

// `r[i]`, `obj.r[i]`, `obj.c[i]` (std::array), `obj.m[i][j]`, `p->r[i]`:
// the member array and the indices of one of its elements.
const MemberExpr *memberArrayShape(const Expr *e, std::vector<const Expr *> &idx) {
  idx.clear();
  e = stripImplicit(e);
  while (true) {
    if (const auto *m = dyn_cast<MemberExpr>(e)) {
      const auto *f = dyn_cast<FieldDecl>(m->getMemberDecl());
      if (!f || idx.empty()) return nullptr;
      QualType t = f->getType();
      for (size_t k = 0; k < idx.size(); ++k) {
        QualType el;
        if (memberArrayLength(t, &el) <= 0) return nullptr;
        t = el;
      }
      return memberArrayLength(t, nullptr) > 0 ? nullptr : m; // an element, not a row
    }
    if (const auto *a = dyn_cast<ArraySubscriptExpr>(e)) {
      idx.insert(idx.begin(), a->getIdx());
      e = stripImplicit(a->getBase());
      continue;
    }
    const auto *oc = dyn_cast<CXXOperatorCallExpr>(e);
    if (oc && oc->getOperator() == OO_Subscript && oc->getNumArgs() == 2 &&
        memberArrayLength(oc->getArg(0)->getType().getNonReferenceType(), nullptr) > 0) {
      idx.insert(idx.begin(), oc->getArg(1));
      e = stripImplicit(oc->getArg(0));
      continue;
    }
    return nullptr;
  }
}

// The element's field offset from the member's first field, as IR (row
// major), given the lowered indices.
ir::Expr Lowering::memberArrayOffset(const MemberExpr *m, const std::vector<const Expr *> &idx, Env &env) {
  QualType t = m->getMemberDecl()->getType();
  ir::Expr off = ir::Const::makeInt(0);
  for (const Expr *i : idx) {
    QualType el;
    memberArrayLength(t, &el);
    ir::Expr scaled = ir::Prim::make(ir::Op::Mul, {lowerIndexExpr(i, env), ir::Const::makeInt(memberWidth(el))});
    off = ir::Prim::make(ir::Op::Add, {off, scaled});
    t = el;
  }
  return off;
}

// The constant field offset of element `e` of a member array (see the
// file comment); false when `e` is no such element. A write needs one.
bool Lowering::memberArrayElement(const Expr *e, Env &env, const MemberExpr *&member, int64_t &offset) {
  std::vector<const Expr *> idx;
  member = memberArrayShape(e, idx);
  if (!member) return false;
  std::optional<int64_t> k = constantIndex(memberArrayOffset(member, idx, env));
  std::string name = member->getMemberDecl()->getNameAsString();
  if (!k)
    fail(e->getExprLoc(), "writes to an element of member array '" + name + "' need a constant index (or the index of "
                          "a counted loop with constant bounds, which is unrolled)");
  if (*k < 0 || *k >= memberWidth(member->getMemberDecl()->getType()))
    fail(e->getExprLoc(), "index " + std::to_string(*k) + " is out of the bounds of member array '" + name + "'");
  offset = *k;
  return true;
}

// The member array `m`'s first element, a field of its object's struct
// (lowerMember, asked for it).
ir::Expr Lowering::memberFirstElement(const MemberExpr *m, Env &env) {
  struct Flag {
    bool &slot, saved;
    ~Flag() { slot = saved; }
  } flag{indexingMember_, indexingMember_};
  indexingMember_ = true;
  return lowerExpr(m, env);
}

// A read of an element of a member array; null when `e` is none.
ir::Expr Lowering::lowerMemberArrayRead(const Expr *e, Env &env) {
  std::vector<const Expr *> idx;
  const MemberExpr *m = memberArrayShape(e, idx);
  if (!m) return nullptr;
  SourceLocation loc = e->getExprLoc();
  ir::Expr off = memberArrayOffset(m, idx, env);
  const ir::Expr obj = memberFirstElement(m, env);
  const auto *first = obj->as<ir::Proj>();
  if (!first) fail(loc, "this member array is not supported here");
  ir::Expr whole = first->tuple;
  int64_t n = memberWidth(m->getMemberDecl()->getType());
  if (std::optional<int64_t> k = constantIndex(off)) {
    if (*k < 0 || *k >= n)
      fail(loc, "index " + std::to_string(*k) + " is out of the bounds of member array '" +
                    m->getMemberDecl()->getNameAsString() + "'");
    return ir::Proj::make(whole, first->index + int(*k));
  }
  const ir::Expr &ov = off;
  ir::Expr v = ir::Proj::make(whole, first->index + int(n - 1));
  for (int64_t k = n - 2; k >= 0; --k) // (an index out of bounds is undefined in C++: the last element)
    v = ir::If::make(ir::Prim::make(ir::Op::Eq, {ov, ir::Const::makeInt(k)}), ir::Proj::make(whole, first->index + int(k)), v);
  return v;
}

// The elements of a whole member array (`p_` in `return p_;`,
// `std::array<double, 2> q = body.p_;`): what a copy of it starts as. Empty
// when `e` is no member array held as fields.
std::vector<ir::Expr> Lowering::memberArrayElements(const Expr *e, Env &env) {
  const auto *m = dyn_cast<MemberExpr>(stripImplicit(e));
  QualType elem;
  if (!m || memberArrayLength(m->getMemberDecl()->getType(), &elem) <= 0) return {};
  const ir::Expr obj = memberFirstElement(m, env);
  const auto *first = obj->as<ir::Proj>();
  if (!first) return {};
  std::vector<ir::Expr> elems;
  for (int64_t k = 0; k < memberWidth(m->getMemberDecl()->getType()); ++k)
    elems.push_back(ir::Proj::make(first->tuple, first->index + int(k)));
  return elems;
}

// A call of method `def` (`obj.m(a, b)` or `obj(a, b)` / `obj[a]`): its
// object and its arguments, one per parameter.
bool methodCallParts(const CallExpr *ce, const CXXMethodDecl *def, const Expr *&object,
                     std::vector<const Expr *> &args) {
  if (const auto *mc = dyn_cast<CXXMemberCallExpr>(ce)) {
    object = mc->getImplicitObjectArgument();
    args.assign(mc->arg_begin(), mc->arg_end());
  } else if (isa<CXXOperatorCallExpr>(ce)) {
    object = ce->getArg(0);
    args.assign(ce->arg_begin() + 1, ce->arg_end());
  } else {
    return false;
  }
  return args.size() == def->getNumParams();
}

// An accessor: a method returning a reference whose body is `return E;`
// with `E` a member of its object or an element of one.
const Expr *accessorReturn(const Expr *e, const CXXMethodDecl *&m, const Expr *&object,
                                     std::vector<const Expr *> &args) {
  e = stripImplicit(e);
  const auto *ce = dyn_cast<CallExpr>(e);
  if (!ce) return nullptr;
  const auto *md = dyn_cast_or_null<CXXMethodDecl>(ce->getDirectCallee());
  if (!md || md->isStatic() || !md->getReturnType()->isLValueReferenceType()) return nullptr;
  const auto *def = dyn_cast_or_null<CXXMethodDecl>(md->getDefinition());
  const Expr *value = singleReturnValue(def);
  if (!value) return nullptr;
  const Expr *r = stripImplicit(value);
  std::vector<const Expr *> idx;
  const auto *mem = memberArrayShape(r, idx);
  if (!mem) mem = dyn_cast<MemberExpr>(r);
  if (!mem || !isa<CXXThisExpr>(stripImplicit(mem->getBase()))) return nullptr;
  m = def;
  return methodCallParts(ce, def, object, args) ? r : nullptr;
}

// The field path (relative to the object) an accessor call designates;
// its arguments must be constants then. False when `e` is no accessor call.
bool Lowering::accessorPath(const Expr *e, Env *env, const Expr *&object, std::vector<int> &path) {
  const CXXMethodDecl *m = nullptr;
  std::vector<const Expr *> args;
  const Expr *r = accessorReturn(e, m, object, args);
  if (!r) return false;
  std::vector<const Expr *> idx;
  const MemberExpr *mem = memberArrayShape(r, idx);
  int64_t k = 0;
  if (mem && env) { // the indices, from the arguments bound to the parameters
    Env inner = *env;
    for (unsigned a = 0; a < args.size(); ++a) {
      EffectScope none(*this, nullptr, "the arguments of an accessor that is written through");
      inner[m->getParamDecl(a)] = convert(lowerExpr(args[a], *env), ir::Type::i64());
    }
    std::optional<int64_t> c = constantIndex(memberArrayOffset(mem, idx, inner));
    if (!c)
      fail(e->getExprLoc(), "writes through '" + m->getNameAsString() + "' need constant arguments (or the index of a "
                            "counted loop with constant bounds, which is unrolled)");
    if (*c < 0 || *c >= memberWidth(mem->getMemberDecl()->getType()))
      fail(e->getExprLoc(), "index " + std::to_string(*c) + " is out of the bounds of member array '" +
                                mem->getMemberDecl()->getNameAsString() + "'");
    k = *c;
  }
  if (!mem) mem = cast<MemberExpr>(r);
  path.push_back(fieldIndex(cast<FieldDecl>(mem->getMemberDecl())) + int(k));
  return true;
}

bool isMemberArrayBase(const Expr *e);
bool holdsMemberArray(const CXXRecordDecl *rd, int depth);

namespace {

// Whether `s` indexes a member array or calls an accessor of an object
// with `iv` in the index, and has no jumps out of it.
class NeedsUnrolling : public RecursiveASTVisitor<NeedsUnrolling> {
public:
  const VarDecl *iv;
  bool uses = false, jumps = false;
  explicit NeedsUnrolling(const VarDecl *v) : iv(v) {}
  bool mentions(const Stmt *s) {
    if (const auto *d = dyn_cast<DeclRefExpr>(s); d && d->getDecl() == iv) return true;
    for (const Stmt *c : s->children())
      if (c && mentions(c)) return true;
    return false;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *a) {
    if (isMemberArrayBase(a->getBase()) && mentions(a->getIdx())) uses = true;
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *oc) {
    bool sub = oc->getOperator() == OO_Subscript || oc->getOperator() == OO_Call;
    if (!sub || oc->getNumArgs() < 2) return true;
    bool member = isMemberArrayBase(oc->getArg(0));
    const CXXRecordDecl *rd = oc->getArg(0)->getType()->getAsCXXRecordDecl();
    bool holds = rd && rd->hasDefinition() && !rd->isInStdNamespace() && holdsMemberArray(rd, 0);
    if (member || holds)
      for (unsigned k = 1; k < oc->getNumArgs(); ++k)
        if (mentions(oc->getArg(k))) uses = true;
    return true;
  }
  bool VisitBreakStmt(BreakStmt *) { return jumps = true; }
  bool VisitContinueStmt(ContinueStmt *) { return jumps = true; }
  bool VisitReturnStmt(ReturnStmt *) { return jumps = true; }
  bool VisitLambdaExpr(LambdaExpr *) { return jumps = true; } // (its body is no part of the loop's)
  bool VisitSwitchStmt(SwitchStmt *) { return jumps = true; }
};

} // namespace

bool isMemberArrayBase(const Expr *e) {
  e = stripImplicit(e);
  while (const auto *a = dyn_cast<ArraySubscriptExpr>(e)) e = stripImplicit(a->getBase());
  const auto *m = dyn_cast<MemberExpr>(e);
  return m && isa<FieldDecl>(m->getMemberDecl()) && memberArrayLength(m->getMemberDecl()->getType(), nullptr) > 0;
}

bool holdsMemberArray(const CXXRecordDecl *rd, int depth) {
  if (depth > 8 || !rd->hasDefinition()) return false;
  for (const FieldDecl *f : rd->fields()) {
    if (memberArrayLength(f->getType(), nullptr) > 0) return true;
    if (const CXXRecordDecl *frd = f->getType()->getAsCXXRecordDecl(); frd && holdsMemberArray(frd, depth + 1)) return true;
  }
  for (const CXXBaseSpecifier &b : rd->bases())
    if (const CXXRecordDecl *brd = b.getType()->getAsCXXRecordDecl(); brd && holdsMemberArray(brd, depth + 1)) return true;
  return false;
}

// A counted loop with constant bounds (at most kMaxMemberElements
// iterations) whose body indexes a member array with its index, unrolled:
// its body lowered once per index value, the index a constant in each.
// Null when the loop is not such a loop.
ir::Expr Lowering::lowerUnrolledFor(const ForStmt *fs, const Counted &c, const Seq *rest, Env &env, const Tail &tail) {
  const Stmt *body = fs->getBody();
  NeedsUnrolling scan(c.index);
  scan.TraverseStmt(const_cast<Stmt *>(body));
  if (!scan.uses || scan.jumps) return nullptr;
  ir::Expr start = tryConstant(c.index->getInit());
  ir::Expr bound = tryConstant(c.bound);
  std::optional<int64_t> s = start ? constantIndex(convert(start, ir::Type::i64())) : std::nullopt;
  std::optional<int64_t> b = bound ? constantIndex(convert(bound, ir::Type::i64())) : std::nullopt;
  if (!s || !b) return nullptr;
  int64_t bnd = *b - c.offset + (c.adjust ? 1 : 0); // increasing: below it; reversed: from it
  std::vector<int64_t> values;
  if (!c.reversed)
    for (int64_t v = *s; v < bnd && values.size() <= size_t(kMaxMemberElements); v += c.stride) values.push_back(v);
  else
    for (int64_t v = *s; v >= bnd && values.size() <= size_t(kMaxMemberElements); v -= c.stride) values.push_back(v);
  if (values.size() > size_t(kMaxMemberElements)) return nullptr;
  std::function<ir::Expr(size_t, Env &)> step = [&](size_t k, Env &e) -> ir::Expr {
    if (k == values.size()) {
      e.erase(c.index);
      return lowerSeq(rest, e, tail);
    }
    e[c.index] = ir::Const::makeInt(values[k]);
    Seq one{&body, &body + 1, nullptr};
    return lowerSeq(&one, e, [&, k](Env &e2) { return step(k + 1, e2); });
  };
  return step(0, env);
}

// `for (double x : d_)` (or `const double& x`) over a member array of a
// constant length: unrolled as lowerUnrolledFor does, x each element's
// value in turn. Null when the range is no member array, the variable may
// write an element (`double& x`), or the body leaves the loop early.
ir::Expr Lowering::lowerMemberArrayRangeFor(const CXXForRangeStmt *rs, const Seq *rest, Env &env, const Tail &tail) {
  const auto *m = dyn_cast_or_null<MemberExpr>(rs->getRangeInit() ? rs->getRangeInit()->IgnoreParenImpCasts() : nullptr);
  const auto *field = m ? dyn_cast<FieldDecl>(m->getMemberDecl()) : nullptr;
  QualType et;
  const int64_t n = field ? memberArrayLength(field->getType(), &et) : 0;
  const VarDecl *lv = rs->getLoopVariable();
  QualType lt = lv->getType();
  if (n <= 0 || (lt->isReferenceType() && !lt.getNonReferenceType().isConstQualified())) return nullptr;
  NeedsUnrolling scan(lv);
  scan.TraverseStmt(const_cast<Stmt *>(rs->getBody()));
  if (scan.jumps) return nullptr;
  std::vector<int> path;
  const VarDecl *root = assignedRoot(m, path, false);
  if (!root || path.empty()) return nullptr;
  const Stmt *body = rs->getBody();
  ir::TypeP t = typeOf(lt.getNonReferenceType().getUnqualifiedType(), lv->getLocation());
  std::function<ir::Expr(int64_t, Env &)> step = [&](int64_t k, Env &e) -> ir::Expr {
    if (k == n) {
      e.erase(lv);
      return lowerSeq(rest, e, tail);
    }
    std::vector<int> at = path;
    at.back() += int(k);
    // (the element as it is now: the body may have written the object)
    ir::Expr value = convert(readPath(lookupVar(root, e, rs->getForLoc()), at), t);
    const std::string name = names_.fresh(lv->getNameAsString());
    e[lv] = ir::Var::make(name, t);
    Seq one{&body, &body + 1, nullptr};
    return ir::Let::make(name, value, lowerSeq(&one, e, [&, k](Env &e2) { return step(k + 1, e2); }));
  };
  return step(0, env);
}

} // namespace unfad::frontend

namespace unfad::frontend {

using namespace clang;

// assignedRoot of an element of a member array or of an accessor call: the
// variable the object is in, and the path to the element.
bool Lowering::memberElementRoot(const Expr *lhs, std::vector<int> &path, bool diagnose, const VarDecl *&root) {
  std::vector<const Expr *> idx;
  const Expr *object = nullptr;
  std::vector<int> sub;
  if (const MemberExpr *m = memberArrayShape(lhs, idx)) {
    if (!indexEnv_ && diagnose) fail(lhs->getExprLoc(), "this write to an element of a member array is not supported here");
    root = assignedRoot(m, path, diagnose);
    const MemberExpr *mm = nullptr;
    int64_t k = 0;
    if (root && indexEnv_ && memberArrayElement(lhs, *indexEnv_, mm, k)) path.back() += int(k);
    return true;
  }
  if (!accessorPath(lhs, indexEnv_, object, sub)) return false;
  if (!indexEnv_ && diagnose) fail(lhs->getExprLoc(), "this write through an accessor is not supported here");
  root = assignedRoot(object, path, diagnose);
  path.insert(path.end(), sub.begin(), sub.end());
  return true;
}

// `r.fill(v)` of a member std::array (`d_.fill(0.0)` in a constructor):
// each element set to v, then `rest`. False when `e` is no such call.
bool Lowering::lowerMemberArrayFill(const Expr *e, const Seq *rest, Env &env, const Tail &tail, ir::Expr &out) {
  const auto *mc = dyn_cast<CXXMemberCallExpr>(e->IgnoreImplicit()->IgnoreParens()); // (cleanups of `fill(v * v)`)
  const CXXMethodDecl *md = mc ? mc->getMethodDecl() : nullptr;
  if (!md || !md->getIdentifier() || md->getName() != "fill" || mc->getNumArgs() != 1) return false;
  const auto *m = dyn_cast<MemberExpr>(mc->getImplicitObjectArgument()->IgnoreParenImpCasts());
  const auto *field = m ? dyn_cast<FieldDecl>(m->getMemberDecl()) : nullptr;
  QualType et;
  const int64_t n = field ? memberArrayLength(field->getType(), &et) : 0;
  if (n <= 0) return false;
  std::vector<int> path;
  const VarDecl *root = assignedRoot(m, path, true);
  if (!root || path.empty()) fail(mc->getExprLoc(), "'fill' of this member array is not supported (write its elements)");
  Binds pre;
  ir::Expr v;
  {
    EffectScope es(*this, &pre);
    v = lowerExpr(mc->getArg(0), env);
  }
  const std::string vn = names_.fresh(field->getNameAsString() + "_fill");
  pre.push_back({vn, v});
  ir::Expr cur = lookupVar(root, env, mc->getExprLoc());
  for (int64_t k = 0; k < n; ++k) {
    std::vector<int> at = path;
    at.back() += int(k);
    cur = updatePath(cur, at, 0, ir::Var::make(vn, v->type));
  }
  out = wrap(pre, bindAndContinue(root, cur, rest, env, tail));
  return true;
}

// lvalueTarget of an element of a member array or of an accessor call
// (true when `e` is one; `ok` then says whether it is a target).
bool Lowering::memberElementTarget(const Expr *e, Env &env, RefTarget &t, Binds &binds, bool &ok) {
  std::vector<const Expr *> idx;
  if (const MemberExpr *m = memberArrayShape(e, idx)) {
    const MemberExpr *mm = nullptr;
    int64_t k = 0;
    memberArrayElement(e, env, mm, k);
    ok = lvalueTarget(m, env, t, binds);
    if (ok) t.path.back() += int(k);
    return true;
  }
  const Expr *object = nullptr;
  std::vector<int> sub;
  if (!accessorPath(e, &env, object, sub)) return false;
  ok = lvalueTarget(object, env, t, binds);
  if (ok) t.path.insert(t.path.end(), sub.begin(), sub.end());
  return true;
}

// One step of lowerArrayStore's walk from an assigned element to the array
// it is in: an element of a member array (the member next, `pending` its
// offset) or an accessor call (the object next, its path prepended).
bool Lowering::peelMemberElement(const Expr *&base, Env &env, std::vector<int> &path, int64_t &pending) {
  std::vector<const Expr *> idx;
  if (const MemberExpr *m = memberArrayShape(base, idx)) {
    const MemberExpr *mm = nullptr;
    memberArrayElement(base, env, mm, pending);
    base = m;
    return true;
  }
  const Expr *object = nullptr;
  std::vector<int> sub;
  if (!accessorPath(base, &env, object, sub)) return false;
  path.insert(path.begin(), sub.begin(), sub.end());
  base = object->IgnoreParens();
  return true;
}

} // namespace unfad::frontend
