// Checked factories of the IR nodes: every node is well typed by construction.
#include "unfad/ir/ir.h"

#include <cmath>

namespace unfad::ir {

static void require(bool ok, const std::string &what) {
  if (!ok) throw IRError("ill-typed IR: " + what);
}

Expr Const::make(double v, TypeP t) {
  require(t && t->isScalar(), "constant of non-scalar type");
  // The integer view of a float constant only where it is representable
  // (the cast is undefined for 1e300, infinities and NaN).
  int64_t iv = std::isfinite(v) && std::fabs(v) < 9.2e18 ? static_cast<int64_t>(v) : 0;
  return std::make_shared<Const>(v, iv, std::move(t));
}
Expr Const::makeInt(int64_t v) { return std::make_shared<Const>(double(v), v, Type::i64()); }
Expr Const::makeBool(bool v) { return std::make_shared<Const>(v ? 1.0 : 0.0, v ? 1 : 0, Type::boolean()); }

Expr Const::zero(const TypeP &t) {
  if (t->isScalar()) return make(0.0, t);
  require(t->isTuple(), "zero of a function type");
  std::vector<Expr> es;
  for (auto &e : t->elems) es.push_back(zero(e));
  return std::make_shared<Tuple>(std::move(es), t);
}

bool Const::isZero() const { return fvalue == 0.0; }
bool Const::isOne() const { return fvalue == 1.0; }

Expr Var::make(std::string name, TypeP t) {
  require(!name.empty(), "variable without a name");
  require(t != nullptr, "variable '" + name + "' without a type");
  return std::make_shared<Var>(std::move(name), std::move(t));
}

Expr Prim::make(Op op, std::vector<Expr> args) {
  require(int(args.size()) == opArity(op), std::string("wrong arity for ") + opName(op));
  for (auto &a : args) require(a && a->type->isScalar(), std::string("non-scalar operand of ") + opName(op));
  require(op != Op::Cast, "use Prim::makeCast");
  TypeP t = args[0]->type;
  if (args.size() == 2 && !opIsPredicate(op))
    require(sameType(args[0]->type, args[1]->type),
            std::string("operands of ") + opName(op) + " differ: " + str(args[0]->type) + " vs " + str(args[1]->type));
  switch (op) {
  case Op::And: case Op::Or: case Op::Not:
    for (auto &a : args) require(a->type->isBool(), "logical operator on non-bool");
    return std::make_shared<Prim>(op, std::move(args), Type::boolean());
  case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: case Op::Eq: case Op::Ne:
    require(sameType(args[0]->type, args[1]->type), std::string("comparison of different types in ") + opName(op));
    return std::make_shared<Prim>(op, std::move(args), Type::boolean());
  case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Neg:
    require(!t->isBool(), std::string("arithmetic on bool in ") + opName(op));
    return std::make_shared<Prim>(op, std::move(args), t);
  case Op::Mod: case Op::BitAnd: case Op::BitOr: case Op::BitXor: case Op::Shl: case Op::Shr: case Op::BitNot:
    require(t->isInt(), "mod on non-integers");
    return std::make_shared<Prim>(op, std::move(args), t);
  case Op::Sin: case Op::Cos: case Op::Tan: case Op::Asin: case Op::Acos: case Op::Atan: case Op::Atan2:
  case Op::Sinh: case Op::Cosh: case Op::Tanh: case Op::Exp: case Op::Exp2: case Op::Expm1: case Op::Log:
  case Op::Log2: case Op::Log10: case Op::Log1p: case Op::Sqrt: case Op::Cbrt: case Op::Pow: case Op::Hypot:
  case Op::Fabs: case Op::Fmin: case Op::Fmax: case Op::Erf: case Op::Erfc: case Op::Asinh: case Op::Acosh: case Op::Atanh: case Op::Lgamma: case Op::Tgamma:
  case Op::Fmod: case Op::Remainder: case Op::Copysign: case Op::Fdim: case Op::Floor: case Op::Ceil: case Op::Round:
  case Op::Trunc: case Op::Cast: case Op::Sign: case Op::Digamma:
    require(t->isFloat(), std::string("math function on non-float: ") + opName(op));
    return std::make_shared<Prim>(op, std::move(args), t);
  }
  throw IRError("unknown operator");
}

Expr Prim::makeCast(Expr arg, TypeP to) {
  require(arg->type->isScalar() && to->isScalar(), "cast between non-scalars");
  return std::make_shared<Prim>(Op::Cast, std::vector<Expr>{std::move(arg)}, std::move(to));
}

Expr Let::make(std::string name, Expr value, Expr body) {
  require(!name.empty() && value && body, "incomplete let");
  return std::make_shared<Let>(std::move(name), std::move(value), std::move(body));
}

Expr If::make(Expr cond, Expr thenE, Expr elseE) {
  require(cond->type->isBool(), "if condition is not bool");
  require(sameType(thenE->type, elseE->type),
          "if branches differ: " + str(thenE->type) + " vs " + str(elseE->type));
  return std::make_shared<If>(std::move(cond), std::move(thenE), std::move(elseE));
}

Expr Tuple::make(std::vector<Expr> elems) {
  std::vector<TypeP> ts;
  for (auto &e : elems) ts.push_back(e->type);
  return std::make_shared<Tuple>(std::move(elems), Type::tuple(std::move(ts)));
}

Expr Tuple::makeStruct(TypeP st, std::vector<Expr> elems) {
  require(st->isTuple() && st->elems.size() == elems.size(), "struct initialiser arity");
  for (size_t i = 0; i < elems.size(); ++i)
    require(sameType(st->elems[i], elems[i]->type), "struct field type of " + str(st));
  return std::make_shared<Tuple>(std::move(elems), std::move(st));
}

Expr Proj::make(Expr tuple, int index) {
  require(tuple->type->isTuple(), "projection from non-tuple " + str(tuple->type));
  require(index >= 0 && index < int(tuple->type->elems.size()), "projection index out of range");
  TypeP t = tuple->type->elems[index];
  return std::make_shared<Proj>(std::move(tuple), index, std::move(t));
}

Expr Call::make(std::string callee, std::vector<Expr> args, TypeP result) {
  require(!callee.empty() && result, "incomplete call");
  return std::make_shared<Call>(std::move(callee), std::move(args), std::move(result));
}

Expr Opaque::make(std::string callee, std::vector<Expr> args, TypeP result, bool read) {
  require(!callee.empty() && result && (result->isScalar() || (result->isArray() && args.empty())),
          "an opaque call returns a scalar (or, without arguments, names a constant or a constant table)");
  for (auto &a : args) require(a->type->isScalar(), "an opaque call takes scalars");
  return std::make_shared<Opaque>(std::move(callee), std::move(args), std::move(result), read);
}

Expr Resize::make(Expr array, Expr size) {
  require(array->is<Var>() && array->type->isArray(), "resize of a non-array (or of a view)");
  require(size->type->isInt(), "resize to a non-integer size");
  return std::make_shared<Resize>(std::move(array), std::move(size));
}

Expr Throw::make(std::string thrown, TypeP type, std::vector<Expr> args) {
  require(!thrown.empty() && type, "incomplete throw");
  require(size_t(std::count(thrown.begin(), thrown.end(), kArg)) == args.size(), "throw: one argument per mark");
  for (auto &a : args) require(a->type->isScalar(), "throw: an argument that is not a number");
  return std::make_shared<Throw>(std::move(thrown), std::move(type), std::move(args));
}

std::string fillMarks(const std::string &spelling, const std::vector<std::string> &argTexts) {
  std::string out;
  size_t k = 0;
  for (char c : spelling) out += c == Throw::kArg ? argTexts.at(k++) : std::string(1, c);
  return out;
}

std::string Throw::spelled(const std::vector<std::string> &argTexts) const { return fillMarks(thrown, argTexts); }

Expr Effect::make(std::string spelling, std::vector<Expr> args) {
  require(!spelling.empty(), "an effect without a statement");
  require(size_t(std::count(spelling.begin(), spelling.end(), Throw::kArg)) == args.size(), "effect: one argument per mark");
  for (auto &a : args) require(a->type->isScalar(), "effect: an argument that is not a number");
  return std::make_shared<Effect>(std::move(spelling), std::move(args));
}

std::string Effect::spelled(const std::vector<std::string> &argTexts) const { return fillMarks(spelling, argTexts); }

Expr Pullback::make(std::string callee, std::vector<Expr> args, Expr ct, TypeP result, std::vector<Expr> buffers,
                    bool withValue) {
  require(result->isTuple(), "pullback must return a tuple");
  require(!withValue || (!result->elems.empty() && result->elems[0]->isScalar()), "a pullback with value returns it first");
  for (auto &b : buffers) require(b->type->isArray(), "pullback buffer is not an array");
  return std::make_shared<Pullback>(std::move(callee), std::move(args), std::move(ct), std::move(result),
                                    std::move(buffers), withValue);
}

namespace {
// o + j, without the additions of a literal 0 (views at offset 0, index 0).
Expr addOffset(const Expr &o, const Expr &j) {
  auto zero = [](const Expr &e) { auto c = e->as<Const>(); return c && c->ivalue == 0; };
  if (zero(o)) return j;
  if (zero(j)) return o;
  return Prim::make(Op::Add, {o, j});
}
} // namespace

Expr View::make(Expr array, Expr offset) {
  require(array->type->isArray(), "view of a non-array " + str(array->type));
  require(offset->type->isInt(), "view offset is not an integer");
  if (auto v = array->as<View>()) return make(v->array, addOffset(v->offset, offset));
  return std::make_shared<View>(std::move(array), std::move(offset));
}

const Expr &rootArray(const Expr &e) {
  const Expr *cur = &e;
  while (auto v = (*cur)->as<View>()) cur = &v->array;
  return *cur;
}

const Expr &storageArray(const Expr &e) {
  const Expr &root = rootArray(e);
  if (auto row = root->as<Index>(); row && root->type->isArray()) return storageArray(row->array);
  return root;
}

Expr viewOffset(const Expr &e) {
  if (auto v = e->as<View>()) return addOffset(v->offset, viewOffset(v->array));
  return Const::makeInt(0);
}

Expr Index::make(Expr array, Expr index) {
  require(array->type->isArray(), "indexing a non-array " + str(array->type));
  require(index->type->isInt(), "array index is not an integer");
  if (auto v = array->as<View>()) return make(v->array, addOffset(v->offset, index));
  TypeP t = array->type->elem();
  return std::make_shared<Index>(std::move(array), std::move(index), std::move(t));
}

Expr Size::make(Expr array) {
  require(array->type->isArray(), "size of a non-array");
  if (auto v = array->as<View>()) return Prim::make(Op::Sub, {make(v->array), v->offset});
  return std::make_shared<Size>(std::move(array));
}

Expr NewArray::make(Expr size, TypeP elem, bool scratch) {
  require(size->type->isInt(), "array size is not an integer");
  return std::make_shared<NewArray>(std::move(size), Type::array(std::move(elem)), scratch);
}

TypeP fieldType(const TypeP &t, const std::vector<int> &path) {
  TypeP cur = t;
  for (int k : path) {
    require(cur->isStruct() && k >= 0 && size_t(k) < cur->elems.size(), "field path into " + str(t));
    cur = cur->elems[size_t(k)];
  }
  return cur;
}

static bool addable(const TypeP &t) {
  if (t->isStruct()) return std::all_of(t->elems.begin(), t->elems.end(), [](const TypeP &e) { return e->isBool() || addable(e); });
  return t->isFloat() || t->isInt();
}

Expr Store::make(Expr array, Expr index, Expr value, Mode mode, std::vector<int> path) {
  require(array->type->isArray(), "store into a non-array");
  require(!array->type->elem()->isArray(), "store into an array of arrays (write its rows)");
  require(index->type->isInt(), "store index is not an integer");
  if (auto v = array->as<View>())
    return make(v->array, addOffset(v->offset, index), std::move(value), mode, std::move(path));
  TypeP target = fieldType(array->type->elem(), path);
  require(sameType(target, value->type), "stored value type " + str(value->type));
  require(mode == Mode::Set || addable(target), "+= on bool");
  return std::make_shared<Store>(std::move(array), std::move(index), std::move(value), mode, std::move(path));
}

Expr While::make(Expr init, std::string state, Expr cond, Expr body) {
  require(cond->type->isBool(), "while condition is not bool");
  require(sameType(init->type, body->type), "while body type " + str(body->type) + " vs state " + str(init->type));
  return std::make_shared<While>(std::move(init), std::move(state), std::move(cond), std::move(body));
}

Expr Fold::make(Expr lo, Expr hi, Expr init, std::string index, std::string state, Expr body, bool reversed) {
  require(lo->type->isInt() && hi->type->isInt(), "fold bounds are not integers");
  require(sameType(init->type, body->type), "fold body type " + str(body->type) + " vs state " + str(init->type));
  require(!index.empty() && !state.empty(), "fold binders");
  return std::make_shared<Fold>(std::move(lo), std::move(hi), std::move(init), std::move(index), std::move(state),
                                std::move(body), reversed);
}

Expr Build::make(Expr size, std::string index, Expr body) {
  require(size->type->isInt(), "build size is not an integer");
  require(!index.empty(), "build binder");
  require(body->type->isScalar(), "build element type " + str(body->type) + " is not a scalar");
  TypeP t = Type::array(body->type);
  return std::make_shared<Build>(std::move(size), std::move(index), std::move(body), std::move(t));
}

Expr Sum::make(Expr lo, Expr hi, std::string index, Expr body) {
  require(lo->type->isInt() && hi->type->isInt(), "sum bounds are not integers");
  require(!index.empty(), "sum binder");
  require(body->type->isScalar() && !body->type->isBool(), "sum of " + str(body->type));
  return std::make_shared<Sum>(std::move(lo), std::move(hi), std::move(index), std::move(body));
}

Expr Lambda::make(std::vector<Binder> params, Expr body) {
  std::vector<TypeP> ps;
  for (auto &p : params) ps.push_back(p.type);
  TypeP t = Type::func(std::move(ps), body->type);
  return std::make_shared<Lambda>(std::move(params), std::move(body), std::move(t));
}

Expr App::make(Expr fn, std::vector<Expr> args) {
  require(fn->type->isFunc(), "application of a non-function");
  require(fn->type->elems.size() == args.size(), "application arity");
  for (size_t i = 0; i < args.size(); ++i)
    require(sameType(fn->type->elems[i], args[i]->type),
            "application argument " + std::to_string(i) + ": " + str(fn->type->elems[i]) + " vs " + str(args[i]->type));
  TypeP t = fn->type->result;
  return std::make_shared<App>(std::move(fn), std::move(args), std::move(t));
}

} // namespace unfad::ir
