// Printing, free variables, substitution, fresh names and the reference
// evaluator of the IR.
#include "unfad/ir/ir.h"
#include "unfad/ir/mutator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>

namespace unfad::ir {

// ------------------------------------------------------------- printing --

static std::string fmtNum(const Const *c) {
  if (c->type->isBool()) return c->ivalue ? "true" : "false";
  if (c->type->isInt()) return std::to_string(c->ivalue);
  std::ostringstream os;
  os.precision(17);
  os << c->fvalue;
  std::string s = os.str();
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  if (c->type->scalar == Scalar::F32) s += "f";
  return s;
}

namespace {
struct Printer {
  std::ostringstream os;
  void ind(int d) { os << std::string(2 * d, ' '); }
  static bool isBlock(const Expr &e) {
    return e->is<Let>() || e->is<If>() || e->is<Lambda>() || e->is<Fold>() || e->is<While>() || e->is<Build>() ||
           e->is<Sum>();
  }
  void list(const std::vector<Expr> &es, int d) {
    for (size_t i = 0; i < es.size(); ++i) {
      if (i) os << ", ";
      inl(es[i], d);
    }
  }
  // Inline (expression) position.
  void inl(const Expr &e, int d) {
    if (isBlock(e)) {
      os << "(\n";
      blk(e, d + 1);
      os << "\n";
      ind(d);
      os << ")";
      return;
    }
    switch (e->kind) {
    case Kind::Const: os << fmtNum(e->as<Const>()); break;
    case Kind::Var: os << e->as<Var>()->name; break;
    case Kind::Prim: {
      auto p = e->as<Prim>();
      os << opName(p->op);
      if (p->op == Op::Cast) os << "<" << str(p->type) << ">";
      os << "(";
      list(p->args, d);
      os << ")";
      break;
    }
    case Kind::Tuple: {
      auto t = e->as<Tuple>();
      if (t->type->isStruct()) os << t->type->structName << "{";
      else os << "(";
      list(t->elems, d);
      os << (t->type->isStruct() ? "}" : ")");
      break;
    }
    case Kind::Proj: {
      auto p = e->as<Proj>();
      inl(p->tuple, d);
      if (p->tuple->type->isStruct()) os << "." << p->tuple->type->fieldNames[p->index];
      else os << "#" << p->index;
      break;
    }
    case Kind::Call: {
      auto c = e->as<Call>();
      os << "call " << c->callee << "(";
      list(c->args, d);
      os << ")";
      break;
    }
    case Kind::Pullback: {
      auto c = e->as<Pullback>();
      os << "pullback " << c->callee << "(";
      list(c->args, d);
      os << "; ";
      inl(c->cotangent, d);
      if (!c->buffers.empty()) {
        os << "; into ";
        list(c->buffers, d);
      }
      os << ")";
      break;
    }
    case Kind::Index: {
      auto x = e->as<Index>();
      inl(x->array, d);
      os << "[";
      inl(x->index, d);
      os << "]";
      break;
    }
    case Kind::Size: os << "size("; inl(e->as<Size>()->array, d); os << ")"; break;
    case Kind::NewArray:
      os << (e->as<NewArray>()->scratch ? "scratch " : "new ") << str(e->type->elem()) << "[";
      inl(e->as<NewArray>()->size, d);
      os << "]";
      break;
    case Kind::Store: {
      auto x = e->as<Store>();
      os << "store ";
      inl(x->array, d);
      os << "[";
      inl(x->index, d);
      os << "]";
      TypeP ft = x->array->type->elem();
      for (int k : x->path) { // a[i].x: field names of structs
        os << "." << (ft->isStruct() && size_t(k) < ft->fieldNames.size() ? ft->fieldNames[size_t(k)] : std::to_string(k));
        ft = ft->elems.at(size_t(k));
      }
      os << (x->mode == Store::Mode::Add ? " += " : " = ");
      inl(x->value, d);
      break;
    }
    case Kind::App: {
      auto a = e->as<App>();
      inl(a->fn, d);
      os << "(";
      list(a->args, d);
      os << ")";
      break;
    }
    default: break;
    }
  }
  // Block (statement) position, starting at indentation d.
  void blk(const Expr &e, int d) {
    if (auto l = e->as<Let>()) {
      ind(d);
      os << "let " << l->name << ": " << str(l->value->type) << " = ";
      if (isBlock(l->value)) {
        os << "\n";
        blk(l->value, d + 1);
        os << "\n";
        ind(d);
        os << "in\n";
      } else {
        inl(l->value, d);
        os << " in\n";
      }
      blk(l->body, d);
      return;
    }
    if (auto i = e->as<If>()) {
      ind(d);
      os << "if ";
      inl(i->cond, d);
      os << " then\n";
      blk(i->thenE, d + 1);
      os << "\n";
      ind(d);
      os << "else\n";
      blk(i->elseE, d + 1);
      return;
    }
    if (auto w = e->as<While>()) {
      ind(d);
      os << "while " << w->state << " = ";
      inl(w->init, d);
      os << " holds ";
      inl(w->cond, d);
      os << " ->\n";
      blk(w->body, d + 1);
      return;
    }
    if (auto f = e->as<Fold>()) {
      ind(d);
      os << "fold " << f->index << " in ";
      os << (f->reversed ? "reversed [" : "[");
      inl(f->lo, d);
      os << ", ";
      inl(f->hi, d);
      os << ") from " << f->state << " = ";
      inl(f->init, d);
      os << " ->\n";
      blk(f->body, d + 1);
      return;
    }
    if (auto b = e->as<Build>()) {
      ind(d);
      os << "build " << b->index << " < ";
      inl(b->size, d);
      os << " ->\n";
      blk(b->body, d + 1);
      return;
    }
    if (auto m = e->as<Sum>()) {
      ind(d);
      os << "sum " << m->index << " in [";
      inl(m->lo, d);
      os << ", ";
      inl(m->hi, d);
      os << ") ->\n";
      blk(m->body, d + 1);
      return;
    }
    if (auto l = e->as<Lambda>()) {
      ind(d);
      os << "fun (";
      for (size_t k = 0; k < l->params.size(); ++k)
        os << (k ? ", " : "") << l->params[k].name << ": " << str(l->params[k].type);
      os << ") ->\n";
      blk(l->body, d + 1);
      return;
    }
    ind(d);
    inl(e, d);
  }
};
} // namespace

std::string print(const Expr &e) {
  Printer p;
  p.blk(e, 0);
  return p.os.str();
}

std::string print(const Function &f) {
  std::ostringstream os;
  os << "def " << f.name << "(";
  for (size_t i = 0; i < f.params.size(); ++i)
    os << (i ? ", " : "") << f.params[i].name << ": " << str(f.params[i].type) << (f.params[i].active ? " active" : "");
  os << ") -> " << str(f.result) << (f.marked ? " [gradient]" : "") << " =\n";
  Printer p;
  p.blk(f.body, 1);
  os << p.os.str() << "\n";
  return os.str();
}

std::string print(const Program &p) {
  std::string s;
  for (auto &f : p.functions) s += print(f) + "\n";
  return s;
}

// ------------------------------------------------------ free variables --

namespace {
// Counts free occurrences of variables; binders shadow.
struct FreeCounter {
  std::unordered_map<std::string, int> counts;
  std::vector<std::string> order;
  std::multiset<std::string> bound;
  void add(const std::string &n) {
    if (bound.count(n)) return;
    if (counts[n]++ == 0) order.push_back(n);
  }
  void go(const Expr &e) {
    switch (e->kind) {
    case Kind::Const: return;
    case Kind::Var: add(e->as<Var>()->name); return;
    case Kind::Prim: for (auto &a : e->as<Prim>()->args) go(a); return;
    case Kind::Let: {
      // Iterate along let chains to keep recursion shallow on long programs.
      std::vector<const Let *> chain;
      Expr cur = e;
      while (auto l = cur->as<Let>()) {
        go(l->value);
        bound.insert(l->name);
        chain.push_back(l);
        cur = l->body;
      }
      go(cur);
      for (auto l : chain) bound.erase(bound.find(l->name));
      return;
    }
    case Kind::If: { auto i = e->as<If>(); go(i->cond); go(i->thenE); go(i->elseE); return; }
    case Kind::Tuple: for (auto &a : e->as<Tuple>()->elems) go(a); return;
    case Kind::Proj: go(e->as<Proj>()->tuple); return;
    case Kind::Call: for (auto &a : e->as<Call>()->args) go(a); return;
    case Kind::Pullback:
      for (auto &a : e->as<Pullback>()->args) go(a);
      go(e->as<Pullback>()->cotangent);
      for (auto &b : e->as<Pullback>()->buffers) go(b);
      return;
    case Kind::Index: go(e->as<Index>()->array); go(e->as<Index>()->index); return;
    case Kind::Size: go(e->as<Size>()->array); return;
    case Kind::NewArray: go(e->as<NewArray>()->size); return;
    case Kind::Store: go(e->as<Store>()->array); go(e->as<Store>()->index); go(e->as<Store>()->value); return;
    case Kind::While: {
      auto w = e->as<While>();
      go(w->init);
      bound.insert(w->state);
      go(w->cond);
      go(w->body);
      bound.erase(bound.find(w->state));
      return;
    }
    case Kind::Fold: {
      auto f = e->as<Fold>();
      go(f->lo);
      go(f->hi);
      go(f->init);
      bound.insert(f->index);
      bound.insert(f->state);
      go(f->body);
      bound.erase(bound.find(f->index));
      bound.erase(bound.find(f->state));
      return;
    }
    case Kind::Build: {
      auto b = e->as<Build>();
      go(b->size);
      bound.insert(b->index);
      go(b->body);
      bound.erase(bound.find(b->index));
      return;
    }
    case Kind::Sum: {
      auto m = e->as<Sum>();
      go(m->lo);
      go(m->hi);
      bound.insert(m->index);
      go(m->body);
      bound.erase(bound.find(m->index));
      return;
    }
    case Kind::Lambda: {
      auto l = e->as<Lambda>();
      for (auto &p : l->params) bound.insert(p.name);
      go(l->body);
      for (auto &p : l->params) bound.erase(bound.find(p.name));
      return;
    }
    case Kind::App: go(e->as<App>()->fn); for (auto &a : e->as<App>()->args) go(a); return;
    }
  }
};
} // namespace

std::vector<std::string> freeVars(const Expr &e) {
  FreeCounter c;
  c.go(e);
  return c.order;
}

int countUses(const Expr &e, const std::string &name) {
  FreeCounter c;
  c.go(e);
  auto it = c.counts.find(name);
  return it == c.counts.end() ? 0 : it->second;
}

size_t size(const Expr &e) {
  struct S : Visitor {
    size_t n = 0;
    void visitExpr(const Expr &e) override { ++n; Visitor::visitExpr(e); }
  } s;
  s.visitExpr(e);
  return s.n;
}

// --------------------------------------------------------- substitution --

static std::string renamed(const std::string &n) {
  static long counter = 0;
  return n + "_r" + std::to_string(++counter);
}

namespace {
struct Subst : Mutator {
  std::string name;
  Expr value;
  std::set<std::string> fv; // free variables of value
  Expr visit(const Var *n, const Expr &self) override { return n->name == name ? value : self; }
  Expr visit(const Let *n, const Expr &self) override {
    Expr v = mutate(n->value);
    if (n->name == name) return v == n->value ? self : Let::make(n->name, v, n->body);
    if (fv.count(n->name)) {
      std::string fresh = renamed(n->name);
      Expr body = substitute(n->body, n->name, Var::make(fresh, n->value->type));
      return Let::make(fresh, v, mutate(body));
    }
    Expr b = mutate(n->body);
    return v == n->value && b == n->body ? self : Let::make(n->name, v, b);
  }
  Expr visit(const While *n, const Expr &self) override {
    Expr i0 = mutate(n->init);
    std::string st = n->state;
    Expr c = n->cond, b = n->body;
    if (st != name) {
      if (fv.count(st)) {
        std::string fresh = renamed(st);
        c = substitute(c, st, Var::make(fresh, n->init->type));
        b = substitute(b, st, Var::make(fresh, n->init->type));
        st = fresh;
      }
      c = mutate(c);
      b = mutate(b);
    }
    if (i0 == n->init && c == n->cond && b == n->body && st == n->state) return self;
    return While::make(i0, st, c, b);
  }
  Expr visit(const Fold *n, const Expr &self) override {
    Expr l = mutate(n->lo), h = mutate(n->hi), i0 = mutate(n->init);
    std::string idx = n->index, st = n->state;
    Expr body = n->body;
    bool shadowed = idx == name || st == name;
    if (!shadowed) {
      if (fv.count(idx)) {
        std::string fresh = renamed(idx);
        body = substitute(body, idx, Var::make(fresh, Type::i64()));
        idx = fresh;
      }
      if (fv.count(st)) {
        std::string fresh = renamed(st);
        body = substitute(body, st, Var::make(fresh, n->init->type));
        st = fresh;
      }
      body = mutate(body);
    }
    if (l == n->lo && h == n->hi && i0 == n->init && body == n->body && idx == n->index && st == n->state) return self;
    return Fold::make(l, h, i0, idx, st, body, n->reversed);
  }
  // The body of a build/sum under its index binder, renamed away from the
  // substituted value's free variables.
  Expr underIndex(const std::string &idx, std::string &out, const Expr &body) {
    out = idx;
    if (idx == name) return body;
    Expr b = body;
    if (fv.count(idx)) {
      out = renamed(idx);
      b = substitute(b, idx, Var::make(out, Type::i64()));
    }
    return mutate(b);
  }
  Expr visit(const Build *n, const Expr &self) override {
    Expr sz = mutate(n->size);
    std::string idx;
    Expr b = underIndex(n->index, idx, n->body);
    return sz == n->size && b == n->body && idx == n->index ? self : Build::make(sz, idx, b);
  }
  Expr visit(const Sum *n, const Expr &self) override {
    Expr l = mutate(n->lo), h = mutate(n->hi);
    std::string idx;
    Expr b = underIndex(n->index, idx, n->body);
    return l == n->lo && h == n->hi && b == n->body && idx == n->index ? self : Sum::make(l, h, idx, b);
  }
  Expr visit(const Lambda *n, const Expr &self) override {
    std::vector<Binder> ps = n->params;
    Expr body = n->body;
    for (auto &p : ps) {
      if (p.name == name) return self;
      if (fv.count(p.name)) {
        std::string fresh = renamed(p.name);
        body = substitute(body, p.name, Var::make(fresh, p.type));
        p.name = fresh;
      }
    }
    Expr b = mutate(body);
    return b == n->body ? self : Lambda::make(ps, b);
  }
};
} // namespace

Expr substitute(const Expr &e, const std::string &name, const Expr &value) {
  Subst s;
  s.name = name;
  s.value = value;
  for (auto &v : freeVars(value)) s.fv.insert(v);
  return s.mutate(e);
}

// ----------------------------------------------------------- name supply --

void NameSupply::reserve(const std::string &name) { used_.insert(name); }

std::string NameSupply::fresh(const std::string &hint) {
  std::string base = hint.empty() ? "t" : hint;
  std::string n = base;
  int &k = next_[base];
  while (taken(n)) n = base + "_" + std::to_string(++k);
  reserve(n);
  return n;
}

void NameSupply::reserveAll(const Expr &e) {
  struct R : Visitor {
    NameSupply *ns;
    void visit(const Var *n) override { ns->reserve(n->name); }
    void visit(const Let *n) override { ns->reserve(n->name); Visitor::visit(n); }
    void visit(const Lambda *n) override {
      for (auto &p : n->params) ns->reserve(p.name);
      Visitor::visit(n);
    }
    void visit(const While *n) override {
      ns->reserve(n->state);
      Visitor::visit(n);
    }
    void visit(const Fold *n) override {
      ns->reserve(n->index);
      ns->reserve(n->state);
      Visitor::visit(n);
    }
    void visit(const Build *n) override {
      ns->reserve(n->index);
      Visitor::visit(n);
    }
    void visit(const Sum *n) override {
      ns->reserve(n->index);
      Visitor::visit(n);
    }
  } r;
  r.ns = this;
  r.visitExpr(e);
}

// ------------------------------------------------------------ evaluator --

namespace {
struct Closure;
struct Eval {
  const Program *prog = nullptr;
  std::vector<std::pair<std::string, Value>> env;
  // Lambdas are evaluated to closures stored out of band.
  std::vector<std::pair<const Lambda *, std::vector<std::pair<std::string, Value>>>> closures;

  Value lookup(const std::string &n) {
    for (auto it = env.rbegin(); it != env.rend(); ++it)
      if (it->first == n) return it->second;
    throw IRError("evaluate: unbound variable " + n);
  }
  static double num(const Value &v) { return v.scalar; }
  // Struct elements are stored as their scalar leaves, in field order.
  static size_t leaves(const TypeP &t) {
    if (!t->isStruct()) return 1;
    size_t n = 0;
    for (auto &e : t->elems) n += leaves(e);
    return n;
  }
  static Value unflatten(const TypeP &t, const std::vector<double> &xs, size_t &off) {
    if (!t->isStruct()) return Value::of(xs[off++]);
    std::vector<Value> es;
    for (auto &e : t->elems) es.push_back(unflatten(e, xs, off));
    return Value::tuple(std::move(es));
  }
  static void flatten(const Value &v, std::vector<double> &out) {
    if (!v.isTuple) return out.push_back(v.scalar);
    for (auto &e : v.elems) flatten(e, out);
  }

  double prim(Op op, const std::vector<double> &a, const TypeP &t) {
    auto x = a.empty() ? 0.0 : a[0];
    auto y = a.size() > 1 ? a[1] : 0.0;
    bool isInt = t->isInt();
    switch (op) {
    case Op::Add: return x + y;
    case Op::Sub: return x - y;
    case Op::Mul: return x * y;
    case Op::Div: return isInt ? double(int64_t(x) / int64_t(y)) : x / y;
    case Op::Neg: return -x;
    case Op::Mod: return double(int64_t(x) % int64_t(y));
    case Op::Sin: return std::sin(x);
    case Op::Cos: return std::cos(x);
    case Op::Tan: return std::tan(x);
    case Op::Asin: return std::asin(x);
    case Op::Acos: return std::acos(x);
    case Op::Atan: return std::atan(x);
    case Op::Atan2: return std::atan2(x, y);
    case Op::Sinh: return std::sinh(x);
    case Op::Cosh: return std::cosh(x);
    case Op::Tanh: return std::tanh(x);
    case Op::Exp: return std::exp(x);
    case Op::Exp2: return std::exp2(x);
    case Op::Expm1: return std::expm1(x);
    case Op::Log: return std::log(x);
    case Op::Log2: return std::log2(x);
    case Op::Log10: return std::log10(x);
    case Op::Log1p: return std::log1p(x);
    case Op::Sqrt: return std::sqrt(x);
    case Op::Cbrt: return std::cbrt(x);
    case Op::Pow: return std::pow(x, y);
    case Op::Hypot: return std::hypot(x, y);
    case Op::Fabs: return std::fabs(x);
    case Op::Fmin: return std::fmin(x, y);
    case Op::Fmax: return std::fmax(x, y);
    case Op::Erf: return std::erf(x);
    case Op::Floor: return std::floor(x);
    case Op::Ceil: return std::ceil(x);
    case Op::Round: return std::round(x);
    case Op::Trunc: return std::trunc(x);
    case Op::Lt: return x < y;
    case Op::Le: return x <= y;
    case Op::Gt: return x > y;
    case Op::Ge: return x >= y;
    case Op::Eq: return x == y;
    case Op::Ne: return x != y;
    case Op::And: return x != 0 && y != 0;
    case Op::Or: return x != 0 || y != 0;
    case Op::Not: return x == 0;
    case Op::Sign: return (x > 0) - (x < 0);
    case Op::Cast:
      if (t->isInt()) return std::trunc(x);
      if (t->isBool()) return x != 0;
      if (t->scalar == Scalar::F32) return double(float(x));
      return x;
    }
    return 0;
  }

  Value callFn(const std::string &name, const std::vector<Value> &args) {
    const Function *f = prog ? prog->find(name) : nullptr;
    if (!f) throw IRError("evaluate: unknown function " + name);
    if (f->params.size() != args.size()) throw IRError("evaluate: arity of " + name);
    Eval sub;
    sub.prog = prog;
    for (size_t i = 0; i < args.size(); ++i) sub.env.push_back({f->params[i].name, args[i]});
    return sub.run(f->body);
  }

  Value run(const Expr &e) {
    switch (e->kind) {
    case Kind::Const: return Value::of(e->as<Const>()->fvalue);
    case Kind::Var: return lookup(e->as<Var>()->name);
    case Kind::Prim: {
      auto p = e->as<Prim>();
      std::vector<double> a;
      for (auto &x : p->args) a.push_back(num(run(x)));
      return Value::of(prim(p->op, a, p->type));
    }
    case Kind::Let: {
      auto l = e->as<Let>();
      Value v = run(l->value);
      env.push_back({l->name, v});
      Value r = run(l->body);
      env.pop_back();
      return r;
    }
    case Kind::If: {
      auto i = e->as<If>();
      return num(run(i->cond)) != 0 ? run(i->thenE) : run(i->elseE);
    }
    case Kind::Tuple: {
      std::vector<Value> vs;
      for (auto &x : e->as<Tuple>()->elems) vs.push_back(run(x));
      return Value::tuple(std::move(vs));
    }
    case Kind::Proj: {
      auto p = e->as<Proj>();
      Value t = run(p->tuple);
      return t.elems.at(p->index);
    }
    case Kind::Call: {
      auto c = e->as<Call>();
      std::vector<Value> as;
      for (auto &x : c->args) as.push_back(run(x));
      return callFn(c->callee, as);
    }
    case Kind::Pullback: {
      auto c = e->as<Pullback>();
      std::vector<Value> as;
      for (auto &x : c->args) as.push_back(run(x));
      as.push_back(run(c->cotangent));
      for (auto &b : c->buffers) as.push_back(run(b));
      return callFn(pullbackFunctionName(c->callee), as);
    }
    case Kind::Index: {
      auto x = e->as<Index>();
      Value a = run(x->array);
      long i = long(num(run(x->index)));
      const TypeP &et = x->array->type->elem();
      if (et->isArray()) {
        if (!a.rows || i < 0 || size_t(i) >= a.rows->size()) throw IRError("evaluate: index out of range");
        return (*a.rows)[size_t(i)];
      }
      size_t k = leaves(et);
      if (!a.array || i < 0 || size_t(i) >= a.array->size() / k) throw IRError("evaluate: index out of range");
      size_t off = size_t(i) * k;
      return unflatten(et, *a.array, off);
    }
    case Kind::Size: {
      auto x = e->as<Size>();
      Value a = run(x->array);
      if (x->array->type->elem()->isArray()) return Value::of(double(a.rows ? a.rows->size() : 0));
      return Value::of(double(a.array ? a.array->size() / leaves(x->array->type->elem()) : 0));
    }
    case Kind::NewArray: {
      long n = long(num(run(e->as<NewArray>()->size)));
      const TypeP &et = e->type->elem();
      if (et->isArray()) throw IRError("evaluate: a new array of arrays");
      double fill = e->as<NewArray>()->scratch ? std::numeric_limits<double>::quiet_NaN() : 0.0;
      return Value::arrayOf(std::vector<double>(size_t(std::max(0L, n)) * leaves(et), fill));
    }
    case Kind::Store: {
      auto x = e->as<Store>();
      Value a = run(x->array);
      long i = long(num(run(x->index)));
      const TypeP &et = x->array->type->elem();
      size_t k = leaves(et);
      if (!a.array || i < 0 || size_t(i) >= a.array->size() / k) throw IRError("evaluate: store out of range");
      size_t off = size_t(i) * k; // the field's first leaf
      TypeP ft = et;
      for (int f : x->path) {
        for (int g = 0; g < f; ++g) off += leaves(ft->elems[size_t(g)]);
        ft = ft->elems[size_t(f)];
      }
      std::vector<double> v;
      flatten(run(x->value), v);
      for (size_t j = 0; j < v.size(); ++j) {
        if (x->mode == Store::Mode::Add) (*a.array)[off + j] += v[j];
        else (*a.array)[off + j] = v[j];
      }
      return Value::tuple({});
    }
    case Kind::While: {
      auto w = e->as<While>();
      Value s = run(w->init);
      for (long guard = 0;; ++guard) {
        if (guard > 100000000) throw IRError("evaluate: while loop does not terminate");
        env.push_back({w->state, s});
        bool go = num(run(w->cond)) != 0;
        if (go) s = run(w->body);
        env.pop_back();
        if (!go) break;
      }
      return s;
    }
    case Kind::Fold: {
      auto f = e->as<Fold>();
      long lo = long(num(run(f->lo))), hi = long(num(run(f->hi)));
      Value s = run(f->init);
      for (long k = 0; k < hi - lo; ++k) {
        long i = f->reversed ? hi - 1 - k : lo + k;
        env.push_back({f->index, Value::of(double(i))});
        env.push_back({f->state, s});
        s = run(f->body);
        env.pop_back();
        env.pop_back();
      }
      return s;
    }
    case Kind::Build: {
      auto b = e->as<Build>();
      long n = long(num(run(b->size)));
      if (n < 0) throw IRError("evaluate: build of negative size");
      std::vector<double> xs(size_t(n), 0.0);
      for (long i = 0; i < n; ++i) {
        env.push_back({b->index, Value::of(double(i))});
        xs[size_t(i)] = num(run(b->body));
        env.pop_back();
      }
      return Value::arrayOf(std::move(xs));
    }
    case Kind::Sum: {
      auto m = e->as<Sum>();
      long lo = long(num(run(m->lo))), hi = long(num(run(m->hi)));
      double acc = 0;
      for (long i = lo; i < hi; ++i) {
        env.push_back({m->index, Value::of(double(i))});
        acc += num(run(m->body));
        env.pop_back();
      }
      return Value::of(acc);
    }
    case Kind::Lambda: {
      closures.push_back({e->as<Lambda>(), env});
      return Value::of(double(closures.size() - 1)); // closure handle
    }
    case Kind::App: {
      auto a = e->as<App>();
      size_t h = size_t(num(run(a->fn)));
      std::vector<Value> as;
      for (auto &x : a->args) as.push_back(run(x));
      auto [lam, cenv] = closures.at(h);
      auto saved = env;
      env = cenv;
      for (size_t i = 0; i < as.size(); ++i) env.push_back({lam->params[i].name, as[i]});
      Value r = run(lam->body);
      env = saved;
      return r;
    }
    }
    return {};
  }
};
} // namespace

bool hasEffects(const Expr &e, const Program *p) {
  struct E : Visitor {
    const Program *prog;
    std::set<std::string> visiting;
    bool found = false;
    void visit(const Store *) override { found = true; }
    void visit(const Call *c) override {
      Visitor::visit(c);
      if (!prog || found || !visiting.insert(c->callee).second) return;
      if (auto f = prog->find(c->callee)) visitExpr(f->body);
    }
    void visit(const Pullback *c) override {
      Visitor::visit(c);
      if (!c->buffers.empty()) found = true; // accumulates into the caller's buffers
    }
  } v;
  v.prog = p;
  v.visitExpr(e);
  return v.found;
}

bool mayWrite(const Expr &e) {
  struct W : Visitor {
    bool found = false;
    void visit(const Store *) override { found = true; }
    void visit(const Pullback *n) override {
      found |= !n->buffers.empty();
      Visitor::visit(n);
    }
    void visit(const Call *n) override {
      for (auto &a : n->args) found |= a->type->isArray();
      Visitor::visit(n);
    }
  } w;
  w.visitExpr(e);
  return w.found;
}

Value evaluate(const Program &p, const std::string &fn, const std::vector<Value> &args) {
  Eval e;
  e.prog = &p;
  return e.callFn(fn, args);
}

Value evaluate(const Program &p, const Expr &ex, const std::vector<std::pair<std::string, Value>> &env) {
  Eval e;
  e.prog = &p;
  e.env = env;
  return e.run(ex);
}

} // namespace unfad::ir
