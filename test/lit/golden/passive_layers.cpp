// A network's layers as a std::vector of objects holding std::vectors,
// `const std::vector<Layer>& layers` for `struct Layer { std::vector<double>
// W, b; int in, out; }`, left out of UNFAD_GRADIENT_WRT: the gradient with
// respect to the input (a saliency map, an adversarial step) through fixed
// weights. The layers are passive data (lib/frontend/passive_data.cpp), read
// as written in f_grad (`layers[l].W[...]`): range-for over them, indexed,
// given to a helper returning the layer's output, sizes read from them.
// Refused before ("type 'Layer' has a member array of a run-time size");
// named in UNFAD_GRADIENT_WRT it is refused at the parameter
// (diagnostics/passive_data_refused.cpp). The gradients match finite
// differences.
// RUN: cp %s %t.cpp && %unfad -i %t.cpp -- -std=c++17 -I%unfad_include -I%S/Inputs
// RUN: %cxx -std=c++17 -O1 -I%unfad_include -I%S/Inputs %t.cpp -o %t.exe && %t.exe | FileCheck %s
// RUN: grep -v '^// *[A-Z-]*:' %t.cpp | FileCheck %s --check-prefix=CODE
// CHECK: saliency ok
// CHECK: indexed ok
// CHECK: loss ok
// CHECK: loss_direct ok
#include <unfad/unfad.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "gradient_check.h"

struct Layer {
  std::vector<double> W, b;
  int in, out;
};

static std::vector<double> forward(const Layer& L, const std::vector<double>& x) {
  std::vector<double> y(L.out);
  for (int o = 0; o < L.out; ++o) {
    double s = L.b[o];
    for (int i = 0; i < L.in; ++i) s += L.W[o * L.in + i] * x[i];
    y[o] = std::tanh(s);
  }
  return y;
}

UNFAD_GRADIENT_WRT(x)
double saliency(const std::vector<Layer>& layers, const std::vector<double>& x) {
  std::vector<double> h = x;
  for (const Layer& L : layers) h = forward(L, h);
  double s = 0;
  for (double v : h) s += v;
  return s;
}
// CODE-LABEL: double saliency_grad(const std::vector<Layer>& layers, const std::vector<double>& x, std::vector<double>& d_x) {
// CODE:       // unfad:end saliency_grad

UNFAD_GRADIENT_WRT(x)
double indexed(const std::vector<Layer>& layers, const std::vector<double>& x) {
  std::vector<double> h = x;
  for (size_t l = 0; l < layers.size(); ++l) {
    std::vector<double> next(layers[l].out);
    for (int o = 0; o < layers[l].out; ++o) {
      double s = layers[l].b[o];
      for (size_t i = 0; i < h.size(); ++i) s += layers[l].W[o * layers[l].in + i] * h[i];
      next[o] = s > 0 ? s : 0.01 * s;
    }
    h = next;
  }
  double r = 0;
  for (double v : h) r += v * v;
  return r;
}
// CODE-LABEL: double indexed_grad(
// CODE:         layers[{{.*}}].W[
// CODE:       // unfad:end indexed_grad

// Training: a data set of samples holding their features in a std::vector
// (passive data), the weights one flat vector, a layer helper reassigning
// the activations, a softmax cross-entropy with std::max_element.
struct Sample {
  std::vector<double> x;
  int label;
};

static std::vector<double> dense(const std::vector<double>& w, size_t& off, const std::vector<double>& in, int out,
                                 bool relu) {
  std::vector<double> y(out);
  for (int o = 0; o < out; ++o) {
    double s = w[off++];
    for (double a : in) s += w[off++] * a;
    y[o] = relu ? std::max(0.0, s) : s;
  }
  return y;
}

static double cross_entropy(const std::vector<double>& logits, int label) {
  const double m = *std::max_element(logits.begin(), logits.end());
  double z = 0;
  for (double v : logits) z += std::exp(v - m);
  return std::log(z) + m - logits[label];
}

UNFAD_GRADIENT_WRT(w)
double loss(const std::vector<double>& w, const std::vector<int>& widths, const std::vector<Sample>& data) {
  double total = 0;
  for (const Sample& s : data) {
    std::vector<double> h = s.x;
    size_t off = 0;
    for (size_t l = 1; l < widths.size(); ++l) h = dense(w, off, h, widths[l], l + 1 < widths.size());
    total += cross_entropy(h, s.label);
  }
  return total / data.size();
}
// CODE-LABEL: double loss_grad(
// CODE:           = data[{{.*}}].x[{{.*}}];
// CODE:       // unfad:end loss_grad

// The features given to the first layer as they are (the helper reads them
// as passive data, then the same helper is inlined over `h`).
UNFAD_GRADIENT_WRT(w)
double loss_direct(const std::vector<double>& w, const std::vector<int>& widths, const std::vector<Sample>& data) {
  double total = 0;
  for (const Sample& s : data) {
    size_t off = 0;
    std::vector<double> h = dense(w, off, s.x, widths[1], true);
    for (size_t l = 2; l < widths.size(); ++l) h = dense(w, off, h, widths[l], l + 1 < widths.size());
    total += cross_entropy(h, s.label);
  }
  return total / data.size();
}

static std::vector<Layer> make_layers(const std::vector<int>& widths) {
  std::vector<Layer> ls;
  for (size_t l = 0; l + 1 < widths.size(); ++l) {
    Layer L;
    L.in = widths[l];
    L.out = widths[l + 1];
    for (int k = 0; k < L.in * L.out; ++k) L.W.push_back(0.4 * std::sin(1.3 * k + l));
    for (int o = 0; o < L.out; ++o) L.b.push_back(0.1 * std::cos(o + 2.0 * l));
    ls.push_back(L);
  }
  return ls;
}

int main() {
  const std::vector<double> x = {0.7, -0.3, 1.1};
  const std::vector<Layer> a = make_layers({3, 4, 2}), b = make_layers({3, 5, 2, 4});
  bool ok = check([&](const std::vector<double>& v) { return saliency(a, v); },
                  [&](const std::vector<double>& v, std::vector<double>& d) { return saliency_grad(a, v, d); }, x);
  std::printf("saliency %s\n", ok ? "ok" : "wrong");
  ok = check([&](const std::vector<double>& v) { return indexed(b, v); },
             [&](const std::vector<double>& v, std::vector<double>& d) { return indexed_grad(b, v, d); }, x);
  std::printf("indexed %s\n", ok ? "ok" : "wrong");
  const std::vector<int> widths = {3, 5, 4, 3};
  std::vector<Sample> data;
  for (int k = 0; k < 6; ++k) data.push_back({{std::sin(k + 0.3), std::cos(1.7 * k), 0.2 * k - 0.5}, k % 3});
  int n = 0;
  for (size_t l = 1; l < widths.size(); ++l) n += widths[l] * (widths[l - 1] + 1);
  std::vector<double> w(n);
  for (int k = 0; k < n; ++k) w[k] = 0.4 * std::sin(2.1 * k + 0.4);
  ok = check([&](const std::vector<double>& v) { return loss(v, widths, data); },
             [&](const std::vector<double>& v, std::vector<double>& d) { return loss_grad(v, widths, data, d); }, w);
  std::printf("loss %s\n", ok ? "ok" : "wrong");
  ok = check([&](const std::vector<double>& v) { return loss_direct(v, widths, data); },
             [&](const std::vector<double>& v, std::vector<double>& d) { return loss_direct_grad(v, widths, data, d); },
             w);
  std::printf("loss_direct %s\n", ok ? "ok" : "wrong");
}
