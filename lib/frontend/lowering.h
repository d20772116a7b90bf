// The front end's lowering state, shared by the files that lower one kind of
// construct each (types.cpp, expressions.cpp, calls.cpp, arrays.cpp,
// local_arrays.cpp, statements.cpp, loops.cpp, functions.cpp,
// diagnostics.cpp). Internal to lib/frontend.
//
// Lowering of marked C++ functions (Clang AST after Sema) to unfad's IR.
//
// Statements are lowered in continuation style: `lowerSeq` turns the rest of
// a block into the body of the `let` that binds the current statement's new
// SSA value. An `if` whose branches do not jump joins through a tuple of the
// variables it assigns; one whose branches may `return` joins through
// (returned, value, variables...) and the rest of the block follows once
// (lowerIfReturning); one with a `break`/`continue` in a branch duplicates
// the rest of the block into both branches.
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
//   and so is Param::inout (written after a read, in evaluation order, loop
//   bodies counting twice: reverse mode restores such an array as it does a
//   local one), with the IR-level analysis of ir/array_order.h (checkArrays).
//   An array passed twice to a function that writes it is an error, and so
//   is an in/out array of unknown length (a pointer) that a recursive helper
//   writes: its pullback needs a copy of what the call found.
// - A `void` function returns `()` (`Tuple::make({})`); a marked one must write
//   an active output parameter.
// - A helper given an array without derivatives (see passiveArguments) is
//   lowered as its own copy in which that parameter is passive.
#pragma once

#include "unfad/frontend/cxx_types.h"
#include "unfad/frontend/frontend.h"
#include "unfad/ir/array_order.h"
#include "unfad/ir/ir.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>

#include <deque>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace unfad::frontend {

struct Abort {}; // thrown after a diagnostic was reported

// `e` without parentheses, cleanups and no-op implicit casts (with
// `valueCasts`, also array-to-pointer decay and lvalue-to-rvalue: the
// object an operand designates).
const clang::Expr *stripNoOps(const clang::Expr *e, bool valueCasts = false);
// The initialiser `ctor` writes for member `f` (null if none; classes.cpp).
const clang::CXXCtorInitializer *initializerOf(const clang::CXXConstructorDecl *ctor, const clang::FieldDecl *f);
// What `ctor` initialises `f` with: its own initialiser, else the in-class
// one, without no-ops or the default-initialiser wrapper (null if neither).
const clang::Expr *memberInitExpr(const clang::CXXConstructorDecl *ctor, const clang::FieldDecl *f);
// Conversions to a base class (class_layout.cpp).
bool isBaseCast(const clang::CastExpr *c);
const clang::Expr *stripBaseCasts(const clang::Expr *e, int &up);
std::string baseFieldName(const clang::CXXRecordDecl *crd);
// A callable argument without temporaries, copies and `&` (lambdas.cpp).
const clang::Expr *stripCallable(const clang::Expr *e);
// std::function<...> (std_function.cpp).
bool isStdFunction(clang::QualType t);
// The element type T of `std::vector<T>` (name "vector") or `std::array<T,
// N>` ("array"), references seen through; a null type for anything else
// (types.cpp).
clang::QualType stdContainerElement(clang::QualType t, llvm::StringRef name);

// Linked list of statements still to lower (the rest of the enclosing blocks).
struct Seq {
  const clang::Stmt *const *b = nullptr, *const *e = nullptr;
  const Seq *next = nullptr;
};

using Env = std::map<const clang::VarDecl *, ir::Expr>;
using Tail = std::function<ir::Expr(Env &)>;
using Binds = std::vector<std::pair<std::string, ir::Expr>>;

// The array a by-value array parameter's argument copies or moves (`v`,
// `std::move(v)`; calls.cpp).
const clang::Expr *copySource(const clang::Expr *arg);
// pointers.cpp: a null pointer constant (`nullptr`, `0`, `NULL`)
bool isNullPointer(const clang::Expr *x, clang::ASTContext &ctx);
// growing_vectors.cpp: the first use of `vd` in `s` after source location `after`
const clang::DeclRefExpr *useAfter(const clang::Stmt *s, const clang::VarDecl *vd, clang::SourceLocation after,
                                   const clang::SourceManager &sm);
const clang::Expr *stripTemporaries(const clang::Expr *e);

// An array-like C++ type: pointer, C array, std::vector or std::array
// (possibly behind a reference) of scalars, of structs of scalars, or of
// arrays of scalars (`double A[3][3]`, `std::vector<std::vector<double>>`).
struct ArrayInfo {
  enum Kind { Pointer, CArray, Vector, StdArray } kind = Pointer;
  clang::QualType elem;
  int64_t size = -1; // known length (C arrays, std::array)
};

// A container's iterator (iterators.cpp), lowered as a pointer: none, a
// pointer wrapped in a class (`std::vector<T>::iterator`), or a reverse
// iterator over a pointer or such a class (`rbegin()`).
enum class IteratorKind { None, Contiguous, Reverse };
IteratorKind iteratorKind(clang::QualType t);
// & | ^ << >> (or their compound assignments) as IR operators (expressions.cpp).
ir::Op bitwiseOp(clang::BinaryOperatorKind op);
// `throw X` under the implicit nodes of `e` (exceptions.cpp); null otherwise.
const clang::CXXThrowExpr *thrownBy(const clang::Expr *e);
// Whether `s` reads a value of the function: a local variable or a
// parameter (of it or of a helper lowered into it), or `this` (exceptions.cpp).
bool readsFunctionValues(const clang::Stmt *s);
// An expression statement that prints (`std::cout << ...`, `printf(...)`; printing.cpp).
bool printingStmt(const clang::Expr *e);

// A C++ expression the generated code rebuilds from its spelling (a thrown
// exception, a printing statement): the function's numbers it reads are
// `holes`, printed as ir::Throw::kArg marks, their values `args`
// (Lowering::markNumbers, exceptions.cpp).
struct MarkedSpelling {
  std::set<const clang::Stmt *> holes;
  std::map<const clang::Stmt *, std::string> casts; // holes whose C++ type differs from the IR's
  std::map<const clang::Stmt *, std::string> verbatim; // printed as this, marks included (passive data aliases)
  std::vector<ir::Expr> args;
  const clang::LangOptions *langOpts = nullptr;
  // `e` (part of the marked expression) as written, with the marks.
  std::string print(const clang::Expr *e) const;
};
// The pointer type it wraps (`double*`); null for other types.
clang::QualType iteratorPointer(clang::QualType t);
// `++it`, `it--`, `it += k`, `it -= k`, `it = j` on an iterator.
bool iteratorStep(const clang::CXXOperatorCallExpr *oc);
// The iterator (or pointer) under the temporaries, copies and conversions of
// an initialiser or an argument (`const_iterator it = v.begin()` converts
// an iterator; a standard algorithm's by-value argument copies one).
const clang::Expr *stripIteratorCopies(const clang::Expr *e);

// std::pair<A, B> / std::tuple<T...> (pairs_tuples.cpp): its element types.
bool tupleLike(clang::QualType t, std::vector<clang::QualType> *elems = nullptr);
bool tupleLikeRecord(const clang::RecordDecl *rd);
// `std::get<I>(t)` of a pair or tuple: its operand and I.
const clang::Expr *tupleGet(const clang::Expr *e, unsigned &index);
// `std::get<I>(a)` of a std::array (a structured binding's, `auto& [x, y,
// z] = p;`): its operand and I, element I.
const clang::Expr *arrayGet(const clang::Expr *e, unsigned &index);
// `std::tie(a, b, std::ignore) = e`: the tied operands (null for std::ignore) and e.
bool tieAssignment(const clang::Expr *e, std::vector<const clang::Expr *> &targets, const clang::Expr **rhs);
// An assignment of one pair/tuple to another (converting elementwise).
bool tupleLikeAssign(const clang::CXXOperatorCallExpr *oc);
// An instance of a marked function template (template_methods.cpp): its
// template arguments as written after the name, without spaces ("<double>",
// "<double,3>"; the generated block's name).
std::string templateArgsSuffix(const clang::FunctionDecl *fd);
// std::complex<double> / <float> (complex_numbers.cpp); `z op= w` and its
// operator; `z = x` of a real x; `z.real(x)` / `z.imag(x)` (0 / 1, else -1).
bool complexType(clang::QualType t);
// std::optional<T> (optionals.cpp); std::nullopt_t; `o = v` of an optional.
bool optionalType(clang::QualType t);
bool nulloptType(clang::QualType t);
bool optionalAssign(const clang::CXXOperatorCallExpr *oc);
// `o.reset()`, `o.emplace(v)` of an optional (assignments).
bool optionalReset(const clang::CXXMemberCallExpr *mc);
bool complexCompound(const clang::CXXOperatorCallExpr *oc, ir::Op &op);
bool complexRealAssign(const clang::CXXOperatorCallExpr *oc);
int complexSetter(const clang::CXXMemberCallExpr *mc);
// Whether control cannot reach the end of `s` (every path returns or loops
// forever; conservative), switch.cpp.
bool alwaysReturns(const clang::Stmt *s, clang::ASTContext &ctx);
// A `return` in `s`, not in a lambda's body (loops.cpp).
const clang::ReturnStmt *findReturn(const clang::Stmt *s);
// `E` when the definition of `fd` is `{ return E; }` and nothing else (an
// accessor, a getter, a comparator); null otherwise (loops.cpp).
const clang::Expr *singleReturnValue(const clang::FunctionDecl *fd);
// A function returning `const T&` / `T&` to a scalar or a struct, which a
// call read as a value lowers as returning T (calls.cpp).
bool returnsReadableReference(const clang::FunctionDecl *fd);
bool isReferenceWrapper(clang::QualType t); // std::reference_wrapper<T> (reference_wrappers.cpp)
// The UNFAD_GRADIENT / UNFAD_GRADIENT_WRT (or UNFAD_JVP / UNFAD_JVP_WRT)
// annotation of `fd`, if any.
const clang::AnnotateAttr *markAttr(const clang::FunctionDecl *fd);
// Whether that mark asks for forward mode (UNFAD_JVP, UNFAD_JVP_WRT).
bool tangentMarked(const clang::FunctionDecl *fd);
// `a = b` on a struct whose copy/move assignment is trivial (a value copy),
// or on an element of a std::vector<bool> (through its proxy).
bool isTrivialStructAssign(const clang::CXXOperatorCallExpr *oc);
// `v[i]` of a std::vector<bool>, seen through the proxy object it makes.
const clang::Expr *bitElement(const clang::Expr *e);
// `let binds... in body`
ir::Expr wrap(const Binds &binds, ir::Expr body);
// The braces a temporary container is made from (`{a, b}` of a
// `std::vector<double>` argument, `std::vector<double>{a, b}`), under its
// temporaries and conversions (arrays.cpp); null when `e` is none.
const clang::InitListExpr *bracedElements(const clang::Expr *e);
// Member arrays held as fields (member_arrays.cpp): a member's number of
// elements (0: no such array) and of IR fields; `obj.r[i][j]`'s member and
// indices; an accessor's `return E;` (a method returning a reference).
int64_t memberArrayLength(clang::QualType t, clang::QualType *elem);
int64_t memberWidth(clang::QualType t);
const clang::MemberExpr *memberArrayShape(const clang::Expr *e, std::vector<const clang::Expr *> &idx);
const clang::Expr *accessorReturn(const clang::Expr *e, const clang::CXXMethodDecl *&m, const clang::Expr *&object,
                                  std::vector<const clang::Expr *> &args);
bool isMemberArrayBase(const clang::Expr *e);
bool holdsMemberArray(const clang::CXXRecordDecl *rd, int depth = 0);

// A call that changes the length of a growing local std::vector
// (growing_vectors.cpp), keyed by the let that binds the new length.
struct GrowOp {
  bool reset;       // the length is set to `size` (clear, resize, assign); else `added` more
  ir::Expr size;    // for a reset, as evaluated where the vector is declared
  ir::Expr added;   // (push: null, one; insert of a range at the end: its length)
  clang::SourceLocation loc;
  const clang::VarDecl *vector;
};

// std::string / std::string_view (of char) or `const char*`, by value or
// reference: a text parameter; or a library container read only for
// numbers computed from it alone (`const std::map<std::string, double>&
// opts`, `const std::vector<std::string>& names`): a passive object
// parameter (text_params.cpp). Both are passive placeholders.
bool isTextLike(clang::QualType t);
// Text alone (std::string, std::string_view, `const char*`).
bool isText(clang::QualType t);
// A reference to a text-like parameter or to a local text variable (a
// `std::string` built from text: text_params.cpp).
bool textVariable(const clang::Stmt *s);
// A class holding text or a keyed container (a data set with names, a model
// with options), through a const reference, a pointer to const or by value:
// passive data, read only for the numbers in it (passive_data.cpp). Text-like.
bool passiveDataType(clang::QualType t);
// Classes made passive data by the marked functions of the translation unit
// being lowered: a parameter's class with members that are not public (the
// gradient cannot name them), left out of UNFAD_GRADIENT_WRT
// (Lowering::declarePassiveClasses). Its objects are then read as written
// everywhere, like a class holding text.
void setDeclaredPassiveClasses(std::set<const clang::CXXRecordDecl *> classes);
bool declaredPassiveClass(const clang::CXXRecordDecl *rd);
// A class read only as passive data wherever it is: it holds text or a keyed
// container, or it is a declared passive class.
bool passiveClass(clang::QualType t);
// Whether a type holds text or a keyed container anywhere (members, bases,
// elements of its containers; not through pointers).
bool holdsText(clang::QualType t);
// Whether a class type holds a floating-point value anywhere (members,
// bases, elements of its containers).
bool holdsFloats(clang::QualType t);
// A struct of numbers (an aggregate of arithmetic members) that is not
// passive data itself: read from passive data field by field.
bool plainPassiveStruct(clang::QualType t);
// A name of passive data (a local `const Obs& o = d.obs[i];`, a helper's
// parameter given `data->model`): its spelling, with Throw::kArg marks where
// the function's values `args` go (passive_data.cpp).
struct PassiveAlias {
  std::string spelling;
  std::vector<ir::Expr> args;
};
// `s` in parentheses unless it is a postfix expression (`d.obs[i]`,
// `data->model`) that can stand where a name stood.
std::string grouped(const std::string &s);
// Whether `s` may write `v`: assigns it, increments it, takes its address,
// binds a non-const reference to it or passes it to one (statements.cpp).
bool writes(const clang::Stmt *s, const clang::VarDecl *v);
// `e` without what copies a value (parentheses, no-op and lvalue-to-rvalue
// casts, temporaries, a copy or move constructor): the object it copies
// (view_structs.cpp).
const clang::Expr *stripCopies(const clang::Expr *e);

class Lowering {
public:
  Lowering(clang::ASTContext &ctx, clang::DiagnosticsEngine &diags, const Options &opts);

  bool run(ir::Program &out, std::vector<MarkedFunction> *markedOut);
  bool deferred() const { return deferred_; }

private:
  struct Entry {
    const clang::FunctionDecl *def = nullptr;
    std::string irName;
    bool marked = false;
    bool done = false;
    bool ok = false;
    ir::Function fn;
    std::string root;                              // the marked function it is lowered for
    std::map<std::string, std::string> arrayNames; // IR name of an array -> C++ name
    // Parameters this copy of a helper treats as passive: its callers pass
    // arrays without derivatives there (see lowerHelperCall).
    std::vector<bool> passive;
    // The user's call that first led here (for a function in a system
    // header: its errors are reported there) and the function it called.
    clang::SourceLocation callSite;
    std::string calledAt;
    MarkedFunction placement; // a marked method's gradient's places (marked_methods.cpp)
    // No longer called once a marked function was lowered again (a helper
    // its first lowering called: inout_tables.cpp): not checked, not emitted.
    bool dropped = false;
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
    std::vector<const clang::VarDecl *> vars;
    bool done = false;
    bool ret = false;
    ir::TypeP retType;
    ir::TypeP type;
    size_t count() const { return vars.size() + (done ? 1 : 0) + (ret ? 2 : 0); }
    size_t doneIndex() const { return vars.size(); }
  };
  // `for (int i = a; i < b; ++i)` and friends (see countedShape).
  struct Counted {
    const clang::VarDecl *index = nullptr;
    const clang::Expr *bound = nullptr;
    bool reversed = false;
    bool adjust = false; // '<=' (increasing) or '>' (decreasing): the bound is off by one
    int64_t offset = 0;  // `i + offset < bound`: the bound is really bound - offset
    int64_t stride = 1;  // `i += stride` (a positive constant; `i -= stride` when reversed)
    bool pointer = false; // `index` is a pointer or iterator: its offset counts (iterators.cpp)
  };
  // Local arrays of arrays of constant shape (`double M[3][3]`,
  // `std::array<std::array<double, 3>, 3>`) are flat arrays, row-major:
  // M[i][j] is element i * stride + j.
  struct Flat {
    ir::Expr stride, rows; // row length, number of rows (constants or let-bound variables)
  };
  // What a local array starts as (lowerLocalArray's steps fill it in).
  struct LocalArrayInit {
    std::vector<ir::Expr> elems; // initial elements; null: zero
    ir::Expr fill, copyFrom;     // every element set to `fill`, or copied from `copyFrom`
    ir::Expr copyRowsFrom;       // (a table) copied from an array of rows
    ir::Expr size;
    Binds shape; // lets of a runtime shape (rows, columns)
    Flat flat;   // for arrays of arrays
  };

  clang::ASTContext &ctx_;
  clang::DiagnosticsEngine &diags_;
  clang::SourceManager &sm_;
  Options opts_;
  unsigned diagID_ = 0;
  clang::PrintingPolicy policy_{clang::LangOptions()};
  std::string current_; // name of the marked function being differentiated
  std::vector<Entry> entries_;
  // a function and the parameters it is specialised passive in -> its entry
  std::map<std::pair<const clang::FunctionDecl *, std::vector<bool>>, size_t> index_;
  std::set<std::string> irNames_;
  std::deque<size_t> queue_;
  std::map<const clang::RecordDecl *, ir::TypeP> structs_;
  bool failed_ = false;
  bool deferred_ = false; // a marked function with errors in its body was left out (Options::lowerDespiteErrors)

  // per function
  clang::SourceLocation callSite_; // of the entry being lowered (see Entry::callSite)
  std::string calledAt_;
  // Errors in a library's body or declaration are reported at the user's
  // call that reached it: a call lowered in place (a helper's parameters, a
  // body inlined into the caller) is the call site while it lasts.
  struct CallSiteScope {
    CallSiteScope(Lowering &l, const clang::CallExpr *call, const clang::FunctionDecl *callee);
    ~CallSiteScope() { l.callSite_ = site, l.calledAt_ = at; }
    Lowering &l;
    clang::SourceLocation site;
    std::string at;
  };
  ir::NameSupply names_;
  ir::TypeP result_;
  std::vector<const LoopCtx *> loops_;
  std::map<std::string, std::string> arrNames_;
  std::set<std::string> passiveArrays_; // the array parameters without derivatives
  std::set<std::string> unsizedArrays_; // the pointer parameters (no size to print)
  std::map<const clang::VarDecl *, Flat> flatStride_; // the flattened local arrays of arrays
  // The shape of a std::array<std::array<T, N>, M> (constants), or none.
  std::optional<Flat> fixedTable(clang::QualType t);
  // A fixed-size table held flat (a local, a returned Mat3) passed to an
  // inlined helper's parameter of that type: the parameter is held flat too.
  bool bindFixedTableParam(const clang::ParmVarDecl *p, const clang::Expr *arg, Env &env, Env &inner, Binds &binds);
  // The local table held flat that `e` names (a copy of it too), or null.
  const clang::VarDecl *flatTableVar(const clang::Expr *e) const;
  ir::Expr flatTableRef(const clang::Expr *e, Env &env);
  ir::Expr tableLength(const Flat &f);
  ir::Expr assignElements(const ir::Expr &a, const std::vector<ir::Expr> &elems, clang::SourceLocation loc,
                          int64_t cols = 0);
  std::vector<ir::Expr> tableElements(const clang::Expr *table, const clang::InitListExpr *il, const ir::TypeP &et,
                                      Env &env);
  ir::Expr exchangeElements(const ir::Expr &d, const ir::Expr &s, const ir::Expr &n, clang::SourceLocation loc);
  // Whether the call passes such a table (the helper is then inlined).
  bool passesFixedTable(const clang::CallExpr *ce, const clang::FunctionDecl *fd);
  bool passesFlatRow(const clang::CallExpr *ce, const clang::FunctionDecl *fd);
  // Pointer locals: the array each points into (its Env entry is the offset).
  std::map<const clang::VarDecl *, ir::Expr> ptrBase_;
  // What each reference local, and each reference parameter of an inlined
  // helper, designates (references.cpp): a local variable or an array
  // element, or a field of either (path).
  struct RefChoice;
  struct RefTarget {
    const clang::VarDecl *var = nullptr;  // the local variable
    const clang::VarDecl *root = nullptr; // the variable it is in (for the sequencing checks)
    ir::Expr array, index;                // or the element
    std::vector<int> path;
    // or (a const reference only, never written through) one of two
    // objects chosen when it was bound: `const double& m = std::max(a, b)`
    std::shared_ptr<const RefChoice> choice;
  };
  struct RefChoice {
    ir::Expr cond;
    RefTarget then, otherwise;
  };
  std::map<const clang::VarDecl *, RefTarget> refs_;
  // The helper being inlined (a call of a function with a non-const
  // reference parameter): its C++ result and the caller's variables its
  // references name, which its returns give back.
  struct Inlined {
    ir::TypeP result;
    std::vector<const clang::VarDecl *> roots;
    // A helper returning a pointer (view_structs.cpp): its result is the
    // offset into `base`, one of the caller's arrays (`callerArrays`),
    // fixed by its first `return`.
    bool pointer = false;
    mutable ir::Expr base;
    std::set<std::string> callerArrays;
    // A method returning a reference to its object (`Vec3& operator+=`):
    // its `return *this;` gives nothing, the call the object (classes.cpp).
    bool returnsThis = false;
    // A helper whose returned reference is written through or bound to a
    // reference (returned_references.cpp): its result is the index of the
    // element of the caller's array `base` it designates, or 0 when it
    // designates the caller's variable `var`; `path` is the field inside;
    // all fixed by its first `return`, which the others must agree with.
    bool reference = false;
    mutable bool referenceSet = false;
    mutable const clang::VarDecl *var = nullptr;
    mutable std::vector<int> path;
  };
  const Inlined *inline_ = nullptr;
  std::vector<const clang::FunctionDecl *> inlining_; // the helpers being inlined, outermost first
  struct InlineScope {
    Lowering &l;
    const Inlined *savedInline;
    ir::TypeP savedResult;
    std::vector<const LoopCtx *> savedLoops;
    std::function<ir::Expr(const ir::Expr &, Env &)> savedOnReturn;
    InlineScope(Lowering &low, const clang::FunctionDecl *def, const Inlined *in, ir::TypeP packed);
    ~InlineScope();
  };
  // where array reads, stores and calls come from (for the array checks)
  std::map<const ir::Node *, clang::SourceLocation> locs_;
  // Set while lowering the branches of an `if` that may return: what a
  // `return v` becomes there (the branch's join tuple).
  std::function<ir::Expr(const ir::Expr &, Env &)> onReturn_;

  // ----------------------------------------------- side_effects.cpp --
  // Where the side effects of the expression being lowered go (lets put
  // before its statement); null where they are not allowed, and then
  // `noEffectsWhere_` says where that is.
  Binds *effects_ = nullptr;
  std::string noEffectsWhere_;
  struct EffectScope {
    Lowering &l;
    Binds *savedEffects;
    std::string savedWhere;
    EffectScope(Lowering &low, Binds *b, std::string where = "")
        : l(low), savedEffects(low.effects_), savedWhere(low.noEffectsWhere_) {
      l.effects_ = b;
      l.noEffectsWhere_ = std::move(where);
    }
    ~EffectScope() {
      l.effects_ = savedEffects;
      l.noEffectsWhere_ = savedWhere;
    }
  };
  // The full expression `e` lowered with its side effects as lets in `pre`.
  ir::Expr lowerFull(const clang::Expr *e, Env &env, Binds &pre);
  void checkSequenced(const clang::Expr *full);
  ir::Expr lowerSideEffect(const clang::Expr *e, Env &env);
  void addRoots(const RefTarget &t, std::vector<const clang::VarDecl *> &roots);
  const RefChoice *writtenChoice(const clang::Expr *e, const clang::VarDecl *&vd);
  ir::Expr lowerChoiceWrite(const clang::Expr *e, const clang::VarDecl *vd, const RefChoice &choice, Env &env);
  std::vector<const clang::VarDecl *> assignedRoots(const clang::Expr *lhs);
  std::vector<const clang::VarDecl *> choiceRoots(const clang::VarDecl *vd);

  // --------------------------------------------- std_algorithms.cpp --
  bool iteratorRef(const clang::Expr *e, Env &env, ir::Expr &array, ir::Expr &offset);
  bool iteratorRange(const clang::Expr *first, const clang::Expr *last, Env &env, ir::Expr &array, ir::Expr &lo,
                     ir::Expr &n);
  // Where the algorithms that only read their ranges (and write a
  // destination) walk: element j at array[first + j], or array[first - j]
  // for reverse iterators (`v.rbegin()`).
  struct Walk {
    ir::Expr array, first;
    bool backward = false;
    ir::Expr at(const ir::Expr &j) const;
  };
  bool iteratorWalk(const clang::Expr *e, Env &env, Walk &w);
  bool rangeWalk(const clang::Expr *first, const clang::Expr *last, Env &env, Walk &w, ir::Expr &n,
                 bool backwardToo = true);
  ir::Expr foldRange(const ir::Expr &n, const ir::Expr &init,
                     const std::function<ir::Expr(const ir::Expr &, const ir::Expr &)> &body);
  // null when `ce` is none of the algorithms it knows
  ir::Expr lowerStdAlgorithm(const clang::CallExpr *ce, Env &env);
  ir::Expr lowerMemCall(const clang::CallExpr *ce, const clang::FunctionDecl *fd, Env &env); // memcpy, memset
  void refuseOutput(const clang::CallExpr *ce); // printing.cpp
  ir::Expr lowerExtremeElement(const clang::Expr *call, Env &env);
  ir::Expr lowerSwap(const clang::CallExpr *ce, Env &env);
  ir::Expr rangeCopy(const ir::Expr &a, const ir::Expr &lo, const ir::Expr &n, const std::string &hint, Binds &binds,
                     clang::SourceLocation loc);
  ir::Expr lowerRunningRange(const clang::CallExpr *ce, const ir::Expr &a, const ir::Expr &lo, const ir::Expr &n, Env &env);
  // std::sort, std::stable_sort, std::nth_element, std::partial_sort (sorting.cpp)
  ir::Expr lowerSort(const clang::CallExpr *ce, Env &env);
  const clang::FunctionDecl *sortPermutationDecl(const ir::TypeP &elem);
  size_t sortPermutationEntry(const clang::FunctionDecl *fd);
  struct SortKey {
    const clang::Expr *key = nullptr;          // key(a), of the comparator's first parameter
    const clang::ParmVarDecl *param = nullptr; // a
    bool descending = false;
  };

  // ------------------------------------------------ diagnostics.cpp --
  [[noreturn]] void fail(clang::SourceLocation loc, const std::string &what);
  void report(clang::SourceLocation loc, const std::string &what);
  // The constructs that make a body unsupported whatever else it contains.
  void prescan(const clang::FunctionDecl *fd);
  // Whether prescan would refuse the body of `fd` (no diagnostic).
  bool bodyRefused(const clang::FunctionDecl *fd);
  // After lowering: Param::written and the array order rule (ir/array_order.h).
  void checkArrays();
  void reportArrayOrder(const Entry &en, const ir::ArrayOrderViolation &v);
  bool checkUncopyable(const Entry &en, const ir::ArrayParamUses &uses);
  std::set<std::string> recursive_; // the recursive functions (checkArrays)
  // After checkArrays: what forward mode refuses in the code a UNFAD_JVP
  // function reaches (forward_mode.cpp).
  void checkForwardMode();
  void reportAt(const Entry &en, const ir::Node *at, const std::string &what);

  // ------------------------------------------------------ types.cpp --
  std::string typeStr(clang::QualType t) const { return t.getAsString(policy_); }
  std::string qualTypeStr(clang::QualType t) const;
  ir::TypeP typeOf(clang::QualType qt, clang::SourceLocation loc);
  ir::TypeP structType(const clang::RecordDecl *rd, clang::QualType qt, clang::SourceLocation loc);
  // Recognises array-like types (see ArrayInfo). With a valid `loc`, the
  // unsupported variants are errors; without one they are just `false`.
  bool arrayInfo(clang::QualType t, ArrayInfo &out, clang::SourceLocation loc, int depth = 0);
  bool arrayElement(clang::QualType e, const char *what, ArrayInfo &out, clang::SourceLocation loc, int depth);
  ir::TypeP arrayType(const ArrayInfo &ai, clang::SourceLocation loc);
  // `copied`: a by-value std::vector/std::array parameter is an array the
  // callee owns, which every call site copies (lowerHelperCall); elsewhere
  // it is refused.
  ir::TypeP paramType(const clang::ParmVarDecl *p, bool copied = false);
  // A std::vector/std::array parameter taken by value (a copy).
  bool byValueArrayParam(const clang::ParmVarDecl *p);
  // The argument of a by-value array parameter: a fresh copy of the array
  // it copies or moves, made by lets added to `copies` (calls.cpp).
  ir::Expr copiedArgument(const clang::Expr *arg, const clang::ParmVarDecl *param, Env &env, Binds &copies);
  ir::Expr copyArray(const ir::Expr &a, const clang::ParmVarDecl *param, Binds &copies);
  ir::Expr withParamCopies(const ir::Expr &body);
  Binds paramCopies_; // a marked function's by-value array parameters, copied on entry (functions.cpp)
  // In/out arrays of arrays of marked functions, staged through a flat
  // local copy (inout_tables.cpp): the parameters, and while a function is
  // lowered, the copy's binds and the copies back at its exits.
  std::set<const clang::ParmVarDecl *> stagedTables_;
  Binds stagedBinds_;
  std::vector<std::function<ir::Expr(const ir::Expr &, Env &)>> stagedExits_;
  bool restageInOutTables();
  void stageTable(const clang::ParmVarDecl *pd, Env &env);
  bool stagedTable(const Entry &en, const std::string &param) const;
  ir::Expr convert(const ir::Expr &e, const ir::TypeP &to);
  ir::Expr toBool(const ir::Expr &e) { return convert(e, ir::Type::boolean()); }
  static ir::Expr one(const ir::TypeP &t);
  ir::Expr constantFromAPValue(const clang::APValue &v, clang::QualType qt, clang::SourceLocation loc);
  ir::Expr tryConstant(const clang::Expr *e);

  // ------------------------------------------------ expressions.cpp --
  ir::Expr lookupVar(const clang::VarDecl *vd, Env &env, clang::SourceLocation loc);
  // constant_tables.cpp: `static constexpr double kW[] = {...}`, `const double kC = ...` read by name
  bool isConstantTable(const clang::VarDecl *vd);
  ir::Expr namedConstant(const clang::VarDecl *vd, clang::SourceLocation loc);
  bool fixedInitializer(const clang::Expr *init);
  const clang::FunctionDecl *currentRoot_ = nullptr; // the marked function being lowered (tables come before it)
  ir::Expr lowerExpr(const clang::Expr *e, Env &env);
  ir::Expr lowerDeclRef(const clang::DeclRefExpr *d, Env &env);
  // An expression of numbers computed from text parameters alone, or text
  // given to a helper (text_params.cpp); null otherwise.
  ir::Expr lowerTextExpr(const clang::Expr *e, Env &env);
  ir::Expr lowerTextLocal(const clang::VarDecl *vd, Env &env, const std::function<ir::Expr(Env &)> &next);
  bool sawTextParams_ = false; // (lowerTextExpr looks only once there are any)
  // `e` read from text and passive data alone: its spelling and the values
  // at its marks (their effects into `pre`); false when it reads anything
  // else (text_params.cpp).
  bool spellPassive(const clang::Expr *e, Env &env, Binds &pre, PassiveAlias &out);
  ir::Expr passiveArrayCopy(const clang::Expr *e, Env &env);
  const PassiveAlias *passiveAlias(const clang::Stmt *s) const;
  void refusePassiveCall(const clang::Expr *e);
  // Whether `s` reads text or passive data (a text-like parameter, an alias).
  bool readsPassive(const clang::Stmt *s) const;
  // ... and nothing else of the function but integers (no lowering).
  bool readsOnlyPassive(const clang::Expr *e) const;

  // ------------------------------------------------ passive_data.cpp --
  std::map<const clang::VarDecl *, PassiveAlias> passiveAliases_;
  // `const Obs& o = d.obs[i];` (or a copy nothing writes): a name of the data.
  bool passiveLocal(const clang::VarDecl *vd);
  ir::Expr lowerPassiveLocal(const clang::VarDecl *vd, Env &env, const std::function<ir::Expr(Env &)> &next);
  // A helper parameter given passive data other than a parameter itself
  // (`data->model`): the helper is lowered into its caller, the parameter
  // an alias of the argument.
  bool passesPassiveData(const clang::CallExpr *ce, const clang::FunctionDecl *fd);
  bool bindPassiveParam(const clang::ParmVarDecl *p, const clang::Expr *arg, Env &env, Binds &binds);
  bool takesPassivePart(const clang::ParmVarDecl *p, const clang::Expr *arg);
  // `for (const Obs& o : d.obs)`: a range of passive data indexed by
  // position (a std::vector, std::array or C array in it).
  bool passiveRange(const clang::Expr *range);
  // Its length, and the loop variable an alias of its element `i`.
  ir::Expr passiveRangeLength(const clang::Expr *range, const PassiveAlias &over);
  void bindPassiveElement(const clang::CXXForRangeStmt *rs, const PassiveAlias &over, const ir::Expr &i);
  // A marked function's passive data parameter: left out of UNFAD_GRADIENT_WRT.
  void checkPassiveDataParam(const clang::ParmVarDecl *pd, bool hasWrt, bool named);
  void declarePassiveClasses(const std::vector<const clang::FunctionDecl *> &roots);
  ir::Expr lowerMember(const clang::MemberExpr *m, Env &env);
  ir::Expr lowerUnary(const clang::UnaryOperator *u, Env &env);
  ir::Expr lowerBinary(const clang::BinaryOperator *b, Env &env);
  ir::Expr lowerConstruct(const clang::CXXConstructExpr *c, Env &env);
  ir::Expr lowerUnsupported(const clang::Expr *e);
  ir::Expr lowerCast(const clang::CastExpr *ce, Env &env);
  ir::Expr lowerInitList(const clang::InitListExpr *il, Env &env);
  void defaultMemberValue(const clang::FieldDecl *f, const ir::TypeP &st, Env &env, std::vector<ir::Expr> &es);
  ir::Expr aggregateDefault(clang::QualType qt, clang::SourceLocation loc, Env &env);

  // ------------------------------------------------------ calls.cpp --
  ir::Expr lowerCall(const clang::CallExpr *ce, Env &env);
  // <cmath> functions and std::min/max; null when `fd` is none of them.
  ir::Expr lowerMathCall(const clang::CallExpr *ce, const clang::FunctionDecl *fd, Env &env);
  ir::Expr lowerHelperCall(const clang::CallExpr *ce, const clang::FunctionDecl *fd, Env &env);
  std::vector<bool> passiveArguments(const std::vector<ir::Expr> &args);

  // ---------------------------------------------- passive_calls.cpp --
  bool passiveExpr(const clang::Expr *e, int depth = 0);
  ir::Expr lowerPassiveCall(const clang::CallExpr *ce, const clang::FunctionDecl *fd, Env &env);

  // ----------------------------------------------------- arrays.cpp --
  // The buffer an expression denotes (a variable of array type, `v.data()`).
  ir::Expr lowerArrayRef(const clang::Expr *e, Env &env);
  ir::Expr lowerIndexExpr(const clang::Expr *e, Env &env) { return convert(lowerExpr(e, env), ir::Type::i64()); }
  // Recognises an element access (`a[i]`, `*p`, `v.at(i)`, `v.front()`, ...).
  bool elementRef(const clang::Expr *e, Env &env, ir::Expr &array, ir::Expr &index);
  bool flatRow(const clang::Expr *e, Env &env, ir::Expr &array, ir::Expr &start);
  const clang::VarDecl *flatVar(const clang::Expr *e);
  struct TableRow {
    const clang::VarDecl *table = nullptr; // null: not a row of a flattened table
    const clang::Expr *index = nullptr;    // `M[i]`, `M.at(i)`; null for front() and back()
    bool last = false;                     // back()
  };
  TableRow tableRow(const clang::Expr *e);
  ir::Expr tableRowIndex(const TableRow &r, Env &env);
  ir::Expr read(const ir::Expr &array, const ir::Expr &index, clang::SourceLocation loc);
  ir::Expr store(const ir::Expr &array, const ir::Expr &index, const ir::Expr &value, ir::Store::Mode m,
                 clang::SourceLocation loc, std::vector<int> path = {});
  // The length of the array `obj` denotes (a constant for C arrays and std::array).
  ir::Expr arraySize(const clang::Expr *obj, const ir::Expr &array, clang::SourceLocation loc, Env &env);
  ir::Expr lowerArrayMember(const clang::CXXMemberCallExpr *mc, Env &env);
  // resized_members.cpp: `data_.resize(n)` of a split object's member
  ir::Expr lowerMemberResize(const clang::CXXMemberCallExpr *mc, Env &env);
  bool resizesVectorParam(const clang::FunctionDecl *def);
  bool writableVectorParam(const clang::ParmVarDecl *p, ArrayInfo &ai);
  // assigned_objects.cpp: `c = m;` of a class owning std::vectors
  bool lowerObjectAssign(const clang::Expr *e, const Seq *rest, Env &env, const Tail &tail, ir::Expr &out);
  ir::Expr placeResizes(const ir::Expr &body);
  // (`value`: what `sizeName` is bound to, when the caller has it)
  ir::Expr recordedResize(const ir::Expr &array, const std::string &sizeName, clang::SourceLocation loc,
                          const std::string &spelled, const ir::Expr &value = nullptr);
  struct ResizeSite {
    clang::SourceLocation loc;
    std::string spelled;
  };
  std::map<std::string, ResizeSite> resizeSites_; // a member resize's size variable -> its call
  // The element a store writes (for the value of a store inside an expression).
  struct ArrayTarget {
    ir::Expr array, index;
    std::vector<int> path;
  };
  bool lowerArrayStore(const clang::Expr *e, Env &env, ir::Expr &effect, ArrayTarget *target = nullptr);
  // `let _ = effect in k()`
  ir::Expr effect(const ir::Expr &e, const std::function<ir::Expr()> &k);
  // for j in [0, n): body(j) (an effect)
  ir::Expr copyElements(const ir::Expr &src, const ir::Expr &lo, const ir::Expr &dst, const ir::Expr &dlo,
                        const ir::Expr &n, clang::SourceLocation loc);
  ir::Expr fillElements(const ir::Expr &dst, const ir::Expr &dlo, const ir::Expr &n, const ir::Expr &v,
                        clang::SourceLocation loc);
  ir::Expr effectLoop(const ir::Expr &n, const std::function<ir::Expr(const ir::Expr &)> &body);

  // --------------------------------------------------- pointers.cpp --
  ir::Expr lowerPointerExpr(const clang::Expr *x, Env &env);
  ir::Expr lowerPointerLocal(const clang::VarDecl *vd, Env &env, const Tail &k);
  ir::Expr lowerNewArray(const clang::VarDecl *vd, const clang::CXXNewExpr *ne, Env &env, const Tail &k);
  bool lowerPointerAssignment(const clang::Expr *e, const clang::Expr *lhs, const clang::Expr *rhs, Env &env,
                              const clang::VarDecl *&root, ir::Expr &newOffset);
  ir::Expr lowerPointerBinary(const clang::BinaryOperator *b, Env &env);
  bool movesPointer(const clang::FunctionDecl *def, const clang::ParmVarDecl *p);
  // A marked function's `(first, last)` ranges: last -> first (pointers.cpp).
  std::map<const clang::ParmVarDecl *, const clang::ParmVarDecl *> rangeEnds(const clang::FunctionDecl *def);
  void bindRangeEnd(const clang::ParmVarDecl *last, const clang::ParmVarDecl *first, Env &env);
  bool comparesPointers(const clang::FunctionDecl *def);
  bool conditionHasEffects(const clang::Expr *cond);
  ir::Expr lowerEffectfulRight(const clang::BinaryOperator *b, const ir::Expr &left, Env &env);
  ir::Expr choiceWithEffects(const ir::Expr &cond, const std::function<ir::Expr(Env &)> &then,
                             const std::function<ir::Expr(Env &)> &otherwise, Env &env, const std::string &hint);
  const clang::DeclStmt *conditionAsVariable(const clang::Expr *cond, const clang::Expr *&test);
  void bindMovedPointer(const clang::ParmVarDecl *p, const ir::Expr &arg, Env &env, Binds &binds);
  ir::Expr lowerPointerIncDec(const clang::UnaryOperator *u, Env &env);
  ir::Expr pointerReassignment(const clang::VarDecl *vd, const clang::Expr *rhs, Env &env, clang::SourceLocation loc);

  // -------------------------------------------------- iterators.cpp --
  ir::Expr lowerIteratorRef(const clang::Expr *e, Env &env);
  ir::Expr extremeElementPosition(const clang::CallExpr *c, Env &env);
  ir::Expr comparedExtremePosition(const clang::CallExpr *c, const ir::Expr &a, const ir::Expr &lo, const ir::Expr &n,
                                   Env &env);
  ir::Expr foundPosition(const clang::CallExpr *c, Env &env);
  // `auto [lo, hi] = std::minmax_element(...)`, `const auto mm = ...`: the
  // variable (the structured binding's hidden object) and its two
  // positions, views into the range's array; `mm.first`, `mm.second` and
  // the bindings are those views.
  std::map<const clang::VarDecl *, std::pair<ir::Expr, ir::Expr>> positionPairs_;
  // `auto [lo, hi] = std::minmax(a, b)`, `const auto mm = std::minmax(a, b)`
  // (a pair of references): the two references, each to one of a and b
  // (returned_references.cpp).
  std::map<const clang::VarDecl *, std::pair<RefTarget, RefTarget>> refPairs_;
  static const clang::CallExpr *minmaxRefsInit(const clang::VarDecl *vd);
  ir::Expr lowerMinmaxRefs(const clang::VarDecl *vd, Env &env, const Tail &k);
  const RefTarget *pairedRef(const clang::MemberExpr *m);
  static const clang::CallExpr *minmaxElementInit(const clang::VarDecl *vd);
  static const clang::CallExpr *initializerCall(const clang::VarDecl *vd);
  ir::Expr lowerMinmaxElementLocal(const clang::VarDecl *vd, Env &env, const Tail &k);
  ir::Expr pairedPosition(const clang::Expr *e);
  bool iteratorElement(const clang::Expr *e, Env &env, ir::Expr &array, ir::Expr &index);
  ir::Expr lowerIteratorCall(const clang::CallExpr *ce, Env &env);
  ir::Expr lowerRewrittenIteratorComparison(const clang::CXXRewrittenBinaryOperator *rb, Env &env);
  ir::Expr positionOp(clang::BinaryOperatorKind op, const clang::Expr *l, const clang::Expr *r, Env &env,
                      clang::SourceLocation loc);
  bool lowerIteratorStep(const clang::Expr *e, Env &env, const clang::VarDecl *&root, ir::Expr &newOffset);

  // ------------------------------------------------- references.cpp --
  bool outReferenceParam(const clang::ParmVarDecl *p);
  bool takesOutReference(const clang::FunctionDecl *fd);
  const RefTarget *refOf(const clang::VarDecl *vd) const;
  const clang::VarDecl *refRoot(const clang::VarDecl *vd) const;
  ir::Expr readRef(const RefTarget &t, Env &env, clang::SourceLocation loc);
  bool lvalueTarget(const clang::Expr *e, Env &env, RefTarget &t, Binds &binds);
  bool elementTarget(ir::Expr a, const ir::Expr &i, const clang::Expr *e, RefTarget &t, Binds &binds);
  ir::Expr lowerReferenceLocal(const clang::VarDecl *vd, Env &env, const Tail &k);
  ir::Expr lowerInlinedCall(const clang::CallExpr *ce, const clang::FunctionDecl *fd, Env &env);
  ir::Expr packInlined(const ir::Expr &v, Env &env);
  void bindInlinedParams(const clang::FunctionDecl *def, const std::vector<const clang::Expr *> &args, Env &env,
                         Env &inner, Binds &binds, std::vector<const clang::VarDecl *> &roots);

  // -------------------------------------------- returned_arrays.cpp --
  // Helpers returning a std::vector or a std::array by value: each call is
  // lowered into its caller before the statement that makes it, the array
  // the helper returns becoming a local of the caller (returnedArrays_
  // holds it while the statement is lowered).
  using ArrayTail = std::function<ir::Expr(Env &, const ir::Expr &)>;
  std::map<const clang::CallExpr *, ir::Expr> returnedArrays_;
  std::map<const clang::VarDecl *, std::string> arrayNameHints_; // a returned local array -> the caller's name
  const clang::CallExpr *returnedArrayCall(const clang::Expr *e) const;
  // The statement part whose returned-array calls are lowered before it (or null).
  static const clang::Stmt *hoistablePart(const clang::Stmt *st);
  // The returned-array calls `s` makes, in evaluation order, that are not lowered yet.
  void collectReturnedArrays(const clang::Stmt *s, std::vector<const clang::CallExpr *> &out) const;
  // Lowers the calls of `s` (see collectReturnedArrays), then k; `named`:
  // the local the statement declares (its array takes that name).
  ir::Expr hoistReturnedArrays(const clang::Stmt *s, Env &env, const Tail &k, const clang::VarDecl *named = nullptr);
  ir::Expr lowerReturnedArray(const clang::CallExpr *ce, const std::string &name, Env &env, const ArrayTail &k);
  // `a = f(x)` of a returned std::array into an existing one.
  bool lowerReturnedArrayAssign(const clang::Expr *e, const Seq *rest, Env &env, const Tail &tail, ir::Expr &out);
  const clang::Expr *hoistedArray(const clang::Expr *init) const;

  // ----------------------------------------------- pairs_tuples.cpp --
  // std::pair and std::tuple as value types (their library internals are
  // never lowered): an IR struct of their elements, named as the user
  // spells the type; a pair's fields are `first`/`second`, a tuple's
  // `std::get<I>` (the printer writes `std::get<I>(t)` for them).
  ir::TypeP tupleLikeType(clang::QualType qt, const std::vector<clang::QualType> &elems, clang::SourceLocation loc);
  ir::Expr lowerTupleLikeConstruct(const clang::CXXConstructExpr *c, Env &env);
  // make_pair, make_tuple, std::get; null when `fd` is none of them.
  ir::Expr lowerTupleLikeCall(const clang::CallExpr *ce, const clang::FunctionDecl *fd, Env &env);
  // `std::tie(a, std::ignore, c) = e;` as a statement.
  bool lowerTieAssign(const clang::Expr *e, const Seq *rest, Env &env, const Tail &tail, ir::Expr &out);
  // The variables a structured binding of a std::pair/std::tuple refers to
  // through (`auto [a, b] = p;`): references to the hidden object's fields.
  std::set<const clang::VarDecl *> holdingVars_;
  ir::Expr lowerHoldingVar(const clang::VarDecl *vd, Env &env, const Tail &k);
  std::string decompositionName(const clang::VarDecl *vd);

  // -------------------------------------------- complex_numbers.cpp --
  // std::complex as two reals (the file comment says how).
  struct Cx {
    ir::Expr re, im; // im null: a real operand
  };
  ir::TypeP complexIRType(clang::QualType qt, clang::SourceLocation loc);
  Cx complexOperand(const clang::Expr *e, Env &env, Binds &binds);
  Cx complexParts(const ir::Expr &v, Binds &binds);
  ir::Expr shareValue(const ir::Expr &v, const char *hint, Binds &binds);
  ir::Expr complexValue(const Cx &c, const ir::TypeP &t);
  Cx complexArith(ir::Op op, const Cx &a, const Cx &b, Binds &binds);
  ir::Expr lowerComplexConstruct(const clang::CXXConstructExpr *c, Env &env);
  // operators and <complex> functions; null when `ce` is none of them
  ir::Expr lowerComplexCall(const clang::CallExpr *ce, Env &env);
  // `old op= rhs` (rhs complex or real)
  ir::Expr complexCompoundValue(ir::Op op, const ir::Expr &old, const ir::Expr &rhs);

  // ---------------------------------------------- address_taken.cpp --
  // Locals whose address is taken live in a one-element array (a cell).
  std::set<const clang::VarDecl *> cells_;
  bool addressTaken(const clang::VarDecl *vd);
  ir::Expr lowerCellLocal(const clang::VarDecl *vd, Env &env, const std::function<ir::Expr(Env &)> &next);
  void bindCell(const clang::VarDecl *vd, ir::Expr init, Env &env, Binds &binds);
  // A variable's value: its cell's element, or what env binds it to.
  ir::Expr cellValue(const clang::VarDecl *vd, Env &env);
  // Its store of `value` (an effect), and `&vd` (null: `e` names no cell).
  ir::Expr storeCell(const clang::VarDecl *vd, Env &env, const ir::Expr &value);
  ir::Expr cellAddress(const clang::Expr *e, Env &env);

  // -------------------------------------------------- optionals.cpp --
  // std::optional of a number as a struct of a flag and the value.
  ir::TypeP optionalIRType(clang::QualType qt, clang::SourceLocation loc);
  ir::Expr emptyOptional(const ir::TypeP &t);
  ir::Expr filledOptional(const ir::Expr &v, const ir::TypeP &t);
  ir::Expr lowerOptionalConstruct(const clang::CXXConstructExpr *c, Env &env);
  // has_value, *, value, value_or, make_optional, == std::nullopt; null
  // when `ce` is none of them
  ir::Expr lowerOptionalCall(const clang::CallExpr *ce, Env &env);

  // ---------------------------------------------------- classes.cpp --
  // Classes (constructors, methods, operators) lowered into their callers:
  // `*this` is a synthetic variable per method (thisVar), bound for each
  // call like a reference parameter (a non-const method on an lvalue) or to
  // a value (a const method, a temporary, the fresh object of a
  // constructor).
  struct ThisBinding {
    const clang::CXXMethodDecl *method = nullptr;
    const clang::Expr *object = nullptr;              // the object a method is called on
    const clang::CXXConstructExpr *construct = nullptr; // or the constructor call
  };
  std::map<const clang::CXXMethodDecl *, const clang::VarDecl *> thisVars_;
  std::vector<const clang::VarDecl *> thisStack_; // the methods being inlined, innermost last
  const clang::VarDecl *thisVar(const clang::CXXMethodDecl *m);
  // The current object's variable when `e` is `this` (or `*this` with `deref`).
  const clang::VarDecl *thisDecl(const clang::Expr *e, bool deref = false);
  bool checkClass(const clang::CXXRecordDecl *crd, const std::string &spelled, clang::SourceLocation loc);
  // class_layout.cpp: classes the generated code mirrors (`Spring_fields`).
  std::map<std::string, const clang::RecordDecl *> mirrorNames_;
  std::string mirrorName(const clang::RecordDecl *rd);
  bool mirroredClass(clang::QualType t, int depth = 0);
  bool touchesMirroredClass(const clang::FunctionDecl *fd);
  void checkBoundaryType(const ir::TypeP &t, const clang::ParmVarDecl *pd, bool marked);
  std::string unreadableAsWritten(const clang::CXXRecordDecl *rd, int depth = 0);
  // a base class is the first field (class_layout.cpp)
  static int fieldIndex(const clang::FieldDecl *f);
  const clang::VarDecl *thisDeclUp(const clang::Expr *e, int &up, bool deref = false);
  ir::Expr projUp(ir::Expr v, int up);
  ir::Expr lowerBaseCast(const clang::CastExpr *ce, Env &env);
  void checkBases(const clang::CXXRecordDecl *crd, const std::string &spelled, clang::SourceLocation loc);
  bool inlinedOperator(const clang::FunctionDecl *fd);
  ir::Expr lowerMethodCall(const clang::CallExpr *ce, const clang::CXXMethodDecl *m, Env &env);
  ir::Expr lowerClassConstruct(const clang::CXXConstructExpr *c, Env &env);
  ir::Expr inlineCall(const clang::FunctionDecl *fd, const std::vector<const clang::Expr *> &args,
                      clang::SourceLocation loc, Env &env, const ThisBinding *self = nullptr);
  void bindThis(const ThisBinding &self, Env &env, Env &inner, Binds &binds, std::vector<const clang::VarDecl *> &roots);
  ir::Expr constructedObject(const clang::CXXConstructorDecl *ctor, const clang::VarDecl *self, Env &inner);

  // ---------------------------------------------- member_arrays.cpp --
  void addMemberFields(const std::string &name, clang::QualType t, const clang::FieldDecl *f,
                       std::vector<std::string> &fields, std::vector<ir::TypeP> &types);
  void memberValues(const clang::Expr *init, clang::QualType t, const ir::TypeP &st, Env &env, std::vector<ir::Expr> &es);
  ir::Expr memberArrayOffset(const clang::MemberExpr *m, const std::vector<const clang::Expr *> &idx, Env &env);
  bool memberArrayElement(const clang::Expr *e, Env &env, const clang::MemberExpr *&member, int64_t &offset);
  ir::Expr lowerMemberArrayRead(const clang::Expr *e, Env &env);
  bool accessorPath(const clang::Expr *e, Env *env, const clang::Expr *&object, std::vector<int> &path);
  ir::Expr lowerUnrolledFor(const clang::ForStmt *fs, const Counted &c, const Seq *rest, Env &env, const Tail &tail);
  bool memberElementRoot(const clang::Expr *lhs, std::vector<int> &path, bool diagnose, const clang::VarDecl *&root);
  bool memberElementTarget(const clang::Expr *e, Env &env, RefTarget &t, Binds &binds, bool &ok);
  bool lowerMemberArrayFill(const clang::Expr *e, const Seq *rest, Env &env, const Tail &tail, ir::Expr &out);
  ir::Expr lowerMemberArrayRangeFor(const clang::CXXForRangeStmt *rs, const Seq *rest, Env &env, const Tail &tail);
  bool peelMemberElement(const clang::Expr *&base, Env &env, std::vector<int> &path, int64_t &pending);
  Env *indexEnv_ = nullptr;
  std::vector<ir::Expr> memberArrayElements(const clang::Expr *e, Env &env);
  std::vector<ir::Expr> memberArrayAssigned(const clang::Expr *lhs, const clang::Expr *rhs, const ir::TypeP &st,
                                            int first, Env &env);
  ir::Expr listedArray(const clang::Expr *x, Env &env);
  ir::Expr memberFirstElement(const clang::MemberExpr *m, Env &env);
  bool indexingMember_ = false; // lowerMember is asked for a member array's first element // where assignedRoot lowers the indices of member array elements (null: look-ahead)

  // ----------------------------------------------- view_structs.cpp --
  // Structs whose members are pointers into arrays ("view structs", e.g.
  // `struct Layer { const double* w; const double* b; int n; }`): every
  // member of a local of such a type (a leaf, nested view structs looked
  // through) is a local of its own, a pointer member a pointer local; an
  // array of them is one local array per leaf (offsets for pointer members).
  struct ViewLeaf {
    std::vector<int> path;
    clang::QualType type;
    bool pointer = false;
    bool vector = false; // a std::vector member: an array (struct_params.cpp)
    clang::QualType views; // a std::vector of view structs or pointers: its element (view_struct_vectors.cpp)
  };
  // Where a view struct (or one of its members) lives: a local (index null)
  // or an element of a local array of view structs.
  struct ViewPlace {
    const clang::VarDecl *root = nullptr;
    ir::Expr index;
    std::vector<int> path;
    clang::QualType type;
  };
  std::map<std::pair<const clang::VarDecl *, std::vector<int>>, const clang::VarDecl *> leafVars_;
  std::set<const clang::VarDecl *> leafDecls_;
  std::set<const clang::VarDecl *> viewLocals_;              // locals and inlined parameters
  std::set<const clang::VarDecl *> viewReadOnly_;            // bound to a non-const reference
  // Helper parameters `T* p` of a split class T given `&obj`: bound like
  // `T& p` to obj's leaves; `*p` and `p->f` name them (view_structs.cpp).
  std::set<const clang::VarDecl *> viewPointers_;
  bool viewPointerParam(const clang::ParmVarDecl *p);
  const clang::Expr *viewPointerDeref(const clang::Expr *e);
  clang::QualType viewRootType(const clang::VarDecl *root);
  std::map<const clang::VarDecl *, clang::QualType> viewArrays_; // -> element type
  std::map<const clang::VarDecl *, ir::Expr> leafBase_;      // array of offsets -> the array pointed into
  bool isViewStruct(clang::QualType t);
  bool vectorMember(clang::QualType t);
  bool hasVectorMember(clang::QualType t);
  bool copiesVectors(const clang::VarDecl *vd, clang::QualType t);
  // struct_params.cpp: a marked function's struct parameter split into its members
  void lowerSplitParam(const clang::ParmVarDecl *pd, bool active, Env &env, ir::Function &f);
  std::vector<ir::CxxType> describeSplitParam(const clang::ParmVarDecl *pd);
  std::vector<ir::Param> splitLeaves(const clang::VarDecl *root, clang::QualType t, const std::string &name, bool active,
                                     bool readOnly, Env &env, clang::SourceLocation loc);
  std::vector<ir::CxxType> describeLeaves(clang::QualType declared, const std::string &parent);
  std::vector<ViewLeaf> viewLeaves(clang::QualType t);
  const clang::VarDecl *leafVar(const clang::VarDecl *root, const std::vector<int> &path, clang::QualType type);
  bool viewPlaceShape(const clang::Expr *e, const clang::VarDecl *&root, const clang::Expr *&index,
                      std::vector<int> &path);
  bool viewPlace(const clang::Expr *e, Env &env, ViewPlace &out);
  ir::Expr readLeaf(const ViewPlace &pl, const std::vector<int> &path, Env &env, clang::SourceLocation loc);
  std::vector<ir::Expr> viewValues(const clang::Expr *e, clang::QualType t, Env &env);
  ir::Expr viewMember(const clang::MemberExpr *m, Env &env);
  const clang::VarDecl *viewLeafVar(const clang::Expr *lhs, std::vector<int> &path, bool diagnose);
  // `from`: the expression the values are of (a returned object is handed over, not copied)
  // `freshVectors`: its vectors of views are made by the caller (a constructor's object)
  void bindViewLeaves(const clang::VarDecl *root, clang::QualType t, const std::vector<ir::Expr> &vals, Env &env,
                      Binds &binds, const clang::Expr *from = nullptr, bool freshVectors = false);
  ir::Expr lowerViewStructLocal(const clang::VarDecl *vd, Env &env, const Tail &k);
  // chosen_objects.cpp: `const Mat& m = c ? a : b;`
  const clang::ConditionalOperator *chosenObject(const clang::VarDecl *vd);
  bool writtenWhileBound(const clang::VarDecl *vd, const clang::VarDecl *v);
  ir::Expr lowerChosenObjectLocal(const clang::VarDecl *vd, const clang::ConditionalOperator *co, Env &env,
                                  const Tail &k);
  ir::Expr lowerViewStructArray(const clang::VarDecl *vd, const ArrayInfo &ai, Env &env, const Tail &k);
  bool lowerViewStore(const clang::Expr *e, Env &env, ir::Expr &eff);
  ir::Expr updatedMember(const clang::Expr *e, const ir::Expr &old, Env &env);
  bool inlinedHelper(const clang::FunctionDecl *fd);
  std::set<std::string> visibleArrays(const Env &env);
  ir::Expr lowerPointerReturn(const clang::Expr *value, Env &env, Binds &pre);
  // reseated_pointers.cpp: pointer locals re-seated between arrays
  struct Reseated {
    std::vector<ir::Expr> arrays; // where it may point, by tag
    const clang::VarDecl *tag;    // the index of the array it points into now
  };
  std::map<const clang::VarDecl *, Reseated> reseated_;
  ir::Expr pointerArrayOf(const clang::Expr *e, const Env &env);
  void noteReseats(const clang::VarDecl *vd, const ir::Expr &base, Env &env);
  void noteMovedReseats(const clang::FunctionDecl *def, Env &env);
  void reseat(const clang::VarDecl *vd, const ir::Expr &view, Env &env, clang::SourceLocation loc);
  const ir::Expr &reseatedArray(const clang::VarDecl *vd, const Env &env, clang::SourceLocation loc);
  const clang::VarDecl *reseatedUse(const clang::Stmt *st, const Env &env);
  ir::Expr lowerPerArray(const clang::Stmt *st, const clang::VarDecl *vd, const Seq *rest, Env &env, const Tail &tail);
  // statements.cpp: branches joined (an `if`'s, lowerPerArray's)
  Tail joinTail(const std::vector<const clang::VarDecl *> &assigned);
  ir::Expr continueAfterJoin(const ir::Expr &joined, const std::vector<const clang::VarDecl *> &assigned,
                             const Seq *rest, Env &env, const Tail &tail);
  // view_constructors.cpp: view structs built by constructors
  bool viewClass(const clang::CXXRecordDecl *rd);
  bool constructedView(const clang::CXXConstructExpr *ce, clang::QualType t, Env &env, std::vector<ir::Expr> &out);
  void buildView(const clang::CXXConstructorDecl *ctor, llvm::ArrayRef<const clang::Expr *> args,
                 clang::SourceLocation loc, clang::QualType t, Env &env, std::vector<ir::Expr> &out,
                 Env *params = nullptr);
  ir::Expr lowerConstructedViewLocal(const clang::VarDecl *vd, Env &env, const Tail &k);
  // view_struct_vectors.cpp: growing std::vectors of view structs or of pointers
  bool pointerVector(clang::QualType t, clang::QualType &elem);
  ir::Expr lowerViewVector(const clang::VarDecl *vd, clang::QualType elem, Env &env, const Tail &k);
  void pushViewElement(const clang::CXXMemberCallExpr *mc, const clang::VarDecl *vd, const ir::Expr &at, Env &env,
                       Binds &pre);
  ir::Expr viewElementPointer(const clang::Expr *e, Env &env);
  // a vector member of an object bound to another object's (a reference
  // parameter, `this`) -> that object's vector member
  std::map<const clang::VarDecl *, const clang::VarDecl *> viewAlias_;
  int viewDepth_ = 0; // (isViewStruct's recursion through vectors of views)
  bool viewVectorType(clang::QualType t, clang::QualType &elem);
  const clang::VarDecl *viewVectorOf(const clang::Expr *e);
  const clang::VarDecl *resolveViewAlias(const clang::VarDecl *v);
  ir::Expr letOrValue(const std::string &name, const ir::Expr &v);

  // ------------------------------------------ returned_references.cpp --
  // A call of a helper or method returning a non-const reference, where it
  // designates an object (`at(v, i) += x`, `double& m = larger(v, 0, 1)`):
  // the helper lowered into the caller, its returns giving the target.
  bool returnsReference_ = false;                     // (the next inlineCall's mode)
  RefTarget returnedTarget_;                          // (what that call returned)
  std::map<const clang::Expr *, RefTarget> callRefs_; // calls on the left of `=` bound by lowerArrayStore
  const clang::FunctionDecl *referenceCallee(const clang::Expr *e);
  bool boundCallTarget(const clang::Expr *base, Env &env, ir::Expr &array, ir::Expr &index, std::vector<int> &path);
  bool returnedReference(const clang::Expr *call, Env &env, RefTarget &t, Binds &binds);
  bool conditionalTarget(const clang::Expr *e, Env &env, RefTarget &t, Binds &binds);
  bool choiceTarget(const clang::Expr *e, Env &env, RefTarget &t, Binds &binds);
  ir::Expr lowerReferenceReturn(const clang::Expr *value, Env &env, Binds &pre);

  // ------------------------------------------- reference_wrappers.cpp --
  // std::ref(x), w.get(), (T&)w: what they designate (a reference).
  const clang::Expr *unwrapReference(const clang::Expr *e);
  ir::Expr lowerWrapperLocal(const clang::VarDecl *vd, Env &env, const Tail &k);

  // ------------------------------------------- vector_members.cpp --
  // Classes owning std::vector members (a `Matrix` with a constructor,
  // methods and private `data_`): split like the aggregates above; their
  // methods' `this` is bound to the object's leaves, constructors build a
  // local's leaves in place.
  std::set<const clang::VarDecl *> viewThis_; // `this` of methods of such classes
  bool ownsVector(const clang::CXXRecordDecl *rd);
  bool userCopy(const clang::CXXConstructorDecl *c);
  // owned_buffers.cpp: a pointer member its class's destructor frees with
  // `delete[]`, split like a std::vector member; `data_ = new T[n]` resizes it
  bool ownedBuffer(const clang::FieldDecl *f);
  bool arrayMember(const clang::FieldDecl *f);
  const clang::FieldDecl *bufferMember(const clang::Expr *e);
  const clang::BinaryOperator *bufferAssignment(const clang::Stmt *st);
  ir::Expr ownedNewLength(const clang::CXXNewExpr *ne, const clang::FieldDecl *f, Env &env);
  bool bufferAllocation(const clang::Expr *x);
  ir::Expr allocatedLength(const clang::Expr *x, const clang::FieldDecl *f, Env &env);
  const clang::Expr *mentionedBuffer(const clang::Stmt *e);
  bool bufferOnly(const clang::Stmt *s, bool &sizes);
  struct BufferSize {
    ir::Expr array, size;
    clang::SourceLocation where;
  };
  void bufferSizes(const clang::Stmt *s, Env &env, Binds &pre, std::map<const clang::FieldDecl *, BufferSize> &sizes);
  bool lowerBufferStmt(const clang::Stmt *st, const Seq *rest, Env &env, const Tail &tail, ir::Expr &out);
  bool lowerBufferHandover(const clang::Stmt *st, const Seq *rest, Env &env, const Tail &tail, ir::Expr &out);
  bool bufferInit(const clang::FieldDecl *f, const clang::Expr *x, Env &env, LocalArrayInit &start);
  ir::Expr sameObject(const clang::BinaryOperator *b, Env &env);
  const clang::VarDecl *viewThisRoot(const clang::Expr *e);
  bool bindViewThis(const ThisBinding &self, Env &env, Env &inner, Binds &binds, std::vector<const clang::VarDecl *> &roots);
  // written_members.cpp: number members written through a writable name of the object
  const clang::VarDecl *ownerLeaf(const clang::VarDecl *root, const std::vector<int> &path, clang::QualType type);
  struct OwnedLeaf {
    std::vector<int> path; // in the object
    clang::QualType type;
    const clang::VarDecl *owner;
  };
  std::vector<OwnedLeaf> ownedNumberLeaves(const clang::Expr *obj, clang::QualType t);
  void aliasNumberLeaves(Env &env, const clang::VarDecl *root, clang::QualType t, const clang::Expr *from, bool writes,
                         std::vector<const clang::VarDecl *> *roots);
  std::map<const clang::FunctionDecl *, bool> writesNumbers_;
  bool writesNumberMembers(const clang::FunctionDecl *fd);
  const clang::Expr *chainedObject(const clang::Expr *e);
  std::vector<std::pair<const clang::Expr *, clang::QualType>> splitObjectsWritten(const clang::CallExpr *c);
  void writtenNumberLeaves(const clang::Stmt *s, const Env &env, std::vector<const clang::VarDecl *> &out);
  bool vectorAccessor(const clang::Expr *e, Env &env, ir::Expr &array, ir::Expr &index);
  ir::Expr lowerVectorObjectLocal(const clang::VarDecl *vd, Env &env, const Tail &k);
  void checkVectorClassParam(const clang::ParmVarDecl *pd);
  // Objects returned by value (returned_arrays.cpp lowers the call): the
  // leaves of the object each hoisted call returned, while its statement is lowered.
  std::map<const clang::CallExpr *, std::vector<ir::Expr>> returnedObjects_;
  bool returnsVectorObject(const clang::FunctionDecl *fd);
  bool freshObject(const clang::Expr *e);
  void checkObjectAssign(const clang::Expr *e);
  ir::Expr copyVectorLeaf(const clang::VarDecl *leaf, const ir::Expr &from, Binds &binds);
  std::vector<ir::Expr> objectLeaves(const clang::VarDecl *root, clang::QualType t, Env &env);

  // ---------------------------------------------------- lambdas.cpp --
  // A lambda held by a local (or given to an inlined template's parameter):
  // its class and what its by-value and init-captures were at its creation.
  struct Closure {
    const clang::CXXRecordDecl *rd = nullptr;
    std::map<const clang::VarDecl *, ir::Expr> values;
    std::string name; // for the names of the call's results
    ir::Expr self;    // a functor object's value (its `*this`)
    const clang::VarDecl *capturedThis = nullptr; // `[&]`, `[this]` in a method: the method's object
  };
  std::map<const clang::CXXRecordDecl *, const clang::VarDecl *> lambdaThis_; // (its `this`, by lambda class)
  ir::Expr functorThis_; // the functor whose call operator is being lowered
  const clang::CXXRecordDecl *functorClass_ = nullptr; // (its class)
  const clang::CXXRecordDecl *functorRecord(clang::QualType t);
  std::map<const clang::VarDecl *, Closure> closures_;
  std::map<const clang::VarDecl *, const clang::FunctionDecl *> functions_; // function pointer parameters -> function
  // An argument of a callable's call: a C++ expression, an array element
  // (array, index: the algorithms' elements) or a value.
  struct CallArg {
    const clang::Expr *expr = nullptr;
    ir::Expr array, index, value;
  };
  static const clang::CXXRecordDecl *closureRecord(clang::QualType t);
  const clang::FunctionDecl *boundFunction(const clang::CallExpr *ce);
  Closure makeClosure(const clang::LambdaExpr *le, const std::string &name, Env &env, Binds &binds);
  ir::Expr lowerLambdaLocal(const clang::VarDecl *vd, Env &env, const Tail &k);
  bool closureOf(const clang::Expr *e, Env &env, Binds &binds, Closure &out);
  ir::Expr lowerClosureCall(const clang::CXXOperatorCallExpr *oc, Env &env);
  void bindCallArgs(const clang::FunctionDecl *op, const std::vector<CallArg> &args, Env &env, Env &inner, Binds &binds,
                    std::vector<const clang::VarDecl *> &roots, clang::SourceLocation loc);
  ir::Expr callClosure(const Closure &c, const clang::FunctionDecl *op, const std::vector<CallArg> &args, Env &env,
                       clang::SourceLocation loc);
  std::vector<const clang::Expr *> referenceArguments(const clang::CallExpr *c);
  void closureWrites(const clang::CXXRecordDecl *rd, std::vector<const clang::VarDecl *> &out, int depth);
  void collectCallableWrites(const clang::CallExpr *c, const Env &env, std::vector<const clang::VarDecl *> &out);
  void checkClosureSequencing(const clang::Expr *full);
  bool takesCallable(const clang::FunctionDecl *fd);
  bool bindCallableParam(const clang::ParmVarDecl *p, const clang::Expr *arg, Env &env, Binds &binds,
                         std::vector<const clang::VarDecl *> &roots);
  void noteClosureRoots(const clang::CXXRecordDecl *rd, const Env &env, std::vector<const clang::VarDecl *> &roots);
  // std_function.cpp: a std::function is the callable it is built from
  const clang::Expr *wrappedCallable(const clang::Expr *e);
  const clang::CXXRecordDecl *bindWrapped(const clang::VarDecl *v, const clang::Expr *callable, Env &env, Binds &binds,
                                          clang::SourceLocation loc, const std::string &what);
  bool bindStdFunctionParam(const clang::ParmVarDecl *p, const clang::Expr *arg, Env &env, Binds &binds,
                            std::vector<const clang::VarDecl *> &roots);
  ir::Expr lowerStdFunctionLocal(const clang::VarDecl *vd, Env &env, const Tail &k);
  ir::Expr lowerStdFunctionCall(const clang::CXXOperatorCallExpr *oc, Env &env);
  // local_arrays.cpp: `y = next;`, `a.swap(b)` of arrays of one length
  std::map<std::string, ir::Expr> localLengths_; // a local array's IR name -> its length at its declaration
  ir::Expr knownLength(const ir::Expr &a, int depth = 0);
  ir::Expr comparableLength(const ir::Expr &e, int depth);
  ir::Expr lowerWholeArrayCopy(const clang::Expr *dst, const clang::Expr *src, bool exchange, Env &env,
                               clang::SourceLocation loc);
  const clang::Expr *emplacedElement(const clang::CXXMemberCallExpr *mc, const clang::VarDecl *vd); // growing_vectors.cpp
  ir::Expr stdFunctionIsSet(const clang::Expr *e);

  // ---------------------------------------- callable_algorithms.cpp --
  // A callable given to a standard algorithm: a closure, a function, or
  // std::plus<> and friends (an operator).
  struct Callable {
    Closure closure;
    const clang::FunctionDecl *op = nullptr; // the closure's call operator
    const clang::FunctionDecl *fn = nullptr; // a function's name
    bool prim = false;
    ir::Op primOp = ir::Op::Add;
  };
  bool callableArg(const clang::Expr *e, unsigned arity, Env &env, Callable &out);
  const clang::FunctionDecl *callOperator(const Closure &c, unsigned arity, clang::SourceLocation loc);
  ir::Expr applyCallable(const Callable &c, const std::vector<CallArg> &args, Env &env, clang::SourceLocation loc);
  std::vector<const clang::VarDecl *> callableRoots(const std::vector<const Callable *> &cs, const Env &env);
  ir::Expr callableLoop(const ir::Expr &n, const ir::Expr &init, const std::vector<const clang::VarDecl *> &roots,
                        Env &env, clang::SourceLocation loc,
                        const std::function<ir::Expr(const ir::Expr &, const ir::Expr &, Env &)> &step);
  ir::Expr lowerCallableAlgorithm(const clang::CallExpr *ce, Env &env);
  ir::Expr lowerPredicateAlgorithm(const clang::CallExpr *ce, Env &env);
  // a key comparator of a sort, and the keys it compares (sorting.cpp)
  bool keyComparator(const clang::FunctionDecl *op, SortKey &out);
  ir::Expr sortKeys(const SortKey &key, const Callable &c, const ir::Expr &values, const ir::Expr &n, Env &env,
                    Binds &binds, clang::SourceLocation loc);

  // ----------------------------------------------- local_arrays.cpp --
  ir::Expr lowerLocalArray(const clang::VarDecl *vd, const ArrayInfo &ai, Env &env, const Tail &k);
  ir::Expr shapeDimension(const clang::VarDecl *vd, const std::string &hint, ir::Expr e, LocalArrayInit &out);
  ir::Expr fillValue(const clang::Expr *value, const ir::TypeP &et, Env &env);
  const clang::Expr *localArrayShape(const clang::VarDecl *vd, const ArrayInfo &ai, const ArrayInfo &inner,
                                     const ir::TypeP &et, const clang::Expr *init, Env &env, LocalArrayInit &out);
  void flattenInitList(const clang::InitListExpr *il, bool rows, const ArrayInfo &inner, const ir::TypeP &et,
                       const std::string &spelled, Env &env, LocalArrayInit &out);
  void localArrayConstructor(const clang::VarDecl *vd, const ArrayInfo &ai, bool nested, const ArrayInfo &inner,
                             const ir::TypeP &et, const clang::CXXConstructExpr *ce, Env &env, LocalArrayInit &out);
  ir::Expr bindLocalArray(const clang::VarDecl *vd, const ir::TypeP &et, bool nested, LocalArrayInit &start, Env &env,
                          const Tail &k);

  // ------------------------------------------------- statements.cpp --
  ir::Expr lowerSeq(const Seq *s, Env env, const Tail &tail);
  ir::Expr lowerReturn(const clang::ReturnStmt *rs, Env &env);
  ir::Expr lowerDeclStmt(const clang::DeclStmt *ds, const Seq *rest, Env &env, const Tail &tail);
  ir::Expr lowerVarDecls(const std::vector<const clang::VarDecl *> &vars, size_t k, const Seq *rest, Env &env,
                         const Tail &tail);
  ir::Expr lowerExprStmt(const clang::Expr *e, const Seq *rest, Env &env, const Tail &tail);
  ir::Expr lowerUnsupportedStmt(const clang::Stmt *st);
  // A local `const T& r = init;` read as a copy of what it refers to.
  bool constReferenceLocal(const clang::VarDecl *vd);
  ir::Expr lowerIf(const clang::IfStmt *is, const Seq *rest, Env &env, const Tail &tail);
  ir::Expr lowerIfStmt(const clang::IfStmt *is, const Seq *rest, Env &env, const Tail &tail);
  ir::Expr lowerIfBranches(const clang::IfStmt *is, const ir::Expr &cond, const Seq *rest, Env &env, const Tail &tail);
  ir::Expr lowerIfReturning(const clang::IfStmt *is, const ir::Expr &cond, const Seq *rest, Env &env,
                            const Tail &tail);
  bool lowerAssignment(const clang::Expr *e, Env &env, const clang::VarDecl *&root, ir::Expr &newValue);
  bool lowerMemberArrayAssign(const clang::Expr *lhs, const clang::Expr *rhs, Env &env, const clang::VarDecl *&root,
                              ir::Expr &newValue);
  ir::Expr bindAndContinue(const clang::VarDecl *vd, const ir::Expr &value, const Seq *rest, Env &env,
                           const Tail &tail);
  const clang::VarDecl *assignedRoot(const clang::Expr *lhs, std::vector<int> &path, bool diagnose);
  void collectAssigned(const clang::Stmt *s, const Env &env, std::vector<const clang::VarDecl *> &out);
  ir::Expr readPath(ir::Expr v, const std::vector<int> &path);
  ir::Expr updatePath(const ir::Expr &cur, const std::vector<int> &path, size_t k, const ir::Expr &val);

  // --------------------------------------------- output_vectors.cpp --
  // `out.resize(n)` / `out.assign(n, v)` on an output std::vector parameter.
  [[noreturn]] void refuseOutputResize(clang::SourceLocation loc, const std::string &call, const std::string &name);
  bool lowerOutputResize(const clang::Expr *e, const Seq *rest, Env &env, const Tail &tail, ir::Expr &out);
  std::map<const clang::VarDecl *, ir::Expr> resizedLength_; // out -> n, after out.resize(n)
  // A reference bound to a row of a table held flat (`for (const auto& row :
  // M)`): the row's length, the table's stride (its view's Size would run
  // to the end of the buffer).
  std::map<const clang::VarDecl *, ir::Expr> flatRowLength_;
  void bindArrayAlias(const clang::VarDecl *vd, const clang::Expr *init, Env &env);
  ir::Expr flatRowLength(const clang::Expr *e);
  // What the marked function does at each of its exits (a `return`, its
  // end) before it returns `v`: an output grown from empty is cut to its
  // length (output_vectors.cpp).
  std::function<ir::Expr(const ir::Expr &v, Env &env)> onExit_;
  // outputs whose buffer push_back grows: their length -> their size (synthetic)
  std::map<const clang::VarDecl *, const clang::VarDecl *> growCap_;
  const clang::VarDecl *syntheticLong(const clang::VarDecl *vd, const std::string &suffix);
  bool appendsAt(const clang::Expr *at, const ir::Expr &arr, const ir::Expr &len, Env &env);
  void ensureRoom(const ir::Expr &out, const clang::VarDecl *len, const ir::Expr &needed, Env &env, Binds &pre);
  ir::Expr lowerOutputGrowth(const clang::CXXMemberCallExpr *clear, const clang::ParmVarDecl *vd, const Seq *rest,
                             Env &env, const Tail &tail);
  bool loweringMarked_ = false;                              // lowerEntry is at a marked function

  // ------------------------------------------------- printing.cpp --
  ir::Expr lowerPrintStmt(const clang::Expr *e, const Seq *rest, Env &env, const Tail &tail);
  bool checkRecursivePrinting(const Entry &en);

  // ------------------------------------------------- exceptions.cpp --
  MarkedSpelling markNumbers(const clang::Expr *x, Env &env, Binds &pre, const std::string &what,
                             bool statement = false);
  ir::Expr lowerThrown(const clang::CXXThrowExpr *te, Env &env, Binds &pre);
  ir::Expr lowerThrowStmt(const clang::CXXThrowExpr *te, const Seq *rest, Env &env, const Tail &tail);
  ir::Expr lowerThrowingChoice(const clang::ConditionalOperator *c, Env &env);
  void needCheckBefore(clang::SourceLocation loc, const std::string &what, const std::string &hint);
  void checkBefore(const ir::Expr &cond, bool throwWhen, const ir::Expr &thrown);

  // ----------------------------------------------------- switch.cpp --
  ir::Expr lowerSwitch(const clang::SwitchStmt *ss, const Seq *rest, Env &env, const Tail &tail);
  ir::Expr lowerSwitchStmt(const clang::SwitchStmt *ss, const Seq *rest, Env &env, const Tail &tail);

  // ------------------------------------------------- math_calls.cpp --
  // std::fma, std::clamp, std::pow with an integer exponent, unfad::no_grad;
  // null when `fd` is none of them.
  ir::Expr lowerMoreMath(const clang::CallExpr *ce, const clang::FunctionDecl *fd, Env &env);

  // ------------------------------------------------------ loops.cpp --
  LoopState loopState(const std::vector<const clang::Stmt *> &parts, const Env &env, bool done,
                      const clang::VarDecl *condVar = nullptr);
  // The state at the end of an iteration, after a `break` (done), or after
  // `return value` (done and returned).
  ir::Expr pack(const LoopState &st, const Env &env, bool done, const ir::Expr &returned = nullptr);
  static ir::Expr component(const LoopState &st, const ir::Expr &s, size_t k);
  void unpack(const LoopState &st, const ir::Expr &s, Env &env, Binds &binds);
  ir::Expr lowerBody(const clang::Stmt *body, Env &env, const LoopState &st, const Tail &cont);
  ir::Expr afterLoop(const LoopState &st, const ir::Expr &loop, const Seq *rest, Env &env, const Tail &tail);
  bool countedShape(const clang::ForStmt *fs, const Env &env, Counted &c);
  bool countedIteratorShape(const clang::ForStmt *fs, const Env &env, Counted &c);
  bool assignsIn(const clang::Stmt *body, const clang::VarDecl *v);
  bool invariantIterator(const clang::Expr *e, const std::vector<const clang::VarDecl *> &assigned);
  bool countedStep(const clang::ForStmt *fs, const clang::VarDecl *iv, clang::BinaryOperatorKind op, Counted &c);
  bool invariantGetter(const clang::CXXMemberCallExpr *mc, const std::vector<const clang::VarDecl *> &assigned);
  bool loopInvariant(const clang::Stmt *x, const std::vector<const clang::VarDecl *> &assigned);
  ir::Expr lowerFor(const clang::ForStmt *fs, const Seq *rest, Env &env, const Tail &tail);
  ir::Expr lowerRangeFor(const clang::CXXForRangeStmt *rs, const Seq *rest, Env &env, const Tail &tail);
  void rejectWrittenRange(const clang::CXXForRangeStmt *rs, const ir::Expr &arr, const ir::Expr &body);
  ir::Expr lowerWhile(const clang::Stmt *body, const clang::Expr *cond, const clang::Stmt *inc, bool isDo,
                      const Seq *rest, Env &env, const Tail &tail, const clang::DeclStmt *condVar = nullptr);
  ir::Expr lowerWhileWith(const clang::Stmt *body, const clang::Expr *cond, const clang::Stmt *inc, bool isDo,
                          const Seq *rest, Env &env, const Tail &tail, const clang::DeclStmt *condVar);

  // ------------------------------------------- growing_vectors.cpp --
  // A local std::vector the function grows or shrinks (`push_back`,
  // `emplace_back`, `resize`, `assign`, `clear`, `pop_back`): one buffer,
  // allocated at its declaration with room for the most elements the calls
  // in its scope can reach (bounded from the trip counts of the loops around
  // them), and its length, an integer local (a synthetic VarDecl in
  // growLen_) that loops and branches carry like any other variable.
  bool growingVector(const clang::VarDecl *vd);
  // The length variable of the growing vector `obj` names, or null.
  const clang::VarDecl *growingLength(const clang::Expr *obj);
  // Whether `x` names a growing vector whose length is among `assigned`.
  bool growsIn(const clang::Stmt *x, const std::vector<const clang::VarDecl *> &assigned);
  bool lowerGrowCall(const clang::Expr *e, const Seq *rest, Env &env, const Tail &tail, ir::Expr &out);
  void refuseGrowthThroughReference(const clang::VarDecl *vd, clang::SourceLocation loc);
  ir::Expr growAssignFrom(const clang::VarDecl *vd, const ir::Expr &src, ir::Expr length, clang::SourceLocation loc,
                          const Seq *rest, Env &env, const Tail &tail);
  // `cur = next;` where `cur` grows because it is assigned arrays of other lengths.
  bool lowerGrowAssign(const clang::CXXOperatorCallExpr *oc, const Seq *rest, Env &env, const Tail &tail, ir::Expr &out);
  // The growing vector `vd`'s length becomes `next` (by `op`) after the effects `pre`, then `rest` runs.
  ir::Expr setGrowingLength(const clang::VarDecl *vd, const ir::Expr &next, const GrowOp &op, Binds &pre,
                            const Seq *rest, Env &env, const Tail &tail);
  ir::Expr bindGrowingVector(const clang::VarDecl *vd, const ir::TypeP &et, LocalArrayInit &start, Env &env,
                             const Tail &k, int64_t stride = 0);
  // A local vector of rows of one constant length grown by push_back
  // (`std::vector<std::array<double, 3>> pts;`, `std::vector<std::vector<double>> rows;` given
  // `rows.push_back({a, b})`): a growing vector held flat (flatStride_).
  ir::Expr lowerGrowingTable(const clang::VarDecl *vd, const ArrayInfo &inner, const ir::TypeP &et,
                             const clang::Expr *init, Env &env, const Tail &k);
  int64_t pushedRowLength(const clang::VarDecl *vd);
  // ---------------------------------------------- ragged_tables.cpp --
  // A growing local vector of std::vector rows pushed rows of run-time
  // lengths: held flat at a stride (its longest row), with an array of
  // the rows' lengths.
  struct Ragged {
    ir::Expr lengths;              // the rows' lengths (an i64 array)
    const clang::VarDecl *widest;  // the synthetic vector whose room is the stride
  };
  std::map<const clang::VarDecl *, Ragged> ragged_;
  // ----------------------------------------------- object_tables.cpp --
  // A std::vector of objects owning arrays: number members as arrays by
  // element, each array member held flat at a stride with the elements'
  // lengths beside it.
  struct ObjectRows {
    ir::Expr lengths, stride;     // an i64 array; a variable
    const clang::VarDecl *widest; // the synthetic vector whose room is the stride
    std::string table;            // (for messages)
  };
  std::map<std::string, ObjectRows> objectRows_; // the flat buffer's name ->
  // A name bound to an element of such a vector (`this`, `Mat* p`, `Mat& m`).
  struct PlaceAlias {
    const clang::VarDecl *root;
    ir::Expr index;
    std::vector<int> path;
  };
  std::map<const clang::VarDecl *, PlaceAlias> placeAlias_;
  bool objectTableElem(clang::QualType elem);
  ir::Expr lowerObjectTable(const clang::VarDecl *vd, clang::QualType elem, Env &env, const Tail &k);
  ir::Expr tableStride(const clang::VarDecl *widest, const ir::Expr &scope);
  bool objectRow(const ir::Expr &a, ObjectRows &rows, ir::Expr &index);
  ir::Expr objectRowView(const ir::Expr &buffer, const ir::Expr &index);
  bool isObjectBuffer(const ir::Expr &a);
  ir::Expr rowResize(const ir::Expr &row, const std::string &sizeName, const ir::Expr &value,
                     clang::SourceLocation loc, const std::string &spelled);
  ir::Expr rowLengths(const ir::Expr &body);
  void resizeObjectTable(clang::SourceLocation loc, const clang::VarDecl *vd, const ir::Expr &cur,
                         const ir::Expr &next, Env &env, Binds &pre);
  void aliasElementPlace(const clang::VarDecl *root, const clang::Expr *from, Env &env);
  const clang::VarDecl *objectTableOf(const clang::Expr *e);
  bool objectTableParam(const clang::ParmVarDecl *p);
  bool bindObjectTableName(const clang::VarDecl *root, const clang::Expr *from, std::vector<const clang::VarDecl *> *roots);
  ir::Expr lowerRaggedTable(const clang::VarDecl *vd, const ir::TypeP &et, Env &env, const Tail &k);
  bool pushRaggedRow(const clang::CXXMemberCallExpr *mc, const clang::VarDecl *vd, const Seq *rest, Env &env,
                     const Tail &tail, ir::Expr &out);
  ir::Expr raggedRowLength(const clang::Expr *row, Env &env);
  std::vector<ir::Expr> pushedRow(const clang::Expr *arg, int64_t n, const ir::TypeP &et, Env &env);
  ir::Expr bindGrowingLength(const clang::VarDecl *vd, const ir::Expr &initial, Env &env, Binds &binds);
  // (`known`, when given: set false, nothing reported, when the room cannot
  // be computed where the vector is declared, instead of refusing)
  ir::Expr growthRoom(const clang::VarDecl *vd, const ir::Expr &initial, const ir::Expr &scope,
                      const std::set<const ir::Node *> &before, bool *known = nullptr);
  std::set<const ir::Node *> growOpsNow() const;
  // A growing vector passed whole to a helper: a copy of its elements.
  ir::Expr growingArgument(const clang::Expr *arg, const ir::Expr &array, bool written, Env &env);
  // A call giving a helper a growing vector by reference, which the helper
  // reads or writes but does not resize: lowered into the caller, where the
  // helper's `v.size()` is the vector's length (no copy is made).
  bool passesGrowingVector(const clang::CallExpr *ce, const clang::FunctionDecl *fd);
  void checkDelete(const clang::CXXDeleteExpr *d, const clang::VarDecl *vd);
  std::map<const clang::VarDecl *, const clang::VarDecl *> growLen_;
  std::map<const clang::Stmt *, std::set<const clang::VarDecl *>> growScan_; // per function body
  std::map<const ir::Node *, GrowOp> growOps_;                               // the lets that change a length

  // -------------------------------------------- custom_derivatives.cpp --
  // UNFAD_CUSTOM_GRADIENT(f, f_pullback): the function -> its pullback and
  // where it was registered (found once, on first use).
  struct CustomGradient {
    const clang::FunctionDecl *pullback = nullptr;
    clang::SourceLocation at;
  };
  std::map<const clang::FunctionDecl *, CustomGradient> customGradients_;
  bool customScanned_ = false;
  unsigned warnID_ = 0;
  // A call of a function with a registered derivative, or (with
  // --numerical-fallback) of one without a visible body: null otherwise.
  ir::Expr lowerCustomCall(const clang::CallExpr *ce, const clang::FunctionDecl *fd, Env &env);
  void findCustomGradients();
  void checkCustomPullback(const clang::FunctionDecl *fd, const CustomGradient &cg);
  size_t customEntry(const clang::FunctionDecl *fd, const CustomGradient *cg, clang::SourceLocation loc);
  ir::Expr numericalBody(const clang::FunctionDecl *fd, const ir::Function &f);
  // A read of a variable or member marked UNFAD_NO_GRAD: its value without
  // derivatives (as unfad::no_grad(x)); other reads unchanged.
  ir::Expr noGradMarked(const clang::Decl *d, ir::Expr read);

  // -------------------------------------------------- functions.cpp --
  std::string qualifiedPath(const clang::FunctionDecl *fd);
  std::string enclosingNamespace(const clang::FunctionDecl *fd);
  size_t request(const clang::FunctionDecl *def, bool marked, const std::vector<bool> &passive = {});
  void lowerEntry(size_t i);
  void checkFunction(const clang::FunctionDecl *fd);
  // The parameters named in UNFAD_GRADIENT_WRT(...); `hasWrt` when it is used.
  // (`check`: refuse a list naming no parameter, an unknown one or one twice)
  std::vector<std::string> wrtList(const clang::FunctionDecl *fd, bool &hasWrt, bool check = true);
  Env lowerParams(const Entry &en, ir::Function &f);
  void checkMarkedResult(const clang::FunctionDecl *fd, const ir::Function &f);
  void describeCxx(const Entry &en, ir::Function &f);
  std::vector<const clang::FunctionDecl *> findRoots();

  // --------------------------------------------- marked_methods.cpp --
  // A marked member function: `*this` is its first parameter, its gradient
  // a member of its class.
  static const clang::CXXMethodDecl *markedMethod(const clang::FunctionDecl *fd);
  static std::string unmarkableMethod(const clang::CXXMethodDecl *m);
  static std::string unreachableBaseMember(const clang::CXXRecordDecl *rd);
  void addThisParam(const clang::CXXMethodDecl *m, bool hasWrt, const std::vector<std::string> &wrt, Env &env,
                    ir::Function &f);
  static std::string className(const clang::CXXMethodDecl *m);
  void describeMethod(const clang::CXXMethodDecl *m, ir::CxxInfo &cx);
  void refuseMutableMembers(const clang::CXXRecordDecl *rd, const std::string &spelled, clang::SourceLocation loc);
  bool splitThis(const clang::CXXMethodDecl *m);
  clang::SourceLocation semicolonAfter(clang::SourceLocation loc, clang::SourceLocation what, const std::string &where);
  void placeMethodGradient(const clang::CXXMethodDecl *m, MarkedFunction &out);

  // --------------------------------------------- template_methods.cpp --
  // A marked method of a class template: the instantiated methods to lower
  // (one per specialization at floating-point type arguments), their bodies
  // instantiated when the file only names the class.
  std::vector<const clang::FunctionDecl *> templateMethodInstances(const clang::CXXMethodDecl *pattern);
  // A marked function template: its instantiations at floating-point (or
  // integer) arguments, each generating an overload `f_grad` (block
  // "f<double>_grad").
  std::vector<const clang::FunctionDecl *> functionTemplateInstances(const clang::FunctionDecl *pattern);
  void emit(ir::Program &out, std::vector<MarkedFunction> *markedOut);
};

} // namespace unfad::frontend
