// Passive data: the objects a function reads its data from, as C++ code
// passes them,
//
//   struct Dataset { std::string name; std::vector<Obs> obs; std::map<std::string, double> opts; };
//   UNFAD_GRADIENT_WRT(w)
//   double loss(const std::vector<double>& w, const Dataset& d) {
//     for (const Obs& o : d.obs) s += d.opts.at("scale") * sq(w[o.group] * o.x - o.y);
//
// A class holding text or a keyed container anywhere (members, bases,
// elements) has no IR type: the IR has no strings or maps. Read through a
// const reference, a pointer to const or by value, it is passive data, a
// placeholder like a text parameter (text_params.cpp): every number read
// from it (`d.opts.at("scale")`, `o.x`, `data->points(j, i)`) is an
// ir::Opaque spelled as written, the function's integers it reads
// (`d.obs[i]`) at its marks, and computed as written in f_grad; a struct of
// numbers read from it (`Obs o = d.obs[i];`) is the struct of its fields'
// Opaques. Names of parts of it are aliases (PassiveAlias), spelled as what
// they name wherever they are read, their integers fixed where they are
// bound:
// - reference locals (`const Obs& o = d.obs[i];`, `const auto& m =
//   data->model;`) and copies nothing writes;
// - the loop variable of a range-based `for` over a std::vector, std::array
//   or C array in it (a loop over its positions);
// - a helper's parameter given a part of it (`skin(data->model, ...)`): such
//   a helper is lowered into its caller. Given the parameter itself, a
//   helper keeps its own function, the parameter its C++ type.
// The data carries no derivative, so a marked function's parameter of such
// a type must be left out of UNFAD_GRADIENT_WRT when it holds numbers that
// could have one (checkPassiveDataParam): unfad does not drop a derivative
// the user asked for.
#include "lowering.h"

#include <set>

namespace unfad::frontend {

using namespace clang;

namespace {

const ClassTemplateSpecializationDecl *stdTemplate(QualType t) {
  const auto *spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(t.getCanonicalType()->getAsCXXRecordDecl());
  return spec && spec->isInStdNamespace() && spec->getIdentifier() ? spec : nullptr;
}

bool keyedContainer(llvm::StringRef n) {
  return n == "map" || n == "unordered_map" || n == "multimap" || n == "unordered_multimap" || n == "set" ||
         n == "unordered_set" || n == "multiset" || n == "unordered_multiset";
}

// Whether `t` holds a value `leaf` accepts, or (when `keyed`) a keyed
// container, anywhere: through members, bases, C arrays, the elements of
// standard containers and, with `pointers`, what pointer members point to.
bool holds(QualType t, const std::function<bool(QualType)> &leaf, bool keyed, bool pointers,
           std::set<const Type *> &seen) {
  t = t.getNonReferenceType().getCanonicalType();
  if (leaf(t)) return true;
  if (!seen.insert(t.getTypePtr()).second) return false;
  if (const auto *at = t->getAsArrayTypeUnsafe()) return holds(at->getElementType(), leaf, keyed, pointers, seen);
  if (t->isPointerType()) return pointers && holds(t->getPointeeType(), leaf, keyed, pointers, seen);
  if (const auto *spec = stdTemplate(t)) {
    if (keyed && keyedContainer(spec->getName())) return true;
    for (const TemplateArgument &a : spec->getTemplateArgs().asArray())
      if (a.getKind() == TemplateArgument::Type && holds(a.getAsType(), leaf, keyed, pointers, seen)) return true;
    return false;
  }
  const auto *rd = t->getAsCXXRecordDecl();
  if (!rd || !rd->hasDefinition()) return false;
  for (const CXXBaseSpecifier &b : rd->bases())
    if (holds(b.getType(), leaf, keyed, pointers, seen)) return true;
  for (const FieldDecl *f : rd->fields())
    if (holds(f->getType(), leaf, keyed, pointers, seen)) return true;
  return false;
}

} // namespace

bool holdsText(QualType t) {
  std::set<const Type *> seen;
  return holds(t, [](QualType q) { return isText(q); }, /*keyed=*/true, /*pointers=*/false, seen);
}

// A std::vector or std::array of objects holding std::vectors (`const
// std::vector<Layer>& layers` for `struct Layer { std::vector<double> W, b;
// }`): no IR type either, as an array (view_struct_vectors.cpp).
static bool elementsHoldVectors(QualType t) {
  QualType e = stdContainerElement(t, "vector");
  if (e.isNull()) e = stdContainerElement(t, "array");
  const auto *rd = e.isNull() ? nullptr : e.getCanonicalType()->getAsCXXRecordDecl();
  if (!rd || !rd->hasDefinition() || rd->isInStdNamespace() || rd->isLambda()) return false;
  std::set<const Type *> seen;
  return holds(e, [](QualType q) { return !stdContainerElement(q, "vector").isNull(); }, false, false, seen);
}

namespace {
std::set<const CXXRecordDecl *> &declaredPassive() {
  static std::set<const CXXRecordDecl *> classes;
  return classes;
}
} // namespace

void setDeclaredPassiveClasses(std::set<const CXXRecordDecl *> classes) { declaredPassive() = std::move(classes); }

bool declaredPassiveClass(const CXXRecordDecl *rd) {
  return rd && declaredPassive().count(rd->getCanonicalDecl());
}

bool passiveClass(QualType t) {
  return holdsText(t) || declaredPassiveClass(t.getNonReferenceType()->getAsCXXRecordDecl());
}

// What a parameter of type `t` reads when it is read only: `t` itself by
// value, what a const reference or a pointer to const refers to. Null when
// it may be written through.
static QualType readOnlyView(QualType t) {
  QualType v = t.getNonReferenceType();
  bool constant = !t->isReferenceType() || v.isConstQualified();
  if (v->isPointerType()) {
    v = v->getPointeeType();
    constant = v.isConstQualified();
  }
  return constant ? v : QualType();
}

// A user's class (not the standard library's, not a lambda's) read through `v`.
static const CXXRecordDecl *userClass(QualType v) {
  const auto *rd = v.isNull() ? nullptr : v.getCanonicalType()->getAsCXXRecordDecl();
  return rd && rd->hasDefinition() && !rd->isInStdNamespace() && !rd->isLambda() ? rd : nullptr;
}

// The classes of the marked functions' parameters left out of
// UNFAD_GRADIENT_WRT whose members the gradient cannot name (private or
// protected ones: `class Mesh { public: double base(int r, int v) const; private:
// std::vector<double> base_; }`). Mirroring such a parameter is refused, so it
// is passive data instead. Decided for the whole translation unit before
// anything is lowered, so every function sees the class the same way; an
// object of it built inside a function from its values is refused
// (lowerVarDecls), never read as passive.
void Lowering::declarePassiveClasses(const std::vector<const FunctionDecl *> &roots) {
  std::set<const CXXRecordDecl *> classes;
  for (const FunctionDecl *fd : roots) {
    bool hasWrt = false;
    const std::vector<std::string> wrt = wrtList(fd, hasWrt, /*check=*/false); // (checked where fd is lowered)
    if (!hasWrt) continue;
    for (const ParmVarDecl *pd : fd->parameters()) {
      if (std::find(wrt.begin(), wrt.end(), pd->getNameAsString()) != wrt.end()) continue;
      const CXXRecordDecl *rd = userClass(readOnlyView(pd->getType()));
      if (rd && !passiveDataType(pd->getType()) && !unreadableAsWritten(rd).empty())
        classes.insert(rd->getCanonicalDecl());
    }
  }
  setDeclaredPassiveClasses(std::move(classes));
}

bool passiveDataType(QualType t) {
  const QualType v = readOnlyView(t);
  if (v.isNull()) return false;
  if (elementsHoldVectors(v.getCanonicalType().getUnqualifiedType())) return true;
  const CXXRecordDecl *rd = userClass(v);
  return rd && (holdsText(v) || declaredPassiveClass(rd));
}

bool holdsFloats(QualType t) {
  std::set<const Type *> seen;
  return holds(t, [](QualType q) { return q->isRealFloatingType() || q->isAnyComplexType(); }, false, true, seen);
}

bool plainPassiveStruct(QualType t) {
  const auto *rd = t.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
  if (!rd || !rd->hasDefinition() || rd->isInStdNamespace() || !rd->isAggregate() || rd->getNumBases() || rd->isLambda())
    return false;
  unsigned n = 0;
  for (const FieldDecl *f : rd->fields()) {
    if (!f->getType()->isArithmeticType() && !f->getType()->isEnumeralType()) return false;
    ++n;
  }
  return n > 0;
}

void Lowering::checkPassiveDataParam(const ParmVarDecl *pd, bool hasWrt, bool named) {
  if (!passiveDataType(pd->getType())) return;
  const std::string name = pd->getNameAsString(), type = typeStr(pd->getType().getNonReferenceType().getUnqualifiedType());
  const bool text = holdsText(pd->getType());
  const CXXRecordDecl *rd = userClass(readOnlyView(pd->getType()));
  const std::string why = text                      ? "holds text or a keyed container"
                          : declaredPassiveClass(rd) ? "has members that are not public (passive data where it is left "
                                                       "out of UNFAD_GRADIENT_WRT)"
                                                     : "is a container of objects holding std::vectors";
  if (((hasWrt && named) || (!hasWrt && holdsFloats(pd->getType()))) && !text)
    fail(pd->getLocation(), "'" + name + "' (" + type + ") " + why + ": derivatives with respect to it are not "
                            "supported yet (hold its numbers in flat std::vectors, or " +
                                (hasWrt ? std::string("leave it out of UNFAD_GRADIENT_WRT")
                                        : "name the parameters to differentiate in UNFAD_GRADIENT_WRT(...), leaving '" +
                                              name + "' out,") +
                                " to read it as passive data, without derivatives)");
  if (hasWrt && named)
    fail(pd->getLocation(), "'" + name + "' (" + type + ") " + why + ", so it is passive data "
                            "(its numbers are read as written, without derivatives): leave it out of UNFAD_GRADIENT_WRT");
  if (!hasWrt && holdsFloats(pd->getType()))
    fail(pd->getLocation(), "'" + name + "' (" + type + ") " + why + ", so it is passive data, but "
                            "UNFAD_GRADIENT differentiates every floating-point parameter: name the parameters to "
                            "differentiate in UNFAD_GRADIENT_WRT(...), leaving '" + name + "' out");
}

// A name bound to passive data: its spelling, each integer it reads fixed
// where it is bound (a let, unless it is a variable or a constant already:
// the alias is read later, after the function may have changed them).
static void fixArgs(PassiveAlias &a, Binds &binds, ir::NameSupply &names) {
  for (ir::Expr &v : a.args)
    if (!v->is<ir::Var>() && !v->is<ir::Const>()) {
      std::string n = names.fresh("at");
      binds.push_back({n, v});
      v = ir::Var::make(n, v->type);
    }
}

// An iterator of the standard library's containers (`auto it =
// index.find(word);`): a position in passive data when it is made from it.
static bool libraryIterator(QualType t) {
  const auto *rd = t.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
  if (!rd || !rd->getIdentifier() || !rd->getName().ends_with("iterator")) return false;
  for (const DeclContext *dc = rd->getDeclContext(); dc; dc = dc->getParent()) // (std::__detail::...)
    if (dc->isStdNamespace()) return true;
  return false;
}

bool Lowering::passiveLocal(const VarDecl *vd) {
  const Expr *init = vd->getInit();
  // (`const double& x0 = x[kind.size()]` reads the text but names an element of x: not an alias)
  if (!sawTextParams_ || !init || isa<ParmVarDecl>(vd) || !readsOnlyPassive(init)) return false;
  QualType t = vd->getType();
  if (t->isReferenceType()) return t.getNonReferenceType().isConstQualified() || passiveDataType(t);
  return passiveDataType(t) || libraryIterator(t);
}

ir::Expr Lowering::lowerPassiveLocal(const VarDecl *vd, Env &env, const std::function<ir::Expr(Env &)> &next) {
  const auto *fn = dyn_cast_or_null<FunctionDecl>(vd->getParentFunctionOrMethod());
  if (!vd->getType()->isReferenceType() && (!fn || writes(fn->getBody(), vd)))
    fail(vd->getLocation(), "a copy of passive data that is written later is not supported (bind a const reference)");
  Binds pre;
  PassiveAlias a;
  if (!spellPassive(vd->getInit(), env, pre, a))
    fail(vd->getInit()->getExprLoc(), "'" + vd->getNameAsString() + "' names passive data, but its initialiser reads "
                                      "other values of the function (only integers may choose the part named)");
  fixArgs(a, pre, names_);
  passiveAliases_[vd] = std::move(a);
  return wrap(pre, next(env));
}

// A helper's parameter that takes passive data: given more than a text-like
// parameter itself (a part of the data, an alias of it).
// (`aliased`: arg is a helper's parameter naming a part already: that part)
static bool passiveParamGivenPart(const ParmVarDecl *p, const Expr *arg, bool aliased) {
  QualType t = p->getType();
  // (text itself is passed as a string of its own: text_params.cpp)
  bool takesData = (isTextLike(t) && !isText(t)) ||
                   (t->isReferenceType() && t.getNonReferenceType().isConstQualified() &&
                    t.getNonReferenceType()->isRecordType() && !isTextLike(t));
  const auto *d = dyn_cast<DeclRefExpr>(arg->IgnoreParenImpCasts());
  bool parameter = !aliased && d && isa<ParmVarDecl>(d->getDecl()) && isTextLike(cast<ParmVarDecl>(d->getDecl())->getType());
  return takesData && !parameter;
}

// `p` given `arg`, a part of passive data the helper then names: not a
// struct of numbers (read field by field, lowerTextExpr), and reading
// nothing but text, passive data and integers (`opts(Options{kind.size(),
// w[0]})` reads a float too: an ordinary argument).
bool Lowering::takesPassivePart(const ParmVarDecl *p, const Expr *arg) {
  const auto *d = dyn_cast<DeclRefExpr>(arg->IgnoreParenImpCasts());
  const auto *given = d ? dyn_cast<ParmVarDecl>(d->getDecl()) : nullptr;
  return sawTextParams_ && passiveParamGivenPart(p, arg, given && passiveAliases_.count(given)) && !plainPassiveStruct(p->getType()) && readsOnlyPassive(arg);
}

bool Lowering::passesPassiveData(const CallExpr *ce, const FunctionDecl *fd) {
  const FunctionDecl *def = fd->getDefinition();
  if (!def || !def->hasBody() || def->getNumParams() != ce->getNumArgs()) return false;
  for (unsigned k = 0; k < ce->getNumArgs(); ++k)
    if (takesPassivePart(def->getParamDecl(k), ce->getArg(k))) return true;
  return false;
}

bool Lowering::bindPassiveParam(const ParmVarDecl *p, const Expr *arg, Env &env, Binds &binds) {
  passiveAliases_.erase(p); // (what an earlier call gave it)
  if (!takesPassivePart(p, arg)) return false;
  PassiveAlias a;
  if (!spellPassive(arg, env, binds, a))
    fail(arg->getExprLoc(), "this argument names passive data, but reads other values of the function (only "
                            "integers may choose the part passed)");
  fixArgs(a, binds, names_);
  passiveAliases_[p] = std::move(a);
  return true;
}

// The element `i` of the passive array `over`: `over[i]`, i one more mark.
static PassiveAlias passiveElement(const PassiveAlias &over, const ir::Expr &i) {
  PassiveAlias element = over;
  element.spelling = grouped(over.spelling) + "[" + std::string(1, ir::Throw::kArg) + "]";
  element.args.push_back(i);
  return element;
}

// An array of numbers in passive data used as an array (`std::vector<double>
// h = s.x;`, `layer(w, s.x)`): a copy, its length and each element read as
// written. Null when `e` is no such array.
ir::Expr Lowering::passiveArrayCopy(const Expr *e, Env &env) {
  ArrayInfo ai;
  if (!sawTextParams_ || !readsOnlyPassive(e) || !arrayInfo(e->getType(), ai, SourceLocation()) ||
      ai.kind == ArrayInfo::Pointer || !(ai.elem->isArithmeticType()))
    return nullptr;
  SourceLocation loc = e->getExprLoc();
  if (!effects_) fail(loc, "an array of passive data used as an array here is not supported (copy it into a local first)");
  Binds &pre = *effects_;
  PassiveAlias a;
  if (!spellPassive(e, env, pre, a)) return nullptr;
  fixArgs(a, pre, names_);
  const ir::TypeP et = typeOf(ai.elem.getUnqualifiedType(), loc);
  const ir::Expr n = ai.size >= 0 ? ir::Const::makeInt(ai.size) : passiveRangeLength(e, a);
  const std::string len = names_.fresh("passive_size"), name = names_.fresh("passive");
  pre.push_back({len, n});
  const ir::Expr size = ir::Var::make(len, ir::Type::i64()), copy = ir::Var::make(name, ir::Type::array(et));
  pre.push_back({name, ir::NewArray::make(size, et)});
  pre.push_back({names_.fresh("_"), effectLoop(size, [&](const ir::Expr &j) {
                   const PassiveAlias x = passiveElement(a, j);
                   return store(copy, j, ir::Opaque::make(x.spelling, x.args, et, true), ir::Store::Mode::Set, loc);
                 })});
  localLengths_[name] = size;
  return copy;
}

bool Lowering::passiveRange(const Expr *range) {
  if (!sawTextParams_ || !range || !readsPassive(range)) return false;
  QualType t = range->getType().getNonReferenceType();
  if (t->isConstantArrayType()) return true;
  const auto *spec = stdTemplate(t);
  llvm::StringRef n = spec ? spec->getName() : "";
  if (n == "vector" || n == "array" || n == "deque") return true;
  fail(range->getExprLoc(), "range-based 'for' over passive data of type '" + typeStr(t) +
                                "' is not supported (only std::vector, std::array, std::deque and C arrays in it, "
                                "which are read by position)");
}

ir::Expr Lowering::passiveRangeLength(const Expr *range, const PassiveAlias &over) {
  QualType t = range->getType().getNonReferenceType();
  if (const auto *ca = dyn_cast_or_null<ConstantArrayType>(t->getAsArrayTypeUnsafe()))
    return ir::Const::makeInt(int64_t(ca->getSize().getZExtValue()));
  return ir::Opaque::make("static_cast<long>(" + grouped(over.spelling) + ".size())", over.args, ir::Type::i64(), true);
}

void Lowering::bindPassiveElement(const CXXForRangeStmt *rs, const PassiveAlias &over, const ir::Expr &i) {
  const VarDecl *lv = rs->getLoopVariable();
  if (isa<DecompositionDecl>(lv))
    fail(lv->getLocation(), "structured bindings over passive data are not supported (name the element)");
  if (writes(rs->getBody(), lv))
    fail(lv->getLocation(), "the loop variable over passive data is written in the loop, which is not supported");
  passiveAliases_[lv] = passiveElement(over, i);
}

} // namespace unfad::frontend
