// A marked method of a class template (template_methods.cpp): the template
// receives one gradient declaration per specialization the file uses at
// floating-point or integer arguments, spelled with that specialization's
// types, and after the class each definition is an explicit specialization
// of the member (`template <> inline`); blocks are named per specialization.
// Spring<int> gets none (not differentiable). Poly<3>::eval is never called
// in the file (only the class is named): its body is instantiated for the
// gradient. A method defined out of line keeps its gradient after its body.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>

template <class T>
struct Spring {
  T k;
  T x0;
  UNFAD_GRADIENT T energy(T x) const { return T(0.5) * k * (x - x0) * (x - x0); }
};

template <int N>
struct Poly {
  double c;
  UNFAD_GRADIENT double eval(double x) const;
};

template <int N>
UNFAD_GRADIENT double Poly<N>::eval(double x) const {
  double s = 0.0;
  for (int i = 0; i < N; ++i) s = s * x + c;
  return s;
}

double use(double x) {
  const Spring<double> s{2.0, 0.5};
  const Spring<int> t{2, 1};
  const Poly<3> p{1.5};
  return s.energy(x) + t.energy(1) + p.c;
}

// CHECK:      UNFAD_GRADIENT T energy(T x) const {
// CHECK-NEXT: // unfad:begin Spring<double>::energy_grad:declaration checksum=
// CHECK-NEXT: double energy_grad(double x, Spring<double>* d_this, double* d_x) const;
// CHECK-NEXT: // unfad:end Spring<double>::energy_grad:declaration
// CHECK-NEXT: };
// CHECK-NEXT: // unfad:begin Spring<double>::energy_grad checksum=
// CHECK-NEXT: template <> inline double Spring<double>::energy_grad(double x, Spring<double>* d_this, double* d_x) const {
// CHECK:        d_this->k +=
// CHECK:        d_this->x0 +=
// CHECK:        *d_x +=
// CHECK:      // unfad:end Spring<double>::energy_grad
// CHECK-NOT:  Spring<int>
// CHECK:      UNFAD_GRADIENT double eval(double x) const;
// CHECK-NEXT: // unfad:begin Poly<3>::eval_grad:declaration checksum=
// CHECK-NEXT: double eval_grad(double x, Poly<3>* d_this, double* d_x) const;
// CHECK:      UNFAD_GRADIENT double Poly<N>::eval(double x) const {
// CHECK:      // unfad:begin Poly<3>::eval_grad checksum=
// CHECK-NEXT: template <> inline double Poly<3>::eval_grad(double x, Poly<3>* d_this, double* d_x) const {
// CHECK:        for (long i = 0; i < 3; ++i) {
// CHECK:        d_this->c +=
// CHECK:      // unfad:end Poly<3>::eval_grad
// CHECK-NOT:  unfad:begin
