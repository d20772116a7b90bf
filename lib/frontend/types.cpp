// C++ types -> IR types: scalars, structs of plain values, and the array-like
// types (ArrayInfo); conversions and compile-time constants.
#include "lowering.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/QualTypeNames.h>

#include <cstring>

namespace unfad::frontend {

using namespace clang;

std::string stripAnon(std::string s) {
  for (const char *pat : {"(anonymous namespace)::", "(anonymous)::"}) {
    size_t p;
    while ((p = s.find(pat)) != std::string::npos) s.erase(p, strlen(pat));
  }
  return s;
}

std::string Lowering::qualTypeStr(QualType t) const {
  return stripAnon(TypeName::getFullyQualifiedName(t, ctx_, policy_, /*WithGlobalNsPrefix=*/false));
}

ir::TypeP Lowering::typeOf(QualType qt, SourceLocation loc) {
  if (qt.isVolatileQualified()) fail(loc, "volatile values are not supported");
  QualType ct = qt.getCanonicalType();
  if (ct->isReferenceType()) fail(loc, "references are not supported here ('" + typeStr(qt) + "')");
  if (ct->isPointerType() || ct->isMemberPointerType()) fail(loc, "pointers are not supported yet ('" + typeStr(qt) + "')");
  if (ct->isArrayType()) fail(loc, "arrays are not supported here ('" + typeStr(qt) + "')");
  if (ArrayInfo ai; arrayInfo(qt, ai, SourceLocation()))
    fail(loc, "arrays are not supported here ('" + typeStr(qt) + "')");
  if (const auto *bt = ct->getAs<BuiltinType>()) {
    switch (bt->getKind()) {
    case BuiltinType::Double: return ir::Type::f64();
    case BuiltinType::Float: return ir::Type::f32();
    case BuiltinType::Bool: return ir::Type::boolean();
    default:
      if (bt->isInteger()) return ir::Type::i64();
      fail(loc, "values of type '" + typeStr(qt) + "' are not supported");
    }
  }
  if (ct->isEnumeralType()) return ir::Type::i64();
  if (const auto *rd = ct->getAsRecordDecl()) return structType(rd, qt, loc);
  fail(loc, "values of type '" + typeStr(qt) + "' are not supported");
}

ir::TypeP Lowering::structType(const RecordDecl *rd, QualType qt, SourceLocation loc) {
  auto it = structs_.find(rd);
  if (it != structs_.end()) return it->second;
  if (std::vector<QualType> elems; tupleLike(qt, &elems)) return tupleLikeType(qt, elems, loc); // pairs_tuples.cpp
  if (complexType(qt)) return complexIRType(qt, loc); // complex_numbers.cpp
  if (optionalType(qt)) return optionalIRType(qt, loc); // optionals.cpp
  std::string spelled = "'" + typeStr(qt) + "'";
  if (rd->isUnion()) fail(loc, "unions are not supported (" + spelled + ")");
  const auto *crd = dyn_cast<CXXRecordDecl>(rd);
  if (!rd->getDefinition()) fail(loc, "incomplete type " + spelled);
  if (crd && (crd->isLambda())) fail(loc, "lambda expressions are not supported");
  bool mirror = crd && checkClass(crd, spelled, loc); // classes.cpp
  if (rd->getDeclContext()->isFunctionOrMethod()) fail(loc, "local types are not supported (" + spelled + ")");
  std::vector<std::string> fields;
  std::vector<ir::TypeP> types;
  if (crd && crd->getNumBases()) { // the base object, first (class_layout.cpp)
    QualType bt = crd->bases_begin()->getType();
    fields.push_back(baseFieldName(crd));
    types.push_back(structType(bt->getAsCXXRecordDecl(), bt, loc));
  }
  for (const FieldDecl *f : rd->fields()) {
    if (f->isBitField()) fail(f->getLocation(), "bit-fields are not supported");
    if (f->getType()->isReferenceType()) fail(f->getLocation(), "reference members are not supported");
    if (f->getType()->isPointerType() || isViewStruct(f->getType()) || vectorMember(f->getType()))
      fail(loc, "type " + spelled + " has pointer or std::vector members: such structs are supported as parameters, "
                "local variables and local arrays of a constant size, not here");
    addMemberFields(f->getNameAsString(), f->getType(), f, fields, types); // (an array member: its elements)
    mirror = mirror || types.back()->mirror; // `Outer{...}` cannot hold a mirrored field
  }
  QualType bare = ctx_.getRecordType(rd);
  auto t = ir::Type::structure(mirror ? mirrorName(rd) : qualTypeStr(bare), fields, types, mirror,
                                    crd && crd->getNumBases());
  structs_[rd] = t;
  return t;
}

// The element type `e` of an array-like type, checked (`what` names the
// container in diagnostics): scalars, structs, or (at depth 0) arrays of
// scalars.
bool Lowering::arrayElement(QualType e, const char *what, ArrayInfo &out, SourceLocation loc, int depth) {
  QualType ce = e.getCanonicalType();
  const auto *bt = ce->getAs<BuiltinType>();
  bool ok = bt && !ce.isVolatileQualified() &&
            (bt->getKind() == BuiltinType::Double || bt->getKind() == BuiltinType::Float ||
             bt->getKind() == BuiltinType::Bool || bt->isInteger());
  if (optionalType(e)) {
    if (loc.isValid()) fail(loc, std::string(what) + " std::optional are not supported");
    return false;
  }
  if (complexType(e) && !ce.isVolatileQualified()) { // an IR struct of two reals (complex_numbers.cpp)
    out.elem = e.getUnqualifiedType();
    return true;
  }
  ArrayInfo inner;
  // structs (checked field by field where the type is used)
  if (!ok && !ce.isVolatileQualified() && ce->isStructureOrClassType() && !arrayInfo(e, inner, SourceLocation(), depth + 1))
    ok = true;
  // arrays of arrays of scalars (one level)
  if (!ok && depth == 0 && arrayInfo(e, inner, SourceLocation(), depth + 1)) {
    QualType ie = inner.elem.getCanonicalType();
    const auto *ib = ie->getAs<BuiltinType>();
    ok = ib && (ib->isFloatingPoint() || ib->isInteger()) && inner.kind != ArrayInfo::Pointer;
    if (!ok && loc.isValid())
      fail(loc, std::string(what) + " '" + typeStr(e) +
                    "' are not supported (arrays of arrays must hold scalars; pointers to pointers are not supported)");
  }
  if (!ok) {
    if (loc.isValid())
      fail(loc, std::string(what) + " '" + typeStr(e) +
                    "' are not supported (elements are scalars, structs of scalars, or arrays of scalars)");
    return false;
  }
  out.elem = e.getUnqualifiedType();
  return true;
}

// The unsupported variants (pointers to pointers, multi-dimensional arrays,
// arrays of structs, ...) are errors with a valid `loc`.
QualType stdContainerElement(QualType t, llvm::StringRef name) {
  const auto *sd = dyn_cast_or_null<ClassTemplateSpecializationDecl>(t.getNonReferenceType()->getAsCXXRecordDecl());
  if (!sd || !sd->isInStdNamespace() || sd->getName() != name || sd->getTemplateArgs().size() < 1 ||
      sd->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return QualType();
  return sd->getTemplateArgs()[0].getAsType();
}

bool Lowering::arrayInfo(QualType t, ArrayInfo &out, SourceLocation loc, int depth) {
  t = t.getNonReferenceType();
  QualType ct = t.getCanonicalType();
  if (const auto *pt = ct->getAs<PointerType>()) {
    QualType pointee = pt->getPointeeType();
    if (pointee->isFunctionType()) return false;
    out.kind = ArrayInfo::Pointer;
    if (pointee.getCanonicalType()->isPointerType()) {
      if (loc.isValid()) fail(loc, "pointers to pointers are not supported ('" + typeStr(t) + "')");
      return false;
    }
    if (pointee->isArrayType() && !isa<ConstantArrayType>(ctx_.getAsArrayType(pointee.getCanonicalType()))) {
      if (loc.isValid()) fail(loc, "variable-length arrays are not supported ('" + typeStr(t) + "')");
      return false;
    }
    return arrayElement(pointee, "pointers to", out, loc, depth);
  }
  if (const ArrayType *at = ctx_.getAsArrayType(ct)) {
    out.kind = ArrayInfo::CArray;
    if (const auto *cat = dyn_cast<ConstantArrayType>(at)) out.size = int64_t(cat->getSize().getZExtValue());
    else if (!isa<IncompleteArrayType>(at)) {
      if (loc.isValid()) fail(loc, "variable-length arrays are not supported ('" + typeStr(t) + "')");
      return false;
    }
    return arrayElement(at->getElementType(), "arrays of", out, loc, depth);
  }
  if (QualType p = iteratorPointer(ct); !p.isNull()) { // (iterators.cpp)
    out.kind = ArrayInfo::Pointer;
    return arrayElement(p->getPointeeType(), "iterators over", out, loc, depth);
  }
  if (const auto *rd = ct->getAsCXXRecordDecl()) {
    const auto *sd = dyn_cast<ClassTemplateSpecializationDecl>(rd);
    if (!sd || !sd->isInStdNamespace() || !sd->getIdentifier()) return false;
    llvm::StringRef n = sd->getName();
    const TemplateArgumentList &args = sd->getTemplateArgs();
    if (n == "vector" && args.size() >= 1 && args[0].getKind() == TemplateArgument::Type) {
      out.kind = ArrayInfo::Vector;
      return arrayElement(args[0].getAsType(), "std::vectors of", out, loc, depth);
    }
    if (n == "array" && args.size() == 2 && args[0].getKind() == TemplateArgument::Type &&
        args[1].getKind() == TemplateArgument::Integral) {
      out.kind = ArrayInfo::StdArray;
      out.size = args[1].getAsIntegral().getSExtValue();
      return arrayElement(args[0].getAsType(), "std::arrays of", out, loc, depth);
    }
  }
  return false;
}

ir::TypeP Lowering::arrayType(const ArrayInfo &ai, SourceLocation loc) {
  if (ArrayInfo inner; arrayInfo(ai.elem, inner, SourceLocation(), 1)) return ir::Type::array(arrayType(inner, loc));
  return ir::Type::array(typeOf(ai.elem, loc));
}

bool Lowering::byValueArrayParam(const ParmVarDecl *p) {
  QualType t = p->getType();
  ArrayInfo ai;
  return !t->isReferenceType() && arrayInfo(t, ai, SourceLocation()) &&
         (ai.kind == ArrayInfo::Vector || ai.kind == ArrayInfo::StdArray);
}

// Type of a parameter: by value, or a const reference to a scalar/struct,
// or an array (pointer, C array, reference to std::vector/std::array; by
// value when `copied`).
ir::TypeP Lowering::paramType(const ParmVarDecl *p, bool copied) {
  if (isTextLike(p->getType())) { // passive text: a placeholder (text_params.cpp)
    sawTextParams_ = true;
    return ir::Type::i64();
  }
  QualType t = p->getType();
  if (t.isVolatileQualified()) fail(p->getLocation(), "volatile values are not supported");
  std::string name = p->getName().empty() ? std::string("<unnamed>") : p->getNameAsString();
  if (ArrayInfo ai; arrayInfo(t, ai, p->getLocation())) {
    if (!copied && byValueArrayParam(p))
      fail(p->getLocation(), "parameter '" + name + "' of type '" + typeStr(t) +
                                 "' is passed by value, which is not supported here (pass it by reference)");
    if (t->isRValueReferenceType()) fail(p->getLocation(), "rvalue reference parameter '" + name + "' is not supported");
    return arrayType(ai, p->getLocation());
  }
  if (const auto *rt = t->getAs<ReferenceType>()) {
    QualType pt = rt->getPointeeType();
    if (!t->isLValueReferenceType() || !pt.isConstQualified())
      fail(p->getLocation(), "non-const reference parameter '" + name + "' is not supported yet");
    return typeOf(pt.getUnqualifiedType(), p->getLocation());
  }
  if (t->isPointerType() || isa<DecayedType>(t.getTypePtr()))
    fail(p->getLocation(), "pointer parameter '" + name + "' is not supported yet");
  return typeOf(t.getUnqualifiedType(), p->getLocation());
}

ir::Expr Lowering::convert(const ir::Expr &e, const ir::TypeP &to) {
  if (ir::sameType(e->type, to)) return e;
  if (e->type->isStruct() && to->isStruct() && e->type->elems.size() == to->elems.size() &&
      (to->structName.compare(0, 10, "std::pair<") == 0 || to->structName.compare(0, 11, "std::tuple<") == 0)) {
    std::vector<ir::Expr> es; // a pair or tuple from another one: element by element (pairs_tuples.cpp)
    for (size_t k = 0; k < to->elems.size(); ++k) es.push_back(convert(ir::Proj::make(e, int(k)), to->elems[k]));
    return ir::Tuple::makeStruct(to, es);
  }
  if (to->isStruct() && to->structName.compare(0, 22, "unfad::optional_value<") == 0) { // (optionals.cpp)
    if (e->type->isUnit()) return emptyOptional(to); // std::nullopt
    if (e->type->isScalar()) return filledOptional(e, to);
  }
  if (e->type->isScalar() && to->isStruct() && to->structName.compare(0, 13, "std::complex<") == 0) // a real as a complex
    return ir::Tuple::makeStruct(to, {convert(e, to->elems[0]), ir::Const::zero(to->elems[1])});
  if (!e->type->isScalar() || !to->isScalar())
    throw ir::IRError("conversion between " + ir::str(e->type) + " and " + ir::str(to));
  if (const auto *c = e->as<ir::Const>()) { // fold literal conversions: 2 -> 2.0
    if (to->isBool()) return ir::Const::makeBool(c->fvalue != 0);
    if (to->isInt()) return ir::Const::makeInt(int64_t(c->fvalue));
    if (to->isFloat()) return ir::Const::make(to->scalar == ir::Scalar::F32 ? double(float(c->fvalue)) : c->fvalue, to);
  }
  if (to->isBool()) return ir::Prim::make(ir::Op::Ne, {e, ir::Const::zero(e->type)});
  return ir::Prim::makeCast(e, to);
}

ir::Expr Lowering::one(const ir::TypeP &t) {
  if (t->isInt()) return ir::Const::makeInt(1);
  return ir::Const::make(1.0, t);
}

ir::Expr Lowering::constantFromAPValue(const APValue &v, QualType qt, SourceLocation loc) {
  ir::TypeP t = typeOf(qt, loc);
  if (v.isFloat()) return ir::Const::make(v.getFloat().convertToDouble(), t);
  if (v.isInt()) {
    if (t->isBool()) return ir::Const::makeBool(v.getInt().getBoolValue());
    if (t->isFloat()) return ir::Const::make(double(v.getInt().getSExtValue()), t);
    return ir::Const::makeInt(v.getInt().getSExtValue());
  }
  if (v.isStruct() && t->isStruct() && complexType(qt)) { // std::complex: its `__complex__` member
    if (v.getStructNumFields() != 1 || !v.getStructField(0).isComplexFloat()) return nullptr;
    const APValue &c = v.getStructField(0);
    return ir::Tuple::makeStruct(t, {ir::Const::make(c.getComplexFloatReal().convertToDouble(), t->elems[0]),
                                     ir::Const::make(c.getComplexFloatImag().convertToDouble(), t->elems[1])});
  }
  if (v.isStruct() && t->isStruct() && tupleLike(qt)) { // a std::pair's fields (a tuple's are its bases: not folded)
    if (t->elems.size() != 2 || v.getStructNumFields() < 2) return nullptr;
    std::vector<QualType> elems;
    tupleLike(qt, &elems);
    ir::Expr a = constantFromAPValue(v.getStructField(0), elems[0], loc), b = constantFromAPValue(v.getStructField(1), elems[1], loc);
    return a && b ? ir::Tuple::makeStruct(t, {a, b}) : nullptr;
  }
  if (v.isStruct() && t->isStruct()) {
    const RecordDecl *rd = qt->getAsRecordDecl();
    std::vector<ir::Expr> es;
    unsigned i = 0;
    if (const auto *crd = dyn_cast<CXXRecordDecl>(rd); crd && crd->getNumBases()) // the base object first
      es.push_back(constantFromAPValue(v.getStructBase(0), crd->bases_begin()->getType(), loc));
    for (const FieldDecl *f : rd->fields()) es.push_back(constantFromAPValue(v.getStructField(i++), f->getType(), loc));
    return ir::Tuple::makeStruct(t, es);
  }
  return nullptr;
}

ir::Expr Lowering::tryConstant(const Expr *e) {
  if (e->isValueDependent() || e->getType()->isVoidType()) return nullptr;
  Expr::EvalResult r;
  if (!e->EvaluateAsRValue(r, ctx_) || r.HasSideEffects) return nullptr;
  QualType t = e->getType();
  if (!t->isArithmeticType() && !t->isEnumeralType() && !t->isRecordType()) return nullptr;
  return constantFromAPValue(r.Val, t.getUnqualifiedType(), e->getExprLoc());
}

} // namespace unfad::frontend
