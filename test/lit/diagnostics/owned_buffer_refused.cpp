// What unfad refuses of classes owning new[] memory (test/e2e/cases/owned_buffers.cpp
// has what it accepts): an owned buffer pointed at memory the object does not
// own (a non-owning view over a caller's array: the object's array would be a
// copy, and writes through it would be lost), and a copy of a class with a
// copy constructor of its own anywhere but a local made by it (a by-value
// parameter would copy the members as if it had none), and an owned buffer
// assigned a pointer it does not own. Each is an error at
// the construct, non-zero exit, nothing written.
// RUN: not %unfad %s -- -std=c++17 -DVIEW 2>&1 | FileCheck %s --check-prefix=VIEW
// RUN: not %unfad %s -- -std=c++17 -DBYVALUE 2>&1 | FileCheck %s --check-prefix=BYVALUE
// RUN: not %unfad %s -- -std=c++17 -DASSIGN 2>&1 | FileCheck %s --check-prefix=ASSIGN
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 -DVIEW 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>

class Mat {
 public:
  Mat(int r, int c) : rows_(r), cols_(c) { data_ = new double[r * c]; }
// VIEW: owned_buffer_refused.cpp:[[@LINE+1]]:60: error: cannot differentiate 'f': initialising 'data_', memory its object frees in its destructor, with anything but 'new T[n]' or 'nullptr' is not supported (the object owns its elements as a std::vector does)
  Mat(int r, int c, double* d) : rows_(r), cols_(c), data_(d) {}
  Mat(const Mat& o) : rows_(o.rows_), cols_(o.cols_) {
    data_ = new double[rows_ * cols_];
    for (int k = 0; k < rows_ * cols_; ++k) data_[k] = o.data_[k];
  }
  ~Mat() { delete[] data_; }
  void wrap(double* d) {
// ASSIGN: owned_buffer_refused.cpp:[[@LINE+1]]:11: error: cannot differentiate 'f': assigning 'data_', memory its object frees in its destructor, anything but 'new T[n]', 'nullptr', a local 'T* p = new T[n]' or another object's such member is not supported (the object owns its elements as a std::vector does; copy them instead)
    data_ = d;
  }
  double& operator()(int i, int j) { return data_[j * rows_ + i]; }
  double get(int i, int j) const { return data_[j * rows_ + i]; }
  int rows_, cols_;
  double* data_;
};

double trace(Mat m) { return m.get(0, 0) + m.get(1, 1); }

UNFAD_GRADIENT double f(double* x) {
#if defined(ASSIGN)
  Mat a(2, 2);
  a.wrap(x);
  return a.get(0, 0);
#elif defined(VIEW)
  Mat a(2, 2, x);
  a(0, 0) *= 2.0;
  return a.get(0, 0) + a.get(1, 1);
#else
  Mat a(2, 2);
  for (int k = 0; k < 4; ++k) a(k % 2, k / 2) = x[k];
// BYVALUE: owned_buffer_refused.cpp:[[@LINE+1]]:16: error: cannot differentiate 'f': this copy of a 'Mat' is not supported: its class has a copy constructor of its own, which unfad runs only for a local made by it ('Mat b = a;'); pass the object by const reference
  return trace(a);
#endif
}
