// C++ printer: the optimised IR of a generated function (`f$grad`,
// `g$pullback`) back to readable C++.
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
// Arrays and loops (issue 3):
//  - an active array parameter `x` has no cotangent in the result (the unit);
//    its adjoint is the buffer parameter that follows the primal ones
//    (`double* d_x`, `std::vector<double>& d_x`, named as in the IR);
//  - `a[i]`, `static_cast<long>(v.size())` (a C array reference: its bound),
//    `std::vector<T> v(n);` for NewArray (bool -> char; a scratch buffer,
//    never read before written: `std::unique_ptr<T[]> v(new T[n]);`), `a[i] = v;` /
//    `a[i] += v;` (`-= x` for a negation) for Store;
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
//    `d_return`; a std::vector passed to a pointer parameter passes data();
//    unsigned integer parameters are read as `static_cast<long>(n)`.
#include "unfad/printer/cxx.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace unfad::printer {
namespace {

using namespace unfad::ir;

[[noreturn]] void fail(const std::string &what) { throw IRError("C++ printer: " + what); }

// ------------------------------------------------------------ names ----

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
bool identChar(char c) { return identStart(c) || (c >= '0' && c <= '9'); }

// A name usable as a C++ local as it is (not reserved, not a keyword).
bool validIdent(const std::string &s) {
  if (s.empty() || !identStart(s[0])) return false;
  for (char c : s)
    if (!identChar(c)) return false;
  if (s.find("__") != std::string::npos) return false;
  if (s.size() > 1 && s[0] == '_' && s[1] >= 'A' && s[1] <= 'Z') return false;
  return !isKeyword(s);
}

// Deterministic spelling of an IR name as a C++ identifier: invalid
// characters become '_', runs of '_' collapse, no leading/trailing '_'.
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

// Identifiers referenced by a piece of generated code, ignoring member
// names (after '.', '->' or '::') and numeric literals.
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

// ---------------------------------------------------------- C++ types ----

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

std::string trim(std::string s) {
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

// `const Vec3&` -> `Vec3`, `double const` -> `double`.
std::string stripCvRef(std::string s) {
  s = trim(s);
  while (!s.empty() && s.back() == '&') s = trim(s.substr(0, s.size() - 1));
  if (s.rfind("const ", 0) == 0) s = trim(s.substr(6));
  if (s.size() > 6 && s.compare(s.size() - 6, 6, " const") == 0) s = trim(s.substr(0, s.size() - 6));
  return s;
}

// `const double *` -> `const double*`, `const std::vector<double> &` ->
// `const std::vector<double>&` (Clang's spelling, tidied).
std::string tidy(const std::string &spelling) {
  std::string s;
  for (char c : trim(spelling)) {
    if ((c == '*' || c == '&') && !s.empty() && s.back() == ' ') s.pop_back();
    s += c;
  }
  return s;
}

// `std::vector<...>` / `std::array<...>` (cv and & stripped): a container
// that knows its size; everything else an array parameter can be is a
// pointer or a C array.
bool isContainerSpelling(const std::string &spelling) {
  std::string s = stripCvRef(spelling);
  if (s.rfind("::", 0) == 0) s = s.substr(2);
  return s.rfind("std::vector<", 0) == 0 || s.rfind("std::array<", 0) == 0;
}

// The declared bound of a C array parameter (`const double (&)[N]` -> N),
// "" when there is none (pointers, `double[]`).
std::string arrayBound(const std::string &spelling) {
  size_t b = spelling.find('['), e = spelling.find(']');
  if (b == std::string::npos || e == std::string::npos || e <= b + 1) return "";
  return trim(spelling.substr(b + 1, e - b - 1));
}

// An unsigned integer spelling (`std::size_t`, `unsigned`, `uint32_t`):
// the IR computes in i64, so such a parameter is read as a long.
bool isUnsignedSpelling(const std::string &spelling) {
  std::string s = stripCvRef(spelling);
  if (s.rfind("::", 0) == 0) s = s.substr(2);
  if (s.rfind("std::", 0) == 0) s = s.substr(5);
  if (s.find("unsigned") != std::string::npos || s == "size_t") return true;
  return s.rfind("uint", 0) == 0 && s.size() > 6 && s.compare(s.size() - 2, 2, "_t") == 0;
}

// The element type of an array spelled `spelling`, cv dropped:
// `const std::vector<std::vector<double>>&` -> `std::vector<double>`,
// `const double (*)[3]` -> `double[3]`, `const double (&)[2][3]` ->
// `double[3]`, `const Vec3*` -> `Vec3`; "" when unknown.
std::string elementSpelling(const std::string &spelling) {
  std::string s = tidy(stripCvRef(spelling));
  if (s.rfind("::", 0) == 0) s = s.substr(2);
  if (s.rfind("std::vector<", 0) == 0 || s.rfind("std::array<", 0) == 0) {
    size_t b = s.find('<') + 1, depth = 0, e = b;
    for (; e < s.size(); ++e) {
      if (s[e] == '<') ++depth;
      else if (s[e] == '>' && depth-- == 0) break;
      else if (s[e] == ',' && depth == 0) break;
    }
    return stripCvRef(s.substr(b, e - b));
  }
  std::string cut = s;
  bool ref = false;
  if (size_t p = cut.find("(*)"); p != std::string::npos) cut = trim(cut.substr(0, p)) + cut.substr(p + 3);
  else if (size_t q = cut.find("(&)"); q != std::string::npos) cut = trim(cut.substr(0, q)) + cut.substr(q + 3), ref = true;
  else if (!cut.empty() && cut.back() == '*') return stripCvRef(cut.substr(0, cut.size() - 1));
  size_t br = cut.find('[');
  if (br == std::string::npos) return "";
  std::string base = stripCvRef(trim(cut.substr(0, br))), dims = cut.substr(br);
  if (ref || s.find('(') == std::string::npos) dims = dims.substr(dims.find(']') + 1); // drop the outer bound
  return base + dims;
}

// The adjoint parameter of a parameter spelled `spelling` (CONTRACT.md).
std::string adjointSpelling(const std::string &spelling, const TypeP &t) {
  if (t->isArray()) { // the buffer: element type kept, const and & dropped
    if (spelling.empty()) return cxxType(t->elem()) + "*";
    std::string s = tidy(stripCvRef(spelling));
    if (isContainerSpelling(s)) return s + "&";
    if (t->elem()->isArray()) { // const double (&)[2][3], const double (*)[3] -> double (*)[3]
      std::string es = elementSpelling(spelling);
      size_t br = es.find('[');
      if (br == std::string::npos) fail("no C++ spelling for the adjoint of '" + spelling + "'");
      return trim(es.substr(0, br)) + " (*)" + es.substr(br);
    }
    size_t cut = s.find_first_of("[(*");
    return stripCvRef(s.substr(0, cut)) + "*"; // const double[], const double (&)[N], const double*
  }
  std::string s = tidy(stripCvRef(spelling.empty() ? cxxType(t) : spelling));
  size_t br = s.find('[');
  if (br != std::string::npos) return stripCvRef(s.substr(0, br)) + "*"; // const double[] -> double*
  if (!s.empty() && s.back() == '*') {                                    // const double* -> double*
    std::string pointee = stripCvRef(s.substr(0, s.size() - 1));
    return pointee + "*";
  }
  if (isContainerSpelling(s)) return s + "&";
  return s + "*";
}

// `T name`, with the name inside array declarators (`double (&x)[3]`).
std::string declare(const std::string &spelling0, const std::string &name) {
  std::string spelling = tidy(spelling0);
  size_t p = spelling.find("(&)");
  if (p == std::string::npos) p = spelling.find("(*)");
  if (p != std::string::npos) return spelling.substr(0, p + 2) + name + spelling.substr(p + 2);
  size_t br = spelling.find('[');
  if (br != std::string::npos) return trim(spelling.substr(0, br)) + " " + name + spelling.substr(br);
  return spelling + " " + name;
}

// ------------------------------------------------------------ literals ----

std::string fmtFloating(double v, bool f32) {
  const char *T = f32 ? "float" : "double";
  if (std::isnan(v)) return std::string("std::numeric_limits<") + T + ">::quiet_NaN()";
  if (std::isinf(v)) return std::string(v < 0 ? "-" : "") + "std::numeric_limits<" + T + ">::infinity()";
  char buf[64];
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, v);
    if (f32 ? std::strtof(buf, nullptr) == static_cast<float>(v) : std::strtod(buf, nullptr) == v) break;
  }
  std::string s = buf;
  if (s.find('e') != std::string::npos && std::fabs(v) >= 1 && std::fabs(v) < 1e15) {
    // 1e+02 -> 100.0: with an exponent >= its digits the value is an integer
    std::snprintf(buf, sizeof buf, "%.0f", v);
    s = buf;
  }
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  if (f32) s += "f";
  return s;
}

// --------------------------------------------------------- C++ values ----

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
  // arrays (always atoms: a parameter or a local std::vector)
  bool container = false; // std::vector / std::array: knows its size()
  std::string bound;      // C array parameter: its declared bound
  std::string spell;      // its C++ type, when known (rows of arrays of arrays)
};

CVal unitVal() {
  CVal v;
  v.type = Type::unit();
  v.agg = true;
  return v;
}

CVal leaf(TypeP t, std::string text, int prec, bool atom = false) {
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

std::string render(const CVal &v);

// `v` as an operand needing at least precedence `min`; a right operand that
// starts with '-' is parenthesised too (`a - (-b)`, never `a - -b`).
std::string operand(const CVal &v, int min, bool guardMinus = false) {
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

// ---------------------------------------------------------- statements ----

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

bool hasEffectStmt(const Block &b) {
  for (auto &s : b) {
    if (s.k == Stmt::Effect || s.effect) return true;
    if (hasEffectStmt(s.thenB) || hasEffectStmt(s.elseB) || hasEffectStmt(s.condB) || hasEffectStmt(s.bodyB))
      return true;
  }
  return false;
}

// Backward liveness: drops statements whose results are never read (only
// computes `live` when `drop` is false). Effects (stores, calls that write,
// pullbacks into buffers) are always kept, and so are the ifs and loops
// around them. Returns how many statements (other than uninitialised
// declarations) survive.
size_t dce(Block &b, std::set<std::string> &live, bool drop = true) {
  std::vector<char> keepv(b.size(), 1);
  size_t kept = 0;
  for (size_t i = b.size(); i-- > 0;) {
    Stmt &s = b[i];
    bool keep = true, counts = true;
    switch (s.k) {
    case Stmt::Accum:
    case Stmt::Return:
    case Stmt::Effect:
      live.insert(s.uses.begin(), s.uses.end());
      break;
    case Stmt::Decl:
      if (!s.init) { // kept later iff some assignment to it survives
        live.erase(s.def);
        counts = false;
        break;
      }
      [[fallthrough]];
    case Stmt::Assign:
      if (!live.count(s.def)) {
        if (s.effect) { // the value is unused, the call is not
          if (drop) s.useEffLine = true;
          live.insert(s.uses.begin(), s.uses.end());
          break;
        }
        keep = false;
        break;
      }
      if (drop) s.useEffLine = false;
      live.erase(s.def);
      live.insert(s.uses.begin(), s.uses.end());
      break;
    case Stmt::PbCall: {
      keep = s.effect;
      for (auto &o : s.outs) keep = keep || live.count(o);
      if (keep) {
        live.insert(s.uses.begin(), s.uses.end());
        live.insert(s.outs.begin(), s.outs.end());
      }
      break;
    }
    case Stmt::IfS: {
      std::set<std::string> lt = live, le = live;
      size_t n = dce(s.thenB, lt, drop) + dce(s.elseB, le, drop);
      if (n == 0) {
        keep = false;
        break;
      }
      live = std::move(lt);
      live.insert(le.begin(), le.end());
      live.insert(s.uses.begin(), s.uses.end());
      break;
    }
    case Stmt::Loop: {
      // H: live at the loop head (before condB and the test). Iterated to a
      // fixpoint: H = condB^-1(test uses + after + body^-1(H)).
      const std::set<std::string> after = live;
      auto step = [&](const std::set<std::string> &h, bool d, size_t *nb, size_t *nc) {
        std::set<std::string> lb = h;
        size_t kb = dce(s.bodyB, lb, d);
        std::set<std::string> lc = after;
        lc.insert(s.uses.begin(), s.uses.end());
        lc.insert(lb.begin(), lb.end());
        size_t kc = dce(s.condB, lc, d);
        if (nb) *nb = kb;
        if (nc) *nc = kc;
        return lc;
      };
      std::set<std::string> H = after;
      H.insert(s.uses.begin(), s.uses.end());
      for (;;) {
        std::set<std::string> h2 = step(H, false, nullptr, nullptr);
        size_t before = H.size();
        H.insert(h2.begin(), h2.end());
        if (H.size() == before) break;
      }
      size_t nb = 0, nc = 0;
      step(H, drop, &nb, &nc);
      if (nb == 0 && !hasEffectStmt(s.condB)) { // nothing left to repeat
        keep = false;
        break;
      }
      live = std::move(H);
      if (!s.loopVar.empty()) live.erase(s.loopVar);
      break;
    }
    }
    keepv[i] = keep;
    if (keep && counts) ++kept;
  }
  if (drop) {
    Block nb;
    for (size_t i = 0; i < b.size(); ++i)
      if (keepv[i]) nb.push_back(std::move(b[i]));
    b = std::move(nb);
  }
  return kept;
}

void collectAssigned(const Block &b, std::set<std::string> &out) {
  for (auto &s : b) {
    if (s.k == Stmt::Assign) out.insert(s.def);
    collectAssigned(s.thenB, out);
    collectAssigned(s.elseB, out);
    collectAssigned(s.condB, out);
    collectAssigned(s.bodyB, out);
  }
}

void dropDeadDecls(Block &b, const std::set<std::string> &assigned) {
  Block kept;
  for (auto &s : b) {
    if (s.k == Stmt::Decl && !s.init && !assigned.count(s.def)) continue;
    dropDeadDecls(s.thenB, assigned);
    dropDeadDecls(s.elseB, assigned);
    dropDeadDecls(s.condB, assigned);
    dropDeadDecls(s.bodyB, assigned);
    kept.push_back(std::move(s));
  }
  b = std::move(kept);
}

// Whether a statement (or one nested in it) reads or writes `name`.
bool mentions(const Stmt &s, const std::string &name) {
  if (s.uses.count(name) || s.def == name) return true;
  for (auto &o : s.outs)
    if (o == name) return true;
  for (const Block *bl : {&s.thenB, &s.elseB, &s.condB, &s.bodyB})
    for (auto &t : *bl)
      if (mentions(t, name)) return true;
  return false;
}

void emit(const Block &b, int depth, std::string &out) {
  std::string ind(2 * depth, ' ');
  for (auto &s : b) {
    if (s.k == Stmt::Loop) {
      out += ind + s.line + " {\n";
      emit(s.condB, depth + 1, out);
      if (!s.breakLine.empty()) out += ind + "  " + s.breakLine + "\n";
      emit(s.bodyB, depth + 1, out);
      out += ind + "}\n";
      continue;
    }
    if (s.k != Stmt::IfS) {
      out += ind + (s.useEffLine ? s.effLine : s.line) + "\n";
      continue;
    }
    if (s.thenB.empty()) { // an if whose then-branch only had dead code
      out += ind + "if (" + (s.negCond.empty() ? "!(" + s.cond + ")" : s.negCond) + ") {\n";
      emit(s.elseB, depth + 1, out);
      out += ind + "}\n";
      continue;
    }
    out += ind + "if (" + s.cond + ") {\n";
    emit(s.thenB, depth + 1, out);
    if (!s.elseB.empty()) {
      out += ind + "} else {\n";
      emit(s.elseB, depth + 1, out);
    }
    out += ind + "}\n";
  }
}

// ------------------------------------------------------------ printer ----

struct Printed {
  std::string head;      // linkage, return type, name
  std::string protoArgs; // parameter list for the prototype
  std::string defArgs;   // parameter list with [[maybe_unused]] marks
  std::string body;      // statements, indented, one per line
};

struct Signature {
  const Function *primal = nullptr;
  bool isGrad = false;
};

Signature classify(const Function &gen, const Program &primal) {
  size_t d = gen.name.rfind('$');
  if (d == std::string::npos) fail("'" + gen.name + "' is neither a $grad nor a $pullback function");
  std::string base = gen.name.substr(0, d), suffix = gen.name.substr(d + 1);
  Signature s;
  if (suffix == "grad") s.isGrad = true;
  else if (suffix != "pullback") fail("'" + gen.name + "' is neither a $grad nor a $pullback function");
  s.primal = primal.find(base);
  if (!s.primal) fail("no primal function '" + base + "' for '" + gen.name + "'");
  return s;
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
  std::string sym = trim(n.substr(8));
  for (auto &[o, w] : ops)
    if (sym == o) return std::string("operator_") + w;
  return sanitize(n);
}

class FnPrinter {
public:
  FnPrinter(const Function &gen, const Program &primal) : gen_(gen), primal_(primal) {}

  Printed run();

private:
  struct Hint {
    std::string name;
    bool ir = false; // an IR binder name (keeps its spelling when it can)
  };

  const Function &gen_;
  const Program &primal_;
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

  bool flag(const Node *n, unsigned char f) const {
    auto it = flags_.find(n);
    return it != flags_.end() && (it->second & f);
  }
  bool calleeWrites(const std::string &callee);
  void computeFlags(const Expr &root);
  // What a cached value that reads memory depends on: the C++ names its
  // text and its statements mention.
  std::unordered_map<const Node *, std::set<std::string>> deps_;
  // After a write to the arrays named `written` (nullptr: any array), the
  // cached values reading them, directly or through other cached values,
  // must be recomputed.
  void invalidateReads(const std::set<std::string> *written = nullptr);
  // Invalidation before/after a loop: its writes (all, when unsure).
  void invalidateLoop(const Expr &loop);

  void dropCache(size_t mark) {
    while (cacheLog_.size() > mark) {
      cache_.erase(cacheLog_.back());
      cacheLog_.pop_back();
    }
  }
  void push(const std::string &name, CVal v) {
    // a name bound a second time may change what a shared node means (not
    // the unit: every `let _ = store ...` binds `_`)
    if (!everBound_.insert(name).second && !v.type->isUnit()) cache_.clear();
    env_[name].push_back(std::move(v));
    trail_.push_back(name);
  }
  void popTo(size_t mark) {
    while (trail_.size() > mark) {
      env_[trail_.back()].pop_back();
      trail_.pop_back();
    }
  }

  std::string fresh(const std::string &hint, bool ir);
  void reserveIdents(const std::string &spelling);
  void scan(const Expr &e);

  CVal lookup(const std::string &name) const;
  CVal tr(const Expr &e, Block &b, const Hint &h);
  CVal trNode(const Expr &e, Block &b, const Hint &h);
  CVal trPrim(const Prim *p, Block &b);
  CVal trIf(const If *i, Block &b, const Hint &h);
  CVal trPullback(const Pullback *p, Block &b, const Hint &h);
  CVal trCall(const Call *c, Block &b, const Hint &h);
  CVal trStore(const Store *st, Block &b);
  CVal trNewArray(const NewArray *na, Block &b, const Hint &h);
  CVal trFold(const Fold *f, Block &b, const Hint &h);
  CVal trWhile(const While *w, Block &b, const Hint &h);
  CVal declareState(const CVal &init, const Hint &h, const std::vector<std::string> &hints, Block &b);
  void assignState(const CVal &dst, const CVal &src, Block &b);
  std::string arrayArg(const CVal &a, const Function &callee, size_t param, bool adjoint);
  CVal bind(const CVal &v, const Hint &h, Block &b);
  CVal declareLeaves(const TypeP &t, const Hint &h, Block &b);
  void assign(const CVal &dst, const CVal &src, Block &b);
  CVal materialize(const CVal &v, const std::string &hint, Block &b);
  void accumulate(const CVal &ct, const std::string &lhs, bool viaPointer, Block &b);
};

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

void leafNames(const CVal &v, std::set<std::string> &out) {
  if (!v.agg) {
    collectIdents(v.text, out);
    return;
  }
  for (auto &e : v.elems) leafNames(e, out);
}

void stmtIdents(const Stmt &s, std::set<std::string> &out) {
  out.insert(s.uses.begin(), s.uses.end());
  out.insert(s.outs.begin(), s.outs.end());
  if (!s.def.empty()) out.insert(s.def);
  for (const Block *bl : {&s.thenB, &s.elseB, &s.condB, &s.bodyB})
    for (auto &t : *bl) stmtIdents(t, out);
}

void FnPrinter::invalidateReads(const std::set<std::string> *written) {
  if (!written) {
    for (auto it = cache_.begin(); it != cache_.end();)
      it = flag(it->first, kReads) ? cache_.erase(it) : std::next(it);
    return;
  }
  std::set<std::string> dead = *written;
  for (const Node *n : cacheLog_) { // in the order they were computed
    auto it = cache_.find(n);
    if (it == cache_.end() || !flag(n, kReads)) continue;
    const auto &d = deps_[n];
    bool stale = false;
    for (auto &x : d) stale = stale || dead.count(x);
    if (!stale) continue;
    leafNames(it->second, dead);
    cache_.erase(it);
  }
}

// The children of a node, in evaluation order.
template <class F> void forEachChild(const Node *x, F &&f) {
  switch (x->kind) {
  case Kind::Const: case Kind::Var: break;
  case Kind::Prim: for (auto &a : x->as<Prim>()->args) f(a); break;
  case Kind::Let: f(x->as<Let>()->value); f(x->as<Let>()->body); break;
  case Kind::If: {
    auto i = x->as<If>();
    f(i->cond); f(i->thenE); f(i->elseE);
    break;
  }
  case Kind::Tuple: for (auto &a : x->as<Tuple>()->elems) f(a); break;
  case Kind::Proj: f(x->as<Proj>()->tuple); break;
  case Kind::Call: for (auto &a : x->as<Call>()->args) f(a); break;
  case Kind::Pullback: {
    auto p = x->as<Pullback>();
    for (auto &a : p->args) f(a);
    f(p->cotangent);
    for (auto &a : p->buffers) f(a);
    break;
  }
  case Kind::Lambda: f(x->as<Lambda>()->body); break;
  case Kind::App: f(x->as<App>()->fn); for (auto &a : x->as<App>()->args) f(a); break;
  case Kind::Index: f(x->as<Index>()->array); f(x->as<Index>()->index); break;
  case Kind::Size: f(x->as<Size>()->array); break;
  case Kind::NewArray: f(x->as<NewArray>()->size); break;
  case Kind::Store: {
    auto st = x->as<Store>();
    f(st->array); f(st->index); f(st->value);
    break;
  }
  case Kind::Fold: {
    auto fo = x->as<Fold>();
    f(fo->lo); f(fo->hi); f(fo->init); f(fo->body);
    break;
  }
  case Kind::While: {
    auto w = x->as<While>();
    f(w->init); f(w->cond); f(w->body);
    break;
  }
  case Kind::Build: f(x->as<Build>()->size); f(x->as<Build>()->body); break;
  case Kind::Sum: f(x->as<Sum>()->lo); f(x->as<Sum>()->hi); f(x->as<Sum>()->body); break;
  }
}

// The C++ names of the arrays `loop` may write, when they are all
// variables bound outside it; otherwise every cached read goes.
void FnPrinter::invalidateLoop(const Expr &loop) {
  if (!flag(loop.get(), kEffects)) return;
  std::set<std::string> written, inner, targets;
  std::unordered_set<const Node *> seen;
  std::vector<const Node *> todo{loop.get()};
  bool ok = true;
  auto target = [&](const Expr &a) {
    auto v = a->as<Var>();
    auto it = v ? env_.find(v->name) : env_.end();
    if (it == env_.end() || it->second.empty()) {
      ok = false;
      return;
    }
    targets.insert(v->name);
    leafNames(it->second.back(), written);
  };
  while (!todo.empty() && ok) {
    const Node *x = todo.back();
    todo.pop_back();
    if (!seen.insert(x).second || !flag(x, kEffects)) continue;
    switch (x->kind) {
    case Kind::Let: inner.insert(x->as<Let>()->name); break;
    case Kind::Fold: inner.insert(x->as<Fold>()->index); inner.insert(x->as<Fold>()->state); break;
    case Kind::While: inner.insert(x->as<While>()->state); break;
    case Kind::Store: target(x->as<Store>()->array); break;
    case Kind::Call:
      if (calleeWrites(x->as<Call>()->callee))
        for (auto &a : x->as<Call>()->args)
          if (a->type->isArray()) target(a);
      break;
    case Kind::Pullback: for (auto &a : x->as<Pullback>()->buffers) target(a); break;
    default: break;
    }
    forEachChild(x, [&](const Expr &c) { todo.push_back(c.get()); });
  }
  for (auto &t : targets) ok = ok && !inner.count(t); // rebound inside: unsure
  invalidateReads(ok ? &written : nullptr);
}

bool FnPrinter::calleeWrites(const std::string &callee) {
  auto it = calleeEffects_.find(callee);
  if (it != calleeEffects_.end()) return it->second;
  const Function *f = primal_.find(callee);
  bool w = f && f->body && hasEffects(f->body, &primal_);
  if (f)
    for (auto &p : f->params) w = w || p.written;
  return calleeEffects_[callee] = w;
}

// kEffects / kReads of every node, children first (iteratively: let chains
// are long).
void FnPrinter::computeFlags(const Expr &root) {
  std::vector<std::pair<const Node *, bool>> st{{root.get(), false}};
  while (!st.empty()) {
    auto [x, expanded] = st.back();
    st.pop_back();
    if (flags_.count(x)) continue;
    if (!expanded) {
      st.push_back({x, true});
      forEachChild(x, [&](const Expr &c) {
        if (!flags_.count(c.get())) st.push_back({c.get(), false});
      });
      continue;
    }
    unsigned char f = 0;
    forEachChild(x, [&](const Expr &c) { f |= flags_.at(c.get()); });
    switch (x->kind) {
    case Kind::Store: case Kind::NewArray: f |= kEffects; break;
    case Kind::Index: f |= kReads; break;
    case Kind::Call:
      f |= kReads;
      if (calleeWrites(x->as<Call>()->callee)) f |= kEffects;
      break;
    case Kind::Pullback:
      f |= kReads;
      if (!x->as<Pullback>()->buffers.empty()) f |= kEffects;
      break;
    default: break;
    }
    flags_[x] = f;
  }
}

// Records IR binder names and the C++ names the body will mention.
void FnPrinter::scan(const Expr &e) {
  // The body may be a DAG (shared nodes): count parents, visit each once.
  std::vector<Expr> todo{e};
  parents_[e.get()] = 1;
  auto child = [&](const Expr &c) {
    if (++parents_[c.get()] == 1) todo.push_back(c);
  };
  auto reserveType = [&](const TypeP &t, auto &self) -> void {
    if (!t) return;
    if (t->isStruct()) reserveIdents(t->structName);
    for (auto &x : t->elems) self(x, self);
    if (t->result) self(t->result, self);
  };
  auto binder = [&](const std::string &n) {
    if (validIdent(n)) irNames_.insert(n);
  };
  while (!todo.empty()) {
    Expr x = todo.back();
    todo.pop_back();
    reserveType(x->type, reserveType);
    switch (x->kind) {
    case Kind::Let: binder(x->as<Let>()->name); break;
    case Kind::Fold: binder(x->as<Fold>()->index); binder(x->as<Fold>()->state); break;
    case Kind::While: binder(x->as<While>()->state); break;
    case Kind::Call:
      if (auto f = primal_.find(x->as<Call>()->callee))
        reserveIdents(f->cxx.qualifiedName.empty() ? cxxNameOf(*f) : f->cxx.qualifiedName);
      break;
    case Kind::Pullback:
      if (auto f = primal_.find(x->as<Pullback>()->callee)) used_.insert(generatedBase(*f) + "_pullback");
      break;
    case Kind::Lambda: case Kind::App:
      fail("'" + gen_.name + "' still contains a lambda or an application (not optimised?)");
    default: break;
    }
    forEachChild(x.get(), child);
  }
  computeFlags(e);
}

CVal FnPrinter::lookup(const std::string &name) const {
  auto it = env_.find(name);
  if (it != env_.end() && !it->second.empty()) return it->second.back();
  fail("unbound variable '" + name + "' in '" + gen_.name + "'");
}

// A non-atomic value as a named const local (atoms are returned as they are).
CVal FnPrinter::materialize(const CVal &v, const std::string &hint, Block &b) {
  if (isAtom(v)) return v;
  std::string n = fresh(hint, false);
  Stmt s;
  s.k = Stmt::Decl;
  s.def = n;
  std::string init = render(v);
  s.line = "const " + cxxType(v.type) + " " + n + " = " + init + ";";
  s.rhs = init;
  collectIdents(init, s.uses);
  b.push_back(std::move(s));
  return leaf(v.type, n, PPrimary, true);
}

// The value of `let <h.name> = ...`: atoms are substituted, anything else
// becomes const locals (one per component for plain tuples).
CVal FnPrinter::bind(const CVal &v, const Hint &h, Block &b) {
  if (isAtom(v)) return v;
  if (v.type->isArray()) { // a row of an array of arrays: `auto& row = A[i];` (an alias)
    std::string n = fresh(h.name, h.ir);
    Stmt s;
    s.k = Stmt::Decl;
    s.def = n;
    s.rhs = render(v);
    s.line = "auto& " + n + " = " + s.rhs + ";";
    collectIdents(s.rhs, s.uses);
    b.push_back(std::move(s));
    CVal r = v;
    r.text = n;
    r.atom = true;
    r.prec = PPrimary;
    return r;
  }
  if (v.agg && !v.type->isStruct()) {
    std::string base = h.ir ? sanitize(h.name) : h.name;
    CVal r = v;
    for (size_t i = 0; i < v.elems.size(); ++i)
      r.elems[i] = bind(v.elems[i], Hint{base + "_" + std::to_string(i), false}, b);
    return r;
  }
  std::string n = fresh(h.name, h.ir);
  Stmt s;
  s.k = Stmt::Decl;
  s.def = n;
  std::string init = render(v);
  s.rhs = init;
  if (v.agg) { // struct literal: `const Vec3 v{a, b, c};`
    s.line = "const " + cxxType(v.type) + " " + n + init.substr(v.type->structName.size()) + ";";
  } else {
    s.line = "const " + cxxType(v.type) + " " + n + " = " + init + ";";
  }
  collectIdents(init, s.uses);
  b.push_back(std::move(s));
  return leaf(v.type, n, PPrimary, true);
}

// Uninitialised locals for every leaf of `t` (an if's result).
CVal FnPrinter::declareLeaves(const TypeP &t, const Hint &h, Block &b) {
  if (t->isTuple() && !t->isStruct()) {
    std::string base = h.ir ? sanitize(h.name) : h.name;
    CVal r;
    r.type = t;
    r.agg = true;
    for (size_t i = 0; i < t->elems.size(); ++i)
      r.elems.push_back(declareLeaves(t->elems[i], Hint{base + "_" + std::to_string(i), false}, b));
    return r;
  }
  std::string n = fresh(h.name, h.ir);
  Stmt s;
  s.k = Stmt::Decl;
  s.def = n;
  s.init = false;
  s.line = cxxType(t) + " " + n + ";";
  b.push_back(std::move(s));
  return leaf(t, n, PPrimary, true);
}

void FnPrinter::assign(const CVal &dst, const CVal &src, Block &b) {
  if (dst.agg) {
    if (!src.agg || src.elems.size() != dst.elems.size()) fail("tuple arity mismatch in an if");
    for (size_t i = 0; i < dst.elems.size(); ++i) assign(dst.elems[i], src.elems[i], b);
    return;
  }
  std::string r = render(src);
  if (r == dst.text) return; // x = x
  Stmt s;
  s.k = Stmt::Assign;
  s.def = dst.text;
  s.line = dst.text + " = " + r + ";";
  collectIdents(r, s.uses);
  b.push_back(std::move(s));
}

CVal FnPrinter::trIf(const If *i, Block &b, const Hint &h) {
  CVal c = tr(i->cond, b, Hint{"cond", false});
  if (i->type->isArray()) fail("an if choosing between arrays has no C++ form (in '" + gen_.name + "')");
  CVal dst = declareLeaves(i->type, h, b);
  Stmt s;
  s.k = Stmt::IfS;
  s.cond = render(c);
  s.negCond = "!" + operand(c, PUnary);
  collectIdents(s.cond, s.uses);
  size_t mark = trail_.size(), cmark = cacheLog_.size();
  CVal tv = tr(i->thenE, s.thenB, Hint{"tmp", false});
  assign(dst, tv, s.thenB);
  popTo(mark);
  dropCache(cmark); // locals of a branch are not visible after it
  CVal ev = tr(i->elseE, s.elseB, Hint{"tmp", false});
  assign(dst, ev, s.elseB);
  popTo(mark);
  dropCache(cmark);
  b.push_back(std::move(s));
  return dst;
}

// An array argument of a call to `callee`'s parameter `param` (or, with
// `adjoint`, to its adjoint): a std::vector/std::array passed where the
// callee takes a pointer or a C array passes its data().
std::string FnPrinter::arrayArg(const CVal &a, const Function &callee, size_t param, bool adjoint) {
  std::string text = render(a);
  if (!a.type->isArray() || !a.container) return text;
  if (param >= callee.cxx.paramTypes.size()) return text;
  const std::string &sp = callee.cxx.paramTypes[param];
  std::string target = adjoint ? adjointSpelling(sp, callee.params.at(param).type) : sp;
  return isContainerSpelling(target) ? text : operand(a, PPrimary) + ".data()";
}

CVal FnPrinter::trPullback(const Pullback *p, Block &b, const Hint &h) {
  const Function *g = primal_.find(p->callee);
  if (!g) fail("pullback of unknown function '" + p->callee + "'");
  std::vector<size_t> activeIdx;
  for (size_t i = 0; i < g->params.size(); ++i)
    if (g->params[i].active) activeIdx.push_back(i);
  const TypeP &rt = p->type;
  bool aligned = activeIdx.size() == rt->elems.size();
  std::vector<std::string> args;
  for (size_t i = 0; i < p->args.size(); ++i)
    args.push_back(arrayArg(tr(p->args[i], b, Hint{"tmp", false}), *g, i, false));
  if (!p->cotangent->type->isUnit()) // a void helper has no d_return
    args.push_back(render(tr(p->cotangent, b, Hint{"tmp", false})));
  std::vector<CVal> bufs;
  for (auto &x : p->buffers) bufs.push_back(tr(x, b, Hint{"tmp", false}));
  std::string base = h.ir ? sanitize(h.name) : "d_" + sanitize(cxxNameOf(*g));
  CVal r;
  r.type = rt;
  r.agg = true;
  Stmt call;
  call.k = Stmt::PbCall;
  call.effect = !p->buffers.empty();
  size_t nb = 0;
  for (size_t i = 0; i < rt->elems.size(); ++i) {
    const TypeP &t = rt->elems[i];
    if (aligned && g->params[activeIdx[i]].type->isArray()) { // accumulated in place into a buffer
      if (nb >= bufs.size()) fail("pullback of '" + p->callee + "' lacks a buffer for '" + g->params[activeIdx[i]].name + "'");
      args.push_back(arrayArg(bufs[nb++], *g, activeIdx[i], true));
      r.elems.push_back(unitVal());
      continue;
    }
    std::string suffix = aligned ? sanitize(g->params[activeIdx[i]].name) : std::to_string(i);
    std::string n = fresh(base + "_" + suffix, false);
    Stmt d;
    d.k = Stmt::Decl;
    d.def = n;
    if (t->isStruct()) d.line = cxxType(t) + " " + n + "{};";
    else if (t->isScalar()) d.line = cxxType(t) + " " + n + " = " + (t->isFloat() ? fmtFloating(0.0, t->scalar == Scalar::F32) : t->isBool() ? "false" : "0") + ";";
    else fail("pullback cotangent of type " + str(t));
    b.push_back(std::move(d));
    args.push_back("&" + n);
    call.outs.push_back(n);
    r.elems.push_back(leaf(t, n, PPrimary, true));
  }
  if (nb != bufs.size()) fail("pullback of '" + p->callee + "' has " + std::to_string(bufs.size()) + " buffers for " + std::to_string(nb) + " array parameters");
  std::string joined;
  for (size_t i = 0; i < args.size(); ++i) joined += (i ? ", " : "") + args[i];
  collectIdents(joined, call.uses);
  // With a struct argument, argument-dependent lookup would also find the
  // copy of this pullback emitted in the struct's namespace (each block
  // carries its own): `(f_pullback)(...)` calls the one ordinary lookup finds.
  bool adl = std::any_of(g->params.begin(), g->params.end(), [](const Param &q) { return q.type->isStruct(); });
  std::string callee = generatedBase(*g) + "_pullback";
  call.line = (adl ? "(" + callee + ")" : callee) + "(" + joined + ");";
  bool writes = call.effect;
  b.push_back(std::move(call));
  if (writes) {
    std::set<std::string> w;
    for (auto &x : bufs) leafNames(x, w);
    invalidateReads(&w);
  }
  return r;
}

// `x > 0 || x != 1`: two comparisons of one variable with constants, which
// clang's -Wtautological-overlap-compare flags when the source compared two
// copies of it (`x > 0 || m != 1` with `m = x`, the copy propagated); the
// printer names the second comparison.
static bool overlapping(const Prim *p) {
  auto cmpVar = [](const Expr &e) -> std::string {
    auto c = e->as<Prim>();
    if (!c || c->args.size() != 2) return "";
    switch (c->op) {
    case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: case Op::Eq: case Op::Ne: break;
    default: return "";
    }
    auto v0 = c->args[0]->as<Var>(), v1 = c->args[1]->as<Var>();
    if (v0 && c->args[1]->is<Const>()) return v0->name;
    if (v1 && c->args[0]->is<Const>()) return v1->name;
    return "";
  };
  std::string l = cmpVar(p->args[0]), r = cmpVar(p->args[1]);
  return !l.empty() && l == r;
}

CVal FnPrinter::trPrim(const Prim *p, Block &b) {
  std::vector<CVal> a;
  for (auto &x : p->args) a.push_back(tr(x, b, Hint{"tmp", false}));
  auto bin = [&](const char *op, int prec) {
    return leaf(p->type, operand(a[0], prec) + " " + op + " " + operand(a[1], prec + 1, true), prec);
  };
  // comparisons take arithmetic operands; anything looser is parenthesised
  auto cmp = [&](const char *op, int prec) {
    return leaf(p->type, operand(a[0], PAdd) + " " + op + " " + operand(a[1], PAdd, true), prec);
  };
  // exact integer identities (index arithmetic such as `i - 0`)
  if (p->type->isInt() && a.size() == 2) {
    auto lit = [](const CVal &v, const char *t) { return !v.agg && v.atom && v.text == t; };
    if ((p->op == Op::Add || p->op == Op::Sub) && lit(a[1], "0")) return a[0];
    if (p->op == Op::Add && lit(a[0], "0")) return a[1];
    if (p->op == Op::Mul && lit(a[1], "1")) return a[0];
    if (p->op == Op::Mul && lit(a[0], "1")) return a[1];
  }
  switch (p->op) {
  case Op::Add: return bin("+", PAdd);
  case Op::Sub: return bin("-", PAdd);
  case Op::Mul: return bin("*", PMul);
  case Op::Div: return bin("/", PMul);
  case Op::Mod: return bin("%", PMul);
  case Op::Neg: return leaf(p->type, "-" + operand(a[0], PUnary, true), PUnary);
  case Op::Not: return leaf(p->type, "!" + operand(a[0], PUnary), PUnary);
  case Op::Lt: return cmp("<", PRel);
  case Op::Le: return cmp("<=", PRel);
  case Op::Gt: return cmp(">", PRel);
  case Op::Ge: return cmp(">=", PRel);
  case Op::Eq: return cmp("==", PEq);
  case Op::Ne: return cmp("!=", PEq);
  case Op::And: // `a && b && c`; `||` inside `&&` is parenthesised
    if (overlapping(p)) a[1] = materialize(a[1], "c", b);
    return leaf(p->type, operand(a[0], PLand) + " && " + operand(a[1], PLand + 1), PLand);
  case Op::Or: { // `&&` inside `||` is parenthesised too (-Wparentheses)
    if (overlapping(p)) a[1] = materialize(a[1], "c", b);
    std::string l = a[0].prec == PLor ? render(a[0]) : operand(a[0], PLand + 1);
    return leaf(p->type, l + " || " + operand(a[1], PLand + 1), PLor);
  }
  case Op::Cast: {
    const TypeP &to = p->type;
    if (auto c = p->args[0]->as<Const>()) { // fold literal casts
      const TypeP &from = c->type;
      double fv = from->isFloat() ? c->fvalue : double(c->ivalue);
      if (to->isFloat()) return tr(Const::make(fv, to), b, Hint{});
      if (to->isBool()) return tr(Const::makeBool(fv != 0.0), b, Hint{});
      if (to->isInt()) return tr(Const::makeInt(from->isFloat() ? int64_t(c->fvalue) : c->ivalue), b, Hint{});
    }
    if (sameType(to, p->args[0]->type)) return a[0];
    return leaf(to, "static_cast<" + cxxType(to) + ">(" + render(a[0]) + ")", PPrimary);
  }
  case Op::Sign: {
    CVal x = materialize(a[0], "sgn_arg", b);
    std::string z = fmtFloating(0.0, p->type->scalar == Scalar::F32);
    return leaf(p->type,
                "static_cast<" + cxxType(p->type) + ">((" + x.text + " > " + z + ") - (" + x.text + " < " + z + "))",
                PPrimary);
  }
  default: {
    std::string s = std::string("std::") + opName(p->op) + "(";
    for (size_t i = 0; i < a.size(); ++i) s += (i ? ", " : "") + render(a[i]);
    return leaf(p->type, s + ")", PPrimary);
  }
  }
}

CVal FnPrinter::tr(const Expr &e, Block &b, const Hint &h) {
  if (e->is<Const>() || e->is<Var>()) return trNode(e, b, h);
  auto pc = parents_.find(e.get());
  // effects happen once per occurrence: never shared
  if (pc == parents_.end() || pc->second < 2 || flag(e.get(), kEffects)) return trNode(e, b, h);
  auto hit = cache_.find(e.get());
  if (hit != cache_.end()) return hit->second;
  size_t before = b.size();
  CVal v = trNode(e, b, h);
  if (flag(e.get(), kReads)) {
    std::set<std::string> d;
    leafNames(v, d);
    for (size_t k = before; k < b.size(); ++k) stmtIdents(b[k], d);
    deps_[e.get()] = std::move(d);
  }
  // member access on a named value is as cheap as a name: no local for it
  // (nor for the size of a named container)
  const Node *base = e.get();
  while (base->is<Proj>()) base = base->as<Proj>()->tuple.get();
  bool cheap = (e->is<Proj>() && !v.agg && base->is<Var>()) || (e->is<Size>() && e->as<Size>()->array->is<Var>());
  if (!cheap) v = bind(v, h.name.empty() ? Hint{"tmp", false} : h, b);
  cache_[e.get()] = v;
  cacheLog_.push_back(e.get());
  return v;
}

CVal FnPrinter::trNode(const Expr &e, Block &b, const Hint &h) {
  switch (e->kind) {
  case Kind::Const: {
    auto c = e->as<Const>();
    const TypeP &t = c->type;
    CVal v;
    if (t->isBool()) {
      v = leaf(t, c->ivalue ? "true" : "false", PPrimary, true);
    } else if (t->isInt()) {
      if (c->ivalue == INT64_MIN) v = leaf(t, "(-9223372036854775807L - 1)", PPrimary, true);
      else v = leaf(t, std::to_string(c->ivalue), c->ivalue < 0 ? PUnary : PPrimary, true);
      v.zero = c->ivalue == 0;
    } else {
      std::string s = fmtFloating(c->fvalue, t->scalar == Scalar::F32);
      v = leaf(t, s, s[0] == '-' ? PUnary : PPrimary, true);
      v.zero = c->fvalue == 0.0;
    }
    return v;
  }
  case Kind::Var: return lookup(e->as<Var>()->name);
  case Kind::Prim: return trPrim(e->as<Prim>(), b);
  case Kind::Let: {
    // iterate along the chain: generated bodies are long let chains
    size_t mark = trail_.size();
    Expr cur = e;
    while (auto l = cur->as<Let>()) {
      auto tail = l->body->as<Var>();
      if (tail && tail->name == l->name) { // `let x = e in x` is just `e`
        cur = l->value;
        break;
      }
      Hint lh{l->name, true};
      CVal v = tr(l->value, b, lh);
      push(l->name, bind(v, lh, b));
      cur = l->body;
    }
    CVal r = tr(cur, b, h);
    popTo(mark);
    return r;
  }
  case Kind::If: return trIf(e->as<If>(), b, h.name.empty() ? Hint{"tmp", false} : h);
  case Kind::Tuple: {
    CVal v;
    v.type = e->type;
    v.agg = true;
    // components of `let t = (...)` that need locals are named t_0, t_1, ...
    const auto &es = e->as<Tuple>()->elems;
    std::string base = h.name.empty() ? "tmp" : h.ir ? sanitize(h.name) : h.name;
    for (size_t i = 0; i < es.size(); ++i) {
      std::string part = e->type->isStruct() ? e->type->fieldNames[i] : std::to_string(i);
      v.elems.push_back(tr(es[i], b, Hint{base + "_" + part, false}));
    }
    return v;
  }
  case Kind::Proj: {
    auto p = e->as<Proj>();
    CVal t = tr(p->tuple, b, Hint{"tmp", false});
    if (t.agg) return t.elems.at(p->index);
    if (!t.type->isStruct()) fail("projection from an unflattened tuple");
    return leaf(p->type, operand(t, PPrimary) + "." + t.type->fieldNames.at(p->index), PPrimary);
  }
  case Kind::Call: return trCall(e->as<Call>(), b, h);
  case Kind::Index: {
    auto x = e->as<Index>();
    CVal a = tr(x->array, b, Hint{"tmp", false});
    CVal i = tr(x->index, b, Hint{"tmp", false});
    CVal r = leaf(x->type, operand(a, PPrimary) + "[" + render(i) + "]", PPrimary);
    if (x->type->isArray()) { // a row: what its type says about it
      r.spell = elementSpelling(a.spell);
      r.container = isContainerSpelling(r.spell);
      r.bound = arrayBound(r.spell);
      if (r.spell.empty()) fail("a row of array '" + render(a) + "' of unknown C++ type in '" + gen_.name + "'");
    }
    return r;
  }
  case Kind::Size: {
    CVal a = tr(e->as<Size>()->array, b, Hint{"tmp", false});
    if (a.container) return leaf(e->type, "static_cast<long>(" + operand(a, PPrimary) + ".size())", PPrimary);
    if (!a.bound.empty()) {
      bool literal = a.bound.find_first_not_of("0123456789") == std::string::npos;
      return leaf(e->type, literal ? a.bound : "static_cast<long>(" + a.bound + ")", PPrimary, literal);
    }
    fail("the size of array '" + render(a) + "' is not known in C++ (a pointer parameter) in '" + gen_.name + "'");
  }
  case Kind::NewArray: return trNewArray(e->as<NewArray>(), b, h);
  case Kind::Store: return trStore(e->as<Store>(), b);
  case Kind::Fold: return trFold(e->as<Fold>(), b, h);
  case Kind::While: return trWhile(e->as<While>(), b, h);
  case Kind::Pullback: return trPullback(e->as<Pullback>(), b, h.name.empty() ? Hint{"tmp", false} : h);
  case Kind::Build: case Kind::Sum: break; // lowered to loops before printing
  case Kind::Lambda:
  case Kind::App: break;
  }
  fail("'" + gen_.name + "' still contains a lambda, an application or a build/sum (not optimised?)");
}

CVal FnPrinter::trCall(const Call *c, Block &b, const Hint &h) {
  const Function *f = primal_.find(c->callee);
  if (!f) fail("call of unknown function '" + c->callee + "'");
  if (c->type->isTuple() && !c->type->isStruct() && !c->type->isUnit())
    fail("call of '" + c->callee + "' returns a plain tuple");
  if (c->type->isArray()) fail("call of '" + c->callee + "' returns an array");
  std::string s = (f->cxx.qualifiedName.empty() ? cxxNameOf(*f) : f->cxx.qualifiedName) + "(";
  std::set<std::string> w; // the arrays it may write: those it is given
  for (size_t i = 0; i < c->args.size(); ++i) {
    CVal a = tr(c->args[i], b, Hint{"tmp", false});
    if (a.type->isArray()) leafNames(a, w);
    s += (i ? ", " : "") + arrayArg(a, *f, i, false);
  }
  s += ")";
  if (c->type->isUnit()) { // a void helper: a statement
    Stmt st;
    st.k = Stmt::Effect;
    st.line = s + ";";
    collectIdents(s, st.uses);
    b.push_back(std::move(st));
    invalidateReads(&w);
    return unitVal();
  }
  if (!flag(c, kEffects)) return leaf(c->type, s, PPrimary);
  // a call that writes memory happens here, once, whether its value is used or not
  std::string n = fresh(h.name.empty() ? "tmp" : h.name, h.ir);
  Stmt st;
  st.k = Stmt::Decl;
  st.def = n;
  st.rhs = s;
  st.effect = true;
  st.line = "const " + cxxType(c->type) + " " + n + " = " + s + ";";
  st.effLine = s + ";";
  collectIdents(s, st.uses);
  b.push_back(std::move(st));
  invalidateReads(&w);
  return leaf(c->type, n, PPrimary, true);
}

CVal FnPrinter::trStore(const Store *st, Block &b) {
  CVal a = tr(st->array, b, Hint{"tmp", false});
  CVal i = tr(st->index, b, Hint{"tmp", false});
  CVal v = tr(st->value, b, Hint{"tmp", false});
  bool add = st->mode == Store::Mode::Add;
  if (add && allZero(v)) return unitVal(); // += 0: nothing happens
  std::string lhs = operand(a, PPrimary) + "[" + render(i) + "]";
  TypeP ft = st->array->type->elem();
  for (int k : st->path) { // a[i].x
    lhs += "." + ft->fieldNames.at(size_t(k));
    ft = ft->elems.at(size_t(k));
  }
  if (add && v.type->isStruct()) { // a[i] += {x, y}: field by field, zeros skipped
    accumulate(v, lhs, false, b);
    std::set<std::string> w;
    leafNames(a, w);
    invalidateReads(&w);
    return unitVal();
  }
  std::string op = add ? " += " : " = ", r = render(v);
  if (add && !v.agg && v.prec == PUnary && r.size() > 1 && r[0] == '-') { // a[i] -= x
    op = " -= ";
    r = r.substr(1);
  }
  Stmt s;
  s.k = Stmt::Effect;
  s.line = lhs + op + r + ";";
  collectIdents(s.line, s.uses);
  b.push_back(std::move(s));
  std::set<std::string> w;
  leafNames(a, w);
  invalidateReads(&w);
  return unitVal();
}

// `let v = new[n]` -> `std::vector<double> v(n);` (zero-filled).
CVal FnPrinter::trNewArray(const NewArray *na, Block &b, const Hint &h) {
  std::string size;
  if (auto sz = na->size->as<Size>()) { // `std::vector<double> v(x.size());`
    CVal a = tr(sz->array, b, Hint{"tmp", false});
    if (a.container) size = operand(a, PPrimary) + ".size()";
  }
  if (size.empty()) size = render(tr(na->size, b, Hint{"n", false}));
  const TypeP &el = na->type->elem();
  std::string n = fresh(h.name.empty() || h.name == "_" ? "buf" : h.name, h.ir);
  Stmt s;
  s.k = Stmt::Decl;
  s.def = n;
  const std::string et = el->isBool() ? std::string("char") : cxxType(el);
  // A scratch buffer (a tape) is written before it is read: no zero fill,
  // which for a large tape is a pass over memory the gradient would pay for.
  s.line = na->scratch ? "std::unique_ptr<" + et + "[]> " + n + "(new " + et + "[" + size + "]);"
                       : "std::vector<" + et + "> " + n + "(" + size + ");";
  collectIdents(size, s.uses);
  b.push_back(std::move(s));
  CVal v = leaf(na->type, n, PPrimary, true);
  v.container = !na->scratch;
  return v;
}

// Names for the components of a loop's tuple state: the body's leading
// `let a = st.0` lets name them.
std::vector<std::string> stateHints(const Expr &body, const std::string &state, const TypeP &t) {
  std::vector<std::string> hs(t->isTuple() && !t->isStruct() ? t->elems.size() : 0);
  const Node *cur = body.get();
  while (auto l = cur->as<Let>()) {
    if (auto p = l->value->as<Proj>())
      if (auto v = p->tuple->as<Var>())
        if (v->name == state && size_t(p->index) < hs.size() && hs[p->index].empty() && validIdent(l->name))
          hs[p->index] = l->name;
    cur = l->body.get();
  }
  return hs;
}

// The mutable variables of a loop's state, initialised: one per scalar or
// struct component (plain tuples flattened); none for the unit; an array
// component is the same buffer throughout.
CVal FnPrinter::declareState(const CVal &init, const Hint &h, const std::vector<std::string> &hints, Block &b) {
  const TypeP &t = init.type;
  if (t->isTuple() && !t->isStruct()) {
    if (!init.agg || init.elems.size() != t->elems.size()) fail("loop state without components");
    std::string base = h.ir ? sanitize(h.name) : h.name;
    CVal r;
    r.type = t;
    r.agg = true;
    for (size_t i = 0; i < t->elems.size(); ++i) {
      Hint ch = i < hints.size() && !hints[i].empty() ? Hint{hints[i], true} : Hint{base + "_" + std::to_string(i), false};
      r.elems.push_back(declareState(init.elems[i], ch, {}, b));
    }
    return r;
  }
  if (t->isArray()) return init;
  std::string n = fresh(h.name, h.ir);
  Stmt s;
  s.k = Stmt::Decl;
  s.def = n;
  std::string r = render(init);
  s.rhs = r;
  s.line = init.agg ? cxxType(t) + " " + n + r.substr(t->structName.size()) + ";" // Vec3 s{a, b, c};
                    : cxxType(t) + " " + n + " = " + r + ";";
  collectIdents(r, s.uses);
  b.push_back(std::move(s));
  return leaf(t, n, PPrimary, true);
}

namespace {
void stateLeaves(const CVal &d, const CVal &s, std::vector<std::pair<CVal, CVal>> &out) {
  if (d.agg && !d.type->isStruct()) {
    if (!s.agg || s.elems.size() != d.elems.size()) fail("loop state arity mismatch");
    for (size_t i = 0; i < d.elems.size(); ++i) stateLeaves(d.elems[i], s.elems[i], out);
    return;
  }
  out.push_back({d, s});
}

// `const double t = e; ...; s = t;` -> `s = e; ...` when nothing between
// reads or writes s and nothing else reads t: the update written in place.
void sinkAssigns(Block &b, size_t from) {
  for (size_t a = from; a < b.size(); ++a) {
    if (b[a].k != Stmt::Assign) continue;
    const std::string t = b[a].rhs, s = b[a].def;
    size_t d = a;
    for (size_t k = 0; k < a; ++k)
      if (b[k].k == Stmt::Decl && b[k].def == t) d = k;
    if (d == a || !b[d].init || b[d].effect || b[d].rhs.empty()) continue;
    bool ok = true;
    for (size_t k = d + 1; k < b.size() && ok; ++k)
      if (k != a && (mentions(b[k], t) || (k < a && mentions(b[k], s)))) ok = false;
    if (!ok) continue;
    if (b[d].rhs == s) { // `const t = s; ...; s = t`: s keeps its value
      b.erase(b.begin() + long(a));
      b.erase(b.begin() + long(d));
      a -= 2;
      continue;
    }
    Stmt ns;
    ns.k = Stmt::Assign;
    ns.def = s;
    ns.rhs = b[d].rhs;
    ns.line = s + " = " + ns.rhs + ";";
    ns.uses = b[d].uses;
    b[d] = std::move(ns);
    b.erase(b.begin() + long(a));
    --a;
  }
}
} // namespace

// The end of a loop body: state := new state, as a parallel assignment
// (a component a later one reads in its old value goes through a const
// temporary first).
void FnPrinter::assignState(const CVal &dst, const CVal &src, Block &b) {
  std::vector<std::pair<CVal, CVal>> ls;
  stateLeaves(dst, src, ls);
  struct A {
    std::string dst, text;
    std::set<std::string> ids;
    TypeP type;
  };
  std::vector<A> as;
  for (auto &[d, s] : ls) {
    std::string text = render(s);
    if (text == d.text) continue; // unchanged
    if (d.type->isArray()) fail("a loop whose state switches to another array (in '" + gen_.name + "')");
    A x{d.text, text, {}, d.type};
    collectIdents(text, x.ids);
    as.push_back(std::move(x));
  }
  size_t from = b.size();
  for (size_t k = 0; k < as.size(); ++k) {
    bool stale = false;
    for (size_t j = 0; j < k; ++j) stale = stale || as[k].ids.count(as[j].dst);
    if (!stale) continue;
    std::string n = fresh(as[k].dst + "_next", false);
    Stmt s;
    s.k = Stmt::Decl;
    s.def = n;
    s.rhs = as[k].text;
    s.line = "const " + cxxType(as[k].type) + " " + n + " = " + as[k].text + ";";
    s.uses = as[k].ids;
    b.push_back(std::move(s));
    as[k].text = n;
    as[k].ids = {n};
  }
  for (auto &x : as) {
    Stmt s;
    s.k = Stmt::Assign;
    s.def = x.dst;
    s.rhs = x.text;
    s.line = x.dst + " = " + x.text + ";";
    s.uses = x.ids;
    b.push_back(std::move(s));
  }
  sinkAssigns(b, from);
}

CVal FnPrinter::trFold(const Fold *f, Block &b, const Hint &) {
  CVal lo = tr(f->lo, b, Hint{"lo", false});
  CVal hi = tr(f->hi, b, Hint{"hi", false});
  // the bound tested every iteration is computed once when it reads memory
  if (!f->reversed && flag(f->hi.get(), kReads)) hi = materialize(hi, "hi", b);
  if (f->reversed && flag(f->lo.get(), kReads)) lo = materialize(lo, "lo", b);
  CVal init = tr(f->init, b, Hint{"tmp", false});
  CVal st = declareState(init, Hint{f->state, true}, stateHints(f->body, f->state, f->type), b);
  invalidateLoop(f->body); // the body runs again after its own writes
  Stmt loop;
  loop.k = Stmt::Loop;
  std::string i = fresh(f->index, true);
  loop.loopVar = i;
  size_t mark = trail_.size(), cmark = cacheLog_.size();
  push(f->index, leaf(Type::i64(), i, PPrimary, true));
  push(f->state, st);
  CVal nv = tr(f->body, loop.bodyB, Hint{"tmp", false});
  assignState(st, nv, loop.bodyB);
  popTo(mark);
  dropCache(cmark); // the body's locals are not visible after the loop
  if (!f->reversed) {
    loop.line = "for (long " + i + " = " + render(lo) + "; " + i + " < " + operand(hi, PAdd, true) + "; ++" + i + ")";
  } else {
    const Const *k = f->hi->as<Const>();
    std::string start = k && k->ivalue > INT64_MIN ? std::to_string(k->ivalue - 1) : operand(hi, PAdd) + " - 1";
    loop.line = "for (long " + i + " = " + start + "; " + i + " >= " + operand(lo, PAdd, true) + "; --" + i + ")";
  }
  collectIdents(loop.line, loop.uses);
  b.push_back(std::move(loop));
  return st;
}

CVal FnPrinter::trWhile(const While *w, Block &b, const Hint &) {
  CVal init = tr(w->init, b, Hint{"tmp", false});
  CVal st = declareState(init, Hint{w->state, true}, stateHints(w->body, w->state, w->type), b);
  invalidateLoop(w->body);
  invalidateLoop(w->cond);
  Stmt loop;
  loop.k = Stmt::Loop;
  size_t mark = trail_.size(), cmark = cacheLog_.size();
  push(w->state, st);
  CVal c = tr(w->cond, loop.condB, Hint{"cond", false});
  CVal nv = tr(w->body, loop.bodyB, Hint{"tmp", false});
  assignState(st, nv, loop.bodyB);
  popTo(mark);
  dropCache(cmark);
  std::string ct = render(c);
  if (loop.condB.empty()) {
    loop.line = "while (" + ct + ")";
  } else { // the condition needs statements of its own
    loop.line = "while (true)";
    loop.breakLine = "if (!" + operand(c, PUnary) + ") break;";
  }
  collectIdents(ct, loop.uses);
  b.push_back(std::move(loop));
  return st;
}

// `lhs += ct` for a float, field by field for a struct; zeros are skipped.
void FnPrinter::accumulate(const CVal &ct, const std::string &lhs, bool viaPointer, Block &b) {
  const TypeP &t = ct.type;
  if (allZero(ct)) return;
  if (t->isStruct()) {
    CVal v = ct.agg ? ct : materialize(ct, "ct", b);
    for (size_t i = 0; i < t->elems.size(); ++i) {
      CVal f = v.agg ? v.elems[i] : leaf(t->elems[i], v.text + "." + t->fieldNames[i], PPrimary, true);
      accumulate(f, lhs + (viaPointer ? "->" : ".") + t->fieldNames[i], false, b);
    }
    return;
  }
  if (!t->isFloat()) return; // passive fields carry no derivative
  Stmt s;
  s.k = Stmt::Accum;
  std::string target = viaPointer ? "*" + lhs : lhs;
  std::string r = render(ct);
  s.line = target + " += " + r + ";";
  collectIdents(target + " " + r, s.uses);
  b.push_back(std::move(s));
}

Printed FnPrinter::run() {
  Signature sig = classify(gen_, primal_);
  const Function &f = *sig.primal;
  size_t n = f.params.size();
  // f$grad: f's parameters, then one buffer per active array parameter;
  // g$pullback: g's parameters, d_return, then the buffers.
  size_t nbuf = 0;
  for (auto &p : f.params) nbuf += p.active && p.type->isArray();
  size_t bufAt = n + (sig.isGrad ? 0 : 1);
  if (gen_.params.size() != bufAt + nbuf)
    fail("'" + gen_.name + "' does not have the parameters of '" + f.name + "'");
  for (size_t k = 0; k < nbuf; ++k)
    if (!gen_.params[bufAt + k].type->isArray())
      fail("parameter '" + gen_.params[bufAt + k].name + "' of '" + gen_.name + "' is not an adjoint buffer");

  scan(gen_.body);
  std::string fname = generatedBase(f) + (sig.isGrad ? "_grad" : "_pullback");
  used_.insert(fname);

  bool spelled = f.cxx.paramTypes.size() == n;
  auto spelling = [&](size_t i) { return spelled ? f.cxx.paramTypes[i] : std::string(); };

  // parameter names: the primal's first, then d_return, then the adjoints
  std::vector<std::string> pnames;
  for (size_t i = 0; i < n; ++i) pnames.push_back(fresh(gen_.params[i].name, true));
  std::string dret;
  bool hasDret = !sig.isGrad && !gen_.params[n].type->isUnit(); // a void helper has no d_return
  if (hasDret) dret = fresh("d_return", true);
  std::vector<size_t> active;
  std::vector<std::string> anames;
  size_t nb = 0;
  for (size_t i = 0; i < n; ++i)
    if (f.params[i].active) {
      active.push_back(i);
      // an array's adjoint is the buffer parameter, named as in the IR
      anames.push_back(f.params[i].type->isArray() ? fresh(gen_.params[bufAt + nb++].name, true)
                                                   : fresh("d_" + pnames[i], true));
    }

  for (size_t i = 0; i < n; ++i) {
    const TypeP &t = gen_.params[i].type;
    if (t->isTuple() && !t->isStruct()) fail("parameter '" + gen_.params[i].name + "' has a plain tuple type");
    CVal v = leaf(t, pnames[i], PPrimary, true);
    if (t->isArray()) {
      v.container = isContainerSpelling(spelling(i));
      v.bound = arrayBound(spelling(i));
      v.spell = spelling(i);
    } else if (t->isInt() && isUnsignedSpelling(spelling(i))) {
      v.text = "static_cast<long>(" + pnames[i] + ")"; // the IR computes in i64
    }
    push(gen_.params[i].name, v);
  }
  if (!sig.isGrad) push(gen_.params[n].name, hasDret ? leaf(gen_.params[n].type, dret, PPrimary, true) : unitVal());
  nb = 0;
  for (size_t j = 0; j < active.size(); ++j) {
    size_t i = active[j];
    if (!f.params[i].type->isArray()) continue;
    const Param &bp = gen_.params[bufAt + nb++];
    CVal v = leaf(bp.type, anames[j], PPrimary, true);
    v.spell = adjointSpelling(spelling(i), f.params[i].type);
    v.container = isContainerSpelling(v.spell);
    v.bound = arrayBound(spelling(i));
    push(bp.name, v);
  }

  Block body;
  CVal res = tr(gen_.body, body, Hint{"res", false});
  size_t off = sig.isGrad ? 1 : 0;
  if (!res.agg || res.type->isStruct() || res.elems.size() != active.size() + off)
    fail("body of '" + gen_.name + "' is not a tuple of " + std::to_string(active.size() + off) + " elements");
  for (size_t j = 0; j < active.size(); ++j) {
    const TypeP &pt = f.params[active[j]].type;
    const TypeP &ct = res.elems[j + off].type;
    if (pt->isArray() ? !ct->isUnit() : !sameType(pt, ct))
      fail("cotangent of '" + f.params[active[j]].name + "' has type " + str(ct));
    accumulate(res.elems[j + off], anames[j], true, body);
  }
  bool isVoid = f.result->isUnit() || stripCvRef(f.cxx.returnType) == "void";
  std::string ret = isVoid ? "void" : f.cxx.returnType.empty() ? cxxType(f.result) : stripCvRef(f.cxx.returnType);
  if (sig.isGrad && !isVoid) {
    Stmt s;
    s.k = Stmt::Return;
    std::string r = render(res.elems[0]);
    s.line = "return " + r + ";";
    collectIdents(r, s.uses);
    body.push_back(std::move(s));
  }

  std::set<std::string> live;
  dce(body, live);
  std::set<std::string> assigned;
  collectAssigned(body, assigned);
  dropDeadDecls(body, assigned);

  // signature
  Printed out;
  std::string link;
  // A static f may be called while f_grad is not: no -Wunused-function.
  if (f.cxx.isStatic) link += sig.isGrad && !f.cxx.isInline && !f.cxx.isConstexpr ? "[[maybe_unused]] static " : "static ";
  if (!sig.isGrad || f.cxx.isInline || f.cxx.isConstexpr) link += "inline ";
  out.head = link + (sig.isGrad ? ret : std::string("void")) + " " + fname;
  std::vector<std::pair<std::string, std::string>> params; // spelling+name, name
  for (size_t i = 0; i < n; ++i) {
    const TypeP &pt = f.params[i].type;
    std::string t = spelled                 ? f.cxx.paramTypes[i]
                    : pt->isStruct()        ? "const " + cxxType(pt) + "&"
                    : pt->isArray()         ? (f.params[i].written ? "" : "const ") + cxxType(pt->elem()) + "*"
                                            : cxxType(pt);
    params.emplace_back(declare(t, pnames[i]), pnames[i]);
  }
  if (hasDret) {
    std::string t = f.cxx.returnType.empty() ? cxxType(gen_.params[n].type) : stripCvRef(f.cxx.returnType);
    params.emplace_back(t + " " + dret, dret);
  }
  for (size_t j = 0; j < active.size(); ++j) {
    size_t i = active[j];
    params.emplace_back(declare(adjointSpelling(spelling(i), f.params[i].type), anames[j]), anames[j]);
  }
  for (size_t i = 0; i < params.size(); ++i) {
    std::string sep = i ? ", " : "";
    out.protoArgs += sep + params[i].first;
    out.defArgs += sep + (live.count(params[i].second) ? "" : "[[maybe_unused]] ") + params[i].first;
  }
  emit(body, 1, out.body);
  return out;
}

} // namespace

// build/sum are printed as the loops they stand for.
static ir::Function lowered(const ir::Function &generated) {
  ir::Function g = generated;
  g.body = ir::lowerParallel(g.body);
  return g;
}

std::string printFunction(const ir::Function &generated, const ir::Program &primal) {
  Printed p = FnPrinter(lowered(generated), primal).run();
  return p.head + "(" + p.defArgs + ") {\n" + p.body + "}\n";
}

std::string printPrototype(const ir::Function &generated, const ir::Program &primal) {
  Printed p = FnPrinter(lowered(generated), primal).run();
  return p.head + "(" + p.protoArgs + ");";
}

std::string cxxName(const ir::Function &generated, const ir::Program &primal) {
  Signature s = classify(generated, primal);
  return generatedBase(*s.primal) + (s.isGrad ? "_grad" : "_pullback");
}

} // namespace unfad::printer
