// A class with private data members and one deriving from it: inside the
// generated code their objects are plain structs of their data members
// (`Spring_fields`, the base object first in `Anchored_fields`), defined
// once in the gradient block (a second function in the same namespace
// reuses them); the user's classes are not changed.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

class Spring {
public:
  Spring(double k, double rest) : k_(k), rest_(rest) {}
  double energy(double len) const { return 0.5 * k_ * (len - rest_) * (len - rest_); }
  void stiffen(double f) { k_ *= f; }

private:
  double k_, rest_;
};

class Anchored : public Spring {
public:
  Anchored(double k, double rest, double at) : Spring(k, rest), at_(at) {}
  double energy_at(double x) const { return energy(x - at_); }

private:
  double at_;
};

// the object changes in a loop: its fields are the loop's state
UNFAD_GRADIENT double one(const double* xs, int n, double k) {
  Spring s(k, 1.0);
  double e = 0.0;
  for (int i = 0; i < n; ++i) {
    e += s.energy(xs[i]);
    s.stiffen(xs[i]);
  }
  return e;
}

UNFAD_GRADIENT double two(const double* xs, int n, double k) {
  Anchored a(k, 0.5, 2.0);
  double e = 0.0;
  for (int i = 0; i < n; ++i) {
    e += a.energy_at(xs[i]);
    a.stiffen(xs[i]);
  }
  return e;
}
// CHECK-LABEL: // unfad:begin one_grad
// CHECK-NEXT: struct Spring_fields {
// CHECK-NEXT:   double k_;
// CHECK-NEXT:   double rest_;
// CHECK-NEXT: };
// CHECK: double one_grad(const double* xs, int n, double k, double* d_xs, double* d_k) {
// CHECK: Spring_fields {{[a-z_0-9]+}}{k, 1.0};
// CHECK: // unfad:end one_grad
// CHECK-LABEL: // unfad:begin two_grad
// CHECK-NOT: struct Spring_fields
// CHECK: struct Anchored_fields {
// CHECK-NEXT:   Spring_fields base;
// CHECK-NEXT:   double at_;
// CHECK-NEXT: };
// CHECK: double two_grad(const double* xs, int n, double k, double* d_xs, double* d_k) {
// CHECK: Anchored_fields {{[a-z_0-9]+}}{Spring_fields{k, 0.5}, 2.0};
// CHECK: // unfad:end two_grad
