// Types and operator tables of the IR.
#include "unfad/ir/ir.h"

#include <algorithm>

namespace unfad::ir {

static TypeP makeScalar(Scalar s) {
  auto t = std::make_shared<Type>();
  t->kind = Type::Kind::Scalar;
  t->scalar = s;
  return t;
}

TypeP Type::f64() { static TypeP t = makeScalar(Scalar::F64); return t; }
TypeP Type::f32() { static TypeP t = makeScalar(Scalar::F32); return t; }
TypeP Type::i64() { static TypeP t = makeScalar(Scalar::I64); return t; }
TypeP Type::boolean() { static TypeP t = makeScalar(Scalar::Bool); return t; }
TypeP Type::scalarOf(Scalar s) {
  switch (s) {
  case Scalar::F64: return f64();
  case Scalar::F32: return f32();
  case Scalar::I64: return i64();
  case Scalar::Bool: return boolean();
  }
  return f64();
}

TypeP Type::tuple(std::vector<TypeP> elems) {
  auto t = std::make_shared<Type>();
  t->kind = Kind::Tuple;
  for (auto &e : elems)
    if (!e) throw IRError("tuple type with a null element");
  t->elems = std::move(elems);
  return t;
}

TypeP Type::structure(std::string name, std::vector<std::string> fields, std::vector<TypeP> elems, bool mirror,
                      bool baseFirst) {
  if (fields.size() != elems.size()) throw IRError("struct type: field names and types differ in number");
  auto t = std::make_shared<Type>();
  t->kind = Kind::Tuple;
  t->structName = std::move(name);
  t->fieldNames = std::move(fields);
  t->elems = std::move(elems);
  t->mirror = mirror;
  t->baseFirst = baseFirst;
  if (baseFirst && (t->elems.empty() || !t->elems[0]->isStruct())) throw IRError("struct type: the base field is not a struct");
  return t;
}

TypeP Type::func(std::vector<TypeP> params, TypeP result) {
  auto t = std::make_shared<Type>();
  t->kind = Kind::Func;
  t->elems = std::move(params);
  t->result = std::move(result);
  return t;
}

// Elements are scalars, structs of scalars (nested structs allowed), or
// arrays (arrays of arrays: rows).
static bool plainStruct(const TypeP &t) {
  if (t->isScalar()) return true;
  if (!t->isStruct()) return false;
  for (auto &e : t->elems)
    if (!plainStruct(e)) return false;
  return true;
}

TypeP Type::array(TypeP elem) {
  if (!elem || !(plainStruct(elem) || elem->isArray()))
    throw IRError("arrays hold scalars, structs of scalars or arrays");
  auto t = std::make_shared<Type>();
  t->kind = Kind::Array;
  t->elems = {std::move(elem)};
  return t;
}

TypeP Type::unit() {
  static TypeP t = tuple({});
  return t;
}

bool sameType(const TypeP &a, const TypeP &b) {
  if (a == b) return true;
  if (!a || !b || a->kind != b->kind) return false;
  switch (a->kind) {
  case Type::Kind::Scalar: return a->scalar == b->scalar;
  case Type::Kind::Tuple:
    if (a->structName != b->structName || a->elems.size() != b->elems.size()) return false;
    break;
  case Type::Kind::Func:
    if (a->elems.size() != b->elems.size() || !sameType(a->result, b->result)) return false;
    break;
  case Type::Kind::Array:
    break;
  }
  for (size_t i = 0; i < a->elems.size(); ++i)
    if (!sameType(a->elems[i], b->elems[i])) return false;
  return true;
}

bool isActive(const TypeP &t) {
  if (t->isFloat()) return true;
  if (t->isTuple() || t->isArray()) return std::any_of(t->elems.begin(), t->elems.end(), isActive);
  return false;
}

bool hasFunc(const TypeP &t) {
  if (t->isFunc()) return true;
  if (t->isTuple()) return std::any_of(t->elems.begin(), t->elems.end(), hasFunc);
  return false;
}

std::string str(const TypeP &t) {
  switch (t->kind) {
  case Type::Kind::Scalar:
    switch (t->scalar) {
    case Scalar::F64: return "f64";
    case Scalar::F32: return "f32";
    case Scalar::I64: return "i64";
    case Scalar::Bool: return "bool";
    }
    break;
  case Type::Kind::Tuple: {
    std::string s = t->isStruct() ? t->structName + "{" : "(";
    for (size_t i = 0; i < t->elems.size(); ++i) {
      if (i) s += ", ";
      if (t->isStruct()) s += t->fieldNames[i] + ": ";
      s += str(t->elems[i]);
    }
    return s + (t->isStruct() ? "}" : ")");
  }
  case Type::Kind::Array: return "[" + str(t->elem()) + "]";
  case Type::Kind::Func: {
    std::string s = "(";
    for (size_t i = 0; i < t->elems.size(); ++i) s += (i ? ", " : "") + str(t->elems[i]);
    return s + ") -> " + str(t->result);
  }
  }
  return "?";
}

const char *opName(Op op) {
  switch (op) {
#define UNFAD_X(N, S, A) case Op::N: return S;
    UNFAD_IR_OPS(UNFAD_X)
#undef UNFAD_X
  }
  return "?";
}

int opArity(Op op) {
  switch (op) {
#define UNFAD_X(N, S, A) case Op::N: return A;
    UNFAD_IR_OPS(UNFAD_X)
#undef UNFAD_X
  }
  return 0;
}

bool opFromName(const std::string &name, Op &out) {
#define UNFAD_X(N, S, A) if (name == S) { out = Op::N; return true; }
  UNFAD_IR_OPS(UNFAD_X)
#undef UNFAD_X
  return false;
}

bool opIsPredicate(Op op) {
  switch (op) {
  case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: case Op::Eq: case Op::Ne:
  case Op::And: case Op::Or: case Op::Not:
    return true;
  case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Neg: case Op::Mod:
  case Op::BitAnd: case Op::BitOr: case Op::BitXor: case Op::Shl: case Op::Shr: case Op::BitNot:
  case Op::Sin: case Op::Cos: case Op::Tan: case Op::Asin: case Op::Acos: case Op::Atan: case Op::Atan2:
  case Op::Sinh: case Op::Cosh: case Op::Tanh: case Op::Exp: case Op::Exp2: case Op::Expm1: case Op::Log:
  case Op::Log2: case Op::Log10: case Op::Log1p: case Op::Sqrt: case Op::Cbrt: case Op::Pow: case Op::Hypot:
  case Op::Fabs: case Op::Fmin: case Op::Fmax: case Op::Erf: case Op::Erfc: case Op::Asinh: case Op::Acosh: case Op::Atanh: case Op::Lgamma: case Op::Tgamma:
  case Op::Fmod: case Op::Remainder: case Op::Copysign: case Op::Fdim: case Op::Floor: case Op::Ceil: case Op::Round:
  case Op::Trunc: case Op::Cast: case Op::Sign: case Op::Digamma:
    return false;
  }
  return false;
}

const Function *Program::find(const std::string &name) const {
  for (auto &f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

TypeP pullbackResultType(const Function &f) {
  std::vector<TypeP> ts;
  for (auto &p : f.params)
    if (p.active) ts.push_back(p.type->isArray() ? Type::unit() : p.type);
  return Type::tuple(std::move(ts));
}

} // namespace unfad::ir
