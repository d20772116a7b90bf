// a class whose constructor computes its fields: the generated code could not
// rebuild its objects from their fields (`C{d}` would run the constructor), so
// it is refused at its first use; so are classes with a default constructor
// that does not zero them, private data, virtual functions and base classes.
// An error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <vector>
struct C { double d; C(double a) : d(2 * a) {} };
UNFAD_GRADIENT double f(double x) {
// CHECK: non_aggregate_type.cpp:[[@LINE+1]]:11: error: cannot differentiate 'f': type 'C' is not supported: the generated code builds its objects from their fields, so it needs a constructor taking every data member in declaration order and storing it unchanged
  const C c(x);
  return c.d;
}
struct One { double v = 1.0; One() = default; One(double v) : v(v) {} };
UNFAD_GRADIENT double g(double x) {
// CHECK: non_aggregate_type.cpp:[[@LINE+1]]:13: error: cannot differentiate 'g': type 'One' is not supported: the generated code makes arrays of zeroed adjoints of it, so it needs a default constructor that sets every data member to zero (or none)
  const One o(x);
  return o.v * x;
}
class Hidden {
  double v_;
public:
  Hidden(double v) : v_(v) {}
  double v() const { return v_; }
};
UNFAD_GRADIENT double h(double x) {
// CHECK: non_aggregate_type.cpp:[[@LINE+1]]:16: error: cannot differentiate 'h': type 'Hidden' has non-public data members ('v_'), which the generated code cannot read or write
  const Hidden k(x);
  return k.v();
}
struct Shape { virtual ~Shape() = default; double s = 0.0; };
UNFAD_GRADIENT double p(double x) {
// CHECK: non_aggregate_type.cpp:[[@LINE+1]]:9: error: cannot differentiate 'p': classes with virtual functions are not supported ('Shape')
  Shape sh;
  return sh.s + x;
}
struct Body { double m = 0.0; };
struct Particle : Body { double v = 0.0; Particle() = default; };
UNFAD_GRADIENT double q(double x) {
// CHECK: non_aggregate_type.cpp:[[@LINE+1]]:12: error: cannot differentiate 'q': classes with base classes are not supported yet ('Particle')
  Particle pa;
  return pa.v + x;
}
// a const method writing a mutable member would lose the write (the object of a const method is a value)
struct Cache { double v; mutable double last; double get() const { last = v; return v; } };
UNFAD_GRADIENT double r(double x) {
// CHECK: non_aggregate_type.cpp:[[@LINE+1]]:15: error: cannot differentiate 'r': type 'Cache' has a mutable data member ('last')
  const Cache c{x, 0.0};
  return c.get() + c.last;
}
// a local array of an aggregate whose default member initialiser is not zero: its elements would start as zeros
struct Weighted { double w = 1.0; double v; };
UNFAD_GRADIENT double s(double x) {
// CHECK: non_aggregate_type.cpp:[[@LINE+1]]:25: error: cannot differentiate 's': local arrays of 'Weighted', whose default constructor sets non-zero values, are not supported (give a fill value: 'v(n, Weighted{...})')
  std::vector<Weighted> ws(2);
  ws[0].v = x;
  return ws[0].w * ws[0].v;
}
