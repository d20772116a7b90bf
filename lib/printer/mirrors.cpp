// The structs the generated code defines itself (ir::Type::mirror): the
// data members of a user's class whose objects the generated code cannot
// build or read as written (see lib/frontend/class_layout.cpp). Printed as
// plain aggregates, so that `Spring_fields{k, r}` and zero-filled arrays of
// them mean what they say.
#include "printer.h"
#include "unfad/ir/traverse.h"

#include <cctype>
#include <set>

namespace unfad::printer {

namespace {

// `t`'s mirrors, those its fields use first.
void addMirrors(const ir::TypeP &t, std::set<std::string> &seen, std::vector<ir::TypeP> &out) {
  if (!t) return;
  for (auto &e : t->elems) addMirrors(e, seen, out);
  addMirrors(t->result, seen, out);
  if (t->isStruct() && t->mirror && seen.insert(t->structName).second) out.push_back(t);
}

std::vector<ir::TypeP> mirrorStructs(const ir::Function &f) {
  std::set<std::string> seen;
  std::vector<ir::TypeP> out;
  for (auto &p : f.params) addMirrors(p.type, seen, out);
  addMirrors(f.result, seen, out);
  std::set<const ir::Node *> visited;
  std::vector<ir::Expr> work{f.body};
  while (!work.empty()) { // iterative: let chains are long
    ir::Expr e = work.back();
    work.pop_back();
    if (!e || !visited.insert(e.get()).second) continue;
    addMirrors(e->type, seen, out);
    for (auto &c : ir::children(e)) work.push_back(c);
  }
  return out;
}

// A member array is one field per element, `r[0]`, `r[1]`, ... (or
// `m[0][0]`, ...; lib/frontend/member_arrays.cpp): declared as the array.
std::string printMirrorStruct(const ir::TypeP &t) {
  std::string s = "struct " + t->structName + " {\n";
  for (size_t i = 0; i < t->elems.size();) {
    const std::string &f = t->fieldNames[i];
    size_t bracket = f.find('[');
    if (bracket == std::string::npos) {
      s += "  " + detail::cxxType(t->elems[i]) + " " + f + ";\n";
      ++i;
      continue;
    }
    std::string name = f.substr(0, bracket);
    size_t j = i;
    while (j < t->elems.size() && t->fieldNames[j].compare(0, bracket + 1, name + "[") == 0) ++j;
    std::string dims, last = t->fieldNames[j - 1].substr(bracket); // `[2][1]`: the bounds are one more
    for (size_t p = 0; p < last.size();) {
      size_t q = last.find(']', p);
      dims += "[" + std::to_string(std::stoll(last.substr(p + 1, q - p - 1)) + 1) + "]";
      p = q + 1;
    }
    s += "  " + detail::cxxType(t->elems[i]) + " " + name + dims + ";\n";
    i = j;
  }
  return s + "};\n";
}

// Whether `text` names `name` (as a whole identifier).
bool names(const std::string &text, const std::string &name) {
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1))
    if ((at == 0 || !ident(text[at - 1])) && (at + name.size() == text.size() || !ident(text[at + name.size()])))
      return true;
  return false;
}

} // namespace

// A mirror can be in the IR's types without the code naming it: a marked
// method's `*this` is the user's object itself (CVal::userObject), read and
// written member by member.
std::string printMirrorStructs(const std::vector<const ir::Function *> &generated, const std::string &code,
                               const std::string &scope, std::set<std::string> &done) {
  std::vector<ir::TypeP> all;
  std::set<std::string> seen;
  for (auto f : generated)
    for (auto &m : mirrorStructs(*f))
      if (seen.insert(m->structName).second) all.push_back(m);
  // Users come after what they use: walking back, a mirror is needed when
  // the code or a needed mirror names it.
  std::vector<std::string> text(all.size());
  std::vector<bool> needed(all.size());
  for (size_t k = all.size(); k-- > 0;) {
    needed[k] = names(code, all[k]->structName);
    for (size_t u = k + 1; u < all.size() && !needed[k]; ++u)
      needed[k] = needed[u] && names(text[u], all[k]->structName);
    if (needed[k]) text[k] = printMirrorStruct(all[k]);
  }
  std::string out;
  for (size_t k = 0; k < all.size(); ++k)
    if (needed[k] && done.insert(scope + "::struct " + all[k]->structName).second) out += text[k] + "\n";
  return out;
}

} // namespace unfad::printer

namespace unfad::printer::detail {

namespace {

// `(*this)` -> `*this`, inside a cast's parentheses.
std::string unparenthesized(const std::string &object) {
  return object.size() > 2 && object.front() == '(' && object.back() == ')' && object.find(')') == object.size() - 1
             ? object.substr(1, object.size() - 2)
             : object;
}

} // namespace

// A mirror's value read from the user's object `object` (CVal::userObject):
// `Particle_fields{static_cast<const Body&>(*this), this->v}`. The base part
// has no member name: it is the object itself, converted (or, when the base
// is mirrored too, read member by member the same way).
std::string mirrorFromObject(const ir::TypeP &t, const std::string &object) {
  std::vector<std::string> fields;
  for (size_t i = 0; i < t->elems.size(); ++i) {
    const ir::TypeP &ft = t->elems[i];
    bool base = t->baseFirst && i == 0;
    std::string from = base ? object : fieldOf(object, t->fieldNames[i]);
    if (ft->isStruct() && ft->mirror) fields.push_back(mirrorFromObject(ft, from));
    else if (base) fields.push_back("static_cast<const " + ft->structName + "&>(" + unparenthesized(from) + ")");
    else fields.push_back(from);
  }
  return bracedStruct(t, fields);
}

// The statements setting the user's object `object` to the mirror value
// `value` (an atom, or an aggregate of atoms: a snapshot), member by member
// (`this->v = t.v;`; a base that is not mirrored at once:
// `static_cast<Body&>(*this) = t_base;`).
void assignObjectFromMirror(const ir::TypeP &t, const std::string &object, const CVal &value,
                            std::vector<std::string> &lines) {
  for (size_t i = 0; i < t->elems.size(); ++i) {
    const ir::TypeP &ft = t->elems[i];
    bool base = t->baseFirst && i == 0;
    std::string to = base ? object : fieldOf(object, t->fieldNames[i]);
    CVal from = value.agg ? value.elems.at(i) : leaf(ft, value.text + "." + t->fieldNames[i], PPrimary, true);
    if (ft->isStruct() && ft->mirror) assignObjectFromMirror(ft, to, from, lines);
    else if (base) lines.push_back("static_cast<" + ft->structName + "&>(" + unparenthesized(to) + ") = " + render(from) + ";");
    else lines.push_back(to + " = " + render(from) + ";");
  }
}

// The user's object's value now, kept for later (the code may write the
// object after): one const local per member (`const double t_v =
// this->v;`), so that those the code never reads are dropped, instead of a
// copy of the whole object per read. A base that is not mirrored is copied
// whole (`const Body t_base = static_cast<const Body&>(*this);`).
CVal FnPrinter::snapshotOfObject(const CVal &object, const std::string &hint, Block &b) {
  const TypeP &t = object.type;
  CVal r;
  r.type = t;
  r.agg = true;
  for (size_t i = 0; i < t->elems.size(); ++i) {
    const TypeP &ft = t->elems[i];
    bool base = t->baseFirst && i == 0;
    std::string name = hint + "_" + (base ? std::string("base") : sanitize(t->fieldNames[i]));
    CVal member = object;
    member.type = ft;
    if (!base) member = leaf(ft, fieldOf(operand(object, PPrimary), t->fieldNames[i]), PPrimary);
    else if (!ft->mirror)
      member = leaf(ft, "static_cast<const " + ft->structName + "&>(" + unparenthesized(operand(object, PPrimary)) + ")",
                    PPrimary);
    member.userObject = ft->isStruct();
    r.elems.push_back(ft->isStruct() && ft->mirror ? snapshotOfObject(member, name, b) : bind(member, Hint{name, false}, b));
  }
  return r;
}

} // namespace unfad::printer::detail
