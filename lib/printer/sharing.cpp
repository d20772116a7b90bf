// Effects, reads and sharing: which nodes write or read memory, the cache
// of shared nodes' values (and when a write makes one stale), the scopes of
// IR names, and the names a body mentions.
#include "printer.h"

#include "unfad/ir/traverse.h"

#include <unordered_set>

namespace unfad::printer::detail {

namespace {

// The children of a node, in evaluation order (the IR's one list).
template <class F> void forEachChild(const Node *x, F &&f) { ir::forEachChild(*x, f); }

// The C++ names of the arrays `loop` may write, when they are all

} // namespace

bool FnPrinter::flag(const Node *n, unsigned char f) const {
  auto it = flags_.find(n);
  return it != flags_.end() && (it->second & f);
}

void FnPrinter::dropCache(size_t mark) {
  while (cacheLog_.size() > mark) {
    cache_.erase(cacheLog_.back());
    cacheLog_.pop_back();
  }
}

void FnPrinter::push(const std::string &name, CVal v) {
  // a name bound a second time may change what a shared node means (not
  // the unit: every `let _ = store ...` binds `_`)
  if (!everBound_.insert(name).second && !v.type->isUnit()) cache_.clear();
  env_[name].push_back(std::move(v));
  trail_.push_back(name);
}

void FnPrinter::popTo(size_t mark) {
  while (trail_.size() > mark) {
    env_[trail_.back()].pop_back();
    trail_.pop_back();
  }
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

// The C++ names of the arrays `loop` may write, when they are all
// variables bound outside it; otherwise every cached read goes.
void FnPrinter::invalidateLoop(const Expr &loop) {
  if (!flag(loop.get(), kEffects)) return;
  std::set<std::string> written, inner, targets;
  std::unordered_set<const Node *> seen;
  std::vector<const Node *> todo{loop.get()};
  bool ok = true;
  auto target = [&](const Expr &a) {
    auto v = rootArray(a)->as<Var>(); // a view writes its array
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
    case Kind::Resize: target(x->as<Resize>()->array); break;
    case Kind::Call:
      if (calleeWrites(x->as<Call>()->callee))
        for (auto &a : x->as<Call>()->args)
          if (a->type->isArray()) target(a);
      break;
    case Kind::Pullback: for (auto &a : x->as<Pullback>()->buffers) target(a); break;
    case Kind::Const: case Kind::Var: case Kind::Prim: case Kind::If: case Kind::Tuple: case Kind::Proj:
    case Kind::Lambda: case Kind::App: case Kind::Index: case Kind::Size: case Kind::NewArray:
    case Kind::Build: case Kind::Sum: case Kind::View: case Kind::Opaque: case Kind::Throw: case Kind::Effect:
      break; // no write of their own
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
    case Kind::Store: case Kind::NewArray: case Kind::Throw: case Kind::Effect: case Kind::Resize: f |= kEffects; break;
    case Kind::Index: f |= kReads; break;
    case Kind::Call:
      f |= kReads;
      if (calleeWrites(x->as<Call>()->callee)) f |= kEffects;
      break;
    case Kind::Pullback:
      f |= kReads;
      if (!x->as<Pullback>()->buffers.empty()) f |= kEffects;
      break;
    case Kind::Const: case Kind::Var: case Kind::Prim: case Kind::Let: case Kind::If: case Kind::Tuple:
    case Kind::Proj: case Kind::Lambda: case Kind::App: case Kind::Size: case Kind::Fold: case Kind::While:
    case Kind::Build: case Kind::Sum: case Kind::View: case Kind::Opaque: break; // only what their children do
    }
    flags_[x] = f;
  }
}

// `text` without the contents of its string and character literals (their
// words are not names the code uses).
static std::string withoutLiterals(const std::string &text) {
  std::string out;
  char quote = 0;
  for (size_t k = 0; k < text.size(); ++k) {
    char ch = text[k];
    if (quote) {
      if (ch == '\\') ++k;
      else if (ch == quote) quote = 0;
      continue;
    }
    if (ch == '"' || ch == '\'') quote = ch;
    out += ch;
  }
  return out;
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
      if (auto f = primal_.find(x->as<Call>()->callee)) {
        reserveIdents(f->cxx.qualifiedName.empty() ? cxxNameOf(*f) : f->cxx.qualifiedName);
        noteLocalShapes(x->as<Call>()->args, *f);
        noteContainerArrays(x->as<Call>()->args, {}, *f);
      }
      break;
    case Kind::Pullback:
      if (auto f = primal_.find(x->as<Pullback>()->callee)) {
        used_.insert(generatedName(*f, false, x->as<Pullback>()->withValue));
        noteLocalShapes(x->as<Pullback>()->args, *f);
        noteContainerArrays(x->as<Pullback>()->args, x->as<Pullback>()->buffers, *f);
      }
      break;
    case Kind::Opaque: { // (a parameter it names keeps its name: `static_cast<long>(last - first)` of a range)
      std::set<std::string> ids;
      collectIdents(withoutLiterals(x->as<Opaque>()->callee), ids);
      for (const Param &p : gen_.params) ids.erase(p.name);
      std::string kept;
      for (const std::string &id : ids) kept += id + " ";
      reserveIdents(kept);
      break;
    }
    case Kind::Throw: reserveIdents(withoutLiterals(x->as<Throw>()->thrown)); break;
    case Kind::Effect: reserveIdents(withoutLiterals(x->as<Effect>()->spelling)); break;
    case Kind::Resize: // (a std::array has no resize: a resized local is a std::vector)
      if (auto var = x->as<Resize>()->array->as<Var>()) containerArrays_.insert(var->name);
      break;
    case Kind::Lambda: case Kind::App:
      fail("'" + gen_.name + "' still contains a lambda or an application (not optimised?)");
    case Kind::Const: case Kind::Var: case Kind::Prim: case Kind::If: case Kind::Tuple: case Kind::Proj:
    case Kind::Index: case Kind::Size: case Kind::NewArray: case Kind::Store: case Kind::Build: case Kind::Sum:
    case Kind::View:
      break; // binds and names nothing
    }
    forEachChild(x.get(), child);
  }
  computeFlags(e);
}

// A local integer array is `std::vector<long>` unless it is passed to a
// helper parameter of another element type (`const std::vector<size_t>&`),
// which a `std::vector<long>` would not bind to: it takes that type's
// elements. So is a local bool array `std::vector<char>` unless a helper
// takes it as `const std::vector<bool>&`. Keyed by the IR name of the
// array, which is its local's.
void FnPrinter::noteLocalShapes(const std::vector<Expr> &args, const Function &callee) {
  if (callee.cxx.params.size() != callee.params.size()) return;
  for (size_t i = 0; i < args.size() && i < callee.params.size(); ++i) {
    auto var = args[i]->as<Var>();
    const CxxType &param = callee.cxx.params[i];
    if (!var || !var->type->isArray() || !(var->type->elem()->isInt() || var->type->elem()->isBool()) ||
        param.element.empty())
      continue;
    const CxxType &element = param.element.front();
    if (element.kind == CxxType::Kind::Scalar && element.valueSpelling != "long") localShapes_[var->name] = &param;
  }
}

// The arrays given to `callee`'s std::vector parameters, and the adjoint
// buffers of those parameters (one per active array parameter, in order):
// neither a C array nor a std::array would bind there. (A std::array
// parameter takes the small constant-size local a std::array already is.)
void FnPrinter::noteContainerArrays(const std::vector<Expr> &args, const std::vector<Expr> &buffers,
                                    const Function &callee) {
  if (callee.cxx.params.size() != callee.params.size()) return;
  auto note = [&](const Expr &a, size_t param) {
    if (auto var = a->as<Var>(); var && callee.cxx.params[param].kind == CxxType::Kind::Vector)
      containerArrays_.insert(var->name);
  };
  size_t buffer = 0;
  for (size_t i = 0; i < callee.params.size(); ++i) {
    if (i < args.size()) note(args[i], i);
    if (callee.params[i].active && callee.params[i].type->isArray() && buffer < buffers.size())
      note(buffers[buffer++], i);
  }
}

} // namespace unfad::printer::detail
