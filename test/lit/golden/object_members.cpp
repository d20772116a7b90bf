// A class owning a std::vector whose methods write its number members
// (lib/frontend/written_members.cpp), read through getters in loop bounds:
// `for (int i = 0; i < g->rows(); ++i)` stays a counted `for` in f_grad
// (a getter whose object the loop does not write is invariant; it was a
// `while` with a counting pass before), a float member a helper sets
// through the pointer carries the gradient, and a loop whose body calls a
// method writing the member its bound reads re-reads it every iteration. Values and gradients against central differences.
// RUN: cp %s %t.cpp && %unfad -i %t.cpp -- -std=c++17 -I%unfad_include -I%S/Inputs
// RUN: %cxx -std=c++17 -O1 -I%unfad_include -I%S/Inputs %t.cpp -o %t.exe && %t.exe | FileCheck %s
// RUN: grep -v '^// *[A-Z-]*:' %t.cpp | FileCheck %s --check-prefix=CODE
// CHECK: smooth ok
// CHECK: budget ok
#include <unfad/unfad.h>

#include "gradient_check.h"

#include <cmath>
#include <vector>

class Grid {
 public:
  Grid(int rows, int cols) : rows_(rows), cols_(cols), data_(rows * cols, 0.0) {}
  int rows() const { return rows_; }
  int cols() const { return cols_; }
  double& operator()(int i, int j) { return data_[i * cols_ + j]; }
  double operator()(int i, int j) const { return data_[i * cols_ + j]; }
  void set_scale(double s) { scale_ = s; }
  double scale() const { return scale_; }
  void spend() { --budget_; }
  int budget() const { return budget_; }

 private:
  int rows_, cols_;
  double scale_ = 1.0;
  int budget_ = 4;
  std::vector<double> data_;
};

static void fill(const std::vector<double>& x, Grid* g) {
  for (int i = 0; i < g->rows(); ++i)
    for (int j = 0; j < g->cols(); ++j) (*g)(i, j) = std::sin(x[(i * g->cols() + j) % x.size()]);
  g->set_scale(x[0] * x[1]);
}

UNFAD_GRADIENT double smooth(const std::vector<double>& x, int n, int m) {
  Grid g(n, m);
  fill(x, &g);
  double t = 0.0;
  for (int i = 0; i < g.rows(); ++i)
    for (int j = 0; j < g.cols(); ++j) t += g.scale() * g(i, j) * g(i, j);
  return t;
}

UNFAD_GRADIENT double budget(const std::vector<double>& x, int n) {
  Grid g(n, 1);
  fill(x, &g);
  double t = 0.0;
  for (int i = 0; i < g.budget(); ++i) {
    t += g(i % n, 0) * x[i % x.size()];
    if (i % 3 == 1) g.spend();
  }
  return t * g.scale();
}

// CODE-LABEL: double smooth_grad(
// CODE-NOT:     while
// CODE:         for (long [[I:i[_0-9]*]] = 0; [[I]] < n; ++[[I]]) {
// CODE-NEXT:      for (long [[J:j[_0-9]*]] = 0; [[J]] < m; ++[[J]]) {
// CODE-NOT:     while
// CODE:         unfad:end smooth_grad
// CODE-LABEL: double budget_grad(
// CODE:         while (

int main() {
  const std::vector<double> x = {0.3, -1.1, 0.8, 1.7, 0.25};
  bool ok = check([&](const std::vector<double>& v) { return smooth(v, 3, 4); },
                  [&](const std::vector<double>& v, std::vector<double>& d) { return smooth_grad(v, 3, 4, d); }, x);
  std::printf("smooth %s\n", ok ? "ok" : "wrong");
  ok = check([&](const std::vector<double>& v) { return budget(v, 2); },
             [&](const std::vector<double>& v, std::vector<double>& d) { return budget_grad(v, 2, d); }, x);
  std::printf("budget %s\n", ok ? "ok" : "wrong");
}
