// What the optimiser's passes share: questions about expressions (is it an
// atom; what memory it touches is ir::memoryEffects) and the walk over let
// chains that most block-local rewrites are built on. Internal to lib/opt.
#pragma once

#include "unfad/ir/effects.h"
#include "unfad/ir/ir.h"
#include "unfad/ir/mutator.h"
#include "unfad/ir/traverse.h"

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace unfad::opt {

// A let chain, as its (name, value) pairs in order.
using Lets = std::vector<std::pair<std::string, ir::Expr>>;

struct PassContext;

// memoryEffects(e), where a call to a helper the context knows writes none
// of its parameters writes nothing.
ir::MemoryEffects effectsKnowingCallees(const ir::Expr &e, const PassContext &context);

// Whether `e` reads or writes the array named `array`.
bool touches(const ir::Expr &e, const std::string &array);
// `e` as a store into array[i] (the whole element), else null.
const ir::Store *storeInto(const ir::Expr &e, const std::string &array);
// Whether `index` is the index of loop `f`.
bool isIndexOf(const ir::Expr &index, const ir::Fold &f);

// The scalar lets of a block seen so far (values reading no memory),
// substituted into an expression to compare lengths, bounds and indices.
class ScalarLets {
public:
  void define(const std::string &name, const ir::Expr &value);
  ir::Expr resolve(ir::Expr e) const;
  // Its value when it resolves to an integer constant.
  std::optional<long long> constant(const ir::Expr &e) const;

private:
  std::unordered_map<std::string, ir::Expr> values_;
};

// Whether e is the float constant v.
bool isConst(const ir::Expr &e, double v);
// A float zero, or a tuple of them.
bool isZeroValue(const ir::Expr &e);
// Atoms may be duplicated freely: variables, constants, projections of
// atoms and tuples of atoms.
bool isAtom(const ir::Expr &e);
// Whether index i is the loop index k itself, or 0 + k (a copy loop's index).
bool isLoopIndex(const ir::Expr &i, const std::string &k);
// The local arrays (lets of NewArray) e allocates.
std::unordered_set<std::string> localArrays(const ir::Expr &e);
// The algebraic rules (simplify.cpp): op applied to args, rewritten when a
// rule applies. `castTo` is the target of a Cast. `strict`: only rewrites
// exact in IEEE arithmetic (0 * e stays unless e is known finite); when
// false, a zero is a symbolic zero (a cotangent that is absent) and 0 * e is
// 0 whatever e is.
ir::Expr simplify(ir::Op op, std::vector<ir::Expr> args, const ir::TypeP &castTo, bool strict = false);

// How an expression uses arrays named by variables: a name used other than
// as the array of a read or a store is `spoiled` (passed, copied, viewed);
// onStore sees every store into a named array. The tape passes
// (constant-tapes, duplicate-tapes) reason about scratch tapes with it.
class ArrayUses : public ir::Visitor {
public:
  std::unordered_set<std::string> spoiled;

protected:
  virtual void onStore(const ir::Store *store, const std::string &array) = 0;
  void visit(const ir::Var *n) override { spoiled.insert(n->name); }
  void visit(const ir::Index *n) override;
  void visit(const ir::Store *n) override;
};

// Rewrites every let chain (block) of an expression, innermost first:
// subclasses see one chain at a time and may change its lets and body.
class BlockRewriter {
public:
  virtual ~BlockRewriter() = default;
  bool changed = false;
  ir::Expr rewrite(const ir::Expr &e);

protected:
  virtual void chain(Lets &lets, ir::Expr &body) = 0;
};

// The largest value the integer `size`, computed in an iteration of `loop`,
// takes over the loop (0 when it runs no time), as an expression valid
// before the loop; null when unknown (loop_bounds.cpp). `defs` are the
// body's integer lets `size` may use, `inner` every name the body binds.
ir::Expr loopSizeBound(const ir::Fold &loop, const ir::Expr &size,
                       const std::unordered_map<std::string, ir::Expr> &defs,
                       const std::unordered_set<std::string> &inner);

// Arrays a loop's iterations use each on their own (iteration_arrays.cpp):
// - whether every element of `array` (`length` elements) that `body` reads
//   was stored earlier by the same iteration (a scratch buffer it fills);
bool rewrittenBeforeRead(const ir::Expr &body, const std::string &array, const ir::Expr &length);
// - whether `body`, entered with `array` all zero, leaves it all zero (the
//   cotangent buffer of such a scratch buffer, reset as it is read);
bool leftZero(const ir::Expr &body, const std::string &array, const ir::Expr &length);
// - whether `body`, an iteration of a loop over `index`, reads and writes
//   `array` only at index * n + j, j the index of a loop in the body over
//   [lo, hi) with 0 <= lo and `atMost(hi, n)`: its own block of a tape
//   (n in `blockLength`);
bool inIterationBlocks(const ir::Expr &body, const std::string &index, const std::string &array,
                       const std::function<bool(const ir::Expr &hi, const ir::Expr &n)> &atMost,
                       ir::Expr *blockLength);
// - such a body reading and writing only element j for index * n + j: once
//   each iteration reads only what it wrote itself (after fusion), one
//   block of n elements serves every iteration.
ir::Expr ownBlockOnly(const ir::Expr &body, const std::string &index, const std::string &array);

} // namespace unfad::opt
