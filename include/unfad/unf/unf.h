// Unary Normal Form (Huot & Shaikhha §4, Fig. 6, 7, 9, 10).
//
// A UNF term has no variables: it is a sequence of primitives acting on a
// *context*, a list of typed slots. Each primitive reads the last slots and
// pushes its result, keeping its arguments (`op`), copies a slot to the top
// (`var`), pairs the top slots (`tuple`, consuming them), or forgets slots
// (`drop`, the paper's proj). Translating an expression e in context Γ gives
// a term Γ ⊢ UNF(e) : Γ, B. The paper's weakening (ẽ) is implicit: slots are
// addressed from the bottom of the context, so appending slots never
// renumbers the ones a term refers to.
//
// Target UNF (after reverse mode) marks every primitive P as F(P, J^T P):
// run P forward and pre-compose the continuation with P's transpose
// Jacobian. Conditionals record the branch taken (§7.2).
#pragma once

#include "unfad/ir/ir.h"
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace unfad::unf {

struct Term;

struct Instr {
  enum class Kind {
    Const, // push a constant (0-ary op)
    Var,   // push a copy of slot `index`
    Op,    // op on the top `arity` slots, push the result (args kept)
    Elem,  // push π_index of the top slot (a unary op; arg kept)
    Tuple, // replace the top `arity` slots by their tuple (type `type`)
    Call,  // call `callee` on the top `arity` slots, push the result (args kept)
    Opaque, // like Call, of a C++ function without a derivative (passive arguments)
    Throw, // push a value of `type` that never materialises: throw `callee` (ir::Throw),
           // the top `arity` slots its arguments (args kept)
    Effect, // run the statement `callee` (ir::Effect), the top `arity` slots its arguments; push the unit ()
    Drop,  // keep the first `index` slots, forget the next `arity`, keep the rest
    If,    // top slot is the condition; run branches[0] or [1], each Γ,c ⊢ Γ,c,r
    Index, // push a[i] from the top two slots (a, i)
    Size,  // push the size of the array in the top slot
    View,  // push the view a + o of the top two slots (a, o): an alias into a
    New,   // push a fresh zero array of `type` whose size is the top slot
    Store, // a[i] (=|+=) v on the top three slots (a, i, v); push the unit ()
    Resize, // resize the array in the slot below the top to the top slot (a, n); push the unit ()
    Fold,  // top slots lo, hi, init; branches[0] is the body Γ,lo,hi,init,i,s ⊢ ..,s'; push the final state
    While, // top slot init; branches[0] is the condition Γ,init,i,s ⊢ ..,bool
           // and branches[1] the body Γ,init,i,s ⊢ ..,s' (i: an unused iteration slot)
    Build, // top slot n; branches[0] is the element Γ,n,i ⊢ ..,e; push build n (i -> e)
    Sum,   // top slots lo, hi; branches[0] is the term Γ,lo,hi,i ⊢ ..,e; push Σ_{lo≤i<hi} e
  };
  explicit Instr(Kind k) : kind(k) {}
  Kind kind;
  int index = 0;
  int arity = 0;
  ir::Op op = ir::Op::Add;
  ir::Expr constant;        // Const
  ir::TypeP type;           // type of the pushed value (every kind but Drop)
  std::string callee;       // Call, Opaque; Throw: the thrown exception; Effect: the statement
  bool read = false;        // Opaque: only reads data nothing writes (ir::Opaque::read)
  std::vector<Term> branches; // If, Fold, While, Build, Sum
  std::string hint;         // readable name for the pushed value
  bool addStore = false;    // Store: += instead of =
  std::vector<int> path;    // Store: the struct field written (a[i].f)
  bool reversedLoop = false; // Fold: iterates from hi-1 down to lo
  std::string indexName, state; // Fold/While/Build/Sum: names of the loop's binders
  bool reversed = false;    // Target UNF: this is F(P, J^T P)
};

struct Term {
  std::vector<Instr> instrs; // sequential composition i1; i2; ...
};

struct Slot {
  std::string name;
  ir::TypeP type;
};

struct UnfFunction {
  std::string name;              // IR name of the function
  std::vector<Slot> inputs;      // the initial context: the parameters
  Term body;                     // inputs ⊢ body : inputs, result
  ir::TypeP result;
};

// UNF (Fig. 9): from an IR expression in the context of the parameters.
UnfFunction toUnf(const ir::Function &f);
Term toUnf(const ir::Expr &e, const std::vector<Slot> &context);

// UNF^-1 for Source UNF (Fig. 10 without the Jacobians): back to a let
// chain. UNF followed by UNF^-1 is an ANF conversion.
ir::Expr fromUnf(const UnfFunction &f);

// UNF^-1 of one primitive / a whole term, source part of Fig. 10: given
// the context's values, appends the let binding what `in` computes (with
// its nested terms' code; a constant or a copied slot needs none) and
// updates `stack` as the primitive does.
using Lets = std::vector<std::pair<std::string, ir::Expr>>;
void forwardStep(const Instr &in, std::vector<ir::Expr> &stack, Lets &lets, ir::NameSupply &names);
ir::Expr forward(const Term &t, std::vector<ir::Expr> &stack, Lets &lets, ir::NameSupply &names);
ir::Expr wrapLets(const Lets &lets, ir::Expr body);

// Reverse mode on UNF (Fig. 8): every primitive becomes F(P, J^T P).
Term reverse(const Term &t);

// Context (slot types) after running `t` from `ctx`; checks the term.
std::vector<ir::TypeP> run(const Term &t, std::vector<ir::TypeP> ctx);

std::string print(const UnfFunction &f);
std::string print(const Term &t, int indent = 0);
nlohmann::json toJson(const UnfFunction &f);
nlohmann::json toJson(const Term &t);

} // namespace unfad::unf
