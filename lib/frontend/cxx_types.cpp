// ir::CxxType from Clang's types. The kind comes from the canonical type
// (so aliases such as `using Vec = std::vector<double>` are seen through);
// the spellings are printed from the type as written (so the generated
// signature keeps the user's aliases), the adjoint's from a type built from
// it: T* for a scalar or struct, a non-const pointer to the element for a
// pointer or a C array, a non-const reference for std::vector/std::array.
#include "unfad/frontend/cxx_types.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/QualTypeNames.h>
#include <clang/AST/Type.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/raw_ostream.h>

namespace unfad::frontend {

using namespace clang;

namespace {

using Kind = ir::CxxType::Kind;

// Where the parameter's name goes in a printed declarator; an identifier,
// so that Clang spaces it like a name.
constexpr llvm::StringLiteral kPlaceholder = "unfad_declarator_name";

class Describer {
public:
  Describer(ASTContext &ctx, const PrintingPolicy &policy, bool fullyQualified)
      : ctx_(ctx), policy_(policy), fullyQualified_(fullyQualified) {}

  ir::CxxType describe(QualType type) const {
    ir::CxxType out = describeValue(type);
    if (out.kind == Kind::Void) return out;
    splitDeclarator(type, out.declBefore, out.declAfter);
    splitDeclarator(adjointType(type, out.kind), out.adjointBefore, out.adjointAfter);
    return out;
  }

private:
  ASTContext &ctx_;
  const PrintingPolicy &policy_;
  bool fullyQualified_;

  // Kind, constness, bound and element of `type` (no declarators).
  ir::CxxType describeValue(QualType type) const {
    ir::CxxType out;
    if (const auto *ref = type->getAs<LValueReferenceType>()) {
      out.isReference = true;
      type = ref->getPointeeType();
    }
    out.valueSpelling = spell(type.getNonReferenceType().getUnqualifiedType());
    QualType canonical = type.getCanonicalType();
    out.isConst = canonical.isConstQualified();
    if (canonical->isVoidType()) {
      out.kind = Kind::Void;
    } else if (canonical->isPointerType()) {
      out.kind = Kind::Pointer;
      QualType pointee = type->getPointeeType();
      out.isConst = pointee.isConstQualified();
      out.element.push_back(describeValue(pointee));
    } else if (const ArrayType *array = ctx_.getAsArrayType(type)) {
      out.kind = Kind::CArray;
      if (const auto *constant = dyn_cast<ConstantArrayType>(array)) out.bound = constant->getSize().getZExtValue();
      out.isConst = array->getElementType().isConstQualified();
      out.element.push_back(describeValue(array->getElementType()));
    } else if (!describeContainer(type, out)) {
      out.kind = canonical->isRecordType() ? Kind::Struct : Kind::Scalar;
      out.isUnsigned = canonical->isUnsignedIntegerType() && !canonical->isBooleanType() && !canonical->isEnumeralType();
    }
    return out;
  }

  // std::vector<T> and std::array<T, N>, with T as written when the type
  // says it (`std::vector<size_t>` has the element `size_t`, not `unsigned long`).
  bool describeContainer(QualType type, ir::CxxType &out) const {
    const auto *record = dyn_cast_or_null<ClassTemplateSpecializationDecl>(type->getAsCXXRecordDecl());
    if (!record || !record->isInStdNamespace() || !record->getIdentifier()) return false;
    llvm::StringRef name = record->getName();
    const TemplateArgumentList &args = record->getTemplateArgs();
    if (args.size() < 1 || args[0].getKind() != TemplateArgument::Type) return false;
    if (name == "vector") out.kind = Kind::Vector;
    else if (name == "array" && args.size() == 2 && args[1].getKind() == TemplateArgument::Integral) {
      out.kind = Kind::StdArray;
      out.bound = args[1].getAsIntegral().getZExtValue();
    } else return false;
    QualType element = args[0].getAsType();
    if (const auto *written = type->getAs<TemplateSpecializationType>()) {
      llvm::ArrayRef<TemplateArgument> writtenArgs = written->template_arguments();
      if (!writtenArgs.empty() && writtenArgs[0].getKind() == TemplateArgument::Type) element = writtenArgs[0].getAsType();
    }
    out.element.push_back(describeValue(element));
    return true;
  }

  // The type of the adjoint parameter of a parameter of type `type`.
  QualType adjointType(QualType type, Kind kind) const {
    QualType value = type.getNonReferenceType();
    Qualifiers dropped;
    switch (kind) {
    case Kind::Void:
    case Kind::Scalar:
    case Kind::Struct: return ctx_.getPointerType(value.getUnqualifiedType());
    case Kind::Pointer:
      return ctx_.getPointerType(ctx_.getUnqualifiedArrayType(value->getPointeeType(), dropped));
    case Kind::CArray: // decays to a pointer to its (non-const) element
      return ctx_.getPointerType(ctx_.getUnqualifiedArrayType(ctx_.getAsArrayType(value)->getElementType(), dropped));
    case Kind::Vector:
    case Kind::StdArray: return ctx_.getLValueReferenceType(value.getUnqualifiedType());
    }
    llvm_unreachable("every kind has an adjoint");
  }

  std::string print(QualType type, llvm::StringRef placeholder) const {
    if (fullyQualified_) type = TypeName::getFullyQualifiedType(type, ctx_, /*WithGlobalNsPrefix=*/false);
    std::string text;
    llvm::raw_string_ostream os(text);
    type.print(os, policy_, placeholder);
    os.flush();
    return stripAnon(text);
  }

  std::string spell(QualType type) const { return tidy(print(type, "")); }

  // `const double *` -> `const double*`: the project's spelling of Clang's.
  static std::string tidy(llvm::StringRef spelling) {
    std::string out;
    for (char c : spelling.trim()) {
      if ((c == '*' || c == '&') && !out.empty() && out.back() == ' ') out.pop_back();
      out += c;
    }
    return out;
  }

  // The parts of a declaration of `type` before and after the name:
  // `const double* ` and ``, `const double (&` and `)[3]`.
  void splitDeclarator(QualType type, std::string &before, std::string &after) const {
    std::string whole = print(type, kPlaceholder);
    size_t at = whole.find(kPlaceholder.str());
    if (at == std::string::npos) { // not expected: Clang prints every declarator with its name
      before = spell(type) + " ";
      after.clear();
      return;
    }
    before = tidy(llvm::StringRef(whole).take_front(at));
    after = whole.substr(at + kPlaceholder.size());
    bool opensDeclarator = before.size() >= 2 && before[before.size() - 2] == '(';
    if (!before.empty() && !opensDeclarator) before += ' ';
  }
};

} // namespace

ir::CxxType describeCxxType(QualType type, ASTContext &ctx, const PrintingPolicy &policy, bool fullyQualified) {
  return Describer(ctx, policy, fullyQualified).describe(type);
}

} // namespace unfad::frontend
