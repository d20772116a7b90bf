// A class whose coordinates are a private array member (member_arrays.cpp):
// the member is one field per element, so the mirror the gradient block
// defines declares the array again (`double r[3];`), braces nest per member
// (`Vec3_fields{{...}}`), loops over the coordinates with constant bounds
// are unrolled into straight-line code reading `.r[0]`, `.r[1]`, `.r[2]`,
// and a Vec3 carried through a loop is loop state whose adjoint is added
// element by element; nothing of the class's methods is left as a call.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <vector>

class Vec3 {
public:
  Vec3(double x, double y, double z) : r{x, y, z} {}
  double& operator[](int i) { return r[i]; }
  double dot(const Vec3& o) const {
    double s = 0.0;
    for (int i = 0; i < 3; ++i) s += r[i] * o.r[i];
    return s;
  }
  void axpy(double a, const Vec3& o) {
    for (int i = 0; i < 3; ++i) r[i] += a * o.r[i];
  }

private:
  double r[3];
};

UNFAD_GRADIENT double flight(const std::vector<double>& v0, double dt, int steps) {
  Vec3 x(0.0, 0.0, 0.0);
  Vec3 v(v0[0], v0[1], v0[2]);
  for (int s = 0; s < steps; ++s) {
    x.axpy(dt, v);
    v[2] -= dt;
  }
  return x.dot(x);
}
// CHECK:       struct Vec3_fields {
// CHECK-NEXT:    double r[3];
// CHECK-NEXT:  };
// CHECK-LABEL: double flight_grad(const std::vector<double>& v0, double dt, int steps, std::vector<double>& d_v0, double* d_dt) {
// CHECK:         Vec3_fields [[X:[a-z_0-9]+]]{{[{][{]}}0.0, 0.0, 0.0{{[}][}]}};
// CHECK:         for (long s = 0; s < steps; ++s) {
// CHECK:           [[X]] = Vec3_fields{{[{][{]}}[[X]].r[0] + dt * {{.*}}.r[0], [[X]].r[1] + dt * {{.*}}.r[1], {{.*}}{{[}][}]}};
// CHECK:         const double {{.*}} = [[X]].r[0] * [[X]].r[0] + [[X]].r[1] * [[X]].r[1];
// CHECK:         for (long {{.*}} = steps - 1; {{.*}} >= 0; --{{.*}}) {
// CHECK:         d_v0[2] += {{.*}}.r[2];
// CHECK-NOT:     axpy
// CHECK-NOT:     dot(
// CHECK:         return
