// A marked method giving a functor object to a template (found by the
// fuzzer: unfad-fuzz:101:80, features methods and classes): inside the
// functor's call operator `a`, `b`, `c` are the functor's members, not the
// marked method's object's (before: "internal error: ill-typed IR:
// projection index out of range", since `this` named M there). Checked
// against central differences, the functor's members and M's own member
// both read. And a marked method's lambdas capturing `this` (`[&]` in
// std::for_each reading members, `[this]` stored and called from another
// lambda in std::accumulate): refused before ("lambdas capturing 'this'").
// RUN: cp %s %t.cpp && %unfad -i %t.cpp -- -std=c++17 -I%unfad_include -I%S/Inputs
// RUN: %cxx -std=c++17 -O1 -I%unfad_include -I%S/Inputs %t.cpp -o %t.exe && %t.exe | FileCheck %s
// CHECK: method ok
// CHECK: captured ok
#include <unfad/unfad.h>

#include "gradient_check.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

struct Poly {
  double a, b, c;
  Poly(double a0, double b0, double c0) : a(a0), b(b0), c(c0) {}
  double operator()(double t) const { return (a * t + b) * t + c; }
};

template <class F>
double apply_sum(F f, const double* v, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += f(v[i]);
  return s;
}

struct M {
  double scale;
  UNFAD_GRADIENT_WRT(x0, a1)
  double f(double x0, int n, const double* a1) const {
    return scale * apply_sum(Poly(x0, 0.5, a1[n - 1]), a1, n);
  }
};

struct Model {
  double w = 0.5;
  int k = 2;
  UNFAD_GRADIENT_WRT(x)
  double loss(const std::vector<double>& x) const {
    double s = 0.0;
    std::for_each(x.begin(), x.end(), [&](double v) { s += w * std::sin(v) * k; });
    auto sq = [this](double v) { return w * v * v; };
    return s + std::accumulate(x.begin(), x.end(), 0.0, [&](double a, double v) { return a + sq(v); });
  }
};

int main() {
  const M m{0.3};
  const std::vector<double> x = {0.7, 0.5, -1.0, 2.0}; // x0, then a1
  auto f = [&](const std::vector<double>& v) { return m.f(v[0], 3, v.data() + 1); };
  auto grad = [&](const std::vector<double>& v, std::vector<double>& d) {
    return m.f_grad(v[0], 3, v.data() + 1, &d[0], d.data() + 1);
  };
  std::printf("method %s\n", check(f, grad, x) ? "ok" : "wrong");
  const Model model;
  auto loss = [&](const std::vector<double>& v) { return model.loss(v); };
  auto loss_grad = [&](const std::vector<double>& v, std::vector<double>& d) { return model.loss_grad(v, d); };
  std::printf("captured %s\n", check(loss, loss_grad, {0.7, -1.3, 0.4}) ? "ok" : "wrong");
}
