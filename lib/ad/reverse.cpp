// Reverse mode: UNF^-1 of the Target UNF (Fig. 10), i.e. every primitive
// F(P, J^T P) run forward while the continuation Y is pre-composed with
// P's transpose Jacobian:
//
//   let x_{n+1} = P(x_1..x_n) in
//   let Y' = fun (y_1..y_{n+1}) -> Y(J^T P (y_1..y_{n+1})) in ...
//
// The gradient is Y_final(0, ..., 0, seed). The continuations are linear
// (each is applied once); the optimiser β-reduces them into SSA code.
#include "unfad/ad/reverse.h"
#include "unfad/ad/derivatives.h"
#include "unfad/unf/unf.h"
#include "unfad/ir/mutator.h"

#include <algorithm>
#include <functional>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace unfad::ad {

using namespace unfad::ir;
using unf::Instr;
using unf::Term;

namespace {

using Lets = std::vector<std::pair<std::string, Expr>>;

Expr wrap(const Lets &lets, Expr body) {
  for (auto it = lets.rbegin(); it != lets.rend(); ++it) body = Let::make(it->first, it->second, body);
  return body;
}

// The cotangent type of a value type: floats are their own cotangents,
// structs of floats stay structs, passive values have the unit cotangent.
TypeP cotangentType(const TypeP &t) {
  if (t->isFloat()) return t;
  if (t->isTuple()) {
    std::vector<TypeP> es;
    bool allSame = true;
    for (auto &e : t->elems) {
      es.push_back(cotangentType(e));
      allSame &= sameType(es.back(), e);
    }
    if (t->isStruct() && allSame) return t;
    return Type::tuple(std::move(es));
  }
  return Type::tuple({});
}

Expr makeTuple(const TypeP &t, std::vector<Expr> es) {
  return t->isStruct() ? ir::Tuple::makeStruct(t, std::move(es)) : ir::Tuple::make(std::move(es));
}

// Cotangent addition (the monoid of Fig. 5's "+" lifted to tuples).
Expr addCt(const Expr &a, const Expr &b) {
  if (a->type->isScalar()) return Prim::make(Op::Add, {a, b});
  std::vector<Expr> es;
  for (int i = 0; i < int(a->type->elems.size()); ++i) es.push_back(addCt(Proj::make(a, i), Proj::make(b, i)));
  return makeTuple(a->type, std::move(es));
}

// Adjoint arrays hold elements of the primal's type (an array of structs
// has an array of structs as its adjoint); a struct with passive fields has
// a plain tuple as its cotangent. These convert between the two: passive
// leaves are 0 in an adjoint element and the unit in a cotangent.
Expr asElement(const Expr &ct, const TypeP &t) {
  if (sameType(ct->type, t)) return ct;
  if (!t->isStruct()) return Const::zero(t);
  std::vector<Expr> es;
  for (int k = 0; k < int(t->elems.size()); ++k) es.push_back(asElement(Proj::make(ct, k), t->elems[size_t(k)]));
  return ir::Tuple::makeStruct(t, std::move(es));
}

Expr asCotangent(const Expr &e) {
  TypeP ct = cotangentType(e->type);
  if (sameType(ct, e->type)) return e;
  if (!e->type->isStruct()) return ir::Tuple::make({});
  std::vector<Expr> es;
  for (int k = 0; k < int(e->type->elems.size()); ++k) es.push_back(asCotangent(Proj::make(e, k)));
  return makeTuple(ct, std::move(es));
}

bool needsPullback(const Function &g);

struct Slot {
  Expr value;       // forward value: a variable or a constant
  std::string hint; // readable name, for the slot's cotangent "d_<hint>"
};

class Reverser {
public:
  Reverser(const Program &p, NameSupply &names) : prog_(p), names_(names) {}

  // Runs term `t` from `stack`. With Y == nullptr only the forward values
  // are computed (Source UNF^-1); otherwise Y is pre-composed at each step.
  void build(const Term &t, std::vector<Slot> &stack, Expr *Y, Lets &lets) {
    for (auto &in : t.instrs) step(in, stack, Y, lets);
  }

  std::string fresh(const std::string &h) { return names_.fresh(h); }

private:
  const Program &prog_;
  NameSupply &names_;

  Expr bind(Lets &lets, const std::string &hint, Expr v) {
    std::string n = fresh(hint.empty() ? "t" : hint);
    lets.push_back({n, v});
    return Var::make(n, v->type);
  }

  static std::string ctHint(const Slot &s) {
    std::string h = s.hint;
    if (auto v = s.value->as<Var>()) h = v->name;
    if (h.empty() || h == "t") h = "t";
    return "d_" + h;
  }

  // Binders y_1..y_m for the cotangents of the slots of `stack`.
  std::vector<Binder> cotangentBinders(const std::vector<Slot> &stack) {
    std::vector<Binder> ys;
    for (auto &s : stack) ys.push_back({fresh(ctHint(s)), cotangentType(s.value->type)});
    return ys;
  }

  static std::vector<Expr> vars(const std::vector<Binder> &bs) {
    std::vector<Expr> vs;
    for (auto &b : bs) vs.push_back(Var::make(b.name, b.type));
    return vs;
  }

  // Y' = fun ys -> (inner lets) Y(args); returns the new continuation var.
  void precompose(Expr *Y, Lets &lets, const std::vector<Binder> &ys, const Lets &inner, std::vector<Expr> args) {
    Expr body = wrap(inner, App::make(*Y, std::move(args)));
    *Y = bind(lets, "Y", Lambda::make(ys, body));
  }

  // Cotangent buffers of arrays (by the array variable's name): d_x for an
  // array parameter x, a zero buffer allocated beside each local array.
  // Array cotangents are accumulated in place; in the continuation an
  // array slot carries the unit cotangent.
  std::unordered_map<std::string, Expr> buffers_;
  // Sizes of local arrays (their contents can be saved and restored).
  std::unordered_map<std::string, Expr> sizes_;
  int recomputing_ = 0; // > 0 inside a local gradient (forward recomputed)
  bool pullback_ = false; // differentiating a helper: its call already wrote its outputs
  // Whether forward code being generated repeats writes to parameter arrays
  // already done (a recomputation, or a helper's pullback after its call).
  bool replaying() const { return recomputing_ > 0 || pullback_; }

  // Values a loop's forward pass tapes besides its state: the results of
  // the body's helper calls and inner loops (scalar floats), which its
  // local gradient would otherwise recompute (a call's value for the
  // partials around it, an inner loop's for the ones after it). While the
  // body is recomputed, such an instruction reads its tape instead; the
  // recomputation it no longer feeds is dead code. One value per
  // iteration: memory stays linear in the run time.
  std::unordered_map<const Instr *, Expr> taped_;          // instr -> tape read (recomputation)
  std::vector<std::pair<const Instr *, Expr>> *capture_ = nullptr; // instr -> value (forward pass)


  static bool worthTaping(const Instr &in) {
    bool expensive = in.kind == Instr::Kind::Call || in.kind == Instr::Kind::Fold || in.kind == Instr::Kind::While ||
                     in.kind == Instr::Kind::Sum || (in.kind == Instr::Kind::Op && partialsUseResult(in.op));
    return expensive && in.type && in.type->isFloat();
  }

  // In a sum, whose J^T recomputes each element anyway, only calls and
  // loops: a tape of n primitive results costs more memory traffic (and
  // page faults for large n) than recomputing them saves.
  static bool worthTapingInSum(const Instr &in) { return worthTaping(in) && in.kind != Instr::Kind::Op; }

  // Transcendental primitives whose partials are written with their result
  // (exp' = exp, tanh' = 1 - tanh², ...): a tape read replaces both the
  // recomputation and, when nothing else needs them, their arguments'.
  static bool partialsUseResult(Op op) {
    switch (op) {
    case Op::Exp: case Op::Exp2: case Op::Expm1: case Op::Tanh: case Op::Tan: case Op::Sqrt: case Op::Cbrt:
    case Op::Pow: case Op::Hypot: return true;
    default: return false;
    }
  }

  // The forward code of a loop body run on `stack`, capturing the values of
  // its top-level instructions worth taping: its lets, and its result.
  Expr forwardCapturing(const Term &t, const std::vector<Slot> &stack, Lets &out,
                        std::vector<std::pair<const Instr *, Expr>> &captured,
                        bool (*worth)(const Instr &) = worthTaping) {
    for (auto &in : t.instrs)
      if (worth(in)) captured.push_back({&in, nullptr});
    auto *outer = capture_;
    capture_ = &captured;
    std::vector<Slot> s = stack;
    build(t, s, nullptr, out);
    capture_ = outer;
    return s.back().value;
  }

  // Tapes (one entry per iteration, at `at`) for the captured values; the
  // stores go after the body's lets. Returns instr -> tape.
  std::vector<std::pair<const Instr *, Expr>> tapeValues(const std::vector<std::pair<const Instr *, Expr>> &captured,
                                                        const Expr &n, const Expr &at, Lets &lets, Lets &body) {
    std::vector<std::pair<const Instr *, Expr>> tapes;
    for (auto &[in, value] : captured) {
      if (!value || value->is<Const>()) continue;
      Expr tape = bind(lets, "tape_" + (in->hint.empty() ? std::string("t") : in->hint), NewArray::make(n, value->type, true));
      bind(body, "_", Store::make(tape, at, value, Store::Mode::Set));
      tapes.push_back({in, tape});
    }
    return tapes;
  }

  // The function's array parameters (their stores are not redone when a
  // body is recomputed).
  std::unordered_set<std::string> params_;

  // Whether calling `callee` on `args` writes one of the parameter arrays.
  bool writesOutput(const std::string &callee, const std::vector<Expr> &args) const {
    const Function *g = prog_.find(callee);
    for (size_t k = 0; k < args.size(); ++k)
      if (auto v = args[k]->as<Var>(); v && params_.count(v->name) && (!g || g->params[k].written)) return true;
    return false;
  }

  Expr withoutOutputStores(const Expr &e) const {
    struct M : Mutator {
      const Reverser *self;
      Expr visit(const Store *n, const Expr &me) override {
        auto a = n->array->as<Var>();
        return a && self->params_.count(a->name) ? ir::Tuple::make({}) : Mutator::visit(n, me);
      }
      Expr visit(const Call *n, const Expr &me) override {
        return n->type->isUnit() && self->writesOutput(n->callee, n->args) ? ir::Tuple::make({}) : Mutator::visit(n, me);
      }
    } m;
    m.self = this;
    return m.mutate(e);
  }

public:
  void setBuffer(const std::string &array, Expr buffer) { buffers_[array] = std::move(buffer); }
  void setParamArray(const std::string &name) { params_.insert(name); }
  void setPullback() { pullback_ = true; }

private:
  // The local arrays read by the loops whose bodies are being recomputed
  // (innermost last).
  struct Enclosing {
    const std::set<std::string> *reads; // the local arrays its body reads
    std::set<std::string> known;        // the local arrays allocated outside it
  };
  std::vector<Enclosing> enclosingReads_;

  Expr bufferOf(const Expr &array) {
    auto v = array->as<Var>();
    if (!v) throw IRError("reverse: array value that is not a variable");
    auto it = buffers_.find(v->name);
    return it == buffers_.end() ? nullptr : it->second;
  }

  static std::vector<Expr> values(const std::vector<Slot> &stack) {
    std::vector<Expr> vs;
    for (auto &s : stack) vs.push_back(s.value);
    return vs;
  }

  // Runs the forward part of `in` (UNF^-1, shared with the source
  // translation) and updates the slots.
  void forwardStep(const Instr &in, std::vector<Slot> &stack, Lets &lets) {
    // Recomputing a body in the reverse sweep need not redo its stores to
    // parameter arrays: nothing reads them back (outputs are write-only),
    // and the forward pass already wrote the same values.
    if (replaying() && in.kind == Instr::Kind::Store)
      if (auto a = stack[stack.size() - 3].value->as<Var>(); a && !sizes_.count(a->name)) {
        stack.push_back({ir::Tuple::make({}), in.hint});
        return;
      }
    // Nor its calls that only write outputs (void helpers given a parameter array).
    if (replaying() && in.kind == Instr::Kind::Call && in.type->isUnit()) {
      std::vector<Expr> args;
      for (size_t k = stack.size() - in.arity; k < stack.size(); ++k) args.push_back(stack[k].value);
      if (writesOutput(in.callee, args)) {
        stack.push_back({ir::Tuple::make({}), in.hint});
        return;
      }
    }
    std::vector<Expr> vals = values(stack);
    unf::forwardStep(in, vals, lets, names_);
    // ... nor in the branches and loops nested in the instruction.
    if (replaying() && !in.branches.empty() && !params_.empty()) lets.back().second = withoutOutputStores(lets.back().second);
    if (in.kind == Instr::Kind::Drop) {
      stack.erase(stack.begin() + in.index, stack.begin() + in.index + in.arity);
      return;
    }
    if (in.kind == Instr::Kind::Tuple) stack.resize(stack.size() - in.arity);
    stack.push_back({vals.back(), in.hint});
    // A row a[i] of an array of arrays: its cotangent buffer is d_a[i].
    if (in.kind == Instr::Kind::Index && in.type->isArray())
      if (auto v = vals.back()->as<Var>())
        if (Expr buf = bufferOf(stack[stack.size() - 3].value))
          buffers_[v->name] = Index::make(buf, stack[stack.size() - 2].value);
    // A local array (new or build) gets its cotangent buffer next to it.
    if (in.kind == Instr::Kind::New || in.kind == Instr::Kind::Build)
      if (auto v = vals.back()->as<Var>()) {
        sizes_[v->name] = stack[stack.size() - 2].value;
        if (isActive(in.type))
          buffers_[v->name] = bind(lets, "d_" + v->name, NewArray::make(stack[stack.size() - 2].value, in.type->elem()));
      }
  }

  void step(const Instr &in, std::vector<Slot> &stack, Expr *Y, Lets &lets) {
    const int N = int(stack.size());
    Expr forced; // the value read from a tape, when recomputing a taped instruction
    if (Y)
      if (auto it = taped_.find(&in); it != taped_.end()) forced = bind(lets, in.hint, it->second);
    if (Y && (in.kind == Instr::Kind::Fold || in.kind == Instr::Kind::While)) {
      loop(in, stack, Y, lets, forced);
      return;
    }
    if (Y && (in.kind == Instr::Kind::Build || in.kind == Instr::Kind::Sum)) {
      parallel(in, stack, Y, lets, forced);
      return;
    }
    std::vector<Slot> before = stack;
    // A branch that reads a local array it also writes is recomputed by the
    // J^T from the memory it started from: the elements its stores
    // overwrite are kept (in one-entry tapes) and put back before the J^T;
    // arrays written otherwise (in a loop in the branch) are copied whole.
    std::set<std::string> branchArrays;
    std::vector<std::pair<Expr, Expr>> branchCopies;
    // A call that writes a local array: a copy taken before, put back by its
    // J^T (recomputations earlier in the sweep read what it held).
    std::vector<std::pair<Expr, Expr>> callCopies;
    if (Y && in.kind == Instr::Kind::Call)
      if (const Function *g = prog_.find(in.callee)) {
        std::set<std::string> written;
        for (int k = 0; k < in.arity; ++k)
          if (auto v = stack[N - in.arity + k].value->as<Var>(); v && g->params[k].written && sizes_.count(v->name))
            written.insert(v->name);
        callCopies = snapshot(written, stack, lets);
      }
    if (Y && in.kind == Instr::Kind::If) {
      std::set<std::string> rd, wr;
      for (auto &b : in.branches) localArrays(forwardOnly(b, stack), rd, wr);
      // (every array a branch writes: a loop before the `if`, recomputed
      // later in the sweep, may read what the branch overwrote)
      branchArrays = wr;
    }
    // A store into a local array saves the element it overwrites; its J^T
    // puts it back (recomputations earlier in the sweep read it).
    Expr overwritten;
    if (Y && in.kind == Instr::Kind::Store)
      if (auto a = stack[N - 3].value->as<Var>(); a && sizes_.count(a->name))
        overwritten = bind(lets, "old_" + a->name, Index::make(stack[N - 3].value, stack[N - 2].value));
    if (forced) stack.push_back({forced, in.hint});
    else forwardStep(in, stack, lets);
    std::vector<std::pair<Expr, std::vector<UndoSite>>> branchUndo; // (array, its stores' sites)
    if (!branchArrays.empty()) {
      auto [name, value] = lets.back(); // the `if`
      lets.pop_back();
      std::set<std::string> whole;
      for (auto &a : branchArrays) {
        Expr array;
        for (auto &slot : before)
          if (auto v = slot.value->as<Var>(); v && v->name == a) array = slot.value;
        if (!array) continue;
        std::vector<UndoSite> sites;
        Lets starts;
        Expr one = Const::makeInt(1), zero = Const::makeInt(0);
        if (Expr instrumented = tapeOverwrites(value, array, one, zero, lets, starts, sites)) {
          value = instrumented;
          lets.insert(lets.end(), starts.begin(), starts.end());
          branchUndo.push_back({array, sites});
        } else {
          whole.insert(a);
        }
      }
      branchCopies = snapshot(whole, before, lets);
      lets.push_back({name, value});
    }
    if (capture_)
      for (auto &[ci, v] : *capture_)
        if (ci == &in) v = stack.back().value;
    if (!Y) return;
    auto ys = cotangentBinders(stack);
    auto vs = vars(ys);
    Lets inner;
    switch (in.kind) {
    case Instr::Kind::Const: case Instr::Kind::Size: case Instr::Kind::New:
      vs.pop_back(); // J^T: the cotangent is forgotten
      break;
    case Instr::Kind::Var: { // J^T var_i: y_i += y_{n+1}
      Expr top = vs.back();
      vs.pop_back();
      vs[in.index] = addCt(vs[in.index], top);
      break;
    }
    case Instr::Kind::Op: { // J^T op: y_{arg k} += ∂_k op * y_result
      Expr z = vs.back(), r = stack.back().value;
      vs.pop_back();
      std::vector<Expr> args;
      for (int k = N - in.arity; k < N; ++k) args.push_back(before[k].value);
      if (in.op == Op::Cast) {
        if (args[0]->type->isFloat() && in.type->isFloat())
          vs[N - 1] = addCt(vs[N - 1], Prim::makeCast(z, args[0]->type));
      } else {
        auto ds = partials(in.op, args, r);
        for (int k = 0; k < in.arity; ++k)
          if (ds[k]) vs[N - in.arity + k] = addCt(vs[N - in.arity + k], Prim::make(Op::Mul, {ds[k], z}));
      }
      break;
    }
    case Instr::Kind::Elem: { // J^T π_i: the tuple's cotangent gets y_result in component i
      Expr z = vs.back();
      vs.pop_back();
      Expr yt = vs.back();
      if (isActive(in.type)) {
        std::vector<Expr> es;
        for (int j = 0; j < int(yt->type->elems.size()); ++j) {
          Expr c = Proj::make(yt, j);
          es.push_back(j == in.index ? addCt(c, z) : c);
        }
        vs.back() = makeTuple(yt->type, std::move(es));
      }
      break;
    }
    case Instr::Kind::Tuple: { // J^T tuple: split the cotangent into its components
      Expr z = vs.back();
      vs.pop_back();
      for (int k = 0; k < in.arity; ++k) vs.push_back(Proj::make(z, k));
      break;
    }
    case Instr::Kind::Call: { // J^T call g: g's pullback, generated once for g (compositional)
      Expr z = vs.back();
      vs.pop_back();
      const Function *g = prog_.find(in.callee);
      if (!g) throw IRError("reverse: call to unknown function " + in.callee);
      if (!needsPullback(*g)) {
        restore(callCopies, inner);
        break;
      }
      std::vector<Expr> args, buffers;
      for (int k = N - in.arity; k < N; ++k) args.push_back(before[k].value);
      for (int k = 0; k < in.arity; ++k) {
        if (!g->params[k].active || !g->params[k].type->isArray()) continue;
        Expr b = bufferOf(args[k]);
        // An array without a cotangent buffer (passive here) still needs
        // somewhere for the pullback to accumulate: a scratch buffer.
        buffers.push_back(b ? b : bind(inner, "scratch", NewArray::make(ir::Size::make(args[k]), args[k]->type->elem())));
      }
      Expr pb = bind(inner, "d_" + (in.hint.empty() || in.hint == "t" ? g->cxx.name : in.hint) + "_args",
                     Pullback::make(g->name, args, g->result->isStruct() ? asElement(z, g->result) : z,
                                    pullbackResultType(*g), buffers));
      int a = 0;
      for (int k = 0; k < in.arity; ++k) {
        if (!g->params[k].active) continue;
        int s = N - in.arity + k;
        vs[s] = addCt(vs[s], asCotangent(Proj::make(pb, a++))); // (a struct arrives whole)
      }
      restore(callCopies, inner);
      break;
    }
    case Instr::Kind::Drop: { // J^T proj: the forgotten slots get zero cotangents
      std::vector<Expr> zs;
      for (int k = in.index; k < in.index + in.arity; ++k) zs.push_back(Const::zero(cotangentType(before[k].value->type)));
      vs.insert(vs.begin() + in.index, zs.begin(), zs.end());
      break;
    }
    case Instr::Kind::Index: { // J^T a[i]: d_a[i] += y_result, in place
      Expr z = vs.back();
      vs.pop_back();
      // (a row a[i] of an array of arrays has d_a[i] as its buffer: its
      // reads accumulate there directly, see forwardStep)
      if (in.type->isArray()) break;
      if (Expr buf = isActive(in.type) ? bufferOf(before[N - 2].value) : nullptr)
        bind(inner, "_", Store::make(buf, before[N - 1].value, asElement(z, in.type), Store::Mode::Add));
      break;
    }
    case Instr::Kind::Store: {
      // J^T a[i] = v: y_v += d_a[i]; d_a[i] = 0 (the old a[i] is gone).
      // J^T a[i] += v: y_v += d_a[i].
      // (with a field path p: d_a[i].p instead of d_a[i])
      vs.pop_back();
      Expr arr = before[N - 3].value, idx = before[N - 2].value;
      if (Expr buf = isActive(arr->type) ? bufferOf(arr) : nullptr) {
        Expr elem = Index::make(buf, idx);
        for (int k : in.path) elem = Proj::make(elem, k);
        Expr d = bind(inner, "d_" + (arr->is<Var>() ? arr->as<Var>()->name : std::string("a")) + "_i", elem);
        if (!in.addStore) bind(inner, "_", Store::make(buf, idx, Const::zero(d->type), Store::Mode::Set, in.path));
        vs[N - 1] = addCt(vs[N - 1], asCotangent(d));
      }
      if (overwritten) bind(inner, "_", Store::make(arr, idx, overwritten, Store::Mode::Set));
      break;
    }
    case Instr::Kind::If: {
      // §7.2: record the branch taken; the continuation stays linear and
      // runs only the taken branch's local gradient:
      //   Y' = fun ys -> Y(if b then ∇branch1(ys) else ∇branch2(ys))
      Expr cond = before.back().value;
      restore(branchCopies, inner);
      for (auto &[array, sites] : branchUndo) undoStores(array, sites, Const::makeInt(0), inner);
      Expr grads[2];
      for (int k = 0; k < 2; ++k) grads[k] = localGradient(in.branches[k], before, {}, vars(ys));
      Expr g = bind(inner, "d_branch", If::make(cond, grads[0], grads[1]));
      vs.clear();
      for (int j = 0; j < N; ++j) vs.push_back(Proj::make(g, j));
      break;
    }
    case Instr::Kind::Fold: case Instr::Kind::While: break; // handled by loop()
    case Instr::Kind::Build: case Instr::Kind::Sum: break;  // handled by parallel()
    }
    precompose(Y, lets, ys, inner, vs);
  }

  // The reverse pass of a term run from `ctx` plus `extra` slots, from the
  // identity continuation: the cotangents of ctx+extra given `cts`, the
  // cotangents of ctx+extra+result. Its forward values are recomputed.
  Expr localGradient(const Term &t, const std::vector<Slot> &ctx, const std::vector<Slot> &extra,
                     const std::vector<Expr> &cts) {
    std::vector<Slot> s = ctx;
    s.insert(s.end(), extra.begin(), extra.end());
    Lets bl;
    auto zs = cotangentBinders(s);
    Expr Yb = bind(bl, "Y", Lambda::make(zs, ir::Tuple::make(vars(zs))));
    ++recomputing_;
    build(t, s, &Yb, bl);
    --recomputing_;
    return wrap(bl, App::make(Yb, cts));
  }

  // Slots of the enclosing context (index < n) that a term refers to.
  static void referencedSlots(const Term &t, int n, std::set<int> &out) {
    for (auto &in : t.instrs) {
      if (in.kind == Instr::Kind::Var && in.index < n) out.insert(in.index);
      for (auto &b : in.branches) referencedSlots(b, n, out);
    }
  }

  // Scalar leaves of a state value, and the state rebuilt from leaves.
  static void leaves(const Expr &v, std::vector<Expr> &out) {
    if (v->type->isTuple()) {
      for (int k = 0; k < int(v->type->elems.size()); ++k) leaves(Proj::make(v, k), out);
    } else {
      out.push_back(v);
    }
  }
  static Expr rebuild(const TypeP &t, const std::vector<Expr> &ls, size_t &pos) {
    if (!t->isTuple()) return ls.at(pos++);
    std::vector<Expr> es;
    for (auto &e : t->elems) es.push_back(rebuild(e, ls, pos));
    return makeTuple(t, std::move(es));
  }

  // F(fold, J^T fold) and F(while, J^T while). Forward: the loop runs once,
  // recording its state at the start of every iteration on a tape (one
  // buffer per scalar of the state: memory linear in the run time). A while
  // loop first counts its iterations, then replays them as a fold. J^T: a
  // fold in the opposite direction restores each iteration's state,
  // recomputes the body and applies the body's local reverse pass; the
  // cotangents of the state and of the outer scalars the body reads are
  // its state, array cotangents go to their buffers in place.
  void loop(const Instr &in, std::vector<Slot> &stack, Expr *Y, Lets &lets, const Expr &forced) {
    const bool isWhile = in.kind == Instr::Kind::While;
    const int N = int(stack.size()); // includes the loop's arguments
    const Slot init = stack.back();
    const TypeP st = in.type;
    Expr lo, hi;
    Term body = isWhile ? in.branches[1] : in.branches[0];
    Expr count;
    std::vector<std::pair<Expr, Expr>> beforeCount; // local arrays as they were before counting
    if (isWhile) {
      // Count the iterations: while (cond) (s, k) := (body(s), k + 1).
      std::string sc = fresh(in.state + "_count");
      Expr scv = Var::make(sc, Type::tuple({st, Type::i64()}));
      Expr s0 = Proj::make(scv, 0), k = Proj::make(scv, 1);
      std::vector<Slot> cs = stack;
      cs.push_back({Const::makeInt(0), "iteration"});
      cs.push_back({s0, in.state});
      Expr cond = forwardOnly(in.branches[0], cs);
      Expr next = forwardOnly(body, cs);
      // Counting runs the body, stores included; the replay below must start
      // from the same memory: local arrays it writes are copied first and put
      // back after, and its writes to outputs wait for the replay.
      std::set<std::string> rd, wr;
      localArrays(cond, rd, wr);
      localArrays(next, rd, wr);
      beforeCount = snapshot(wr, stack, lets);
      if (!params_.empty()) next = withoutOutputStores(next);
      Expr counted = bind(lets, in.state + "_count",
                          While::make(ir::Tuple::make({init.value, Const::makeInt(0)}), sc,
                                      cond, ir::Tuple::make({next, Prim::make(Op::Add, {k, Const::makeInt(1)})})));
      restore(beforeCount, lets);
      lo = Const::makeInt(0);
      hi = bind(lets, "iterations", Proj::make(counted, 1));
    } else {
      lo = stack[N - 3].value;
      hi = stack[N - 2].value;
    }
    // The tape, and the forward loop that fills it.
    // The trip count, never negative (a loop may start past its bound).
    Expr n = isWhile ? hi
                     : bind(lets, "n", If::make(Prim::make(Op::Lt, {lo, hi}), Prim::make(Op::Sub, {hi, lo}), Const::makeInt(0)));
    std::string i = fresh(isWhile ? "iteration" : in.indexName), s = fresh(in.state);
    Expr iv = Var::make(i, Type::i64()), sv = Var::make(s, st);
    Expr at = Prim::make(Op::Sub, {iv, lo});
    std::vector<Expr> stateLeaves;
    leaves(sv, stateLeaves);
    std::vector<Expr> tapes;
    for (auto &l : stateLeaves) tapes.push_back(bind(lets, "tape_" + in.state, NewArray::make(n, l->type, true)));
    Lets fl;
    for (size_t k = 0; k < tapes.size(); ++k) bind(fl, "_", Store::make(tapes[k], at, stateLeaves[k], Store::Mode::Set));
    std::vector<Slot> bs = stack;
    bs.push_back({iv, i});
    bs.push_back({sv, in.state});
    Lets fbl;
    std::vector<std::pair<const Instr *, Expr>> captured;
    Expr fwdResult = forwardCapturing(body, bs, fbl, captured);
    auto valueTapes = tapeValues(captured, n, at, lets, fbl);
    Expr fwdBody = wrap(fbl, fwdResult);
    // Local arrays the loop writes are restored to their state before the
    // loop when its J^T is done (so earlier recomputations read what the
    // forward pass read); those it also reads are saved at the start of
    // every iteration and restored before the iteration is recomputed.
    std::set<std::string> rd, wr;
    localArrays(fwdBody, rd, wr);
    if (isWhile) localArrays(forwardOnly(in.branches[0], bs), rd, wr);
    // (a while loop's copies from before its counting pass are those)
    std::vector<std::pair<Expr, Expr>> copies = beforeCount;
    std::set<std::string> uncopied = wr;
    for (auto &c : copies) uncopied.erase(c.first->as<Var>()->name);
    // Inside the recomputation of an enclosing loop that never reads an
    // array it did not allocate itself, nothing needs the array back before
    // the enclosing loop's own restore (without this, a fill loop nested in
    // another copied the whole array once per outer iteration).
    std::set<std::string> unrestored;
    if (!enclosingReads_.empty()) {
      const Enclosing &e = enclosingReads_.back();
      for (auto &a : uncopied)
        if (e.known.count(a) && !e.reads->count(a)) unrestored.insert(a);
      for (auto &a : unrestored) uncopied.erase(a);
    }
    for (auto &c : snapshot(uncopied, stack, lets)) copies.push_back(c);
    std::vector<Expr> touched; // every array the loop writes: copied, or not
    for (auto &c : copies) touched.push_back(c.first);
    for (auto &a : unrestored)
      if (Expr v = arrayNamed(a, stack)) touched.push_back(v);
    struct Saved {
      Expr array, len, perIteration;
      std::vector<UndoSite> undo; // the stores of an iteration, in program order
    };
    std::vector<Saved> saved;
    for (auto &array : touched) {
      const std::string &a = array->as<Var>()->name;
      Saved sv;
      sv.array = array;
      sv.len = sizes_.at(a);
      if (rd.count(a)) {
        // Written only by stores (in branches or not): tape what each
        // overwrites; otherwise save the whole array every iteration.
        if (Expr instrumented = tapeOverwrites(fwdBody, sv.array, n, at, lets, fl, sv.undo)) {
          fwdBody = instrumented;
        } else {
          sv.perIteration = bind(lets, "tape_" + a, NewArray::make(Prim::make(Op::Mul, {n, sv.len}), sv.array->type->elem(), true));
          bind(fl, "_", copyLoop(sv.perIteration, Prim::make(Op::Mul, {at, sv.len}), sv.array, Const::makeInt(0), sv.len));
        }
      }
      saved.push_back(sv);
    }
    Expr next = wrap(fl, fwdBody);
    Expr r = bind(lets, in.hint, Fold::make(lo, hi, init.value, i, s, next, in.reversedLoop));
    stack.push_back({forced ? forced : r, in.hint});

    // J^T loop.
    auto ys = cotangentBinders(stack);
    auto vs = vars(ys);
    std::set<int> refs;
    referencedSlots(body, N, refs);
    if (isWhile) referencedSlots(in.branches[0], N, refs);
    std::vector<int> free;
    for (int f : refs)
      if (!cotangentType(stack[f].value->type)->isUnit()) free.push_back(f);
    std::vector<Expr> init_b{vs[N]};
    std::vector<TypeP> bt{vs[N]->type};
    for (int f : free) {
      init_b.push_back(Const::zero(vs[f]->type));
      bt.push_back(vs[f]->type);
    }
    std::string j = fresh(isWhile ? "iteration" : in.indexName), b = fresh("d_" + in.state + "_loop");
    Expr jv = Var::make(j, Type::i64()), bv = Var::make(b, Type::tuple(bt));
    // Restore the iteration's state from the tape.
    Lets bl;
    std::vector<Expr> restored;
    for (auto &t : tapes) restored.push_back(Index::make(t, Prim::make(Op::Sub, {jv, lo})));
    size_t pos = 0;
    Expr sj = bind(bl, in.state, rebuild(st, restored, pos));
    for (auto &sv : saved) {
      if (sv.perIteration)
        bind(bl, "_", copyLoop(sv.array, Const::makeInt(0), sv.perIteration,
                               Prim::make(Op::Mul, {Prim::make(Op::Sub, {jv, lo}), sv.len}), sv.len));
      undoStores(sv.array, sv.undo, Prim::make(Op::Sub, {jv, lo}), bl); // memory as the iteration found it
    }
    std::vector<Slot> ctx(stack.begin(), stack.begin() + N);
    std::vector<Expr> cts;
    for (int k = 0; k < N + 2; ++k) {
      TypeP ct = k < N ? vs[k]->type : k == N ? Type::unit() : cotangentType(st);
      cts.push_back(Const::zero(ct));
    }
    cts.push_back(Proj::make(bv, 0));
    for (auto &[ti, tape] : valueTapes) taped_[ti] = Index::make(tape, Prim::make(Op::Sub, {jv, lo}));
    {
      Enclosing e{&rd, {}};
      for (auto &[a, len] : sizes_) e.known.insert(a);
      enclosingReads_.push_back(std::move(e));
    }
    Expr g = bind(bl, "d_body", localGradient(body, ctx, {{jv, j}, {sj, in.state}}, cts));
    enclosingReads_.pop_back();
    for (auto &[ti, tape] : valueTapes) taped_.erase(ti);
    std::vector<Expr> nb{Proj::make(g, N + 1)};
    for (size_t k = 0; k < free.size(); ++k) nb.push_back(addCt(Proj::make(bv, int(k) + 1), Proj::make(g, free[k])));
    Expr backward = Fold::make(lo, hi, ir::Tuple::make(init_b), j, b, wrap(bl, ir::Tuple::make(nb)), !in.reversedLoop);
    Lets inner;
    Expr bk = bind(inner, "d_" + in.state + "_loop", backward);
    restore(copies, inner);
    std::vector<Expr> args(vs.begin(), vs.begin() + N);
    args[N - 1] = addCt(args[N - 1], Proj::make(bk, 0)); // the initial state
    for (size_t k = 0; k < free.size(); ++k) args[free[k]] = addCt(args[free[k]], Proj::make(bk, int(k) + 1));
    precompose(Y, lets, ys, inner, args);
  }

  // F(build, J^T build) and F(sum, J^T sum) (Knossos §4, UNF App. A): the
  // iterations are independent, so the forward value needs no tape, and J^T
  // is one loop (in any order) that recomputes each element's code and runs
  // its local reverse pass with the element's cotangent:
  //   J^T sum lo hi (i -> e):  for i in [lo, hi): ∇e(i) · ȳ       (ȳ the same for every i)
  //   J^T build n (i -> e):    for i in [0, n):   ∇e(i) · d_y[i]  (d_y the array's buffer)
  // As for folds, the cotangents of the outer scalars e reads are the loop's
  // state; array cotangents go to their buffers in place.
  void parallel(const Instr &in, std::vector<Slot> &stack, Expr *Y, Lets &lets, const Expr &forced) {
    const bool isBuild = in.kind == Instr::Kind::Build;
    const int N = int(stack.size()); // includes the arguments (n, or lo and hi)
    Expr lo = isBuild ? Const::makeInt(0) : stack[N - 2].value, hi = stack[N - 1].value;
    const Term &elem = in.branches[0];
    std::vector<std::pair<const Instr *, Expr>> valueTapes;
    if (!isBuild && std::any_of(elem.instrs.begin(), elem.instrs.end(), worthTapingInSum)) {
      // A sum whose element calls a helper or runs a loop is computed as
      // the fold s + e(i) (the same order of additions), taping those values.
      Expr n = bind(lets, "n", If::make(Prim::make(Op::Lt, {lo, hi}), Prim::make(Op::Sub, {hi, lo}), Const::makeInt(0)));
      std::string i = fresh(in.indexName), acc = fresh(in.hint.empty() ? "sum" : in.hint);
      Expr iv = Var::make(i, Type::i64()), accv = Var::make(acc, in.type);
      std::vector<Slot> es(stack.begin(), stack.end());
      es.push_back({iv, i});
      Lets fbl;
      std::vector<std::pair<const Instr *, Expr>> captured;
      Expr e = forwardCapturing(elem, es, fbl, captured, worthTapingInSum);
      valueTapes = tapeValues(captured, n, Prim::make(Op::Sub, {iv, lo}), lets, fbl);
      Expr next = bind(fbl, acc, Prim::make(Op::Add, {accv, e}));
      Expr r = bind(lets, in.hint, Fold::make(lo, hi, Const::zero(in.type), i, acc, wrap(fbl, next)));
      stack.push_back({r, in.hint});
    } else {
      forwardStep(in, stack, lets); // binds the build/sum; a build gets its cotangent buffer
    }
    if (forced) stack.back().value = forced;
    auto ys = cotangentBinders(stack);
    auto vs = vars(ys);
    std::vector<Expr> args(vs.begin(), vs.begin() + N);
    Expr buf = isBuild ? bufferOf(stack.back().value) : nullptr;
    Lets inner;
    if (!isBuild || buf) {
      std::set<int> refs;
      referencedSlots(in.branches[0], N, refs);
      std::vector<int> free;
      std::vector<Expr> init;
      std::vector<TypeP> types;
      for (int f : refs)
        if (!cotangentType(stack[f].value->type)->isUnit()) {
          free.push_back(f);
          init.push_back(Const::zero(vs[f]->type));
          types.push_back(vs[f]->type);
        }
      std::string j = fresh(in.indexName), b = fresh("d_" + (in.hint.empty() ? std::string("e") : in.hint) + "_loop");
      Expr jv = Var::make(j, Type::i64()), bv = Var::make(b, Type::tuple(types));
      Lets bl;
      Expr ct = isBuild ? bind(bl, ctHint(stack.back()) + "_i", Index::make(buf, jv)) : vs[N];
      std::vector<Expr> cts;
      for (int k = 0; k <= N; ++k) cts.push_back(Const::zero(k < N ? vs[k]->type : Type::unit()));
      cts.push_back(ct);
      std::vector<Slot> ctx(stack.begin(), stack.begin() + N);
      for (auto &[ti, tape] : valueTapes) taped_[ti] = Index::make(tape, Prim::make(Op::Sub, {jv, lo}));
      Expr g = bind(bl, "d_elem", localGradient(elem, ctx, {{jv, j}}, cts));
      for (auto &[ti, tape] : valueTapes) taped_.erase(ti);
      std::vector<Expr> nb;
      for (size_t k = 0; k < free.size(); ++k) nb.push_back(addCt(Proj::make(bv, int(k)), Proj::make(g, free[k])));
      Expr bk = bind(inner, b, Fold::make(lo, hi, ir::Tuple::make(init), j, b, wrap(bl, ir::Tuple::make(nb))));
      for (size_t k = 0; k < free.size(); ++k) args[free[k]] = addCt(args[free[k]], Proj::make(bk, int(k)));
    }
    precompose(Y, lets, ys, inner, args);
  }

  // Local arrays (by name) that forward code reads and writes; a call
  // given an array reads it and writes it if the callee writes that param.
  void localArrays(const Expr &e, std::set<std::string> &read, std::set<std::string> &written) {
    struct T : Visitor {
      Reverser *self;
      std::set<std::string> *r, *w;
      void add(std::set<std::string> *s, const Expr &a) {
        if (auto v = a->as<Var>(); v && self->sizes_.count(v->name)) s->insert(v->name);
      }
      void visit(const Index *n) override { add(r, n->array); Visitor::visit(n); }
      void visit(const Store *n) override {
        add(w, n->array);
        if (n->mode == Store::Mode::Add) add(r, n->array); // a[i] += v reads a[i]
        visitExpr(n->index);
        visitExpr(n->value);
      }
      void visit(const Call *n) override {
        const Function *g = self->prog_.find(n->callee);
        for (size_t k = 0; k < n->args.size(); ++k) {
          if (!n->args[k]->type->isArray()) continue;
          add(r, n->args[k]);
          if (!g || g->params[k].written) add(w, n->args[k]);
        }
        Visitor::visit(n);
      }
    } t;
    t.self = this;
    t.r = &read;
    t.w = &written;
    t.visitExpr(e);
  }

  // A store of a loop body to a local array it also reads, instrumented
  // to tape the index it stores at and the element it overwrites.
  struct UndoSite {
    Expr index, old; // tapes, one entry per iteration
    bool guarded;    // in a branch: index -1 when the iteration did not store
  };

  // Forward code `e` of a loop body with every store to `array` preceded by
  //   let old = array[i]; index_k[at] = i; old_k[at] = old
  // (sites in program order, which is the order of execution on every path).
  // Null when `array` is also written otherwise (in a nested loop, by a call).
  Expr tapeOverwrites(const Expr &e, const Expr &array, const Expr &n, const Expr &at, Lets &lets, Lets &iterationStart,
                      std::vector<UndoSite> &sites) {
    const std::string &a = array->as<Var>()->name;
    bool ok = true;
    std::vector<UndoSite> found;
    Lets tapes, starts;
    std::function<Expr(const Expr &, bool)> go = [&](const Expr &x, bool guarded) -> Expr {
      if (auto l = x->as<Let>()) {
        if (auto st = l->value->as<Store>(); st && st->array->is<Var>() && st->array->as<Var>()->name == a) {
          UndoSite site{bind(tapes, "tape_" + a + "_index", NewArray::make(n, Type::i64(), true)),
                        bind(tapes, "tape_" + a + "_old", NewArray::make(n, array->type->elem(), true)), guarded};
          if (guarded) bind(starts, "_", Store::make(site.index, at, Const::makeInt(-1), Store::Mode::Set));
          found.push_back(site);
          std::string old = fresh("old_" + a);
          Expr rest = Let::make(l->name, l->value, go(l->body, guarded));
          rest = Let::make(fresh("_"), Store::make(site.old, at, Var::make(old, array->type->elem()), Store::Mode::Set), rest);
          rest = Let::make(fresh("_"), Store::make(site.index, at, st->index, Store::Mode::Set), rest);
          return Let::make(old, Index::make(array, st->index), rest);
        }
        Expr value = go(l->value, guarded); // (its sites come first)
        return Let::make(l->name, value, go(l->body, guarded));
      }
      if (auto i = x->as<If>()) {
        if (writesTo(x, a) == 0) return x;
        Expr t = go(i->thenE, true), f = go(i->elseE, true);
        return If::make(i->cond, t, f);
      }
      if (writesTo(x, a) > 0) ok = false;
      return x;
    };
    Expr out = go(e, false);
    if (!ok || found.empty()) return nullptr;
    lets.insert(lets.end(), tapes.begin(), tapes.end());
    iterationStart.insert(iterationStart.end(), starts.begin(), starts.end());
    sites = found;
    return out;
  }

  // Puts back what the stores of `sites` overwrote (tape entry `at`), last
  // first; a store in a branch not taken (index -1) is skipped.
  void undoStores(const Expr &array, const std::vector<UndoSite> &sites, const Expr &at, Lets &out) {
    for (auto u = sites.rbegin(); u != sites.rend(); ++u) {
      Expr k = bind(out, "k", Index::make(u->index, at));
      Expr undo = Store::make(array, k, Index::make(u->old, at), Store::Mode::Set);
      if (u->guarded)
        undo = If::make(Prim::make(Op::Ge, {k, Const::makeInt(0)}), Let::make(fresh("_"), undo, ir::Tuple::make({})),
                        ir::Tuple::make({}));
      bind(out, "_", undo);
    }
  }

  // How many places in forward code `e` may write array `a` (stores, and
  // calls given it).
  static size_t writesTo(const Expr &e, const std::string &a) {
    struct W : Visitor {
      const std::string *a;
      size_t n = 0;
      static bool is(const Expr &x, const std::string &name) { auto v = x->as<Var>(); return v && v->name == name; }
      void visit(const Store *s) override { n += is(s->array, *a); Visitor::visit(s); }
      void visit(const Call *c) override {
        for (auto &x : c->args) n += is(x, *a) ? 1000 : 0; // a callee may write it anywhere
        Visitor::visit(c);
      }
    } w;
    w.a = &a;
    w.visitExpr(e);
    return w.n;
  }

  // Copies of the local arrays (slots of `stack`) in `names`, taken now.
  std::vector<std::pair<Expr, Expr>> snapshot(const std::set<std::string> &names, const std::vector<Slot> &stack,
                                              Lets &lets) {
    std::vector<std::pair<Expr, Expr>> out; // (array, copy)
    for (auto &a : names)
      if (Expr array = arrayNamed(a, stack)) {
        Expr len = sizes_.at(a);
        Expr copy = bind(lets, "saved_" + a, NewArray::make(len, array->type->elem(), true));
        bind(lets, "_", copyLoop(copy, Const::makeInt(0), array, Const::makeInt(0), len));
        out.push_back({array, copy});
      }
    return out;
  }
  // The slot value that is the array variable `name`, or null.
  static Expr arrayNamed(const std::string &name, const std::vector<Slot> &stack) {
    for (auto &slot : stack)
      if (auto v = slot.value->as<Var>(); v && v->name == name) return slot.value;
    return nullptr;
  }
  void restore(const std::vector<std::pair<Expr, Expr>> &copies, Lets &lets) {
    for (auto &[array, copy] : copies)
      bind(lets, "_", copyLoop(array, Const::makeInt(0), copy, Const::makeInt(0), sizes_.at(array->as<Var>()->name)));
  }

  // fold k in [0, len): dst[dOff + k] = src[sOff + k]
  Expr copyLoop(const Expr &dst, const Expr &dOff, const Expr &src, const Expr &sOff, const Expr &len) {
    std::string k = fresh("k"), u = fresh("copy");
    Expr kv = Var::make(k, Type::i64());
    Expr st = Store::make(dst, Prim::make(Op::Add, {dOff, kv}), Index::make(src, Prim::make(Op::Add, {sOff, kv})),
                          Store::Mode::Set);
    return Fold::make(Const::makeInt(0), len, ir::Tuple::make({}), k, u, Let::make(fresh("_"), st, ir::Tuple::make({})));
  }

  // The forward (source UNF^-1) code of a term run on `stack`.
  Expr forwardOnly(const Term &t, const std::vector<Slot> &stack) {
    std::vector<Slot> s = stack;
    Lets bl;
    build(t, s, nullptr, bl);
    return wrap(bl, s.back().value);
  }
};

// Whether calls to g need its pullback: it has active parameters and its
// result, or an array it writes, carries derivatives.
bool needsPullback(const Function &g) {
  bool anyActive = false, writesActive = false;
  for (auto &p : g.params) {
    anyActive |= p.active;
    writesActive |= p.active && p.written;
  }
  return anyActive && (isActive(g.result) || writesActive);
}

// Functions reachable from the marked ones through calls.
std::vector<const Function *> reachable(const Program &p) {
  std::set<std::string> seen;
  std::vector<const Function *> order;
  std::function<void(const Function &)> visitFn = [&](const Function &f) {
    if (!seen.insert(f.name).second) return;
    struct Calls : Visitor {
      std::vector<std::string> names;
      void visit(const Call *c) override { names.push_back(c->callee); Visitor::visit(c); }
    } calls;
    calls.visitExpr(f.body);
    for (auto &n : calls.names)
      if (auto g = p.find(n)) visitFn(*g);
    order.push_back(&f);
  };
  for (auto &f : p.functions)
    if (f.marked) visitFn(f);
  return order;
}

// f$grad or g$pullback for one function.
Function differentiate(const Program &prog, const Function &f, bool isPullback) {
  // Forward values keep the source's names where they are free; binders
  // made here are unique (the optimiser relies on it).
  NameSupply names;
  for (auto &p : f.params) names.reserve(p.name);
  // The adjoint parameters of the printed function are d_<param>.
  for (auto &p : f.params) names.reserve("d_" + p.name);
  Reverser rev(prog, names);

  Function out;
  out.name = isPullback ? pullbackFunctionName(f.name) : gradFunctionName(f.name);
  out.params = f.params;
  out.cxx = f.cxx;

  std::vector<Slot> stack;
  for (auto &p : f.params) stack.push_back({Var::make(p.name, p.type), p.name});
  Lets lets;
  // Y_0: the gradient is the cotangents of the active parameters.
  std::vector<Binder> y0;
  std::vector<Expr> rho;
  for (auto &p : f.params) {
    y0.push_back({names.fresh("d_" + p.name), cotangentType(p.type)});
    // a struct's cotangent leaves as a struct (its passive fields 0), the
    // type of the adjoint parameter
    if (p.active)
      rho.push_back(p.type->isArray() ? Var::make(y0.back().name, y0.back().type)
                                      : asElement(Var::make(y0.back().name, y0.back().type), p.type));
  }
  std::string y0name = names.fresh("Y");
  lets.push_back({y0name, Lambda::make(y0, ir::Tuple::make(rho))});
  Expr Y = Var::make(y0name, lets.back().second->type);

  // Active arrays: their cotangent buffers d_x are parameters too (after
  // the primal's, and after d_return for pullbacks), accumulated in place.
  std::vector<Param> buffers;
  for (auto &p : f.params)
    if (p.type->isArray()) rev.setParamArray(p.name);
  if (isPullback) rev.setPullback();
  for (auto &p : f.params)
    if (p.active && p.type->isArray()) {
      buffers.push_back({"d_" + p.name, p.type, false, true});
      rev.setBuffer(p.name, Var::make("d_" + p.name, p.type));
    }

  unf::UnfFunction u = unf::toUnf(f);
  rev.build(unf::reverse(u.body), stack, &Y, lets);
  Expr result = stack.back().value;

  // Seed: 0 for every slot, 1 (or d_return) for the result.
  Expr seed;
  if (isPullback) {
    std::string dr = names.fresh("d_return");
    // (a struct result's cotangent arrives as the struct)
    TypeP dt = f.result->isStruct() ? f.result : cotangentType(f.result);
    out.params.push_back({dr, dt, false});
    seed = asCotangent(Var::make(dr, dt));
  } else {
    seed = f.result->isUnit() ? Const::zero(f.result) : Const::make(1.0, f.result);
  }
  out.params.insert(out.params.end(), buffers.begin(), buffers.end());
  std::vector<Expr> seeds;
  for (size_t i = 0; i + 1 < stack.size(); ++i) seeds.push_back(Const::zero(cotangentType(stack[i].value->type)));
  seeds.push_back(seed);
  Expr grads = App::make(Y, seeds);
  if (isPullback) {
    out.result = grads->type;
    out.body = wrap(lets, grads);
  } else {
    std::string g = names.fresh("grad");
    std::vector<Expr> es{result};
    for (size_t i = 0; i < rho.size(); ++i) es.push_back(Proj::make(Var::make(g, grads->type), int(i)));
    lets.push_back({g, grads});
    Expr body = wrap(lets, ir::Tuple::make(es));
    out.result = body->type;
    out.body = body;
  }
  return out;
}

} // namespace

Program reverse(const Program &primal) {
  auto fns = reachable(primal);
  std::set<std::string> called;
  for (const Function *f : fns) {
    struct Calls : Visitor {
      std::set<std::string> *out;
      void visit(const Call *c) override { out->insert(c->callee); Visitor::visit(c); }
    } calls;
    calls.out = &called;
    calls.visitExpr(f->body);
  }
  Program out;
  // Pullbacks first: gradients call them.
  for (const Function *f : fns)
    if (called.count(f->name) && needsPullback(*f)) out.functions.push_back(differentiate(primal, *f, true));
  for (const Function *f : fns)
    if (f->marked) {
      if (!f->result->isFloat() && !(f->result->isUnit() && needsPullback(*f)))
        throw IRError("reverse: marked function " + f->name + " neither returns a float nor writes an output");
      out.functions.push_back(differentiate(primal, *f, false));
    }
  return out;
}

} // namespace unfad::ad
