// The C++ printer's internals, shared by its files: names.cpp (C++
// identifiers), types.cpp (type spellings, literals, values as text),
// emitter.cpp (the statement tree: liveness, dead-code removal, text),
// sharing.cpp (effects and the cache of shared nodes), statements.cpp
// (straight-line code and ifs), calls.cpp (calls and pullback calls),
// loops.cpp (folds and whiles) and functions.cpp (signatures, the entry
// points).
//
// The body is translated in one pass into a small statement tree (const
// SSA locals, uninitialised locals assigned in both branches of an `if`,
// pullback calls with zero-initialised accumulators, `+=` accumulations and
// a `return`). Non-struct tuples never reach C++: a tuple-typed value is
// kept as a list of components ("flattened"); structs stay C++ values. A
// backward liveness pass then drops every statement whose result is unused,
// and the parameters the body never mentions get `[[maybe_unused]]`, so the
// output compiles warning-free under -Wall -Wextra.
//
// Arrays and loops:
//  - an active array parameter `x` has no cotangent in the result (the unit);
//    its adjoint is the buffer parameter that follows the primal ones
//    (`double* d_x`, `std::vector<double>& d_x`, named as in the IR);
//  - what the printer knows of a parameter's C++ type comes from the front
//    end (ir::CxxType): whether an array knows its size(), a C array's bound,
//    the rows of arrays of arrays, unsigned integers (read as
//    `static_cast<long>(n)`: the IR computes in i64);
//  - `a[i]`, `static_cast<long>(v.size())` (a C array reference: its bound),
//    `std::vector<T> v(n);` for NewArray (bool -> char; the element type of
//    the helper parameter it is passed to when that is another integer type;
//    a scratch buffer, never read before written:
//    `unfad::tape_buffer<T> v(n);`), `a[i] = v;` / `a[i] += v;`
//    (`-= x` for a negation) for Store;
//  - Fold -> `T s = init; for (long i = lo; i < hi; ++i) { ...; s = ...; }`
//    (reversed: `for (long i = hi - 1; i >= lo; --i)`), While ->
//    `while (c) {...}` or, when the condition needs statements,
//    `while (true) { ...; if (!c) break; ... }`. Tuple states are one
//    mutable variable per component (named by the body's `let a = st#k`),
//    assigned in parallel; uses of the loop's value are the variables;
//  - effects (stores, calls that write, pullbacks into buffers) are never
//    dropped, reordered or shared; the liveness pass iterates loops to a
//    fixpoint, so dead state components disappear; a cached (shared) value
//    that reads an array is recomputed after a write to that array;
//  - a void function's grad returns nothing; a void helper's pullback has no
//    `d_return`; a std::vector passed to a pointer parameter passes data().
#pragma once

#include "unfad/ir/ir.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace unfad::printer::detail {

using namespace unfad::ir;

[[noreturn]] void fail(const std::string &what);

// ------------------------------------------------------------ names ----

bool identChar(char c);
// A name usable as a C++ local as it is (not reserved, not a keyword).
bool validIdent(const std::string &s);
// Deterministic spelling of an IR name as a C++ identifier.
std::string sanitize(const std::string &name);
// Identifiers referenced by a piece of generated code, ignoring member
// names (after '.', '->' or '::') and numeric literals.
void collectIdents(const std::string &text, std::set<std::string> &out);
// The C++ name of a primal function ("energy"; the IR name sanitised when
// the front end gave none).
std::string cxxNameOf(const Function &f);
// The base of a generated function's name (`operator+` -> `operator_plus`).
std::string generatedBase(const Function &f);
// The name of a generated function: `f_grad`, `g_pullback`, a marked
// method's `loss_grad` (a call operator's `grad`).
// f_grad (isGrad), g_pullback, or g_value_and_pullback (withValue).
std::string generatedName(const Function &f, bool isGrad, bool withValue = false);

// ------------------------------------------------------------ types ----

// The C++ spelling of a scalar or struct IR type.
std::string cxxType(const TypeP &t);
// A floating literal that reads back as `v` (`1.0`, `0.5f`, `1e-08`).
std::string formatFloating(double v, bool isFloat32);
// A zero of a scalar or struct type, every field spelled (`Vec3{0.0, 0.0, 0.0}`):
// a class with a constructor taking its fields has no default one to rely on.
std::string zeroLiteral(const TypeP &t);
// An integer parameter declared with a type C++ does not mix freely with
// long (an enum, or an alias of an integer type), calls.cpp.
bool declaredAsEnum(const CxxType &t, const TypeP &irType);

// ----------------------------------------------------------- values ----

enum Prec { PLor = 4, PLand = 5, PEq = 9, PRel = 10, PAdd = 12, PMul = 13, PUnary = 15, PPrimary = 16 };

// What an IR expression became: a C++ expression (leaf) or, for tuples,
// the list of its components (agg). Struct literals are aggregates too, so
// that projections and field-wise accumulation see their fields.
struct CVal {
  TypeP type;
  bool agg = false;
  std::vector<CVal> elems;
  std::string text;
  int prec = PPrimary;
  bool atom = false; // an identifier or a literal: free to repeat
  bool zero = false; // the literal 0
  // arrays (always atoms: a parameter, a row or a local std::vector)
  bool container = false; // std::vector / std::array: knows its size()
  uint64_t bound = 0;     // a C array: its declared bound (0: none)
  // the C++ type whose elements it holds, when known (a parameter's, a
  // row's, a helper's parameter for a local): rows and unsigned elements
  const CxxType *shape = nullptr;
  bool pointer = false; // a view `a + o` (not an atom)
  // a scalar or struct reference parameter (`double& out`), which the IR
  // sees as an array of one element: its element 0 is the variable itself
  bool single = false;
  // an object of the user's class itself (a marked method's `*this` and
  // `*d_this`) while its IR type may be the class's mirror: a derived
  // class's base field (ir::Type::baseFirst) has no name in it, the base's
  // members are the object's inherited members (`this->k`)
  bool userObject = false;
  // a constant table read by its name (`kWeights`, `::rk::a[i]`: an Opaque
  // without arguments), or a row of one
  bool table = false;
};

CVal unitVal();
CVal leaf(TypeP t, std::string text, int prec, bool atom = false);
bool isAtom(const CVal &v);
bool allZero(const CVal &v);
std::string render(const CVal &v);
std::string bracedStruct(const TypeP &t, const std::vector<std::string> &fields); // `T{a, {b, c}}` (types.cpp)
// `v` as an operand needing at least precedence `min`; a right operand that
// starts with '-' is parenthesised too (`a - (-b)`, never `a - -b`).
std::string operand(const CVal &v, int min, bool guardMinus = false);
// The C++ names a value's text mentions.
void leafNames(const CVal &v, std::set<std::string> &out);
// An array value with what the C++ type `shape` says about it.
void setArrayShape(CVal &v, const CxxType *shape);

// ------------------------------------------------------- statements ----

struct Stmt {
  enum K { Decl, Assign, Accum, PbCall, IfS, Return, Effect, Loop } k = Decl;
  std::string line;               // the statement without indentation; Loop: its header
  std::string def;                // Decl / Assign: the name written
  std::string rhs;                // Decl / Assign: the value's text
  bool init = true;               // Decl: has an initialiser
  bool effect = false;            // Decl / PbCall: writes memory, never dropped
  std::string effLine;            // effectful Decl whose value is unused: this instead
  bool useEffLine = false;
  std::vector<std::string> outs;  // PbCall: accumulators it adds into
  std::set<std::string> uses;     // identifiers read (IfS: the condition; Loop: the header)
  std::string cond, negCond;      // IfS
  std::vector<Stmt> thenB, elseB; // IfS
  // Loop: `for (...) { body }`, `while (c) { body }` or, when the condition
  // needs statements, `while (true) { condB; if (!c) break; body }`.
  std::vector<Stmt> condB, bodyB;
  std::string breakLine;          // Loop with condB
  std::string loopVar;            // Loop: the index a `for` declares
};
using Block = std::vector<Stmt>;

// A one-line statement of kind `k` (not Decl, IfS or Loop) reading the
// names in `reads` (its text without the written target's syntax).
Stmt lineStmt(Stmt::K k, std::string line, const std::string &reads);

// Backward liveness: drops statements whose results are never read (only
// computes `live` when `drop` is false). Returns how many statements
// (other than uninitialised declarations) survive.
size_t dce(Block &b, std::set<std::string> &live, bool drop = true);
// Drops the uninitialised declarations no surviving assignment writes.
void dropUnassignedDecls(Block &b);
// Whether a statement (or one nested in it) reads or writes `name`.
bool mentions(const Stmt &s, const std::string &name);
// Every identifier a statement (or one nested in it) mentions.
void stmtIdents(const Stmt &s, std::set<std::string> &out);
// `const double t = e; ...; s = t;` -> `s = e; ...` from statement `from` on.
void sinkAssigns(Block &b, size_t from);
// The block as text, indented `depth` levels.
void emit(const Block &b, int depth, std::string &out);

// --------------------------------------------------------- printer ----

struct Printed {
  std::string head;      // linkage, return type, name
  std::string protoArgs; // parameter list for the prototype
  std::string defArgs;   // parameter list with [[maybe_unused]] marks
  std::string body;      // statements, indented, one per line
  // A marked method's gradient: " const" after the parameters, and the head
  // of its declaration in the class (`double loss_grad`).
  std::string qualifiers, memberHead;
};

// Whether `f` is a marked member function whose first parameter is `*this`
// (ir::CxxInfo::memberOf).
inline bool isMethod(const Function &f) { return !f.cxx.memberOf.empty(); }
// How the generated code names a method's object and its fields.
constexpr const char *kThisObject = "(*this)";
std::string fieldOf(const std::string &object, const std::string &field);
// A std::complex (lib/frontend/complex_numbers.cpp: a struct of its real
// and imaginary parts).
inline bool isStdComplex(const TypeP &t) { return t->isStruct() && t->structName.rfind("std::complex<", 0) == 0; }
// The user's object and its mirror (mirrors.cpp; CVal::userObject).
std::string mirrorFromObject(const TypeP &t, const std::string &object);
void assignObjectFromMirror(const TypeP &t, const std::string &object, const CVal &value,
                            std::vector<std::string> &lines);

// A generated function's primal and whether it is the gradient (f$grad) or
// a pullback (g$pullback).
struct Signature {
  const Function *primal = nullptr;
  bool isGrad = false;
  bool withValue = false; // g$value_and_pullback: a pullback returning g's value, as f_grad does
  bool isJvp = false; // f$jvp (forward mode): printed as f_jvp
};
Signature classify(const Function &gen, const Program &primal);

class FnPrinter {
public:
  FnPrinter(const Function &gen, const Program &primal) : gen_(gen), primal_(primal) {}

  Printed run();

private:
  struct Hint {
    std::string name;
    bool ir = false; // an IR binder name (keeps its spelling when it can)
  };
  // The generated function's parameters as C++ names (functions.cpp).
  struct Params {
    std::vector<std::string> primal;  // one per primal parameter
    std::string dret;                 // d_return ("" when there is none)
    std::vector<size_t> active;       // indices of the active primal parameters
    std::vector<std::string> adjoint; // one per active parameter
    // a struct parameter split into members (CxxType::parent) -> its names
    std::map<std::string, std::string> parent, parentAdjoint;
  };

  const Function &gen_;
  const Program &primal_;
  bool withValue_ = false; // printing a g$value_and_pullback
  std::set<std::string> used_;     // C++ names taken
  std::set<std::string> irNames_;  // IR binders that are valid identifiers
  // IR name -> its C++ value; a stack per name, scopes undone via trail_
  std::unordered_map<std::string, std::vector<CVal>> env_;
  std::vector<std::string> trail_;

  // Nodes shared in the DAG are translated once per C++ scope: their value
  // is materialised as a local and reused while it is visible.
  std::unordered_map<const Node *, int> parents_;
  std::unordered_map<const Node *, CVal> cache_;
  std::vector<const Node *> cacheLog_;
  std::set<std::string> everBound_;
  // per node: kEffects (writes memory or allocates: never shared, never
  // dropped) and kReads (reads memory: a cached value is stale after a write)
  enum : unsigned char { kEffects = 1, kReads = 2 };
  std::unordered_map<const Node *, unsigned char> flags_;
  std::unordered_map<std::string, bool> calleeEffects_;
  // What a cached value that reads memory depends on: the C++ names its
  // text and its statements mention.
  std::unordered_map<const Node *, std::set<std::string>> deps_;
  // Local arrays (by IR name) passed to a helper parameter whose elements
  // are another integer type than the IR's `long`: that parameter's type.
  std::unordered_map<std::string, const CxxType *> localShapes_;
  // Local arrays (by IR name) passed to a helper parameter (or a pullback's
  // adjoint buffer) that is a std::vector or std::array: they stay
  // std::vectors; the other local arrays of a constant, small size are
  // std::arrays on the stack.
  std::unordered_set<std::string> containerArrays_;

  // sharing.cpp
  bool flag(const Node *n, unsigned char f) const;
  bool calleeWrites(const std::string &callee);
  void computeFlags(const Expr &root);
  // After a write to the arrays named `written` (nullptr: any array), the
  // cached values reading them, directly or through other cached values,
  // must be recomputed.
  void invalidateReads(const std::set<std::string> *written = nullptr);
  // Invalidation before/after a loop: its writes (all, when unsure).
  void invalidateLoop(const Expr &loop);
  void scan(const Expr &e);
  void noteLocalShapes(const std::vector<Expr> &args, const Function &callee);
  void noteContainerArrays(const std::vector<Expr> &args, const std::vector<Expr> &buffers, const Function &callee);
  void dropCache(size_t mark);
  void push(const std::string &name, CVal v);
  void popTo(size_t mark);

  // names.cpp
  std::string fresh(const std::string &hint, bool ir);
  void reserveIdents(const std::string &spelling);

  // statements.cpp
  CVal lookup(const std::string &name) const;
  CVal tr(const Expr &e, Block &b, const Hint &h);
  CVal trNode(const Expr &e, Block &b, const Hint &h);
  CVal trConst(const Const *c);
  CVal trLet(const Expr &e, Block &b, const Hint &h);
  CVal trTuple(const Tuple *t, Block &b, const Hint &h);
  CVal trIndex(const Index *x, Block &b);
  CVal trSize(const Size *s, Block &b);
  CVal trView(const View *v, Block &b);
  std::string elementText(const CVal &a, const CVal &i);
  CVal trPrim(const Prim *p, Block &b);
  CVal trCast(const Prim *p, const CVal &arg, Block &b);
  CVal trIf(const If *i, Block &b, const Hint &h);
  CVal trStore(const Store *st, Block &b);
  CVal trNewArray(const NewArray *na, Block &b, const Hint &h);
  CVal bind(const CVal &v, const Hint &h, Block &b);
  CVal bindRow(const CVal &v, const Hint &h, Block &b);
  CVal declareLeaves(const TypeP &t, const Hint &h, Block &b);
  void assign(const CVal &dst, const CVal &src, Block &b);
  CVal materialize(const CVal &v, const std::string &hint, Block &b);
  CVal copyOfObject(const CVal &object);
  CVal snapshotOfObject(const CVal &object, const std::string &hint, Block &b); // (mirrors.cpp)
  // (`userObject`: `lhs` is the user's object, see CVal::userObject)
  void accumulate(const CVal &ct, const std::string &lhs, bool viaPointer, Block &b, bool userObject = false);
  void invalidateArray(const CVal &array);

  // calls.cpp
  CVal trCall(const Call *c, Block &b, const Hint &h);
  CVal trOpaque(const Opaque *c, Block &b, const Hint &h);
  // A statement run for its effect (a throw, a print) from its arguments'
  // printed values.
  CVal trEffectStmt(const std::vector<Expr> &args,
                    const std::function<std::string(const std::vector<std::string> &)> &spell, Block &b);
  CVal trPullback(const Pullback *p, Block &b, const Hint &h);
  std::string arrayArg(const CVal &a, const Function &callee, size_t param);
  CVal declareAccumulator(const TypeP &t, const std::string &hint, Block &b);

  // loops.cpp
  CVal trFold(const Fold *f, Block &b, const Hint &h);
  CVal trWhile(const While *w, Block &b, const Hint &h);
  CVal declareState(const CVal &init, const Hint &h, const std::vector<std::string> &hints, Block &b);
  void assignState(const CVal &dst, const CVal &src, Block &b);

  // functions.cpp
  Params nameParams(const Function &f, bool isGrad);
  void bindParams(const Function &f, const Params &names, bool isGrad);
  void finishBody(const Function &f, const Params &names, const CVal &res, bool isGrad, Block &body);
  Printed signature(const Function &f, const Params &names, bool isGrad, const std::set<std::string> &live);
  // f$jvp, whole (functions.cpp): `R f_jvp(P1 p1, ..., Pn pn, T1 d_a1, ...,
  // Tk d_ak, R* d_return)`, each tangent declared as its parameter is.
  Printed runJvp(const Function &f);
};

} // namespace unfad::printer::detail
