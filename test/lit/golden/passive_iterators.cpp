// Iterators into passive containers, as lookups are written: `auto it =
// idx.find(word); if (it != idx.end()) ... it->second`, over a vector of
// words, and an option with a default (`it != opts.end() ? it->second :
// 1.0`). The iterator is a name of passive data (lib/frontend/passive_data.cpp):
// each use is computed as written, with no derivative. Refused before
// ("type 'const_iterator' is not supported"). Every gradient is checked
// against central differences.
// RUN: cp %s %t.cpp && %unfad -i %t.cpp -- -std=c++17 -I%unfad_include -I%S/Inputs
// RUN: %cxx -std=c++17 -O1 -I%unfad_include -I%S/Inputs %t.cpp -o %t.exe && %t.exe | FileCheck %s
// RUN: grep -v '^// *[A-Z-]*:' %t.cpp | FileCheck %s --check-prefix=CODE
// CHECK: embed ok
// CHECK: scaled ok
// CHECK: missing ok
#include <unfad/unfad.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "gradient_check.h"

UNFAD_GRADIENT_WRT(w)
double embed(const std::vector<double>& w, const std::vector<std::string>& words,
             const std::unordered_map<std::string, int>& idx) {
  double s = 0;
  for (const auto& word : words) {
    auto it = idx.find(word);
    if (it != idx.end()) s += std::tanh(w[it->second]) * (it->second + 1);
  }
  return s;
}
// CODE-LABEL: double embed_grad(
// CODE:         idx.find(words[{{[a-z_0-9]+}}]) != idx.end()
// CODE:         idx.find(words[{{[a-z_0-9]+}}])->second

UNFAD_GRADIENT_WRT(x)
double scaled(const std::vector<double>& x, const std::map<std::string, double>& opts) {
  const auto it = opts.find("scale");
  const double k = it != opts.end() ? it->second : 1.0;
  double s = 0;
  for (double v : x) s += k * v * v;
  return s;
}

int main() {
  const std::unordered_map<std::string, int> idx = {{"a", 0}, {"b", 2}, {"c", 1}};
  const std::vector<std::string> words = {"b", "zz", "a", "b"};
  bool ok = check([&](const std::vector<double>& w) { return embed(w, words, idx); },
                  [&](const std::vector<double>& w, std::vector<double>& d) { return embed_grad(w, words, idx, d); },
                  {0.3, -0.7, 1.1});
  std::printf("embed %s\n", ok ? "ok" : "wrong");
  const std::map<std::string, double> opts = {{"scale", 2.5}}, none;
  ok = check([&](const std::vector<double>& x) { return scaled(x, opts); },
             [&](const std::vector<double>& x, std::vector<double>& d) { return scaled_grad(x, opts, d); }, {0.4, -1.2});
  std::printf("scaled %s\n", ok ? "ok" : "wrong");
  ok = check([&](const std::vector<double>& x) { return scaled(x, none); },
             [&](const std::vector<double>& x, std::vector<double>& d) { return scaled_grad(x, none, d); }, {0.4, -1.2});
  std::printf("missing %s\n", ok ? "ok" : "wrong");
}
