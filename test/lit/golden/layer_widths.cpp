// A multilayer perceptron whose activations `cur` take each layer's width
// (`cur = next;`, lib/frontend/growing_vectors.cpp): `cur` is one buffer
// allocated before the layer loop with room for the widest layer (a maximum
// over the widths, computed by a loop of its own before it), and a length
// the loop carries; the assignment copies next's elements in. No buffer of
// `cur` is made inside a loop, and the gradient matches finite differences.
// RUN: cp %s %t.cpp && %unfad -i %t.cpp -- -std=c++17 -I%unfad_include -I%S/Inputs
// RUN: %cxx -std=c++17 -O1 -I%unfad_include -I%S/Inputs %t.cpp -o %t.exe && %t.exe | FileCheck %s
// RUN: grep -v '^// *[A-Z-]*:' %t.cpp | FileCheck %s --check-prefix=CODE
// RUN: sed -n '/^double mlp_grad/,/unfad:end mlp_grad/p' %t.cpp | FileCheck %s --check-prefix=LOOPS
// CHECK: layers ok
// (the loops bounded by `widths[l + 1]`, a const array's element, are counted loops)
// LOOPS-NOT: while
// LOOPS: unfad:end mlp_grad
#include <unfad/unfad.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "gradient_check.h"

UNFAD_GRADIENT_WRT(w)
double mlp(const std::vector<double>& w, const std::vector<int>& widths, const std::vector<double>& x) {
  std::vector<double> cur(x);
  size_t off = 0;
  for (size_t l = 0; l + 1 < widths.size(); ++l) {
    std::vector<double> next(widths[l + 1]);
    for (int o = 0; o < widths[l + 1]; ++o) {
      double s = w[off++];
      for (int i = 0; i < widths[l]; ++i) s += w[off++] * cur[i];
      next[o] = std::tanh(s);
    }
    cur = next;
  }
  double r = 0;
  for (double v : cur) r += v * v;
  return r;
}
// CODE-LABEL: double mlp_grad(
// CODE:         long widest = 0;
// CODE-NEXT:    for (long l = 0; l < {{.*}}; ++l) {
// CODE:           widest = 
// CODE:         std::vector<double> cur([[ROOM:[a-z_0-9]+]]);
// CODE-NOT:     std::vector<double> cur
// CODE:         for (long l_{{[0-9]+}} = 0;
// CODE:           cur[[[I:[a-z_0-9]+]]] = next[[[I]]];
// CODE-NOT:     std::vector<double> cur
// CODE:       // unfad:end mlp_grad

int main() {
  const std::vector<int> widths = {3, 5, 2, 4, 1};
  const std::vector<double> x = {0.7, -0.3, 1.1};
  int n = 0;
  for (size_t l = 0; l + 1 < widths.size(); ++l) n += widths[l + 1] * (widths[l] + 1);
  std::vector<double> w(n);
  for (int k = 0; k < n; ++k) w[k] = 0.3 * std::sin(1.7 * k + 0.2);
  bool ok = check([&](const std::vector<double>& v) { return mlp(v, widths, x); },
                  [&](const std::vector<double>& v, std::vector<double>& d) { return mlp_grad(v, widths, x, d); }, w);
  std::printf("layers %s\n", ok ? "ok" : "wrong");
}
