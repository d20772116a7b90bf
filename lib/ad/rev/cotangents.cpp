#include "cotangents.h"

namespace unfad::ad::rev {

using namespace unfad::ir;

TypeP cotangentType(const TypeP &t) {
  if (t->isFloat()) return t;
  if (t->isTuple()) {
    std::vector<TypeP> elems;
    bool allSame = true;
    for (auto &e : t->elems) {
      elems.push_back(cotangentType(e));
      allSame &= sameType(elems.back(), e);
    }
    if (t->isStruct() && allSame) return t;
    return Type::tuple(std::move(elems));
  }
  return Type::tuple({});
}

Expr makeTuple(const TypeP &t, std::vector<Expr> elems) {
  return t->isStruct() ? ir::Tuple::makeStruct(t, std::move(elems)) : ir::Tuple::make(std::move(elems));
}

Expr accumulate(const Expr &a, const Expr &b) {
  if (a->type->isScalar()) return Prim::make(Op::Add, {a, b});
  std::vector<Expr> elems;
  for (int i = 0; i < int(a->type->elems.size()); ++i)
    elems.push_back(accumulate(Proj::make(a, i), Proj::make(b, i)));
  return makeTuple(a->type, std::move(elems));
}

Expr asElement(const Expr &cotangent, const TypeP &elementType) {
  if (sameType(cotangent->type, elementType)) return cotangent;
  if (!elementType->isStruct()) return Const::zero(elementType);
  std::vector<Expr> elems;
  for (int k = 0; k < int(elementType->elems.size()); ++k)
    elems.push_back(asElement(Proj::make(cotangent, k), elementType->elems[size_t(k)]));
  return ir::Tuple::makeStruct(elementType, std::move(elems));
}

Expr asCotangent(const Expr &element) {
  TypeP ct = cotangentType(element->type);
  if (sameType(ct, element->type)) return element;
  if (!element->type->isStruct()) return ir::Tuple::make({});
  std::vector<Expr> elems;
  for (int k = 0; k < int(element->type->elems.size()); ++k) elems.push_back(asCotangent(Proj::make(element, k)));
  return makeTuple(ct, std::move(elems));
}

} // namespace unfad::ad::rev
