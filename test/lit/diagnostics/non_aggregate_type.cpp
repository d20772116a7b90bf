// classes with virtual functions, base classes and mutable members are refused at their first
// use; a parameter of the marked function of a class with private data, at the parameter.
// An error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <vector>
// a class with private data is held as its fields inside the generated code, but a parameter of
// the marked function of such a class would have to be read member by member from outside it
// (a class whose constructor computes, with public members, is accepted:
// test/plugin/inputs/class_params.cpp)
class Hidden {
  double v_;
public:
  Hidden(double v) : v_(v) {}
  double v() const { return v_; }
};
// CHECK: non_aggregate_type.cpp:[[@LINE+1]]:39: error: cannot differentiate 'h': parameter 'k' of type 'const Hidden &' is not supported: its data member 'v_' of 'Hidden' is not public; such objects are supported inside the function and its helpers, so pass the values they are built from
UNFAD_GRADIENT double h(const Hidden& k, double x) {
  return k.v() * x;
}
class C { double d_; public: C(double a) : d_(2 * a) {} double d() const { return d_; } };
// CHECK: non_aggregate_type.cpp:[[@LINE+1]]:48: error: cannot differentiate 'hv': parameter 'cs' of type 'const std::vector<C> &' is not supported: its data member 'd_' of 'C' is not public
UNFAD_GRADIENT double hv(const std::vector<C>& cs, double x) {
  return cs[0].d() * x;
}
struct Shape { virtual ~Shape() = default; double s = 0.0; };
UNFAD_GRADIENT double p(double x) {
// CHECK: non_aggregate_type.cpp:[[@LINE+1]]:9: error: cannot differentiate 'p': classes with virtual functions are not supported ('Shape')
  Shape sh;
  return sh.s + x;
}
// single inheritance is supported (the base object is the first field); several or virtual bases are not
struct Body { double m = 0.0; };
struct Tag { int id = 0; };
struct Particle : Body, Tag { double v = 0.0; Particle() = default; };
UNFAD_GRADIENT double q(double x) {
// CHECK: non_aggregate_type.cpp:[[@LINE+1]]:12: error: cannot differentiate 'q': classes with several base classes are not supported ('Particle')
  Particle pa;
  return pa.v + x;
}
struct Shared : virtual Body { double v = 0.0; };
UNFAD_GRADIENT double qv(double x) {
// CHECK: non_aggregate_type.cpp:[[@LINE+1]]:10: error: cannot differentiate 'qv': virtual base classes are not supported ('Shared')
  Shared sh;
  return sh.v + x;
}
// a const method writing a mutable member would lose the write (the object of a const method is a value)
struct Cache { double v; mutable double last; double get() const { last = v; return v; } };
UNFAD_GRADIENT double r(double x) {
// CHECK: non_aggregate_type.cpp:[[@LINE+1]]:15: error: cannot differentiate 'r': type 'Cache' has a mutable data member ('last')
  const Cache c{x, 0.0};
  return c.get() + c.last;
}
// a local array of a class whose default constructor (a body, not member initialisers) sets non-zero values
// (an aggregate's default member initialisers are supported: test/e2e/cases/struct_defaults_and_member_braces.cpp)
struct Weighted { double w, v; Weighted() : w(1.0), v(0.0) {} Weighted(double a, double b) : w(a), v(b) {} };
UNFAD_GRADIENT double s(double x) {
// CHECK: non_aggregate_type.cpp:[[@LINE+1]]:25: error: cannot differentiate 's': local arrays of 'Weighted', whose default constructor sets non-zero values, are not supported (give a fill value: 'v(n, Weighted{...})')
  std::vector<Weighted> ws(2);
  ws[0].v = x;
  return ws[0].w * ws[0].v;
}
