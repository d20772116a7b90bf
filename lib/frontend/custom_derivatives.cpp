// Derivatives unfad does not derive from a body: the user's
// (UNFAD_CUSTOM_GRADIENT(f, f_pullback)) and, opted into with
// --numerical-fallback, central differences for a function whose body is
// not visible.
//
// Both lower a call of `f` to an ir::Call of an entry that stands for `f`
// without lowering its body: its parameters and C++ description are f's, so
// the forward sweep calls `f` as the user wrote it. A registered derivative
// sets the entry's cxx.customPullback: reverse mode emits the usual
// Pullback node, the printer calls the user's function there (the helper
// pullback convention: f's parameters, d_result, then a pointer to one
// adjoint per active parameter, or its adjoint array), and no pullback is
// generated (the body, f's value as an Opaque call, is a stand-in never
// printed). The numerical fallback's body is f's value plus, per active
// scalar parameter, a zero whose derivative is the central difference of f
// there: its generated pullback computes those differences.
//
// Also UNFAD_NO_GRAD on a variable or a member: each read of it is an
// Opaque `unfad::no_grad(x)`, a constant of the differentiation.
#include "lowering.h"

#include <clang/AST/RecursiveASTVisitor.h>

namespace unfad::frontend {

using namespace clang;

namespace {

constexpr llvm::StringLiteral kCustomMark = "unfad_custom_gradient";

class CustomFinder : public RecursiveASTVisitor<CustomFinder> {
public:
  std::vector<const VarDecl *> found;
  bool shouldVisitTemplateInstantiations() const { return false; }
  bool VisitVarDecl(VarDecl *vd) {
    for (const auto *a : vd->specific_attrs<AnnotateAttr>())
      if (a->getAnnotation() == kCustomMark) found.push_back(vd);
    return true;
  }
};

// The function an argument of the mark names: `f`, `&f`, `f<double>`,
// `static_cast<double (*)(double)>(f)` (an overload).
const FunctionDecl *namedFunction(const Expr *e) {
  for (;;) {
    e = e->IgnoreParenImpCasts();
    if (const auto *c = dyn_cast<ExplicitCastExpr>(e)) e = c->getSubExpr();
    else if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_AddrOf) e = u->getSubExpr();
    else break;
  }
  const auto *d = dyn_cast<DeclRefExpr>(e);
  return d ? dyn_cast<FunctionDecl>(d->getDecl()) : nullptr;
}

std::string paramName(const ParmVarDecl *pd, unsigned k) {
  return pd->getName().empty() ? "arg" + std::to_string(k) : pd->getNameAsString();
}

// A written parameter marked UNFAD_INOUT: f reads it before writing it.
bool inoutMarked(const ParmVarDecl *pd) {
  for (const auto *a : pd->specific_attrs<AnnotateAttr>())
    if (a->getAnnotation() == "unfad_inout") return true;
  return false;
}

// A parameter through which `f` may write: a pointer or reference to
// non-const (an output or in/out parameter).
bool writable(QualType t) {
  if (t->isReferenceType()) return !t.getNonReferenceType().isConstQualified();
  if (const auto *p = t->getAs<PointerType>()) return !p->getPointeeType().isConstQualified();
  return false;
}

} // namespace

void Lowering::findCustomGradients() {
  customScanned_ = true;
  CustomFinder finder;
  finder.TraverseDecl(ctx_.getTranslationUnitDecl());
  for (const VarDecl *vd : finder.found) {
    SourceLocation at = sm_.getExpansionLoc(vd->getLocation());
    const auto *call = vd->getInit() ? dyn_cast<CallExpr>(vd->getInit()->IgnoreImplicit()) : nullptr;
    const FunctionDecl *f = call && call->getNumArgs() == 2 ? namedFunction(call->getArg(0)) : nullptr;
    const FunctionDecl *pb = call && call->getNumArgs() == 2 ? namedFunction(call->getArg(1)) : nullptr;
    if (!f || !pb) fail(at, "'UNFAD_CUSTOM_GRADIENT' must name a function and its pullback");
    auto [it, fresh] = customGradients_.insert({f->getCanonicalDecl(), CustomGradient{pb, at}});
    if (!fresh && it->second.pullback->getCanonicalDecl() != pb->getCanonicalDecl())
      fail(at, "'" + f->getNameAsString() + "' has two custom gradients ('UNFAD_CUSTOM_GRADIENT')");
  }
}

// The pullback registered for `fd` has the helper pullback's signature:
// f's parameters, `R d_result`, then per active parameter `T* d_x` (a
// scalar or a struct) or its adjoint array (`double* d_x` for `const
// double* x`, `std::vector<double>& d_x` for `const std::vector<double>& x`).
void Lowering::checkCustomPullback(const FunctionDecl *fd, const CustomGradient &cg) {
  std::vector<std::pair<QualType, std::string>> want;
  unsigned k = 0;
  for (const ParmVarDecl *pd : fd->parameters()) want.push_back({pd->getType(), paramName(pd, k++)});
  if (!fd->getReturnType()->isVoidType()) // (a void f has no result to take a cotangent of)
    want.push_back({fd->getReturnType().getNonReferenceType().getUnqualifiedType(), "d_result"});
  k = 0;
  for (const ParmVarDecl *pd : fd->parameters()) {
    std::string name = "d_" + paramName(pd, k++);
    if (!ir::isActive(paramType(pd))) continue;
    QualType t = pd->getType();
    if (const auto *p = t->getAs<PointerType>()) want.push_back({ctx_.getPointerType(p->getPointeeType().getUnqualifiedType()), name});
    else if (ArrayInfo ai; arrayInfo(t, ai, SourceLocation()))
      want.push_back({ctx_.getLValueReferenceType(t.getNonReferenceType().getUnqualifiedType()), name});
    else want.push_back({ctx_.getPointerType(t.getNonReferenceType().getUnqualifiedType()), name});
  }
  const FunctionDecl *pb = cg.pullback;
  std::string expected = "void " + pb->getNameAsString() + "(";
  for (size_t i = 0; i < want.size(); ++i) {
    std::string t = typeStr(want[i].first);
    expected += (i ? ", " : "") + t + (t.back() == '*' || t.back() == '&' ? "" : " ") + want[i].second;
  }
  expected += ")";
  std::string what = "the custom gradient of '" + fd->getNameAsString() + "' ";
  if (pb->getNumParams() != want.size())
    fail(cg.at, what + "has a pullback taking " + std::to_string(pb->getNumParams()) + " parameters, expected " +
                    std::to_string(want.size()) + ": '" + expected + "'");
  if (!pb->getReturnType()->isVoidType()) fail(cg.at, what + "has a pullback returning a value: expected '" + expected + "'");
  for (unsigned i = 0; i < want.size(); ++i) {
    QualType got = pb->getParamDecl(i)->getType();
    if (!ctx_.hasSameType(got.getUnqualifiedType(), want[i].first.getUnqualifiedType()))
      fail(cg.at, what + "has a pullback whose parameter " + std::to_string(i + 1) + " is '" + typeStr(got) + "', not '" +
                      typeStr(want[i].first) + "': expected '" + expected + "'");
  }
}

// The entry standing for `fd` (see the top of the file), made once.
size_t Lowering::customEntry(const FunctionDecl *fd, const CustomGradient *cg, SourceLocation loc) {
  fd = fd->getCanonicalDecl();
  size_t idx = request(fd, false);
  if (entries_[idx].done) {
    if (!entries_[idx].ok) throw Abort{}; // reported at its first call
    return idx;
  }
  entries_[idx].done = true;
  std::string fname = fd->getNameAsString();
  QualType rt = fd->getReturnType();
  const bool voidResult = cg && rt->isVoidType(); // (then it writes an output: checked below)
  if (!voidResult && (!rt->isRealFloatingType() || rt->isSpecificBuiltinType(BuiltinType::LongDouble)))
    fail(loc, "'" + fname + "' returns '" + typeStr(rt) + "': a derivative of it (" +
                  (cg ? "UNFAD_CUSTOM_GRADIENT" : "numerical") + ") needs a double or float result" +
                  (cg ? " or a floating-point array it writes" : ""));
  ir::Function f;
  f.name = entries_[idx].irName;
  unsigned k = 0;
  // The arrays f writes: outputs, or in/out when marked UNFAD_INOUT.
  std::vector<std::pair<size_t, bool>> written;
  for (const ParmVarDecl *pd : fd->parameters()) {
    ir::Param p;
    p.name = paramName(pd, k++);
    const bool writes = writable(pd->getType());
    auto refuseWritten = [&] {
      fail(loc, "'" + fname + "' may write through its parameter '" + p.name + "' ('" + typeStr(pd->getType()) +
                    "'): a custom gradient takes written parameters that are arrays of floating-point values "
                    "('double* out', 'std::vector<double>& out')");
    };
    if (writes && !cg)
      fail(loc, "'" + fname + "' may write through its parameter '" + p.name +
                    "': a numerical derivative supports only inputs (values, const pointers and const references)");
    // (a written scalar reference, checked before paramType refuses it at f's declaration)
    if (ArrayInfo ai; writes && !pd->getType()->isPointerType() && !arrayInfo(pd->getType(), ai, SourceLocation()))
      refuseWritten();
    p.type = paramType(pd);
    p.active = ir::isActive(p.type);
    if (writes) {
      if (!p.type->isArray() || !p.active) refuseWritten();
      written.push_back({f.params.size(), inoutMarked(pd)});
    }
    if (!cg && !p.type->isScalar())
      fail(loc, "a numerical derivative of '" + fname + "' supports only scalar arguments ('" + p.name + "' is '" +
                    typeStr(pd->getType()) + "')");
    f.params.push_back(p);
  }
  if (voidResult && written.empty())
    fail(loc, "'" + fname + "' returns 'void' and writes no array parameter: it has no value to differentiate");
  f.result = voidResult ? ir::Type::unit() : typeOf(rt.getUnqualifiedType(), loc);
  describeCxx(entries_[idx], f);
  if (cg) {
    checkCustomPullback(fd, *cg);
    f.cxx.customPullback = "::" + qualifiedPath(cg->pullback);
    // (a stand-in, never printed or differentiated: an Opaque takes
    // scalars. It shows the analyses what f does to its arrays: a store
    // into each output, a read and then a store into each in/out array, so
    // that callers copy and restore them as for a helper's)
    std::vector<ir::Expr> args;
    for (auto &p : f.params)
      if (p.type->isScalar()) args.push_back(ir::Var::make(p.name, p.type));
    f.body = voidResult ? ir::Tuple::make({}) : ir::Opaque::make(f.cxx.qualifiedName, args, f.result);
    for (auto it = written.rbegin(); it != written.rend(); ++it) {
      const ir::Param &p = f.params[it->first];
      ir::Expr array = ir::Var::make(p.name, p.type), at = ir::Const::makeInt(0);
      ir::Expr value = it->second ? ir::Opaque::make(f.cxx.qualifiedName, {ir::Index::make(array, at)}, p.type->elem())
                                  : ir::Const::zero(p.type->elem());
      f.body = ir::Let::make("_", ir::Store::make(array, at, value, ir::Store::Mode::Set), f.body);
    }
  } else {
    f.body = numericalBody(fd, f);
  }
  entries_[idx].fn = std::move(f);
  entries_[idx].ok = true;
  return idx;
}

// f(x) + sum over the active x_k of (x_k - no_grad(x_k)) * slope_k: the
// value of f, with the derivative slope_k along x_k, where slope_k is the
// central difference (f(x_k + h) - f(x_k - h)) / ((x_k + h) - (x_k - h)),
// h = cbrt(epsilon) * max(|x_k|, 1) (the step that balances truncation and
// rounding errors), all computed on values without derivatives.
ir::Expr Lowering::numericalBody(const FunctionDecl *fd, const ir::Function &f) {
  (void)fd;
  std::vector<ir::Expr> args;
  for (auto &p : f.params) args.push_back(ir::Var::make(p.name, p.type));
  const std::string &callee = f.cxx.qualifiedName;
  ir::Expr value = ir::Opaque::make(callee, args, f.result);
  for (size_t k = 0; k < args.size(); ++k) {
    if (!f.params[k].active) continue;
    const ir::TypeP &t = args[k]->type;
    bool single = t->scalar == ir::Scalar::F32;
    auto constant = [&](double v) { return ir::Const::make(v, t); };
    ir::Expr x = ir::Opaque::make("unfad::no_grad", {args[k]}, t);
    ir::Expr h = ir::Prim::make(ir::Op::Mul, {constant(single ? 4.921566601151848e-3 : 6.055454452393343e-6),
                                              ir::Prim::make(ir::Op::Fmax, {ir::Prim::make(ir::Op::Fabs, {x}), constant(1.0)})});
    ir::Expr up = ir::Prim::make(ir::Op::Add, {x, h}), down = ir::Prim::make(ir::Op::Sub, {x, h});
    std::vector<ir::Expr> at = args;
    at[k] = up;
    ir::Expr fUp = ir::Opaque::make(callee, at, f.result);
    at[k] = down;
    ir::Expr fDown = ir::Opaque::make(callee, at, f.result);
    ir::Expr slope = ir::Prim::make(ir::Op::Div, {ir::Prim::make(ir::Op::Sub, {fUp, fDown}),
                                                  convert(ir::Prim::make(ir::Op::Sub, {up, down}), f.result)});
    ir::Expr zero = convert(ir::Prim::make(ir::Op::Sub, {args[k], x}), f.result);
    value = ir::Prim::make(ir::Op::Add, {value, ir::Prim::make(ir::Op::Mul, {zero, slope})});
  }
  return value;
}

ir::Expr Lowering::noGradMarked(const Decl *d, ir::Expr read) {
  if (read->type->isArray() || !ir::isActive(read->type)) return read;
  for (const auto *a : d->specific_attrs<AnnotateAttr>())
    if (a->getAnnotation() == "unfad_no_grad") return ir::Opaque::make("unfad::no_grad", {read}, read->type);
  return read;
}

ir::Expr Lowering::lowerCustomCall(const CallExpr *ce, const FunctionDecl *fd, Env &env) {
  if (!customScanned_) findCustomGradients();
  auto it = customGradients_.find(fd->getCanonicalDecl());
  const CustomGradient *cg = it != customGradients_.end() ? &it->second : nullptr;
  SourceLocation loc = ce->getExprLoc();
  std::string fname = fd->getNameAsString();
  if (!cg) {
    const FunctionDecl *def = fd->getDefinition();
    if (!opts_.numericalFallback || fd->isVariadic() || (def && def->hasBody() && !isa<CXXTryStmt>(def->getBody())))
      return nullptr;
    bool passive = true; // then a constant (passive_calls.cpp), no derivative needed
    for (const Expr *a : ce->arguments())
      passive = passive && !a->getType()->isPointerType() && !a->getType()->isArrayType() && passiveExpr(a);
    if (passive || tryConstant(ce)) return nullptr;
  }
  if (ce->getNumArgs() != fd->getNumParams()) fail(loc, "call with a wrong number of arguments");
  size_t idx = customEntry(fd, cg, loc);
  std::vector<ir::Expr> args;
  for (unsigned i = 0; i < ce->getNumArgs(); ++i) {
    ir::TypeP pt = entries_[idx].fn.params[i].type;
    if (!pt->isArray()) {
      args.push_back(convert(lowerExpr(ce->getArg(i), env), pt));
      continue;
    }
    ir::Expr a = lowerArrayRef(ce->getArg(i), env);
    if (!ir::sameType(a->type, pt))
      fail(ce->getArg(i)->getExprLoc(), "array of " + ir::str(a->type->elem()) + " passed as an array of " + ir::str(pt->elem()));
    if (growingLength(ce->getArg(i))) a = growingArgument(ce->getArg(i), a, false, env);
    args.push_back(a);
  }
  std::vector<bool> passive = passiveArguments(args);
  for (size_t k = 0; k < passive.size(); ++k)
    if (passive[k])
      fail(ce->getArg(unsigned(k))->getExprLoc(), "the custom pullback of '" + fname + "' adds into an adjoint of '" +
                                                      entries_[idx].fn.params[k].name +
                                                      "', but this array has none here (name it in UNFAD_GRADIENT_WRT)");
  if (!cg) {
    if (!warnID_)
      warnID_ = diags_.getCustomDiagID(DiagnosticsEngine::Warning,
                                       "'%0' has no visible body: differentiated by a numerical derivative "
                                       "(central differences, --numerical-fallback)");
    diags_.Report(loc, warnID_) << fname;
  }
  ir::Expr call = ir::Call::make(entries_[idx].irName, args, entries_[idx].fn.result);
  locs_[call.get()] = loc;
  return call;
}

} // namespace unfad::frontend
