// Loops: a Fold is a counted `for`, a While a `while`; the loop state is
// one mutable variable per component, assigned in parallel at the end of
// the body.
#include "printer.h"

namespace unfad::printer::detail {

namespace {

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

void stateLeaves(const CVal &d, const CVal &s, std::vector<std::pair<CVal, CVal>> &out) {
  if (d.agg && !d.type->isStruct()) {
    if (!s.agg || s.elems.size() != d.elems.size()) fail("loop state arity mismatch");
    for (size_t i = 0; i < d.elems.size(); ++i) stateLeaves(d.elems[i], s.elems[i], out);
    return;
  }
  out.push_back({d, s});
}


} // namespace

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

} // namespace unfad::printer::detail
