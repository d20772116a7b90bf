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
