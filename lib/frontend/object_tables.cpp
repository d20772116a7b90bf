// std::vectors of objects that own arrays, as GradBench's ht keeps its bones'
// matrices (LightMatrix: new[] memory; or a class holding a std::vector):
//
//   std::vector<LightMatrix<T>> relatives, absolutes;
//   relatives.resize(n);                                 // default-built elements
//   for (...) mat_mult(base[i], tr, &relatives[i]);      // sized and written by a helper
//   absolutes[i] = relatives[i];                         // the class's operator=
//   mat_mult(absolutes[parents[i]], relatives[i], &absolutes[i]);
//
// Such a vector is a growing vector of view structs (view_struct_vectors.cpp:
// one array per number member, indexed by element) whose array members are
// held flat like a ragged table's rows (ragged_tables.cpp): element e's array
// is [e * stride, e * stride + length[e]) of one buffer, with an array of the
// elements' lengths beside it. An element is then an ordinary place:
// `absolutes[i]` (or a helper's `Mat* p` or `Mat&`, or `this` of a method,
// given one) has its number members at index i of their arrays (placeAlias_:
// a name of the element reads and writes them there, so a method's writes
// are seen by what runs after it) and its array member is a view of the
// buffer at i * stride.
//
// The elements' lengths change at run time, by the class's own code
// (`data_ = new T[n]`, `data_.resize(n)`): each such resize of an element
// is a store of its length (rowResize), the new elements zero. The stride is
// the largest length any resize in the vector's scope can set, computed
// where the vector is first used (not where it is declared: ht declares
// three together, sized one after the other) from what is known there (the
// sizes of other vectors' elements, passive data, constants). A resize whose
// size depends on elements of the same vector written in the same loop
// (`mat_mult(absolutes[parents[i]], ...)`) cannot bound it; it is checked at
// run time instead: one that would need more than the stride throws
// std::length_error in f_grad (never a wrong gradient).
#include "lowering.h"

#include "unfad/ir/counts.h"
#include "unfad/ir/equal.h"
#include "unfad/ir/mutator.h"
#include "unfad/ir/traverse.h"

#include <clang/AST/DeclCXX.h>

namespace unfad::frontend {

using namespace clang;

namespace {

// The let chain at the top of `e`: its lets before the first whose value
// names one of `names` (`head`), and the rest from that let on.
void splitAtFirstUse(const ir::Expr &e, const std::set<std::string> &names, Binds &head, ir::Expr &rest) {
  rest = e;
  while (const auto *l = rest->as<ir::Let>()) {
    for (const std::string &v : ir::freeVars(l->value))
      if (names.count(v)) return;
    head.push_back({l->name, l->value});
    rest = l->body;
  }
}

} // namespace

// Whether `elem`, the element type of a std::vector, owns an array (an
// owned buffer or a std::vector member), directly.
bool Lowering::objectTableElem(QualType elem) {
  if (!elem->isRecordType() || !isViewStruct(elem)) return false;
  for (const ViewLeaf &l : viewLeaves(elem))
    if (l.vector && l.views.isNull()) return true;
  return false;
}

ir::Expr Lowering::lowerObjectTable(const VarDecl *vd, QualType elem, Env &env, const Tail &k) {
  SourceLocation loc = vd->getLocation();
  const std::string name = vd->getName().empty() ? "objects" : vd->getNameAsString();
  const std::string spelled = "'" + typeStr(vd->getType().getNonReferenceType().getUnqualifiedType()) + "'";
  // (empty, or `v(n)`: n default-built elements, as `v.resize(n)` does)
  const Expr *count = nullptr;
  if (const Expr *init = vd->getInit()) {
    const auto *ce = dyn_cast<CXXConstructExpr>(init->IgnoreImplicit());
    unsigned given = 0;
    for (unsigned a = 0; ce && a < ce->getNumArgs(); ++a) given += !isa<CXXDefaultArgExpr>(ce->getArg(a));
    if (ce && given == 1 && ce->getArg(0)->getType()->isIntegerType()) count = ce->getArg(0);
    else if (!ce || given != 0)
      fail(init->getExprLoc(), "a " + spelled + " must start empty or with a number of elements ('v(n)'; then "
                               "resize(n) and writes of its elements)");
  }
  viewArrays_[vd] = elem;
  Binds binds;
  const ir::Expr initial =
      bindGrowingLength(vd, count ? lowerIndexExpr(count, env) : ir::Const::makeInt(0), env, binds);
  struct Leaf {
    std::string name;
    ir::TypeP elem;
    bool rows;
    const VarDecl *widest;
    std::string lengths, stride;
  };
  std::vector<Leaf> leaves;
  std::set<std::string> names;
  for (const ViewLeaf &l : viewLeaves(elem)) {
    if (!l.views.isNull() || l.path.size() != 1)
      fail(loc, "a " + spelled + " whose elements hold other structs or vectors of views is not supported");
    if (l.pointer) fail(loc, "a " + spelled + " whose elements hold pointers (not owned) is not supported");
    const VarDecl *leaf = leafVar(vd, l.path, l.type);
    Leaf out;
    out.name = names_.fresh(leaf->getNameAsString());
    arrNames_[out.name] = leaf->getNameAsString();
    out.rows = l.vector;
    out.widest = nullptr;
    if (l.vector) {
      ArrayInfo ai;
      if (!arrayInfo(l.type, ai, loc) || !ai.elem->isArithmeticType())
        fail(loc, "a " + spelled + " whose elements hold arrays of other than numbers is not supported");
      out.elem = typeOf(ai.elem.getUnqualifiedType(), loc);
      out.lengths = names_.fresh(leaf->getNameAsString() + "_lengths");
      out.stride = names_.fresh(leaf->getNameAsString() + "_stride");
      arrNames_[out.lengths] = leaf->getNameAsString() + "_lengths";
      out.widest = syntheticLong(leaf, "_widest");
      objectRows_[out.name] = ObjectRows{ir::Var::make(out.lengths, ir::Type::array(ir::Type::i64())),
                                         ir::Var::make(out.stride, ir::Type::i64()), out.widest, name};
      names.insert(out.lengths);
    } else {
      out.elem = typeOf(l.type, loc);
    }
    env[leaf] = ir::Var::make(out.name, ir::Type::array(out.elem));
    names.insert(out.name);
    leaves.push_back(out);
  }
  const std::set<const ir::Node *> before = growOpsNow();
  Binds built;
  if (count) resizeObjectTable(count->getExprLoc(), vd, ir::Const::makeInt(0), initial, env, built);
  const ir::Expr scope = k(env);
  // (allocated where it is first used: the sizes known there bound it; the
  // elements `v(n)` builds are built there too)
  Binds head;
  ir::Expr rest;
  splitAtFirstUse(scope, names, head, rest);
  const ir::Expr rows = growthRoom(vd, initial, rest, before);
  Binds allocs;
  for (const Leaf &l : leaves) {
    if (!l.rows) {
      allocs.push_back({l.name, ir::NewArray::make(rows, l.elem)});
      continue;
    }
    allocs.push_back({l.stride, tableStride(l.widest, rest)});
    allocs.push_back({l.name, ir::NewArray::make(ir::Prim::make(ir::Op::Mul, {rows, ir::Var::make(l.stride, ir::Type::i64())}),
                                                 l.elem)});
    allocs.push_back({l.lengths, ir::NewArray::make(rows, ir::Type::i64())});
  }
  for (const auto &b : head) binds.push_back(b);
  return wrap(binds, wrap(allocs, wrap(built, rest)));
}

// The stride of an object table's buffer: the largest length the resizes
// of its elements in `scope` (the ops of the synthetic vector `widest`) can
// set, over those whose size is known before the scope (the others are
// checked at run time: rowResize). Each is bounded on its own, so one that
// cannot be does not hide the others.
ir::Expr Lowering::tableStride(const VarDecl *widest, const ir::Expr &scope) {
  std::vector<const ir::Node *> ops; // (in the order they are written: the names made are the same every run)
  std::function<void(const ir::Expr &)> find = [&](const ir::Expr &e) {
    if (auto it = growOps_.find(e.get()); it != growOps_.end() && it->second.vector == widest) ops.push_back(e.get());
    for (const ir::Expr &c : ir::children(e)) find(c);
  };
  find(scope);
  ir::Expr stride = ir::Const::makeInt(0);
  for (const ir::Node *op : ops) {
    std::set<const ir::Node *> others = growOpsNow();
    others.erase(op);
    bool known = true;
    ir::Expr room = growthRoom(widest, ir::Const::makeInt(0), scope, others, &known);
    if (known) stride = ir::alphaEqual(stride, ir::Const::makeInt(0)) ? room : ir::maxCounts(stride, room);
    growOps_.erase(op);
  }
  return stride;
}

// `a` as a view of one element's array in an object table: its buffer's
// rows and the element's index.
bool Lowering::objectRow(const ir::Expr &a, ObjectRows &rows, ir::Expr &index) {
  const auto *v = a->as<ir::View>();
  const auto *buf = v ? v->array->as<ir::Var>() : nullptr;
  auto it = buf ? objectRows_.find(buf->name) : objectRows_.end();
  if (it == objectRows_.end()) return false;
  const auto *mul = v->offset->as<ir::Prim>();
  if (!mul || mul->op != ir::Op::Mul || !ir::alphaEqual(mul->args[1], it->second.stride)) return false;
  rows = it->second;
  index = mul->args[0];
  return true;
}

// Element `index` of the table whose buffer is `buffer` (a leaf's array):
// the view of its array.
ir::Expr Lowering::objectRowView(const ir::Expr &buffer, const ir::Expr &index) {
  const auto *buf = buffer->as<ir::Var>();
  auto it = buf ? objectRows_.find(buf->name) : objectRows_.end();
  if (it == objectRows_.end()) return nullptr;
  return ir::View::make(buffer, ir::Prim::make(ir::Op::Mul, {index, it->second.stride}));
}

bool Lowering::isObjectBuffer(const ir::Expr &a) {
  const auto *v = a->as<ir::Var>();
  return v && objectRows_.count(v->name);
}

// Element `row`'s array resized to `sizeName` (bound to `value` when
// known, the size as computed): its length stored, the elements it adds
// zero, and a check that the stride holds it.
//   let old = len[i] in
//   let _ = if n > stride then throw length_error else () in
//   let _ = len[i] = n in
//   for j in [0, n > old ? n - old : 0): buf[i * stride + old + j] = 0
ir::Expr Lowering::rowResize(const ir::Expr &row, const std::string &sizeName, const ir::Expr &value, SourceLocation loc,
                             const std::string &spelled) {
  ObjectRows rows;
  ir::Expr index;
  objectRow(row, rows, index);
  const ir::Expr n = ir::Var::make(sizeName, ir::Type::i64());
  const std::string oldName = names_.fresh("old_length");
  const ir::Expr old = ir::Var::make(oldName, ir::Type::i64());
  std::string text = "unfad: " + spelled + " in '" + currentRoot_->getNameAsString() + "' makes an element of '" +
                     rows.table + "' longer than the gradient's buffer gives each element (its size depends on "
                     "other elements written in the same loop; size every element before)";
  ir::Expr check = ir::If::make(ir::Prim::make(ir::Op::Gt, {n, rows.stride}),
                                ir::Throw::make("std::length_error(\"" + text + "\")", ir::Type::unit()),
                                ir::Tuple::make({}));
  ir::Expr added = ir::If::make(ir::Prim::make(ir::Op::Gt, {n, old}), ir::Prim::make(ir::Op::Sub, {n, old}),
                                ir::Const::makeInt(0));
  const ir::Expr buffer = ir::rootArray(row);
  ir::Expr first = ir::Prim::make(ir::Op::Add, {ir::viewOffset(row), old});
  ir::Expr zero = fillElements(buffer, first, added, ir::Const::zero(buffer->type->elem()), loc);
  ir::Expr body = ir::Let::make(
      names_.fresh("_"), check,
      ir::Let::make(names_.fresh("_"), store(rows.lengths, index, n, ir::Store::Mode::Set, loc),
                    ir::Let::make(names_.fresh("_"), zero, ir::Tuple::make({}))));
  ir::Expr resize = ir::Let::make(oldName, read(rows.lengths, index, loc), body);
  // A bound of the length a resize sets, for the stride: the length it may
  // keep (the element's own, `c ? n : size(data_)`) is one an earlier resize
  // set, counted there, so it counts as 0; a choice counts as its larger arm
  // (its condition may read what the scope writes).
  struct KeptAsZero : ir::Mutator {
    Lowering *self;
    ir::Expr visit(const ir::If *i, const ir::Expr &me) override {
      if (!i->type->isInt()) return mutateChildren(me);
      return ir::maxCounts(mutate(i->thenE), mutate(i->elseE));
    }
    ir::Expr visit(const ir::Prim *p, const ir::Expr &me) override {
      // Size(view of element i) is Size(buffer) - i * stride
      if (p->op == ir::Op::Sub)
        if (const auto *z = p->args[0]->as<ir::Size>(); z && self->isObjectBuffer(z->array)) return ir::Const::makeInt(0);
      return mutateChildren(me);
    }
  };
  KeptAsZero bound;
  bound.self = this;
  growOps_[resize.get()] = GrowOp{true, bound.mutate(value ? value : n), nullptr, loc, rows.widest};
  return resize;
}

// After lowering: each element's size (Size(buffer) - i * stride, as
// Size of a view is made) is its length, len[i]. Any other size of a
// table's buffer is an internal error.
ir::Expr Lowering::rowLengths(const ir::Expr &body) {
  if (objectRows_.empty()) return body;
  struct Lengths : ir::Mutator {
    Lowering *self;
    ir::Expr visit(const ir::Prim *p, const ir::Expr &me) override {
      if (p->op == ir::Op::Sub)
        if (const auto *z = p->args[0]->as<ir::Size>(); z && self->isObjectBuffer(z->array)) {
          ObjectRows rows;
          ir::Expr index;
          if (self->objectRow(ir::View::make(z->array, p->args[1]), rows, index))
            return ir::Index::make(rows.lengths, mutate(index));
        }
      return mutateChildren(me);
    }
    ir::Expr visit(const ir::Size *z, const ir::Expr &me) override {
      if (self->isObjectBuffer(z->array))
        throw std::runtime_error("internal error: the size of a whole object table's buffer");
      return me;
    }
  } lengths;
  lengths.self = this;
  return lengths.mutate(body);
}

// `objects.resize(n)`: the elements past the length default-built (the
// class's default constructor: its initialisers, its arrays empty), those
// past n dropped (their lengths are stored again when they come back).
void Lowering::resizeObjectTable(SourceLocation loc, const VarDecl *vd, const ir::Expr &cur, const ir::Expr &next,
                                 Env &env, Binds &pre) {
  QualType elem = viewArrays_.at(vd);
  const std::string spelled = "'" + typeStr(elem) + "'";
  const auto *rd = elem->getAsCXXRecordDecl();
  const CXXConstructorDecl *dflt = nullptr;
  for (const CXXConstructorDecl *c : rd->ctors())
    if (c->isDefaultConstructor()) dflt = c;
  const auto *def = dflt ? dyn_cast_or_null<CXXConstructorDecl>(dflt->getDefinition()) : nullptr;
  if (!def || (def->hasBody() && !def->isDefaulted() && !cast<CompoundStmt>(def->getBody())->body_empty()))
    fail(loc, "'resize' of a vector of " + spelled + " needs its default constructor, with an empty body (its "
              "members given by initialisers)");
  std::vector<ir::Expr> vals;
  for (const FieldDecl *f : rd->fields()) {
    const Expr *init = memberInitExpr(def, f);
    const bool empty = !init || isa<ImplicitValueInitExpr>(init) || isNullPointer(init, ctx_) ||
                       (isa<CXXConstructExpr>(init) && cast<CXXConstructExpr>(init)->getNumArgs() == 0);
    if (ownedBuffer(f) || vectorMember(f->getType())) {
      if (!empty)
        fail(init->getExprLoc(), "'resize' of a vector of " + spelled + " needs its default constructor to leave '" +
                                     f->getNameAsString() + "' empty");
      vals.push_back(nullptr);
      continue;
    }
    ir::TypeP ft = typeOf(f->getType().getUnqualifiedType(), f->getLocation());
    vals.push_back(empty ? ir::Const::zero(ft) : convert(lowerExpr(init, env), ft));
  }
  std::vector<ViewLeaf> leaves = viewLeaves(elem);
  std::string j = names_.fresh("i");
  const ir::Expr at = ir::Var::make(j, ir::Type::i64());
  Binds stores;
  for (size_t l = 0; l < leaves.size(); ++l) {
    const ir::Expr arr = env.at(leafVar(vd, leaves[l].path, leaves[l].type));
    if (leaves[l].vector) {
      const ObjectRows &rows = objectRows_.at(arr->as<ir::Var>()->name);
      stores.push_back({names_.fresh("_"), store(rows.lengths, at, ir::Const::makeInt(0), ir::Store::Mode::Set, loc)});
    } else {
      stores.push_back({names_.fresh("_"), store(arr, at, vals[size_t(leaves[l].path[0])], ir::Store::Mode::Set, loc)});
    }
  }
  std::string st = names_.fresh("state");
  pre.push_back({names_.fresh("_"), ir::Fold::make(cur, next, ir::Tuple::make({}), j, st, wrap(stores, ir::Tuple::make({})))});
}

// `root` (a method's `this`, a helper's `Mat&` or `Mat*`, a reference
// local) bound to an element of an object table, directly (`v[i]`) or
// through another such name: the same element, found by viewPlace.
void Lowering::aliasElementPlace(const VarDecl *root, const Expr *from, Env &env) {
  placeAlias_.erase(root);
  while (const Expr *inner = from ? chainedObject(from) : nullptr) from = inner;
  if (!from) return;
  const Expr *x = from->IgnoreParenImpCasts();
  if (const auto *u = dyn_cast<UnaryOperator>(x); u && u->getOpcode() == UO_AddrOf) x = u->getSubExpr();
  ViewPlace pl;
  if (!viewPlace(stripCopies(x), env, pl) || !pl.index || !objectTableElem(viewArrays_.count(pl.root) ? viewArrays_.at(pl.root) : QualType()))
    return;
  placeAlias_[root] = PlaceAlias{pl.root, pl.index, pl.path};
}

} // namespace unfad::frontend

namespace unfad::frontend {

// The object table `e` names: the vector itself, `&v`, `*p` or a name bound
// to one (a helper's parameter, a reference local); else null.
const VarDecl *Lowering::objectTableOf(const Expr *e) {
  const Expr *x = e ? e->IgnoreParenImpCasts() : nullptr;
  if (const auto *u = x ? dyn_cast<UnaryOperator>(x) : nullptr; u && (u->getOpcode() == UO_AddrOf || u->getOpcode() == UO_Deref))
    x = u->getSubExpr()->IgnoreParenImpCasts();
  const auto *d = x ? dyn_cast<DeclRefExpr>(x) : nullptr;
  const auto *vd = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  if (!vd) return nullptr;
  vd = resolveViewAlias(vd);
  auto it = viewArrays_.find(vd);
  return it != viewArrays_.end() && objectTableElem(it->second) ? vd : nullptr;
}

// `std::vector<Mat>&`, `const std::vector<Mat>&` or `std::vector<Mat>*` of
// objects owning arrays.
bool Lowering::objectTableParam(const ParmVarDecl *p) {
  QualType t = p->getType();
  if (!t->isReferenceType() && !t->isPointerType()) return false;
  QualType elem;
  return viewVectorType(t->getPointeeType().getNonReferenceType(), elem) && objectTableElem(elem);
}

// `root` (a helper's parameter or a reference local) bound to the object
// table `from` names: another name of it, whose resizes are the table's
// (its length handed back through `roots`, when given). False when `root`
// is no such name.
bool Lowering::bindObjectTableName(const VarDecl *root, const Expr *from, std::vector<const VarDecl *> *roots) {
  QualType t = root->getType();
  QualType elem;
  if (!(t->isReferenceType() || t->isPointerType()) ||
      !viewVectorType(t->getPointeeType().getNonReferenceType(), elem) || !objectTableElem(elem))
    return false;
  const VarDecl *table = objectTableOf(from);
  if (!table)
    fail(from ? from->getExprLoc() : root->getLocation(),
         "this vector of '" + typeStr(elem) + "' is not supported here (a local vector, or a name bound to one, is)");
  viewAlias_[root] = table;
  const VarDecl *len = growLen_.at(table);
  growLen_[root] = len;
  if (roots && !t->getPointeeType().isConstQualified() && std::find(roots->begin(), roots->end(), len) == roots->end())
    roots->push_back(len);
  return true;
}

} // namespace unfad::frontend
