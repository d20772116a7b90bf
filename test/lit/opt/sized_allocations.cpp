// sized-allocations: a default-constructed matrix sized by the helper it is
// given is an empty array resized before anything else touches it (and so
// is its cotangent buffer); the pass allocates each at its size, where the
// resize was.
// RUN: %unfad --dump=reverse --dump-format=json %s -- -std=c++17 -I%unfad_include > %t.json
// RUN: %unfad-opt --passes=lower-parallel,partial-eval,dead-code --format=json %t.json > %t.in.json
// RUN: %unfad-opt --passes=lower-parallel %t.in.json | FileCheck %s --check-prefix=IN
// RUN: %unfad-opt --pass=sized-allocations %t.in.json | FileCheck %s
// RUN: %unfad %s -- -std=c++17 -I%unfad_include | grep -v '^// *[A-Z-]*:' | FileCheck %s --check-prefix=CODE
#include <unfad/unfad.h>
#include <vector>

class Mat {
 public:
  Mat() : n_(0) {}
  void resize(int n) {
    data_.resize(n);
    n_ = n;
  }
  int n_;
  std::vector<double> data_;
};

static void squares(const double* x, int n, Mat* out) {
  out->resize(n);
  for (int i = 0; i < n; ++i) out->data_[i] = x[i] * x[i];
}

UNFAD_GRADIENT_WRT(x) double total(const double* x, int n) {
  Mat m;
  squares(x, n, &m);
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += m.data_[i] * x[i];
  return s;
}
// IN-LABEL: def total$grad(
// IN:         let [[M:m_data_[0-9_]*]]: [f64] = new f64[0] in
// IN:         let [[D:d_m_data_[0-9_]*]]: [f64] = new f64[0] in
// IN:         resize [[D]] to
// IN:         resize [[M]] to

// CHECK-LABEL: def total$grad(
// CHECK-NOT:     new f64[0]
// CHECK-NOT:     resize
// CHECK:         let [[D:d_m_data_[0-9_]*]]: [f64] = new f64[n] in
// CHECK-NEXT:    let [[M:m_data_[0-9_]*]]: [f64] = new f64[n] in
// CHECK-NOT:     resize
// CHECK:         fold i in [0, n)

// A matrix made in each iteration at the size a product then gives it
// again: one allocation at that size, and no resize left in the loop,
// neither in the forward sweep nor in the J^T's recomputation (whose
// restores of the size at the end of the body write an array that dies
// there: dead code).
UNFAD_GRADIENT_WRT(x) double looped(const double* x, int n, int steps) {
  double s = 0.0;
  for (int k = 0; k < steps; ++k) {
    Mat m;
    m.data_.resize(n);
    squares(x, n, &m);
    s += m.data_[k % n] * x[0];
  }
  return s;
}

// The generated code: each vector made at its size, never resized.
// CODE-LABEL: double total_grad(
// CODE-NEXT:    std::vector<double> d_m_data_(n);
// CODE-NEXT:    std::vector<double> m_data_(n);
// CODE-NOT:     resize
// CODE:         return s;
// CODE-LABEL: double looped_grad(
// CODE-NOT:     resize
// CODE-NOT:     std::vector<double> {{.*}}(0)
// CODE:         return s
