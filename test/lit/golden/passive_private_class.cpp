// A class of data with private members and const accessors, holding only
// numbers (`class Dataset { ... private: std::vector<double> x_, y_; }`),
// given to a marked function and left out of UNFAD_GRADIENT_WRT, is passive
// data: the gradient cannot name its members to mirror it, so every number
// is read from it as written (`d.x(i)`), by const reference, by pointer to
// const, and through a helper given it. Checked against central
// differences. (A class whose members are all public is split into its
// members instead: golden/class_mirror.cpp.)
// RUN: cp %s %t.cpp && %unfad -i %t.cpp -- -std=c++17 -I%unfad_include -I%S/Inputs
// RUN: %cxx -std=c++17 -O1 -I%unfad_include -I%S/Inputs %t.cpp -o %t.exe && %t.exe | FileCheck %s
// RUN: grep -v '^// *[A-Z-]*:' %t.cpp | FileCheck %s --check-prefix=CODE
// CHECK: loss ok
// CHECK: loss_ptr ok
// CODE-LABEL: double loss_grad(const std::vector<double>& w, const Dataset& d, std::vector<double>& d_w) {
// CODE:         (d.x(static_cast<int>(
// CODE:         (d.scale())
// CODE-LABEL: double loss_ptr_grad(const double* w, const Dataset* d, double* d_w) {
// CODE:         (d->y(static_cast<int>(
// CODE:         unfad:end loss_ptr_grad
#include <unfad/unfad.h>

#include "gradient_check.h"

#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

class Dataset {
public:
  Dataset(std::vector<double> x, std::vector<double> y) : x_(std::move(x)), y_(std::move(y)) {}
  int size() const { return static_cast<int>(x_.size()); }
  double x(int i) const { return x_[i]; }
  double y(int i) const { return y_[i]; }
  double scale() const { return scale_; }

private:
  std::vector<double> x_, y_;
  double scale_ = 0.5;
};

static double residual(const std::vector<double> &w, const Dataset &d, int i) {
  return w[0] + w[1] * d.x(i) + w[2] * std::sin(d.x(i)) - d.y(i);
}

UNFAD_GRADIENT_WRT(w) double loss(const std::vector<double>& w, const Dataset& d) {
  double s = 0.0;
  for (int i = 0; i < d.size(); ++i) {
    const double r = residual(w, d, i);
    s += d.scale() * r * r;
  }
  return s;
}

UNFAD_GRADIENT_WRT(w) double loss_ptr(const double* w, const Dataset* d) {
  double s = 0.0;
  for (int i = 0; i < d->size(); ++i) s += std::exp(-w[0] * d->x(i)) * d->y(i) + w[1] * w[1];
  return s;
}

int main() {
  const Dataset data({0.1, 0.7, -0.4, 1.3}, {0.5, -0.2, 0.9, 0.3});
  bool ok = check([&](const std::vector<double> &w) { return loss(w, data); },
                  [&](const std::vector<double> &w, std::vector<double> &d) { return loss_grad(w, data, d); },
                  {0.3, -0.8, 1.1});
  std::printf("loss %s\n", ok ? "ok" : "FAILED");
  ok = check([&](const std::vector<double> &w) { return loss_ptr(w.data(), &data); },
             [&](const std::vector<double> &w, std::vector<double> &d) { return loss_ptr_grad(w.data(), &data, d.data()); },
             {0.6, -0.25});
  std::printf("loss_ptr %s\n", ok ? "ok" : "FAILED");
}
