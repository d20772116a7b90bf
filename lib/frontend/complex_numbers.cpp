// std::complex<double> (and <float>) as a value type: an IR struct of two
// reals, the real and the imaginary part, named `std::complex<double>` with
// the fields `real()` and `imag()` (how the printer reads them). Its library
// internals (a GCC `__complex__ double`) are never lowered: constructors,
// the arithmetic operators (complex and real operands, unary + and -, == and
// !=), compound assignment, `.real()`/`.imag()` (read, and set with one
// argument) and the functions of <complex> (std::real, imag, abs, norm, arg,
// conj, exp, log, sqrt, polar, sin, cos) become real arithmetic here, so the
// gradient of a real-valued function is taken with respect to the real and
// imaginary parts as two reals.
//
// Kinks and singularities: std::abs(z) is sqrt(re² + im²) with the gradient
// 0 at z = 0 (the smallest subgradient, as for std::fabs); std::arg, std::log
// and std::sqrt have no derivative at 0 (they give NaN or infinities there),
// and std::arg/std::log/std::sqrt are not differentiable across their branch
// cut (the negative real axis).
#include "lowering.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>

namespace unfad::frontend {

using namespace clang;

bool complexType(QualType t) {
  const auto *sd =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(t.getNonReferenceType().getCanonicalType()->getAsRecordDecl());
  if (!sd || !sd->isInStdNamespace() || !sd->getIdentifier() || sd->getName() != "complex") return false;
  const TemplateArgumentList &args = sd->getTemplateArgs();
  if (args.size() != 1 || args[0].getKind() != TemplateArgument::Type) return false;
  const auto *bt = args[0].getAsType().getCanonicalType()->getAs<BuiltinType>();
  return bt && (bt->getKind() == BuiltinType::Double || bt->getKind() == BuiltinType::Float);
}

namespace {

using ir::Op;

ir::Expr prim(Op op, std::vector<ir::Expr> args) { return ir::Prim::make(op, std::move(args)); }

bool isStdComplexFunction(const FunctionDecl *fd) {
  return fd && (fd->getIdentifier() || fd->isOverloadedOperator()) && fd->isInStdNamespace();
}

} // namespace

ir::TypeP Lowering::complexIRType(QualType qt, SourceLocation loc) {
  const RecordDecl *rd = qt.getCanonicalType()->getAsRecordDecl();
  const auto *sd = cast<ClassTemplateSpecializationDecl>(rd);
  ir::TypeP part = typeOf(sd->getTemplateArgs()[0].getAsType(), loc);
  auto t = ir::Type::structure(qualTypeStr(ctx_.getRecordType(rd)), {"real()", "imag()"}, {part, part});
  structs_[rd] = t;
  return t;
}

// An operand: its real and imaginary parts (im null: a real number), the
// complex value bound to a let first when it is used more than once.
Lowering::Cx Lowering::complexOperand(const Expr *e, Env &env, Binds &binds) {
  ir::Expr v = lowerExpr(e, env);
  return complexParts(v, binds);
}

Lowering::Cx Lowering::complexParts(const ir::Expr &v, Binds &binds) {
  if (v->type->isScalar()) return Cx{convert(v, ir::Type::f64()), nullptr};
  ir::Expr z = v;
  if (!z->is<ir::Var>()) {
    std::string n = names_.fresh("z");
    binds.push_back({n, v});
    z = ir::Var::make(n, v->type);
  }
  return Cx{convert(ir::Proj::make(z, 0), ir::Type::f64()), convert(ir::Proj::make(z, 1), ir::Type::f64())};
}

ir::Expr Lowering::shareValue(const ir::Expr &v, const char *hint, Binds &binds) {
  if (v->is<ir::Var>() || v->is<ir::Const>()) return v;
  std::string n = names_.fresh(hint);
  binds.push_back({n, v});
  return ir::Var::make(n, v->type);
}

ir::Expr Lowering::complexValue(const Cx &c, const ir::TypeP &t) {
  ir::TypeP part = t->elems[0];
  return ir::Tuple::makeStruct(t, {convert(c.re, part), c.im ? convert(c.im, part) : ir::Const::zero(part)});
}

// a op b for op in + - * /, either part possibly real.
Lowering::Cx Lowering::complexArith(Op op, const Cx &a, const Cx &b, Binds &binds) {
  switch (op) {
  case Op::Add:
  case Op::Sub: {
    ir::Expr im = a.im && b.im ? prim(op, {a.im, b.im}) : a.im ? a.im : b.im && op == Op::Sub ? prim(Op::Neg, {b.im}) : b.im;
    return Cx{prim(op, {a.re, b.re}), im};
  }
  case Op::Mul:
    if (!a.im && !b.im) return Cx{prim(Op::Mul, {a.re, b.re}), nullptr};
    if (!b.im) return Cx{prim(Op::Mul, {a.re, b.re}), prim(Op::Mul, {a.im, b.re})};
    if (!a.im) return Cx{prim(Op::Mul, {a.re, b.re}), prim(Op::Mul, {a.re, b.im})};
    return Cx{prim(Op::Sub, {prim(Op::Mul, {a.re, b.re}), prim(Op::Mul, {a.im, b.im})}),
              prim(Op::Add, {prim(Op::Mul, {a.re, b.im}), prim(Op::Mul, {a.im, b.re})})};
  default: {
    if (!b.im) return Cx{prim(Op::Div, {a.re, b.re}), a.im ? prim(Op::Div, {a.im, b.re}) : nullptr};
    // (a.re + i a.im) / (c + i d) = ((a.re c + a.im d) + i (a.im c - a.re d)) / (c² + d²)
    ir::Expr den = shareValue(prim(Op::Add, {prim(Op::Mul, {b.re, b.re}), prim(Op::Mul, {b.im, b.im})}), "den", binds);
    ir::Expr re = prim(Op::Mul, {a.re, b.re}), im = prim(Op::Neg, {prim(Op::Mul, {a.re, b.im})});
    if (a.im) {
      re = prim(Op::Add, {re, prim(Op::Mul, {a.im, b.im})});
      im = prim(Op::Sub, {prim(Op::Mul, {a.im, b.re}), prim(Op::Mul, {a.re, b.im})});
    }
    return Cx{prim(Op::Div, {re, den}), prim(Op::Div, {im, den})};
  }
  }
}

ir::Expr Lowering::lowerComplexConstruct(const CXXConstructExpr *c, Env &env) {
  SourceLocation loc = c->getExprLoc();
  ir::TypeP t = typeOf(c->getType(), loc);
  unsigned n = c->getNumArgs();
  if (n == 0) return ir::Const::zero(t);
  if (n == 1 && complexType(c->getArg(0)->getType())) return convert(lowerExpr(c->getArg(0), env), t);
  if (n <= 2) {
    ir::Expr re = convert(lowerExpr(c->getArg(0), env), t->elems[0]);
    ir::Expr im = n == 2 ? convert(lowerExpr(c->getArg(1), env), t->elems[1]) : ir::Const::zero(t->elems[1]);
    return ir::Tuple::makeStruct(t, {re, im});
  }
  fail(loc, "this constructor of '" + typeStr(c->getType()) + "' is not supported");
}

bool complexCompound(const CXXOperatorCallExpr *oc, ir::Op &op) {
  if (oc->getNumArgs() != 2 || !complexType(oc->getArg(0)->getType())) return false;
  switch (oc->getOperator()) {
  case OO_PlusEqual: op = Op::Add; return true;
  case OO_MinusEqual: op = Op::Sub; return true;
  case OO_StarEqual: op = Op::Mul; return true;
  case OO_SlashEqual: op = Op::Div; return true;
  default: return false;
  }
}

bool complexRealAssign(const CXXOperatorCallExpr *oc) {
  return oc->getOperator() == OO_Equal && oc->getNumArgs() == 2 && complexType(oc->getArg(0)->getType()) &&
         !complexType(oc->getArg(1)->getType());
}

int complexSetter(const CXXMemberCallExpr *mc) {
  const CXXMethodDecl *m = mc->getMethodDecl();
  if (!m || mc->getNumArgs() != 1 || !complexType(mc->getObjectType()) || !m->getIdentifier()) return -1;
  if (m->getName() == "real") return 0;
  if (m->getName() == "imag") return 1;
  return -1;
}

ir::Expr Lowering::complexCompoundValue(ir::Op op, const ir::Expr &old, const ir::Expr &rhs) {
  Binds binds;
  Cx a = complexParts(old, binds), b = complexParts(rhs, binds);
  return wrap(binds, complexValue(complexArith(op, a, b, binds), old->type));
}

ir::Expr Lowering::lowerComplexCall(const CallExpr *ce, Env &env) {
  SourceLocation loc = ce->getExprLoc();
  const FunctionDecl *fd = ce->getDirectCallee();
  if (const auto *mc = dyn_cast<CXXMemberCallExpr>(ce)) { // z.real(), z.imag()
    if (!complexType(mc->getObjectType())) return nullptr;
    const CXXMethodDecl *m = mc->getMethodDecl();
    std::string name = m && m->getIdentifier() ? m->getNameAsString() : "";
    if ((name == "real" || name == "imag") && mc->getNumArgs() == 0)
      return ir::Proj::make(lowerExpr(mc->getImplicitObjectArgument(), env), name == "real" ? 0 : 1);
    if ((name == "real" || name == "imag") && mc->getNumArgs() == 1)
      fail(loc, "'" + name + "(v)' on a std::complex is only supported as a statement");
    fail(loc, "'std::complex::" + name + "' is not supported");
  }
  bool anyComplex = complexType(ce->getType());
  for (const Expr *a : ce->arguments()) anyComplex = anyComplex || complexType(a->getType());
  if (!anyComplex || !isStdComplexFunction(fd)) return nullptr;
  ir::TypeP rt = ce->getType()->isVoidType() ? nullptr : typeOf(ce->getType().getNonReferenceType().getUnqualifiedType(), loc);
  Binds binds;
  auto done = [&](const Cx &c) { return wrap(binds, rt->isStruct() ? complexValue(c, rt) : convert(c.re, rt)); };
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(ce)) {
    ir::Op op;
    if (complexCompound(oc, op) || oc->getOperator() == OO_Equal)
      fail(loc, "assignments to a std::complex are only supported as statements ('z += w;')");
    if (oc->getNumArgs() == 1) {
      Cx a = complexOperand(oc->getArg(0), env, binds);
      if (oc->getOperator() == OO_Plus) return done(a);
      if (oc->getOperator() == OO_Minus) return done(Cx{prim(Op::Neg, {a.re}), a.im ? prim(Op::Neg, {a.im}) : nullptr});
    } else if (oc->getNumArgs() == 2) {
      Cx a = complexOperand(oc->getArg(0), env, binds), b = complexOperand(oc->getArg(1), env, binds);
      switch (oc->getOperator()) {
      case OO_Plus: return done(complexArith(Op::Add, a, b, binds));
      case OO_Minus: return done(complexArith(Op::Sub, a, b, binds));
      case OO_Star: return done(complexArith(Op::Mul, a, b, binds));
      case OO_Slash: return done(complexArith(Op::Div, a, b, binds));
      case OO_EqualEqual:
      case OO_ExclaimEqual: {
        ir::Expr zero = ir::Const::make(0.0, ir::Type::f64());
        ir::Expr eq = prim(Op::And, {prim(Op::Eq, {a.re, b.re}), prim(Op::Eq, {a.im ? a.im : zero, b.im ? b.im : zero})});
        return wrap(binds, oc->getOperator() == OO_EqualEqual ? eq : prim(Op::Not, {eq}));
      }
      default: break;
      }
    }
    fail(loc, "operator '" + std::string(getOperatorSpelling(oc->getOperator())) + "' on std::complex is not supported");
  }
  if (!fd->getIdentifier()) fail(loc, "this call on a std::complex is not supported");
  std::string name = fd->getNameAsString();
  auto arg = [&](unsigned k) { return complexOperand(ce->getArg(k), env, binds); };
  if (name == "polar" && ce->getNumArgs() >= 1) { // polar(r, theta)
    ir::Expr r = shareValue(convert(lowerExpr(ce->getArg(0), env), ir::Type::f64()), "r", binds);
    if (ce->getNumArgs() == 1) return done(Cx{r, nullptr});
    ir::Expr th = shareValue(convert(lowerExpr(ce->getArg(1), env), ir::Type::f64()), "theta", binds);
    return done(Cx{prim(Op::Mul, {r, prim(Op::Cos, {th})}), prim(Op::Mul, {r, prim(Op::Sin, {th})})});
  }
  if (ce->getNumArgs() != 1)
    fail(loc, "'std::" + name + "' of a std::complex is not supported");
  Cx z = arg(0);
  ir::Expr zero = ir::Const::make(0.0, ir::Type::f64());
  ir::Expr y = z.im ? z.im : zero;
  auto modulus = [&] {
    // |z| with the gradient 0 at z = 0 (hypot's is 0/0 there)
    ir::Expr atZero = prim(Op::And, {prim(Op::Eq, {z.re, zero}), prim(Op::Eq, {y, zero})});
    return ir::If::make(atZero, zero, prim(Op::Hypot, {z.re, y}));
  };
  if (name == "real") return done(Cx{z.re, nullptr});
  if (name == "imag") return done(Cx{y, nullptr});
  if (name == "abs") return done(Cx{modulus(), nullptr});
  if (name == "norm") return done(Cx{z.im ? prim(Op::Add, {prim(Op::Mul, {z.re, z.re}), prim(Op::Mul, {y, y})})
                                          : prim(Op::Mul, {z.re, z.re}), nullptr});
  if (name == "arg") return done(Cx{prim(Op::Atan2, {y, z.re}), nullptr});
  if (name == "conj") return done(Cx{z.re, prim(Op::Neg, {y})});
  if (name == "exp") {
    ir::Expr e = shareValue(prim(Op::Exp, {z.re}), "e", binds);
    return done(Cx{prim(Op::Mul, {e, prim(Op::Cos, {y})}), prim(Op::Mul, {e, prim(Op::Sin, {y})})});
  }
  if (name == "log") return done(Cx{prim(Op::Log, {prim(Op::Hypot, {z.re, y})}), prim(Op::Atan2, {y, z.re})});
  if (name == "sin") // sin(x + iy) = sin x cosh y + i cos x sinh y
    return done(Cx{prim(Op::Mul, {prim(Op::Sin, {z.re}), prim(Op::Cosh, {y})}),
                   prim(Op::Mul, {prim(Op::Cos, {z.re}), prim(Op::Sinh, {y})})});
  if (name == "cos") // cos(x + iy) = cos x cosh y - i sin x sinh y
    return done(Cx{prim(Op::Mul, {prim(Op::Cos, {z.re}), prim(Op::Cosh, {y})}),
                   prim(Op::Neg, {prim(Op::Mul, {prim(Op::Sin, {z.re}), prim(Op::Sinh, {y})})})});
  if (name == "sqrt") {
    // the principal root, as C's csqrt computes it without cancellation:
    // t = sqrt((|z| + |x|) / 2); x >= 0: (t, y / 2t); x < 0: (|y| / 2t, ±t)
    ir::Expr r = shareValue(prim(Op::Hypot, {z.re, y}), "r", binds);
    ir::Expr t = shareValue(prim(Op::Sqrt, {prim(Op::Mul, {prim(Op::Add, {r, prim(Op::Fabs, {z.re})}), ir::Const::make(0.5, ir::Type::f64())})}), "t", binds);
    ir::Expr twoT = prim(Op::Mul, {ir::Const::make(2.0, ir::Type::f64()), t});
    ir::Expr right = prim(Op::Ge, {z.re, zero});
    ir::Expr atZero = prim(Op::Eq, {r, zero});
    ir::Expr re = ir::If::make(right, t, prim(Op::Div, {prim(Op::Fabs, {y}), twoT}));
    ir::Expr im = ir::If::make(right, prim(Op::Div, {y, twoT}), ir::If::make(prim(Op::Lt, {y, zero}), prim(Op::Neg, {t}), t));
    return done(Cx{ir::If::make(atZero, zero, re), ir::If::make(atZero, zero, im)});
  }
  fail(loc, "'std::" + name + "' of a std::complex is not supported (supported: real, imag, abs, norm, arg, conj, exp, "
                              "log, sqrt, sin, cos, polar and the arithmetic operators)");
}

} // namespace unfad::frontend
