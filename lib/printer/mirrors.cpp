// The structs the generated code defines itself (ir::Type::mirror): the
// data members of a user's class whose objects the generated code cannot
// build or read as written (see lib/frontend/class_layout.cpp). Printed as
// plain aggregates, so that `Spring_fields{k, r}` and zero-filled arrays of
// them mean what they say.
#include "printer.h"
#include "unfad/ir/traverse.h"

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

} // namespace

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

std::string printMirrorStruct(const ir::TypeP &t) {
  std::string s = "struct " + t->structName + " {\n";
  for (size_t i = 0; i < t->elems.size(); ++i) s += "  " + detail::cxxType(t->elems[i]) + " " + t->fieldNames[i] + ";\n";
  return s + "};\n";
}

} // namespace unfad::printer
