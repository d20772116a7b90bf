// Functions: finding the marked functions, lowering each function that is
// reached (its parameters, the UNFAD_GRADIENT_WRT list, its body and its C++
// description), and the entry points of the front end.
#include "lowering.h"

#include "unfad/ir/mutator.h"
#include "unfad/ir/traverse.h"

#include <clang/AST/Attr.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/QualTypeNames.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>

namespace unfad::frontend {

using namespace clang;

namespace {

constexpr llvm::StringLiteral kMark = "unfad_gradient";
constexpr llvm::StringLiteral kMarkWrt = "unfad_gradient_wrt:";
constexpr llvm::StringLiteral kTangentMark = "unfad_jvp";
constexpr llvm::StringLiteral kTangentMarkWrt = "unfad_jvp_wrt:";

bool isTangentAnnotation(llvm::StringRef s) { return s == kTangentMark || s.starts_with(kTangentMarkWrt); }
bool isGradientAnnotation(llvm::StringRef s) { return s == kMark || s.starts_with(kMarkWrt); }

// Whether `fd` calls the gradient of a marked function before it exists:
// its body holds an expression Clang could not make sense of (a call of an
// undeclared `g_grad`, kept as a RecoveryExpr), or calls a function without
// a definition named `<g>_grad` for a marked `g` (declared by the user, to
// be generated). Such a function waits for the next round of generation
// (second derivatives: tool/translation_unit.cpp, tool/plugin.cpp).
bool waitsForGradient(const FunctionDecl *fd, const std::vector<const FunctionDecl *> &markedDecls) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const std::vector<const FunctionDecl *> &marked;
    bool found = false;
    explicit Finder(const std::vector<const FunctionDecl *> &m) : marked(m) {}
    bool VisitExpr(Expr *e) {
      found = found || e->containsErrors();
      if (const auto *call = dyn_cast<CallExpr>(e); call && !found)
        if (const FunctionDecl *callee = call->getDirectCallee(); callee && !callee->getDefinition())
          for (const FunctionDecl *m : marked)
            found = found || (callee->getName() == m->getName().str() + "_grad" &&
                              callee->getDeclContext()->getRedeclContext()->Equals(m->getDeclContext()->getRedeclContext()));
      return !found;
    }
  } finder(markedDecls);
  finder.TraverseStmt(fd->getBody());
  return finder.found;
}

class MarkFinder : public RecursiveASTVisitor<MarkFinder> {
public:
  std::vector<const FunctionDecl *> found;
  bool shouldVisitTemplateInstantiations() const { return false; }
  bool VisitFunctionDecl(FunctionDecl *fd) {
    if (markAttr(fd)) found.push_back(fd);
    return true;
  }
};

} // namespace

const AnnotateAttr *markAttr(const FunctionDecl *fd) {
  for (const auto *a : fd->specific_attrs<AnnotateAttr>()) {
    llvm::StringRef s = a->getAnnotation();
    if (isGradientAnnotation(s) || isTangentAnnotation(s)) return a;
  }
  // a class template's marked method, or a marked function template,
  // instantiated (template_methods.cpp)
  if (fd->getPrimaryTemplate() && fd->getTemplateSpecializationKind() != TSK_ExplicitSpecialization)
    if (const FunctionDecl *pattern = fd->getTemplateInstantiationPattern(); pattern && pattern != fd)
      return markAttr(pattern);
  if (const auto *m = dyn_cast<CXXMethodDecl>(fd); m && isa<ClassTemplateSpecializationDecl>(m->getParent()))
    if (const FunctionDecl *pattern = fd->getTemplateInstantiationPattern(); pattern && pattern != fd)
      return markAttr(pattern);
  return nullptr;
}

bool tangentMarked(const FunctionDecl *fd) {
  const AnnotateAttr *a = markAttr(fd);
  return a && isTangentAnnotation(a->getAnnotation());
}

// UNFAD_GRADIENT and UNFAD_JVP on one function: one block follows a
// function, so each mode is asked for on a function of its own.
static bool bothMarks(const FunctionDecl *fd) {
  bool gradient = false, tangent = false;
  for (const auto *a : fd->specific_attrs<AnnotateAttr>()) {
    gradient |= isGradientAnnotation(a->getAnnotation());
    tangent |= isTangentAnnotation(a->getAnnotation());
  }
  return gradient && tangent;
}

Lowering::Lowering(ASTContext &ctx, DiagnosticsEngine &diags, const Options &opts)
    : ctx_(ctx), diags_(diags), sm_(ctx.getSourceManager()), opts_(opts) {
  diagID_ = diags.getCustomDiagID(DiagnosticsEngine::Error, "cannot differentiate '%0': %1");
  policy_ = ctx.getPrintingPolicy();
  policy_.SuppressTagKeyword = true;
  policy_.SuppressUnwrittenScope = true;
}

std::string Lowering::qualifiedPath(const FunctionDecl *fd) {
  std::string s;
  llvm::raw_string_ostream os(s);
  fd->getNameForDiagnostic(os, policy_, /*Qualified=*/true);
  return stripAnon(os.str());
}

std::string Lowering::enclosingNamespace(const FunctionDecl *fd) {
  std::vector<std::string> parts;
  for (const DeclContext *dc = fd->getDeclContext(); dc; dc = dc->getParent())
    if (const auto *ns = dyn_cast<NamespaceDecl>(dc))
      if (!ns->isAnonymousNamespace()) parts.push_back(ns->getNameAsString());
  std::string r;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) r += (r.empty() ? "" : "::") + *it;
  return r;
}

size_t Lowering::request(const FunctionDecl *def, bool marked, const std::vector<bool> &passive) {
  auto it = index_.find({def, passive});
  if (it != index_.end()) return it->second;
  Entry e;
  e.def = def;
  e.marked = marked;
  e.passive = passive;
  std::string base = qualifiedPath(def), name = base;
  for (int k = 2; irNames_.count(name); ++k) name = base + "$" + std::to_string(k);
  irNames_.insert(name);
  e.irName = name;
  entries_.push_back(std::move(e));
  index_[{def, passive}] = entries_.size() - 1;
  return entries_.size() - 1;
}

void Lowering::lowerEntry(size_t i) {
  entries_[i].done = true;
  const Entry en = entries_[i]; // entries_ grows while lowering: no reference
  const FunctionDecl *fd = en.def;
  names_ = ir::NameSupply();
  loops_.clear();
  arrNames_.clear();
  passiveArrays_.clear();
  unsizedArrays_.clear();
  flatStride_.clear();
  ptrBase_.clear();
  refs_.clear();
  inlining_.clear();
  inline_ = nullptr;
  onReturn_ = nullptr; // (an error inside a loop or an `if` left the previous function's)
  callSite_ = en.callSite;
  calledAt_ = en.calledAt;
  thisStack_.clear();
  resizedLength_.clear();
  flatRowLength_.clear();
  ragged_.clear();
  objectRows_.clear();
  placeAlias_.clear();
  localLengths_.clear(); // (names start again in each function: another's lengths are not these arrays')
  resizeSites_.clear();
  onExit_ = nullptr;
  growCap_.clear();
  loweringMarked_ = en.marked;
  entries_[i].root = current_;
  try {
    checkFunction(fd);
    if (const CXXMethodDecl *m = en.marked ? markedMethod(fd) : nullptr) {
      entries_[i].placement.bodyEnd = sm_.getExpansionLoc(fd->getBody()->getEndLoc());
      placeMethodGradient(m, entries_[i].placement);
    } else if (en.marked && fd->getPrimaryTemplate()) { // a function template's instance (template_methods.cpp)
      entries_[i].placement.bodyEnd = sm_.getExpansionLoc(fd->getBody()->getEndLoc());
      entries_[i].placement.block = fd->getNameAsString() + (tangentMarked(fd) ? "_jvp" : "_grad") + templateArgsSuffix(fd);
    }
    ir::Function f;
    f.name = en.irName;
    f.marked = en.marked;
    f.tangent = en.marked && tangentMarked(fd);
    paramCopies_.clear();
    stagedBinds_.clear();
    stagedExits_.clear();
    for (const ParmVarDecl *pd : fd->parameters()) passiveAliases_.erase(pd); // (an inlined call's: passive_data.cpp)
    Env env = lowerParams(en, f);
    for (const ParmVarDecl *pd : fd->parameters())
      if (en.marked && stagedTables_.count(pd)) stageTable(pd, env); // (inout_tables.cpp)
    if (en.marked) checkMarkedResult(fd, f);
    QualType rt = fd->getReturnType();
    if (!en.marked && returnsReadableReference(fd)) rt = rt.getNonReferenceType(); // its callers read the value
    if (ArrayInfo ai; rt->isPointerType() || arrayInfo(rt, ai, SourceLocation()))
      fail(fd->getLocation(), "functions returning arrays or pointers are not supported (write into an output parameter instead)");
    result_ = rt->isVoidType() ? ir::Type::unit() : typeOf(rt.getUnqualifiedType(), fd->getLocation());
    f.result = result_;
    const auto *body = cast<CompoundStmt>(fd->getBody());
    Seq s{body->body_begin(), body->body_end(), nullptr};
    SourceLocation endLoc = body->getRBracLoc();
    Tail end = [this, endLoc, body](Env &) -> ir::Expr {
      if (result_->isUnit()) return ir::Tuple::make({});
      if (alwaysReturns(body, ctx_)) return ir::Const::zero(result_); // a dead path
      fail(endLoc, "control reaches the end of the function without a 'return'");
    };
    if (!stagedExits_.empty()) { // staged tables are copied back at every exit
      auto copyBack = [this](const ir::Expr &v, Env &e) {
        Binds back;
        for (auto &exit : stagedExits_) back.push_back({names_.fresh("_"), exit(v, e)});
        return wrap(back, v);
      };
      onExit_ = copyBack;
      end = [end, copyBack](Env &e) { return copyBack(end(e), e); };
    }
    Binds paramCells; // parameters whose address is taken (address_taken.cpp)
    for (const ParmVarDecl *pd : fd->parameters())
      if (env.count(pd) && !env.at(pd)->type->isArray() && addressTaken(pd)) bindCell(pd, env.at(pd), env, paramCells);
    f.body = wrap(paramCells, lowerSeq(&s, env, end));
    f.body = wrap(stagedBinds_, withParamCopies(f.body));
    f.body = placeResizes(rowLengths(f.body)); // (resized_members.cpp, object_tables.cpp)
    if (!ir::sameType(f.body->type, f.result)) throw ir::IRError("body type " + ir::str(f.body->type) + " differs from result");
    describeCxx(en, f);
    thisStack_.clear();
    entries_[i].fn = std::move(f);
    entries_[i].arrayNames = arrNames_;
    entries_[i].ok = true;
  } catch (Abort &) {
    failed_ = true;
  } catch (ir::IRError &err) {
    report(fd->getLocation(), std::string("internal error: ") + err.what());
    failed_ = true;
  }
}

// A marked function's by-value std::vector or std::array parameter is its
// own copy (`double f(std::vector<double> x)`): the body works on a copy
// made on entry, so the gradient sees the caller's values whatever the body
// does to it. A copy the body never stores into, nor passes to a call, is
// the parameter itself (no copy).
ir::Expr Lowering::withParamCopies(const ir::Expr &body) {
  struct Writes : ir::Visitor {
    std::set<std::string> written;
    void note(const ir::Expr &a) {
      if (auto v = ir::rootArray(a)->as<ir::Var>()) written.insert(v->name);
    }
    void visit(const ir::Store *n) override {
      note(n->array);
      ir::Visitor::visit(n);
    }
    void visit(const ir::Call *n) override {
      for (auto &a : n->args)
        if (a->type->isArray()) note(a);
      ir::Visitor::visit(n);
    }
  } writes;
  writes.visitExpr(body);
  ir::Expr out = body;
  Binds kept;
  for (size_t k = 0; k + 1 < paramCopies_.size(); k += 2) { // (the copy's NewArray, then its fill)
    const std::string &copy = paramCopies_[k].first;
    if (writes.written.count(copy)) {
      kept.push_back(paramCopies_[k]), kept.push_back(paramCopies_[k + 1]);
      continue;
    }
    auto fill = paramCopies_[k + 1].second->as<ir::Fold>();
    auto store = fill ? ir::unzipLets(fill->body).lets.at(0).second->as<ir::Store>() : nullptr;
    auto source = store ? store->value->as<ir::Index>() : nullptr;
    if (!source) throw ir::IRError("a parameter's copy is not a copy");
    out = ir::substitute(out, copy, source->array);
  }
  paramCopies_.clear();
  return wrap(kept, out);
}

// What makes a whole function unsupported, before its body is lowered.
void Lowering::checkFunction(const FunctionDecl *fd) {
  if (fd->isVariadic()) fail(fd->getLocation(), "variadic functions are not supported");
  if (isa<CXXTryStmt>(fd->getBody())) fail(fd->getBody()->getBeginLoc(), "exceptions are not supported ('try' statement)");
  prescan(fd);
}

std::vector<std::string> Lowering::wrtList(const FunctionDecl *fd, bool &hasWrt, bool check) {
  std::vector<std::string> wrt;
  hasWrt = false;
  const AnnotateAttr *a = markAttr(fd);
  if (!a) return wrt;
  const llvm::StringRef prefix = a->getAnnotation().starts_with(kMarkWrt) ? kMarkWrt : kTangentMarkWrt;
  if (!a->getAnnotation().starts_with(prefix)) return wrt;
  hasWrt = true;
  const std::string macro = prefix == kMarkWrt ? "UNFAD_GRADIENT_WRT" : "UNFAD_JVP_WRT";
  llvm::StringRef list = a->getAnnotation().drop_front(prefix.size());
  llvm::SmallVector<llvm::StringRef, 8> parts;
  list.split(parts, ',', -1, false);
  for (auto p : parts) {
    p = p.trim();
    if (p.empty()) continue;
    bool found = false;
    for (const ParmVarDecl *pd : fd->parameters()) found |= pd->getName() == p;
    found |= p == "this" && markedMethod(fd); // a marked method's object
    if (!found && check) fail(a->getLocation(), "'" + macro + "' names '" + p.str() + "', which is not a parameter");
    if (std::find(wrt.begin(), wrt.end(), p.str()) != wrt.end() && check)
      fail(a->getLocation(), "'" + macro + "' names '" + p.str() + "' twice");
    wrt.push_back(p.str());
  }
  if (wrt.empty() && check) fail(a->getLocation(), "'" + macro + "' names no parameter");
  return wrt;
}

// The parameters of `f` (active unless UNFAD_GRADIENT_WRT leaves them out),
// bound to themselves in the returned environment.
Env Lowering::lowerParams(const Entry &en, ir::Function &f) {
  const FunctionDecl *fd = en.def;
  bool hasWrt = false;
  std::vector<std::string> wrt;
  if (en.marked) wrt = wrtList(fd, hasWrt);
  Env env;
  unsigned k = 0;
  const auto ends = en.marked ? rangeEnds(fd) : std::map<const ParmVarDecl *, const ParmVarDecl *>(); // (pointers.cpp)
  for (const ParmVarDecl *pd : fd->parameters()) {
    if (en.marked && isViewStruct(pd->getType()) && !passiveDataType(pd->getType())) { // split into its members (struct_params.cpp)
      bool named = !hasWrt || std::find(wrt.begin(), wrt.end(), pd->getNameAsString()) != wrt.end();
      lowerSplitParam(pd, named, env, f);
      ++k;
      continue;
    }
    if (en.marked && optionalType(pd->getType()))
      fail(pd->getLocation(), "a std::optional parameter of the marked function is not supported (pass the value, "
                              "and whether it is there, as two parameters)");
    if (en.marked) checkPassiveDataParam(pd, hasWrt, std::find(wrt.begin(), wrt.end(), pd->getNameAsString()) != wrt.end());
    ir::Param p;
    p.name = pd->getName().empty() ? names_.fresh("arg" + std::to_string(k)) : pd->getNameAsString();
    names_.reserve(p.name);

    // `double& out` of a marked function: an array of one element, which
    // the printer prints as the variable (references.cpp has the helpers')
    bool single = en.marked && outReferenceParam(pd);
    // (a by-value array: copied on entry in a marked function, by the call for a helper)
    p.type = single ? ir::Type::array(typeOf(pd->getType().getNonReferenceType().getUnqualifiedType(), pd->getLocation()))
                    : paramType(pd, /*copied=*/true);
    checkBoundaryType(p.type, pd, en.marked); // class_layout.cpp
    p.active = ir::isActive(p.type);
    if (hasWrt && std::find(wrt.begin(), wrt.end(), p.name) == wrt.end()) p.active = false;
    else if (hasWrt && !p.active)
      fail(pd->getLocation(), "parameter '" + p.name + "' named in 'UNFAD_GRADIENT_WRT' is not floating-point");
    if (k < en.passive.size() && en.passive[k]) p.active = false;
    const auto range = ends.find(pd); // `last` of `(first, last)`: a position in first's array, no adjoint
    if (range != ends.end() && hasWrt && std::find(wrt.begin(), wrt.end(), p.name) != wrt.end())
      fail(pd->getLocation(), "'" + p.name + "' ends the range that begins at '" + range->second->getNameAsString() +
                                  "' (it is compared with positions in it): it has no derivative of its own; name '" +
                                  range->second->getNameAsString() + "' in 'UNFAD_GRADIENT_WRT'");
    if (range != ends.end()) p.active = false;
    if (p.type->isArray() && !p.active) passiveArrays_.insert(p.name);
    if (ArrayInfo ai; p.type->isArray() && arrayInfo(pd->getType(), ai, SourceLocation()) && ai.kind == ArrayInfo::Pointer)
      unsizedArrays_.insert(p.name);
    env[pd] = ir::Var::make(p.name, p.type);
    if (en.marked && byValueArrayParam(pd)) env[pd] = copyArray(env[pd], pd, paramCopies_); // its own copy
    if (single) refs_[pd] = RefTarget{nullptr, pd, env[pd], ir::Const::makeInt(0), {}, nullptr};
    if (range != ends.end()) bindRangeEnd(pd, range->second, env);
    else if (Binds none; movesPointer(fd, pd)) bindMovedPointer(pd, env[pd], env, none); // `x++` on the parameter (pointers.cpp)
    if (p.type->isArray()) arrNames_[p.name] = p.name;
    f.params.push_back(p);
    ++k;
  }
  noteMovedReseats(fd, env); // (`x = y` on a parameter: reseated_pointers.cpp)
  if (const CXXMethodDecl *m = en.marked ? markedMethod(fd) : nullptr) addThisParam(m, hasWrt, wrt, env, f);
  return env;
}

// A marked function returns a floating-point value (or writes an output,
// checked with the arrays) and has an active parameter.
void Lowering::checkMarkedResult(const FunctionDecl *fd, const ir::Function &f) {
  QualType rt = fd->getReturnType();
  // void: checked once the outputs are known (checkArrays)
  if (!rt->isVoidType() && (!rt->isRealFloatingType() || rt->isSpecificBuiltinType(BuiltinType::LongDouble)))
    fail(fd->getLocation(), "return type '" + typeStr(rt) + "' is not floating-point (double or float)");
  bool any = false;
  for (auto &p : f.params) any |= p.active;
  if (!any) fail(fd->getLocation(), "no active (floating-point) parameter");
}

// C++ information
void Lowering::describeCxx(const Entry &en, ir::Function &f) {
  const FunctionDecl *fd = en.def;
  ir::CxxInfo &cx = f.cxx;
  cx.name = fd->getNameAsString();
  cx.qualifiedName = "::" + qualifiedPath(fd);
  cx.enclosingNamespace = enclosingNamespace(fd);
  cx.isStatic = fd->getStorageClass() == SC_Static;
  cx.isInline = fd->isInlineSpecified();
  if (en.marked && fd->getPrimaryTemplate()) cx.isInline = true; // (a template's gradient, like it, may be in a header)
  cx.isConstexpr = fd->isConstexpr();
  bool written = en.marked;
  cx.result = describeCxxType(fd->getReturnType(), ctx_, policy_, !written);
  for (const ParmVarDecl *pd : fd->parameters()) {
    if (en.marked && isViewStruct(pd->getType())) {
      for (ir::CxxType &m : describeSplitParam(pd)) cx.params.push_back(m);
      continue;
    }
    cx.params.push_back(describeCxxType(pd->getType(), ctx_, policy_, !written));
  }
  if (const CXXMethodDecl *m = en.marked ? markedMethod(fd) : nullptr) describeMethod(m, cx);
  SourceLocation at = sm_.getExpansionLoc(fd->getLocation());
  cx.file = sm_.getFilename(at).str();
  cx.line = sm_.getExpansionLineNumber(at);
}

bool Lowering::run(ir::Program &out, std::vector<MarkedFunction> *markedOut) {
  if (diags_.hasErrorOccurred() && !opts_.lowerDespiteErrors) return false;
  unsigned errorsBefore = diags_.getNumErrors();
  std::vector<const FunctionDecl *> roots = findRoots();
  declarePassiveClasses(roots); // (passive_data.cpp)
  // request all marked first, so they keep the plain names
  for (const FunctionDecl *fd : roots) request(fd, true);
  for (const FunctionDecl *fd : roots) {
    size_t i = index_[{fd, {}}];
    current_ = fd->getNameAsString();
    currentRoot_ = fd;
    if (!entries_[i].done) lowerEntry(i);
    while (!queue_.empty()) {
      size_t j = queue_.front();
      queue_.pop_front();
      if (!entries_[j].done) lowerEntry(j);
    }
  }
  if (!failed_) restageInOutTables(); // (inout_tables.cpp)
  if (!failed_) checkArrays();
  if (!failed_) checkForwardMode(); // forward_mode.cpp
  if (failed_ || diags_.getNumErrors() != errorsBefore) return false;
  emit(out, markedOut);
  return true;
}

// The marked function definitions to lower (the others are reported).
std::vector<const FunctionDecl *> Lowering::findRoots() {
  MarkFinder finder;
  finder.TraverseDecl(ctx_.getTranslationUnitDecl());
  std::vector<const FunctionDecl *> roots;
  for (const FunctionDecl *fd : finder.found) {
    current_ = fd->getNameAsString();
    bool inMain = sm_.isInMainFile(sm_.getExpansionLoc(fd->getLocation()));
    if (!fd->doesThisDeclarationHaveABody()) {
      if (!fd->getDefinition() && (inMain || !opts_.mainFileOnly) && !fd->isTemplated()) {
        // a marked declaration in a header may well be defined in another file
        if (inMain) report(fd->getLocation(), "the marked function has no definition (put the mark on the definition)");
        if (inMain) failed_ = true;
      }
      continue;
    }
    if (opts_.mainFileOnly && !inMain) continue;
    // A marked function calling `g_grad` of another marked `g`, not
    // generated yet, waits for the next round, which parses the text with
    // g_grad's block.
    if (opts_.deferGradientCalls && waitsForGradient(fd, finder.found)) {
      deferred_ = true;
      continue;
    }
    if (bothMarks(fd)) {
      report(fd->getLocation(), "a function carries either UNFAD_GRADIENT or UNFAD_JVP, not both (mark a wrapper "
                                "function calling it for the other mode)");
      failed_ = true;
      continue;
    }
    if (tangentMarked(fd) && isa<CXXMethodDecl>(fd) && !cast<CXXMethodDecl>(fd)->isStatic()) {
      report(fd->getLocation(), "forward mode (UNFAD_JVP) does not support member functions yet (mark a free "
                                "function calling the method)");
      failed_ = true;
      continue;
    }
    if (const CXXMethodDecl *m = markedMethod(fd); m && !unmarkableMethod(m).empty()) {
      report(fd->getLocation(), unmarkableMethod(m));
      failed_ = true;
      continue;
    }
    if (const CXXMethodDecl *m = markedMethod(fd); m && m->getParent()->getDescribedClassTemplate() &&
                                                   !m->getDescribedFunctionTemplate()) {
      for (const FunctionDecl *inst : templateMethodInstances(m)) // template_methods.cpp
        if (std::find(roots.begin(), roots.end(), inst) == roots.end()) roots.push_back(inst);
      continue;
    }
    if (fd->getDescribedFunctionTemplate() && !isa<CXXMethodDecl>(fd) && !fd->getDeclContext()->isDependentContext()) {
      for (const FunctionDecl *inst : functionTemplateInstances(fd)) // template_methods.cpp
        if (std::find(roots.begin(), roots.end(), inst) == roots.end()) roots.push_back(inst);
      continue;
    }
    if (fd->isTemplated() || fd->getDescribedFunctionTemplate()) {
      report(fd->getLocation(), "member function templates cannot be marked yet");
      failed_ = true;
      continue;
    }
    if (std::find(roots.begin(), roots.end(), fd) == roots.end()) roots.push_back(fd);
  }
  return roots;
}

// The lowered functions into `out`, in source order.
void Lowering::emit(ir::Program &out, std::vector<MarkedFunction> *markedOut) {
  std::vector<size_t> order(entries_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    SourceLocation la = sm_.getExpansionLoc(entries_[a].def->getBeginLoc());
    SourceLocation lb = sm_.getExpansionLoc(entries_[b].def->getBeginLoc());
    if (la == lb) return false;
    return sm_.isBeforeInTranslationUnit(la, lb);
  });
  for (size_t i : order) {
    if (entries_[i].dropped) continue;
    out.functions.push_back(entries_[i].fn);
    if (markedOut && entries_[i].marked) {
      MarkedFunction m = entries_[i].placement; // a method's (marked_methods.cpp)
      m.decl = entries_[i].def;
      m.irName = entries_[i].irName;
      m.cxxName = entries_[i].def->getNameAsString();
      if (m.block.empty()) {
        m.block = m.cxxName + (entries_[i].fn.tangent ? "_jvp" : "_grad");
        m.bodyEnd = sm_.getExpansionLoc(entries_[i].def->getBody()->getEndLoc());
      }
      markedOut->push_back(m);
    }
  }
}

bool isMarked(const FunctionDecl *fd) { return fd && markAttr(fd) != nullptr; }

bool lowerMarkedFunctions(ASTContext &ctx, DiagnosticsEngine &diags, ir::Program &out,
                          std::vector<MarkedFunction> *marked, const Options &options, bool *deferred) {
  Lowering l(ctx, diags, options);
  bool ok = l.run(out, marked);
  if (deferred) *deferred = l.deferred();
  return ok;
}

} // namespace unfad::frontend
