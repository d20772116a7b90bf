// Passive data: the objects a loss reads its data from, holding text or maps
// (a data set with labels and options, a model with bone names and parents,
// a configuration class with private members), passed by const reference or
// by pointer to const and left out of UNFAD_GRADIENT_WRT. Read as written:
// an index loop with `const Obs& o = d.obs[i]`, a range-based `for` over a
// vector of structs and over a C array in it, a helper given a struct
// element (`residual(w, o)`), a helper given a part (`prior(w,
// data->model)`: lowered into its caller; `thumbs(w, data->model.names)`,
// a vector of names), a helper given the parameter
// itself (keeps its own function), a copy nothing writes, labels compared
// with literals, a map read by key, const methods of a class with private
// members, and printing a name from it. Every gradient is checked against
// central differences.
// RUN: cp %s %t.cpp && %unfad -i %t.cpp -- -std=c++17 -I%unfad_include -I%S/Inputs
// RUN: %cxx -std=c++17 -O1 -I%unfad_include -I%S/Inputs %t.cpp -o %t.exe && %t.exe 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: grep -v '^// *[A-Z-]*:' %t.cpp | FileCheck %s --check-prefix=CODE
// CHECK: fit ok
// CHECK: bent ok
// CHECK: loss ok
// CHECK: moved ok
// CHECK: tuned ok
// ERR: fit hand: {{[0-9.e+-]+}}
// CODE-LABEL: double fit_grad(const std::vector<double>& w, const Data* data, std::vector<double>& d_w) {
// CODE:         const long {{[a-z_0-9]+}} = static_cast<long>(data->obs.size());
// CODE:         const double o_x = data->obs[{{[a-z_0-9]+}}].x;
// CODE:         const long {{[a-z_0-9]+}} = (data->verts[{{[a-z_0-9]+}}]);
// CODE:         (data->model.parents[static_cast<unsigned long>({{[a-z_0-9]+}})]
// CODE:         (data->model.names[static_cast<unsigned long>({{[a-z_0-9]+}})] == "thumb")
// CODE:         std::fprintf(stderr, "fit %s: %g\n", data->model.names[0].c_str(),
// CODE-LABEL: double bent_grad(const std::vector<double>& w, const Model& m, std::vector<double>& d_w) {
// CODE:         (m.parents[static_cast<unsigned long>({{[a-z_0-9]+}})] >= 0)
// CODE-LABEL: double loss_grad(const std::vector<double>& w, double bias, const Dataset& d, std::vector<double>& d_w, double* d_bias) {
// CODE:         (d.labels[static_cast<unsigned long>({{[a-z_0-9]+}})] == "skip")
// CODE:         const double o_x = (d.obs[static_cast<unsigned long>({{[a-z_0-9]+}})].x);
// CODE-LABEL: double tuned_grad(const std::vector<double>& w, const Config& cfg, std::vector<double>& d_w) {
// CODE:         (cfg.get("lambda"))
// CODE-NOT:     std::map
// CODE:         unfad:end tuned_grad
#include <unfad/unfad.h>

#include "gradient_check.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

struct Obs {
  double x, y;
  int group;
};

struct Model {
  std::vector<std::string> names;
  std::vector<int> parents; // -1 for a root
  std::vector<double> stiffness;
};

struct Data {
  Model model;
  std::vector<Obs> obs;
  std::map<std::string, double> opts;
  int verts[3];
};

static double residual(const std::vector<double>& w, const Obs& o) { return w[o.group] * o.x - o.y; }

static double prior(const std::vector<double>& w, const Model& m) {
  double s = 0;
  for (size_t k = 0; k < m.parents.size(); ++k)
    if (m.parents[k] >= 0) {
      const double bend = w[k] - w[m.parents[k]];
      s += m.stiffness[k] * bend * bend;
    }
  return s;
}

// Given a part of the data that is a library container of text.
static double thumbs(const std::vector<double>& w, const std::vector<std::string>& names) {
  double s = 0;
  for (size_t k = 0; k < names.size(); ++k)
    if (names[k] == "thumb") s += w[k] * std::cos(w[k]);
  return s;
}

UNFAD_GRADIENT_WRT(w)
double fit(const std::vector<double>& w, const Data* data) {
  double s = 0;
  for (const Obs& o : data->obs) {
    const double r = residual(w, o);
    s += r * r;
  }
  for (int v : data->verts) s += 0.5 * std::sin(w[v]) * w[v];
  s += data->opts.at("lambda") * prior(w, data->model);
  s += thumbs(w, data->model.names);
  std::fprintf(stderr, "fit %s: %g\n", data->model.names[0].c_str(), s);
  return s;
}

// The same helper given the parameter itself: its own function, whose
// parameter is the caller's model (not the part `fit` gave it).
UNFAD_GRADIENT_WRT(w)
double bent(const std::vector<double>& w, const Model& m) { return prior(w, m) + w[0] * w[0]; }

struct Dataset {
  std::string name;
  std::vector<Obs> obs;
  std::vector<std::string> labels;
  int n;
};

// The parameter itself: its own function in the gradient.
static double weight_decay(const std::vector<double>& w, const Dataset& d) {
  double s = 0;
  for (int k = 0; k < d.n; ++k) s += w[k] * w[k];
  return d.name == "noisy" ? 0.1 * s : 0.01 * s;
}

UNFAD_GRADIENT_WRT(w, bias)
double loss(const std::vector<double>& w, double bias, const Dataset& d) {
  const Dataset copy = d; // (read only: the data itself)
  double s = 0;
  for (size_t i = 0; i < d.obs.size(); ++i) {
    if (d.labels[i] == "skip") continue;
    const Obs& o = d.obs[i];
    const double r = std::tanh(w[o.group] * o.x + bias) - o.y;
    s += r * r;
  }
  const Obs first = copy.obs[0];
  return s + weight_decay(w, d) + first.x * bias * bias;
}

// A reference local names the element the index chose where it is
// declared, also after the index moves on.
UNFAD_GRADIENT_WRT(w)
double moved(const std::vector<double>& w, const Dataset& d) {
  double s = 0;
  size_t i = 0;
  while (i < d.obs.size()) {
    const Obs& o = d.obs[i];
    ++i;
    s += w[o.group] * o.x * static_cast<double>(i);
  }
  return s;
}

// A class with a constructor, private members and const methods.
class Config {
public:
  explicit Config(std::map<std::string, double> values) : values_(std::move(values)) {}
  double get(const std::string& key) const { return values_.at(key); }
  bool has(const std::string& key) const { return values_.count(key) > 0; }
  int order() const { return static_cast<int>(values_.size()); }

private:
  std::map<std::string, double> values_;
};

UNFAD_GRADIENT_WRT(w)
double tuned(const std::vector<double>& w, const Config& cfg) {
  double s = 0;
  for (size_t i = 0; i < w.size(); ++i) s += std::pow(w[i], 2) * (i % 2 == 0 ? 1.0 : cfg.get("odd"));
  if (cfg.has("lambda")) s += cfg.get("lambda") * w[0] * w[cfg.order() - 1];
  return s;
}

int main() {
  Data data;
  data.model.names = {"hand", "thumb", "index", "tip"};
  data.model.parents = {-1, 0, 0, 2};
  data.model.stiffness = {0.0, 1.5, 0.7, 2.0};
  data.obs = {{0.5, 1.0, 0}, {-1.2, 0.3, 2}, {2.0, -0.7, 3}, {0.1, 0.2, 1}};
  data.opts = {{"lambda", 0.8}};
  data.verts[0] = 1, data.verts[1] = 3, data.verts[2] = 1;
  const std::vector<double> w = {0.3, -1.1, 0.8, 1.7};
  bool ok = check([&](const std::vector<double>& v) { return fit(v, &data); },
                  [&](const std::vector<double>& v, std::vector<double>& d) { return fit_grad(v, &data, d); }, w);
  std::printf("fit %s\n", ok ? "ok" : "wrong");
  ok = check([&](const std::vector<double>& v) { return bent(v, data.model); },
             [&](const std::vector<double>& v, std::vector<double>& d) { return bent_grad(v, data.model, d); }, w);
  std::printf("bent %s\n", ok ? "ok" : "wrong");

  Dataset set;
  set.obs = data.obs;
  set.labels = {"a", "skip", "b", "c"};
  set.n = 3;
  ok = true;
  for (std::string name : {"noisy", "clean"}) {
    set.name = name;
    std::vector<double> wb = w;
    wb.push_back(0.4); // (the bias, last)
    auto split = [](const std::vector<double>& v) { return std::vector<double>(v.begin(), v.end() - 1); };
    ok = ok && check([&](const std::vector<double>& v) { return loss(split(v), v.back(), set); },
                     [&](const std::vector<double>& v, std::vector<double>& d) {
                       std::vector<double> dw(v.size() - 1, 0.0);
                       double db = 0;
                       const double value = loss_grad(split(v), v.back(), set, dw, &db);
                       for (std::size_t k = 0; k + 1 < v.size(); ++k) d[k] = dw[k];
                       d.back() = db;
                       return value;
                     },
                     wb);
  }
  std::printf("loss %s\n", ok ? "ok" : "wrong");
  { // by hand: d/dw[g] = sum over i with group g of x_i (i + 1)
    std::vector<double> d(w.size(), 0.0), hand(w.size(), 0.0);
    ok = moved_grad(w, set, d) == moved(w, set);
    for (size_t i = 0; i < set.obs.size(); ++i) hand[set.obs[i].group] += set.obs[i].x * (i + 1.0);
    for (size_t k = 0; k < w.size(); ++k) ok = ok && std::abs(d[k] - hand[k]) < 1e-12;
    std::printf("moved %s\n", ok ? "ok" : "wrong");
  }

  ok = true;
  for (const Config& cfg : {Config({{"odd", 3.0}, {"lambda", 0.5}}), Config({{"odd", -1.0}})})
    ok = ok && check([&](const std::vector<double>& v) { return tuned(v, cfg); },
                     [&](const std::vector<double>& v, std::vector<double>& d) { return tuned_grad(v, cfg, d); }, w);
  std::printf("tuned %s\n", ok ? "ok" : "wrong");
}
