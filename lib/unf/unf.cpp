// UNF: the translation into Unary Normal Form (Fig. 9), back (Fig. 10,
// source part), the reverse-mode marking (Fig. 8), a checker, and dumps.
#include "unfad/unf/unf.h"

#include <sstream>
#include <unordered_map>

namespace unfad::unf {

using namespace unfad::ir;

namespace {

int lookup(const std::vector<Slot> &ctx, const std::string &name) {
  for (int i = int(ctx.size()) - 1; !name.empty() && i >= 0; --i)
    if (ctx[i].name == name) return i;
  throw IRError("UNF: unbound variable " + name);
}

// Appends UNF(e) to `out`: the context grows by exactly one slot.
void gen(const Expr &e, std::vector<Slot> &ctx, std::vector<Instr> &out, const std::string &hint) {
  // Pushed slots are anonymous: only let binders, loop binders and
  // parameters name a slot that variables can refer to. The hint only
  // names generated code.
  auto push = [&](Instr in) {
    in.hint = hint;
    ctx.push_back({"", in.type});
    out.push_back(std::move(in));
  };
  auto drop = [&](int keep, int n) {
    Instr d(Instr::Kind::Drop);
    d.index = keep;
    d.arity = n;
    out.push_back(d);
    // The pushed result sits above the dropped slots.
    ctx.erase(ctx.begin() + keep, ctx.begin() + keep + n);
  };
  const int base = int(ctx.size());
  // An instruction applied to the values of `args` (an op, a call, a[i]): the
  // arguments are computed, `in` consumes them, and their slots go.
  auto apply = [&](Instr in, const std::vector<Expr> &args) {
    for (auto &a : args) gen(a, ctx, out, "t");
    in.arity = int(args.size());
    in.type = e->type;
    push(in);
    drop(base, in.arity);
  };
  switch (e->kind) {
  case Kind::Const: {
    Instr in(Instr::Kind::Const);
    in.constant = e;
    in.type = e->type;
    push(in);
    return;
  }
  case Kind::Var: {
    Instr in(Instr::Kind::Var);
    in.index = lookup(ctx, e->as<Var>()->name);
    in.type = e->type;
    push(in);
    return;
  }
  case Kind::Prim: {
    Instr in(Instr::Kind::Op);
    in.op = e->as<Prim>()->op;
    return apply(in, e->as<Prim>()->args);
  }
  case Kind::Let: {
    // A let chain. Fig. 9 drops a binding (proj) after the whole body; we
    // drop it right after its last use instead, so the context holds only
    // live values and every continuation stays small: reverse mode is then
    // linear, not quadratic, in the length of straight-line code.
    std::vector<const Let *> chain;
    Expr body = e;
    while (auto l = body->as<Let>()) {
      chain.push_back(l);
      body = l->body;
    }
    const int n = int(chain.size());
    std::unordered_map<std::string, int> lastUse; // chain position; n = the body
    bool unique = true;
    for (int j = 0; j <= n; ++j) {
      for (auto &v : freeVars(j < n ? chain[j]->value : body)) lastUse[v] = j;
      if (j < n) unique &= lastUse.emplace(chain[j]->name, -1).second || lastUse[chain[j]->name] < j;
    }
    std::vector<std::string> live;
    for (int j = 0; j < n; ++j) {
      gen(chain[j]->value, ctx, out, chain[j]->name);
      ctx.back().name = chain[j]->name;
      live.push_back(chain[j]->name);
      if (!unique) continue; // shadowed names: keep Fig. 9's scoping
      for (auto it = live.begin(); it != live.end();) {
        if (lastUse[*it] <= j) {
          drop(lookup(ctx, *it), 1);
          it = live.erase(it);
        } else {
          ++it;
        }
      }
    }
    gen(body, ctx, out, hint);
    for (auto it = live.rbegin(); it != live.rend(); ++it) drop(lookup(ctx, *it), 1);
    return;
  }
  case Kind::If: {
    auto i = e->as<If>();
    gen(i->cond, ctx, out, "c");
    Instr in(Instr::Kind::If);
    for (const Expr &br : {i->thenE, i->elseE}) {
      std::vector<Slot> bctx = ctx;
      Term t;
      gen(br, bctx, t.instrs, hint);
      in.branches.push_back(std::move(t));
    }
    in.type = e->type;
    push(in);
    drop(base, 1);
    return;
  }
  case Kind::Tuple: {
    auto t = e->as<ir::Tuple>();
    for (auto &a : t->elems) gen(a, ctx, out, "t");
    Instr in(Instr::Kind::Tuple);
    in.arity = int(t->elems.size());
    in.type = e->type;
    ctx.erase(ctx.begin() + base, ctx.end());
    push(in);
    return;
  }
  case Kind::Proj: {
    auto p = e->as<Proj>();
    gen(p->tuple, ctx, out, "t");
    Instr in(Instr::Kind::Elem);
    in.index = p->index;
    in.type = e->type;
    push(in);
    drop(base, 1);
    return;
  }
  case Kind::Call: {
    Instr in(Instr::Kind::Call);
    in.callee = e->as<Call>()->callee;
    return apply(in, e->as<Call>()->args);
  }
  case Kind::Opaque: {
    Instr in(Instr::Kind::Opaque);
    in.callee = e->as<Opaque>()->callee;
    in.read = e->as<Opaque>()->read;
    return apply(in, e->as<Opaque>()->args);
  }
  case Kind::Resize:
    return apply(Instr(Instr::Kind::Resize), {e->as<ir::Resize>()->array, e->as<ir::Resize>()->size});
  case Kind::Throw: {
    Instr in(Instr::Kind::Throw);
    in.callee = e->as<ir::Throw>()->thrown;
    return apply(in, e->as<ir::Throw>()->args);
  }
  case Kind::Effect: {
    Instr in(Instr::Kind::Effect);
    in.callee = e->as<ir::Effect>()->spelling;
    return apply(in, e->as<ir::Effect>()->args);
  }
  case Kind::Index: {
    auto x = e->as<ir::Index>();
    apply(Instr(Instr::Kind::Index), {x->array, x->index});
    // a row m[i] of an array of arrays, unnamed in the source: `m_row`
    if (auto table = x->array->as<Var>(); table && e->type->isArray() && (hint.empty() || hint == "t"))
      for (auto it = out.rbegin(); it != out.rend(); ++it)
        if (it->kind == Instr::Kind::Index) {
          it->hint = table->name + "_row";
          break;
        }
    return;
  }
  case Kind::View:
    return apply(Instr(Instr::Kind::View), {e->as<ir::View>()->array, e->as<ir::View>()->offset});
  case Kind::Size: return apply(Instr(Instr::Kind::Size), {e->as<ir::Size>()->array});
  case Kind::NewArray: {
    gen(e->as<ir::NewArray>()->size, ctx, out, "t");
    Instr in(Instr::Kind::New);
    in.arity = 1;
    in.type = e->type;
    push(in);
    drop(base, 1);
    return;
  }
  case Kind::Store: {
    auto x = e->as<ir::Store>();
    gen(x->array, ctx, out, "t");
    gen(x->index, ctx, out, "t");
    gen(x->value, ctx, out, "t");
    Instr in(Instr::Kind::Store);
    in.arity = 3;
    in.addStore = x->mode == ir::Store::Mode::Add;
    in.path = x->path;
    in.type = e->type;
    push(in);
    drop(base, 3);
    return;
  }
  case Kind::Fold: {
    auto f = e->as<ir::Fold>();
    gen(f->lo, ctx, out, "t");
    gen(f->hi, ctx, out, "t");
    gen(f->init, ctx, out, f->state);
    Instr in(Instr::Kind::Fold);
    in.arity = 3;
    in.reversedLoop = f->reversed;
    in.indexName = f->index;
    in.state = f->state;
    std::vector<Slot> bctx = ctx;
    bctx.push_back({f->index, Type::i64()});
    bctx.push_back({f->state, f->init->type});
    Term body;
    gen(f->body, bctx, body.instrs, f->state);
    in.branches.push_back(std::move(body));
    in.type = e->type;
    push(in);
    drop(base, 3);
    return;
  }
  case Kind::Build: case Kind::Sum: {
    auto b = e->as<ir::Build>();
    auto m = e->as<ir::Sum>();
    if (b) {
      gen(b->size, ctx, out, "n");
    } else {
      gen(m->lo, ctx, out, "t");
      gen(m->hi, ctx, out, "t");
    }
    Instr in(b ? Instr::Kind::Build : Instr::Kind::Sum);
    in.arity = b ? 1 : 2;
    in.indexName = b ? b->index : m->index;
    std::vector<Slot> bctx = ctx;
    bctx.push_back({in.indexName, Type::i64()});
    Term body;
    gen(b ? b->body : m->body, bctx, body.instrs, "t");
    in.branches.push_back(std::move(body));
    in.type = e->type;
    push(in);
    drop(base, in.arity);
    return;
  }
  case Kind::While: {
    auto w = e->as<ir::While>();
    gen(w->init, ctx, out, w->state);
    Instr in(Instr::Kind::While);
    in.arity = 1;
    in.state = w->state;
    in.indexName = "iteration";
    for (const Expr &part : {w->cond, w->body}) {
      std::vector<Slot> bctx = ctx;
      bctx.push_back({"", Type::i64()}); // the iteration slot: never referenced
      bctx.push_back({w->state, w->init->type});
      Term t;
      gen(part, bctx, t.instrs, part == w->cond ? "c" : w->state);
      in.branches.push_back(std::move(t));
    }
    in.type = e->type;
    push(in);
    drop(base, 1);
    return;
  }
  case Kind::Pullback: case Kind::Lambda: case Kind::App:
    // Reverse mode makes these from UNF; the primal program it starts from has none.
    throw IRError("UNF: the source language has no continuations (lambda/app/pullback)");
  }
}

} // namespace

Term toUnf(const Expr &e, const std::vector<Slot> &context) {
  std::vector<Slot> ctx = context;
  Term t;
  gen(e, ctx, t.instrs, "result");
  return t;
}

UnfFunction toUnf(const Function &f) {
  UnfFunction u;
  u.name = f.name;
  for (auto &p : f.params) u.inputs.push_back({p.name, p.type});
  u.body = toUnf(f.body, u.inputs);
  u.result = f.result;
  return u;
}

// ------------------------------------------------------------- UNF^-1 --

Expr wrapLets(const Lets &lets, Expr body) {
  for (auto it = lets.rbegin(); it != lets.rend(); ++it) body = Let::make(it->first, it->second, body);
  return body;
}

Expr forward(const Term &t, std::vector<Expr> &stack, Lets &lets, NameSupply &names) {
  for (auto &in : t.instrs) forwardStep(in, stack, lets, names);
  return stack.back();
}

void forwardStep(const Instr &in, std::vector<Expr> &stack, Lets &lets, NameSupply &names) {
  auto bind = [&](Expr v) {
    std::string n = names.fresh(in.hint.empty() ? "t" : in.hint);
    lets.push_back({n, v});
    return Var::make(n, v->type);
  };
  auto top = [&](int n) { return std::vector<Expr>(stack.end() - n, stack.end()); };
  // A nested term run on the current context plus `extra` slots.
  auto nested = [&](const Term &t, std::vector<Expr> extra) {
    std::vector<Expr> s = stack;
    s.insert(s.end(), extra.begin(), extra.end());
    Lets bl;
    Expr r = forward(t, s, bl, names);
    return wrapLets(bl, r);
  };
  switch (in.kind) {
  case Instr::Kind::Const: stack.push_back(in.constant); return;
  case Instr::Kind::Var: stack.push_back(stack.at(in.index)); return;
  case Instr::Kind::Op: {
    auto as = top(in.arity);
    stack.push_back(bind(in.op == Op::Cast ? Prim::makeCast(as[0], in.type) : Prim::make(in.op, as)));
    return;
  }
  case Instr::Kind::Elem: stack.push_back(bind(Proj::make(stack.back(), in.index))); return;
  case Instr::Kind::Tuple: {
    auto as = top(in.arity);
    stack.resize(stack.size() - in.arity);
    stack.push_back(bind(in.type->isStruct() ? ir::Tuple::makeStruct(in.type, as) : ir::Tuple::make(as)));
    return;
  }
  case Instr::Kind::Call: stack.push_back(bind(Call::make(in.callee, top(in.arity), in.type))); return;
  case Instr::Kind::Opaque: stack.push_back(bind(Opaque::make(in.callee, top(in.arity), in.type, in.read))); return;
  case Instr::Kind::Throw: stack.push_back(bind(ir::Throw::make(in.callee, in.type, top(in.arity)))); return;
  case Instr::Kind::Effect: stack.push_back(bind(ir::Effect::make(in.callee, top(in.arity)))); return;
  case Instr::Kind::Resize: {
    auto as = top(2);
    stack.push_back(bind(ir::Resize::make(as[0], as[1])));
    return;
  }
  case Instr::Kind::Drop: stack.erase(stack.begin() + in.index, stack.begin() + in.index + in.arity); return;
  case Instr::Kind::If: {
    Expr cond = stack.back();
    Expr t = nested(in.branches[0], {}), f = nested(in.branches[1], {});
    stack.push_back(bind(If::make(cond, t, f)));
    return;
  }
  case Instr::Kind::Index: stack.push_back(bind(ir::Index::make(top(2)[0], top(2)[1]))); return;
  case Instr::Kind::Size: stack.push_back(bind(ir::Size::make(stack.back()))); return;
  // a view stays unbound, `a + o` at its use: cheap, and what a call takes
  case Instr::Kind::View: stack.push_back(ir::View::make(top(2)[0], top(2)[1])); return;
  case Instr::Kind::New: stack.push_back(bind(ir::NewArray::make(stack.back(), in.type->elem()))); return;
  case Instr::Kind::Store: {
    auto as = top(3);
    stack.push_back(bind(ir::Store::make(as[0], as[1], as[2], in.addStore ? ir::Store::Mode::Add : ir::Store::Mode::Set, in.path)));
    return;
  }
  case Instr::Kind::Fold: {
    auto as = top(3);
    std::string i = names.fresh(in.indexName), st = names.fresh(in.state);
    Expr body = nested(in.branches[0], {Var::make(i, Type::i64()), Var::make(st, in.type)});
    stack.push_back(bind(ir::Fold::make(as[0], as[1], as[2], i, st, body, in.reversedLoop)));
    return;
  }
  case Instr::Kind::Build: {
    std::string i = names.fresh(in.indexName);
    Expr body = nested(in.branches[0], {Var::make(i, Type::i64())});
    stack.push_back(bind(ir::Build::make(stack.back(), i, body)));
    return;
  }
  case Instr::Kind::Sum: {
    auto as = top(2);
    std::string i = names.fresh(in.indexName);
    Expr body = nested(in.branches[0], {Var::make(i, Type::i64())});
    stack.push_back(bind(ir::Sum::make(as[0], as[1], i, body)));
    return;
  }
  case Instr::Kind::While: {
    std::string st = names.fresh(in.state);
    std::vector<Expr> extra{Const::makeInt(0), Var::make(st, in.type)};
    Expr cond = nested(in.branches[0], extra), body = nested(in.branches[1], extra);
    stack.push_back(bind(ir::While::make(stack.back(), st, cond, body)));
    return;
  }
  }
}

Expr fromUnf(const UnfFunction &f) {
  NameSupply names;
  std::vector<Expr> stack;
  for (auto &s : f.inputs) {
    names.reserve(s.name);
    stack.push_back(Var::make(s.name, s.type));
  }
  Lets lets;
  Expr r = forward(f.body, stack, lets, names);
  return wrapLets(lets, r);
}

// ------------------------------------------------------ reverse (Fig. 8) --

Term reverse(const Term &t) {
  Term r = t;
  for (auto &in : r.instrs) {
    in.reversed = true;
    for (auto &b : in.branches) b = reverse(b);
  }
  return r;
}

// ------------------------------------------------------------- checker --

std::vector<TypeP> run(const Term &t, std::vector<TypeP> ctx) {
  auto need = [&](size_t n, const char *what) {
    if (ctx.size() < n) throw IRError(std::string("UNF: context too small for ") + what);
  };
  for (auto &in : t.instrs) {
    switch (in.kind) {
    case Instr::Kind::Const: ctx.push_back(in.type); break;
    case Instr::Kind::Var:
      need(size_t(in.index) + 1, "var");
      if (!sameType(ctx[in.index], in.type)) throw IRError("UNF: var type mismatch");
      ctx.push_back(in.type);
      break;
    case Instr::Kind::Op: case Instr::Kind::Call: case Instr::Kind::Opaque: case Instr::Kind::Throw:
    case Instr::Kind::Effect:
      need(in.arity, "op");
      ctx.push_back(in.type);
      break;
    case Instr::Kind::Elem:
      need(1, "elem");
      if (!ctx.back()->isTuple() || !sameType(ctx.back()->elems.at(in.index), in.type)) throw IRError("UNF: elem type");
      ctx.push_back(in.type);
      break;
    case Instr::Kind::Tuple:
      need(in.arity, "tuple");
      ctx.resize(ctx.size() - in.arity);
      ctx.push_back(in.type);
      break;
    case Instr::Kind::Drop:
      need(size_t(in.index + in.arity), "drop");
      ctx.erase(ctx.begin() + in.index, ctx.begin() + in.index + in.arity);
      break;
    case Instr::Kind::Index: case Instr::Kind::Size: case Instr::Kind::New: case Instr::Kind::Store:
    case Instr::Kind::View: case Instr::Kind::Resize:
      need(in.arity, "array primitive");
      ctx.push_back(in.type);
      break;
    case Instr::Kind::Fold: case Instr::Kind::While: {
      need(in.arity, "loop");
      std::vector<TypeP> bctx = ctx;
      bctx.push_back(Type::i64());
      bctx.push_back(in.type);
      for (auto &b : in.branches)
        if (run(b, bctx).size() != bctx.size() + 1) throw IRError("UNF: loop body shape");
      ctx.push_back(in.type);
      break;
    }
    case Instr::Kind::Build: case Instr::Kind::Sum: {
      need(in.arity, "parallel loop");
      std::vector<TypeP> bctx = ctx;
      bctx.push_back(Type::i64());
      auto out = run(in.branches.at(0), bctx);
      if (out.size() != bctx.size() + 1 || !out.back()->isScalar()) throw IRError("UNF: build/sum body shape");
      ctx.push_back(in.type);
      break;
    }
    case Instr::Kind::If: {
      need(1, "if");
      if (!ctx.back()->isBool()) throw IRError("UNF: if on a non-bool slot");
      for (auto &b : in.branches) {
        auto out = run(b, ctx);
        if (out.size() != ctx.size() + 1 || !sameType(out.back(), in.type)) throw IRError("UNF: if branch shape");
      }
      ctx.push_back(in.type);
      break;
    }
    }
  }
  return ctx;
}

// --------------------------------------------------------------- dumps --

static std::string instrText(const Instr &in) {
  std::ostringstream os;
  switch (in.kind) {
  case Instr::Kind::Const: os << "const " << ir::print(in.constant); break;
  case Instr::Kind::Var: os << "var " << in.index; break;
  case Instr::Kind::Op:
    os << "op " << opName(in.op) << "/" << in.arity;
    if (in.op == Op::Cast) os << "<" << str(in.type) << ">";
    break;
  case Instr::Kind::Elem: os << "elem " << in.index; break;
  case Instr::Kind::Tuple: os << "tuple/" << in.arity; break;
  case Instr::Kind::Call: os << "call " << in.callee << "/" << in.arity; break;
  case Instr::Kind::Opaque: os << (in.read ? "opaque read " : "opaque ") << in.callee << "/" << in.arity; break;
  case Instr::Kind::Resize: os << "resize"; break;
  case Instr::Kind::Throw: os << "throw<" << str(in.type) << "> " << in.callee << "/" << in.arity; break;
  case Instr::Kind::Effect: os << "effect " << in.callee << "/" << in.arity; break;
  case Instr::Kind::Drop: os << "drop " << in.index << "+" << in.arity; break;
  case Instr::Kind::If: os << "if"; break;
  case Instr::Kind::Index: os << "index"; break;
  case Instr::Kind::Size: os << "size"; break;
  case Instr::Kind::View: os << "view"; break;
  case Instr::Kind::New: os << "new " << str(in.type); break;
  case Instr::Kind::Store:
    os << "store";
    for (int k : in.path) os << " ." << k;
    os << (in.addStore ? " +=" : " =");
    break;
  case Instr::Kind::Fold: os << (in.reversedLoop ? "fold reversed " : "fold ") << in.indexName << " " << in.state; break;
  case Instr::Kind::While: os << "while " << in.state; break;
  case Instr::Kind::Build: os << "build " << in.indexName; break;
  case Instr::Kind::Sum: os << "sum " << in.indexName; break;
  }
  return os.str();
}

std::string print(const Term &t, int indent) {
  std::ostringstream os;
  std::string pad(2 * indent, ' ');
  for (auto &in : t.instrs) {
    std::string s = instrText(in);
    bool nested = !in.branches.empty();
    if (in.reversed && !nested) s = "F(" + s + "; JT " + s + ")";
    else if (in.reversed) s = "F(" + s + ")";
    os << pad << s;
    if (!in.hint.empty() && in.kind != Instr::Kind::Drop) os << "    -- " << in.hint << ": " << str(in.type);
    os << "\n";
    if (nested) {
      static const char *ifNames[] = {"then", "else"}, *whileNames[] = {"cond", "body"};
      for (size_t b = 0; b < in.branches.size(); ++b) {
        const char *label = in.kind == Instr::Kind::If ? ifNames[b] : in.kind == Instr::Kind::While ? whileNames[b] : "body";
        os << pad << label << (in.reversed && in.kind == Instr::Kind::If ? " (branch recorded)" : "") << "\n";
        os << print(in.branches[b], indent + 1);
      }
      os << pad << "end\n";
    }
  }
  return os.str();
}

std::string print(const UnfFunction &f) {
  std::ostringstream os;
  os << "unf " << f.name << " [";
  for (size_t i = 0; i < f.inputs.size(); ++i) os << (i ? ", " : "") << f.inputs[i].name << ": " << str(f.inputs[i].type);
  os << "] -> " << str(f.result) << " =\n" << print(f.body, 1);
  return os.str();
}

nlohmann::json toJson(const Term &t) {
  nlohmann::json a = nlohmann::json::array();
  for (auto &in : t.instrs) {
    nlohmann::json j = {{"instr", instrText(in)}};
    if (in.reversed) j["reversed"] = true;
    if (in.type) j["type"] = ir::str(in.type);
    if (!in.hint.empty()) j["hint"] = in.hint;
    if (!in.branches.empty()) {
      j["branches"] = nlohmann::json::array();
      for (auto &b : in.branches) j["branches"].push_back(toJson(b));
    }
    a.push_back(j);
  }
  return a;
}

nlohmann::json toJson(const UnfFunction &f) {
  nlohmann::json in = nlohmann::json::array();
  for (auto &s : f.inputs) in.push_back({{"name", s.name}, {"type", ir::str(s.type)}});
  return {{"function", f.name}, {"inputs", in}, {"result", ir::str(f.result)}, {"body", toJson(f.body)}};
}

} // namespace unfad::unf
