// The reference evaluator of the IR (for tests).
#include "unfad/ir/ir.h"
#include "unfad/ir/mutator.h"
#include "unfad/ir/traverse.h"
#include "unfad/unfad.h" // unfad::digamma

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>

namespace unfad::ir {
// ------------------------------------------------------------ evaluator --

namespace {
struct Closure;
struct Eval {
  const Program *prog = nullptr;
  std::vector<std::string> *effects = nullptr; // (evaluate's log of the Effects run)
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

  // The opaque functions the reference evaluator knows (the <cmath> ones
  // without a derivative rule that tests use); any other is an error, so a
  // test of IR calling it cannot pass by accident.
  static double opaque(const std::string &callee, const std::vector<double> &a, const TypeP &t) {
    std::string n = callee.rfind("std::", 0) == 0 ? callee.substr(5) : callee;
    double r;
    if (n == "lgamma" && a.size() == 1) r = std::lgamma(a[0]);
    else if (n == "tgamma" && a.size() == 1) r = std::tgamma(a[0]);
    else if (n == "fmod" && a.size() == 2) r = std::fmod(a[0], a[1]);
    else throw IRError("evaluate: opaque function " + callee + " is not known to the evaluator");
    if (t->isInt()) return std::trunc(r);
    if (t->scalar == Scalar::F32) return double(float(r));
    return r;
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
    case Op::BitAnd: return double(int64_t(x) & int64_t(y));
    case Op::BitOr: return double(int64_t(x) | int64_t(y));
    case Op::BitXor: return double(int64_t(x) ^ int64_t(y));
    case Op::Shl: return double(int64_t(uint64_t(int64_t(x)) << int64_t(y)));
    case Op::Shr: return double(int64_t(x) >> int64_t(y));
    case Op::BitNot: return double(~int64_t(x));
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
    case Op::Erfc: return std::erfc(x);
    case Op::Asinh: return std::asinh(x);
    case Op::Acosh: return std::acosh(x);
    case Op::Atanh: return std::atanh(x);
    case Op::Lgamma: return std::lgamma(x);
    case Op::Tgamma: return std::tgamma(x);
    case Op::Fmod: return std::fmod(x, y);
    case Op::Remainder: return std::remainder(x, y);
    case Op::Copysign: return std::copysign(x, y);
    case Op::Fdim: return std::fdim(x, y);
    case Op::Digamma: return unfad::digamma(x);
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
    sub.effects = effects;
    for (size_t i = 0; i < args.size(); ++i) sub.env.push_back({f->params[i].name, args[i]});
    return sub.run(f->body);
  }

  // The numbers a throw's or an effect's spelling reads, as text.
  std::vector<std::string> argTexts(const std::vector<Expr> &args) {
    std::vector<std::string> texts;
    for (auto &a : args) {
      std::ostringstream os;
      os << num(run(a));
      texts.push_back(os.str());
    }
    return texts;
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
    case Kind::Opaque: {
      auto c = e->as<Opaque>();
      std::vector<double> a;
      for (auto &x : c->args) a.push_back(num(run(x)));
      return Value::of(opaque(c->callee, a, c->type));
    }
    case Kind::Resize: {
      auto r = e->as<Resize>();
      Value a = run(r->array);
      if (!a.array) throw IRError("evaluate: resize of an array of arrays");
      a.array->resize(size_t(num(run(r->size))) * leaves(r->array->type->elem()), 0.0);
      return Value::tuple({});
    }
    case Kind::Throw: throw Thrown(e->as<Throw>()->spelled(argTexts(e->as<Throw>()->args)));
    case Kind::Effect:
      if (effects) effects->push_back(e->as<Effect>()->spelled(argTexts(e->as<Effect>()->args)));
      else argTexts(e->as<Effect>()->args); // (evaluated all the same)
      return Value::tuple({});
    case Kind::Pullback: {
      auto c = e->as<Pullback>();
      std::vector<Value> as;
      for (auto &x : c->args) as.push_back(run(x));
      as.push_back(run(c->cotangent));
      for (auto &b : c->buffers) as.push_back(run(b));
      return callFn(c->withValue ? valueAndPullbackFunctionName(c->callee) : pullbackFunctionName(c->callee), as);
    }
    case Kind::Index: {
      auto x = e->as<Index>();
      Value a = run(x->array);
      long i = long(num(run(x->index))) + long(a.offset);
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
      if (x->array->type->elem()->isArray()) return Value::of(double(a.rows ? long(a.rows->size()) - a.offset : 0));
      return Value::of(double(a.array ? long(a.array->size() / leaves(x->array->type->elem())) - a.offset : 0));
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
      long i = long(num(run(x->index))) + long(a.offset);
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
    case Kind::View: {
      auto v = e->as<View>();
      Value a = run(v->array);
      a.offset += int64_t(num(run(v->offset)));
      return a;
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

Value evaluate(const Program &p, const std::string &fn, const std::vector<Value> &args,
               std::vector<std::string> *effects) {
  Eval e;
  e.prog = &p;
  e.effects = effects;
  return e.callFn(fn, args);
}

Value evaluate(const Program &p, const Expr &ex, const std::vector<std::pair<std::string, Value>> &env,
               std::vector<std::string> *effects) {
  Eval e;
  e.prog = &p;
  e.effects = effects;
  e.env = env;
  return e.run(ex);
}

} // namespace unfad::ir
