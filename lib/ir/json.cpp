// JSON form of the IR: {"kind": "let", "name": ..., "value": ..., "body": ...}.
#include "unfad/ir/json.h"

#include <algorithm>
#include <iterator>

namespace unfad::ir {

using nlohmann::json;

json toJson(const TypeP &t) {
  switch (t->kind) {
  case Type::Kind::Scalar: return str(t);
  case Type::Kind::Tuple: {
    json j = {{"tuple", json::array()}};
    for (auto &e : t->elems) j["tuple"].push_back(toJson(e));
    if (t->isStruct()) {
      j["struct"] = t->structName;
      j["fields"] = t->fieldNames;
      if (t->mirror) j["mirror"] = true;
      if (t->baseFirst) j["base_first"] = true;
    }
    return j;
  }
  case Type::Kind::Array: return {{"array", toJson(t->elem())}};
  case Type::Kind::Func: {
    json j = {{"params", json::array()}, {"result", toJson(t->result)}};
    for (auto &e : t->elems) j["params"].push_back(toJson(e));
    return j;
  }
  }
  return nullptr;
}

TypeP typeFromJson(const json &j) {
  if (j.is_string()) {
    std::string s = j;
    if (s == "f64") return Type::f64();
    if (s == "f32") return Type::f32();
    if (s == "i64") return Type::i64();
    if (s == "bool") return Type::boolean();
    throw IRError("json: unknown type " + s);
  }
  if (j.contains("array")) return Type::array(typeFromJson(j["array"]));
  if (j.contains("tuple")) {
    std::vector<TypeP> es;
    for (auto &e : j["tuple"]) es.push_back(typeFromJson(e));
    if (j.contains("struct"))
      return Type::structure(j["struct"], j["fields"].get<std::vector<std::string>>(), std::move(es),
                             j.value("mirror", false), j.value("base_first", false));
    return Type::tuple(std::move(es));
  }
  std::vector<TypeP> ps;
  for (auto &e : j.at("params")) ps.push_back(typeFromJson(e));
  return Type::func(std::move(ps), typeFromJson(j.at("result")));
}

static json list(const std::vector<Expr> &es) {
  json a = json::array();
  for (auto &e : es) a.push_back(toJson(e));
  return a;
}

static std::vector<Expr> exprs(const json &j) {
  std::vector<Expr> es;
  for (auto &e : j) es.push_back(exprFromJson(e));
  return es;
}

json toJson(const Expr &e) {
  switch (e->kind) {
  case Kind::Const: {
    auto c = e->as<Const>();
    json j = {{"kind", "const"}, {"type", toJson(c->type)}};
    if (c->type->isFloat()) j["value"] = c->fvalue;
    else j["value"] = c->ivalue;
    return j;
  }
  case Kind::Var: return {{"kind", "var"}, {"name", e->as<Var>()->name}, {"type", toJson(e->type)}};
  case Kind::Prim: {
    auto p = e->as<Prim>();
    json j = {{"kind", "prim"}, {"op", opName(p->op)}, {"args", list(p->args)}};
    if (p->op == Op::Cast) j["type"] = toJson(p->type);
    return j;
  }
  case Kind::Let: {
    auto l = e->as<Let>();
    return {{"kind", "let"}, {"name", l->name}, {"value", toJson(l->value)}, {"body", toJson(l->body)}};
  }
  case Kind::If: {
    auto i = e->as<If>();
    return {{"kind", "if"}, {"cond", toJson(i->cond)}, {"then", toJson(i->thenE)}, {"else", toJson(i->elseE)}};
  }
  case Kind::Tuple: {
    json j = {{"kind", "tuple"}, {"elems", list(e->as<Tuple>()->elems)}};
    if (e->type->isStruct()) j["type"] = toJson(e->type);
    return j;
  }
  case Kind::Proj: return {{"kind", "proj"}, {"tuple", toJson(e->as<Proj>()->tuple)}, {"index", e->as<Proj>()->index}};
  case Kind::Call: {
    auto c = e->as<Call>();
    return {{"kind", "call"}, {"callee", c->callee}, {"args", list(c->args)}, {"type", toJson(c->type)}};
  }
  case Kind::Opaque: {
    auto c = e->as<Opaque>();
    json j = {{"kind", "opaque"}, {"callee", c->callee}, {"args", list(c->args)}, {"type", toJson(c->type)}};
    if (c->read) j["read"] = true;
    return j;
  }
  case Kind::Resize:
    return {{"kind", "resize"}, {"array", toJson(e->as<Resize>()->array)}, {"size", toJson(e->as<Resize>()->size)}};
  case Kind::Throw: {
    json j{{"kind", "throw"}, {"thrown", e->as<Throw>()->thrown}, {"type", toJson(e->type)}};
    if (!e->as<Throw>()->args.empty()) j["args"] = list(e->as<Throw>()->args);
    return j;
  }
  case Kind::Effect: {
    json j{{"kind", "effect"}, {"spelling", e->as<Effect>()->spelling}};
    if (!e->as<Effect>()->args.empty()) j["args"] = list(e->as<Effect>()->args);
    return j;
  }
  case Kind::Pullback: {
    auto c = e->as<Pullback>();
    json j{{"kind", "pullback"}, {"callee", c->callee}, {"args", list(c->args)},
           {"cotangent", toJson(c->cotangent)}, {"type", toJson(c->type)}, {"buffers", list(c->buffers)}};
    if (c->withValue) j["withValue"] = true;
    return j;
  }
  case Kind::Index: return {{"kind", "index"}, {"array", toJson(e->as<Index>()->array)}, {"index", toJson(e->as<Index>()->index)}};
  case Kind::Size: return {{"kind", "size"}, {"array", toJson(e->as<Size>()->array)}};
  case Kind::View: return {{"kind", "view"}, {"array", toJson(e->as<View>()->array)}, {"offset", toJson(e->as<View>()->offset)}};
  case Kind::NewArray:
    return {{"kind", "new"}, {"size", toJson(e->as<NewArray>()->size)}, {"elem", toJson(e->type->elem())},
            {"scratch", e->as<NewArray>()->scratch}};
  case Kind::Store: {
    auto s = e->as<Store>();
    json j = {{"kind", "store"}, {"array", toJson(s->array)}, {"index", toJson(s->index)}, {"value", toJson(s->value)},
              {"mode", s->mode == Store::Mode::Add ? "add" : "set"}};
    if (!s->path.empty()) j["path"] = s->path;
    return j;
  }
  case Kind::While: {
    auto w = e->as<While>();
    return {{"kind", "while"}, {"init", toJson(w->init)}, {"state", w->state}, {"cond", toJson(w->cond)},
            {"body", toJson(w->body)}};
  }
  case Kind::Fold: {
    auto f = e->as<Fold>();
    return {{"kind", "fold"}, {"lo", toJson(f->lo)}, {"hi", toJson(f->hi)}, {"init", toJson(f->init)},
            {"index", f->index}, {"state", f->state}, {"body", toJson(f->body)}, {"reversed", f->reversed}};
  }
  case Kind::Build: {
    auto b = e->as<Build>();
    return {{"kind", "build"}, {"size", toJson(b->size)}, {"index", b->index}, {"body", toJson(b->body)}};
  }
  case Kind::Sum: {
    auto m = e->as<Sum>();
    return {{"kind", "sum"}, {"lo", toJson(m->lo)}, {"hi", toJson(m->hi)}, {"index", m->index}, {"body", toJson(m->body)}};
  }
  case Kind::Lambda: {
    auto l = e->as<Lambda>();
    json ps = json::array();
    for (auto &p : l->params) ps.push_back({{"name", p.name}, {"type", toJson(p.type)}});
    return {{"kind", "lambda"}, {"params", ps}, {"body", toJson(l->body)}};
  }
  case Kind::App: return {{"kind", "app"}, {"fn", toJson(e->as<App>()->fn)}, {"args", list(e->as<App>()->args)}};
  }
  return nullptr;
}

Expr exprFromJson(const json &j) {
  std::string k = j.at("kind");
  if (k == "const") {
    TypeP t = typeFromJson(j.at("type"));
    if (t->isBool()) return Const::makeBool(j.at("value").get<int64_t>() != 0);
    if (t->isInt()) return Const::makeInt(j.at("value").get<int64_t>());
    return Const::make(j.at("value").get<double>(), t);
  }
  if (k == "var") return Var::make(j.at("name"), typeFromJson(j.at("type")));
  if (k == "prim") {
    Op op;
    if (!opFromName(j.at("op"), op)) throw IRError("json: unknown op");
    auto as = exprs(j.at("args"));
    if (op == Op::Cast) return Prim::makeCast(as.at(0), typeFromJson(j.at("type")));
    return Prim::make(op, std::move(as));
  }
  if (k == "let") return Let::make(j.at("name"), exprFromJson(j.at("value")), exprFromJson(j.at("body")));
  if (k == "if") return If::make(exprFromJson(j.at("cond")), exprFromJson(j.at("then")), exprFromJson(j.at("else")));
  if (k == "tuple") {
    auto es = exprs(j.at("elems"));
    if (j.contains("type")) return Tuple::makeStruct(typeFromJson(j["type"]), std::move(es));
    return Tuple::make(std::move(es));
  }
  if (k == "proj") return Proj::make(exprFromJson(j.at("tuple")), j.at("index"));
  if (k == "call") return Call::make(j.at("callee"), exprs(j.at("args")), typeFromJson(j.at("type")));
  if (k == "resize") return Resize::make(exprFromJson(j.at("array")), exprFromJson(j.at("size")));
  if (k == "throw")
    return Throw::make(j.at("thrown"), typeFromJson(j.at("type")), j.contains("args") ? exprs(j["args"]) : std::vector<Expr>{});
  if (k == "effect") return Effect::make(j.at("spelling"), j.contains("args") ? exprs(j["args"]) : std::vector<Expr>{});
  if (k == "opaque")
    return Opaque::make(j.at("callee"), exprs(j.at("args")), typeFromJson(j.at("type")), j.value("read", false));
  if (k == "pullback")
    return Pullback::make(j.at("callee"), exprs(j.at("args")), exprFromJson(j.at("cotangent")), typeFromJson(j.at("type")),
                          j.contains("buffers") ? exprs(j["buffers"]) : std::vector<Expr>{}, j.value("withValue", false));
  if (k == "index") return Index::make(exprFromJson(j.at("array")), exprFromJson(j.at("index")));
  if (k == "size") return Size::make(exprFromJson(j.at("array")));
  if (k == "view") return View::make(exprFromJson(j.at("array")), exprFromJson(j.at("offset")));
  if (k == "new") return NewArray::make(exprFromJson(j.at("size")), typeFromJson(j.at("elem")), j.value("scratch", false));
  if (k == "store")
    return Store::make(exprFromJson(j.at("array")), exprFromJson(j.at("index")), exprFromJson(j.at("value")),
                       j.at("mode") == "add" ? Store::Mode::Add : Store::Mode::Set,
                       j.contains("path") ? j["path"].get<std::vector<int>>() : std::vector<int>{});
  if (k == "while")
    return While::make(exprFromJson(j.at("init")), j.at("state"), exprFromJson(j.at("cond")), exprFromJson(j.at("body")));
  if (k == "fold")
    return Fold::make(exprFromJson(j.at("lo")), exprFromJson(j.at("hi")), exprFromJson(j.at("init")), j.at("index"),
                      j.at("state"), exprFromJson(j.at("body")), j.value("reversed", false));
  if (k == "build") return Build::make(exprFromJson(j.at("size")), j.at("index"), exprFromJson(j.at("body")));
  if (k == "sum")
    return Sum::make(exprFromJson(j.at("lo")), exprFromJson(j.at("hi")), j.at("index"), exprFromJson(j.at("body")));
  if (k == "lambda") {
    std::vector<Binder> ps;
    for (auto &p : j.at("params")) ps.push_back({p.at("name"), typeFromJson(p.at("type"))});
    return Lambda::make(std::move(ps), exprFromJson(j.at("body")));
  }
  if (k == "app") return App::make(exprFromJson(j.at("fn")), exprs(j.at("args")));
  throw IRError("json: unknown node kind " + k);
}

namespace {

const char *const kCxxKindNames[] = {"void", "scalar", "struct", "pointer", "c_array", "vector", "std_array"};

json toJson(const CxxType &t) {
  json j = {{"kind", kCxxKindNames[size_t(t.kind)]}, {"const", t.isConst}, {"reference", t.isReference},
            {"unsigned", t.isUnsigned}, {"bound", t.bound}, {"value", t.valueSpelling},
            {"decl", {t.declBefore, t.declAfter}}, {"adjoint", {t.adjointBefore, t.adjointAfter}}};
  if (!t.element.empty()) j["element"] = toJson(t.element.front());
  if (!t.parent.empty())
    j["member_of"] = {t.parent, t.member, t.parentDecl[0], t.parentDecl[1], t.parentAdjoint[0], t.parentAdjoint[1]};
  return j;
}

CxxType cxxTypeFromJson(const json &j) {
  CxxType t;
  std::string kind = j.at("kind");
  auto known = std::find(std::begin(kCxxKindNames), std::end(kCxxKindNames), kind);
  if (known == std::end(kCxxKindNames)) throw IRError("json: unknown C++ type kind " + kind);
  t.kind = CxxType::Kind(known - std::begin(kCxxKindNames));
  t.isConst = j.value("const", false);
  t.isReference = j.value("reference", false);
  t.isUnsigned = j.value("unsigned", false);
  t.bound = j.value("bound", uint64_t(0));
  t.valueSpelling = j.value("value", "");
  auto parts = [&](const char *key, std::string &before, std::string &after) {
    if (!j.contains(key)) return;
    before = j.at(key).at(0);
    after = j.at(key).at(1);
  };
  parts("decl", t.declBefore, t.declAfter);
  parts("adjoint", t.adjointBefore, t.adjointAfter);
  if (j.contains("element")) t.element.push_back(cxxTypeFromJson(j.at("element")));
  if (j.contains("member_of")) {
    const json &m = j.at("member_of");
    t.parent = m.at(0), t.member = m.at(1);
    t.parentDecl[0] = m.at(2), t.parentDecl[1] = m.at(3);
    t.parentAdjoint[0] = m.at(4), t.parentAdjoint[1] = m.at(5);
  }
  return t;
}

} // namespace

json toJson(const Function &f) {
  json ps = json::array();
  for (auto &p : f.params)
    ps.push_back({{"name", p.name}, {"type", toJson(p.type)}, {"active", p.active}, {"written", p.written}, {"inout", p.inout}});
  json cxx = {{"name", f.cxx.name}, {"qualifiedName", f.cxx.qualifiedName},
              {"namespace", f.cxx.enclosingNamespace}, {"static", f.cxx.isStatic},
              {"inline", f.cxx.isInline}, {"constexpr", f.cxx.isConstexpr},
              {"file", f.cxx.file}, {"line", f.cxx.line}};
  if (!f.cxx.memberOf.empty()) {
    cxx["memberOf"] = f.cxx.memberOf;
    cxx["constMethod"] = f.cxx.isConstMethod;
    cxx["definedInClass"] = f.cxx.definedInClass;
  }
  if (!f.cxx.customPullback.empty()) cxx["customPullback"] = f.cxx.customPullback;
  if (f.cxx.runtime) cxx["runtime"] = true;
  cxx["result"] = toJson(f.cxx.result);
  cxx["params"] = json::array();
  for (auto &p : f.cxx.params) cxx["params"].push_back(toJson(p));
  json out = {{"name", f.name}, {"params", ps}, {"result", toJson(f.result)},
              {"marked", f.marked}, {"body", toJson(f.body)}, {"cxx", cxx}};
  if (f.tangent) out["tangent"] = true; // (absent otherwise: older dumps stay as they were)
  return out;
}

Function functionFromJson(const json &j) {
  Function f;
  f.name = j.at("name");
  for (auto &p : j.at("params"))
    f.params.push_back({p.at("name"), typeFromJson(p.at("type")), p.at("active"), p.value("written", false),
                          p.value("inout", false)});
  f.result = typeFromJson(j.at("result"));
  f.marked = j.value("marked", false);
  f.tangent = j.value("tangent", false);
  f.body = exprFromJson(j.at("body"));
  if (j.contains("cxx")) {
    auto &c = j["cxx"];
    f.cxx.name = c.value("name", "");
    f.cxx.qualifiedName = c.value("qualifiedName", "");
    f.cxx.enclosingNamespace = c.value("namespace", "");
    f.cxx.isStatic = c.value("static", false);
    f.cxx.isInline = c.value("inline", false);
    f.cxx.isConstexpr = c.value("constexpr", false);
    f.cxx.customPullback = c.value("customPullback", "");
    f.cxx.runtime = c.value("runtime", false);
    // older dumps have no type descriptions: the printer then prints from the IR types
    if (c.contains("result")) f.cxx.result = cxxTypeFromJson(c.at("result"));
    if (c.contains("params"))
      for (auto &p : c.at("params")) f.cxx.params.push_back(cxxTypeFromJson(p));
    f.cxx.file = c.value("file", "");
    f.cxx.line = c.value("line", 0u);
    f.cxx.memberOf = c.value("memberOf", "");
    f.cxx.isConstMethod = c.value("constMethod", false);
    f.cxx.definedInClass = c.value("definedInClass", false);
  }
  return f;
}

json toJson(const Program &p) {
  json fs = json::array();
  for (auto &f : p.functions) fs.push_back(toJson(f));
  return {{"functions", fs}};
}

Program programFromJson(const json &j) {
  Program p;
  for (auto &f : j.at("functions")) p.functions.push_back(functionFromJson(f));
  return p;
}

} // namespace unfad::ir
