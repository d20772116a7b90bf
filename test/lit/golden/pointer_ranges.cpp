// A marked function taking a range as C++ code passes one, `(const double*
// first, const double* last)`: `last` is compared with positions taken from
// `first` in a loop's condition (`p != last`, `p < last`) or subtracted (`last -
// first`), which C++ defines only within one array, so it is a position in
// first's array, `last - first` elements on, read once on entry. It has no
// adjoint of its own (the gradient's `d_first` has `last - first`
// elements). Also with `first` moved by the body (`++first`), the range
// passed on to std::accumulate and to a helper, and read through `last`
// (`last[-1]`); and a helper's std::accumulate over views it is given.
// Checked against central differences.
// RUN: cp %s %t.cpp && %unfad -i %t.cpp -- -std=c++17 -I%unfad_include -I%S/Inputs
// RUN: %cxx -std=c++17 -O1 -Wall -Wextra -Werror -I%unfad_include -I%S/Inputs %t.cpp -o %t.exe && %t.exe | FileCheck %s
// RUN: grep -v '^// *[A-Z-]*:' %t.cpp | FileCheck %s --check-prefix=CODE
// CHECK: walk ok
// CHECK: variance ok
// CHECK: ends ok
// CHECK: head_mean ok
// CODE-LABEL: double walk_grad(const double* begin, const double* end, double* d_begin) {
// CODE:         static_cast<long>(end - begin)
// CODE-LABEL: double variance_grad(const double* first, const double* last, double k, double* d_first, double* d_k) {
// CODE-NOT:     new
// CODE:         unfad:end variance_grad
// CODE-LABEL: double ends_grad(const double* b, const double* e, double* d_b) {
// (a check that two parameters are one array tells nothing of them)
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include -I%S/Inputs -DALIAS_CHECK 2>&1 | FileCheck %s --check-prefix=ALIAS
// ALIAS: error: cannot differentiate 'two_arrays': comparing or subtracting pointers or iterators into different arrays
// (nor does a comparison outside a loop's condition: `b` keeps its own
// array and adjoint, and the comparison is refused)
// ALIAS: error: cannot differentiate 'ordered': comparing or subtracting pointers or iterators into different arrays
#include <unfad/unfad.h>

#include "gradient_check.h"

#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>

UNFAD_GRADIENT double walk(const double *begin, const double *end) {
  double s = 0, prev = *begin;
  for (const double *p = begin + 1; p != end; ++p) {
    s += (*p - prev) * (*p - prev);
    prev = *p;
  }
  return s;
}

static double mean(const double *b, const double *e) { return std::accumulate(b, e, 0.0) / static_cast<double>(e - b); }

UNFAD_GRADIENT double variance(const double *first, const double *last, double k) {
  const double n = static_cast<double>(last - first);
  const double m = mean(first, last);
  double v = 0;
  for (; first != last; ++first) v += k * (*first - m) * (*first - m);
  return v / n;
}

UNFAD_GRADIENT double ends(const double *b, const double *e) {
  double s = 0;
  for (const double *p = b; p < e; p += 2) s += std::sin(*p);
  return s * e[-1] + *(e - 2);
}

// (a helper's std::accumulate over a range of views it is given: was refused)
UNFAD_GRADIENT double head_mean(const double *x, int n) { return mean(x, x + n) * mean(x + 1, x + n); }

#ifdef ALIAS_CHECK
UNFAD_GRADIENT double two_arrays(const double *x, const double *y, int n) {
  if (x == y) return 0.0;
  double s = 0;
  for (int i = 0; i < n; ++i) s += x[i] * y[i];
  return s;
}
UNFAD_GRADIENT double ordered(const double *a, const double *b, int n) {
  double s = a < b ? 1.0 : 0.0;
  for (int i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}
#endif

int main() {
  const std::vector<double> x{0.3, -0.8, 1.1, 0.25, -1.5, 0.7, 2.0};
  bool ok = check([](const std::vector<double> &v) { return walk(v.data(), v.data() + v.size()); },
                  [](const std::vector<double> &v, std::vector<double> &d) {
                    return walk_grad(v.data(), v.data() + v.size(), d.data());
                  },
                  x);
  std::printf("walk %s\n", ok ? "ok" : "FAILED");
  // (k last: d[n] is its derivative)
  ok = check([](const std::vector<double> &v) { return variance(v.data(), v.data() + v.size() - 1, v.back()); },
             [](const std::vector<double> &v, std::vector<double> &d) {
               return variance_grad(v.data(), v.data() + v.size() - 1, v.back(), d.data(), &d.back());
             },
             x);
  std::printf("variance %s\n", ok ? "ok" : "FAILED");
  ok = check([](const std::vector<double> &v) { return ends(v.data(), v.data() + v.size()); },
             [](const std::vector<double> &v, std::vector<double> &d) {
               return ends_grad(v.data(), v.data() + v.size(), d.data());
             },
             x);
  std::printf("ends %s\n", ok ? "ok" : "FAILED");
  ok = check([](const std::vector<double> &v) { return head_mean(v.data(), 5); },
             [](const std::vector<double> &v, std::vector<double> &d) { return head_mean_grad(v.data(), 5, d.data()); }, x);
  std::printf("head_mean %s\n", ok ? "ok" : "FAILED");
}
