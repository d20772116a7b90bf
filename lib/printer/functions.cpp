// Generated functions: which primal a `f$grad` / `g$pullback` belongs to,
// its parameters (the primal's, d_return, the adjoints), its signature, and
// the entry points of the printer.
#include "unfad/printer/cxx.h"

#include "printer.h"

namespace unfad::printer {

namespace detail {

Signature classify(const Function &gen, const Program &primal) {
  size_t d = gen.name.rfind('$');
  if (d == std::string::npos) fail("'" + gen.name + "' is neither a $grad nor a $pullback function");
  std::string base = gen.name.substr(0, d), suffix = gen.name.substr(d + 1);
  Signature s;
  if (suffix == "grad") s.isGrad = true;
  else if (suffix == "jvp") s.isJvp = true;
  else if (suffix == "value_and_pullback") s.withValue = true;
  else if (suffix != "pullback") fail("'" + gen.name + "' is neither a $grad, a $jvp nor a $pullback function");
  s.primal = primal.find(base);
  if (!s.primal) fail("no primal function '" + base + "' for '" + gen.name + "'");
  return s;
}

namespace {

// `return <the primal value>;`, which f$grad and f$jvp end with.
Stmt returnStmt(const CVal &value) {
  std::string r = render(value);
  return lineStmt(Stmt::Return, "return " + r + ";", r);
}

// f$grad: f's parameters, then one buffer per active array parameter;
// g$pullback: g's parameters, d_return, then the buffers. Returns where the
// buffers start.
size_t checkParams(const Function &gen, const Function &f, bool isGrad) {
  size_t n = f.params.size(), buffers = 0;
  for (auto &p : f.params) buffers += p.active && p.type->isArray();
  size_t at = n + (isGrad ? 0 : 1);
  if (gen.params.size() != at + buffers) fail("'" + gen.name + "' does not have the parameters of '" + f.name + "'");
  for (size_t k = 0; k < buffers; ++k)
    if (!gen.params[at + k].type->isArray())
      fail("parameter '" + gen.params[at + k].name + "' of '" + gen.name + "' is not an adjoint buffer");
  return at;
}

bool described(const Function &f) { return f.cxx.params.size() == f.params.size(); }

// `T name` for parameter `i` of `f`, from the front end's description or,
// without one (an IR read from old JSON), from the IR type.
std::string declareParam(const Function &f, size_t i, const std::string &name) {
  if (described(f)) return f.cxx.params[i].declBefore + name + f.cxx.params[i].declAfter;
  const TypeP &t = f.params[i].type;
  if (t->isStruct()) return "const " + cxxType(t) + "& " + name;
  if (t->isArray()) return (f.params[i].written ? "" : "const ") + cxxType(t->elem()) + "* " + name;
  return cxxType(t) + " " + name;
}

std::string declareAdjoint(const Function &f, size_t i, const std::string &name) {
  if (described(f)) return f.cxx.params[i].adjointBefore + name + f.cxx.params[i].adjointAfter;
  const TypeP &t = f.params[i].type;
  return cxxType(t->isArray() ? t->elem() : t) + "* " + name;
}

// A member of a struct parameter the front end split (CxxType::parent).
const CxxType *splitMember(const Function &f, size_t i) {
  return described(f) && !f.cxx.params[i].parent.empty() ? &f.cxx.params[i] : nullptr;
}

// The adjoint of a split member: `d_m->w` (for a `const double*` member,
// which the adjoint struct holds as such, the caller's adjoint array cast
// writable again).
std::string memberAdjoint(const CxxType &m, const std::string &parent) {
  std::string a = parent + "->" + m.member;
  if (m.kind == CxxType::Kind::Pointer && m.isConst) {
    std::string t = m.adjointBefore;
    while (!t.empty() && t.back() == ' ') t.pop_back();
    a = "const_cast<" + t + ">(" + a + ")";
  }
  return a;
}

bool returnsVoid(const Function &f) { return f.result->isUnit() || f.cxx.result.kind == CxxType::Kind::Void; }

// The C++ type f returns (not void), without cv and reference.
std::string returnSpelling(const Function &f) {
  return described(f) && !f.cxx.result.valueSpelling.empty() ? f.cxx.result.valueSpelling : cxxType(f.result);
}

} // namespace

std::string generatedName(const Function &f, bool isGrad, bool withValue) {
  if (isGrad && isMethod(f)) return memberGradientName(f.cxx.name);
  return generatedBase(f) + (isGrad ? "_grad" : withValue ? "_value_and_pullback" : "_pullback");
}

// Parameter names: the primal's first, then d_return, then the adjoints
// (an array's is the buffer parameter, named as in the IR).
FnPrinter::Params FnPrinter::nameParams(const Function &f, bool isGrad) {
  size_t n = f.params.size(), bufferAt = n + (isGrad ? 0 : 1), buffer = 0;
  Params names;
  for (size_t i = 0; i < n; ++i) {
    if (const CxxType *m = splitMember(f, i)) { // `m.w`, of the parameter `m`
      std::string &p = names.parent[m->parent];
      if (p.empty()) p = m->splitThis() ? std::string(kThisObject) : fresh(m->parent, true);
      names.primal.push_back(fieldOf(p, m->member));
      continue;
    }
    names.primal.push_back(i == 0 && isMethod(f) ? std::string(kThisObject) : fresh(gen_.params[i].name, true));
  }
  if (!isGrad && !gen_.params[n].type->isUnit()) names.dret = fresh("d_return", true); // a void helper has none
  for (size_t i = 0; i < n; ++i) {
    if (!f.params[i].active) continue;
    names.active.push_back(i);
    if (const CxxType *m = splitMember(f, i)) {
      std::string &d = names.parentAdjoint[m->parent];
      if (d.empty()) d = fresh(m->splitThis() ? "d_this" : "d_" + names.parent[m->parent], true);
      if (f.params[i].type->isArray()) ++buffer;
      names.adjoint.push_back(memberAdjoint(*m, d));
      continue;
    }
    names.adjoint.push_back(f.params[i].type->isArray() ? fresh(gen_.params[bufferAt + buffer++].name, true)
                                                        : fresh(i == 0 && isMethod(f) ? "d_this" : "d_" + names.primal[i], true));
  }
  // the types' names, so that no local shadows them
  if (described(f))
    for (auto &p : f.cxx.params) reserveIdents(p.declBefore + " " + p.declAfter + " " + p.adjointBefore + " " + p.adjointAfter);
  return names;
}

// The IR parameters' C++ values: the primal parameters (an unsigned integer
// read as a long), d_return, the adjoint buffers (shaped like their
// parameters).
void FnPrinter::bindParams(const Function &f, const Params &names, bool isGrad) {
  size_t n = f.params.size();
  for (size_t i = 0; i < n; ++i) {
    const TypeP &t = gen_.params[i].type;
    if (t->isTuple() && !t->isStruct()) fail("parameter '" + gen_.params[i].name + "' has a plain tuple type");
    CVal v = leaf(t, names.primal[i], PPrimary, true);
    v.userObject = true; // (the caller's objects: see CVal::userObject)
    const CxxType *shape = described(f) ? &f.cxx.params[i] : nullptr;
    if (t->isArray()) setArrayShape(v, shape);
    if (t->isArray() && shape && (shape->kind == CxxType::Kind::Scalar || shape->kind == CxxType::Kind::Struct))
      v.single = true; // `double& out`: the IR's out[0]
    else if (t->isInt() && shape && (shape->isUnsigned || declaredAsEnum(*shape, t))) // (an enum: compared with integers)
      v.text = "static_cast<long>(" + names.primal[i] + ")";
    push(gen_.params[i].name, v);
  }
  if (!isGrad) push(gen_.params[n].name, names.dret.empty() ? unitVal() : leaf(gen_.params[n].type, names.dret, PPrimary, true));
  size_t buffer = n + (isGrad ? 0 : 1);
  for (size_t j = 0; j < names.active.size(); ++j) {
    size_t i = names.active[j];
    if (!f.params[i].type->isArray()) continue;
    const Param &bp = gen_.params[buffer++];
    CVal v = leaf(bp.type, names.adjoint[j], PPrimary, true);
    setArrayShape(v, described(f) ? &f.cxx.params[i] : nullptr);
    if (i == 0 && isMethod(f) && !splitMember(f, i)) { // a non-const method's `d_this`: the IR's d_this[0] is `*d_this`
      v.single = true;
      v.text = "(*" + names.adjoint[j] + ")";
    }
    v.userObject = true;
    push(bp.name, v);
  }
}

// After the body: the cotangents added into the adjoints, the primal value
// returned (by a gradient of a non-void function, and a value_and_pullback).
void FnPrinter::finishBody(const Function &f, const Params &names, const CVal &res, bool isGrad, Block &body) {
  const bool returnsValue = (isGrad || withValue_) && !returnsVoid(f);
  size_t off = isGrad || withValue_ ? 1 : 0, nActive = names.active.size();
  if (!res.agg || res.type->isStruct() || res.elems.size() != nActive + off)
    fail("body of '" + gen_.name + "' is not a tuple of " + std::to_string(nActive + off) + " elements");
  for (size_t j = 0; j < nActive; ++j) {
    const TypeP &pt = f.params[names.active[j]].type;
    const TypeP &ct = res.elems[j + off].type;
    if (pt->isArray() ? !ct->isUnit() : !sameType(pt, ct))
      fail("cotangent of '" + f.params[names.active[j]].name + "' has type " + str(ct));
    // (userObject: the adjoints are the caller's objects, whose inherited
    // members are theirs, CVal::userObject)
    accumulate(res.elems[j + off], names.adjoint[j], !splitMember(f, names.active[j]), body, /*userObject=*/true);
  }
  if (returnsValue) body.push_back(returnStmt(res.elems[0]));
}

Printed FnPrinter::signature(const Function &f, const Params &names, bool isGrad, const std::set<std::string> &live) {
  Printed out;
  std::string link;
  // A static f may be called while f_grad is not: no -Wunused-function.
  if (f.cxx.isStatic) link += isGrad && !f.cxx.isInline && !f.cxx.isConstexpr ? "[[maybe_unused]] static " : "static ";
  if (!isGrad || f.cxx.isInline || f.cxx.isConstexpr) link += "inline ";
  std::string ret = (isGrad || withValue_) && !returnsVoid(f) ? returnSpelling(f) : "void";
  bool method = isGrad && isMethod(f); // defined at namespace scope, declared in the class
  // A member of a class template's specialization ("Spring<double>") is an
  // explicit specialization of the member declared in the template.
  if (method && f.cxx.memberOf.find('<') != std::string::npos) link = "template <> " + link;
  out.head = link + ret + " " + (method ? f.cxx.memberOf + "::" : "") + generatedName(f, isGrad, withValue_);
  if (method) out.memberHead = ret + " " + generatedName(f, isGrad);
  if (method && f.cxx.isConstMethod) out.qualifiers = " const";
  std::vector<std::pair<std::string, std::string>> params; // declaration, name
  std::set<std::string> declared; // the split struct parameters, declared once (at their first member)
  for (size_t i = 0; i < f.params.size(); ++i) {
    if (const CxxType *m = splitMember(f, i)) {
      const std::string &p = names.parent.at(m->parent);
      if (!m->splitThis() && declared.insert(p).second) params.emplace_back(m->parentDecl[0] + p + m->parentDecl[1], p);
      continue;
    }
    if (method && i == 0) continue; // (a method's `*this` is implicit)
    params.emplace_back(declareParam(f, i, names.primal[i]), names.primal[i]);
  }
  if (!names.dret.empty()) params.emplace_back(returnSpelling(f) + " " + names.dret, names.dret);
  for (size_t j = 0; j < names.active.size(); ++j) {
    if (const CxxType *m = splitMember(f, names.active[j])) {
      const std::string &d = names.parentAdjoint.at(m->parent);
      if (declared.insert(d).second) params.emplace_back(m->parentAdjoint[0] + d + m->parentAdjoint[1], d);
      continue;
    }
    params.emplace_back(declareAdjoint(f, names.active[j], names.adjoint[j]), names.adjoint[j]);
  }
  for (size_t i = 0; i < params.size(); ++i) {
    std::string sep = i ? ", " : "";
    out.protoArgs += sep + params[i].first;
    out.defArgs += sep + (live.count(params[i].second) ? "" : "[[maybe_unused]] ") + params[i].first;
  }
  return out;
}

Printed FnPrinter::runJvp(const Function &f) {
  const size_t n = f.params.size();
  std::vector<size_t> active;
  for (size_t i = 0; i < n; ++i)
    if (f.params[i].active) active.push_back(i);
  if (gen_.params.size() != n + active.size()) fail("'" + gen_.name + "' does not have the parameters of '" + f.name + "'");
  scan(gen_.body);
  const std::string name = generatedBase(f) + "_jvp";
  used_.insert(name);
  // the primal parameters' names, as for a gradient; the tangents' d_<name>
  Params names;
  std::vector<std::string> tangent;
  std::map<std::string, std::string> tangentParent; // a split struct parameter -> its tangent's name
  for (size_t i = 0; i < n; ++i) {
    if (const CxxType *m = splitMember(f, i)) {
      std::string &p = names.parent[m->parent];
      if (p.empty()) p = fresh(m->parent, true);
      names.primal.push_back(p + "." + m->member);
      continue;
    }
    names.primal.push_back(fresh(gen_.params[i].name, true));
  }
  for (size_t j = 0; j < active.size(); ++j) {
    if (const CxxType *m = splitMember(f, active[j])) {
      std::string &d = tangentParent[m->parent];
      if (d.empty()) d = fresh("d_" + names.parent[m->parent], true);
      tangent.push_back(d + "." + m->member);
      continue;
    }
    tangent.push_back(fresh(gen_.params[n + j].name, true));
  }
  const bool isVoid = returnsVoid(f);
  const std::string dret = isVoid ? "" : fresh("d_return", true);
  if (described(f))
    for (auto &p : f.cxx.params) reserveIdents(p.declBefore + " " + p.declAfter);
  bindParams(f, names, /*isGrad=*/true); // (names.active is empty: the primal parameters only)
  for (size_t j = 0; j < active.size(); ++j) {
    size_t i = active[j];
    const TypeP &t = gen_.params[n + j].type;
    CVal v = leaf(t, tangent[j], PPrimary, true);
    v.userObject = true; // (the caller's objects, as the primal parameters)
    const CxxType *shape = described(f) ? &f.cxx.params[i] : nullptr;
    if (t->isArray()) setArrayShape(v, shape);
    if (t->isArray() && shape && (shape->kind == CxxType::Kind::Scalar || shape->kind == CxxType::Kind::Struct))
      v.single = true; // `double& d_out`, as its parameter
    push(gen_.params[n + j].name, v);
  }

  Block body;
  CVal res = tr(gen_.body, body, Hint{"res", false});
  if (!isVoid) {
    if (!res.agg || res.type->isStruct() || res.elems.size() != 2) fail("body of '" + gen_.name + "' is not a (value, tangent) pair");
    std::string d = render(res.elems[1]);
    body.push_back(lineStmt(Stmt::Accum, "*" + dret + " = " + d + ";", dret + " " + d)); // (Accum: an effect, kept)
    body.push_back(returnStmt(res.elems[0]));
  }
  std::set<std::string> live;
  dce(body, live);
  dropUnassignedDecls(body);

  Printed out;
  std::string link;
  if (f.cxx.isStatic) link += !f.cxx.isInline && !f.cxx.isConstexpr ? "[[maybe_unused]] static " : "static ";
  if (f.cxx.isInline || f.cxx.isConstexpr) link += "inline ";
  out.head = link + (isVoid ? std::string("void") : returnSpelling(f)) + " " + name;
  std::vector<std::pair<std::string, std::string>> params; // declaration, name
  std::set<std::string> declared;
  auto add = [&](size_t i, const std::string &nm, bool isTangent) {
    if (const CxxType *m = splitMember(f, i)) {
      const std::string &p = isTangent ? tangentParent.at(m->parent) : names.parent.at(m->parent);
      if (declared.insert(p).second) params.emplace_back(m->parentDecl[0] + p + m->parentDecl[1], p);
      return;
    }
    params.emplace_back(declareParam(f, i, nm), nm);
  };
  for (size_t i = 0; i < n; ++i) add(i, names.primal[i], false);
  for (size_t j = 0; j < active.size(); ++j) add(active[j], tangent[j], true);
  if (!isVoid) params.emplace_back(returnSpelling(f) + "* " + dret, dret);
  for (size_t i = 0; i < params.size(); ++i) {
    std::string sep = i ? ", " : "";
    out.protoArgs += sep + params[i].first;
    out.defArgs += sep + (live.count(params[i].second) ? "" : "[[maybe_unused]] ") + params[i].first;
  }
  emit(body, 1, out.body);
  return out;
}

Printed FnPrinter::run() {
  Signature sig = classify(gen_, primal_);
  const Function &f = *sig.primal;
  if (sig.isJvp) return runJvp(f);
  checkParams(gen_, f, sig.isGrad);
  scan(gen_.body);
  withValue_ = sig.withValue;
  used_.insert(generatedName(f, sig.isGrad, sig.withValue));
  Params names = nameParams(f, sig.isGrad);
  bindParams(f, names, sig.isGrad);

  Block body;
  CVal res = tr(gen_.body, body, Hint{"res", false});
  finishBody(f, names, res, sig.isGrad, body);
  std::set<std::string> live;
  dce(body, live);
  dropUnassignedDecls(body);

  Printed out = signature(f, names, sig.isGrad, live);
  emit(body, 1, out.body);
  return out;
}

} // namespace detail

namespace {

// build/sum are printed as the loops they stand for.
ir::Function lowered(const ir::Function &generated) {
  ir::Function g = generated;
  g.body = ir::lowerParallel(g.body);
  return g;
}

} // namespace

std::string printFunction(const ir::Function &generated, const ir::Program &primal) {
  detail::Printed p = detail::FnPrinter(lowered(generated), primal).run();
  return p.head + "(" + p.defArgs + ")" + p.qualifiers + " {\n" + p.body + "}\n";
}

std::string printPrototype(const ir::Function &generated, const ir::Program &primal) {
  detail::Printed p = detail::FnPrinter(lowered(generated), primal).run();
  return p.head + "(" + p.protoArgs + ");";
}

std::string printMemberDeclaration(const ir::Function &generated, const ir::Program &primal) {
  detail::Printed p = detail::FnPrinter(lowered(generated), primal).run();
  if (p.memberHead.empty()) throw ir::IRError("'" + generated.name + "' is not the gradient of a member function");
  return p.memberHead + "(" + p.protoArgs + ")" + p.qualifiers + ";";
}

std::string cxxName(const ir::Function &generated, const ir::Program &primal) {
  detail::Signature s = detail::classify(generated, primal);
  if (s.isJvp) return detail::generatedBase(*s.primal) + "_jvp";
  return detail::generatedName(*s.primal, s.isGrad, s.withValue);
}

} // namespace unfad::printer
