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
#include "unfad/printer/cxx.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <unordered_map>
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

// The adjoint parameter of a parameter spelled `spelling` (CONTRACT.md).
std::string adjointSpelling(const std::string &spelling, const TypeP &t) {
  std::string s = stripCvRef(spelling.empty() ? cxxType(t) : spelling);
  size_t br = s.find('[');
  if (br != std::string::npos) return stripCvRef(s.substr(0, br)) + "*"; // const double[] -> double*
  if (!s.empty() && s.back() == '*') {                                    // const double* -> double*
    std::string pointee = stripCvRef(s.substr(0, s.size() - 1));
    return pointee + "*";
  }
  if (s.rfind("std::vector", 0) == 0 || s.rfind("std::array", 0) == 0) return s + "&";
  return s + "*";
}

// `T name`, with the name inside array declarators.
std::string declare(const std::string &spelling, const std::string &name) {
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
};

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
  for (size_t i = 0; i < v.elems.size(); ++i) s += (i ? ", " : "") + render(v.elems[i]);
  return s + "}";
}

// ---------------------------------------------------------- statements ----

struct Stmt {
  enum K { Decl, Assign, Accum, PbCall, IfS, Return } k = Decl;
  std::string line;               // the statement without indentation
  std::string def;                // Decl / Assign: the name written
  bool init = true;               // Decl: has an initialiser
  std::vector<std::string> outs;  // PbCall: accumulators it adds into
  std::set<std::string> uses;     // identifiers read
  std::string cond;               // IfS
  std::vector<Stmt> thenB, elseB; // IfS
};
using Block = std::vector<Stmt>;

// Backward liveness: drops statements whose results are never read.
void dce(Block &b, std::set<std::string> &live) {
  Block kept;
  for (size_t i = b.size(); i-- > 0;) {
    Stmt &s = b[i];
    bool keep = true;
    switch (s.k) {
    case Stmt::Accum:
    case Stmt::Return:
      live.insert(s.uses.begin(), s.uses.end());
      break;
    case Stmt::Decl:
      if (!s.init) { // kept later iff some assignment to it survives
        live.erase(s.def);
        break;
      }
      [[fallthrough]];
    case Stmt::Assign:
      if (!live.count(s.def)) {
        keep = false;
        break;
      }
      live.erase(s.def);
      live.insert(s.uses.begin(), s.uses.end());
      break;
    case Stmt::PbCall: {
      keep = false;
      for (auto &o : s.outs) keep = keep || live.count(o);
      if (keep) {
        live.insert(s.uses.begin(), s.uses.end());
        live.insert(s.outs.begin(), s.outs.end());
      }
      break;
    }
    case Stmt::IfS: {
      std::set<std::string> lt = live, le = live;
      dce(s.thenB, lt);
      dce(s.elseB, le);
      if (s.thenB.empty() && s.elseB.empty()) {
        keep = false;
        break;
      }
      live = std::move(lt);
      live.insert(le.begin(), le.end());
      live.insert(s.uses.begin(), s.uses.end());
      break;
    }
    }
    if (keep) kept.push_back(std::move(s));
  }
  b.assign(std::make_move_iterator(kept.rbegin()), std::make_move_iterator(kept.rend()));
}

void collectAssigned(const Block &b, std::set<std::string> &out) {
  for (auto &s : b) {
    if (s.k == Stmt::Assign) out.insert(s.def);
    if (s.k == Stmt::IfS) {
      collectAssigned(s.thenB, out);
      collectAssigned(s.elseB, out);
    }
  }
}

void dropDeadDecls(Block &b, const std::set<std::string> &assigned) {
  Block kept;
  for (auto &s : b) {
    if (s.k == Stmt::Decl && !s.init && !assigned.count(s.def)) continue;
    if (s.k == Stmt::IfS) {
      dropDeadDecls(s.thenB, assigned);
      dropDeadDecls(s.elseB, assigned);
    }
    kept.push_back(std::move(s));
  }
  b = std::move(kept);
}

void emit(const Block &b, int depth, std::string &out) {
  std::string ind(2 * depth, ' ');
  for (auto &s : b) {
    if (s.k != Stmt::IfS) {
      out += ind + s.line + "\n";
      continue;
    }
    if (s.thenB.empty()) { // cannot happen for value ifs; kept for safety
      out += ind + "if (!(" + s.cond + ")) {\n";
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

  void dropCache(size_t mark) {
    while (cacheLog_.size() > mark) {
      cache_.erase(cacheLog_.back());
      cacheLog_.pop_back();
    }
  }
  void push(const std::string &name, CVal v) {
    // a name bound a second time may change what a shared node means
    if (!everBound_.insert(name).second) cache_.clear();
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
  while (!todo.empty()) {
    Expr x = todo.back();
    todo.pop_back();
    reserveType(x->type, reserveType);
    switch (x->kind) {
    case Kind::Const: case Kind::Var: break;
    case Kind::Prim: for (auto &a : x->as<Prim>()->args) child(a); break;
    case Kind::Let: {
      auto l = x->as<Let>();
      if (validIdent(l->name)) irNames_.insert(l->name);
      child(l->value);
      child(l->body);
      break;
    }
    case Kind::If: {
      auto i = x->as<If>();
      child(i->cond); child(i->thenE); child(i->elseE);
      break;
    }
    case Kind::Tuple: for (auto &a : x->as<Tuple>()->elems) child(a); break;
    case Kind::Proj: child(x->as<Proj>()->tuple); break;
    case Kind::Call: {
      auto c = x->as<Call>();
      if (auto f = primal_.find(c->callee)) reserveIdents(f->cxx.qualifiedName.empty() ? cxxNameOf(*f) : f->cxx.qualifiedName);
      for (auto &a : c->args) child(a);
      break;
    }
    case Kind::Pullback: {
      auto p = x->as<Pullback>();
      if (auto f = primal_.find(p->callee)) used_.insert(cxxNameOf(*f) + "_pullback");
      for (auto &a : p->args) child(a);
      child(p->cotangent);
      break;
    }
    case Kind::Lambda: case Kind::App:
      fail("'" + gen_.name + "' still contains a lambda or an application (not optimised?)");
    }
  }
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
  collectIdents(init, s.uses);
  b.push_back(std::move(s));
  return leaf(v.type, n, PPrimary, true);
}

// The value of `let <h.name> = ...`: atoms are substituted, anything else
// becomes const locals (one per component for plain tuples).
CVal FnPrinter::bind(const CVal &v, const Hint &h, Block &b) {
  if (isAtom(v)) return v;
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
  Stmt s;
  s.k = Stmt::Assign;
  s.def = dst.text;
  std::string r = render(src);
  s.line = dst.text + " = " + r + ";";
  collectIdents(r, s.uses);
  b.push_back(std::move(s));
}

CVal FnPrinter::trIf(const If *i, Block &b, const Hint &h) {
  CVal c = tr(i->cond, b, Hint{"cond", false});
  CVal dst = declareLeaves(i->type, h, b);
  Stmt s;
  s.k = Stmt::IfS;
  s.cond = render(c);
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

CVal FnPrinter::trPullback(const Pullback *p, Block &b, const Hint &h) {
  const Function *g = primal_.find(p->callee);
  if (!g) fail("pullback of unknown function '" + p->callee + "'");
  std::vector<std::string> activeNames;
  for (auto &prm : g->params)
    if (prm.active) activeNames.push_back(prm.name);
  const TypeP &rt = p->type;
  std::string args;
  for (auto &a : p->args) args += render(tr(a, b, Hint{"tmp", false})) + ", ";
  args += render(tr(p->cotangent, b, Hint{"tmp", false}));
  std::string base = h.ir ? sanitize(h.name) : "d_" + sanitize(cxxNameOf(*g));
  CVal r;
  r.type = rt;
  r.agg = true;
  Stmt call;
  call.k = Stmt::PbCall;
  collectIdents(args, call.uses);
  for (size_t i = 0; i < rt->elems.size(); ++i) {
    const TypeP &t = rt->elems[i];
    std::string suffix = i < activeNames.size() && activeNames.size() == rt->elems.size()
                             ? sanitize(activeNames[i])
                             : std::to_string(i);
    std::string n = fresh(base + "_" + suffix, false);
    Stmt d;
    d.k = Stmt::Decl;
    d.def = n;
    if (t->isStruct()) d.line = cxxType(t) + " " + n + "{};";
    else if (t->isScalar()) d.line = cxxType(t) + " " + n + " = " + (t->isFloat() ? fmtFloating(0.0, t->scalar == Scalar::F32) : t->isBool() ? "false" : "0") + ";";
    else fail("pullback cotangent of type " + str(t));
    b.push_back(std::move(d));
    args += ", &" + n;
    call.outs.push_back(n);
    r.elems.push_back(leaf(t, n, PPrimary, true));
  }
  call.line = cxxNameOf(*g) + "_pullback(" + args + ");";
  b.push_back(std::move(call));
  return r;
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
    return leaf(p->type, operand(a[0], PLand) + " && " + operand(a[1], PLand + 1), PLand);
  case Op::Or: { // `&&` inside `||` is parenthesised too (-Wparentheses)
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
  if (pc == parents_.end() || pc->second < 2) return trNode(e, b, h);
  auto hit = cache_.find(e.get());
  if (hit != cache_.end()) return hit->second;
  CVal v = trNode(e, b, h);
  // member access on a named value is as cheap as a name: no local for it
  const Node *base = e.get();
  while (base->is<Proj>()) base = base->as<Proj>()->tuple.get();
  bool cheap = e->is<Proj>() && !v.agg && base->is<Var>();
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
  case Kind::Call: {
    auto c = e->as<Call>();
    const Function *f = primal_.find(c->callee);
    if (!f) fail("call of unknown function '" + c->callee + "'");
    if (c->type->isTuple() && !c->type->isStruct()) fail("call of '" + c->callee + "' returns a plain tuple");
    std::string s = (f->cxx.qualifiedName.empty() ? cxxNameOf(*f) : f->cxx.qualifiedName) + "(";
    for (size_t i = 0; i < c->args.size(); ++i) s += (i ? ", " : "") + render(tr(c->args[i], b, Hint{"tmp", false}));
    return leaf(c->type, s + ")", PPrimary);
  }
  case Kind::Pullback: return trPullback(e->as<Pullback>(), b, h.name.empty() ? Hint{"tmp", false} : h);
  case Kind::Lambda:
  case Kind::App: break;
  }
  fail("'" + gen_.name + "' still contains a lambda or an application (not optimised?)");
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
  if (gen_.params.size() != n + (sig.isGrad ? 0 : 1))
    fail("'" + gen_.name + "' does not have the parameters of '" + f.name + "'");

  scan(gen_.body);
  std::string fname = cxxNameOf(f) + (sig.isGrad ? "_grad" : "_pullback");
  used_.insert(fname);

  // parameter names: the primal's first, then d_return, then the adjoints
  std::vector<std::string> pnames;
  for (size_t i = 0; i < n; ++i) pnames.push_back(fresh(gen_.params[i].name, true));
  std::string dret;
  if (!sig.isGrad) dret = fresh("d_return", true);
  std::vector<size_t> active;
  std::vector<std::string> anames;
  for (size_t i = 0; i < n; ++i)
    if (f.params[i].active) {
      active.push_back(i);
      anames.push_back(fresh("d_" + pnames[i], true));
    }

  for (size_t i = 0; i < n; ++i) {
    if (gen_.params[i].type->isTuple() && !gen_.params[i].type->isStruct())
      fail("parameter '" + gen_.params[i].name + "' has a plain tuple type");
    push(gen_.params[i].name, leaf(gen_.params[i].type, pnames[i], PPrimary, true));
  }
  if (!sig.isGrad) push(gen_.params[n].name, leaf(gen_.params[n].type, dret, PPrimary, true));

  Block body;
  CVal res = tr(gen_.body, body, Hint{"res", false});
  size_t off = sig.isGrad ? 1 : 0;
  if (!res.agg || res.type->isStruct() || res.elems.size() != active.size() + off)
    fail("body of '" + gen_.name + "' is not a tuple of " + std::to_string(active.size() + off) + " elements");
  for (size_t j = 0; j < active.size(); ++j) {
    const TypeP &pt = f.params[active[j]].type;
    if (!sameType(pt, res.elems[j + off].type))
      fail("cotangent of '" + f.params[active[j]].name + "' has type " + str(res.elems[j + off].type));
    accumulate(res.elems[j + off], anames[j], true, body);
  }
  std::string ret = f.cxx.returnType.empty() ? cxxType(f.result) : stripCvRef(f.cxx.returnType);
  if (sig.isGrad && ret != "void") {
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
  if (f.cxx.isStatic) link += "static ";
  if (!sig.isGrad || f.cxx.isInline || f.cxx.isConstexpr) link += "inline ";
  out.head = link + (sig.isGrad ? ret : std::string("void")) + " " + fname;
  bool spelled = f.cxx.paramTypes.size() == n;
  std::vector<std::pair<std::string, std::string>> params; // spelling+name, name
  for (size_t i = 0; i < n; ++i) {
    std::string t = spelled ? f.cxx.paramTypes[i]
                            : (f.params[i].type->isStruct() ? "const " + cxxType(f.params[i].type) + "&"
                                                            : cxxType(f.params[i].type));
    params.emplace_back(declare(t, pnames[i]), pnames[i]);
  }
  if (!sig.isGrad) {
    std::string t = f.cxx.returnType.empty() ? cxxType(gen_.params[n].type) : stripCvRef(f.cxx.returnType);
    params.emplace_back(t + " " + dret, dret);
  }
  for (size_t j = 0; j < active.size(); ++j) {
    size_t i = active[j];
    params.emplace_back(adjointSpelling(spelled ? f.cxx.paramTypes[i] : "", f.params[i].type) + " " + anames[j],
                        anames[j]);
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

std::string printFunction(const ir::Function &generated, const ir::Program &primal) {
  Printed p = FnPrinter(generated, primal).run();
  return p.head + "(" + p.defArgs + ") {\n" + p.body + "}\n";
}

std::string printPrototype(const ir::Function &generated, const ir::Program &primal) {
  Printed p = FnPrinter(generated, primal).run();
  return p.head + "(" + p.protoArgs + ");";
}

std::string cxxName(const ir::Function &generated, const ir::Program &primal) {
  Signature s = classify(generated, primal);
  return cxxNameOf(*s.primal) + (s.isGrad ? "_grad" : "_pullback");
}

} // namespace unfad::printer
