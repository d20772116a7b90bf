// A push_back in a loop whose trip count is read from memory written after the vector is declared, or is
// the size of a vector a method resizes after it (read where `v` is declared, it is the size
// before the resize: the buffer was allocated empty and the pushes wrote past its end): an error
// at the push, non-zero exit, and a failed -i leaves the file byte-identical.
// (a trip count computed from scalars, `const int m = 2 * n;`, or read from an array nothing writes,
// `const int m = static_cast<int>(x[0]) + n;`, bounds the vector where it is declared)
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <vector>
UNFAD_GRADIENT double f(const double* x, int n) {
  std::vector<double> v;
  std::vector<int> counts(1);
  counts[0] = static_cast<int>(x[0]) + n;
  const int m = counts[0];
  for (int i = 0; i < m; ++i)
// CHECK: grow_late_bound.cpp:[[@LINE+1]]:7: error: cannot differentiate 'f': growing 'v' here is not supported: how many elements it can reach is not known where it is declared
    v.push_back(x[i / 2]);
  double s = 0.0;
  for (double e : v) s += e * e;
  return s;
}

class Buffer {
public:
  Buffer() : n_(0) {}
  void resize(int n) {
    data_.resize(n);
    n_ = n;
  }
  int n_;
  std::vector<double> data_;
};
UNFAD_GRADIENT double g(const double* x, int n) {
  Buffer b;
  std::vector<double> v;
  b.resize(n);
  const int m = static_cast<int>(b.data_.size());
  for (int i = 0; i < m; ++i)
// CHECK: grow_late_bound.cpp:[[@LINE+1]]:7: error: cannot differentiate 'g': growing 'v' here is not supported: how many elements it can reach is not known where it is declared
    v.push_back(x[i]);
  double s = 0.0;
  for (double e : v) s += e * e;
  return s;
}
