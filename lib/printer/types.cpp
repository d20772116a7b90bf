// Types and values as C++ text: IR type spellings, literals, rendering a
// value (a struct literal, an operand with the parentheses it needs).
#include "printer.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace unfad::printer::detail {

std::string cxxType(const TypeP &t) {
  if (t->isStruct()) return t->structName;
  if (t->isScalar()) {
    switch (t->scalar) {
    case Scalar::F64: return "double";
    case Scalar::F32: return "float";
    case Scalar::I64: return "long";
    case Scalar::Bool: return "bool";
    }
  }
  fail("no C++ spelling for IR type " + str(t));
}

std::string formatFloating(double v, bool isFloat32) {
  const char *type = isFloat32 ? "float" : "double";
  if (std::isnan(v)) return std::string("std::numeric_limits<") + type + ">::quiet_NaN()";
  if (std::isinf(v)) return std::string(v < 0 ? "-" : "") + "std::numeric_limits<" + type + ">::infinity()";
  char buf[64];
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, v);
    if (isFloat32 ? std::strtof(buf, nullptr) == static_cast<float>(v) : std::strtod(buf, nullptr) == v) break;
  }
  std::string s = buf;
  if (s.find('e') != std::string::npos && std::fabs(v) >= 1 && std::fabs(v) < 1e15) {
    // 1e+02 -> 100.0: with an exponent >= its digits the value is an integer
    std::snprintf(buf, sizeof buf, "%.0f", v);
    s = buf;
  }
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  if (isFloat32) s += "f";
  return s;
}

CVal unitVal() {
  CVal v;
  v.type = Type::unit();
  v.agg = true;
  return v;
}

CVal leaf(TypeP t, std::string text, int prec, bool atom) {
  CVal v;
  v.type = std::move(t);
  v.text = std::move(text);
  v.prec = prec;
  v.atom = atom;
  return v;
}

bool isAtom(const CVal &v) {
  if (!v.agg) return v.atom;
  for (auto &e : v.elems)
    if (!isAtom(e)) return false;
  return true;
}

bool allZero(const CVal &v) {
  if (!v.agg) return v.zero;
  for (auto &e : v.elems)
    if (!allZero(e)) return false;
  return true;
}

std::string operand(const CVal &v, int min, bool guardMinus) {
  std::string s = render(v);
  int p = v.agg ? PPrimary : v.prec;
  if (p < min || (guardMinus && !s.empty() && s[0] == '-')) return "(" + s + ")";
  return s;
}

std::string render(const CVal &v) {
  if (!v.agg) return v.text;
  if (!v.type->isStruct()) fail("a plain tuple has no C++ expression form");
  std::string s = v.type->structName + "{";
  for (size_t i = 0; i < v.elems.size(); ++i) {
    std::string e = render(v.elems[i]);
    // integers are i64 in the IR: an int field would be a narrowing
    // conversion inside braces (a literal that fits is not)
    if (v.type->elems[i]->isInt() && e.find_first_not_of("0123456789") != std::string::npos)
      e = "static_cast<decltype(" + v.type->structName + "::" + v.type->fieldNames.at(i) + ")>(" + e + ")";
    s += (i ? ", " : "") + e;
  }
  return s + "}";
}

void leafNames(const CVal &v, std::set<std::string> &out) {
  if (!v.agg) {
    collectIdents(v.text, out);
    return;
  }
  for (auto &e : v.elems) leafNames(e, out);
}

void setArrayShape(CVal &v, const CxxType *shape) {
  v.shape = shape;
  v.container = shape && shape->isContainer();
  v.bound = shape && shape->kind == CxxType::Kind::CArray ? shape->bound : 0;
}

} // namespace unfad::printer::detail
