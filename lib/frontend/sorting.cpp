// Sorting a range: std::sort, std::stable_sort, std::nth_element,
// std::partial_sort. A sort
// moves values; its derivative moves their adjoints back the same way. So
// the range is lowered as the permutation the algorithm applies, then a
// gather by it:
//
//   let tmp  = new T[n]    in tmp[j] = a[lo + j]                 (j < n)
//   let keys = ...         (the values, or key(a[lo + j]) for a key comparator)
//   let perm = new i64[n]  in unfad::sort_permutation(keys, n, nth, algorithm, descending, perm)
//   a[lo + j] = tmp[perm[j]]                                      (j < n)
//
// `unfad::sort_permutation` (unfad.h) runs the same algorithm on positions
// compared by their keys: the same comparisons as the user's call, so the
// same arrangement, ties included, at the cost of the primal's sort. It
// writes only integers, so it needs no derivative: the IR calls it through
// an entry whose body is a stand-in (CxxInfo::runtime), showing the analyses
// that it reads the keys and writes the permutation. The gather is ordinary
// IR: reverse mode tapes the overwritten range like any in-place update.
//
// Comparators: none (ascending), std::less, std::greater, and a key
// comparator, `[](const P& a, const P& b) { return key(a) < key(b); }` (or
// `>`) where both sides are the same expression of their parameter: a
// lambda, a local holding one, or a function. That covers sorting structs
// by a member and sorting indices by the values they point at
// (`[&](int i, int j) { return x[i] < x[j]; }`). Refused at the call: other
// comparators (several keys, `a.x < b.y`), and forward mode for now.
#include "lowering.h"
#include "unfad/ir/traverse.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include <regex>

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

bool mentions(const Expr *e, const ParmVarDecl *p) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const ParmVarDecl *p;
    bool found = false;
    bool VisitDeclRefExpr(DeclRefExpr *d) {
      found |= d->getDecl() == p;
      return true;
    }
  } f;
  f.p = p;
  f.TraverseStmt(const_cast<Expr *>(e));
  return f.found;
}

// `e` as written, with the parameter `p` spelled `$`.
std::string spelledWith(const Expr *e, const ParmVarDecl *p, const ASTContext &ctx) {
  std::string text;
  llvm::raw_string_ostream os(text);
  e->printPretty(os, nullptr, PrintingPolicy(ctx.getLangOpts()));
  return std::regex_replace(os.str(), std::regex("\\b" + p->getNameAsString() + "\\b"), "$$");
}

} // namespace

// A comparator `return key(a) < key(b);` (or `>`): the key's expression of
// the first parameter. Both sides must read the same (with each one's own
// parameter) and mention only it: then comparing two elements is comparing
// their keys.
bool Lowering::keyComparator(const FunctionDecl *op, SortKey &out) {
  if (!op || op->getNumParams() != 2) return false;
  const Expr *value = singleReturnValue(op);
  const auto *cmp = value ? dyn_cast<BinaryOperator>(value->IgnoreParenImpCasts()) : nullptr;
  if (!cmp || (cmp->getOpcode() != BO_LT && cmp->getOpcode() != BO_GT)) return false;
  const ParmVarDecl *a = op->getParamDecl(0), *b = op->getParamDecl(1);
  const Expr *ka = cmp->getLHS(), *kb = cmp->getRHS();
  if (mentions(ka, b) || mentions(kb, a) || !mentions(ka, a)) return false;
  if (spelledWith(ka, a, ctx_) != spelledWith(kb, b, ctx_)) return false;
  if (!ka->getType()->isArithmeticType()) return false;
  out.key = ka;
  out.param = a;
  out.descending = cmp->getOpcode() == BO_GT;
  return true;
}

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
  // (nth_element and partial_sort take the middle second)
  const bool nth = name == "nth_element" || name == "partial_sort";
  const unsigned last = nth ? 2 : 1;
  const SourceLocation loc = ce->getExprLoc();
  const std::string what = "'std::" + name.str() + "'";
  ir::Expr a, lo, n;
  if (!iteratorRange(ce->getArg(0), ce->getArg(last), env, a, lo, n))
    fail(loc, what + " of this range is not supported (a range of an array, a std::vector or a std::array)");
  const ir::TypeP elem = a->type->elem();
  // The order: the values' own, or their keys'.
  long descending = 0;
  SortKey key;
  Callable callable;
  if (nargs == last + 2) {
    const Expr *cmp = ce->getArg(last + 1);
    descending = comparatorOrder(cmp);
    if (descending < 0) {
      if (!callableArg(cmp, 2, env, callable) || callable.prim ||
          !keyComparator(callable.op ? callable.op : callable.fn ? callable.fn->getDefinition() : nullptr, key))
        fail(cmp->getExprLoc(), what + " with this comparator is not supported: std::less, std::greater, or a "
                                       "comparison of one key of each element ('return key(a) < key(b);')");
      descending = key.descending;
    }
  }
  if (!key.key && (!elem->isScalar() || elem->isBool()))
    fail(loc, what + " of a range of structs or arrays needs a comparator comparing one key of each element "
                     "('[](const P& a, const P& b) { return a.x < b.x; }')");
  ir::Expr at = ir::Const::makeInt(0);
  if (nth) {
    ir::Expr b;
    if (!iteratorRef(ce->getArg(1), env, b, at) || !b->is<ir::Var>() || b->as<ir::Var>()->name != a->as<ir::Var>()->name)
      fail(ce->getArg(1)->getExprLoc(), "the middle of this " + what + " is not recognised as an iterator into the "
                                        "same array");
    at = ir::Prim::make(ir::Op::Sub, {at, lo});
  }
  auto add = [](const ir::Expr &x, const ir::Expr &y) { return ir::Prim::make(ir::Op::Add, {x, y}); };
  Binds binds;
  const std::string perm = names_.fresh("order");
  const ir::Expr tmpVar = rangeCopy(a, lo, n, "unsorted", binds, loc),
                 permVar = ir::Var::make(perm, ir::Type::array(ir::Type::i64()));
  ir::Expr keys = tmpVar;
  if (key.key) keys = sortKeys(key, callable, tmpVar, n, env, binds, loc);
  const FunctionDecl *fd = sortPermutationDecl(keys->type->elem());
  if (!fd) fail(loc, what + " needs unfad::sort_permutation: include <unfad/unfad.h> before this function");
  const size_t idx = sortPermutationEntry(fd);
  binds.push_back({perm, ir::NewArray::make(n, ir::Type::i64())});
  const long algorithm = name == "partial_sort" ? 3 : nth ? 2 : name == "stable_sort" ? 1 : 0;
  ir::Expr call = ir::Call::make(entries_[idx].irName,
                                 {keys, n, at, ir::Const::makeInt(algorithm), ir::Const::makeInt(descending), permVar},
                                 ir::Type::unit());
  locs_[call.get()] = loc;
  binds.push_back({names_.fresh("_"), call});
  ir::Expr gather = effectLoop(n, [&](const ir::Expr &j) {
    return store(a, add(lo, j), read(tmpVar, read(permVar, j, loc), loc), ir::Store::Mode::Set, loc);
  });
  return ir::zipLets(binds, gather);
}

// keys[j] = key(values[j]): the comparator's key expression lowered with its
// parameter bound to each element, as an expression (no statements: its
// lets cannot go before the sort's statement). The keys only order the
// values: the permutation carries no derivative, so they are plain numbers.
ir::Expr Lowering::sortKeys(const SortKey &key, const Callable &c, const ir::Expr &values, const ir::Expr &n, Env &env,
                            Binds &binds, SourceLocation loc) {
  Env inner;
  if (c.op) { // a lambda: the caller's variables it captures by reference, and those by value
    inner = env;
    for (const auto &[v, e] : c.closure.values) inner[v] = e;
  }
  ir::TypeP kt = typeOf(key.key->getType().getNonReferenceType().getUnqualifiedType(), loc);
  if (!kt->isFloat()) kt = ir::Type::i64();
  const std::string name = names_.fresh("sort_keys");
  const ir::Expr keys = ir::Var::make(name, ir::Type::array(kt));
  binds.push_back({name, ir::NewArray::make(n, kt)});
  EffectScope expression(*this, nullptr, "a sort's key");
  binds.push_back({names_.fresh("_"), effectLoop(n, [&](const ir::Expr &j) {
                     inner[key.param] = read(values, j, loc);
                     return store(keys, j, convert(lowerExpr(key.key, inner), kt), ir::Store::Mode::Set, loc);
                   })});
  return keys;
}

} // namespace unfad::frontend
