// A marked method of a class with private members (mirrored: the generated
// code cannot build one as written, printer/mirrors.cpp). A const method
// reads `this->k_` where it is: no mirror struct is defined for it. A
// non-const method writing its members keeps the values the backward sweep
// needs as one const local per member read (`const double s_v = this->v_;`),
// never a copy of the whole object per read. No transpose reads the object's
// members, so it keeps the forward sweep's final state: it is neither put
// back nor pushed again (ad/rev/inout_state.cpp).
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>

class Spring {
public:
  Spring(double k, double rest) : k_(k), rest_(rest) {}
  UNFAD_GRADIENT double energy(double x) const { return 0.5 * k_ * (x - rest_) * (x - rest_); }

private:
  double k_, rest_;
};

// CHECK:      // unfad:begin Spring::energy_grad checksum=
// CHECK-NOT:  struct Spring_fields
// CHECK:      inline double Spring::energy_grad(double x, Spring* d_this, double* d_x) const {
// CHECK:      // unfad:end Spring::energy_grad

class Cart {
public:
  Cart(double mass, double vel) : m_(mass), v_(vel) {}
  UNFAD_GRADIENT double push(double f) {
    v_ += f / m_;
    m_ *= 1.0 + 0.01 * f;
    return m_ * std::sin(v_);
  }

private:
  double m_, v_;
};

// CHECK:      // unfad:begin Cart::push_grad checksum=
// CHECK-NOT:  struct Cart_fields
// CHECK:      inline double Cart::push_grad(double f, Cart* d_this, double* d_f) {
// CHECK-NOT:  Cart_fields
// CHECK:        const double [[M:[a-z_0-9]+]] = this->m_;
// CHECK-NOT:  Cart_fields
// CHECK:        this->v_ +=
// CHECK-NOT:  Cart_fields
// CHECK-NOT:    this->m_ = [[M]];
// CHECK-NOT:    push(f)
// CHECK-NOT:  Cart_fields
// CHECK:      // unfad:end Cart::push_grad
