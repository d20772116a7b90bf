// Calls: of a helper (its value, or a statement when it writes memory) and
// of a helper's pullback (zero-initialised accumulators for its scalar and
// struct cotangents, the adjoint buffers for its arrays).
#include "printer.h"

#include <algorithm>
#include <set>

namespace unfad::printer::detail {

// An array argument of a call to `callee`'s parameter `param` (or to its
// adjoint, which is a container when the parameter is one): a std::vector
// or std::array passed where the callee takes a pointer or a C array
// passes its data().
std::string FnPrinter::arrayArg(const CVal &a, const Function &callee, size_t param) {
  std::string text = render(a);
  if (!a.type->isArray() || !a.container) return text;
  if (param >= callee.cxx.params.size()) return text;
  return callee.cxx.params[param].isContainer() ? text : operand(a, PPrimary) + ".data()";
}

bool declaredAsEnum(const CxxType &t, const TypeP &irType) {
  static const std::set<std::string> builtin = {"int", "long", "long long", "short", "unsigned", "unsigned int",
                                                "unsigned long", "unsigned long long", "unsigned short", "char",
                                                "signed char", "unsigned char", "size_t", "std::size_t", "bool"};
  return t.kind == CxxType::Kind::Scalar && irType->isInt() && !t.valueSpelling.empty() && !builtin.count(t.valueSpelling);
}

namespace {

// An integer argument of a parameter declared with an enum type (or an
// alias of an integer type): the IR computes in i64, and C++ converts no
// integer to an enum implicitly, so the argument is cast to the declared
// type (which names the enum as the callee's declaration does).
std::string integerArg(const std::string &text, const Function &callee, size_t param) {
  if (param >= callee.params.size() || param >= callee.cxx.params.size()) return text;
  if (!declaredAsEnum(callee.cxx.params[param], callee.params[param].type)) return text;
  return "static_cast<" + callee.cxx.params[param].valueSpelling + ">(" + text + ")";
}

} // namespace

std::string zeroLiteral(const TypeP &t) {
  if (!t->isStruct()) return t->isFloat() ? formatFloating(0.0, t->scalar == Scalar::F32) : t->isBool() ? "false" : "0";
  std::vector<std::string> fields;
  for (const TypeP &e : t->elems) fields.push_back(zeroLiteral(e));
  return detail::bracedStruct(t, fields);
}

// `double d_g_x = 0.0;`: where a pullback adds a cotangent.
CVal FnPrinter::declareAccumulator(const TypeP &t, const std::string &hint, Block &b) {
  std::string n = fresh(hint, false);
  Stmt d;
  d.k = Stmt::Decl;
  d.def = n;
  if (t->isStruct()) d.line = cxxType(t) + " " + n + zeroLiteral(t).substr(t->structName.size()) + ";";
  else if (t->isFloat()) d.line = cxxType(t) + " " + n + " = " + formatFloating(0.0, t->scalar == Scalar::F32) + ";";
  else if (t->isScalar()) d.line = cxxType(t) + " " + n + " = " + (t->isBool() ? "false" : "0") + ";";
  else fail("pullback cotangent of type " + str(t));
  b.push_back(std::move(d));
  return leaf(t, n, PPrimary, true);
}

CVal FnPrinter::trPullback(const Pullback *p, Block &b, const Hint &h) {
  const Function *g = primal_.find(p->callee);
  if (!g) fail("pullback of unknown function '" + p->callee + "'");
  std::vector<size_t> activeIdx;
  for (size_t i = 0; i < g->params.size(); ++i)
    if (g->params[i].active) activeIdx.push_back(i);
  // (with the value: (value, cotangents...), the value returned by the call)
  const TypeP rt = p->withValue ? Type::tuple(std::vector<TypeP>(p->type->elems.begin() + 1, p->type->elems.end())) : p->type;
  bool aligned = activeIdx.size() == rt->elems.size();
  std::vector<std::string> args;
  for (size_t i = 0; i < p->args.size(); ++i)
    args.push_back(integerArg(arrayArg(tr(p->args[i], b, Hint{"tmp", false}), *g, i), *g, i));
  if (!p->cotangent->type->isUnit()) // a void helper has no d_return
    args.push_back(render(tr(p->cotangent, b, Hint{"tmp", false})));
  std::vector<CVal> bufs;
  for (auto &x : p->buffers) bufs.push_back(tr(x, b, Hint{"tmp", false}));
  // (with the value, the hint names the value: the cotangents are d_g's)
  std::string base = h.ir && !p->withValue ? sanitize(h.name) : "d_" + sanitize(cxxNameOf(*g));
  CVal r;
  r.type = p->type;
  r.agg = true;
  if (p->withValue) r.elems.push_back(CVal{}); // (the value, named below)
  Stmt call;
  call.k = Stmt::PbCall;
  call.effect = !p->buffers.empty();
  size_t nb = 0;
  for (size_t i = 0; i < rt->elems.size(); ++i) {
    const TypeP &t = rt->elems[i];
    if (aligned && g->params[activeIdx[i]].type->isArray()) { // accumulated in place into a buffer
      if (nb >= bufs.size()) fail("pullback of '" + p->callee + "' lacks a buffer for '" + g->params[activeIdx[i]].name + "'");
      args.push_back(arrayArg(bufs[nb++], *g, activeIdx[i]));
      r.elems.push_back(unitVal());
      continue;
    }
    std::string suffix = aligned ? sanitize(g->params[activeIdx[i]].name) : std::to_string(i);
    CVal accumulator = declareAccumulator(t, base + "_" + suffix, b);
    args.push_back("&" + accumulator.text);
    call.outs.push_back(accumulator.text);
    r.elems.push_back(std::move(accumulator));
  }
  if (nb != bufs.size()) fail("pullback of '" + p->callee + "' has " + std::to_string(bufs.size()) + " buffers for " + std::to_string(nb) + " array parameters");
  std::string joined;
  for (size_t i = 0; i < args.size(); ++i) joined += (i ? ", " : "") + args[i];
  collectIdents(joined, call.uses);
  // With a struct argument, argument-dependent lookup would also find the
  // copy of this pullback emitted in the struct's namespace (each block
  // carries its own): `(f_pullback)(...)` calls the one ordinary lookup finds.
  bool adl = std::any_of(g->params.begin(), g->params.end(), [](const Param &q) { return q.type->isStruct(); });
  std::string callee = g->cxx.customPullback.empty() ? generatedName(*g, false, p->withValue) : g->cxx.customPullback;
  const std::string callText = (adl ? "(" + callee + ")" : callee) + "(" + joined + ")";
  call.line = callText + ";";
  if (p->withValue) { // `const double v = g_value_and_pullback(...);`: the call's value
    const TypeP &vt = p->type->elems[0];
    call.def = fresh(h.ir ? sanitize(h.name) : sanitize(cxxNameOf(*g)) + "_value", false);
    call.effLine = call.line;
    call.line = "const " + cxxType(vt) + " " + call.def + " = " + callText + ";";
    r.elems[0] = leaf(vt, call.def, PPrimary, true);
  }
  bool writes = call.effect;
  b.push_back(std::move(call));
  if (writes) {
    std::set<std::string> w;
    for (auto &x : bufs) leafNames(x, w);
    invalidateReads(&w);
  }
  return r;
}

CVal FnPrinter::trCall(const Call *c, Block &b, const Hint &h) {
  const Function *f = primal_.find(c->callee);
  if (!f) fail("call of unknown function '" + c->callee + "'");
  if (c->type->isTuple() && !c->type->isStruct() && !c->type->isUnit())
    fail("call of '" + c->callee + "' returns a plain tuple");
  if (c->type->isArray()) fail("call of '" + c->callee + "' returns an array");
  std::string s = (f->cxx.qualifiedName.empty() ? cxxNameOf(*f) : f->cxx.qualifiedName) + "(";
  std::set<std::string> w; // the arrays it may write: those it is given
  // A marked method (its gradient's rerun, `this->advance(h)`) takes its
  // object first: whole, or split into its members (a class owning
  // std::vectors), which are then this object's own.
  auto splitObject = [&](size_t i) { return i < f->cxx.params.size() && f->cxx.params[i].splitThis(); };
  const bool split = isMethod(*f) && splitObject(0);
  size_t object = isMethod(*f) ? 1 : 0;
  while (split && splitObject(object)) ++object;
  bool first = true;
  for (size_t i = 0; i < c->args.size(); ++i) {
    CVal a = tr(c->args[i], b, Hint{"tmp", false});
    if (a.type->isArray()) leafNames(a, w);
    std::string arg = integerArg(arrayArg(a, *f, i), *f, i);
    if (i < object && split) { // a member of the split object: this one's
      if (arg != fieldOf(kThisObject, f->cxx.params[i].member))
        fail("call of the method '" + f->cxx.name + "' on an object other than *this ('" + arg + "')");
      if (i == 0) s = fieldOf(kThisObject, f->cxx.name) + "(";
    } else if (i < object) {
      s = fieldOf(arg, f->cxx.name) + "(";
    } else {
      s += (first ? "" : ", ") + arg;
      first = false;
    }
  }
  s += ")";
  if (c->type->isUnit()) { // a void helper: a statement
    b.push_back(lineStmt(Stmt::Effect, s + ";", s));
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

// A function without a derivative called on passive values: the call as the
// user wrote it, once, its value named. (A program constant is read by name.)
CVal FnPrinter::trOpaque(const Opaque *c, Block &b, const Hint &h) {
  if (c->args.empty()) { // a constant or a constant table, by its name
    CVal constant = leaf(c->type, c->callee, PPrimary, true);
    constant.table = c->type->isArray();
    return constant;
  }
  std::string s, base, type = cxxType(c->type);
  if (c->callee.find(Throw::kArg) != std::string::npos) { // an expression as written, its arguments at the marks
    base = c->type->isBool() ? "text_test" : "text_value";
    std::vector<std::string> texts;
    for (auto &a : c->args) texts.push_back(render(tr(a, b, Hint{"tmp", false})));
    s = fillMarks(c->callee, texts);
    if (c->type->isInt() && (c->callee.rfind("std::string", 0) == 0 || c->callee.rfind("static_cast<const char *>", 0) == 0)) {
      if (!h.ir) return leaf(c->type, s, PPrimary, true); // (text for a helper)
      type = "auto"; // a local text variable (`std::string kind = ...;`): declared once, its type the text's
    }
  } else {
    s = c->callee + "(";
    for (size_t i = 0; i < c->args.size(); ++i) s += (i ? ", " : "") + render(tr(c->args[i], b, Hint{"tmp", false}));
    s += ")";
    size_t colon = c->callee.rfind("::");
    base = (colon == std::string::npos ? c->callee : c->callee.substr(colon + 2)) + "_value";
  }
  std::string n = fresh(h.name.empty() ? base : h.name, h.ir);
  Stmt st;
  st.k = Stmt::Decl;
  st.def = n;
  st.rhs = s;
  st.line = "const " + type + " " + n + " = " + s + ";";
  collectIdents(s, st.uses);
  b.push_back(std::move(st));
  return leaf(c->type, n, PPrimary, true);
}

} // namespace unfad::printer::detail
