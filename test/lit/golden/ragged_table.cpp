// A network keeping every layer's activations as rows of the layers' widths
// (`acts.push_back(next)`, lib/frontend/ragged_tables.cpp): `acts` is one
// flat buffer allocated before the layer loop, its stride the widest row (a
// maximum over the widths, computed by a loop of its own), beside an array
// of row lengths. The backward sweep must not copy the table per layer: the
// elements a layer overwrites go to an undo log sized before the loop from
// the widths the layers read (lib/ad/rev/undo_log.cpp), O(activations) in
// all where a copy per layer cost O(layers x table). The gradient matches
// finite differences.
// RUN: cp %s %t.cpp && %unfad -i %t.cpp -- -std=c++17 -I%unfad_include -I%S/Inputs
// RUN: %cxx -std=c++17 -O1 -I%unfad_include -I%S/Inputs %t.cpp -o %t.exe && %t.exe | FileCheck %s
// RUN: grep -v '^// *[A-Z-]*:' %t.cpp | FileCheck %s --check-prefix=CODE
// RUN: sed -n '/^double kept_grad/,/unfad:end kept_grad/p' %t.cpp | FileCheck %s --check-prefix=COPY
// CHECK: kept ok
#include <unfad/unfad.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "gradient_check.h"

UNFAD_GRADIENT_WRT(w)
double kept(const std::vector<double>& w, const std::vector<int>& widths, const std::vector<double>& x) {
  std::vector<std::vector<double>> acts;
  acts.push_back(x);
  size_t off = 0;
  for (size_t l = 0; l + 1 < widths.size(); ++l) {
    std::vector<double> next(widths[l + 1]);
    for (int o = 0; o < widths[l + 1]; ++o) {
      double s = w[off++];
      for (size_t i = 0; i < acts[l].size(); ++i) s += w[off++] * acts[l][i];
      next[o] = std::tanh(s);
    }
    acts.push_back(next);
  }
  double r = 0;
  for (const auto& a : acts)
    for (double v : a) r += v * v;
  return r;
}
// CODE-LABEL: double kept_grad(
// CODE:         long widest = 0;
// CODE:         long acts_stride;
// CODE:         std::vector<double> acts([[ROOM:[a-z_0-9]+]]);
// CODE-NOT:     std::vector<double> acts(
// CODE:         std::vector<long> acts_lengths(
// CODE:         long stores = 0;
// CODE-NEXT:    for (long iteration = 0;
// CODE:           stores = stores + 
// CODE:         unfad::tape_buffer<double> log_acts_old(stores);
// CODE:         for (long l_{{[0-9]+}} = 0;
// CODE:             log_acts_old[{{.*}}] = old_acts;
// CODE:             acts[{{.*}}] = next[{{.*}}];
// CODE-NOT:     std::vector<double> acts(
// CODE:       // unfad:end kept_grad
// (no copy of the whole table per layer)
// COPY-NOT: tape_acts(
// COPY: unfad:end kept_grad

int main() {
  const std::vector<int> widths = {3, 5, 2, 4, 1};
  const std::vector<double> x = {0.7, -0.3, 1.1};
  int n = 0;
  for (size_t l = 0; l + 1 < widths.size(); ++l) n += widths[l + 1] * (widths[l] + 1);
  std::vector<double> w(n);
  for (int k = 0; k < n; ++k) w[k] = 0.3 * std::sin(1.7 * k + 0.2);
  bool ok = check([&](const std::vector<double>& v) { return kept(v, widths, x); },
                  [&](const std::vector<double>& v, std::vector<double>& d) { return kept_grad(v, widths, x, d); }, w);
  std::printf("kept %s\n", ok ? "ok" : "wrong");
}
