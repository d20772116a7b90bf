// The back half of unfad: reverse mode on UNF, partial evaluation, C++.
#include "unfad/driver/pipeline.h"
#include "unfad/ad/reverse.h"
#include "unfad/inline/inline.h"
#include "unfad/ir/json.h"
#include "unfad/ir/large_stack.h"
#include "unfad/ir/traverse.h"
#include "unfad/opt/optimize.h"
#include "unfad/opt/passes.h"
#include "unfad/parallel/parallel.h"
#include "unfad/printer/cxx.h"
#include "unfad/unf/unf.h"

#include <set>

namespace unfad {

namespace {

// Helpers reachable from `f` through calls, callees first.
void reachableHelpers(const ir::Program &p, const ir::Function &f, std::set<std::string> &seen,
                      std::vector<std::string> &order) {
  for (auto &n : ir::callees(f.body)) {
    if (!seen.insert(n).second) continue;
    if (auto g = p.find(n)) {
      reachableHelpers(p, *g, seen, order);
      order.push_back(n);
    }
  }
}

} // namespace

bool parseDumpStage(const std::string &s, DumpStage &out) {
  if (s == "ir") out = DumpStage::IR;
  else if (s == "unf") out = DumpStage::UNF;
  else if (s == "reverse") out = DumpStage::Reverse;
  else if (s == "optimized" || s == "optimised") out = DumpStage::Optimized;
  else return false;
  return true;
}

std::vector<GeneratedBlock> generate(const ir::Program &input) {
  return ir::onLargeStack<std::vector<GeneratedBlock>>([&] {
    const ir::Program program = parallel::recognize(inlining::inlineForReverse(input));
    ir::Program gradients = opt::optimize(ad::reverse(program), &program);
    std::vector<GeneratedBlock> blocks;
    std::set<std::string> emitted;
    for (auto &f : program.functions) {
      if (!f.marked) continue;
      GeneratedBlock b;
      b.markedName = f.name;
      b.cxxName = f.cxx.name;
      std::set<std::string> seen{f.name};
      std::vector<std::string> helpers;
      reachableHelpers(program, f, seen, helpers);
      std::vector<const ir::Function *> pullbacks;
      for (auto &h : helpers) {
        if (!program.find(h)->cxx.customPullback.empty()) continue; // the user's (UNFAD_CUSTOM_GRADIENT)
        auto pb = gradients.find(ir::pullbackFunctionName(h));
        // Emitted once per namespace: a block in another namespace cannot
        // see it.
        if (pb && emitted.insert(f.cxx.enclosingNamespace + "::" + pb->name).second) pullbacks.push_back(pb);
      }
      auto g = gradients.find(ad::gradFunctionName(f.name));
      if (!g) throw ir::IRError("no gradient generated for " + f.name);
      // The structs mirroring classes (printer/mirrors.cpp), once per
      // namespace as the pullbacks.
      std::vector<const ir::Function *> printed = pullbacks;
      printed.push_back(g);
      for (auto fn : printed)
        for (auto &m : printer::mirrorStructs(*fn))
          if (emitted.insert(f.cxx.enclosingNamespace + "::struct " + m->structName).second)
            b.code += printer::printMirrorStruct(m) + "\n";
      // Prototypes first: pullbacks of recursive helpers call each other.
      for (auto pb : pullbacks) b.code += printer::printPrototype(*pb, program) + "\n";
      for (auto pb : pullbacks) b.code += printer::printFunction(*pb, program) + "\n";
      b.code += printer::printFunction(*g, program);
      if (!f.cxx.memberOf.empty()) b.declaration = printer::printMemberDeclaration(*g, program) + "\n";
      blocks.push_back(std::move(b));
    }
    return blocks;
  });
}

std::string dump(const ir::Program &input, DumpStage stage, bool json) {
  return ir::onLargeStack<std::string>([&]() -> std::string {
    const ir::Program program = parallel::recognize(inlining::inlineForReverse(input));
    switch (stage) {
    case DumpStage::IR:
      return json ? ir::toJson(program).dump(2) + "\n" : ir::print(program);
    case DumpStage::UNF: {
      nlohmann::json j = nlohmann::json::array();
      std::string text;
      for (auto &f : program.functions) {
        auto u = unf::toUnf(f);
        if (json) j.push_back(unf::toJson(u));
        else text += unf::print(u) + "\n";
      }
      return json ? j.dump(2) + "\n" : text;
    }
    case DumpStage::Reverse: {
      auto r = ad::reverse(program);
      return json ? ir::toJson(r).dump(2) + "\n" : ir::print(r);
    }
    case DumpStage::Optimized: {
      auto r = opt::optimize(ad::reverse(program), &program);
      return json ? ir::toJson(r).dump(2) + "\n" : ir::print(r);
    }
    }
    return "";
  });
}

bool isPassName(const std::string &pass) { return opt::findPass(pass) != nullptr; }

std::string dumpAfterPass(const ir::Program &input, const std::string &pass, bool json) {
  if (!isPassName(pass)) throw ir::IRError("unknown optimiser pass '" + pass + "'");
  return ir::onLargeStack<std::string>([&]() -> std::string {
    const ir::Program program = parallel::recognize(inlining::inlineForReverse(input));
    auto r = opt::optimizeUpTo(ad::reverse(program), &program, pass);
    return json ? ir::toJson(r).dump(2) + "\n" : ir::print(r);
  });
}

} // namespace unfad
