// A marked const method and a marked functor (marked_methods.cpp): the
// gradient is a member of the class, declared in it right after the method
// and defined after the class (with the helpers' pullbacks, at namespace
// scope), `inline` as the method is; `*this` is read as `this->a`, its
// adjoint is `Model* d_this`, first among the adjoints, added into field by
// field; a functor's operator() gets `grad`. (`sq`, small and called in the
// loop, is inlined there: no pullback for it.) A derived class's method reaches
// the base's members as inherited members.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>

double sq(double v) { return v * v; }

struct Model {
  double a;
  double b;
  UNFAD_GRADIENT double loss(const double* x, int n) const {
    double s = 0.0;
    for (int i = 0; i < n; ++i) s += sq(a * x[i] - b);
    return s;
  }
  double other(double v) const { return v; }
};

struct Gaussian {
  double mu;
  UNFAD_GRADIENT double operator()(double v) const { return 0.5 * sq(v - mu); }
};

// CHECK:      UNFAD_GRADIENT double loss(const double* x, int n) const {
// CHECK:      // unfad:begin Model::loss_grad:declaration checksum=
// CHECK-NEXT: double loss_grad(const double* x, int n, Model* d_this, double* d_x) const;
// CHECK-NEXT: // unfad:end Model::loss_grad:declaration
// CHECK-NEXT:   double other(double v) const { return v; }
// CHECK-NEXT: };
// CHECK-NEXT: // unfad:begin Model::loss_grad checksum=
// CHECK-NOT:  sq_pullback
// CHECK:      inline double Model::loss_grad(const double* x, int n, Model* d_this, double* d_x) const {
// CHECK:        this->a * x[i]
// CHECK:        d_this->a +=
// CHECK:        d_this->b +=
// CHECK:      // unfad:end Model::loss_grad
// CHECK:      UNFAD_GRADIENT double operator()(double v) const { return 0.5 * sq(v - mu); }
// CHECK-NEXT: // unfad:begin Gaussian::grad:declaration checksum=
// CHECK-NEXT: double grad(double v, Gaussian* d_this, double* d_v) const;
// CHECK:      // unfad:begin Gaussian::grad checksum=
// CHECK:      inline double Gaussian::grad(double v, Gaussian* d_this, double* d_v) const {
// CHECK:        d_this->mu

// A method of a derived class: the base's members are the object's
// inherited members (`this->m`, `d_this->m`), never a `base` field.
struct Body {
  double m;
};
struct Particle : Body {
  double v;
  UNFAD_GRADIENT double kinetic(double s) const { return 0.5 * m * v * v * s; }
};

// CHECK:      // unfad:begin Particle::kinetic_grad:declaration checksum=
// CHECK-NEXT: double kinetic_grad(double s, Particle* d_this, double* d_s) const;
// CHECK:      inline double Particle::kinetic_grad(double s, Particle* d_this, double* d_s) const {
// CHECK-NOT:  base
// CHECK:        this->m
// CHECK-NOT:  base
// CHECK:        d_this->m +=
// CHECK-NOT:  base
// CHECK:      // unfad:end Particle::kinetic_grad
