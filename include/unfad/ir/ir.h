// unfad's intermediate representation: a small, typed, purely functional
// language (the "Source"/"Target" languages of Huot & Shaikhha).
//
// Nodes are immutable and shared; they are only built through the checked
// `make` factories, which compute and verify the node's type. Passes that
// rewrite a tree return the very same node when nothing changed, so callers
// can test for progress with pointer equality.
//
// This header must stay free of Clang and LLVM headers.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace unfad::ir {

// ---------------------------------------------------------------- types --

enum class Scalar { F64, F32, I64, Bool };

class Type;
using TypeP = std::shared_ptr<const Type>;

class Type {
public:
  enum class Kind { Scalar, Tuple, Func, Array };

  Kind kind = Kind::Scalar;
  Scalar scalar = Scalar::F64;        // Kind::Scalar
  std::vector<TypeP> elems;           // Tuple elements; Func parameters; Array element
  TypeP result;                       // Func result
  std::string structName;             // Tuple that is a C++ struct ("" = plain tuple)
  std::vector<std::string> fieldNames; // one per element when structName != ""
  // A struct the generated code defines itself (`Spring_fields`): the data
  // members of a user's class whose objects it cannot build or read as
  // written (private members, a constructor that computes); see
  // lib/frontend/class_layout.cpp.
  bool mirror = false;
  // The first field is a derived class's base-class object (a mirror's
  // `base`, lib/frontend/class_layout.cpp). In the user's own object that
  // field has no name: its members are reached as inherited members.
  bool baseFirst = false;

  static TypeP f64();
  static TypeP f32();
  static TypeP i64();
  static TypeP boolean();
  static TypeP scalarOf(Scalar s);
  static TypeP tuple(std::vector<TypeP> elems);
  static TypeP structure(std::string name, std::vector<std::string> fields,
                         std::vector<TypeP> elems, bool mirror = false,
                         bool baseFirst = false);
  static TypeP func(std::vector<TypeP> params, TypeP result);
  // A mutable buffer of scalars with a run-time size (C arrays, pointers,
  // std::vector, std::array). Reads and writes are ordered by the let chain.
  static TypeP array(TypeP elem);
  // The type of effects (Store): the empty tuple.
  static TypeP unit();

  bool isScalar() const { return kind == Kind::Scalar; }
  bool isFloat() const { return kind == Kind::Scalar && (scalar == Scalar::F64 || scalar == Scalar::F32); }
  bool isInt() const { return kind == Kind::Scalar && scalar == Scalar::I64; }
  bool isBool() const { return kind == Kind::Scalar && scalar == Scalar::Bool; }
  bool isTuple() const { return kind == Kind::Tuple; }
  bool isStruct() const { return kind == Kind::Tuple && !structName.empty(); }
  bool isFunc() const { return kind == Kind::Func; }
  bool isArray() const { return kind == Kind::Array; }
  bool isUnit() const { return kind == Kind::Tuple && elems.empty(); }
  const TypeP &elem() const { return elems.at(0); }
};

// Structural equality (struct names included).
bool sameType(const TypeP &a, const TypeP &b);
// True when a value of this type carries derivatives: a float, or a tuple
// or array containing one. Integers and booleans are passive.
bool isActive(const TypeP &t);
// True when the type mentions a function type anywhere (continuations).
bool hasFunc(const TypeP &t);
// Text form: f64, f32, i64, bool, (f64, i64), Vec3{x: f64, ...}, (f64) -> f64
std::string str(const TypeP &t);

// ------------------------------------------------------------ operators --

// One list of primitive operators. X(Name, spelling, arity).
#define UNFAD_IR_OPS(X)                                                        \
  X(Add, "add", 2) X(Sub, "sub", 2) X(Mul, "mul", 2) X(Div, "div", 2)          \
  X(Neg, "neg", 1) X(Mod, "mod", 2)                                            \
  X(Sin, "sin", 1) X(Cos, "cos", 1) X(Tan, "tan", 1) X(Asin, "asin", 1)        \
  X(Acos, "acos", 1) X(Atan, "atan", 1) X(Atan2, "atan2", 2)                   \
  X(Sinh, "sinh", 1) X(Cosh, "cosh", 1) X(Tanh, "tanh", 1)                     \
  X(Exp, "exp", 1) X(Exp2, "exp2", 1) X(Expm1, "expm1", 1) X(Log, "log", 1)    \
  X(Log2, "log2", 1) X(Log10, "log10", 1) X(Log1p, "log1p", 1)                 \
  X(Sqrt, "sqrt", 1) X(Cbrt, "cbrt", 1) X(Pow, "pow", 2) X(Hypot, "hypot", 2)  \
  X(Fabs, "fabs", 1) X(Fmin, "fmin", 2) X(Fmax, "fmax", 2) X(Erf, "erf", 1)    \
  X(Erfc, "erfc", 1) X(Asinh, "asinh", 1) X(Acosh, "acosh", 1)                 \
  X(Atanh, "atanh", 1) X(Lgamma, "lgamma", 1) X(Tgamma, "tgamma", 1)           \
  X(Fmod, "fmod", 2) X(Remainder, "remainder", 2) X(Copysign, "copysign", 2)   \
  X(Fdim, "fdim", 2)                                                           \
  X(Floor, "floor", 1) X(Ceil, "ceil", 1) X(Round, "round", 1)                 \
  X(Trunc, "trunc", 1)                                                         \
  X(Lt, "lt", 2) X(Le, "le", 2) X(Gt, "gt", 2) X(Ge, "ge", 2) X(Eq, "eq", 2)   \
  X(Ne, "ne", 2) X(And, "and", 2) X(Or, "or", 2) X(Not, "not", 1)              \
  X(Cast, "cast", 1) X(Sign, "sign", 1)                                        \
  /* ψ = Γ'/Γ, lgamma's derivative (unfad::digamma in <unfad/unfad.h>) */      \
  X(Digamma, "digamma", 1)                                                     \
  /* on integers only, like mod: & | ^ << >> ~ */                             \
  X(BitAnd, "bitand", 2) X(BitOr, "bitor", 2) X(BitXor, "bitxor", 2)           \
  X(Shl, "shl", 2) X(Shr, "shr", 2) X(BitNot, "bitnot", 1)

enum class Op {
#define UNFAD_X(N, S, A) N,
  UNFAD_IR_OPS(UNFAD_X)
#undef UNFAD_X
};

const char *opName(Op op);
int opArity(Op op);
bool opFromName(const std::string &name, Op &out);
// Comparison / logical operators: their result is bool and passive.
bool opIsPredicate(Op op);

// ----------------------------------------------------------------- nodes --

// One list of node kinds; it generates the Kind enum and the dispatch of the
// Visitor and Mutator (mutator.h). A node's children, binders and rebuilding
// are the tables of traverse.h.
#define UNFAD_IR_NODES(X)                                                      \
  X(Const) X(Var) X(Prim) X(Let) X(If) X(Tuple) X(Proj) X(Call) X(Pullback)    \
  X(Lambda) X(App) X(Index) X(Size) X(NewArray) X(Store) X(Fold) X(While)      \
  X(Build) X(Sum) X(View) X(Opaque) X(Throw)    \
  X(Resize) X(Effect)

enum class Kind {
#define UNFAD_X(N) N,
  UNFAD_IR_NODES(UNFAD_X)
#undef UNFAD_X
};

class Node;
using Expr = std::shared_ptr<const Node>;

class Node {
public:
  const Kind kind;
  const TypeP type;
  virtual ~Node() = default;

  template <class T> const T *as() const {
    return kind == T::kKind ? static_cast<const T *>(this) : nullptr;
  }
  template <class T> bool is() const { return kind == T::kKind; }

protected:
  Node(Kind k, TypeP t) : kind(k), type(std::move(t)) {}
};

// Thrown by `make` factories on ill-typed input and by passes on IR they do
// not accept. A bug in unfad, never a user error (those are diagnostics).
struct IRError : std::logic_error {
  using std::logic_error::logic_error;
};

// A literal: a double for floats, an integer for i64/bool.
class Const final : public Node {
public:
  static constexpr Kind kKind = Kind::Const;
  const double fvalue;
  const int64_t ivalue;
  static Expr make(double v, TypeP t = Type::f64());
  static Expr makeInt(int64_t v);
  static Expr makeBool(bool v);
  // Zero of any active/passive type (tuples of zeros).
  static Expr zero(const TypeP &t);
  bool isZero() const;
  bool isOne() const;
  Const(double f, int64_t i, TypeP t) : Node(kKind, std::move(t)), fvalue(f), ivalue(i) {}
};

class Var final : public Node {
public:
  static constexpr Kind kKind = Kind::Var;
  const std::string name;
  static Expr make(std::string name, TypeP t);
  Var(std::string n, TypeP t) : Node(kKind, std::move(t)), name(std::move(n)) {}
};

// A primitive operation. Arithmetic works on two operands of one scalar
// type; Cast converts to `type`; predicates return bool.
class Prim final : public Node {
public:
  static constexpr Kind kKind = Kind::Prim;
  const Op op;
  const std::vector<Expr> args;
  static Expr make(Op op, std::vector<Expr> args);
  static Expr makeCast(Expr arg, TypeP to);
  Prim(Op o, std::vector<Expr> a, TypeP t) : Node(kKind, std::move(t)), op(o), args(std::move(a)) {}
};

class Let final : public Node {
public:
  static constexpr Kind kKind = Kind::Let;
  const std::string name;
  const Expr value;
  const Expr body;
  static Expr make(std::string name, Expr value, Expr body);
  Let(std::string n, Expr v, Expr b)
      : Node(kKind, b->type), name(std::move(n)), value(std::move(v)), body(std::move(b)) {}
};

class If final : public Node {
public:
  static constexpr Kind kKind = Kind::If;
  const Expr cond, thenE, elseE;
  static Expr make(Expr cond, Expr thenE, Expr elseE);
  If(Expr c, Expr t, Expr e) : Node(kKind, t->type), cond(std::move(c)), thenE(std::move(t)), elseE(std::move(e)) {}
};

// A tuple, or (with a struct type) a C++ aggregate initialisation.
class Tuple final : public Node {
public:
  static constexpr Kind kKind = Kind::Tuple;
  const std::vector<Expr> elems;
  static Expr make(std::vector<Expr> elems);
  static Expr makeStruct(TypeP structType, std::vector<Expr> elems);
  Tuple(std::vector<Expr> e, TypeP t) : Node(kKind, std::move(t)), elems(std::move(e)) {}
};

// Tuple projection / struct member access.
class Proj final : public Node {
public:
  static constexpr Kind kKind = Kind::Proj;
  const Expr tuple;
  const int index;
  static Expr make(Expr tuple, int index);
  Proj(Expr tu, int i, TypeP t) : Node(kKind, std::move(t)), tuple(std::move(tu)), index(i) {}
};

// A call to a function of the Program (a helper).
class Call final : public Node {
public:
  static constexpr Kind kKind = Kind::Call;
  const std::string callee;
  const std::vector<Expr> args;
  static Expr make(std::string callee, std::vector<Expr> args, TypeP result);
  Call(std::string c, std::vector<Expr> a, TypeP t) : Node(kKind, std::move(t)), callee(std::move(c)), args(std::move(a)) {}
};

// A call of a C++ function unfad does not differentiate (`std::lgamma(0.5 *
// (n + 1))`, a helper without a visible body) whose arguments the front end
// proved passive: a constant of the differentiation, with no derivative.
// Assumed pure. `callee` is the C++ spelling the printer emits. Without
// arguments it is a constant of the program read by name: a number
// (`kSqrt2`) or a table (`kWeights`, a `static constexpr double[]`: passive
// memory nothing writes). `read` when it only reads that data (a member,
// an element, an accessor returning one: `data.model.weights(b, v)`), as
// cheap as a load: the backward sweep reads it again rather than taping it
// (ad/rev/tapes.cpp). Otherwise it computes (`std::lgamma`), and a value
// the backward sweep needs is taped.
class Opaque final : public Node {
public:
  static constexpr Kind kKind = Kind::Opaque;
  const std::string callee;
  const std::vector<Expr> args;
  const bool read;
  static Expr make(std::string callee, std::vector<Expr> args, TypeP result, bool read = false);
  Opaque(std::string c, std::vector<Expr> a, TypeP t, bool r)
      : Node(kKind, std::move(t)), callee(std::move(c)), args(std::move(a)), read(r) {}
};

// `throw X;`: evaluation stops here by throwing the C++ exception `thrown`,
// its spelling, in which each `kArg` marks where a value of the function
// goes: the passive numbers `args`, in order (`std::out_of_range("index " +
// std::to_string(\x1f))` with args {k}). It ends the
// path it is on, so it stands for a value of whatever type that path
// produces (`type`), which never materialises. Its derivative is zero (like
// a constant's); an effect no pass removes, speculates or duplicates
// (memoryEffects: `raises`), so f_grad throws where f throws, before any
// adjoint is written.
class Throw final : public Node {
public:
  static constexpr Kind kKind = Kind::Throw;
  static constexpr char kArg = '\x1f';
  const std::string thrown;
  const std::vector<Expr> args;
  static Expr make(std::string thrown, TypeP type, std::vector<Expr> args = {});
  Throw(std::string th, TypeP t, std::vector<Expr> a)
      : Node(kKind, std::move(t)), thrown(std::move(th)), args(std::move(a)) {}
  // The spelling with the k-th mark replaced by argTexts[k].
  std::string spelled(const std::vector<std::string> &argTexts) const;
};

// A statement run for what it does outside the program: printing
// (`std::cout << "step " << k << ": " << loss << '\n';`, `printf(...)`),
// rebuilt from its spelling, in which each Throw::kArg marks where one of
// the numbers `args` goes (the function's values it prints, read where the
// statement runs). Its value is the unit (); it has no derivative. f_grad
// runs it where f runs it, once: an effect no pass removes, reorders past
// another effect or a store, speculates or duplicates (memoryEffects:
// `raises` and `prints`), and which the backward sweep's recomputations, pullbacks and
// f's rerun after its in/out writes leave out (ad/rev).
class Effect final : public Node {
public:
  static constexpr Kind kKind = Kind::Effect;
  const std::string spelling;
  const std::vector<Expr> args;
  static Expr make(std::string spelling, std::vector<Expr> args = {});
  Effect(std::string s, std::vector<Expr> a) : Node(kKind, Type::unit()), spelling(std::move(s)), args(std::move(a)) {}
  // The spelling with the k-th mark replaced by argTexts[k].
  std::string spelled(const std::vector<std::string> &argTexts) const;
};

// `spelling` with its k-th Throw::kArg mark replaced by argTexts[k] (a
// throw's, an effect's, or an Opaque's expression as written).
std::string fillMarks(const std::string &spelling, const std::vector<std::string> &argTexts);

// The transpose Jacobian of a helper call: given the call's arguments and
// the cotangent of its result, the tuple of cotangents of the helper's
// active parameters (in parameter order). The printer emits a call to the
// helper's generated pullback function: compositional, never re-derived.
//
// Active array parameters of the helper have no cotangent in the result
// (the unit ()): their cotangents are accumulated in place into `buffers`,
// one per active array parameter in order (the caller's cotangent buffer
// of the array passed there).
//
// `withValue`: the helper's value too, computed by the pullback's own
// forward sweep (the helper's g$value_and_pullback): the result is
// (value, cotangents...), and it stands for the call and its pullback at
// once (opt/value_pullbacks.cpp).
class Pullback final : public Node {
public:
  static constexpr Kind kKind = Kind::Pullback;
  const std::string callee;
  const std::vector<Expr> args;
  const Expr cotangent;
  const std::vector<Expr> buffers;
  const bool withValue;
  static Expr make(std::string callee, std::vector<Expr> args, Expr cotangent, TypeP result,
                   std::vector<Expr> buffers = {}, bool withValue = false);
  Pullback(std::string c, std::vector<Expr> a, Expr ct, TypeP t, std::vector<Expr> b, bool v)
      : Node(kKind, std::move(t)), callee(std::move(c)), args(std::move(a)), cotangent(std::move(ct)),
        buffers(std::move(b)), withValue(v) {}
};

struct Binder {
  std::string name;
  TypeP type;
};

// `fun (p1, ..., pn) -> body`: only continuations introduced by reverse mode;
// the optimiser removes every one of them.
class Lambda final : public Node {
public:
  static constexpr Kind kKind = Kind::Lambda;
  const std::vector<Binder> params;
  const Expr body;
  static Expr make(std::vector<Binder> params, Expr body);
  Lambda(std::vector<Binder> p, Expr b, TypeP t) : Node(kKind, std::move(t)), params(std::move(p)), body(std::move(b)) {}
};

class App final : public Node {
public:
  static constexpr Kind kKind = Kind::App;
  const Expr fn;
  const std::vector<Expr> args;
  static Expr make(Expr fn, std::vector<Expr> args);
  App(Expr f, std::vector<Expr> a, TypeP t) : Node(kKind, std::move(t)), fn(std::move(f)), args(std::move(a)) {}
};

// a[i]: reads the current contents of a buffer.
class Index final : public Node {
public:
  static constexpr Kind kKind = Kind::Index;
  const Expr array, index;
  static Expr make(Expr array, Expr index);
  Index(Expr a, Expr i, TypeP t) : Node(kKind, std::move(t)), array(std::move(a)), index(std::move(i)) {}
};

// A pointer into an array: the elements array[offset], array[offset + 1],
// ... (`&a[k]`, `a + k`, a pointer local). It has the array's type and
// aliases it: reads and writes through it are reads and writes of the
// array. Index and Store of a view are normalised by their factories to the
// root array (Index(View(a, o), j) is Index(a, o + j)), so views mostly
// remain as arguments of calls; rootArray(e) sees through them.
class View final : public Node {
public:
  static constexpr Kind kKind = Kind::View;
  const Expr array, offset;
  static Expr make(Expr array, Expr offset);
  View(Expr a, Expr o) : Node(kKind, a->type), array(std::move(a)), offset(std::move(o)) {}
};
// The array a view (of a view ...) points into; `e` itself otherwise.
const Expr &rootArray(const Expr &e);
// The array whose memory `e` is part of: through views and through rows
// a[i] of an array of arrays (a store into a row writes the outer array).
const Expr &storageArray(const Expr &e);
// The element offset of `e` into rootArray(e) (0 when it is no view).
Expr viewOffset(const Expr &e);

// The number of elements of an array that knows it (std::vector, std::array).
class Size final : public Node {
public:
  static constexpr Kind kKind = Kind::Size;
  const Expr array;
  static Expr make(Expr array);
  Size(Expr a) : Node(kKind, Type::i64()), array(std::move(a)) {}
};

// A fresh zero-filled buffer of `size` elements (local arrays, tapes and
// cotangent buffers of local arrays). A `scratch` buffer (a tape, a saved
// copy) is never read before it is written: one allocated in a loop may be
// reused by every iteration (the optimiser hoists it), and the evaluator
// fills it with NaN to catch a read before the first write.
// Buffers of a constant size up to this many elements may live on the
// stack (the printer makes them C arrays; the optimiser leaves them where
// they are declared): larger ones would risk overflowing it.
constexpr int64_t kStackBufferLimit = 1024;
class NewArray final : public Node {
public:
  static constexpr Kind kKind = Kind::NewArray;
  const Expr size;
  const bool scratch;
  static Expr make(Expr size, TypeP elem, bool scratch = false);
  NewArray(Expr n, TypeP t, bool s) : Node(kKind, std::move(t)), size(std::move(n)), scratch(s) {}
};

// The effect a[i] = v (Set) or a[i] += v (Add); its value is the unit ().
// Bound by a let (conventionally named "_"), it is ordered with the reads
// around it and never removed as dead code. With a `path` (struct field
// indices) it writes one field of a struct element: a[i].f.g = v; the rest
// of the element is untouched. An Add of a struct value adds field-wise.
class Store final : public Node {
public:
  static constexpr Kind kKind = Kind::Store;
  enum class Mode { Set, Add };
  const Expr array, index, value;
  const Mode mode;
  const std::vector<int> path;
  static Expr make(Expr array, Expr index, Expr value, Mode mode, std::vector<int> path = {});
  Store(Expr a, Expr i, Expr v, Mode m, std::vector<int> p)
      : Node(kKind, Type::unit()), array(std::move(a)), index(std::move(i)), value(std::move(v)), mode(m),
        path(std::move(p)) {}
};
// The effect `a.resize(n)` (std::vector's: the elements below the smaller
// size kept, new ones zero). On an output std::vector parameter: the user's
// `out.resize(n)` before anything else touches `out` (resized as f does,
// once), or an output grown by push_back (resized where a push needs room
// and cut to its length at each exit); the front end never reads Size(a)
// after it, it carries out's size and length in variables instead. On a
// local array (a class's vector member resized after it is built,
// lib/frontend/resized_members.cpp): only in the block that allocates the
// array, never in a loop or branch nested in it, so that a loop sees one
// size of it; passes that take a size as fixed must not move Size(a) across
// it (partial evaluation's CSE forgets it). Its value is the unit ().
class Resize final : public Node {
public:
  static constexpr Kind kKind = Kind::Resize;
  const Expr array, size;
  static Expr make(Expr array, Expr size);
  Resize(Expr a, Expr n) : Node(kKind, Type::unit()), array(std::move(a)), size(std::move(n)) {}
};

// The type of the field `path` selects in a value of type `t`.
TypeP fieldType(const TypeP &t, const std::vector<int> &path);

// A counted loop with loop-carried state (the fold of Knossos' notes and
// the UNF paper's App. A):
//   s := init; for i in [lo, hi) (or hi-1 down to lo when reversed): s := body
// `body` sees the index `index` (i64) and the state `state`; the node's
// value is the final state. Stores in the body happen every iteration.
class Fold final : public Node {
public:
  static constexpr Kind kKind = Kind::Fold;
  const Expr lo, hi, init;
  const std::string index, state;
  const Expr body;
  const bool reversed;
  static Expr make(Expr lo, Expr hi, Expr init, std::string index, std::string state, Expr body,
                   bool reversed = false);
  Fold(Expr l, Expr h, Expr i0, std::string i, std::string s, Expr b, bool r)
      : Node(kKind, i0->type), lo(std::move(l)), hi(std::move(h)), init(std::move(i0)), index(std::move(i)),
        state(std::move(s)), body(std::move(b)), reversed(r) {}
};

// A loop with a data-dependent trip count:
//   s := init; while (cond) s := body
// `cond` and `body` see the state `state`; the value is the final state.
class While final : public Node {
public:
  static constexpr Kind kKind = Kind::While;
  const Expr init;
  const std::string state;
  const Expr cond, body;
  static Expr make(Expr init, std::string state, Expr cond, Expr body);
  While(Expr i0, std::string s, Expr c, Expr b)
      : Node(kKind, i0->type), init(std::move(i0)), state(std::move(s)), cond(std::move(c)), body(std::move(b)) {}
};

// The parallel array constructs of Knossos' notes (§1.2, §4), to which the
// UNF paper's map/map2/reduce(+)/shift reduce (App. A.2-A.5):
//   build n (i -> body)      a fresh array [body(0), ..., body(n-1)]
//   sum lo hi (i -> body)    body(lo) + ... + body(hi-1)  (0 when empty)
// `body` is pure (no stores, no writing calls) and sees the index `index`
// (i64); its iterations are independent, so neither needs a tape and their
// transposes are loops in any order. map f a = build (size a) (i -> f a[i]);
// map2 f a b = build (size a) (i -> f a[i] b[i]); sum a = sum 0 (size a)
// (i -> a[i]); shift a = build n (i -> i > 0 ? a[i-1] : 0) (see `map` etc.
// below). The optimiser rewrites them (fusion, one-hot sums) and lowers them
// to folds before printing.
class Build final : public Node {
public:
  static constexpr Kind kKind = Kind::Build;
  const Expr size;
  const std::string index;
  const Expr body;
  static Expr make(Expr size, std::string index, Expr body);
  Build(Expr n, std::string i, Expr b, TypeP t)
      : Node(kKind, std::move(t)), size(std::move(n)), index(std::move(i)), body(std::move(b)) {}
};

class Sum final : public Node {
public:
  static constexpr Kind kKind = Kind::Sum;
  const Expr lo, hi;
  const std::string index;
  const Expr body;
  static Expr make(Expr lo, Expr hi, std::string index, Expr body);
  Sum(Expr l, Expr h, std::string i, Expr b)
      : Node(kKind, b->type), lo(std::move(l)), hi(std::move(h)), index(std::move(i)), body(std::move(b)) {}
};

// The UNF paper's array combinators as Knossos forms; `fresh` names the
// index binder, `f` builds the element from the index variable.
Expr map(const Expr &a, const std::string &index, const std::function<Expr(Expr)> &f);
Expr map2(const Expr &a, const Expr &b, const std::string &index, const std::function<Expr(Expr, Expr)> &f);
Expr sum(const Expr &a, const std::string &index);            // reduce (+) 0 a
Expr shift(const Expr &a, const std::string &index);          // [0, a0, ..., a(n-2)]
// scanl f z a = [z, f(z, a0), f(f(z, a0), a1), ...] (n + 1 elements) and
// scanr f z a = [..., f(a(n-2), f(a(n-1), z)), f(a(n-1), z), z]: a fresh
// array filled by a fold carrying the running value (a scan is sequential:
// its J^T is the fold's, the UNF paper's prod gradient is one).
Expr scanl(const Expr &a, const Expr &z, const std::string &index, const std::string &acc,
           const std::function<Expr(Expr, Expr)> &f);
Expr scanr(const Expr &a, const Expr &z, const std::string &index, const std::string &acc,
           const std::function<Expr(Expr, Expr)> &f);
// build/sum as loops: build -> new + a fold storing each element, sum -> a
// fold adding to a running total (the form the C++ printer takes).
Expr lowerParallel(const Expr &e);

// Shorthands for the two questions most passes ask of MemoryEffects
// (effects.h). hasEffects: whether evaluating `e` stores (a Store, a pullback
// into buffers, or, given the program, a callee that stores); effectful lets
// are kept in order and never dropped. mayWrite: whether `e` may write an
// array, judged locally (a call given an array may write it).
bool hasEffects(const Expr &e, const struct Program *p = nullptr);
bool mayWrite(const Expr &e);

// ------------------------------------------------------------ functions --

// A parameter's or the return's C++ type, described by the front end from
// Clang's type (the canonical type decides the kind; the spellings keep the
// user's aliases), so that the printer never re-parses a spelling.
struct CxxType {
  enum class Kind {
    Void,
    Scalar,   // a builtin arithmetic type or an enum
    Struct,   // a class type that is not an array
    Pointer,  // a pointer (also a parameter declared as a C array: it decays)
    CArray,   // a C array (a parameter: a reference to one)
    Vector,   // std::vector
    StdArray, // std::array
  };
  Kind kind = Kind::Scalar;
  bool isConst = false;     // the value, or what the pointer or reference designates, is const
  bool isReference = false; // an lvalue reference
  bool isUnsigned = false;  // Scalar: an unsigned integer (the IR computes in i64)
  uint64_t bound = 0;       // CArray, StdArray: the number of elements (0: not declared)
  std::vector<CxxType> element; // Pointer, CArray, Vector, StdArray: the element type (one)
  std::string valueSpelling;    // without reference and cv: "Vec3", "std::vector<double>", "size_t"
  // A declaration of a parameter `name` of this type is `declBefore + name +
  // declAfter` ("const double* " and "", "const double (&" and ")[3]"); of
  // its adjoint, `adjointBefore + name + adjointAfter` ("double* ", "").
  std::string declBefore, declAfter;
  std::string adjointBefore, adjointAfter;
  // A member of a marked function's struct parameter that the front end
  // split into its members (a struct of pointers or of std::vectors, which
  // has no IR type): the IR parameter is the C++ parameter `parent`'s
  // member `member` ("w", "layer.b"); the struct is declared once, as
  // `parentDecl[0] + name + parentDecl[1]`, and its adjoint, a pointer to a
  // struct of the same type whose members receive the derivatives, as
  // `parentAdjoint[0] + name + parentAdjoint[1]`.
  std::string parent, member;
  std::string parentDecl[2], parentAdjoint[2];
  // The `parent` of the members of a marked method's object split so (a
  // class owning std::vectors): read through `this`, not declared; the
  // adjoint is `d_this`.
  static constexpr const char *kThisParent = "this";
  bool splitThis() const { return parent == kThisParent; }

  bool isArray() const { return kind == Kind::Pointer || kind == Kind::CArray || isContainer(); }
  // std::vector and std::array know their size()
  bool isContainer() const { return kind == Kind::Vector || kind == Kind::StdArray; }
  // Whether generated code can ask the array its length (x.size(), a C
  // array's bound); a pointer's is not known.
  bool knowsSize() const { return isContainer() || (kind == Kind::CArray && bound > 0); }
};

// What the C++ printer needs to re-create a function's signature and place,
// filled by the front end.
struct CxxInfo {
  std::string name;              // unqualified C++ name, e.g. "energy"
  std::string qualifiedName;     // e.g. "::geo::energy" (how generated code calls it)
  std::string enclosingNamespace; // e.g. "geo::detail" ("" = global)
  bool isStatic = false;
  bool isInline = false;
  bool isConstexpr = false;
  CxxType result;                // the return type, described
  std::vector<CxxType> params;   // each parameter's type, described (empty: unknown, e.g. old JSON)
  std::string file;              // where the definition is
  unsigned line = 0;
  // A marked member function: its class as named from the enclosing
  // namespace ("Model", "Outer::Inner"; empty for a free function). Its
  // gradient is a member too, and `*this` is the IR function's first
  // parameter, named "this" (a struct, or for a non-const method a
  // one-element array, as a `T&` parameter is).
  std::string memberOf;
  bool isConstMethod = false;
  bool definedInClass = false; // the gradient's definition then goes after the class, `inline`
  // A pullback the user registered (UNFAD_CUSTOM_GRADIENT), e.g.
  // "::log1pexp_pullback": callers call it instead of a generated one, and
  // none is emitted for this function (its body is only a stand-in).
  std::string customPullback;
  // A function of unfad's own header (unfad.h) that gradients call as it
  // is: `unfad::sort_permutation`, which writes only integers (a
  // permutation), so it needs no derivative; its body is a stand-in too.
  bool runtime = false;
  // Whether the body is only a stand-in (never inlined or differentiated).
  bool standIn() const { return runtime || !customPullback.empty(); }
};

// The C++ name of a marked member function's gradient: `loss` ->
// `loss_grad`, and a call operator's is `grad` (`model.grad(x, &d_model, d_x)`).
inline std::string memberGradientName(const std::string &method) {
  return method == "operator()" ? "grad" : method + "_grad";
}

struct Param {
  std::string name;
  TypeP type;
  bool active = false; // differentiated with respect to (has an adjoint)
  bool written = false; // an array the function stores to (an output)
  // An array the function writes after reading it (an in/out state, itself
  // or through a callee's): reverse mode saves what each store overwrites
  // and puts it back, as for local arrays (see array_order.h).
  bool inout = false;
};

struct Function {
  std::string name; // unique IR name (Call::callee refers to it)
  std::vector<Param> params;
  TypeP result;
  Expr body;
  bool marked = false; // carries UNFAD_GRADIENT (or UNFAD_JVP)
  // Marked with UNFAD_JVP: forward mode makes `f_jvp` (ad/forward.h)
  // instead of reverse mode's `f_grad`.
  bool tangent = false;
  CxxInfo cxx;
};

struct Program {
  std::vector<Function> functions;
  const Function *find(const std::string &name) const;
};

// Type of the tuple a Pullback of `f` returns: the active parameters' types
// (the unit () for arrays, whose cotangents are accumulated in place).
TypeP pullbackResultType(const Function &f);
// Name of the IR function holding the pullback of `callee` (made by the AD
// stage): parameters of `callee` then the result's cotangent; returns the
// tuple of cotangents of the active parameters.
inline std::string pullbackFunctionName(const std::string &callee) { return callee + "$pullback"; }
// The IR function computing `callee`'s value and its pullback in one run
// (a Pullback withValue calls it): returns (value, cotangents...).
inline std::string valueAndPullbackFunctionName(const std::string &callee) { return callee + "$value_and_pullback"; }

// ----------------------------------------------------------- utilities --

// Text printer (the `--dump=ir` format): `let x: f64 = mul(a, b) in ...`.
std::string print(const Expr &e);
std::string print(const Function &f);
std::string print(const Program &p);

// Free variables of an expression (names).
std::vector<std::string> freeVars(const Expr &e);
// How many times `name` occurs free in `e` (counting under lambdas).
int countUses(const Expr &e, const std::string &name);
// Number of nodes (for size tests and the linear-growth checks).
size_t size(const Expr &e);
// Capture-avoiding substitution of `name` by `value`.
Expr substitute(const Expr &e, const std::string &name, const Expr &value);
class NameSupply;
// `e` with every binder renamed to a fresh name of `ns` (a copy of a body
// placed among other code must not capture or shadow its names).
Expr freshened(const Expr &e, NameSupply &ns);

// Fresh-name supply: fresh("d_x") -> "d_x", then "d_x_1", "d_x_2", ...
// Names already used in a program can be reserved first.
class NameSupply {
public:
  std::string fresh(const std::string &hint);
  void reserve(const std::string &name);
  void reserveAll(const Expr &e);

  bool taken(const std::string &n) const { return used_.count(n) != 0; }

private:
  std::unordered_set<std::string> used_;
  std::unordered_map<std::string, int> next_; // next suffix to try per hint
};

// Evaluator for tests: runs a Program on scalar inputs. Values are nested
// vectors of doubles for tuples; bool/i64 are encoded as doubles.
struct Value {
  double scalar = 0;
  std::vector<Value> elems;
  bool isTuple = false;
  // arrays are shared, mutable buffers: scalars, or the scalar leaves of
  // struct elements one after the other; arrays of arrays hold `rows`
  std::shared_ptr<std::vector<double>> array;
  std::shared_ptr<std::vector<Value>> rows;
  int64_t offset = 0; // a view: the element `array`/`rows` index 0 stands for
  static Value of(double d) { Value v; v.scalar = d; return v; }
  static Value tuple(std::vector<Value> es) { Value v; v.elems = std::move(es); v.isTuple = true; return v; }
  static Value arrayOf(std::vector<double> xs) {
    Value v;
    v.array = std::make_shared<std::vector<double>>(std::move(xs));
    return v;
  }
};
// What the evaluator throws when the program reaches a Throw node.
struct Thrown : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// `effects`, when given, receives each Effect the run performs, spelled
// with its arguments' values (what the program would print, in order).
Value evaluate(const Program &p, const std::string &fn, const std::vector<Value> &args,
               std::vector<std::string> *effects = nullptr);
Value evaluate(const Program &p, const Expr &e, const std::vector<std::pair<std::string, Value>> &env,
               std::vector<std::string> *effects = nullptr);

} // namespace unfad::ir
