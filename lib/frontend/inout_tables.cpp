// A marked function's std::vector<std::vector<T>>& (or std::vector<std::array<T,
// N>>&) parameter that it reads
// and then writes (a grid updated in place: `u[i][j] = 0.25 * (u[i - 1][j]
// + ...)`), staged through a flat local copy:
//
//   rows = u.size(); cols = rows > 0 ? u[0].size() : 0
//   (every row of cols elements, else std::invalid_argument)
//   let work = new T[rows * cols] in work[i * cols + j] = u[i][j]
//   ... the body, on `work` as on a local table (local_arrays.cpp) ...
//   u[i][j] = work[i * cols + j]                     (at every exit)
//
// The reverse sweep puts back what a store overwrote only in flat arrays;
// here every read of `u` comes before every write of it, so its stores need
// no undo: the parameter is an output that is also read first, the in/out
// state lives in the local, and d_u carries the cotangent of u's final
// value in and of its initial value out (the contract's in/out convention).
// Found after lowering (the array order rule's violation on `u`): the
// function is lowered again with `u` staged (restageInOutTables).
#include "lowering.h"
#include "unfad/ir/traverse.h"

namespace unfad::frontend {

using namespace clang;

namespace {

bool vectorOfVectors(QualType t) {
  if (!t->isLValueReferenceType() || t.getNonReferenceType().isConstQualified()) return false;
  QualType row = stdContainerElement(t, "vector"); // a std::vector or a std::array of numbers
  if (row.isNull()) return false;
  QualType elem = stdContainerElement(row, "vector");
  if (elem.isNull()) elem = stdContainerElement(row, "array");
  return !elem.isNull() && elem->isRealFloatingType();
}

} // namespace

// The marked functions whose array of arrays parameters are read and then
// written are lowered again with those parameters staged; true when any was.
bool Lowering::restageInOutTables() {
  std::vector<const ir::Function *> lowered;
  for (const Entry &en : entries_)
    if (en.ok) lowered.push_back(&en.fn);
  ir::ArrayParamUses uses = ir::arrayParamUses(lowered);
  std::vector<size_t> again;
  for (size_t i = 0; i < entries_.size(); ++i) {
    const Entry &en = entries_[i];
    if (!en.ok || !en.marked) continue;
    bool staged = false;
    for (auto &v : ir::arrayOrderViolations(en.fn, uses)) {
      if (v.kind != ir::ArrayOrderViolation::WrittenAfterRead) continue;
      for (const ParmVarDecl *pd : en.def->parameters())
        if (pd->getNameAsString() == v.array && vectorOfVectors(pd->getType()) && !stagedTables_.count(pd)) {
          stagedTables_.insert(pd);
          staged = true;
        }
    }
    if (staged) again.push_back(i);
  }
  for (size_t i : again) {
    current_ = entries_[i].def->getNameAsString();
    currentRoot_ = entries_[i].def;
    lowerEntry(i);
    while (!queue_.empty()) {
      size_t j = queue_.front();
      queue_.pop_front();
      if (!entries_[j].done) lowerEntry(j);
    }
  }
  if (again.empty() || failed_) return !again.empty();
  // The helpers the first lowerings called that none calls now (a helper
  // given the table whole, now lowered into its caller) are dropped.
  std::map<std::string, size_t> byName;
  std::vector<size_t> work;
  for (size_t i = 0; i < entries_.size(); ++i) {
    if (entries_[i].ok) byName[entries_[i].fn.name] = i;
    if (entries_[i].ok && entries_[i].marked) work.push_back(i);
  }
  std::set<size_t> reached(work.begin(), work.end());
  while (!work.empty()) {
    const ir::Function &fn = entries_[work.back()].fn;
    work.pop_back();
    for (const std::string &callee : ir::callees(fn.body))
      if (auto it = byName.find(callee); it != byName.end() && reached.insert(it->second).second) work.push_back(it->second);
  }
  for (size_t i = 0; i < entries_.size(); ++i) entries_[i].dropped = entries_[i].ok && !reached.count(i);
  return true;
}

// The flat copy of a staged parameter `u` (its IR variable in env): its
// binds go first in the body (stagedBinds_), env names the copy, and every
// exit copies it back (stagedExits_).
void Lowering::stageTable(const ParmVarDecl *pd, Env &env) {
  const ir::Expr u = env.at(pd);
  const ir::TypeP row = u->type->elem(), elem = row->elem();
  const std::string name = pd->getNameAsString();
  auto var = [](const std::string &n, ir::TypeP t) { return ir::Var::make(n, std::move(t)); };
  auto add = [](const ir::Expr &x, const ir::Expr &y) { return ir::Prim::make(ir::Op::Add, {x, y}); };
  auto mul = [](const ir::Expr &x, const ir::Expr &y) { return ir::Prim::make(ir::Op::Mul, {x, y}); };
  const ir::Expr zero = ir::Const::makeInt(0);
  const std::string rowsName = names_.fresh(name + "_rows"), colsName = names_.fresh(name + "_cols");
  const ir::Expr rows = var(rowsName, ir::Type::i64()), cols = var(colsName, ir::Type::i64());
  stagedBinds_.push_back({rowsName, ir::Size::make(u)});
  stagedBinds_.push_back(
      {colsName, ir::If::make(ir::Prim::make(ir::Op::Lt, {zero, rows}), ir::Size::make(ir::Index::make(u, zero)), zero)});
  // (a ragged u would be read past its rows' ends)
  stagedBinds_.push_back({names_.fresh("_"), effectLoop(rows, [&](const ir::Expr &i) {
                            ir::Expr ragged = ir::Prim::make(ir::Op::Ne, {ir::Size::make(ir::Index::make(u, i)), cols});
                            ir::Expr thrown = ir::Throw::make("std::invalid_argument(\"" + name +
                                                                  ": unfad's gradient needs rows of one length\")",
                                                              ir::Type::unit());
                            return ir::If::make(ragged, thrown, ir::Tuple::make({}));
                          })});
  const std::string workName = names_.fresh(name + "_work");
  const ir::Expr work = var(workName, ir::Type::array(elem));
  stagedBinds_.push_back({workName, ir::NewArray::make(mul(rows, cols), elem)});
  // (kept by the exits: captures by value)
  auto each = [this, rows, cols](const std::function<ir::Expr(const ir::Expr &, const ir::Expr &)> &body) {
    return effectLoop(rows, [&](const ir::Expr &i) { return effectLoop(cols, [&](const ir::Expr &j) { return body(i, j); }); });
  };
  stagedBinds_.push_back({names_.fresh("_"), each([&](const ir::Expr &i, const ir::Expr &j) {
                            return ir::Store::make(work, add(mul(i, cols), j), ir::Index::make(ir::Index::make(u, i), j),
                                                   ir::Store::Mode::Set);
                          })});
  stagedExits_.push_back([each, u, work, cols, add, mul](const ir::Expr &, Env &) {
    return each([&](const ir::Expr &i, const ir::Expr &j) {
      return ir::Store::make(ir::Index::make(u, i), j, ir::Index::make(work, add(mul(i, cols), j)), ir::Store::Mode::Set);
    });
  });
  env[pd] = work;
  flatStride_[pd] = Flat{cols, rows};
  localLengths_[workName] = mul(rows, cols);
}

bool Lowering::stagedTable(const Entry &en, const std::string &param) const {
  if (!en.marked) return false;
  for (const ParmVarDecl *pd : en.def->parameters())
    if (pd->getNameAsString() == param) return stagedTables_.count(pd) > 0;
  return false;
}

} // namespace unfad::frontend
