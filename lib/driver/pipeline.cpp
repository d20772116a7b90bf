// The back half of unfad: reverse mode on UNF, partial evaluation, C++.
#include "unfad/driver/pipeline.h"
#include "unfad/ad/reverse.h"
#include "unfad/ir/json.h"
#include "unfad/ir/mutator.h"
#include "unfad/opt/optimize.h"
#include "unfad/parallel/parallel.h"
#include "unfad/printer/cxx.h"
#include "unfad/unf/unf.h"

#include <exception>
#include <functional>
#include <pthread.h>
#include <set>

namespace unfad {

namespace {

// The passes recurse along let chains and continuations; long straight-line
// functions need more than the default 8 MiB of stack, so every pipeline
// entry point runs on a thread with a large one.
template <class R> R onLargeStack(const std::function<R()> &fn) {
  struct Job {
    const std::function<R()> *fn;
    R result;
    std::exception_ptr error;
  } job{&fn, R{}, nullptr};
  auto body = [](void *p) -> void * {
    auto *j = static_cast<Job *>(p);
    try {
      j->result = (*j->fn)();
    } catch (...) {
      j->error = std::current_exception();
    }
    return nullptr;
  };
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t(1) << 30);
  pthread_t t;
  if (pthread_create(&t, &attr, body, &job) != 0) {
    pthread_attr_destroy(&attr);
    return fn(); // fall back to the current stack
  }
  pthread_join(t, nullptr);
  pthread_attr_destroy(&attr);
  if (job.error) std::rethrow_exception(job.error);
  return job.result;
}

// Helpers reachable from `f` through calls, callees first.
void reachableHelpers(const ir::Program &p, const ir::Function &f, std::set<std::string> &seen,
                      std::vector<std::string> &order) {
  struct Calls : ir::Visitor {
    std::vector<std::string> names;
    void visit(const ir::Call *c) override {
      names.push_back(c->callee);
      ir::Visitor::visit(c);
    }
  } calls;
  calls.visitExpr(f.body);
  for (auto &n : calls.names) {
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
  return onLargeStack<std::vector<GeneratedBlock>>([&] {
    const ir::Program program = parallel::recognize(input);
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
        auto pb = gradients.find(ir::pullbackFunctionName(h));
        // Emitted once per namespace: a block in another namespace cannot
        // see it.
        if (pb && emitted.insert(f.cxx.enclosingNamespace + "::" + pb->name).second) pullbacks.push_back(pb);
      }
      // Prototypes first: pullbacks of recursive helpers call each other.
      for (auto pb : pullbacks) b.code += printer::printPrototype(*pb, program) + "\n";
      for (auto pb : pullbacks) b.code += printer::printFunction(*pb, program) + "\n";
      auto g = gradients.find(ad::gradFunctionName(f.name));
      if (!g) throw ir::IRError("no gradient generated for " + f.name);
      b.code += printer::printFunction(*g, program);
      blocks.push_back(std::move(b));
    }
    return blocks;
  });
}

std::string dump(const ir::Program &input, DumpStage stage, bool json) {
  return onLargeStack<std::string>([&]() -> std::string {
    const ir::Program program = parallel::recognize(input);
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

} // namespace unfad
