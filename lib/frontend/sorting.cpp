// Sorting a range of numbers: std::sort, std::stable_sort, std::nth_element,
// ascending or with std::greater. A sort moves values; its derivative moves
// their adjoints back the same way. So the range is lowered as the
// permutation the algorithm applies, then a gather by it:
//
//   let tmp  = new T[n]    in tmp[j] = a[lo + j]            (j < n)
//   let perm = new i64[n]  in unfad::sort_permutation(tmp, n, nth, algorithm, descending, perm)
//   a[lo + j] = tmp[perm[j]]                                 (j < n)
//
// `unfad::sort_permutation` (unfad.h) runs the same algorithm on positions
// compared by their values: the arrangement is the one the primal gets, ties
// included, and its cost that of the primal's sort. It writes only integers,
// so it needs no derivative: the IR calls it through an entry whose body is
// a stand-in (CxxInfo::runtime), showing the analyses that it reads the
// copy and writes the permutation. The gather is ordinary IR: reverse mode
// tapes the overwritten range like any in-place update.
//
// Refused at the call: other comparators (a lambda: the permutation would
// need the comparator's code), ranges of structs, std::partial_sort and the
// other ordering algorithms.
#include "lowering.h"
#include "unfad/ir/traverse.h"

#include <clang/AST/DeclCXX.h>

namespace unfad::frontend {

using namespace clang;

namespace {

// 0 for std::less (ascending), 1 for std::greater, -1 for anything else.
int comparatorOrder(const Expr *e) {
  e = e->IgnoreImplicit();
  if (const auto *f = dyn_cast<CXXFunctionalCastExpr>(e)) e = f->getSubExpr()->IgnoreImplicit();
  const CXXRecordDecl *rd = e->getType()->getAsCXXRecordDecl();
  if (!rd || !rd->getIdentifier() || !rd->getDeclContext()->getRedeclContext()->isStdNamespace()) return -1;
  if (rd->getName() == "less") return 0;
  if (rd->getName() == "greater") return 1;
  return -1;
}

} // namespace

// The overload of unfad::sort_permutation (unfad.h) for values of type
// `elem`, or null when unfad.h is not included.
const FunctionDecl *Lowering::sortPermutationDecl(const ir::TypeP &elem) {
  auto lookup = [&](const DeclContext *dc, llvm::StringRef name) { return dc->lookup(&ctx_.Idents.get(name)); };
  for (const NamedDecl *ns : lookup(ctx_.getTranslationUnitDecl(), "unfad")) {
    const auto *nd = dyn_cast<NamespaceDecl>(ns);
    if (!nd) continue;
    for (const NamedDecl *d : lookup(nd, "sort_permutation")) {
      const auto *fd = dyn_cast<FunctionDecl>(d);
      if (!fd || fd->getNumParams() != 6) continue;
      QualType v = fd->getParamDecl(0)->getType()->getPointeeType();
      if (!v.isNull() && ir::sameType(typeOf(v.getUnqualifiedType(), fd->getLocation()), elem)) return fd;
    }
  }
  return nullptr;
}

// The entry standing for unfad::sort_permutation `fd`, made once.
size_t Lowering::sortPermutationEntry(const FunctionDecl *fd) {
  fd = fd->getCanonicalDecl();
  size_t idx = request(fd, false);
  if (entries_[idx].done) return idx;
  entries_[idx].done = true;
  ir::Function f;
  f.name = entries_[idx].irName;
  for (const ParmVarDecl *pd : fd->parameters()) {
    ir::Param p;
    p.name = pd->getNameAsString();
    p.type = paramType(pd);
    p.active = ir::isActive(p.type);
    f.params.push_back(p);
  }
  f.result = ir::Type::unit();
  describeCxx(entries_[idx], f);
  f.cxx.runtime = true;
  // (the stand-in: reads the values, writes the permutation)
  const ir::Param &v = f.params.front(), &perm = f.params.back();
  ir::Expr zero = ir::Const::makeInt(0);
  ir::Expr value = ir::Opaque::make(f.cxx.qualifiedName, {ir::Index::make(ir::Var::make(v.name, v.type), zero)},
                                    ir::Type::i64());
  f.body = ir::Let::make("_", ir::Store::make(ir::Var::make(perm.name, perm.type), zero, value, ir::Store::Mode::Set),
                         ir::Tuple::make({}));
  entries_[idx].fn = std::move(f);
  entries_[idx].ok = true;
  return idx;
}

ir::Expr Lowering::lowerSort(const CallExpr *ce, Env &env) {
  const llvm::StringRef name = ce->getDirectCallee()->getName();
  const unsigned nargs = ce->getNumArgs();
  const bool nth = name == "nth_element";
  const unsigned last = nth ? 2 : 1;
  const SourceLocation loc = ce->getExprLoc();
  const std::string what = "'std::" + name.str() + "'";
  ir::Expr a, lo, n;
  if (!iteratorRange(ce->getArg(0), ce->getArg(last), env, a, lo, n))
    fail(loc, what + " of this range is not supported (a range of an array, a std::vector or a std::array of numbers)");
  const ir::TypeP elem = a->type->elem();
  if (!elem->isScalar() || elem->isBool())
    fail(loc, what + " of a range of structs or arrays is not supported (sort an array of numbers, e.g. keys, and "
                     "reorder by it in a loop)");
  long descending = 0;
  if (nargs == last + 2) {
    descending = comparatorOrder(ce->getArg(last + 1));
    if (descending < 0)
      fail(ce->getArg(last + 1)->getExprLoc(),
           what + " with this comparator is not supported: only std::less and std::greater (for another order, sort "
                  "keys computed from the values)");
  }
  ir::Expr at = ir::Const::makeInt(0);
  if (nth) {
    ir::Expr b;
    if (!iteratorRef(ce->getArg(1), env, b, at) || !b->is<ir::Var>() || b->as<ir::Var>()->name != a->as<ir::Var>()->name)
      fail(ce->getArg(1)->getExprLoc(), "the middle of this 'std::nth_element' is not recognised as an iterator into "
                                        "the same array");
    at = ir::Prim::make(ir::Op::Sub, {at, lo});
  }
  const FunctionDecl *fd = sortPermutationDecl(elem);
  if (!fd) fail(loc, what + " needs unfad::sort_permutation: include <unfad/unfad.h> before this function");
  const size_t idx = sortPermutationEntry(fd);
  auto add = [](const ir::Expr &x, const ir::Expr &y) { return ir::Prim::make(ir::Op::Add, {x, y}); };
  Binds binds;
  const std::string tmp = names_.fresh("unsorted"), perm = names_.fresh("order");
  const ir::Expr tmpVar = ir::Var::make(tmp, a->type), permVar = ir::Var::make(perm, ir::Type::array(ir::Type::i64()));
  binds.push_back({tmp, ir::NewArray::make(n, elem)});
  binds.push_back({names_.fresh("_"), effectLoop(n, [&](const ir::Expr &j) {
                     return store(tmpVar, j, read(a, add(lo, j), loc), ir::Store::Mode::Set, loc);
                   })});
  binds.push_back({perm, ir::NewArray::make(n, ir::Type::i64())});
  const long algorithm = nth ? 2 : name == "stable_sort" ? 1 : 0;
  ir::Expr call = ir::Call::make(entries_[idx].irName,
                                 {tmpVar, n, at, ir::Const::makeInt(algorithm), ir::Const::makeInt(descending), permVar},
                                 ir::Type::unit());
  locs_[call.get()] = loc;
  binds.push_back({names_.fresh("_"), call});
  ir::Expr gather = effectLoop(n, [&](const ir::Expr &j) {
    return store(a, add(lo, j), read(tmpVar, read(permVar, j, loc), loc), ir::Store::Mode::Set, loc);
  });
  return ir::zipLets(binds, gather);
}

} // namespace unfad::frontend
