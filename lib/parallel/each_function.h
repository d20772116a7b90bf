// A rewrite of every function of a program by one Mutator (the passes of
// this stage: index_state.cpp, counted_while.cpp), each given a name
// supply that knows the function's names.
#pragma once

#include "unfad/ir/ir.h"
#include "unfad/ir/mutator.h"

namespace unfad::parallel {

template <class Pass> ir::Program rewriteEachFunction(const ir::Program &p) {
  ir::Program out = p;
  for (auto &f : out.functions) {
    ir::NameSupply names;
    for (auto &param : f.params) names.reserve(param.name);
    names.reserveAll(f.body);
    Pass pass(names);
    f.body = pass.mutate(f.body);
  }
  return out;
}

} // namespace unfad::parallel
