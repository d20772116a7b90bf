// Local std::vectors of std::vector rows grown by rows whose lengths are
// known only at run time, as a network keeps each layer's activations:
//
//   std::vector<std::vector<double>> acts;
//   acts.push_back(x);
//   for (...) { std::vector<double> next(widths[l + 1]); ...; acts.push_back(next); }
//   acts[l][i], acts[l].size(), for (const auto& a : acts), norm(acts[l])
//
// Such a table is held flat like a growing table of one row length
// (growing_vectors.cpp), with row r at [r * stride, r * stride + length[r]):
// the stride is the longest row pushed anywhere in the table's scope (the
// same bound growthRoom gives a vector's room, here over a synthetic vector
// `<table>_widest` each push resets to its row's length), and `length` is
// an integer array beside it. A row's size() reads it; everything else reads
// the flat buffer as for any table.
#include "lowering.h"

namespace unfad::frontend {

using namespace clang;

ir::Expr Lowering::lowerRaggedTable(const VarDecl *vd, const ir::TypeP &et, Env &env, const Tail &k) {
  const std::string name = vd->getName().empty() ? "rows" : vd->getNameAsString();
  Binds binds;
  const ir::Expr initial = bindGrowingLength(vd, ir::Const::makeInt(0), env, binds);
  const std::string buf = names_.fresh(name), lengths = names_.fresh(name + "_lengths"),
                    stride = names_.fresh(name + "_stride");
  arrNames_[buf] = name;
  arrNames_[lengths] = name + "_lengths";
  const ir::Expr bufVar = ir::Var::make(buf, ir::Type::array(et));
  env[vd] = bufVar;
  flatStride_[vd] = Flat{ir::Var::make(stride, ir::Type::i64()), nullptr};
  ragged_[vd] = Ragged{ir::Var::make(lengths, ir::Type::array(ir::Type::i64())), syntheticLong(vd, "_widest")};
  const std::set<const ir::Node *> before = growOpsNow();
  ir::Expr scope = k(env);
  const ir::Expr rows = growthRoom(vd, initial, scope, before);
  const ir::Expr widest = growthRoom(ragged_.at(vd).widest, ir::Const::makeInt(0), scope, before);
  binds.push_back({stride, widest});
  binds.push_back({buf, ir::NewArray::make(ir::Prim::make(ir::Op::Mul, {rows, ir::Var::make(stride, ir::Type::i64())}), et)});
  binds.push_back({lengths, ir::NewArray::make(rows, ir::Type::i64())});
  return wrap(binds, scope);
}

// `acts.push_back(row)` (an array named by a variable, or braces): its
// length stored at length[cur], its elements at row `cur`; the table's
// length becomes cur + 1.
//   let n = size(row) in let _ = length[cur] = n in
//   let _ = for j in [0, n): buf[cur * stride + j] = row[j] in let acts_size' = cur + 1 in ...
bool Lowering::pushRaggedRow(const CXXMemberCallExpr *mc, const VarDecl *vd, const Seq *rest, Env &env, const Tail &tail,
                             ir::Expr &out) {
  auto it = ragged_.find(vd);
  if (it == ragged_.end()) return false;
  SourceLocation loc = mc->getExprLoc();
  const std::string n = mc->getMethodDecl()->getNameAsString();
  // (pop_back, clear, reserve: as any growing table's; emplace_back of a row
  // array is its push_back, pushedRowLength refused the others)
  if ((n != "push_back" && n != "emplace_back") || mc->getNumArgs() != 1) return false;
  const ir::Expr buf = lookupVar(vd, env, loc), stride = flatStride_.at(vd).stride;
  const ir::TypeP et = buf->type->elem();
  const ir::Expr cur = env.at(growLen_.at(vd));
  const ir::Expr at = ir::Prim::make(ir::Op::Mul, {cur, stride});
  using M = ir::Store::Mode;
  Binds pre;
  ir::Expr len, bound, lenValue;
  std::string rowSize; // (a pushed array's length, bound before everything the push does)
  if (const InitListExpr *list = bracedElements(mc->getArg(0))) {
    const int64_t count = list->getNumInits();
    std::vector<ir::Expr> row = pushedRow(mc->getArg(0), count, et, env);
    for (ir::Expr &v : row) // (values first: they may read the table)
      if (!v->is<ir::Const>() && !v->is<ir::Var>()) {
        pre.push_back({names_.fresh(vd->getNameAsString() + "_new"), v});
        v = ir::Var::make(pre.back().first, et);
      }
    for (int64_t j = 0; j < count; ++j)
      pre.push_back({names_.fresh("_"), store(buf, ir::Prim::make(ir::Op::Add, {at, ir::Const::makeInt(j)}), row[size_t(j)],
                                              M::Set, loc)});
    len = bound = ir::Const::makeInt(count);
  } else {
    const Expr *arg = copySource(mc->getArg(0));
    const auto *ref = dyn_cast<DeclRefExpr>(arg->IgnoreParenImpCasts());
    const VarDecl *src = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
    ArrayInfo ai;
    if (!src || !arrayInfo(arg->getType(), ai, SourceLocation()) || ai.kind == ArrayInfo::Pointer || flatStride_.count(src))
      fail(arg->getExprLoc(), "a row pushed onto '" + vd->getNameAsString() +
                                  "' must be braces or a std::vector or std::array variable");
    const ir::Expr s = lookupVar(src, env, arg->getExprLoc());
    if (!s->is<ir::Var>() || !ir::sameType(s->type, buf->type))
      fail(arg->getExprLoc(), "this row's elements are not of '" + vd->getNameAsString() + "'s type");
    len = arraySize(arg, s, loc, env);
    bound = ai.size >= 0 ? ir::Const::makeInt(ai.size) : ir::Size::make(s); // (its buffer: as long as it can be)
    if (!len->is<ir::Var>() && !len->is<ir::Const>()) {
      rowSize = names_.fresh(vd->getNameAsString() + "_row_size");
      lenValue = len;
      len = ir::Var::make(rowSize, ir::Type::i64());
    }
    pre.push_back({names_.fresh("_"), copyElements(s, nullptr, buf, at, len, loc)});
  }
  // (the store of the row's length is the op that bounds the stride)
  ir::Expr rest2 = setGrowingLength(vd, ir::Prim::make(ir::Op::Add, {cur, ir::Const::makeInt(1)}),
                                    GrowOp{false, nullptr, nullptr, loc, vd}, pre, rest, env, tail);
  // (setGrowingLength put `pre` before the length's let; the length store goes first)
  ir::Expr marked = ir::Let::make(names_.fresh("_"), store(it->second.lengths, cur, len, M::Set, loc), rest2);
  growOps_[marked.get()] = GrowOp{true, bound, nullptr, loc, it->second.widest};
  out = rowSize.empty() ? marked : ir::Let::make(rowSize, lenValue, marked);
  return true;
}

// The length of `row` when it is a row of a ragged table (`acts[i]`, or a
// name bound to one): length[i]; else null.
ir::Expr Lowering::raggedRowLength(const Expr *row, Env &env) {
  const TableRow r = tableRow(row);
  auto it = r.table ? ragged_.find(r.table) : ragged_.end();
  if (it == ragged_.end()) return nullptr;
  if (r.index && r.index->HasSideEffects(ctx_, /*IncludePossibleEffects=*/false))
    fail(r.index->getExprLoc(), "a row of '" + r.table->getNameAsString() + "' whose length is asked must be chosen by "
                                "an index without side effects");
  return read(it->second.lengths, tableRowIndex(r, env), row->getExprLoc());
}

} // namespace unfad::frontend
