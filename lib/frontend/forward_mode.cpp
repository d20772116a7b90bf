// What forward mode (UNFAD_JVP, lib/ad/forward.cpp) does not take yet,
// refused where it is written: it inlines every helper a marked function
// reaches, so a recursive call cannot be followed, and a helper with a
// user-registered derivative (UNFAD_CUSTOM_GRADIENT) has only a pullback,
// no pushforward.
#include "lowering.h"

#include "unfad/ir/mutator.h"
#include "unfad/ir/traverse.h"

namespace unfad::frontend {

void Lowering::checkForwardMode() {
  std::map<std::string, size_t> byName;
  for (size_t i = 0; i < entries_.size(); ++i)
    if (entries_[i].ok) byName[entries_[i].fn.name] = i;
  for (const Entry &root : entries_) {
    if (!root.ok || !root.fn.tangent) continue;
    std::set<std::string> seen{root.fn.name};
    std::vector<size_t> work{byName.at(root.fn.name)};
    while (!work.empty()) {
      const Entry &en = entries_[work.back()];
      work.pop_back();
      struct Calls : ir::Visitor {
        std::vector<const ir::Call *> found;
        void visit(const ir::Call *c) override {
          found.push_back(c);
          ir::Visitor::visit(c);
        }
      } calls;
      calls.visitExpr(en.fn.body);
      for (const ir::Call *c : calls.found) {
        auto it = byName.find(c->callee);
        if (it == byName.end()) continue;
        const Entry &callee = entries_[it->second];
        std::string why;
        if (recursive_.count(c->callee))
          why = "forward mode (UNFAD_JVP) does not support recursive calls yet ('" + callee.fn.cxx.name + "')";
        else if (!callee.fn.cxx.customPullback.empty())
          why = "forward mode (UNFAD_JVP) cannot use the registered derivative of '" + callee.fn.cxx.name +
                "' (UNFAD_CUSTOM_GRADIENT gives a pullback, not a pushforward) yet";
        else if (callee.fn.cxx.runtime)
          why = "forward mode (UNFAD_JVP) does not support sorting (std::sort, std::stable_sort, std::nth_element, "
                "std::partial_sort) yet";
        if (!why.empty()) {
          // reported for the marked function, at the call
          Entry at = en;
          at.root = root.fn.cxx.name;
          reportAt(at, c, why);
          failed_ = true;
          return;
        }
        if (seen.insert(c->callee).second) work.push_back(it->second);
      }
    }
  }
}

} // namespace unfad::frontend
