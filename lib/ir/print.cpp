// The text form of the IR (the `--dump=ir` format).
#include "unfad/ir/ir.h"
#include "unfad/ir/mutator.h"
#include "unfad/ir/traverse.h"

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
    case Kind::Opaque: {
      auto c = e->as<Opaque>();
      os << (c->read ? "opaque read " : "opaque ") << c->callee << "(";
      list(c->args, d);
      os << ")";
      break;
    }
    case Kind::Resize:
      os << "resize ";
      inl(e->as<Resize>()->array, d);
      os << " to ";
      inl(e->as<Resize>()->size, d);
      break;
    case Kind::Effect: {
      auto t = e->as<Effect>();
      std::vector<std::string> texts;
      for (size_t k = 0; k < t->args.size(); ++k) texts.push_back("$" + std::to_string(k));
      os << "effect " << t->spelled(texts);
      if (!t->args.empty()) {
        os << " with (";
        list(t->args, d);
        os << ")";
      }
      break;
    }
    case Kind::Throw: {
      auto t = e->as<Throw>();
      std::vector<std::string> texts;
      for (size_t k = 0; k < t->args.size(); ++k) texts.push_back("$" + std::to_string(k));
      os << "throw<" << str(e->type) << "> " << t->spelled(texts);
      if (!t->args.empty()) {
        os << " with (";
        list(t->args, d);
        os << ")";
      }
      break;
    }
    case Kind::Pullback: {
      auto c = e->as<Pullback>();
      os << (c->withValue ? "value_and_pullback " : "pullback ") << c->callee << "(";
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
    case Kind::View: // `view(a, o)`: the elements a[o], a[o + 1], ...
      os << "view(";
      inl(e->as<View>()->array, d);
      os << ", ";
      inl(e->as<View>()->offset, d);
      os << ")";
      break;
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
    case Kind::Let: case Kind::If: case Kind::Lambda: case Kind::Fold: case Kind::While: case Kind::Build:
    case Kind::Sum: break; // blocks: printed by blk above
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

} // namespace unfad::ir
