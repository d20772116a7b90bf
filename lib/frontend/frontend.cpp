// Lowering of marked C++ functions (Clang AST after Sema) to unfad's IR.
//
// Statements are lowered in continuation style: `lowerSeq` turns the rest of
// a block into the body of the `let` that binds the current statement's new
// SSA value. An `if` whose branches do not return joins through a tuple of the
// variables it assigns; an `if` with a return (or a `break`/`continue`) in a
// branch duplicates the rest of the block into both branches.
//
// Arrays and loops, the IR conventions:
// - Array-like C++ types (pointers to scalars, C arrays, std::vector,
//   std::array; see ArrayInfo) are `Type::array(elem)` buffers, one IR
//   variable each, never rebound (no SSA versions). Reads are `Index`, writes
//   `let _ = Store(...) in ...` (binders "_", "__1", ... from the NameSupply),
//   `a[i] += v` / `-= v` / `++` are Add stores, `=` / `*=` / `/=` Set stores.
//   `x.size()` is `Size(x)` for std::vector, the constant N for std::array
//   and C arrays. Local arrays are `NewArray` (zero-filled), followed by
//   Stores for their initial elements (a fill value or a copy: a Fold).
// - Every loop is one Fold (counted `for`, range-based `for`) or While (all
//   other loops). Its state is the outer variables the loop assigns, in
//   first-assignment order, then a bool `done` flag when the body can
//   `break`: a single component is carried bare, several (or none) as a
//   tuple. The body starts by unpacking the state into fresh lets; after the
//   loop the final state is unpacked into new SSA versions. After a `break` a
//   Fold body returns its state unchanged (`if done then s else ...`) and a
//   While's condition is `!done && c`. `do B while (c)` is B once (bound to
//   a let) then `while (c) B`.
// - Param::written is set after lowering from per-function summaries of the
//   array parameters each function reads/writes (transitively through calls),
//   and the recompute rule is checked there (checkArrays): an array must not
//   be written after any read of it, in evaluation order, loop bodies counting
//   twice; an array passed twice to a function that writes it is an error.
// - A `void` function returns `()` (`Tuple::make({})`); a marked one must write
//   an active output parameter.
#include "unfad/frontend/frontend.h"
#include "unfad/frontend/cxx_types.h"
#include "unfad/ir/mutator.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/QualTypeNames.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <set>

namespace unfad::frontend {

using namespace clang;

namespace {

constexpr llvm::StringLiteral kMark = "unfad_gradient";
constexpr llvm::StringLiteral kMarkWrt = "unfad_gradient_wrt:";

struct Abort {}; // thrown after a diagnostic was reported

// Linked list of statements still to lower (the rest of the enclosing blocks).
struct Seq {
  const Stmt *const *b = nullptr, *const *e = nullptr;
  const Seq *next = nullptr;
};

using Env = std::map<const VarDecl *, ir::Expr>;
using Tail = std::function<ir::Expr(Env &)>;

std::string stripAnon(std::string s) {
  for (const char *pat : {"(anonymous namespace)::", "(anonymous)::"}) {
    size_t p;
    while ((p = s.find(pat)) != std::string::npos) s.erase(p, strlen(pat));
  }
  return s;
}

const AnnotateAttr *markAttr(const FunctionDecl *fd) {
  for (const auto *a : fd->specific_attrs<AnnotateAttr>()) {
    llvm::StringRef s = a->getAnnotation();
    if (s == kMark || s.starts_with(kMarkWrt)) return a;
  }
  return nullptr;
}

bool isStdOrGlobal(const DeclContext *dc) {
  while (dc && (dc->isTransparentContext() || dc->isInlineNamespace() || isa<LinkageSpecDecl>(dc)))
    dc = dc->getParent();
  if (!dc) return false;
  if (dc->isTranslationUnit()) return true;
  if (const auto *ns = dyn_cast<NamespaceDecl>(dc))
    return ns->getName() == "std" && isStdOrGlobal(ns->getParent()) && ns->getParent()->getRedeclContext()->isTranslationUnit();
  return false;
}

bool mathOpByName(llvm::StringRef name, ir::Op &op) {
  static const std::map<std::string, ir::Op> table = {
      {"sin", ir::Op::Sin},     {"cos", ir::Op::Cos},     {"tan", ir::Op::Tan},     {"asin", ir::Op::Asin},
      {"acos", ir::Op::Acos},   {"atan", ir::Op::Atan},   {"atan2", ir::Op::Atan2}, {"sinh", ir::Op::Sinh},
      {"cosh", ir::Op::Cosh},   {"tanh", ir::Op::Tanh},   {"exp", ir::Op::Exp},     {"exp2", ir::Op::Exp2},
      {"expm1", ir::Op::Expm1}, {"log", ir::Op::Log},     {"log2", ir::Op::Log2},   {"log10", ir::Op::Log10},
      {"log1p", ir::Op::Log1p}, {"sqrt", ir::Op::Sqrt},   {"cbrt", ir::Op::Cbrt},   {"pow", ir::Op::Pow},
      {"hypot", ir::Op::Hypot}, {"fabs", ir::Op::Fabs},   {"fmin", ir::Op::Fmin},   {"fmax", ir::Op::Fmax},
      {"erf", ir::Op::Erf},     {"floor", ir::Op::Floor}, {"ceil", ir::Op::Ceil},   {"round", ir::Op::Round},
      {"trunc", ir::Op::Trunc}, {"abs", ir::Op::Fabs}};
  name.consume_front("__builtin_");
  auto it = table.find(name.str());
  if (it == table.end() && (name.ends_with("f") || name.ends_with("l")) && name != "abs")
    it = table.find(name.drop_back().str());
  if (it == table.end()) return false;
  op = it->second;
  return true;
}

// True when `s` leaves the statement it is part of: a `return`, or a
// `break`/`continue` of the enclosing loop (not of a loop nested in `s`).
// A `return`, or (when `loopJumps`) a `break`/`continue` of a loop `s` is in.
bool jumps(const Stmt *s, bool nestedLoop, bool returns) {
  if (!s) return false;
  if (returns && isa<ReturnStmt>(s)) return true;
  if (!nestedLoop && (isa<BreakStmt>(s) || isa<ContinueStmt>(s))) return true;
  if (isa<LambdaExpr>(s)) return false;
  bool loop = nestedLoop || isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s) ||
              isa<SwitchStmt>(s);
  for (const Stmt *c : s->children())
    if (jumps(c, loop, returns)) return true;
  return false;
}
bool containsJump(const Stmt *s) { return jumps(s, false, true); }

// A `break` or `continue` (of a loop `s` is in, not one inside `s`).
bool containsLoopJump(const Stmt *s) { return jumps(s, false, false); }

// A `break` of the loop whose body is `s`.
bool containsBreak(const Stmt *s) {
  if (!s) return false;
  if (isa<BreakStmt>(s)) return true;
  if (isa<LambdaExpr>(s) || isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s) ||
      isa<SwitchStmt>(s))
    return false;
  for (const Stmt *c : s->children())
    if (containsBreak(c)) return true;
  return false;
}

const ReturnStmt *findReturn(const Stmt *s) {
  if (!s || isa<LambdaExpr>(s)) return nullptr;
  if (const auto *r = dyn_cast<ReturnStmt>(s)) return r;
  for (const Stmt *c : s->children())
    if (const ReturnStmt *r = findReturn(c)) return r;
  return nullptr;
}

static bool isTrivialStructAssign(const CXXOperatorCallExpr *oc) {
  if (oc->getOperator() != OO_Equal || oc->getNumArgs() != 2) return false;
  const auto *m = dyn_cast_or_null<CXXMethodDecl>(oc->getDirectCallee());
  return m && (m->isCopyAssignmentOperator() || m->isMoveAssignmentOperator()) && m->isTrivial();
}

// An array-like C++ type: pointer, C array, std::vector or std::array
// (possibly behind a reference) of scalars, of structs of scalars, or of
// arrays of scalars (`double A[3][3]`, `std::vector<std::vector<double>>`).
struct ArrayInfo {
  enum Kind { Pointer, CArray, Vector, StdArray } kind = Pointer;
  QualType elem;
  int64_t size = -1; // known length (C arrays, std::array)
};

class Lowering {
public:
  Lowering(ASTContext &ctx, DiagnosticsEngine &diags, const Options &opts)
      : ctx_(ctx), diags_(diags), sm_(ctx.getSourceManager()), opts_(opts) {
    diagID_ = diags.getCustomDiagID(DiagnosticsEngine::Error, "cannot differentiate '%0': %1");
    noteID_ = diags.getCustomDiagID(DiagnosticsEngine::Note, "%0");
    policy_ = ctx.getPrintingPolicy();
    policy_.SuppressTagKeyword = true;
    policy_.SuppressUnwrittenScope = true;
  }

  bool run(ir::Program &out, std::vector<MarkedFunction> *markedOut);

private:
  struct Entry {
    const FunctionDecl *def = nullptr;
    std::string irName;
    bool marked = false;
    bool done = false;
    bool ok = false;
    ir::Function fn;
    std::string root;                              // the marked function it is lowered for
    std::map<std::string, std::string> arrayNames; // IR name of an array -> C++ name
  };

  // The loop whose body is being lowered: where `continue` and `break` go.
  struct LoopCtx {
    Tail cont, brk;
  };
  // Loop-carried state: the outer variables a loop assigns, then a `done`
  // flag when the body can `break` or `return`, then, when it can `return`,
  // whether it did and the value. One component is carried bare, several
  // (or none) as a tuple.
  struct LoopState {
    std::vector<const VarDecl *> vars;
    bool done = false;
    bool ret = false;
    ir::TypeP retType;
    ir::TypeP type;
    size_t count() const { return vars.size() + (done ? 1 : 0) + (ret ? 2 : 0); }
    size_t doneIndex() const { return vars.size(); }
  };

  ASTContext &ctx_;
  DiagnosticsEngine &diags_;
  SourceManager &sm_;
  Options opts_;
  unsigned diagID_ = 0, noteID_ = 0;
  PrintingPolicy policy_{LangOptions()};
  std::string current_; // name of the marked function being differentiated
  std::vector<Entry> entries_;
  std::map<const FunctionDecl *, size_t> index_;
  std::set<std::string> irNames_;
  std::deque<size_t> queue_;
  std::map<const RecordDecl *, ir::TypeP> structs_;
  bool failed_ = false;

  // per function
  ir::NameSupply names_;
  const FunctionDecl *fd_ = nullptr;
  ir::TypeP result_;
  std::vector<const LoopCtx *> loops_;
  std::map<std::string, std::string> arrNames_;
  // Local arrays of arrays of constant shape (`double M[3][3]`,
  // `std::array<std::array<double, 3>, 3>`) are flat arrays, row-major:
  // M[i][j] is element i * stride + j. Their stride, per declaration.
  struct Flat {
    ir::Expr stride, rows; // row length, number of rows (constants or let-bound variables)
  };
  std::map<const VarDecl *, Flat> flatStride_;
  // where array reads, stores and calls come from (for the array checks)
  std::map<const ir::Node *, SourceLocation> locs_;

  [[noreturn]] void fail(SourceLocation loc, const std::string &what) {
    diags_.Report(loc, diagID_) << current_ << what;
    throw Abort{};
  }
  void report(SourceLocation loc, const std::string &what) { diags_.Report(loc, diagID_) << current_ << what; }

  std::string typeStr(QualType t) const { return t.getAsString(policy_); }
  std::string qualTypeStr(QualType t) const {
    return stripAnon(TypeName::getFullyQualifiedName(t, ctx_, policy_, /*WithGlobalNsPrefix=*/false));
  }

  // ---------------------------------------------------------------- types --
  ir::TypeP typeOf(QualType qt, SourceLocation loc) {
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

  ir::TypeP structType(const RecordDecl *rd, QualType qt, SourceLocation loc) {
    auto it = structs_.find(rd);
    if (it != structs_.end()) return it->second;
    std::string spelled = "'" + typeStr(qt) + "'";
    if (rd->isUnion()) fail(loc, "unions are not supported (" + spelled + ")");
    const auto *crd = dyn_cast<CXXRecordDecl>(rd);
    if (!rd->getDefinition()) fail(loc, "incomplete type " + spelled);
    if (crd && (crd->isLambda())) fail(loc, "lambda expressions are not supported");
    if (crd && (crd->getNumBases() || crd->isPolymorphic() || !crd->isAggregate() || !crd->isTriviallyCopyable()))
      fail(loc, "type " + spelled + " is not supported: only structs of plain values (aggregates without bases) are");
    if (rd->getDeclContext()->isFunctionOrMethod()) fail(loc, "local types are not supported (" + spelled + ")");
    std::vector<std::string> fields;
    std::vector<ir::TypeP> types;
    for (const FieldDecl *f : rd->fields()) {
      if (f->isBitField()) fail(f->getLocation(), "bit-fields are not supported");
      if (f->getType()->isReferenceType()) fail(f->getLocation(), "reference members are not supported");
      fields.push_back(f->getNameAsString());
      types.push_back(typeOf(f->getType(), f->getLocation()));
    }
    QualType bare = ctx_.getRecordType(rd);
    auto t = ir::Type::structure(qualTypeStr(bare), fields, types);
    structs_[rd] = t;
    return t;
  }

  // Recognises array-like types (see ArrayInfo). With a valid `loc`, the
  // unsupported variants (pointers to pointers, multi-dimensional arrays,
  // arrays of structs, ...) are errors; without one they are just `false`.
  bool arrayInfo(QualType t, ArrayInfo &out, SourceLocation loc, int depth = 0) {
    t = t.getNonReferenceType();
    QualType ct = t.getCanonicalType();
    auto scalarElem = [&](QualType e, const char *what) -> bool {
      QualType ce = e.getCanonicalType();
      const auto *bt = ce->getAs<BuiltinType>();
      bool ok = bt && !ce.isVolatileQualified() &&
                (bt->getKind() == BuiltinType::Double || bt->getKind() == BuiltinType::Float ||
                 bt->getKind() == BuiltinType::Bool || bt->isInteger());
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
    };
    if (const auto *pt = ct->getAs<PointerType>()) {
      QualType pe = pt->getPointeeType();
      if (pe->isFunctionType()) return false;
      out.kind = ArrayInfo::Pointer;
      if (pe.getCanonicalType()->isPointerType()) {
        if (loc.isValid()) fail(loc, "pointers to pointers are not supported ('" + typeStr(t) + "')");
        return false;
      }
      if (pe->isArrayType() && !isa<ConstantArrayType>(ctx_.getAsArrayType(pe.getCanonicalType()))) {
        if (loc.isValid()) fail(loc, "variable-length arrays are not supported ('" + typeStr(t) + "')");
        return false;
      }
      return scalarElem(pe, "pointers to");
    }
    if (const ArrayType *at = ctx_.getAsArrayType(ct)) {
      out.kind = ArrayInfo::CArray;
      if (const auto *cat = dyn_cast<ConstantArrayType>(at)) out.size = int64_t(cat->getSize().getZExtValue());
      else if (!isa<IncompleteArrayType>(at)) {
        if (loc.isValid()) fail(loc, "variable-length arrays are not supported ('" + typeStr(t) + "')");
        return false;
      }
      return scalarElem(at->getElementType(), "arrays of");
    }
    if (const auto *rd = ct->getAsCXXRecordDecl()) {
      const auto *sd = dyn_cast<ClassTemplateSpecializationDecl>(rd);
      if (!sd || !sd->isInStdNamespace() || !sd->getIdentifier()) return false;
      llvm::StringRef n = sd->getName();
      const TemplateArgumentList &args = sd->getTemplateArgs();
      if (n == "vector" && args.size() >= 1 && args[0].getKind() == TemplateArgument::Type) {
        out.kind = ArrayInfo::Vector;
        if (args[0].getAsType()->isBooleanType()) {
          if (loc.isValid()) fail(loc, "'std::vector<bool>' is not supported (use std::vector<char> or <int>)");
          return false;
        }
        return scalarElem(args[0].getAsType(), "std::vectors of");
      }
      if (n == "array" && args.size() == 2 && args[0].getKind() == TemplateArgument::Type &&
          args[1].getKind() == TemplateArgument::Integral) {
        out.kind = ArrayInfo::StdArray;
        out.size = args[1].getAsIntegral().getSExtValue();
        return scalarElem(args[0].getAsType(), "std::arrays of");
      }
    }
    return false;
  }

  ir::TypeP arrayType(const ArrayInfo &ai, SourceLocation loc) {
    if (ArrayInfo inner; arrayInfo(ai.elem, inner, SourceLocation(), 1)) return ir::Type::array(arrayType(inner, loc));
    return ir::Type::array(typeOf(ai.elem, loc));
  }

  // Type of a parameter: by value, or a const reference to a scalar/struct,
  // or an array (pointer, C array, reference to std::vector/std::array).
  ir::TypeP paramType(const ParmVarDecl *p) {
    QualType t = p->getType();
    if (t.isVolatileQualified()) fail(p->getLocation(), "volatile values are not supported");
    std::string name = p->getName().empty() ? std::string("<unnamed>") : p->getNameAsString();
    if (ArrayInfo ai; arrayInfo(t, ai, p->getLocation())) {
      if ((ai.kind == ArrayInfo::Vector || ai.kind == ArrayInfo::StdArray) && !t->isLValueReferenceType())
        fail(p->getLocation(), "parameter '" + name + "' of type '" + typeStr(t) +
                                   "' is passed by value, which is not supported yet (pass it by reference)");
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

  // ----------------------------------------------------------- helpers --
  ir::Expr convert(const ir::Expr &e, const ir::TypeP &to) {
    if (ir::sameType(e->type, to)) return e;
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
  ir::Expr toBool(const ir::Expr &e) { return convert(e, ir::Type::boolean()); }

  static ir::Expr one(const ir::TypeP &t) {
    if (t->isInt()) return ir::Const::makeInt(1);
    return ir::Const::make(1.0, t);
  }

  ir::Expr constantFromAPValue(const APValue &v, QualType qt, SourceLocation loc) {
    ir::TypeP t = typeOf(qt, loc);
    if (v.isFloat()) return ir::Const::make(v.getFloat().convertToDouble(), t);
    if (v.isInt()) {
      if (t->isBool()) return ir::Const::makeBool(v.getInt().getBoolValue());
      if (t->isFloat()) return ir::Const::make(double(v.getInt().getSExtValue()), t);
      return ir::Const::makeInt(v.getInt().getSExtValue());
    }
    if (v.isStruct() && t->isStruct()) {
      const RecordDecl *rd = qt->getAsRecordDecl();
      std::vector<ir::Expr> es;
      unsigned i = 0;
      for (const FieldDecl *f : rd->fields()) es.push_back(constantFromAPValue(v.getStructField(i++), f->getType(), loc));
      return ir::Tuple::makeStruct(t, es);
    }
    return nullptr;
  }

  ir::Expr tryConstant(const Expr *e) {
    if (e->isValueDependent() || e->getType()->isVoidType()) return nullptr;
    Expr::EvalResult r;
    if (!e->EvaluateAsRValue(r, ctx_) || r.HasSideEffects) return nullptr;
    QualType t = e->getType();
    if (!t->isArithmeticType() && !t->isEnumeralType() && !t->isRecordType()) return nullptr;
    return constantFromAPValue(r.Val, t.getUnqualifiedType(), e->getExprLoc());
  }

  // ------------------------------------------------------- functions --
  std::string qualifiedPath(const FunctionDecl *fd) {
    std::string s;
    llvm::raw_string_ostream os(s);
    fd->getNameForDiagnostic(os, policy_, /*Qualified=*/true);
    return stripAnon(os.str());
  }

  std::string enclosingNamespace(const FunctionDecl *fd) {
    std::vector<std::string> parts;
    for (const DeclContext *dc = fd->getDeclContext(); dc; dc = dc->getParent())
      if (const auto *ns = dyn_cast<NamespaceDecl>(dc))
        if (!ns->isAnonymousNamespace()) parts.push_back(ns->getNameAsString());
    std::string r;
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) r += (r.empty() ? "" : "::") + *it;
    return r;
  }

  size_t request(const FunctionDecl *def, bool marked) {
    auto it = index_.find(def);
    if (it != index_.end()) return it->second;
    Entry e;
    e.def = def;
    e.marked = marked;
    std::string base = qualifiedPath(def), name = base;
    for (int k = 2; irNames_.count(name); ++k) name = base + "$" + std::to_string(k);
    irNames_.insert(name);
    e.irName = name;
    entries_.push_back(std::move(e));
    index_[def] = entries_.size() - 1;
    return entries_.size() - 1;
  }

  void lowerEntry(size_t i);

  // ---------------------------------------------------- array checks --
  // After lowering: which array parameters each function reads and writes
  // (transitively through calls), Param::written, and the recompute rule.
  struct Summary {
    std::vector<bool> reads, writes;
  };
  std::map<std::string, Summary> summaries_;
  using Reads = std::map<std::string, SourceLocation>;
  bool checkFailed_ = false;
  void checkArrays();
  void orderWalk(const ir::Expr &e, Reads &r, const Entry &en);
  SourceLocation locOf(const ir::Node *n, const Entry &en) {
    auto it = locs_.find(n);
    return it != locs_.end() ? it->second : en.def->getLocation();
  }
  std::string cxxArrayName(const Entry &en, const std::string &irName) {
    auto it = en.arrayNames.find(irName);
    return it != en.arrayNames.end() ? it->second : irName;
  }
  void checkError(SourceLocation loc, const Entry &en, const std::string &what) {
    if (checkFailed_) return; // one error per function is enough
    checkFailed_ = true;
    diags_.Report(loc, diagID_) << en.root << what;
  }

  // A local `const T& r = init;` that is read as a copy of what it refers
  // to (or as the array it names): const, and bound to a temporary, to an
  // array, or to a const object (an element of a const array, a const
  // parameter): nothing in the function can change it while r lives.
  bool constReferenceLocal(const VarDecl *vd) {
    QualType pt = vd->getType().getNonReferenceType();
    const Expr *init = vd->getInit();
    if (!vd->getType()->isLValueReferenceType() || !pt.isConstQualified() || !init) return false;
    if (ArrayInfo ai; arrayInfo(pt, ai, SourceLocation())) return true;
    const Expr *x = init->IgnoreParens();
    if (const auto *c = dyn_cast<ExprWithCleanups>(x)) x = c->getSubExpr()->IgnoreParens();
    if (isa<MaterializeTemporaryExpr>(x)) return true;
    if (const auto *c = dyn_cast<ImplicitCastExpr>(x); c && c->getCastKind() == CK_NoOp) x = c->getSubExpr()->IgnoreParens();
    return x->isLValue() && x->getType().isConstQualified();
  }

  // ------------------------------------------------------ expressions --
  ir::Expr lookupVar(const VarDecl *vd, Env &env, SourceLocation loc) {
    auto it = env.find(vd);
    if (it != env.end()) return it->second;
    if (vd->hasLocalStorage()) fail(loc, "use of variable '" + vd->getNameAsString() + "' that is not in scope");
    QualType t = vd->getType();
    if (t.isConstQualified() || vd->isConstexpr()) {
      if (t->isReferenceType()) fail(loc, "reference variables are not supported yet ('" + vd->getNameAsString() + "')");
      if (const VarDecl *init = vd->getInitializingDeclaration()) {
        if (const APValue *v = init->evaluateValue())
          if (ir::Expr c = constantFromAPValue(*v, t.getUnqualifiedType(), loc)) return c;
      }
      fail(loc, "global constant '" + vd->getNameAsString() + "' has no constant initializer");
    }
    fail(loc, std::string("reads of ") + (vd->isStaticLocal() ? "static local" : "global") + " variable '" +
                  vd->getNameAsString() + "' are not supported (only constants)");
  }

  ir::Expr lowerExpr(const Expr *e, Env &env);
  ir::Expr lowerCast(const CastExpr *ce, Env &env);
  ir::Expr lowerCall(const CallExpr *ce, Env &env);
  ir::Expr lowerInitList(const InitListExpr *il, Env &env);

  // ----------------------------------------------------------- arrays --
  // The buffer an expression denotes (a variable of array type, `v.data()`).
  ir::Expr lowerArrayRef(const Expr *e, Env &env);
  ir::Expr lowerIndexExpr(const Expr *e, Env &env) { return convert(lowerExpr(e, env), ir::Type::i64()); }
  // Recognises an element access (`a[i]`, `*p`, `v.at(i)`, `v.front()`, ...).
  bool elementRef(const Expr *e, Env &env, ir::Expr &array, ir::Expr &index);
  bool flatRow(const Expr *e, Env &env, ir::Expr &array, ir::Expr &start);
  const VarDecl *flatVar(const Expr *e);
  ir::Expr read(const ir::Expr &array, const ir::Expr &index, SourceLocation loc) {
    ir::Expr r = ir::Index::make(array, index);
    locs_[r.get()] = loc;
    return r;
  }
  ir::Expr store(const ir::Expr &array, const ir::Expr &index, const ir::Expr &value, ir::Store::Mode m,
                 SourceLocation loc, std::vector<int> path = {}) {
    ir::Expr r = ir::Store::make(array, index, value, m, std::move(path));
    locs_[r.get()] = loc;
    return r;
  }
  // The length of the array `obj` denotes (a constant for C arrays and std::array).
  ir::Expr arraySize(const Expr *obj, const ir::Expr &array, SourceLocation loc) {
    ArrayInfo ai;
    if (arrayInfo(obj->getType(), ai, SourceLocation()) && ai.size >= 0) return ir::Const::makeInt(ai.size);
    if (ai.kind != ArrayInfo::Vector) fail(loc, "the length of this array is not known (pass it as a parameter)");
    return ir::Size::make(array);
  }
  ir::Expr lowerArrayMember(const CXXMemberCallExpr *mc, Env &env);
  bool lowerArrayStore(const Expr *e, Env &env, ir::Expr &effect);
  ir::Expr lowerLocalArray(const VarDecl *vd, const ArrayInfo &ai, Env &env, const std::function<ir::Expr(Env &)> &k);
  // `let _ = effect in k()`
  ir::Expr effect(const ir::Expr &e, const std::function<ir::Expr()> &k) {
    std::string n = names_.fresh("_");
    ir::Expr body = k();
    return ir::Let::make(n, e, body);
  }
  // for j in [0, n): body(j) (an effect)
  ir::Expr effectLoop(const ir::Expr &n, const std::function<ir::Expr(const ir::Expr &)> &body) {
    std::string j = names_.fresh("i"), st = names_.fresh("state");
    ir::Expr b = body(ir::Var::make(j, ir::Type::i64()));
    std::string u = names_.fresh("_");
    return ir::Fold::make(ir::Const::makeInt(0), n, ir::Tuple::make({}), j, st,
                          ir::Let::make(u, b, ir::Tuple::make({})));
  }

  // ------------------------------------------------------- statements --
  ir::Expr lowerSeq(const Seq *s, Env env, const Tail &tail);
  ir::Expr lowerIf(const IfStmt *is, const Seq *rest, Env &env, const Tail &tail);
  ir::Expr lowerIfReturning(const IfStmt *is, const ir::Expr &cond, const Seq *rest, Env &env, const Tail &tail);
  // Set while lowering the branches of an `if` that may return: what a
  // `return v` becomes there (the branch's join tuple).
  std::function<ir::Expr(const ir::Expr &, Env &)> onReturn_;
  bool lowerAssignment(const Expr *e, Env &env, const VarDecl *&root, ir::Expr &newValue);
  ir::Expr bindAndContinue(const VarDecl *vd, const ir::Expr &value, const Seq *rest, Env &env, const Tail &tail) {
    std::string n = names_.fresh(vd->getName().empty() ? "v" : vd->getNameAsString());
    env[vd] = ir::Var::make(n, value->type);
    ir::Expr body = lowerSeq(rest, env, tail);
    return ir::Let::make(n, value, body);
  }

  // ------------------------------------------------------------ loops --
  using Binds = std::vector<std::pair<std::string, ir::Expr>>;
  static ir::Expr wrap(const Binds &binds, ir::Expr body) {
    for (auto it = binds.rbegin(); it != binds.rend(); ++it) body = ir::Let::make(it->first, it->second, body);
    return body;
  }
  LoopState loopState(const std::vector<const Stmt *> &parts, const Env &env, bool done) {
    LoopState st;
    for (const Stmt *p : parts) collectAssigned(p, env, st.vars);
    st.ret = findReturn(parts[0]) != nullptr; // the body (a return in the increment is impossible)
    st.done = done || st.ret;
    st.retType = result_;
    std::vector<ir::TypeP> ts;
    for (const VarDecl *v : st.vars) ts.push_back(env.at(v)->type);
    if (st.done) ts.push_back(ir::Type::boolean());
    if (st.ret) {
      ts.push_back(ir::Type::boolean());
      ts.push_back(result_);
    }
    st.type = ts.size() == 1 ? ts[0] : ir::Type::tuple(ts);
    return st;
  }
  // The state at the end of an iteration, after a `break` (done), or after
  // `return value` (done and returned).
  ir::Expr pack(const LoopState &st, const Env &env, bool done, const ir::Expr &returned = nullptr) {
    std::vector<ir::Expr> es;
    for (const VarDecl *v : st.vars) es.push_back(env.at(v));
    if (st.done) es.push_back(ir::Const::makeBool(done || returned));
    if (st.ret) {
      es.push_back(ir::Const::makeBool(returned != nullptr));
      es.push_back(returned ? returned : ir::Const::zero(st.retType));
    }
    return es.size() == 1 ? es[0] : ir::Tuple::make(es);
  }
  static ir::Expr component(const LoopState &st, const ir::Expr &s, size_t k) {
    return st.count() == 1 ? s : ir::Proj::make(s, int(k));
  }
  void unpack(const LoopState &st, const ir::Expr &s, Env &env, Binds &binds) {
    for (size_t k = 0; k < st.vars.size(); ++k) {
      std::string n = names_.fresh(st.vars[k]->getNameAsString());
      ir::Expr c = component(st, s, k);
      env[st.vars[k]] = ir::Var::make(n, c->type);
      binds.push_back({n, c});
    }
  }
  ir::Expr lowerBody(const Stmt *body, Env &env, const LoopState &st, const Tail &cont) {
    LoopCtx ctx;
    ctx.cont = cont;
    ctx.brk = [this, &st](Env &e) { return pack(st, e, true); };
    loops_.push_back(&ctx);
    // `return v` in the body ends the loop with (done, returned, v)
    auto outerReturn = onReturn_;
    onReturn_ = [this, &st](const ir::Expr &v, Env &e) { return pack(st, e, true, v); };
    Seq bs{&body, &body + 1, nullptr};
    ir::Expr r = lowerSeq(&bs, env, cont);
    onReturn_ = outerReturn;
    loops_.pop_back();
    return r;
  }
  ir::Expr afterLoop(const LoopState &st, const ir::Expr &loop, const Seq *rest, Env &env, const Tail &tail) {
    if (st.ret) {
      // if the loop returned, that is the result (or the enclosing join's);
      // otherwise the rest of the block follows
      std::string r = names_.fresh("state");
      ir::Expr rv = ir::Var::make(r, st.type);
      Binds binds;
      unpack(st, rv, env, binds);
      ir::Expr value = component(st, rv, st.doneIndex() + 2);
      ir::Expr returned = onReturn_ ? onReturn_(value, env) : value;
      ir::Expr body = lowerSeq(rest, env, tail);
      return ir::Let::make(r, loop, wrap(binds, ir::If::make(component(st, rv, st.doneIndex() + 1), returned, body)));
    }
    if (st.vars.empty()) return effect(loop, [&] { return lowerSeq(rest, env, tail); });
    if (st.count() == 1) return bindAndContinue(st.vars[0], loop, rest, env, tail);
    std::string r = names_.fresh("state");
    Binds binds;
    unpack(st, ir::Var::make(r, st.type), env, binds);
    ir::Expr body = lowerSeq(rest, env, tail);
    return ir::Let::make(r, loop, wrap(binds, body));
  }
  struct Counted {
    const VarDecl *index = nullptr;
    const Expr *bound = nullptr;
    bool reversed = false;
    bool adjust = false; // '<=' (increasing) or '>' (decreasing): the bound is off by one
    int64_t offset = 0;  // `i + offset < bound`: the bound is really bound - offset
  };
  bool countedShape(const ForStmt *fs, const Env &env, Counted &c);
  ir::Expr lowerFor(const ForStmt *fs, const Seq *rest, Env &env, const Tail &tail);
  ir::Expr lowerRangeFor(const CXXForRangeStmt *rs, const Seq *rest, Env &env, const Tail &tail);
  ir::Expr lowerWhile(const Stmt *body, const Expr *cond, const Stmt *inc, bool isDo, const Seq *rest, Env &env,
                      const Tail &tail);

  const VarDecl *assignedRoot(const Expr *lhs, std::vector<int> &path, bool diagnose);
  void collectAssigned(const Stmt *s, const Env &env, std::vector<const VarDecl *> &out);

  ir::Expr readPath(ir::Expr v, const std::vector<int> &path) {
    for (int i : path) v = ir::Proj::make(v, i);
    return v;
  }
  ir::Expr updatePath(const ir::Expr &cur, const std::vector<int> &path, size_t k, const ir::Expr &val) {
    if (k == path.size()) return convert(val, cur->type);
    std::vector<ir::Expr> es;
    for (size_t i = 0; i < cur->type->elems.size(); ++i) {
      ir::Expr p = ir::Proj::make(cur, int(i));
      es.push_back(int(i) == path[k] ? updatePath(p, path, k + 1, val) : p);
    }
    return ir::Tuple::makeStruct(cur->type, es);
  }
};

// ====================================================== expressions ===

ir::Expr Lowering::lowerExpr(const Expr *e, Env &env) {
  SourceLocation loc = e->getExprLoc();
  if (const auto *p = dyn_cast<ParenExpr>(e)) return lowerExpr(p->getSubExpr(), env);
  if (const auto *c = dyn_cast<ConstantExpr>(e)) return lowerExpr(c->getSubExpr(), env);
  if (const auto *c = dyn_cast<ExprWithCleanups>(e)) return lowerExpr(c->getSubExpr(), env);
  if (const auto *m = dyn_cast<MaterializeTemporaryExpr>(e)) return lowerExpr(m->getSubExpr(), env);
  if (const auto *b = dyn_cast<CXXBindTemporaryExpr>(e)) return lowerExpr(b->getSubExpr(), env);
  if (const auto *d = dyn_cast<CXXDefaultArgExpr>(e)) return lowerExpr(d->getExpr(), env);
  if (const auto *d = dyn_cast<CXXDefaultInitExpr>(e)) return lowerExpr(d->getExpr(), env);
  if (const auto *c = dyn_cast<CastExpr>(e)) return lowerCast(c, env);
  if (const auto *f = dyn_cast<FloatingLiteral>(e))
    return ir::Const::make(f->getValueAsApproximateDouble(), typeOf(f->getType(), loc));
  if (const auto *i = dyn_cast<IntegerLiteral>(e)) return ir::Const::makeInt(int64_t(i->getValue().getZExtValue()));
  if (const auto *c = dyn_cast<CharacterLiteral>(e)) return ir::Const::makeInt(int64_t(c->getValue()));
  if (const auto *b = dyn_cast<CXXBoolLiteralExpr>(e)) return ir::Const::makeBool(b->getValue());
  if (isa<ImplicitValueInitExpr>(e) || isa<CXXScalarValueInitExpr>(e)) return ir::Const::zero(typeOf(e->getType(), loc));
  if (const auto *d = dyn_cast<DeclRefExpr>(e)) {
    const ValueDecl *vd = d->getDecl();
    if (const auto *v = dyn_cast<VarDecl>(vd)) return lookupVar(v, env, loc);
    if (const auto *ec = dyn_cast<EnumConstantDecl>(vd)) return ir::Const::makeInt(ec->getInitVal().getSExtValue());
    if (isa<FunctionDecl>(vd)) fail(loc, "function pointers are not supported");
    fail(loc, "reference to '" + vd->getNameAsString() + "' is not supported");
  }
  if (const auto *m = dyn_cast<MemberExpr>(e)) {
    if (m->isArrow()) fail(loc, "pointers are not supported yet ('->' member access)");
    const auto *field = dyn_cast<FieldDecl>(m->getMemberDecl());
    if (!field) {
      if (const auto *vd = dyn_cast<VarDecl>(m->getMemberDecl())) return lookupVar(vd, env, loc);
      fail(loc, "calls to member functions are not supported yet");
    }
    ir::Expr base = lowerExpr(m->getBase(), env);
    if (!base->type->isStruct()) fail(loc, "member access on a non-struct value");
    return ir::Proj::make(base, int(field->getFieldIndex()));
  }
  if (const auto *u = dyn_cast<UnaryOperator>(e)) {
    switch (u->getOpcode()) {
    case UO_Plus: return lowerExpr(u->getSubExpr(), env);
    case UO_Minus: {
      ir::Expr x = lowerExpr(u->getSubExpr(), env);
      return ir::Prim::make(ir::Op::Neg, {convert(x, typeOf(u->getType(), loc))});
    }
    case UO_LNot: return ir::Prim::make(ir::Op::Not, {toBool(lowerExpr(u->getSubExpr(), env))});
    case UO_Deref: {
      ir::Expr a, i;
      if (elementRef(u, env, a, i)) return read(a, i, loc);
      fail(loc, "pointers are not supported yet");
    }
    case UO_AddrOf: fail(loc, "taking addresses is not supported (pointers are only supported as arrays)");
    case UO_PreInc: case UO_PreDec: case UO_PostInc: case UO_PostDec:
      fail(loc, "increment or decrement inside an expression is not supported (use a separate statement)");
    case UO_Not: fail(loc, "bitwise operator '~' is not supported");
    default: fail(loc, std::string("unary operator '") + UnaryOperator::getOpcodeStr(u->getOpcode()).str() + "' is not supported");
    }
  }
  if (const auto *b = dyn_cast<BinaryOperator>(e)) {
    BinaryOperatorKind op = b->getOpcode();
    std::string spelling = BinaryOperator::getOpcodeStr(op).str();
    if (b->isAssignmentOp())
      fail(loc, "assignment inside an expression is not supported (use a separate statement)");
    if (op == BO_Comma) fail(loc, "the comma operator is not supported");
    if (op == BO_LAnd || op == BO_LOr)
      return ir::Prim::make(op == BO_LAnd ? ir::Op::And : ir::Op::Or,
                            {toBool(lowerExpr(b->getLHS(), env)), toBool(lowerExpr(b->getRHS(), env))});
    if (b->isShiftOp() || b->isBitwiseOp()) fail(loc, "bitwise operator '" + spelling + "' is not supported");
    if (b->isPtrMemOp()) fail(loc, "pointers to members are not supported");
    if (b->getLHS()->getType()->isPointerType() || b->getRHS()->getType()->isPointerType() ||
        b->getLHS()->getType()->isArrayType() || b->getRHS()->getType()->isArrayType()) {
      if (b->isAdditiveOp()) fail(loc, "pointer arithmetic is not supported (index the array instead: 'x[i]')");
      fail(loc, "operator '" + spelling + "' on pointers is not supported");
    }
    ir::Expr l = lowerExpr(b->getLHS(), env), r = lowerExpr(b->getRHS(), env);
    if (!l->type->isScalar() || !r->type->isScalar()) fail(loc, "operator '" + spelling + "' on non-scalar values");
    if (b->isComparisonOp()) {
      // both operands have the common type after Sema's conversions
      if (!ir::sameType(l->type, r->type)) {
        ir::TypeP common = l->type->isFloat() ? l->type : r->type;
        l = convert(l, common), r = convert(r, common);
      }
      ir::Op o = op == BO_LT ? ir::Op::Lt : op == BO_LE ? ir::Op::Le : op == BO_GT ? ir::Op::Gt
               : op == BO_GE ? ir::Op::Ge : op == BO_EQ ? ir::Op::Eq : op == BO_NE ? ir::Op::Ne : ir::Op::Eq;
      if (op == BO_Cmp) fail(loc, "the three-way comparison operator is not supported");
      return ir::Prim::make(o, {l, r});
    }
    ir::TypeP t = typeOf(b->getType(), loc);
    l = convert(l, t), r = convert(r, t);
    switch (op) {
    case BO_Add: return ir::Prim::make(ir::Op::Add, {l, r});
    case BO_Sub: return ir::Prim::make(ir::Op::Sub, {l, r});
    case BO_Mul: return ir::Prim::make(ir::Op::Mul, {l, r});
    case BO_Div: return ir::Prim::make(ir::Op::Div, {l, r});
    case BO_Rem:
      if (!t->isInt()) fail(loc, "operator '%' on non-integers");
      return ir::Prim::make(ir::Op::Mod, {l, r});
    default: fail(loc, "operator '" + spelling + "' is not supported");
    }
  }
  if (const auto *c = dyn_cast<ConditionalOperator>(e)) {
    if (c->getType()->isVoidType()) fail(loc, "conditional expressions of type void are not supported");
    ir::TypeP t = typeOf(c->getType(), loc);
    ir::Expr cond = toBool(lowerExpr(c->getCond(), env));
    return ir::If::make(cond, convert(lowerExpr(c->getTrueExpr(), env), t), convert(lowerExpr(c->getFalseExpr(), env), t));
  }
  if (isa<BinaryConditionalOperator>(e)) fail(loc, "the '?:' extension is not supported");
  if (const auto *c = dyn_cast<CallExpr>(e)) return lowerCall(c, env);
  if (const auto *il = dyn_cast<InitListExpr>(e)) return lowerInitList(il, env);
  if (const auto *c = dyn_cast<CXXConstructExpr>(e)) {
    const CXXConstructorDecl *ctor = c->getConstructor();
    if (ctor->isTrivial() || (ctor->isDefaulted() && ctor->getParent()->isAggregate())) {
      if (c->getNumArgs() == 0) return ir::Const::zero(typeOf(c->getType(), loc));
      if (c->getNumArgs() == 1 && (ctor->isCopyOrMoveConstructor()))
        return convert(lowerExpr(c->getArg(0), env), typeOf(c->getType(), loc));
    }
    fail(loc, "calls to constructors of '" + typeStr(c->getType()) + "' are not supported");
  }
  if (const auto *u = dyn_cast<UnaryExprOrTypeTraitExpr>(e)) {
    if (ir::Expr k = tryConstant(u)) return k;
    fail(loc, "this 'sizeof'/'alignof' expression is not supported");
  }
  if (isa<LambdaExpr>(e)) fail(loc, "lambda expressions are not supported");
  if (isa<CXXThrowExpr>(e)) fail(loc, "exceptions are not supported ('throw' expression)");
  if (isa<ArraySubscriptExpr>(e)) {
    ir::Expr a, i;
    if (elementRef(e, env, a, i)) return read(a, i, loc);
    fail(loc, "this subscript is not supported");
  }
  if (isa<CXXThisExpr>(e)) fail(loc, "member functions are not supported yet ('this')");
  if (isa<StringLiteral>(e)) fail(loc, "string literals are not supported");
  if (isa<CXXNullPtrLiteralExpr>(e)) fail(loc, "pointers are not supported yet ('nullptr')");
  if (isa<CXXNewExpr>(e) || isa<CXXDeleteExpr>(e)) fail(loc, "'new' and 'delete' are not supported");
  if (isa<StmtExpr>(e)) fail(loc, "statement expressions are not supported");
  if (ir::Expr k = tryConstant(e)) return k;
  fail(loc, std::string("expression '") + e->getStmtClassName() + "' is not supported");
}

ir::Expr Lowering::lowerCast(const CastExpr *ce, Env &env) {
  SourceLocation loc = ce->getExprLoc();
  const Expr *sub = ce->getSubExpr();
  switch (ce->getCastKind()) {
  case CK_LValueToRValue:
  case CK_NoOp:
  case CK_ConstructorConversion:
    return lowerExpr(sub, env);
  case CK_IntegralToFloating:
  case CK_FloatingToIntegral:
  case CK_FloatingCast:
  case CK_IntegralCast:
  case CK_IntegralToBoolean:
  case CK_FloatingToBoolean:
  case CK_BooleanToSignedIntegral:
    return convert(lowerExpr(sub, env), typeOf(ce->getType(), loc));
  case CK_ToVoid:
    fail(loc, "casts to void are only supported as statements");
  case CK_ArrayToPointerDecay:
  case CK_NullToPointer:
  case CK_BitCast:
  case CK_PointerToBoolean:
  case CK_PointerToIntegral:
  case CK_IntegralToPointer:
  case CK_LValueToRValueBitCast:
    fail(loc, "pointers are not supported yet");
  case CK_FunctionToPointerDecay:
    fail(loc, "function pointers are not supported");
  case CK_DerivedToBase:
  case CK_UncheckedDerivedToBase:
  case CK_BaseToDerived:
  case CK_Dynamic:
    fail(loc, "class hierarchies are not supported");
  case CK_UserDefinedConversion:
    fail(loc, "user-defined conversions are not supported");
  default:
    fail(loc, std::string("conversion '") + ce->getCastKindName() + "' is not supported");
  }
}

ir::Expr Lowering::lowerInitList(const InitListExpr *il, Env &env) {
  SourceLocation loc = il->getExprLoc();
  QualType qt = il->getType();
  ir::TypeP t = typeOf(qt, loc);
  if (t->isScalar()) {
    if (il->getNumInits() == 0) return ir::Const::zero(t);
    return convert(lowerExpr(il->getInit(0), env), t);
  }
  const RecordDecl *rd = qt->getAsRecordDecl();
  std::vector<ir::Expr> es;
  unsigned i = 0;
  for (const FieldDecl *f : rd->fields()) {
    ir::TypeP ft = t->elems[es.size()];
    if (i < il->getNumInits()) es.push_back(convert(lowerExpr(il->getInit(i), env), ft));
    else if (f->hasInClassInitializer() && f->getInClassInitializer())
      es.push_back(convert(lowerExpr(f->getInClassInitializer(), env), ft));
    else es.push_back(ir::Const::zero(ft));
    ++i;
  }
  return ir::Tuple::makeStruct(t, es);
}

ir::Expr Lowering::lowerCall(const CallExpr *ce, Env &env) {
  SourceLocation loc = ce->getExprLoc();
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(ce); oc && oc->getNumArgs() >= 1) {
    ArrayInfo ai;
    if (arrayInfo(oc->getArg(0)->getType(), ai, SourceLocation())) {
      ir::Expr a, i;
      if (elementRef(oc, env, a, i)) return read(a, i, loc);
      if (oc->getOperator() == OO_Equal) fail(loc, "assignment of whole arrays is not supported yet (copy the elements in a loop)");
      fail(loc, "operator '" + std::string(getOperatorSpelling(oc->getOperator())) + "' on arrays is not supported");
    }
  }
  if (const auto *mc = dyn_cast<CXXMemberCallExpr>(ce)) {
    if (ArrayInfo ai; arrayInfo(mc->getObjectType(), ai, SourceLocation())) return lowerArrayMember(mc, env);
    if (ir::Expr k = tryConstant(ce)) return k;
    const CXXMethodDecl *m = mc->getMethodDecl();
    if (m && m->isVirtual()) fail(loc, "virtual calls are not supported ('" + m->getNameAsString() + "')");
    fail(loc, "calls to member functions are not supported yet ('" + (m ? m->getNameAsString() : std::string("?")) + "')");
  }
  const FunctionDecl *fd = ce->getDirectCallee();
  if (!fd) fail(loc, "calls through function pointers are not supported");
  std::string fname = fd->getNameAsString();
  if (const auto *m = dyn_cast<CXXMethodDecl>(fd)) {
    if (!m->isStatic()) {
      if (m->isVirtual()) fail(loc, "virtual calls are not supported ('" + fname + "')");
      fail(loc, "calls to member functions are not supported yet ('" + fname + "')");
    }
  }
  QualType rt = ce->getType();

  // <cmath> and friends
  ir::Op op;
  if (fd->getIdentifier() && isStdOrGlobal(fd->getDeclContext())) {
    llvm::StringRef n = fd->getName();
    bool inStd = !fd->getDeclContext()->getRedeclContext()->isTranslationUnit();
    bool system = inStd || !fd->hasBody() || sm_.isInSystemHeader(sm_.getExpansionLoc(fd->getLocation()));
    if ((n == "min" || n == "max") && inStd && ce->getNumArgs() == 2) {
      ir::TypeP t = typeOf(rt.getNonReferenceType().getUnqualifiedType(), loc);
      ir::Expr a = convert(lowerExpr(ce->getArg(0), env), t), b = convert(lowerExpr(ce->getArg(1), env), t);
      if (n == "min") return ir::If::make(ir::Prim::make(ir::Op::Lt, {b, a}), b, a);
      return ir::If::make(ir::Prim::make(ir::Op::Lt, {a, b}), b, a);
    }
    if (system && mathOpByName(n, op) && int(ce->getNumArgs()) == ir::opArity(op)) {
      ir::TypeP t = typeOf(rt.getUnqualifiedType(), loc);
      std::vector<ir::Expr> args;
      for (unsigned i = 0; i < ce->getNumArgs(); ++i) args.push_back(convert(lowerExpr(ce->getArg(i), env), t));
      if (t->isInt()) {
        if (n != "abs" && n != "labs" && n != "llabs") fail(loc, "'" + fname + "' on integers is not supported");
        ir::Expr x = args[0];
        return ir::If::make(ir::Prim::make(ir::Op::Lt, {x, ir::Const::makeInt(0)}), ir::Prim::make(ir::Op::Neg, {x}), x);
      }
      return ir::Prim::make(op, args);
    }
  }
  if (fd->isVariadic()) fail(loc, "calls to variadic functions are not supported ('" + fname + "')");
  if (fd->getReturnType()->isReferenceType()) {
    if (ir::Expr k = tryConstant(ce)) return k;
    fail(loc, "calls to functions returning references are not supported ('" + fname + "')");
  }
  const FunctionDecl *def = fd->getDefinition();
  if (!def || !def->hasBody() || isa<CXXTryStmt>(def->getBody())) {
    if (ir::Expr k = tryConstant(ce)) return k;
    fail(loc, "call to '" + fname + "' whose body is not visible");
  }
  QualType drt = def->getReturnType();
  if (ArrayInfo ai; drt->isPointerType() || drt->isArrayType() || arrayInfo(drt, ai, SourceLocation()))
    fail(loc, "'" + fname + "' returns an array or a pointer, which is not supported (write into an output parameter instead)");
  std::vector<ir::Expr> args;
  if (ce->getNumArgs() != def->getNumParams()) fail(loc, "call with a wrong number of arguments");
  for (unsigned i = 0; i < ce->getNumArgs(); ++i) {
    ir::TypeP pt = paramType(def->getParamDecl(i));
    if (pt->isArray()) {
      ir::Expr a = lowerArrayRef(ce->getArg(i), env);
      if (!ir::sameType(a->type, pt))
        fail(ce->getArg(i)->getExprLoc(), "array of " + ir::str(a->type->elem()) + " passed as an array of " + ir::str(pt->elem()));
      args.push_back(a);
    } else {
      args.push_back(convert(lowerExpr(ce->getArg(i), env), pt));
    }
  }
  ir::TypeP result = drt->isVoidType() ? ir::Type::unit() : typeOf(drt.getUnqualifiedType(), def->getLocation());
  size_t idx = request(def, false);
  if (!entries_[idx].done) queue_.push_back(idx);
  ir::Expr call = ir::Call::make(entries_[idx].irName, args, result);
  locs_[call.get()] = loc;
  return call;
}

// ========================================================== arrays ===

ir::Expr Lowering::lowerArrayRef(const Expr *e, Env &env) {
  SourceLocation loc = e->getExprLoc();
  const Expr *x = e->IgnoreParenImpCasts();
  if (const auto *m = dyn_cast<MaterializeTemporaryExpr>(x)) x = m->getSubExpr()->IgnoreParenImpCasts();
  if (ir::Expr a, st; flatRow(x, env, a, st))
    fail(loc, "rows of local arrays of arrays can only be indexed ('m[i][j]'), not used as arrays yet");
  if (const auto *d = dyn_cast<DeclRefExpr>(x)) {
    if (const auto *vd = dyn_cast<VarDecl>(d->getDecl()); vd && flatStride_.count(vd))
      fail(loc, "local arrays of arrays can only be indexed ('" + vd->getNameAsString() + "[i][j]'), not used as arrays yet");
    if (const auto *vd = dyn_cast<VarDecl>(d->getDecl())) {
      ir::Expr v = lookupVar(vd, env, loc);
      if (v->type->isArray()) return v;
    }
    fail(loc, "'" + d->getDecl()->getNameAsString() + "' is not an array");
  }
  if (const auto *mc = dyn_cast<CXXMemberCallExpr>(x)) {
    ArrayInfo ai;
    if (mc->getMethodDecl() && mc->getMethodDecl()->getName() == "data" &&
        arrayInfo(mc->getObjectType(), ai, SourceLocation()))
      return lowerArrayRef(mc->getImplicitObjectArgument(), env);
  }
  // a row of an array of arrays: A[i] (an alias, not a copy)
  if (ir::Expr a, i; elementRef(x, env, a, i)) {
    if (a->type->elem()->isArray()) return read(a, i, loc);
    fail(loc, "this array element is not an array");
  }
  if (const auto *b = dyn_cast<BinaryOperator>(x); b && b->isAdditiveOp())
    fail(loc, "pointer arithmetic is not supported (index the array instead: 'x[i]')");
  if (const auto *u = dyn_cast<UnaryOperator>(x)) {
    if (u->isIncrementDecrementOp()) fail(loc, "pointer arithmetic is not supported (index the array instead: 'x[i]')");
    if (u->getOpcode() == UO_AddrOf) fail(loc, "taking addresses is not supported (pointers are only supported as arrays)");
  }
  if (const auto *c = dyn_cast<CallExpr>(x); c && c->getDirectCallee())
    fail(loc, "'" + c->getDirectCallee()->getNameAsString() +
                  "' returns an array or a pointer, which is not supported (write into an output parameter instead)");
  if (isa<CXXNewExpr>(x)) fail(loc, "'new' and 'delete' are not supported (use a local std::vector)");
  if (isa<CXXNullPtrLiteralExpr>(x) || x->isNullPointerConstant(ctx_, Expr::NPC_ValueDependentIsNotNull))
    fail(loc, "null pointers are not supported");
  fail(loc, "this array or pointer expression is not supported (only array variables and 'v.data()')");
}

// The flattened local array of arrays `e` names (`M`), or whose row it is (`M[i]`).
const VarDecl *Lowering::flatVar(const Expr *e) {
  const Expr *x = e->IgnoreParenImpCasts();
  if (const auto *a = dyn_cast<ArraySubscriptExpr>(x)) x = a->getBase()->IgnoreParenImpCasts();
  else if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(x); oc && oc->getOperator() == OO_Subscript && oc->getNumArgs() == 2)
    x = oc->getArg(0)->IgnoreParenImpCasts();
  const auto *d = dyn_cast<DeclRefExpr>(x);
  const auto *vd = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  return vd && flatStride_.count(vd) ? vd : nullptr;
}

// `M[i]` where M is a flattened local array of arrays: M's flat buffer and
// the row's first element, i * stride.
bool Lowering::flatRow(const Expr *e, Env &env, ir::Expr &array, ir::Expr &start) {
  const Expr *x = e->IgnoreParenImpCasts();
  const Expr *base = nullptr, *idx = nullptr;
  if (const auto *a = dyn_cast<ArraySubscriptExpr>(x)) base = a->getBase(), idx = a->getIdx();
  else if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(x); oc && oc->getOperator() == OO_Subscript && oc->getNumArgs() == 2)
    base = oc->getArg(0), idx = oc->getArg(1);
  if (!base) return false;
  const auto *d = dyn_cast<DeclRefExpr>(base->IgnoreParenImpCasts());
  const auto *vd = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  auto it = vd ? flatStride_.find(vd) : flatStride_.end();
  if (it == flatStride_.end()) return false;
  array = lookupVar(vd, env, x->getExprLoc());
  start = ir::Prim::make(ir::Op::Mul, {lowerIndexExpr(idx, env), it->second.stride});
  return true;
}

bool Lowering::elementRef(const Expr *e, Env &env, ir::Expr &array, ir::Expr &index) {
  e = e->IgnoreParens();
  if (const auto *c = dyn_cast<ImplicitCastExpr>(e); c && c->getCastKind() == CK_NoOp) e = c->getSubExpr()->IgnoreParens();
  { // M[i][j] of a flattened local: M[i * stride + j]
    const Expr *rowE = nullptr, *idx = nullptr;
    if (const auto *a = dyn_cast<ArraySubscriptExpr>(e)) rowE = a->getBase(), idx = a->getIdx();
    else if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(e); oc && oc->getOperator() == OO_Subscript && oc->getNumArgs() == 2)
      rowE = oc->getArg(0), idx = oc->getArg(1);
    ir::Expr start;
    if (rowE && flatRow(rowE, env, array, start)) {
      index = ir::Prim::make(ir::Op::Add, {start, lowerIndexExpr(idx, env)});
      return true;
    }
  }
  if (const auto *a = dyn_cast<ArraySubscriptExpr>(e)) {
    array = lowerArrayRef(a->getBase(), env);
    index = lowerIndexExpr(a->getIdx(), env);
    return true;
  }
  if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_Deref) {
    array = lowerArrayRef(u->getSubExpr(), env);
    index = ir::Const::makeInt(0);
    return true;
  }
  ArrayInfo ai;
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(e);
      oc && oc->getOperator() == OO_Subscript && oc->getNumArgs() == 2 && arrayInfo(oc->getArg(0)->getType(), ai, SourceLocation())) {
    array = lowerArrayRef(oc->getArg(0), env);
    index = lowerIndexExpr(oc->getArg(1), env);
    return true;
  }
  if (const auto *mc = dyn_cast<CXXMemberCallExpr>(e); mc && mc->getMethodDecl() && arrayInfo(mc->getObjectType(), ai, SourceLocation())) {
    llvm::StringRef n = mc->getMethodDecl()->getName();
    const Expr *obj = mc->getImplicitObjectArgument();
    if (n == "at" && mc->getNumArgs() == 1) {
      array = lowerArrayRef(obj, env);
      index = lowerIndexExpr(mc->getArg(0), env);
      return true;
    }
    if ((n == "front" || n == "back") && mc->getNumArgs() == 0) {
      array = lowerArrayRef(obj, env);
      index = n == "front" ? ir::Const::makeInt(0)
                           : ir::Prim::make(ir::Op::Sub, {arraySize(obj, array, mc->getExprLoc()), ir::Const::makeInt(1)});
      return true;
    }
  }
  return false;
}

ir::Expr Lowering::lowerArrayMember(const CXXMemberCallExpr *mc, Env &env) {
  SourceLocation loc = mc->getExprLoc();
  const CXXMethodDecl *m = mc->getMethodDecl();
  std::string n = m ? m->getNameAsString() : std::string("?");
  ir::Expr a, i;
  if (elementRef(mc, env, a, i)) return read(a, i, loc);
  const Expr *obj = mc->getImplicitObjectArgument();
  ArrayInfo oi;
  bool constant = arrayInfo(obj->getType(), oi, SourceLocation()) && oi.size >= 0; // std::array: no need to lower obj
  if ((n == "size" || n == "empty") && mc->getNumArgs() == 0) { // of a flattened local array of arrays, or of its row
    ir::Expr len;
    if (ir::Expr a, st; flatRow(obj, env, a, st)) len = flatStride_.at(flatVar(obj)).stride;
    else if (const VarDecl *fv = flatVar(obj)) len = flatStride_.at(fv).rows;
    if (len) return n == "size" ? len : ir::Prim::make(ir::Op::Eq, {len, ir::Const::makeInt(0)});
  }
  if (n == "size" && mc->getNumArgs() == 0)
    return constant ? ir::Const::makeInt(oi.size) : arraySize(obj, lowerArrayRef(obj, env), loc);
  if (n == "empty" && mc->getNumArgs() == 0)
    return constant ? ir::Const::makeBool(oi.size == 0)
                    : ir::Prim::make(ir::Op::Eq, {arraySize(obj, lowerArrayRef(obj, env), loc), ir::Const::makeInt(0)});
  if (n == "data") fail(loc, "'data()' is only supported where an array is expected (indexing it, or passing it to a function)");
  fail(loc, "'" + n + "' on arrays is not supported yet (local std::vectors must get their size when constructed)");
}

bool Lowering::lowerArrayStore(const Expr *e, Env &env, ir::Expr &eff) {
  e = e->IgnoreParens();
  if (const auto *c = dyn_cast<ExprWithCleanups>(e)) e = c->getSubExpr()->IgnoreParens();
  SourceLocation loc = e->getExprLoc();
  const Expr *lhs = nullptr, *rhs = nullptr;
  if (const auto *b = dyn_cast<BinaryOperator>(e); b && b->isAssignmentOp()) lhs = b->getLHS(), rhs = b->getRHS();
  else if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->isIncrementDecrementOp()) lhs = u->getSubExpr();
  else if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(e); oc && isTrivialStructAssign(oc))
    lhs = oc->getArg(0), rhs = oc->getArg(1); // a[i] = Vec3{...}
  else return false;
  // a[i].f.g: the element, then the field path
  std::vector<int> path;
  const Expr *base = lhs->IgnoreParens();
  while (true) {
    if (const auto *c = dyn_cast<ImplicitCastExpr>(base); c && c->getCastKind() == CK_NoOp) base = c->getSubExpr()->IgnoreParens();
    const auto *m = dyn_cast<MemberExpr>(base);
    const auto *f = m && !m->isArrow() ? dyn_cast<FieldDecl>(m->getMemberDecl()) : nullptr;
    if (!f) break;
    path.insert(path.begin(), int(f->getFieldIndex()));
    base = m->getBase()->IgnoreParens();
  }
  ir::Expr a, i;
  if (!elementRef(base, env, a, i)) return false;
  SourceLocation at = lhs->getExprLoc();
  if (!a->is<ir::Var>()) fail(at, "writes into arrays of arrays are not supported yet (use a flat array and 'a[i * n + j]')");
  ir::TypeP et = ir::fieldType(a->type->elem(), path);
  using M = ir::Store::Mode;
  // the current value of the target, for compound assignments
  auto old = [&] {
    ir::Expr r = read(a, i, at);
    for (int k : path) r = ir::Proj::make(r, k);
    return r;
  };
  if (const auto *u = dyn_cast<UnaryOperator>(e)) {
    if (et->isBool()) fail(loc, "increment of a bool");
    if (!et->isScalar()) fail(loc, "increment of a non-arithmetic value");
    ir::Expr one = Lowering::one(et);
    eff = store(a, i, u->isIncrementOp() ? one : ir::Prim::make(ir::Op::Neg, {one}), M::Add, at, path);
    return true;
  }
  ir::Expr r = lowerExpr(rhs, env);
  const auto *ca = dyn_cast<CompoundAssignOperator>(e);
  if (!ca) {
    eff = store(a, i, et->isScalar() ? convert(r, et) : r, M::Set, at, path);
    return true;
  }
  if (!et->isScalar()) fail(loc, "compound assignment to a non-scalar value");
  ir::TypeP ct = typeOf(ca->getComputationResultType(), loc);
  BinaryOperatorKind op = ca->getOpcode();
  if ((op == BO_AddAssign || op == BO_SubAssign) && ir::sameType(ct, et)) {
    ir::Expr v = convert(r, et);
    eff = store(a, i, op == BO_AddAssign ? v : ir::Prim::make(ir::Op::Neg, {v}), M::Add, at, path);
    return true;
  }
  ir::Op o;
  switch (op) {
  case BO_AddAssign: o = ir::Op::Add; break;
  case BO_SubAssign: o = ir::Op::Sub; break;
  case BO_MulAssign: o = ir::Op::Mul; break;
  case BO_DivAssign: o = ir::Op::Div; break;
  case BO_RemAssign:
    if (!ct->isInt()) fail(loc, "operator '%' on non-integers");
    o = ir::Op::Mod;
    break;
  default: fail(ca->getOperatorLoc(), "bitwise operator '" + BinaryOperator::getOpcodeStr(op).str() + "' is not supported");
  }
  eff = store(a, i, convert(ir::Prim::make(o, {convert(old(), ct), convert(r, ct)}), et), M::Set, at, path);
  return true;
}

ir::Expr Lowering::lowerLocalArray(const VarDecl *vd, const ArrayInfo &ai, Env &env,
                                   const std::function<ir::Expr(Env &)> &k) {
  SourceLocation loc = vd->getLocation();
  std::string spelled = "'" + typeStr(vd->getType()) + "'";
  if (ai.kind == ArrayInfo::Pointer) {
    if (const Expr *init = vd->getInit()) {
      const Expr *x = init->IgnoreParenImpCasts();
      if (const auto *c = dyn_cast<ExplicitCastExpr>(x)) x = c->getSubExpr()->IgnoreParenImpCasts();
      const auto *call = dyn_cast<CallExpr>(x);
      const FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
      if (isa<CXXNewExpr>(x) || (callee && callee->getIdentifier() &&
                                 llvm::is_contained({"malloc", "calloc", "realloc", "aligned_alloc"}, callee->getName())))
        fail(x->getBeginLoc(), "dynamic allocation is not supported (use a local 'std::vector<double> v(n)')");
    }
    fail(loc, "pointers are not supported yet (" + spelled + ")");
  }
  ArrayInfo inner;
  bool nested = arrayInfo(ai.elem, inner, SourceLocation(), 1);
  ir::TypeP et = typeOf(nested ? inner.elem : ai.elem, loc);
  const Expr *init = vd->getInit();
  if (init)
    if (const auto *c = dyn_cast<ExprWithCleanups>(init)) init = c->getSubExpr();
  std::vector<ir::Expr> elems; // initial elements; null: zero
  ir::Expr fill, copyFrom;
  std::vector<std::pair<std::string, ir::Expr>> shape; // lets of a runtime shape
  Flat flat;
  ir::Expr size;
  if (nested) {
    // rows of a constant length, or `std::vector<std::vector<T>> m(rows, std::vector<T>(len[, v]))`
    auto bindInt = [&](const std::string &hint, ir::Expr e) -> ir::Expr {
      if (e->is<ir::Const>()) return e;
      std::string n = names_.fresh(vd->getNameAsString() + "_" + hint);
      shape.push_back({n, e});
      return ir::Var::make(n, ir::Type::i64());
    };
    const auto *ce = init ? dyn_cast<CXXConstructExpr>(init) : nullptr;
    std::vector<const Expr *> args;
    if (ce)
      for (const Expr *a : ce->arguments())
        if (!isa<CXXDefaultArgExpr>(a)) args.push_back(a);
    if (ai.size >= 0) flat.rows = ir::Const::makeInt(ai.size);
    else if (ai.kind == ArrayInfo::Vector && ce && !args.empty() && args.size() <= 2 && args[0]->getType()->isIntegerType())
      flat.rows = bindInt("rows", lowerIndexExpr(args[0], env));
    if (inner.size >= 0) {
      flat.stride = ir::Const::makeInt(inner.size);
      if (args.size() == 2) fail(loc, "this constructor of " + spelled + " is not supported yet (give the number of rows)");
    } else if (inner.kind == ArrayInfo::Vector && args.size() == 2) {
      const Expr *row = args[1]->IgnoreImplicit();
      while (true) {
        if (const auto *m = dyn_cast<MaterializeTemporaryExpr>(row)) row = m->getSubExpr()->IgnoreImplicit();
        else if (const auto *b = dyn_cast<CXXBindTemporaryExpr>(row)) row = b->getSubExpr()->IgnoreImplicit();
        else if (const auto *fc = dyn_cast<CXXFunctionalCastExpr>(row)) row = fc->getSubExpr()->IgnoreImplicit();
        else break;
      }
      const auto *rc = dyn_cast<CXXConstructExpr>(row);
      std::vector<const Expr *> rargs;
      if (rc)
        for (const Expr *a : rc->arguments())
          if (!isa<CXXDefaultArgExpr>(a)) rargs.push_back(a);
      if (rc && !rargs.empty() && rargs.size() <= 2 && rargs[0]->getType()->isIntegerType()) {
        flat.stride = bindInt("cols", lowerIndexExpr(rargs[0], env));
        if (rargs.size() == 2) {
          fill = convert(lowerExpr(rargs[1], env), et);
          if (const auto *c = fill->as<ir::Const>(); c && c->isZero()) fill = nullptr;
        }
      }
    }
    if (!flat.rows || !flat.stride)
      fail(loc, "local arrays of arrays are only supported with constant sizes or as 'std::vector<std::vector<T>> m(rows, "
                "std::vector<T>(cols))' (" + spelled + "; or use a flat std::vector and 'a[i * n + j]')");
    size = ir::Prim::make(ir::Op::Mul, {flat.rows, flat.stride});
    if (flat.rows->is<ir::Const>() && flat.stride->is<ir::Const>())
      size = ir::Const::makeInt(flat.rows->as<ir::Const>()->ivalue * flat.stride->as<ir::Const>()->ivalue);
    if (ce && ce->getConstructor()->isCopyOrMoveConstructor()) fail(loc, "copies of arrays of arrays are not supported yet");
    if (init && !isa<InitListExpr>(init) && !ce) fail(loc, "this initializer of " + spelled + " is not supported yet");
    if (ce) init = nullptr; // handled: the shape (and the fill) above
  } else if (ai.size >= 0) {
    size = ir::Const::makeInt(ai.size);
  }
  // the elements of an initializer list; `rows`: a list of rows (lists or zeros)
  std::function<void(const InitListExpr *, bool)> flattenList = [&](const InitListExpr *il, bool rows) {
    if (il->getType()->isRecordType()) { // std::array: one member, the C array
      if (il->getNumInits() == 0 || isa<ImplicitValueInitExpr>(il->getInit(0))) return;
      const auto *sub = dyn_cast<InitListExpr>(il->getInit(0)->IgnoreImplicit());
      if (!sub) fail(il->getBeginLoc(), "this initializer of " + spelled + " is not supported yet");
      return flattenList(sub, rows);
    }
    for (unsigned i = 0; i < il->getNumInits(); ++i) {
      const Expr *x = il->getInit(i);
      if (rows) { // a row: its own list, or zeros
        size_t before = elems.size();
        if (const auto *sub = dyn_cast<InitListExpr>(x->IgnoreImplicit())) flattenList(sub, false);
        else if (!isa<ImplicitValueInitExpr>(x)) fail(x->getBeginLoc(), "this initializer of " + spelled + " is not supported yet");
        elems.resize(before + size_t(inner.size));
        continue;
      }
      if (isa<ImplicitValueInitExpr>(x)) elems.push_back(nullptr);
      else elems.push_back(convert(lowerExpr(x, env), et));
    }
  };
  auto flatten = [&](const InitListExpr *il) { flattenList(il, nested); };
  if (!init) {
    if (!size) size = ir::Const::makeInt(0);
  } else if (const auto *il = dyn_cast<InitListExpr>(init)) {
    flatten(il);
  } else if (const auto *ce = dyn_cast<CXXConstructExpr>(init)) {
    std::vector<const Expr *> args;
    for (const Expr *a : ce->arguments())
      if (!isa<CXXDefaultArgExpr>(a)) args.push_back(a);
    const Expr *first = args.empty() ? nullptr : args[0]->IgnoreImplicit();
    if (args.empty()) {
      if (!size) size = ir::Const::makeInt(0);
    } else if (ce->getConstructor()->isCopyOrMoveConstructor()) {
      copyFrom = lowerArrayRef(args[0], env);
      if (nested || !ir::sameType(copyFrom->type, ir::Type::array(et)))
        fail(loc, nested ? "copies of arrays of arrays are not supported yet" : "copy between arrays of different types");
      if (!size) size = ir::Size::make(copyFrom);
    } else if (const auto *sl = dyn_cast<CXXStdInitializerListExpr>(first)) {
      const auto *il = dyn_cast<InitListExpr>(sl->getSubExpr()->IgnoreImplicit());
      if (!il) fail(loc, "this initializer of " + spelled + " is not supported yet");
      flatten(il);
      size = ir::Const::makeInt(int64_t(elems.size()));
    } else if (ai.kind == ArrayInfo::Vector && args.size() <= 2 && args[0]->getType()->isIntegerType() &&
               (args.size() == 1 || ce->getConstructor()->getParamDecl(1)->getType().getNonReferenceType()
                                        .getUnqualifiedType().getCanonicalType() == ai.elem.getCanonicalType())) {
      size = lowerIndexExpr(args[0], env);
      if (args.size() == 2) {
        fill = convert(lowerExpr(args[1], env), et);
        if (const auto *c = fill->as<ir::Const>(); c && c->isZero()) fill = nullptr;
      }
    } else {
      fail(loc, "this constructor of " + spelled + " is not supported yet (only a size, a size and a value, a copy, or a list)");
    }
  } else {
    fail(loc, "this initializer of " + spelled + " is not supported yet");
  }
  if (!size) size = ir::Const::makeInt(int64_t(elems.size()));
  // let v = NewArray(size) in (initial stores) in k
  std::vector<std::pair<std::string, ir::Expr>> binds;
  if (fill && !fill->is<ir::Const>()) {
    std::string fn = names_.fresh(vd->getNameAsString() + "_fill");
    binds.push_back({fn, fill});
    fill = ir::Var::make(fn, fill->type);
  }
  for (auto it = shape.rbegin(); it != shape.rend(); ++it) binds.insert(binds.begin(), *it);
  std::string n = names_.fresh(vd->getName().empty() ? "a" : vd->getNameAsString());
  arrNames_[n] = vd->getNameAsString();
  ir::Expr arr = ir::Var::make(n, ir::Type::array(et));
  binds.push_back({n, ir::NewArray::make(size, et)});
  using M = ir::Store::Mode;
  if (fill)
    binds.push_back({names_.fresh("_"), effectLoop(size, [&](const ir::Expr &j) { return store(arr, j, fill, M::Set, loc); })});
  if (copyFrom)
    binds.push_back({names_.fresh("_"), effectLoop(size, [&](const ir::Expr &j) {
                       return store(arr, j, read(copyFrom, j, loc), M::Set, loc);
                     })});
  for (size_t i = 0; i < elems.size(); ++i) {
    if (!elems[i]) continue;
    if (const auto *c = elems[i]->as<ir::Const>(); c && c->isZero()) continue;
    binds.push_back({names_.fresh("_"), store(arr, ir::Const::makeInt(int64_t(i)), elems[i], M::Set, loc)});
  }
  env[vd] = arr;
  if (nested) flatStride_[vd] = flat;
  ir::Expr body = k(env);
  for (auto it = binds.rbegin(); it != binds.rend(); ++it) body = ir::Let::make(it->first, it->second, body);
  return body;
}

// ======================================================= statements ===

const VarDecl *Lowering::assignedRoot(const Expr *lhs, std::vector<int> &path, bool diagnose) {
  lhs = lhs->IgnoreParens();
  if (const auto *c = dyn_cast<ImplicitCastExpr>(lhs)) if (c->getCastKind() == CK_NoOp) return assignedRoot(c->getSubExpr(), path, diagnose);
  SourceLocation loc = lhs->getExprLoc();
  if (const auto *d = dyn_cast<DeclRefExpr>(lhs)) {
    const auto *vd = dyn_cast<VarDecl>(d->getDecl());
    if (!vd) { if (diagnose) fail(loc, "assignment to this expression is not supported"); return nullptr; }
    if (!vd->hasLocalStorage()) {
      if (!diagnose) return nullptr;
      if (vd->isStaticLocal()) fail(loc, "writes to static local variable '" + vd->getNameAsString() + "'");
      fail(loc, "writes to global variable '" + vd->getNameAsString() + "'");
    }
    if (vd->getType()->isReferenceType()) {
      if (diagnose) fail(loc, "writes through reference '" + vd->getNameAsString() + "' are not supported yet");
      return nullptr;
    }
    return vd;
  }
  if (const auto *m = dyn_cast<MemberExpr>(lhs)) {
    if (m->isArrow()) { if (diagnose) fail(loc, "pointers are not supported yet ('->' member access)"); return nullptr; }
    const auto *f = dyn_cast<FieldDecl>(m->getMemberDecl());
    if (!f) { if (diagnose) fail(loc, "assignment to this expression is not supported"); return nullptr; }
    const VarDecl *root = assignedRoot(m->getBase(), path, diagnose);
    path.push_back(int(f->getFieldIndex()));
    return root;
  }
  if (!diagnose) return nullptr;
  if (isa<ArraySubscriptExpr>(lhs)) fail(loc, "arrays are not supported yet (subscript)");
  if (const auto *u = dyn_cast<UnaryOperator>(lhs); u && u->getOpcode() == UO_Deref) fail(loc, "pointers are not supported yet");
  fail(loc, "assignment to this expression is not supported");
}

// If `e` is an assignment-like expression, lowers it: the root variable and
// its new value. Returns false for other expressions.
bool Lowering::lowerAssignment(const Expr *e, Env &env, const VarDecl *&root, ir::Expr &newValue) {
  e = e->IgnoreParens();
  if (const auto *c = dyn_cast<ExprWithCleanups>(e)) e = c->getSubExpr()->IgnoreParens();
  const Expr *lhs = nullptr, *rhs = nullptr;
  ir::Op op = ir::Op::Add;
  bool compound = false, incdec = false;
  if (const auto *b = dyn_cast<BinaryOperator>(e); b && b->isAssignmentOp()) {
    lhs = b->getLHS(), rhs = b->getRHS();
    if (const auto *ca = dyn_cast<CompoundAssignOperator>(b)) {
      compound = true;
      switch (ca->getOpcode()) {
      case BO_AddAssign: op = ir::Op::Add; break;
      case BO_SubAssign: op = ir::Op::Sub; break;
      case BO_MulAssign: op = ir::Op::Mul; break;
      case BO_DivAssign: op = ir::Op::Div; break;
      case BO_RemAssign: op = ir::Op::Mod; break;
      default:
        fail(b->getOperatorLoc(), "bitwise operator '" + BinaryOperator::getOpcodeStr(ca->getOpcode()).str() + "' is not supported");
      }
    }
  } else if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->isIncrementDecrementOp()) {
    lhs = u->getSubExpr();
    incdec = true;
    op = u->isIncrementOp() ? ir::Op::Add : ir::Op::Sub;
  } else if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(e); oc && isTrivialStructAssign(oc)) {
    lhs = oc->getArg(0), rhs = oc->getArg(1);
  } else {
    return false;
  }
  if (ArrayInfo ai; arrayInfo(lhs->getType(), ai, SourceLocation())) {
    if (ai.kind == ArrayInfo::Pointer && (incdec || compound))
      fail(e->getExprLoc(), "pointer arithmetic is not supported (index the array instead: 'x[i]')");
    fail(e->getExprLoc(), "assignment of whole arrays or pointers is not supported yet (copy the elements in a loop)");
  }
  std::vector<int> path;
  root = assignedRoot(lhs, path, true);
  auto it = env.find(root);
  if (it == env.end()) fail(lhs->getExprLoc(), "assignment to '" + root->getNameAsString() + "' which is not a local variable");
  ir::Expr cur = it->second;
  ir::Expr old = readPath(cur, path);
  ir::Expr value;
  if (incdec) {
    if (!old->type->isScalar() || old->type->isBool()) fail(e->getExprLoc(), "increment of a non-arithmetic value");
    value = ir::Prim::make(op, {old, one(old->type)});
  } else if (compound) {
    const auto *ca = cast<CompoundAssignOperator>(e);
    ir::TypeP ct = typeOf(ca->getComputationResultType(), e->getExprLoc());
    ir::Expr r = lowerExpr(rhs, env);
    if (!old->type->isScalar()) fail(e->getExprLoc(), "compound assignment to a non-scalar value");
    if (op == ir::Op::Mod && !ct->isInt()) fail(e->getExprLoc(), "operator '%' on non-integers");
    value = convert(ir::Prim::make(op, {convert(old, ct), convert(r, ct)}), old->type);
  } else {
    value = convert(lowerExpr(rhs, env), old->type);
  }
  newValue = updatePath(cur, path, 0, value);
  return true;
}

void Lowering::collectAssigned(const Stmt *s, const Env &env, std::vector<const VarDecl *> &out) {
  if (!s) return;
  if (isa<LambdaExpr>(s)) return;
  const Expr *lhs = nullptr;
  if (const auto *b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp()) lhs = b->getLHS();
  else if (const auto *u = dyn_cast<UnaryOperator>(s); u && u->isIncrementDecrementOp()) lhs = u->getSubExpr();
  else if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(s); oc && isTrivialStructAssign(oc)) lhs = oc->getArg(0);
  if (lhs) {
    std::vector<int> path;
    if (const VarDecl *vd = assignedRoot(lhs, path, false)) {
      auto it = env.find(vd);
      if (it != env.end() && !it->second->type->isArray() && std::find(out.begin(), out.end(), vd) == out.end())
        out.push_back(vd);
    }
  }
  for (const Stmt *c : s->children()) collectAssigned(c, env, out);
}

// An `if` whose branches may `return`: each path ends in a join tuple
//   (returned, value, the variables the branches assign...)
// and the rest of the block follows once, under `if returned then value
// else rest` (copying the rest into every path that reaches it would double
// the code with every such `if`).
ir::Expr Lowering::lowerIfReturning(const IfStmt *is, const ir::Expr &cond, const Seq *rest, Env &env,
                                    const Tail &tail) {
  const Stmt *thenS = is->getThen(), *elseS = is->getElse();
  std::vector<const VarDecl *> assigned;
  collectAssigned(thenS, env, assigned);
  collectAssigned(elseS, env, assigned);
  auto pack = [&](bool returned, const ir::Expr &value, Env &e2) {
    std::vector<ir::Expr> es{ir::Const::makeBool(returned), value};
    for (const VarDecl *v : assigned) es.push_back(e2.at(v));
    return ir::Tuple::make(es);
  };
  auto outer = onReturn_;
  onReturn_ = [&](const ir::Expr &v, Env &e2) { return pack(true, v, e2); };
  Tail fall = [&](Env &e2) { return pack(false, ir::Const::zero(result_), e2); };
  Seq t{&thenS, &thenS + 1, nullptr};
  Seq f{&elseS, elseS ? &elseS + 1 : &elseS, nullptr};
  Env envT = env, envF = env;
  ir::Expr te = lowerSeq(&t, envT, fall);
  ir::Expr ee = lowerSeq(&f, envF, fall);
  onReturn_ = outer;
  std::string jn = names_.fresh("joined");
  ir::Expr joined = ir::If::make(cond, te, ee);
  ir::Expr jv = ir::Var::make(jn, joined->type);
  ir::Expr value = ir::Proj::make(jv, 1);
  // A return inside an enclosing returning `if` passes the value on (the
  // variables' values do not matter then; those in scope here are used).
  Env before = env;
  ir::Expr returned = outer ? outer(value, before) : value;
  // The rest, after the branches' assignments.
  std::vector<std::pair<std::string, ir::Expr>> binds;
  for (size_t i = 0; i < assigned.size(); ++i) {
    std::string n = names_.fresh(assigned[i]->getNameAsString());
    ir::Expr val = ir::Proj::make(jv, int(i) + 2);
    env[assigned[i]] = ir::Var::make(n, val->type);
    binds.push_back({n, val});
  }
  ir::Expr after = lowerSeq(rest, env, tail);
  for (auto it = binds.rbegin(); it != binds.rend(); ++it) after = ir::Let::make(it->first, it->second, after);
  return ir::Let::make(jn, joined, ir::If::make(ir::Proj::make(jv, 0), returned, after));
}

ir::Expr Lowering::lowerIf(const IfStmt *is, const Seq *rest, Env &env, const Tail &tail) {
  if (is->getInit() || is->getConditionVariable())
    fail(is->getIfLoc(), "'if' statements with an initializer or a condition variable are not supported");
  if (is->isConsteval()) fail(is->getIfLoc(), "'if consteval' is not supported");
  const Stmt *thenS = is->getThen(), *elseS = is->getElse();
  ir::Expr cond = toBool(lowerExpr(is->getCond(), env));
  if ((containsJump(thenS) || containsJump(elseS)) && !containsLoopJump(thenS) && !containsLoopJump(elseS))
    return lowerIfReturning(is, cond, rest, env, tail);
  if (containsJump(thenS) || containsJump(elseS)) {
    // continuation style (break/continue): the rest goes into both branches
    Seq t{&thenS, &thenS + 1, rest};
    Seq f{&elseS, elseS ? &elseS + 1 : &elseS, rest};
    Env envT = env, envF = env;
    ir::Expr te = lowerSeq(&t, envT, tail);
    ir::Expr ee = lowerSeq(&f, envF, tail);
    if (!ir::sameType(te->type, ee->type)) throw ir::IRError("branches of if differ in type");
    return ir::If::make(cond, te, ee);
  }
  std::vector<const VarDecl *> assigned;
  collectAssigned(thenS, env, assigned);
  collectAssigned(elseS, env, assigned);
  Tail join = [&assigned](Env &e2) -> ir::Expr {
    if (assigned.empty()) return ir::Tuple::make({});
    std::vector<ir::Expr> vs;
    for (const VarDecl *v : assigned) vs.push_back(e2.at(v));
    return vs.size() == 1 ? vs[0] : ir::Tuple::make(vs);
  };
  Seq t{&thenS, &thenS + 1, nullptr};
  Seq f{&elseS, elseS ? &elseS + 1 : &elseS, nullptr};
  ir::Expr te = lowerSeq(&t, env, join);
  ir::Expr ee = lowerSeq(&f, env, join);
  ir::Expr joined = ir::If::make(cond, te, ee);
  if (assigned.empty()) {
    if (!ir::mayWrite(te) && !ir::mayWrite(ee)) return lowerSeq(rest, env, tail); // nothing observable
    return effect(joined, [&] { return lowerSeq(rest, env, tail); });
  }
  if (assigned.size() == 1) {
    const VarDecl *v = assigned[0];
    return bindAndContinue(v, joined, rest, env, tail);
  }
  std::string tn = names_.fresh("merged");
  ir::Expr tv = ir::Var::make(tn, joined->type);
  std::vector<std::pair<std::string, ir::Expr>> binds;
  for (size_t i = 0; i < assigned.size(); ++i) {
    std::string n = names_.fresh(assigned[i]->getNameAsString());
    ir::Expr val = ir::Proj::make(tv, int(i));
    env[assigned[i]] = ir::Var::make(n, val->type);
    binds.push_back({n, val});
  }
  ir::Expr body = lowerSeq(rest, env, tail);
  for (auto it = binds.rbegin(); it != binds.rend(); ++it) body = ir::Let::make(it->first, it->second, body);
  return ir::Let::make(tn, joined, body);
}

// ============================================================ loops ===
//
// Every loop becomes one IR loop whose state is the tuple of the outer
// variables the loop assigns (see LoopState); the body is lowered with a tail
// that packs the state again (`continue` jumps there; `break` packs it with
// the `done` flag set). Arrays are never state: Stores in the body update them.

// `for (int i = a; i < b; ++i)` and friends: a Fold over [a, b) (reversed for
// `for (int i = b - 1; i >= a; --i)`), when `i` is only changed by the
// increment and `b` cannot change in the loop.
bool Lowering::countedShape(const ForStmt *fs, const Env &env, Counted &c) {
  const auto *ds = dyn_cast_or_null<DeclStmt>(fs->getInit());
  if (!ds || !ds->isSingleDecl() || !fs->getCond() || !fs->getInc() || fs->getConditionVariable()) return false;
  const auto *iv = dyn_cast<VarDecl>(ds->getSingleDecl());
  if (!iv || !iv->getInit() || iv->getType()->isReferenceType() || !iv->getType()->isIntegerType() ||
      iv->getType()->isBooleanType())
    return false;
  auto isIv = [iv](const Expr *e) {
    const auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return d && d->getDecl() == iv;
  };
  // `i + k` / `i - k` with a constant k (e.g. `i + 1 < n`)
  auto ivPlusConst = [&](const Expr *e, int64_t &k) {
    const auto *a = dyn_cast<BinaryOperator>(e->IgnoreParenImpCasts());
    if (!a || (a->getOpcode() != BO_Add && a->getOpcode() != BO_Sub) || !isIv(a->getLHS())) return false;
    Expr::EvalResult r;
    if (!a->getRHS()->EvaluateAsInt(r, ctx_)) return false;
    k = r.Val.getInt().getSExtValue();
    if (a->getOpcode() == BO_Sub) k = -k;
    return true;
  };
  const auto *b = dyn_cast<BinaryOperator>(fs->getCond()->IgnoreParens());
  if (!b || !b->isComparisonOp()) return false;
  BinaryOperatorKind op = b->getOpcode();
  if (isIv(b->getLHS())) {
    c.bound = b->getRHS();
  } else if (ivPlusConst(b->getLHS(), c.offset)) {
    c.bound = b->getRHS();
  } else if (isIv(b->getRHS())) {
    c.bound = b->getLHS();
    op = op == BO_LT ? BO_GT : op == BO_GT ? BO_LT : op == BO_LE ? BO_GE : op == BO_GE ? BO_LE : op;
  } else {
    return false;
  }
  if (!c.bound->IgnoreParenImpCasts()->getType()->isIntegerType()) return false;
  // the step: +1 or -1
  int step = 0;
  const Expr *inc = fs->getInc()->IgnoreParens();
  if (const auto *u = dyn_cast<UnaryOperator>(inc); u && u->isIncrementDecrementOp() && isIv(u->getSubExpr())) {
    step = u->isIncrementOp() ? 1 : -1;
  } else if (const auto *ca = dyn_cast<CompoundAssignOperator>(inc);
             ca && isIv(ca->getLHS()) && (ca->getOpcode() == BO_AddAssign || ca->getOpcode() == BO_SubAssign)) {
    Expr::EvalResult r;
    if (!ca->getRHS()->EvaluateAsInt(r, ctx_)) return false;
    int64_t k = r.Val.getInt().getSExtValue();
    if (ca->getOpcode() == BO_SubAssign) k = -k;
    if (k != 1 && k != -1) return false;
    step = int(k);
  } else {
    return false;
  }
  if (step == 1 && (op == BO_LT || op == BO_NE || op == BO_LE)) {
    c.reversed = false;
    c.adjust = op == BO_LE;
  } else if (step == -1 && (op == BO_GE || op == BO_GT)) {
    c.reversed = true;
    c.adjust = op == BO_GT;
  } else {
    return false;
  }
  // the index is not assigned in the body
  {
    Env only;
    only[iv] = ir::Const::makeInt(0);
    std::vector<const VarDecl *> out;
    collectAssigned(fs->getBody(), only, out);
    if (!out.empty()) return false;
  }
  // the bound does not change in the loop: no variable the body assigns, no
  // array element, no call given an array (`v.size()` is fine)
  std::vector<const VarDecl *> assigned;
  collectAssigned(fs->getBody(), env, assigned);
  std::function<bool(const Stmt *)> invariant = [&](const Stmt *x) -> bool {
    if (!x) return true;
    if (const auto *d = dyn_cast<DeclRefExpr>(x))
      return std::find(assigned.begin(), assigned.end(), d->getDecl()) == assigned.end();
    if (isa<ArraySubscriptExpr>(x) || isa<CXXOperatorCallExpr>(x) ||
        (isa<UnaryOperator>(x) && cast<UnaryOperator>(x)->getOpcode() == UO_Deref))
      return false;
    if (const auto *mc = dyn_cast<CXXMemberCallExpr>(x)) {
      ArrayInfo ai;
      return mc->getMethodDecl() && mc->getMethodDecl()->getName() == "size" &&
             arrayInfo(mc->getObjectType(), ai, SourceLocation());
    }
    if (const auto *call = dyn_cast<CallExpr>(x))
      for (const Expr *a : call->arguments()) {
        ArrayInfo ai;
        if (arrayInfo(a->getType(), ai, SourceLocation())) return false;
      }
    for (const Stmt *ch : x->children())
      if (!invariant(ch)) return false;
    return true;
  };
  if (!invariant(c.bound)) return false;
  c.index = iv;
  return true;
}

ir::Expr Lowering::lowerFor(const ForStmt *fs, const Seq *rest, Env &env, const Tail &tail) {
  if (fs->getConditionVariable()) fail(fs->getForLoc(), "'for' with a condition variable is not supported");
  Counted c;
  if (!countedShape(fs, env, c)) {
    // a While over the state, the increment at the end of each iteration
    const Stmt *init = fs->getInit();
    if (!init) return lowerWhile(fs->getBody(), fs->getCond(), fs->getInc(), false, rest, env, tail);
    Seq is{&init, &init + 1, nullptr};
    return lowerSeq(&is, env, [&](Env &e2) {
      return lowerWhile(fs->getBody(), fs->getCond(), fs->getInc(), false, rest, e2, tail);
    });
  }
  ir::TypeP i64 = ir::Type::i64();
  ir::Expr start = convert(lowerExpr(c.index->getInit(), env), i64);
  ir::Expr bound = convert(lowerExpr(c.bound, env), i64);
  if (c.offset != 0) bound = ir::Prim::make(ir::Op::Sub, {bound, ir::Const::makeInt(c.offset)});
  ir::Expr one = ir::Const::makeInt(1);
  ir::Expr lo, hi;
  if (!c.reversed) {
    lo = start;
    hi = c.adjust ? ir::Prim::make(ir::Op::Add, {bound, one}) : bound;
  } else {
    lo = c.adjust ? ir::Prim::make(ir::Op::Add, {bound, one}) : bound;
    hi = ir::Prim::make(ir::Op::Add, {start, one});
  }
  const Stmt *body = fs->getBody();
  LoopState st = loopState({body}, env, containsBreak(body));
  std::string idx = names_.fresh(c.index->getName().empty() ? "i" : c.index->getNameAsString());
  std::string sn = names_.fresh("state");
  ir::Expr sv = ir::Var::make(sn, st.type);
  Env eb = env;
  eb[c.index] = ir::Var::make(idx, i64);
  Binds binds;
  unpack(st, sv, eb, binds);
  Tail cont = [this, &st](Env &e) { return pack(st, e, false); };
  ir::Expr b = wrap(binds, lowerBody(body, eb, st, cont));
  if (st.done) b = ir::If::make(component(st, sv, st.doneIndex()), sv, b); // after a break: nothing
  ir::Expr loop = ir::Fold::make(lo, hi, pack(st, env, false), idx, sn, b, c.reversed);
  return afterLoop(st, loop, rest, env, tail);
}

ir::Expr Lowering::lowerRangeFor(const CXXForRangeStmt *rs, const Seq *rest, Env &env, const Tail &tail) {
  SourceLocation loc = rs->getForLoc();
  if (rs->getInit()) fail(loc, "range-based 'for' with an initializer is not supported");
  const Expr *range = rs->getRangeInit();
  ArrayInfo ai;
  if (!range || !arrayInfo(range->getType(), ai, SourceLocation()) || ai.kind == ArrayInfo::Pointer)
    fail(loc, "range-based 'for' is only supported over arrays (std::vector, std::array, C arrays)");
  const VarDecl *lv = rs->getLoopVariable();
  QualType lt = lv->getType();
  if (lt->isReferenceType() && !lt.getNonReferenceType().isConstQualified())
    fail(lv->getLocation(), "range-based 'for' with a non-const reference is not supported yet (index the array to write it)");
  ir::Expr arr = lowerArrayRef(range, env);
  ir::Expr n = arraySize(range, arr, loc);
  const Stmt *body = rs->getBody();
  LoopState st = loopState({body}, env, containsBreak(body));
  std::string idx = names_.fresh("i");
  std::string sn = names_.fresh("state");
  ir::Expr sv = ir::Var::make(sn, st.type);
  Env eb = env;
  Binds binds;
  unpack(st, sv, eb, binds);
  std::string ln = names_.fresh(lv->getNameAsString());
  if (ArrayInfo rai; arrayInfo(lt.getNonReferenceType(), rai, SourceLocation())) {
    if (!lt->isReferenceType())
      fail(lv->getLocation(), "range-based 'for' copying rows is not supported (use 'const auto& " + lv->getNameAsString() + "')");
    ir::Expr row = read(arr, ir::Var::make(idx, ir::Type::i64()), lv->getLocation());
    binds.push_back({ln, row});
    eb[lv] = ir::Var::make(ln, row->type);
  } else {
    ir::TypeP lty = typeOf(lt.getNonReferenceType().getUnqualifiedType(), lv->getLocation());
    binds.push_back({ln, convert(read(arr, ir::Var::make(idx, ir::Type::i64()), lv->getLocation()), lty)});
    eb[lv] = ir::Var::make(ln, lty);
  }
  Tail cont = [this, &st](Env &e) { return pack(st, e, false); };
  ir::Expr b = wrap(binds, lowerBody(body, eb, st, cont));
  // The loop variable is read once, at the start of the iteration: a
  // reference would see the body's writes to the element, a copy does not.
  if (lt->isReferenceType())
    if (auto av = arr->as<ir::Var>()) {
      struct W : ir::Visitor {
        std::string a;
        bool found = false;
        void visit(const ir::Store *x) override {
          if (auto v = x->array->as<ir::Var>(); v && v->name == a) found = true;
          ir::Visitor::visit(x);
        }
      } w;
      w.a = av->name;
      w.visitExpr(b);
      // calls that may write it: it is passed where the callee takes a
      // pointer or reference to non-const
      struct C : RecursiveASTVisitor<C> {
        const ValueDecl *range = nullptr;
        bool found = false;
        bool VisitCallExpr(CallExpr *c) {
          const FunctionDecl *fd = c->getDirectCallee();
          for (unsigned k = 0; k < c->getNumArgs(); ++k) {
            const Expr *x = c->getArg(k)->IgnoreParenImpCasts();
            if (const auto *m = dyn_cast<CXXMemberCallExpr>(x)) x = m->getImplicitObjectArgument()->IgnoreParenImpCasts();
            const auto *d = dyn_cast<DeclRefExpr>(x);
            if (!d || d->getDecl() != range) continue;
            if (!fd || k >= fd->getNumParams()) { found = true; continue; }
            QualType t = fd->getParamDecl(k)->getType();
            QualType pointee = t->isReferenceType() ? t.getNonReferenceType() : t->isPointerType() ? t->getPointeeType() : QualType();
            if (!pointee.isNull() && !pointee.isConstQualified()) found = true;
          }
          return true;
        }
      } calls;
      if (const auto *d = dyn_cast<DeclRefExpr>(range->IgnoreParenImpCasts())) {
        calls.range = d->getDecl();
        calls.TraverseStmt(const_cast<Stmt *>(body));
        w.found |= calls.found;
      }
      if (w.found)
        fail(lv->getLocation(), "range-based 'for' by reference over an array the loop writes is not supported (take the "
                                "element by value, or index the array)");
    }
  if (st.done) b = ir::If::make(component(st, sv, st.doneIndex()), sv, b);
  ir::Expr loop = ir::Fold::make(ir::Const::makeInt(0), n, pack(st, env, false), idx, sn, b);
  return afterLoop(st, loop, rest, env, tail);
}

// `while (c) B`, `do B while (c)` (B once, then the while) and the `for`
// loops of other shapes (with the increment `inc` ending each iteration).
ir::Expr Lowering::lowerWhile(const Stmt *body, const Expr *cond, const Stmt *inc, bool isDo, const Seq *rest,
                              Env &env, const Tail &tail) {
  LoopState st = loopState({body, inc}, env, containsBreak(body));
  std::string sn = names_.fresh("state");
  ir::Expr sv = ir::Var::make(sn, st.type);
  Tail packT = [this, &st](Env &e) { return pack(st, e, false); };
  Tail cont = packT;
  if (inc)
    cont = [&](Env &e) {
      Seq is{&inc, &inc + 1, nullptr};
      return lowerSeq(&is, e, packT);
    };
  // the condition sees the state directly
  Env ec = env;
  for (size_t k = 0; k < st.vars.size(); ++k) ec[st.vars[k]] = component(st, sv, k);
  ir::Expr c = cond ? toBool(lowerExpr(cond, ec)) : ir::Const::makeBool(true);
  if (st.done) c = ir::Prim::make(ir::Op::And, {ir::Prim::make(ir::Op::Not, {component(st, sv, st.doneIndex())}), c});
  Env eb = env;
  Binds binds;
  unpack(st, sv, eb, binds);
  ir::Expr b = wrap(binds, lowerBody(body, eb, st, cont));
  if (!isDo) return afterLoop(st, ir::While::make(pack(st, env, false), sn, c, b), rest, env, tail);
  // do B while (c): the first iteration, then the loop
  Env e1 = env;
  ir::Expr first = lowerBody(body, e1, st, cont);
  std::string fn = names_.fresh("state");
  ir::Expr loop = ir::While::make(ir::Var::make(fn, st.type), sn, c, b);
  return ir::Let::make(fn, first, afterLoop(st, loop, rest, env, tail));
}

ir::Expr Lowering::lowerSeq(const Seq *s, Env env, const Tail &tail) {
  while (s && s->b == s->e) s = s->next;
  if (!s) return tail(env);
  const Stmt *st = *s->b;
  Seq restNode{s->b + 1, s->e, s->next};
  const Seq *rest = &restNode;
  SourceLocation loc = st->getBeginLoc();

  if (const auto *cs = dyn_cast<CompoundStmt>(st)) {
    Seq inner{cs->body_begin(), cs->body_end(), rest};
    return lowerSeq(&inner, env, tail);
  }
  if (isa<NullStmt>(st)) return lowerSeq(rest, env, tail);
  if (const auto *rs = dyn_cast<ReturnStmt>(st)) {
    if (!rs->getRetValue()) {
      if (result_->isUnit()) return onReturn_ ? onReturn_(ir::Tuple::make({}), env) : ir::Tuple::make({});
      fail(loc, "'return' without a value");
    }
    ir::Expr v = convert(lowerExpr(rs->getRetValue(), env), result_);
    return onReturn_ ? onReturn_(v, env) : v;
  }
  if (const auto *ds = dyn_cast<DeclStmt>(st)) {
    // one declaration at a time: lower the first, then the remainder
    std::vector<const VarDecl *> vars;
    for (const Decl *d : ds->decls()) {
      if (const auto *vd = dyn_cast<VarDecl>(d)) {
        if (vd->isStaticLocal()) {
          if (vd->getType().isConstQualified() || vd->isConstexpr()) continue; // read as a constant
          fail(vd->getLocation(), std::string(vd->getTSCSpec() != TSCS_unspecified ? "thread_local" : "static local") +
                                      " variables are not supported ('" + vd->getNameAsString() + "')");
        }
        if (vd->hasExternalStorage()) fail(vd->getLocation(), "local 'extern' declarations are not supported");
        if (vd->getType().isVolatileQualified()) fail(vd->getLocation(), "volatile values are not supported");
        if (vd->getType()->isReferenceType() && !constReferenceLocal(vd))
          fail(vd->getLocation(), "reference variables are not supported yet ('" + vd->getNameAsString() +
                                      "'; only const references to arrays, to temporaries and to elements of const arrays are)");
        if (isa<DecompositionDecl>(vd)) fail(vd->getLocation(), "structured bindings are not supported");
        vars.push_back(vd);
      } else if (isa<RecordDecl>(d)) {
        continue; // local types are rejected where used
      }
    }
    // lower the declarations as a chain of lets
    std::function<ir::Expr(size_t, Env &)> go = [&](size_t k, Env &e2) -> ir::Expr {
      if (k == vars.size()) return lowerSeq(rest, e2, tail);
      const VarDecl *vd = vars[k];
      if (vd->getType()->isReferenceType()) {
        // an array: an alias (`const auto& row = X[i]`); a value: a copy,
        // the same thing since nothing can change what it refers to
        QualType pt = vd->getType().getNonReferenceType();
        if (ArrayInfo ai; arrayInfo(pt, ai, vd->getLocation())) {
          e2[vd] = lowerArrayRef(vd->getInit(), e2);
          return go(k + 1, e2);
        }
        ir::TypeP t = typeOf(pt.getUnqualifiedType(), vd->getLocation());
        std::string n = names_.fresh(vd->getName().empty() ? "v" : vd->getNameAsString());
        ir::Expr init = convert(lowerExpr(vd->getInit(), e2), t);
        e2[vd] = ir::Var::make(n, t);
        ir::Expr body = go(k + 1, e2);
        return ir::Let::make(n, init, body);
      }
      if (ArrayInfo ai; arrayInfo(vd->getType(), ai, vd->getLocation()))
        return lowerLocalArray(vd, ai, e2, [&](Env &e3) { return go(k + 1, e3); });
      ir::TypeP t = typeOf(vd->getType().getUnqualifiedType(), vd->getLocation());
      ir::Expr init = vd->getInit() ? convert(lowerExpr(vd->getInit(), e2), t) : ir::Const::zero(t);
      std::string n = names_.fresh(vd->getName().empty() ? "v" : vd->getNameAsString());
      e2[vd] = ir::Var::make(n, t);
      ir::Expr body = go(k + 1, e2);
      return ir::Let::make(n, init, body);
    };
    return go(0, env);
  }
  if (const auto *is = dyn_cast<IfStmt>(st)) return lowerIf(is, rest, env, tail);
  if (const auto *fs = dyn_cast<ForStmt>(st)) return lowerFor(fs, rest, env, tail);
  if (const auto *rs = dyn_cast<CXXForRangeStmt>(st)) return lowerRangeFor(rs, rest, env, tail);
  if (const auto *ws = dyn_cast<WhileStmt>(st)) {
    if (ws->getConditionVariable()) fail(loc, "'while' with a condition variable is not supported");
    return lowerWhile(ws->getBody(), ws->getCond(), nullptr, false, rest, env, tail);
  }
  if (const auto *ds = dyn_cast<DoStmt>(st)) {
    return lowerWhile(ds->getBody(), ds->getCond(), nullptr, true, rest, env, tail);
  }
  if (isa<BreakStmt>(st) || isa<ContinueStmt>(st)) {
    if (loops_.empty()) fail(loc, "'break' outside a loop is not supported");
    return isa<BreakStmt>(st) ? loops_.back()->brk(env) : loops_.back()->cont(env);
  }
  if (isa<SwitchStmt>(st)) fail(loc, "'switch' statements are not supported yet");
  if (isa<GotoStmt>(st) || isa<IndirectGotoStmt>(st)) fail(loc, "'goto' is not supported");
  if (isa<LabelStmt>(st)) fail(loc, "labels and 'goto' are not supported");
  if (isa<CXXTryStmt>(st)) fail(loc, "exceptions are not supported ('try' statement)");
  if (isa<AsmStmt>(st)) fail(loc, "inline assembly is not supported");
  if (isa<CoroutineBodyStmt>(st) || isa<CoreturnStmt>(st)) fail(loc, "coroutines are not supported");
  if (const auto *e = dyn_cast<Expr>(st)) {
    ir::Expr eff;
    if (lowerArrayStore(e, env, eff)) return effect(eff, [&] { return lowerSeq(rest, env, tail); });
    const VarDecl *root = nullptr;
    ir::Expr value;
    if (lowerAssignment(e, env, root, value)) return bindAndContinue(root, value, rest, env, tail);
    // assert(...) has no effect on the value or its derivatives
    if (loc.isMacroID() && Lexer::getImmediateMacroName(loc, sm_, ctx_.getLangOpts()) == "assert")
      return lowerSeq(rest, env, tail);
    const Expr *x = e->IgnoreParens();
    if (const auto *c = dyn_cast<CStyleCastExpr>(x); c && c->getCastKind() == CK_ToVoid) x = c->getSubExpr();
    else if (const auto *c = dyn_cast<CXXStaticCastExpr>(x); c && c->getCastKind() == CK_ToVoid) x = c->getSubExpr();
    // a value computed for nothing: lower it anyway so unsupported constructs are reported
    ir::Expr v = lowerExpr(x, env);
    if (ir::mayWrite(v)) return effect(v, [&] { return lowerSeq(rest, env, tail); });
    return lowerSeq(rest, env, tail);
  }
  fail(loc, std::string("statement '") + st->getStmtClassName() + "' is not supported");
}

// ======================================================== functions ===

// The constructs that make a body unsupported whatever else it contains,
// reported first (in source order) so the diagnostic names the real culprit.
class Prescan : public RecursiveASTVisitor<Prescan> {
public:
  SourceLocation loc;
  std::string what;
  bool found(SourceLocation l, std::string w) {
    loc = l;
    what = std::move(w);
    return false; // stop
  }
  bool TraverseLambdaExpr(LambdaExpr *e) { return found(e->getBeginLoc(), "lambda expressions are not supported"); }
  bool VisitSwitchStmt(SwitchStmt *s) { return found(s->getBeginLoc(), "'switch' statements are not supported yet"); }
  bool VisitGotoStmt(GotoStmt *s) { return found(s->getBeginLoc(), "'goto' is not supported"); }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *s) { return found(s->getBeginLoc(), "'goto' is not supported"); }
  bool VisitCXXTryStmt(CXXTryStmt *s) { return found(s->getBeginLoc(), "exceptions are not supported ('try' statement)"); }
  bool VisitCXXThrowExpr(CXXThrowExpr *e) { return found(e->getBeginLoc(), "exceptions are not supported ('throw' expression)"); }
  bool VisitAsmStmt(AsmStmt *s) { return found(s->getAsmLoc(), "inline assembly is not supported"); }
  bool VisitCallExpr(CallExpr *c) {
    if (const auto *mc = dyn_cast<CXXMemberCallExpr>(c)) {
      const CXXMethodDecl *m = mc->getMethodDecl();
      if (m && m->isVirtual())
        return found(c->getExprLoc(), "virtual calls are not supported ('" + m->getNameAsString() + "')");
      return true;
    }
    if (isa<CXXPseudoDestructorExpr>(c->getCallee()->IgnoreParens())) return true;
    if (!c->getDirectCallee() && !c->isTypeDependent())
      return found(c->getExprLoc(), "calls through function pointers are not supported");
    return true;
  }
};

void Lowering::lowerEntry(size_t i) {
  entries_[i].done = true;
  const Entry en = entries_[i]; // entries_ grows while lowering: no reference
  const FunctionDecl *fd = en.def;
  fd_ = fd;
  names_ = ir::NameSupply();
  loops_.clear();
  arrNames_.clear();
  flatStride_.clear();
  onReturn_ = nullptr; // (an error inside a loop or an `if` left the previous function's)
  entries_[i].root = current_;
  try {
    if (const auto *m = dyn_cast<CXXMethodDecl>(fd); m && !m->isStatic())
      fail(fd->getLocation(), "member functions are not supported yet ('" + fd->getNameAsString() + "')");
    if (fd->isVariadic()) fail(fd->getLocation(), "variadic functions are not supported");
    if (isa<CXXTryStmt>(fd->getBody())) fail(fd->getBody()->getBeginLoc(), "exceptions are not supported ('try' statement)");
    {
      Prescan pre;
      pre.TraverseStmt(const_cast<Stmt *>(fd->getBody()));
      if (!pre.what.empty()) fail(pre.loc, pre.what);
    }
    ir::Function f;
    f.name = en.irName;
    f.marked = en.marked;
    // WRT list
    std::vector<std::string> wrt;
    bool hasWrt = false;
    if (en.marked) {
      if (const AnnotateAttr *a = markAttr(fd); a && a->getAnnotation().starts_with(kMarkWrt)) {
        hasWrt = true;
        llvm::StringRef list = a->getAnnotation().drop_front(kMarkWrt.size());
        llvm::SmallVector<llvm::StringRef, 8> parts;
        list.split(parts, ',', -1, false);
        for (auto p : parts) {
          p = p.trim();
          if (p.empty()) continue;
          bool found = false;
          for (const ParmVarDecl *pd : fd->parameters()) found |= pd->getName() == p;
          if (!found) fail(a->getLocation(), "'UNFAD_GRADIENT_WRT' names '" + p.str() + "', which is not a parameter");
          if (std::find(wrt.begin(), wrt.end(), p.str()) != wrt.end())
            fail(a->getLocation(), "'UNFAD_GRADIENT_WRT' names '" + p.str() + "' twice");
          wrt.push_back(p.str());
        }
        if (wrt.empty()) fail(a->getLocation(), "'UNFAD_GRADIENT_WRT' names no parameter");
      }
    }
    Env env;
    unsigned k = 0;
    for (const ParmVarDecl *pd : fd->parameters()) {
      ir::Param p;
      p.name = pd->getName().empty() ? names_.fresh("arg" + std::to_string(k)) : pd->getNameAsString();
      names_.reserve(p.name);
      p.type = paramType(pd);
      p.active = ir::isActive(p.type);
      if (hasWrt && std::find(wrt.begin(), wrt.end(), p.name) == wrt.end()) p.active = false;
      else if (hasWrt && !p.active)
        fail(pd->getLocation(), "parameter '" + p.name + "' named in 'UNFAD_GRADIENT_WRT' is not floating-point");
      env[pd] = ir::Var::make(p.name, p.type);
      if (p.type->isArray()) arrNames_[p.name] = p.name;
      f.params.push_back(p);
      ++k;
    }
    if (en.marked) {
      QualType rt = fd->getReturnType();
      // void: checked once the outputs are known (checkArrays)
      if (!rt->isVoidType() && (!rt->isRealFloatingType() || rt->isSpecificBuiltinType(BuiltinType::LongDouble)))
        fail(fd->getLocation(), "return type '" + typeStr(rt) + "' is not floating-point (double or float)");
      bool any = false;
      for (auto &p : f.params) any |= p.active;
      if (!any) fail(fd->getLocation(), "no active (floating-point) parameter");
    }
    QualType rt = fd->getReturnType();
    if (ArrayInfo ai; rt->isPointerType() || arrayInfo(rt, ai, SourceLocation()))
      fail(fd->getLocation(), "functions returning arrays or pointers are not supported (write into an output parameter instead)");
    result_ = rt->isVoidType() ? ir::Type::unit() : typeOf(rt.getUnqualifiedType(), fd->getLocation());
    f.result = result_;
    const auto *body = cast<CompoundStmt>(fd->getBody());
    Seq s{body->body_begin(), body->body_end(), nullptr};
    SourceLocation endLoc = body->getRBracLoc();
    Tail end = [this, endLoc](Env &) -> ir::Expr {
      if (result_->isUnit()) return ir::Tuple::make({});
      fail(endLoc, "control reaches the end of the function without a 'return'");
    };
    f.body = lowerSeq(&s, env, end);
    if (!ir::sameType(f.body->type, f.result)) throw ir::IRError("body type " + ir::str(f.body->type) + " differs from result");
    // C++ information
    ir::CxxInfo &cx = f.cxx;
    cx.name = fd->getNameAsString();
    cx.qualifiedName = "::" + qualifiedPath(fd);
    cx.enclosingNamespace = enclosingNamespace(fd);
    cx.isStatic = fd->getStorageClass() == SC_Static;
    cx.isInline = fd->isInlineSpecified();
    cx.isConstexpr = fd->isConstexpr();
    bool written = en.marked;
    cx.returnType = written ? typeStr(fd->getReturnType()) : qualTypeStr(fd->getReturnType());
    cx.result = describeCxxType(fd->getReturnType(), ctx_, policy_, !written);
    for (const ParmVarDecl *pd : fd->parameters()) {
      cx.paramTypes.push_back(written ? typeStr(pd->getType()) : qualTypeStr(pd->getType()));
      cx.params.push_back(describeCxxType(pd->getType(), ctx_, policy_, !written));
    }
    SourceLocation at = sm_.getExpansionLoc(fd->getLocation());
    cx.file = sm_.getFilename(at).str();
    cx.line = sm_.getExpansionLineNumber(at);
    entries_[i].fn = std::move(f);
    entries_[i].arrayNames = arrNames_;
    entries_[i].ok = true;
  } catch (Abort &) {
    failed_ = true;
  } catch (ir::IRError &err) {
    report(fd->getLocation(), std::string("internal error: ") + err.what());
    failed_ = true;
  }
}

// The reverse sweep recomputes loop bodies (and helpers, through their
// pullbacks) from the loop state and the arguments, reading the arrays as
// they are then: a parameter array must not change once it has been read
// (local arrays are saved and restored by reverse mode). Checked
// conservatively in evaluation order: a store (or a call that writes) after
// any read of the same array is an error; loop bodies are walked twice so a
// read and a store in one loop conflict in either order; the branches of an
// `if` start from the same state.
void Lowering::orderWalk(const ir::Expr &e, Reads &r, const Entry &en) {
  auto arrayVar = [](const ir::Expr &a) -> const ir::Var * { return a->as<ir::Var>(); };
  switch (e->kind) {
  case ir::Kind::Const: case ir::Kind::Var: case ir::Kind::Size: return;
  case ir::Kind::Prim: for (auto &a : e->as<ir::Prim>()->args) orderWalk(a, r, en); return;
  case ir::Kind::Tuple: for (auto &a : e->as<ir::Tuple>()->elems) orderWalk(a, r, en); return;
  case ir::Kind::Proj: orderWalk(e->as<ir::Proj>()->tuple, r, en); return;
  case ir::Kind::NewArray: orderWalk(e->as<ir::NewArray>()->size, r, en); return;
  case ir::Kind::Let: {
    auto l = e->as<ir::Let>();
    orderWalk(l->value, r, en);
    if (l->value->is<ir::NewArray>()) r.erase(l->name); // a fresh buffer
    orderWalk(l->body, r, en);
    return;
  }
  case ir::Kind::If: {
    auto i = e->as<ir::If>();
    orderWalk(i->cond, r, en);
    Reads a = r, b = r;
    orderWalk(i->thenE, a, en);
    orderWalk(i->elseE, b, en);
    r = a;
    r.insert(b.begin(), b.end());
    return;
  }
  case ir::Kind::Index: {
    auto x = e->as<ir::Index>();
    orderWalk(x->index, r, en);
    if (auto v = arrayVar(x->array)) r.emplace(v->name, locOf(e.get(), en));
    return;
  }
  case ir::Kind::Store: {
    auto x = e->as<ir::Store>();
    orderWalk(x->index, r, en);
    orderWalk(x->value, r, en);
    // Local arrays may be rewritten: reverse mode saves what a store
    // overwrites and checkpoints local arrays a loop reads and rewrites.
    auto isParam = [&](const std::string &n) {
      for (auto &p : en.fn.params)
        if (p.name == n && p.type->isArray()) return true;
      return false;
    };
    if (auto v = arrayVar(x->array); v && r.count(v->name) && isParam(v->name))
      checkError(locOf(e.get(), en), en,
                 "array '" + cxxArrayName(en, v->name) + "' is written after it is read (not supported yet)");
    return;
  }
  case ir::Kind::Call: {
    auto c = e->as<ir::Call>();
    for (auto &a : c->args) orderWalk(a, r, en);
    auto sit = summaries_.find(c->callee);
    if (sit == summaries_.end()) return;
    const Summary &sum = sit->second;
    SourceLocation loc = locOf(e.get(), en);
    for (size_t j = 0; j < c->args.size() && j < sum.writes.size(); ++j) {
      auto v = arrayVar(c->args[j]);
      if (!v && sum.writes[j] && c->args[j]->type->isArray())
        checkError(loc, en, "writes into arrays of arrays are not supported yet ('" + c->callee +
                                "' writes the row it is given; use a flat array and 'a[i * n + j]')");
      if (!v) continue;
      for (size_t k = j + 1; k < c->args.size() && k < sum.writes.size(); ++k)
        if (auto w = arrayVar(c->args[k]); w && w->name == v->name && (sum.writes[j] || sum.writes[k]))
          checkError(loc, en, "array '" + cxxArrayName(en, v->name) +
                                  "' is passed twice to a function that writes it (outputs must not alias inputs)");
      bool param = false; // local arrays may be rewritten (reverse mode saves them)
      for (auto &p : en.fn.params) param |= p.name == v->name && p.type->isArray();
      if (sum.writes[j] && r.count(v->name) && param)
        checkError(loc, en, "array '" + cxxArrayName(en, v->name) + "' is written after it is read (not supported yet)");
    }
    for (size_t j = 0; j < c->args.size() && j < sum.reads.size(); ++j)
      if (auto v = arrayVar(c->args[j]); v && sum.reads[j]) r.emplace(v->name, loc);
    return;
  }
  case ir::Kind::Fold: {
    auto f = e->as<ir::Fold>();
    orderWalk(f->lo, r, en);
    orderWalk(f->hi, r, en);
    orderWalk(f->init, r, en);
    orderWalk(f->body, r, en);
    orderWalk(f->body, r, en); // a second iteration
    return;
  }
  case ir::Kind::While: {
    auto w = e->as<ir::While>();
    orderWalk(w->init, r, en);
    for (int k = 0; k < 2; ++k) {
      orderWalk(w->cond, r, en);
      orderWalk(w->body, r, en);
    }
    orderWalk(w->cond, r, en);
    return;
  }
  default: return; // Pullback, Lambda, App: not made by the front end
  }
}

void Lowering::checkArrays() {
  // summaries, to a fixpoint (helpers may be recursive)
  for (auto &en : entries_)
    if (en.ok) summaries_[en.fn.name] = {std::vector<bool>(en.fn.params.size()), std::vector<bool>(en.fn.params.size())};
  for (bool changed = true; changed;) {
    changed = false;
    for (auto &en : entries_) {
      if (!en.ok) continue;
      std::map<std::string, size_t> param;
      for (size_t k = 0; k < en.fn.params.size(); ++k)
        if (en.fn.params[k].type->isArray()) param[en.fn.params[k].name] = k;
      if (param.empty()) continue;
      Summary &me = summaries_[en.fn.name];
      auto mark = [&](std::vector<bool> &v, const ir::Expr &a) {
        const auto *var = a->as<ir::Var>();
        if (!var) return;
        auto it = param.find(var->name);
        if (it != param.end() && !v[it->second]) v[it->second] = changed = true;
      };
      struct Scan : ir::Visitor {
        std::function<void(const ir::Index *)> onIndex;
        std::function<void(const ir::Store *)> onStore;
        std::function<void(const ir::Call *)> onCall;
        void visit(const ir::Index *n) override { onIndex(n); ir::Visitor::visit(n); }
        void visit(const ir::Store *n) override { onStore(n); ir::Visitor::visit(n); }
        void visit(const ir::Call *n) override { onCall(n); ir::Visitor::visit(n); }
      } scan;
      scan.onIndex = [&](const ir::Index *n) { mark(me.reads, n->array); };
      scan.onStore = [&](const ir::Store *n) { mark(me.writes, n->array); };
      scan.onCall = [&](const ir::Call *n) {
        auto it = summaries_.find(n->callee);
        if (it == summaries_.end()) return;
        for (size_t j = 0; j < n->args.size() && j < it->second.reads.size(); ++j) {
          if (it->second.reads[j]) mark(me.reads, n->args[j]);
          if (it->second.writes[j]) mark(me.writes, n->args[j]);
        }
      };
      scan.visitExpr(en.fn.body);
    }
  }
  for (auto &en : entries_) {
    if (!en.ok) continue;
    const Summary &sum = summaries_[en.fn.name];
    bool output = false;
    for (size_t k = 0; k < en.fn.params.size(); ++k) {
      en.fn.params[k].written = sum.writes[k];
      output |= sum.writes[k] && en.fn.params[k].active;
    }
    checkFailed_ = false;
    Reads r;
    orderWalk(en.fn.body, r, en);
    if (!checkFailed_ && en.marked && en.fn.result->isUnit() && !output)
      checkError(en.def->getLocation(), en,
                 "return type 'void' is not floating-point, and the function writes no floating-point output parameter");
    if (checkFailed_) failed_ = true;
  }
}

class MarkFinder : public RecursiveASTVisitor<MarkFinder> {
public:
  std::vector<const FunctionDecl *> found;
  bool shouldVisitTemplateInstantiations() const { return false; }
  bool VisitFunctionDecl(FunctionDecl *fd) {
    if (markAttr(fd)) found.push_back(fd);
    return true;
  }
};

bool Lowering::run(ir::Program &out, std::vector<MarkedFunction> *markedOut) {
  if (diags_.hasErrorOccurred() && !opts_.lowerDespiteErrors) return false;
  unsigned errorsBefore = diags_.getNumErrors();
  MarkFinder finder;
  finder.TraverseDecl(ctx_.getTranslationUnitDecl());
  std::vector<const FunctionDecl *> roots;
  for (const FunctionDecl *fd : finder.found) {
    current_ = fd->getNameAsString();
    bool inMain = sm_.isInMainFile(sm_.getExpansionLoc(fd->getLocation()));
    if (!fd->doesThisDeclarationHaveABody()) {
      if (!fd->getDefinition() && (inMain || !opts_.mainFileOnly) && !fd->isTemplated()) {
        // a marked declaration in a header may well be defined in another file
        if (inMain) report(fd->getLocation(), "the marked function has no definition (put the mark on the definition)");
        if (inMain) failed_ = true;
      }
      continue;
    }
    if (opts_.mainFileOnly && !inMain) continue;
    if (fd->isTemplated() || fd->getDescribedFunctionTemplate()) {
      report(fd->getLocation(), "function templates cannot be marked yet");
      failed_ = true;
      continue;
    }
    if (const auto *m = dyn_cast<CXXMethodDecl>(fd); m && !m->isStatic()) {
      report(fd->getLocation(), "member functions cannot be marked yet");
      failed_ = true;
      continue;
    }
    if (std::find(roots.begin(), roots.end(), fd) == roots.end()) roots.push_back(fd);
  }
  // request all marked first, so they keep the plain names
  for (const FunctionDecl *fd : roots) request(fd, true);
  for (const FunctionDecl *fd : roots) {
    size_t i = index_[fd];
    current_ = fd->getNameAsString();
    if (!entries_[i].done) lowerEntry(i);
    while (!queue_.empty()) {
      size_t j = queue_.front();
      queue_.pop_front();
      if (!entries_[j].done) lowerEntry(j);
    }
  }
  if (!failed_) checkArrays();
  if (failed_ || diags_.getNumErrors() != errorsBefore) return false;
  std::vector<size_t> order(entries_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    SourceLocation la = sm_.getExpansionLoc(entries_[a].def->getBeginLoc());
    SourceLocation lb = sm_.getExpansionLoc(entries_[b].def->getBeginLoc());
    if (la == lb) return false;
    return sm_.isBeforeInTranslationUnit(la, lb);
  });
  for (size_t i : order) {
    out.functions.push_back(entries_[i].fn);
    if (markedOut && entries_[i].marked) {
      MarkedFunction m;
      m.decl = entries_[i].def;
      m.irName = entries_[i].irName;
      m.cxxName = entries_[i].def->getNameAsString();
      m.bodyEnd = sm_.getExpansionLoc(entries_[i].def->getBody()->getEndLoc());
      markedOut->push_back(m);
    }
  }
  return true;
}

} // namespace

bool isMarked(const FunctionDecl *fd) { return fd && markAttr(fd) != nullptr; }

bool lowerMarkedFunctions(ASTContext &ctx, DiagnosticsEngine &diags, ir::Program &out,
                          std::vector<MarkedFunction> *marked, const Options &options) {
  Lowering l(ctx, diags, options);
  return l.run(out, marked);
}

} // namespace unfad::frontend
