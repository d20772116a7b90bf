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

namespace {

// The indices of an element of a member array from its field's name
// (`m[2][1]` -> 2, 1; none for other fields: lib/frontend/member_arrays.cpp).
std::vector<long> elementIndices(const std::string &field) {
  std::vector<long> out;
  for (size_t p = field.find('['); p != std::string::npos; p = field.find('[', p + 1))
    out.push_back(std::strtol(field.c_str() + p + 1, nullptr, 10));
  return out;
}

} // namespace

// `T{f1, f2, ...}`: a member array's elements in braces of their own, a
// row's too (`T{{a, b}, {c, d}, e}`), as -Wmissing-braces likes them.
std::string bracedStruct(const TypeP &t, const std::vector<std::string> &fields) {
  std::string s = t->structName + "{";
  std::vector<long> prev;
  auto member = [&](size_t i) { return t->fieldNames[i].substr(0, t->fieldNames[i].find('[')); };
  for (size_t i = 0; i <= fields.size(); ++i) {
    std::vector<long> cur = i < fields.size() ? elementIndices(t->fieldNames[i]) : std::vector<long>{};
    size_t keep = 0; // the braces this element shares with the previous one
    if (i > 0 && i < fields.size() && !cur.empty() && !prev.empty() && member(i) == member(i - 1)) {
      keep = 1;
      while (keep < cur.size() && keep < prev.size() && cur[keep - 1] == prev[keep - 1]) ++keep;
    }
    s += std::string(prev.size() > keep ? prev.size() - keep : 0, '}');
    if (i == fields.size()) break;
    if (i > 0) s += ", ";
    s += std::string(cur.size() > keep ? cur.size() - keep : 0, '{') + fields[i];
    prev = cur;
  }
  return s + "}";
}

std::string render(const CVal &v) {
  if (!v.agg) return v.text;
  if (!v.type->isStruct()) fail("a plain tuple has no C++ expression form");
  std::vector<std::string> fields;
  for (size_t i = 0; i < v.elems.size(); ++i) {
    std::string e = render(v.elems[i]);
    // integers are i64 in the IR: an int field would be a narrowing
    // conversion inside braces (a literal that fits is not)
    bool tupleLike = v.type->structName.compare(0, 10, "std::pair<") == 0 || v.type->structName.compare(0, 11, "std::tuple<") == 0;
    if (v.type->elems[i]->isInt() && e.find_first_not_of("0123456789") != std::string::npos)
      e = tupleLike ? "static_cast<std::tuple_element_t<" + std::to_string(i) + ", " + v.type->structName + ">>(" + e + ")"
          : v.type->fieldNames.at(i).find('[') == std::string::npos // (an element of a member array: an lvalue)
              ? "static_cast<decltype(" + v.type->structName + "::" + v.type->fieldNames.at(i) + ")>(" + e + ")"
              : "static_cast<std::remove_reference_t<decltype(" + v.type->structName + "::" + v.type->fieldNames.at(i) +
                    ")>>(" + e + ")";
    fields.push_back(e);
  }
  return bracedStruct(v.type, fields);
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
