// C++ identifiers in generated code: keywords, sanitising IR names, the
// identifiers a piece of code mentions, fresh names, generated functions'
// names.
#include "printer.h"

#include <utility>

namespace unfad::printer::detail {

[[noreturn]] void fail(const std::string &what) { throw IRError("C++ printer: " + what); }

namespace {

bool isKeyword(const std::string &s) {
  static const std::set<std::string> kw = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break",
      "case", "catch", "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept",
      "const", "consteval", "constexpr", "constinit", "const_cast", "continue", "co_await",
      "co_return", "co_yield", "decltype", "default", "delete", "do", "double", "dynamic_cast",
      "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto",
      "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
      "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register",
      "reinterpret_cast", "requires", "return", "short", "signed", "sizeof", "static",
      "static_assert", "static_cast", "struct", "switch", "template", "this", "thread_local",
      "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using",
      "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
      // not keywords, but names the generated code relies on
      "std", "NULL"};
  return kw.count(s) != 0;
}

bool identStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

} // namespace

bool identChar(char c) { return identStart(c) || (c >= '0' && c <= '9'); }

bool validIdent(const std::string &s) {
  if (s.empty() || !identStart(s[0])) return false;
  for (char c : s)
    if (!identChar(c)) return false;
  if (s.find("__") != std::string::npos) return false;
  if (s.size() > 1 && s[0] == '_' && s[1] >= 'A' && s[1] <= 'Z') return false;
  return !isKeyword(s);
}


// Invalid characters become '_', runs of '_' collapse, no leading/trailing '_'.
std::string sanitize(const std::string &name) {
  std::string s;
  for (char c : name) {
    char d = identChar(c) ? c : '_';
    if (d == '_' && !s.empty() && s.back() == '_') continue;
    s += d;
  }
  size_t b = s.find_first_not_of('_');
  if (b == std::string::npos) return "v";
  s = s.substr(b);
  while (!s.empty() && s.back() == '_') s.pop_back();
  if (s[0] >= '0' && s[0] <= '9') s = "v" + s;
  if (isKeyword(s)) s += "_v";
  return s;
}


void collectIdents(const std::string &t, std::set<std::string> &out) {
  size_t i = 0, n = t.size();
  while (i < n) {
    char c = t[i];
    if (c >= '0' && c <= '9') { // pp-number: 1.5e-08f
      while (i < n && (identChar(t[i]) || t[i] == '.' ||
                       ((t[i] == '-' || t[i] == '+') && (t[i - 1] == 'e' || t[i - 1] == 'E'))))
        ++i;
      continue;
    }
    if (identStart(c)) {
      size_t b = i;
      while (i < n && identChar(t[i])) ++i;
      bool member = (b >= 1 && t[b - 1] == '.') || (b >= 2 && t[b - 2] == '-' && t[b - 1] == '>') ||
                    (b >= 2 && t[b - 2] == ':' && t[b - 1] == ':');
      if (!member) out.insert(t.substr(b, i - b));
      continue;
    }
    ++i;
  }
}

// `(*p).x` is spelled `p->x` (`this->a`, `d_this->a`).
std::string fieldOf(const std::string &object, const std::string &field) {
  // a std::tuple's elements (lib/frontend/pairs_tuples.cpp): std::get<I>(t)
  if (field.compare(0, 9, "std::get<") == 0) {
    bool wrapped = object.size() > 2 && object.front() == '(' && object.back() == ')' && object.find(')') == object.size() - 1;
    return field + "(" + (wrapped ? object.substr(1, object.size() - 2) : object) + ")";
  }
  bool pointee = object.size() > 3 && object.compare(0, 2, "(*") == 0 && object.back() == ')' &&
                 (validIdent(object.substr(2, object.size() - 3)) || object == kThisObject);
  if (pointee)
    return object.substr(2, object.size() - 3) + "->" + field;
  return object + "." + field;
}

std::string cxxNameOf(const Function &f) { return f.cxx.name.empty() ? sanitize(f.name) : f.cxx.name; }

// The base of a generated function's name: the C++ name when it is an
// identifier; an operator gets a spelled-out one (`operator+` ->
// `operator_plus`, so `operator_plus_pullback`).
std::string generatedBase(const Function &f) {
  std::string n = cxxNameOf(f);
  if (n.rfind("operator", 0) != 0 || n.size() == 8 || identChar(n[8])) return n;
  static const std::pair<const char *, const char *> ops[] = {
      {"+=", "plus_assign"}, {"-=", "minus_assign"}, {"*=", "mul_assign"}, {"/=", "div_assign"},
      {"==", "eq"}, {"!=", "ne"}, {"<=", "le"}, {">=", "ge"}, {"()", "call"}, {"[]", "index"},
      {"+", "plus"}, {"-", "minus"}, {"*", "mul"}, {"/", "div"}, {"%", "mod"}, {"<", "lt"}, {">", "gt"},
      {"!", "not"}, {"=", "assign"}};
  std::string sym = n.substr(8);
  sym.erase(0, sym.find_first_not_of(' '));
  for (auto &[o, w] : ops)
    if (sym == o) return std::string("operator_") + w;
  return sanitize(n);
}

std::string FnPrinter::fresh(const std::string &hint, bool ir) {
  if (ir && validIdent(hint) && !used_.count(hint)) {
    used_.insert(hint);
    return hint;
  }
  std::string base = validIdent(hint) ? hint : sanitize(hint);
  for (int n = 0;; ++n) {
    std::string c = n ? base + "_" + std::to_string(n) : base;
    if (used_.count(c) || !validIdent(c)) continue;
    if (irNames_.count(c) && !(ir && c == hint)) continue;
    used_.insert(c);
    return c;
  }
}

void FnPrinter::reserveIdents(const std::string &spelling) {
  std::set<std::string> ids;
  collectIdents(spelling, ids);
  used_.insert(ids.begin(), ids.end());
  // qualified names: reserve the first component too (`geo::Vec3` -> geo)
  size_t b = spelling.find_first_not_of(':');
  if (b != std::string::npos) {
    size_t e = spelling.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_", b);
    used_.insert(spelling.substr(b, e == std::string::npos ? std::string::npos : e - b));
  }
}

} // namespace unfad::printer::detail
