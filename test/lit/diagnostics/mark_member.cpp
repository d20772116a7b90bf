// UNFAD_GRADIENT on member functions unfad cannot give a member gradient (a
// virtual one, an operator other than operator(), a method of a partial or
// explicit specialization of a class template or of a class nested in one,
// of a local class, of a derived class whose base has a private
// data member or a member the derived class hides, a constructor): an error at each, non-zero
// exit, and a failed -i leaves the file byte-identical. (Marked methods
// themselves work: test/lit/golden/marked_method.cpp, and those of class
// templates: class_template_method.cpp.)
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
struct S {
  double w;
// CHECK: mark_member.cpp:[[@LINE+1]]:33: error: cannot differentiate 'f': virtual member functions cannot be marked
  UNFAD_GRADIENT virtual double f(double x) const { return w * x * x; }
// CHECK: mark_member.cpp:[[@LINE+1]]:25: error: cannot differentiate 'operator+': operator overloads cannot be marked, except 'operator()' (mark a named method)
  UNFAD_GRADIENT double operator+(double x) const { return w + x; }
// CHECK: mark_member.cpp:[[@LINE+1]]:18: error: cannot differentiate 'S': constructors, destructors and conversion functions cannot be marked
  UNFAD_GRADIENT S(double x) : w(x) {}
};
class Sealed {
  double p_;

public:
  double p() const { return p_; }
};
struct Derived : Sealed {
// CHECK: mark_member.cpp:[[@LINE+1]]:25: error: cannot differentiate 'k': the gradient, a member of 'Derived', cannot reach the private data member 'p_' of base class 'Sealed' (make it protected to mark this method)
  UNFAD_GRADIENT double k(double x) const { return x * p(); }
};
struct Plain {
  double w;
};
struct Middle : Plain {
  double u;
};
struct Hiding : Middle {
  double w;
// CHECK: mark_member.cpp:[[@LINE+1]]:25: error: cannot differentiate 'k': a data member of 'Hiding' or a base between hides the data member 'w' of base class 'Plain'
  UNFAD_GRADIENT double k(double x) const { return x * w * u; }
};
template <class T, class U> struct Two {
  T w;
};
template <class T> struct Two<T, int> {
  T w;
// CHECK: mark_member.cpp:[[@LINE+1]]:25: error: cannot differentiate 'g': member functions of partial specializations of class templates cannot be marked yet
  UNFAD_GRADIENT double g(double x) const { return w * x; }
};
template <class T> struct Box {
  T w;
};
template <> struct Box<double> {
  double w;
// CHECK: mark_member.cpp:[[@LINE+1]]:25: error: cannot differentiate 'g': member functions of explicit specializations of class templates cannot be marked yet (mark the method of the class template)
  UNFAD_GRADIENT double g(double x) const { return w * x; }
};
template <class T> struct Shell {
  struct Inner {
    T w;
// CHECK: mark_member.cpp:[[@LINE+1]]:22: error: cannot differentiate 'g': member functions of classes nested in class templates cannot be marked yet
    UNFAD_GRADIENT T g(T x) const { return w * x; }
  };
};
double use(double x) {
  struct Local {
    double w;
// CHECK: mark_member.cpp:[[@LINE+1]]:27: error: cannot differentiate 'h': member functions of local classes cannot be marked
    UNFAD_GRADIENT double h(double x) const { return w * x; }
  };
  return Local{2.0}.h(x) + Box<double>{1.0}.g(x) + Two<double, int>{1.0}.g(x) + Shell<double>::Inner{1.0}.g(x);
}
