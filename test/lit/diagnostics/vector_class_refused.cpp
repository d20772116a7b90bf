// Classes owning a std::vector (lib/frontend/vector_members.cpp) outside what
// is supported: a vector member sized in a loop by the loop's index, of an
// object made empty outside it (resized_members.cpp: its size would change
// while the loop runs; one each iteration sizes as the first does is
// supported, test/e2e/cases/presized_in_loops.cpp), a vector member grown by push_back in a method, a whole object assigned in a
// loop where it was made at another size before it, a vector of structs
// resized (std::vector makes new elements from the struct's default member
// initialisers, where the cotangent buffer must grow with zeros), a function
// returning an object before its end, a reference to one of two objects
// chosen by `?:` while one of them is written, or a non-const one
// (chosen_objects.cpp), a marked function's parameter of such
// a class with private data members, and a marked method of such a class
// assigning a member that is not a vector element (methods reading the
// members or updating the vectors' elements are supported:
// test/plugin/inputs/methods.cpp);
// each an error at the construct, non-zero exit, and a failed -i leaves the
// file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <vector>
class Resized {
public:
  Resized() : rows_(0) {}
  void reshape(int r) {
// CHECK: vector_class_refused.cpp:[[@LINE+1]]:11: error: cannot differentiate 'body': 'data_.resize' inside a loop or a branch, of an object made outside it and at another size, is not supported
    data_.resize(r);
    rows_ = r;
  }
  double& operator()(int i) { return data_[i]; }
private:
  int rows_;
  std::vector<double> data_;
};
UNFAD_GRADIENT double body(const double* x, int n) {
  Resized m;
  double s = 0;
  for (int k = 1; k < n; ++k) {
    m.reshape(k);
    m(0) = x[0];
    s += m(0) * x[1];
  }
  return s;
}
class Matrix {
public:
  Matrix(int r, int c) : rows_(r), cols_(c), data_(r * c) {}
  double& operator()(int i, int j) { return data_[i * cols_ + j]; }
// CHECK: vector_class_refused.cpp:[[@LINE+1]]:31: error: cannot differentiate 'pushed': 'push_back' is only supported on a local std::vector
  void grow(double v) { data_.push_back(v); }
  int rows_, cols_;
  std::vector<double> data_;
};
UNFAD_GRADIENT double pushed(const double* x) {
  Matrix m(2, 2);
  m.grow(x[0]);
  return m(0, 0) * x[1];
}
UNFAD_GRADIENT double assigned(const double* x, int n) {
  Matrix m(2, 2);
  m(0, 1) = x[0];
  Matrix c(1, 1);
  double s = 0;
  for (int k = 0; k < n; ++k) {
// CHECK: vector_class_refused.cpp:[[@LINE+1]]:7: error: cannot differentiate 'assigned': assigning a whole object of 'Matrix' inside a loop or a branch, of an object made outside it and at another size, is not supported
    c = m;
    s += c(0, 1);
  }
  return s * x[1];
}
struct Pt {
  double x = 1.0;
  double w = 2.0;
};
class Cloud {
public:
  Cloud() : n_(0) {}
// CHECK: vector_class_refused.cpp:[[@LINE+1]]:27: error: cannot differentiate 'cloud': 'pts_.resize' of a vector of structs is not supported
  void grow(int n) { pts_.resize(n); n_ = n; }
  Pt& at(int i) { return pts_[i]; }
  int n_;
  std::vector<Pt> pts_;
};
UNFAD_GRADIENT double cloud(const double* x) {
  Cloud c;
  c.grow(2);
  c.at(0).x = x[0];
  return c.pts_[0].x * c.pts_[1].w;
}
static Matrix early(double v) {
  Matrix m(1, 1);
// CHECK: vector_class_refused.cpp:[[@LINE+1]]:14: error: cannot differentiate 'returned': 'early' returns
  if (v > 0) return m;
  m(0, 0) = v;
  return m;
}
UNFAD_GRADIENT double returned(const double* x) {
  const Matrix& m = early(x[0]);
  return m.data_[0] * x[1];
}
class Hidden {
public:
  explicit Hidden(int n) : v_(n) {}
  double at(int i) const { return v_[i]; }
private:
  std::vector<double> v_;
};
// CHECK: vector_class_refused.cpp:[[@LINE+1]]:44: error: cannot differentiate 'hidden': a parameter of type 'const Hidden &' of the marked function is not supported: its data member 'v_' is not public
UNFAD_GRADIENT double hidden(const Hidden& h) { return h.at(0) * h.at(1); }
class Frob {
public:
  explicit Frob(int n) : v_(n) {}
  UNFAD_GRADIENT double grow() {
// CHECK: vector_class_refused.cpp:[[@LINE+1]]:5: error: cannot differentiate 'grow': a method assigning a member of its object, a class with std::vector members, is not supported (only the elements of its vectors may be written; build a new object instead)
    scale_ *= 2.0;
    return v_[0] * scale_;
  }
private:
  std::vector<double> v_;
  double scale_ = 1.0;
};
UNFAD_GRADIENT double chosen_written(const double* x, bool first) {
  Matrix a(2, 2), b(2, 2);
  a(0, 0) = x[0];
  b(0, 0) = x[1];
// CHECK: vector_class_refused.cpp:[[@LINE+1]]:29: error: cannot differentiate 'chosen_written': a reference to one of two objects of 'Matrix' chosen by '?:' is read as a copy of the chosen one, so each must be a variable nothing writes while the reference lives
  const Matrix& m = first ? a : b;
  a(0, 0) = 2.0;
  return m.data_[0];
}
UNFAD_GRADIENT double chosen_non_const(const double* x, bool first) {
  Matrix a(2, 2), b(2, 2);
// CHECK: vector_class_refused.cpp:[[@LINE+1]]:11: error: cannot differentiate 'chosen_non_const': a non-const reference to one of two objects of 'Matrix' chosen by '?:' is not supported
  Matrix& m = first ? a : b;
  m(0, 0) = x[0];
  return a(0, 0) * b(0, 0) + x[1];
}
