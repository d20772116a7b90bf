// Straight-line code and ifs: values as const locals, shared nodes,
// operators, array reads and writes, local arrays, accumulation into the
// adjoints.
#include "printer.h"

#include <cctype>

namespace unfad::printer::detail {

namespace {

// `x > 0 || x != 1`: two comparisons of one variable with constants, which
// clang's -Wtautological-overlap-compare flags when the source compared two
// copies of it (`x > 0 || m != 1` with `m = x`, the copy propagated); the
// printer names the second comparison.
bool overlapping(const Prim *p) {
  auto cmpVar = [](const Expr &e) -> std::string {
    auto c = e->as<Prim>();
    if (!c || c->args.size() != 2) return "";
    bool comparison = c->op == Op::Lt || c->op == Op::Le || c->op == Op::Gt || c->op == Op::Ge ||
                      c->op == Op::Eq || c->op == Op::Ne;
    if (!comparison) return "";
    auto v0 = c->args[0]->as<Var>(), v1 = c->args[1]->as<Var>();
    if (v0 && c->args[1]->is<Const>()) return v0->name;
    if (v1 && c->args[0]->is<Const>()) return v1->name;
    return "";
  };
  std::string l = cmpVar(p->args[0]), r = cmpVar(p->args[1]);
  return !l.empty() && l == r;
}

} // namespace

CVal FnPrinter::trPrim(const Prim *p, Block &b) {
  std::vector<CVal> a;
  for (auto &x : p->args) a.push_back(tr(x, b, Hint{"tmp", false}));
  auto bin = [&](const char *op, int prec) {
    return leaf(p->type, operand(a[0], prec) + " " + op + " " + operand(a[1], prec + 1, true), prec);
  };
  auto bits = [&](const char *op) {
    return leaf(p->type, operand(a[0], PUnary) + " " + op + " " + operand(a[1], PUnary, true), PLor);
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
  // (operands parenthesised unless atoms: no -Wparentheses, and no need to
  // remember where & and << sit among the other operators)
  case Op::BitAnd: return bits("&");
  case Op::BitOr: return bits("|");
  case Op::BitXor: return bits("^");
  case Op::Shl: // (a literal shifted is a long, as the IR computes: `1L << k`)
    if (!a[0].agg && a[0].atom && !a[0].text.empty() && std::isdigit(static_cast<unsigned char>(a[0].text[0])) &&
        a[0].text.find_first_not_of("0123456789") == std::string::npos)
      a[0].text += "L";
    return bits("<<");
  case Op::Shr: return bits(">>");
  case Op::BitNot: return leaf(p->type, "~" + operand(a[0], PUnary, true), PUnary);
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
  case Op::Cast: return trCast(p, a[0], b);
  case Op::Sign: {
    CVal x = materialize(a[0], "sgn_arg", b);
    std::string z = formatFloating(0.0, p->type->scalar == Scalar::F32);
    return leaf(p->type,
                "static_cast<" + cxxType(p->type) + ">((" + x.text + " > " + z + ") - (" + x.text + " < " + z + "))",
                PPrimary);
  }
  case Op::Digamma: return leaf(p->type, "unfad::digamma(" + render(a[0]) + ")", PPrimary);
  case Op::Sin: case Op::Cos: case Op::Tan: case Op::Asin: case Op::Acos: case Op::Atan: case Op::Atan2:
  case Op::Sinh: case Op::Cosh: case Op::Tanh: case Op::Exp: case Op::Exp2: case Op::Expm1: case Op::Log:
  case Op::Log2: case Op::Log10: case Op::Log1p: case Op::Sqrt: case Op::Cbrt: case Op::Pow: case Op::Hypot:
  case Op::Fabs: case Op::Fmin: case Op::Fmax: case Op::Erf: case Op::Erfc: case Op::Asinh: case Op::Acosh: case Op::Atanh: case Op::Lgamma: case Op::Tgamma:
  case Op::Fmod: case Op::Remainder: case Op::Copysign: case Op::Fdim: case Op::Floor: case Op::Ceil: case Op::Round:
  case Op::Trunc: {
    std::string s = std::string("std::") + opName(p->op) + "(";
    for (size_t i = 0; i < a.size(); ++i) s += (i ? ", " : "") + render(a[i]);
    return leaf(p->type, s + ")", PPrimary);
  }
  }
  fail("no C++ form for operator " + std::string(opName(p->op)));
}

// A conversion; of a literal, the converted literal.
CVal FnPrinter::trCast(const Prim *p, const CVal &arg, Block &b) {
  const TypeP &to = p->type;
  if (auto c = p->args[0]->as<Const>()) {
    const TypeP &from = c->type;
    double fv = from->isFloat() ? c->fvalue : double(c->ivalue);
    if (to->isFloat()) return tr(Const::make(fv, to), b, Hint{});
    if (to->isBool()) return tr(Const::makeBool(fv != 0.0), b, Hint{});
    if (to->isInt()) return tr(Const::makeInt(from->isFloat() ? int64_t(c->fvalue) : c->ivalue), b, Hint{});
  }
  if (sameType(to, p->args[0]->type)) return arg;
  return leaf(to, "static_cast<" + cxxType(to) + ">(" + render(arg) + ")", PPrimary);
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

CVal FnPrinter::trEffectStmt(const std::vector<Expr> &args,
                             const std::function<std::string(const std::vector<std::string> &)> &spell, Block &b) {
  std::vector<std::string> texts;
  for (auto &a : args) texts.push_back(render(tr(a, b, Hint{"tmp", false})));
  std::string uses; // (what the statement reads, for the dead-statement sweep)
  for (auto &t : texts) uses += t + " ";
  b.push_back(lineStmt(Stmt::Effect, spell(texts), uses));
  return unitVal();
}

CVal FnPrinter::trNode(const Expr &e, Block &b, const Hint &h) {
  switch (e->kind) {
  case Kind::Const: return trConst(e->as<Const>());
  case Kind::Var: return lookup(e->as<Var>()->name);
  case Kind::Prim: return trPrim(e->as<Prim>(), b);
  case Kind::Let: return trLet(e, b, h);
  case Kind::If: return trIf(e->as<If>(), b, h.name.empty() ? Hint{"tmp", false} : h);
  case Kind::Tuple: return trTuple(e->as<Tuple>(), b, h);
  case Kind::Proj: {
    auto p = e->as<Proj>();
    CVal t = tr(p->tuple, b, Hint{"tmp", false});
    if (t.agg) return t.elems.at(p->index);
    if (!t.type->isStruct()) fail("projection from an unflattened tuple");
    if (t.userObject && t.type->baseFirst && p->index == 0) { // the base part: the object itself
      t.type = p->type;
      return t;
    }
    CVal field = leaf(p->type, fieldOf(operand(t, PPrimary), t.type->fieldNames.at(p->index)), PPrimary);
    field.userObject = t.userObject;
    return field;
  }
  case Kind::Call: return trCall(e->as<Call>(), b, h);
  case Kind::Opaque: return trOpaque(e->as<Opaque>(), b, h);
  case Kind::Index: return trIndex(e->as<Index>(), b);
  case Kind::Size: return trSize(e->as<Size>(), b);
  case Kind::View: return trView(e->as<View>(), b);
  case Kind::NewArray: return trNewArray(e->as<NewArray>(), b, h);
  case Kind::Store: return trStore(e->as<Store>(), b);
  case Kind::Fold: return trFold(e->as<Fold>(), b, h);
  case Kind::While: return trWhile(e->as<While>(), b, h);
  case Kind::Pullback: return trPullback(e->as<Pullback>(), b, h.name.empty() ? Hint{"tmp", false} : h);
  case Kind::Resize: { // (an output std::vector parameter)
    CVal a = tr(e->as<Resize>()->array, b, Hint{"tmp", false});
    std::string n = render(tr(e->as<Resize>()->size, b, Hint{"tmp", false})), arr = render(a);
    b.push_back(lineStmt(Stmt::Effect, arr + ".resize(static_cast<std::size_t>(" + n + "));", arr + " " + n));
    invalidateArray(a);
    return unitVal();
  }
  case Kind::Throw: // the path's unit effect (the front end makes no other)
    if (!e->type->isUnit()) break;
    return trEffectStmt(e->as<Throw>()->args, [&](auto &texts) { return "throw " + e->as<Throw>()->spelled(texts) + ";"; }, b);
  case Kind::Effect: // printing, as written
    return trEffectStmt(e->as<Effect>()->args, [&](auto &texts) { return e->as<Effect>()->spelled(texts) + ";"; }, b);
  case Kind::Build: case Kind::Sum: break; // lowered to loops before printing
  case Kind::Lambda: case Kind::App: break;
  }
  fail("'" + gen_.name + "' still contains a lambda, an application, a build/sum or a throw of a value (not optimised?)");
}

CVal FnPrinter::trConst(const Const *c) {
  const TypeP &t = c->type;
  CVal v;
  if (t->isBool()) {
    v = leaf(t, c->ivalue ? "true" : "false", PPrimary, true);
  } else if (t->isInt()) {
    if (c->ivalue == INT64_MIN) v = leaf(t, "(-9223372036854775807L - 1)", PPrimary, true);
    else v = leaf(t, std::to_string(c->ivalue), c->ivalue < 0 ? PUnary : PPrimary, true);
    v.zero = c->ivalue == 0;
  } else {
    std::string s = formatFloating(c->fvalue, t->scalar == Scalar::F32);
    v = leaf(t, s, s[0] == '-' ? PUnary : PPrimary, true);
    v.zero = c->fvalue == 0.0;
  }
  return v;
}

// Along the chain, iteratively: generated bodies are long let chains.
CVal FnPrinter::trLet(const Expr &e, Block &b, const Hint &h) {
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

CVal FnPrinter::trTuple(const Tuple *t, Block &b, const Hint &h) {
  CVal v;
  v.type = t->type;
  v.agg = true;
  // components of `let t = (...)` that need locals are named t_0, t_1, ...
  std::string base = h.name.empty() ? "tmp" : h.ir ? sanitize(h.name) : h.name;
  for (size_t i = 0; i < t->elems.size(); ++i) {
    std::string part = t->type->isStruct() ? t->type->fieldNames[i] : std::to_string(i);
    v.elems.push_back(tr(t->elems[i], b, Hint{base + "_" + part, false}));
  }
  return v;
}

// `a[i]`; a row of an array of arrays is what the C++ type says of its
// rows; an unsigned element is read as a long (the IR computes in i64).
CVal FnPrinter::trIndex(const Index *x, Block &b) {
  CVal a = tr(x->array, b, Hint{"tmp", false});
  CVal i = tr(x->index, b, Hint{"tmp", false});
  std::string element = elementText(a, i);
  const CxxType *elementShape = a.shape && !a.shape->element.empty() ? &a.shape->element.front() : nullptr;
  if (x->type->isArray() && a.table) { // a row of a constant table: `kA[i]`, a C array
    CVal row = leaf(x->type, element, PPrimary);
    row.table = true;
    return row;
  }
  if (x->type->isArray()) {
    if (!elementShape) fail("a row of array '" + render(a) + "' of unknown C++ type in '" + gen_.name + "'");
    CVal row = leaf(x->type, element, PPrimary);
    setArrayShape(row, elementShape);
    return row;
  }
  if (elementShape && elementShape->isUnsigned && x->type->isInt())
    return leaf(x->type, "static_cast<long>(" + element + ")", PPrimary);
  CVal r = leaf(x->type, element, PPrimary);
  r.userObject = a.userObject; // an element of the caller's array (a non-const method's `*this`)
  return r;
}

// `a[i]`; the variable itself for a reference parameter seen as an array.
std::string FnPrinter::elementText(const CVal &a, const CVal &i) {
  if (!a.single) return operand(a, PPrimary) + "[" + render(i) + "]";
  if (render(i) != "0") fail("element " + render(i) + " of reference parameter '" + a.text + "' in '" + gen_.name + "'");
  return a.text;
}

// `a + o` (`a.data() + o` for a container): a pointer into the array.
CVal FnPrinter::trView(const View *v, Block &b) {
  CVal a = tr(v->array, b, Hint{"tmp", false});
  CVal o = tr(v->offset, b, Hint{"tmp", false});
  if (a.single) { // &out, of a reference parameter
    if (render(o) != "0") fail("a view into reference parameter '" + a.text + "' in '" + gen_.name + "'");
    CVal r = leaf(v->type, "&" + a.text, PUnary);
    r.pointer = true;
    return r;
  }
  std::string base = a.container ? operand(a, PPrimary) + ".data()" : operand(a, PAdd);
  CVal r = leaf(v->type, base + " + " + operand(o, PAdd, true), PAdd);
  r.shape = a.shape; // the elements' C++ type (rows, unsigned integers)
  r.pointer = true;
  return r;
}

CVal FnPrinter::trSize(const Size *s, Block &b) {
  CVal a = tr(s->array, b, Hint{"tmp", false});
  if (a.container) return leaf(s->type, "static_cast<long>(" + operand(a, PPrimary) + ".size())", PPrimary);
  if (a.bound) return leaf(s->type, std::to_string(a.bound), PPrimary, true);
  fail("the size of array '" + render(a) + "' is not known in C++ (a pointer parameter) in '" + gen_.name + "'");
}

CVal FnPrinter::lookup(const std::string &name) const {
  auto it = env_.find(name);
  if (it != env_.end() && !it->second.empty()) return it->second.back();
  fail("unbound variable '" + name + "' in '" + gen_.name + "'");
}

// A non-atomic value as a named const local (atoms are returned as they are).
CVal FnPrinter::materialize(const CVal &v, const std::string &hint, Block &b) {
  if (isAtom(v)) return v;
  if (v.userObject && v.type->isStruct() && v.type->mirror) return materialize(copyOfObject(v), hint, b);
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

// A copy of the user's object as its mirror (mirrors.cpp).
CVal FnPrinter::copyOfObject(const CVal &object) {
  return leaf(object.type, mirrorFromObject(object.type, operand(object, PPrimary)), PPrimary);
}

// The value of `let <h.name> = ...`: atoms are substituted, anything else
// becomes const locals (one per component for plain tuples).
CVal FnPrinter::bind(const CVal &v, const Hint &h, Block &b) {
  if (isAtom(v)) return v;
  if (v.userObject && v.type->isStruct() && v.type->mirror) return snapshotOfObject(v, h.ir ? sanitize(h.name) : h.name, b);
  if (v.type->isArray()) return bindRow(v, h, b);
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
  // a class may have no default constructor: zeros, every field spelled
  s.line = cxxType(t) + " " + n + (t->isStruct() ? zeroLiteral(t).substr(t->structName.size()) : "") + ";";
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

// A row of an array of arrays: `auto& row = A[i];` (an alias).
CVal FnPrinter::bindRow(const CVal &v, const Hint &h, Block &b) {
  std::string n = fresh(h.name, h.ir);
  Stmt s;
  s.k = Stmt::Decl;
  s.def = n;
  s.rhs = render(v);
  s.line = (v.pointer ? "auto* const " : "auto& ") + n + " = " + s.rhs + ";";
  collectIdents(s.rhs, s.uses);
  b.push_back(std::move(s));
  CVal r = v;
  r.text = n;
  r.atom = true;
  r.prec = PPrimary;
  return r;
}

CVal FnPrinter::trStore(const Store *st, Block &b) {
  CVal a = tr(st->array, b, Hint{"tmp", false});
  CVal i = tr(st->index, b, Hint{"tmp", false});
  CVal v = tr(st->value, b, Hint{"tmp", false});
  bool add = st->mode == Store::Mode::Add;
  if (add && allZero(v)) return unitVal(); // += 0: nothing happens
  std::string lhs = elementText(a, i);
  TypeP ft = st->array->type->elem();
  bool userObject = a.userObject;
  for (int k : st->path) { // a[i].x
    if (isStdComplex(ft)) // a part of a std::complex, as an lvalue
      lhs = "reinterpret_cast<" + cxxType(ft->elems.at(0)) + "(&)[2]>(" + lhs + ")[" + std::to_string(k) + "]";
    else if (!(userObject && k == 0 && ft->baseFirst)) { // (the base part of the user's object: the object)
      lhs = fieldOf(lhs, ft->fieldNames.at(size_t(k)));
    }
    ft = ft->elems.at(size_t(k));
  }
  if (add && v.type->isStruct()) { // a[i] += {x, y}: field by field, zeros skipped
    accumulate(v, lhs, false, b, userObject);
    invalidateArray(a);
    return unitVal();
  }
  if (!add && userObject && ft->isStruct() && ft->mirror) { // the user's object set from its mirror's value
    std::vector<std::string> lines;
    // (an aggregate of atoms is read as it is: writing one member cannot
    // change another's value)
    assignObjectFromMirror(ft, lhs, v.agg && isAtom(v) ? v : materialize(v, "value", b), lines);
    for (std::string &line : lines) b.push_back(lineStmt(Stmt::Effect, line, line));
    invalidateArray(a);
    return unitVal();
  }
  std::string op = add ? " += " : " = ", r = render(v);
  if (add && !v.agg && v.prec == PUnary && r.size() > 1 && r[0] == '-') { // a[i] -= x
    op = " -= ";
    r = r.substr(1);
  }
  b.push_back(lineStmt(Stmt::Effect, lhs + op + r + ";", lhs + " " + r));
  invalidateArray(a);
  return unitVal();
}

void FnPrinter::invalidateArray(const CVal &array) {
  std::set<std::string> written;
  leafNames(array, written);
  invalidateReads(&written);
}

// `let v = new[n]` -> `std::vector<double> v(n);` (zero-filled), or
// `std::array<double, 8> v{};` for a small constant size.
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
  auto local = h.ir ? localShapes_.find(h.name) : localShapes_.end();
  const CxxType *shape = local != localShapes_.end() ? local->second : nullptr;
  const std::string et = shape ? shape->element.front().valueSpelling : el->isBool() ? std::string("char") : cxxType(el);
  // A small buffer of a constant size lives on the stack (`std::array<double,
  // 8> h{};`): no heap allocation, in a loop or anywhere, unless a helper
  // takes it as a std::vector.
  auto constant = na->size->as<Const>();
  const bool onStack = constant && constant->ivalue >= 1 && constant->ivalue <= kStackBufferLimit && h.ir &&
                       !containerArrays_.count(h.name);
  // A scratch buffer (a tape) is written before it is read: no zero fill,
  // which for a large tape is a pass over memory the gradient would pay for.
  // A tape in a helper's pullback, which runs once per call of the helper
  // (in a loop, a recursion): unfad::tape keeps a small one on the stack.
  // A gradient's tape: unfad::tape_buffer, memory kept for the next call.
  const bool smallTape = !onStack && na->scratch && !classify(gen_, primal_).isGrad;
  // Structs are zeroed field by field: `T{}` and `std::vector<T>(n)` would
  // start them as T's default member initializers make them (`double k =
  // 2.0;`), which for a cotangent buffer is a wrong gradient.
  const std::string zero = el->isStruct() && !shape && !na->scratch ? zeroLiteral(el) : "";
  std::string fill;
  // (a std::array: a C array only ever stored to would draw
  // -Wunused-but-set-variable; a small tape is zeroed too: where it is
  // written on one path and read behind a check of another of its entries,
  // g++ cannot tell it is always written first, -Wmaybe-uninitialized)
  if (onStack) {
    s.line = "std::array<" + et + ", " + size + "> " + n + (!zero.empty() ? ";" : "{};");
    if (!zero.empty()) fill = n + ".fill(" + zero + ");";
  } else if (smallTape) {
    s.line = "unfad::tape<" + et + "> " + n + "(" + size + ");";
  } else {
    s.line = na->scratch ? "unfad::tape_buffer<" + et + "> " + n + "(" + size + ");"
                         : "std::vector<" + et + "> " + n + "(" + size + (zero.empty() ? "" : ", " + zero) + ");";
  }
  collectIdents(size, s.uses);
  b.push_back(std::move(s));
  if (!fill.empty()) b.push_back(lineStmt(Stmt::Effect, fill, n));
  CVal v = leaf(na->type, n, PPrimary, true);
  v.container = !na->scratch || onStack || smallTape;
  v.shape = shape;
  return v;
}

// `lhs += ct` for a float, field by field for a struct; zeros are skipped.
void FnPrinter::accumulate(const CVal &ct, const std::string &lhs, bool viaPointer, Block &b, bool userObject) {
  const TypeP &t = ct.type;
  if (allZero(ct)) return;
  // a std::complex (lib/frontend/complex_numbers.cpp): its parts are read
  // with real()/imag() but written whole, `d_z += std::complex<double>{a, b};`
  bool complex = isStdComplex(t);
  if (t->isStruct() && !complex) {
    CVal v = ct.agg ? ct : materialize(ct, "ct", b);
    for (size_t i = 0; i < t->elems.size(); ++i) {
      CVal f = v.agg ? v.elems[i] : leaf(t->elems[i], fieldOf(v.text, t->fieldNames[i]), PPrimary, true);
      if (userObject && i == 0 && t->baseFirst) accumulate(f, lhs, viaPointer, b, true); // inherited members
      else accumulate(f, fieldOf(viaPointer ? "(*" + lhs + ")" : lhs, t->fieldNames[i]), false, b, userObject);
    }
    return;
  }
  if (!t->isFloat() && !complex) return; // passive fields carry no derivative
  std::string target = viaPointer ? "*" + lhs : lhs, r = render(ct);
  b.push_back(lineStmt(Stmt::Accum, target + " += " + r + ";", target + " " + r));
}

} // namespace unfad::printer::detail
