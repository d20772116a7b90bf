// C++ printer: turns the optimised IR of a generated function back into
// readable C++ (const SSA locals, `*d_x += ...` accumulation).
#pragma once

#include "unfad/ir/ir.h"
#include <set>
#include <string>
#include <vector>

namespace unfad::printer {

// Conventions (produced by unfad::ad::reverse, then optimised):
//  - `f$grad`: same parameters as the primal f; body of type (R, A_1..A_k)
//    where A_i are the types of f's active parameters in order. Printed as
//      R f_grad(P1 p1, ..., Pn pn, A1* d_a1, ..., Ak* d_ak)
//    with `*d_ai += <i-th cotangent>;` and `return <primal value>;`.
//  - `g$pullback`: parameters of g then `d_return: R`; body of type
//    (A_1..A_k). Printed as
//      inline void g_pullback(P1 p1, ..., Pn pn, R d_return, A1* d_a1, ...)
//    accumulating the same way.
// `primal` is the front end's program (signatures, C++ names, namespaces).
std::string printFunction(const ir::Function &generated, const ir::Program &primal);
// The prototype (declaration) of the same function, ending in ';'.
std::string printPrototype(const ir::Function &generated, const ir::Program &primal);
// A marked member function's gradient's declaration in its class
// (`double loss_grad(const double* x, Model* d_this, double* d_x) const;`);
// printFunction prints its definition (`double Model::loss_grad(...) const`).
std::string printMemberDeclaration(const ir::Function &generated, const ir::Program &primal);
// The definitions of the structs (ir::Type::mirror: `struct Spring_fields
// { double k_; ... };`) that `code`, printed from `generated`, names, those
// used by others first. A struct whose key `scope + "::struct " + name` is in
// `done` is left out (it is defined already in that scope); the others' keys
// are added.
std::string printMirrorStructs(const std::vector<const ir::Function *> &generated, const std::string &code,
                               const std::string &scope, std::set<std::string> &done);
// The C++ name of a generated function: "energy_grad", "dot_pullback".
std::string cxxName(const ir::Function &generated, const ir::Program &primal);

} // namespace unfad::printer
