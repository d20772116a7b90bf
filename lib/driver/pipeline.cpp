// The back half of unfad: reverse mode on UNF, partial evaluation, C++.
#include "unfad/driver/pipeline.h"
#include "unfad/ad/forward.h"
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

// The program reverse mode differentiates: inlined (lib/inline), its
// parallel shapes recognised (lib/parallel), and without the code whose
// value nothing uses. Dead code left in would get a backward sweep too,
// with zero cotangents: where its values overflowed (a dead loop squaring
// a variable), 0 * inf would put a NaN into a live adjoint.
ir::Program prepared(const ir::Program &inlined) {
  ir::Program program = parallel::recognize(inlined);
  for (auto &f : program.functions) {
    opt::PassContext context;
    for (auto &p : f.params) context.reserved.push_back(p.name);
    f.body = opt::deadCode(opt::hoistThrows(f.body, context), context);
  }
  return program;
}

// The program as reverse mode sees it: the UNFAD_JVP functions are not
// marked there (they remain helpers another marked function may call).
ir::Program reverseInput(const ir::Program &input) {
  ir::Program p = input;
  for (auto &f : p.functions) f.marked = f.marked && !f.tangent;
  return p;
}

// The program as forward mode sees it: only the UNFAD_JVP functions are
// marked, and every call is inlined.
ir::Program forwardInput(const ir::Program &input) {
  ir::Program p = input;
  for (auto &f : p.functions) f.marked = f.marked && f.tangent;
  return inlining::inlineAll(p);
}

bool anyTangent(const ir::Program &p) {
  for (auto &f : p.functions)
    if (f.marked && f.tangent) return true;
  return false;
}

// The differentiated program of a stage (reverse mode's, then forward
// mode's functions), optimised up to `pass` ("" for all, nullptr for none).
ir::Program differentiated(const ir::Program &input, const std::string *pass) {
  const ir::Program program = prepared(inlining::inlineForReverse(reverseInput(input)));
  ir::Program out = ad::reverse(program);
  if (pass) out = opt::optimizeUpTo(out, &program, *pass);
  if (anyTangent(input)) {
    const ir::Program fwd = forwardInput(input);
    ir::Program jvps = ad::forward(fwd);
    if (pass) jvps = opt::optimizeUpTo(jvps, &fwd, *pass);
    out.functions.insert(out.functions.end(), jvps.functions.begin(), jvps.functions.end());
  }
  return out;
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
    const ir::Program program = prepared(inlining::inlineForReverse(reverseInput(input)));
    ir::Program gradients = opt::optimize(ad::reverse(program), &program);
    const bool tangents = anyTangent(input);
    const ir::Program fwd = tangents ? forwardInput(input) : ir::Program();
    const ir::Program jvps = tangents ? opt::optimize(ad::forward(fwd), &fwd) : ir::Program();
    std::vector<GeneratedBlock> blocks;
    std::set<std::string> emitted;
    for (auto &input_f : input.functions) {
      if (!input_f.marked) continue;
      if (input_f.tangent) { // forward mode: one function, every helper inlined
        auto j = jvps.find(ad::jvpFunctionName(input_f.name));
        if (!j) throw ir::IRError("no jvp generated for " + input_f.name);
        GeneratedBlock b;
        b.markedName = input_f.name;
        b.cxxName = input_f.cxx.name;
        std::string code = printer::printFunction(*j, fwd);
        // (a mirrored class's parameter: fuzz-found, `CP_fields` undeclared)
        b.code = printer::printMirrorStructs({j}, code, input_f.cxx.enclosingNamespace, emitted) + code;
        blocks.push_back(std::move(b));
        continue;
      }
      const ir::Function &f = *program.find(input_f.name);
      GeneratedBlock b;
      b.markedName = f.name;
      b.cxxName = f.cxx.name;
      std::set<std::string> seen{f.name};
      std::vector<std::string> helpers;
      reachableHelpers(program, f, seen, helpers);
      std::vector<const ir::Function *> pullbacks;
      for (auto &h : helpers) {
        if (program.find(h)->cxx.standIn()) continue; // the user's (UNFAD_CUSTOM_GRADIENT), or unfad.h's
        // Emitted once per namespace: a block in another namespace cannot
        // see it. (g$value_and_pullback is kept only where a call uses it.)
        for (auto name : {ir::pullbackFunctionName(h), ir::valueAndPullbackFunctionName(h)})
          if (auto pb = gradients.find(name); pb && emitted.insert(f.cxx.enclosingNamespace + "::" + pb->name).second)
            pullbacks.push_back(pb);
      }
      auto g = gradients.find(ad::gradFunctionName(f.name));
      if (!g) throw ir::IRError("no gradient generated for " + f.name);
      // Prototypes first: pullbacks of recursive helpers call each other.
      std::string code;
      for (auto pb : pullbacks) code += printer::printPrototype(*pb, program) + "\n";
      for (auto pb : pullbacks) code += printer::printFunction(*pb, program) + "\n";
      code += printer::printFunction(*g, program);
      // The structs mirroring classes (printer/mirrors.cpp) that the code
      // names, once per namespace as the pullbacks.
      std::vector<const ir::Function *> printed = pullbacks;
      printed.push_back(g);
      b.code = printer::printMirrorStructs(printed, code, f.cxx.enclosingNamespace, emitted) + code;
      if (!f.cxx.memberOf.empty()) b.declaration = printer::printMemberDeclaration(*g, program) + "\n";
      blocks.push_back(std::move(b));
    }
    return blocks;
  });
}

std::string dump(const ir::Program &input, DumpStage stage, bool json) {
  return ir::onLargeStack<std::string>([&]() -> std::string {
    const ir::Program program = prepared(inlining::inlineForReverse(input));
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
      auto r = differentiated(input, nullptr);
      return json ? ir::toJson(r).dump(2) + "\n" : ir::print(r);
    }
    case DumpStage::Optimized: {
      static const std::string all;
      auto r = differentiated(input, &all);
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
    auto r = differentiated(input, &pass);
    return json ? ir::toJson(r).dump(2) + "\n" : ir::print(r);
  });
}

} // namespace unfad
