// A class with a constructor and a const method, and a Vec3 class with an
// operator and a method (classes.cpp): constructors, methods and operators
// are lowered into the marked function, so the gradient has no calls left;
// the objects' fields are `const` locals named after the method's locals and
// parameters (`a`, `b`, `stretch`), the adjoint of a field is named after the
// object and the field (`d_self_x`: the object of `norm()`), an adjoint of a
// class object is a local of the class built from its fields with zeros
// (`Spring d_...{0.0, 0.0}`: the class's own constructor taking its fields),
// and the adjoint of an element of the std::vector<Vec3> is added into
// `d_p[i].x` field by field.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>
#include <cstddef>
#include <vector>

struct Vec3 {
  double x, y, z;
  Vec3(double x, double y, double z) : x(x), y(y), z(z) {}
  Vec3 operator-(const Vec3& o) const { return Vec3(x - o.x, y - o.y, z - o.z); }
  double norm() const { return std::sqrt(x * x + y * y + z * z); }
};

class Spring {
public:
  double k;
  double rest;
  Spring(double k, double rest) : k(k), rest(rest) {}
  double energy(const Vec3& a, const Vec3& b) const {
    const double stretch = (b - a).norm() - rest;
    return 0.5 * k * stretch * stretch;
  }
};

UNFAD_GRADIENT double chain(const std::vector<Vec3>& p, double k) {
  const Spring spring(k, 1.0);
  double e = 0.0;
  for (std::size_t i = 0; i + 1 < p.size(); ++i) e += spring.energy(p[i], p[i + 1]);
  return e;
}
// CHECK-LABEL: double chain_grad(const std::vector<Vec3>& p, double k, std::vector<Vec3>& d_p, double* d_k) {
// CHECK:         for (long [[I:i[_0-9]*]] = 0; [[I]] < {{.*}}; ++[[I]]) {
// CHECK-NEXT:      const Vec3 a = p[[[I]]];
// CHECK-NEXT:      const Vec3 b = p[[[I]] + 1];
// CHECK-NEXT:      const double x = b.x - a.x;
// CHECK:           const double [[ROOT:t_[0-9]+]] = std::sqrt({{.*}});
// CHECK-NEXT:      const double stretch = [[ROOT]] - 1.0;
// CHECK-NEXT:      tape_t[[[I]]] = [[ROOT]];
// CHECK-NEXT:      [[E:e[_0-9]*]] = [[E]] + 0.5 * k * stretch * stretch;
// CHECK:         Spring [[DS:d_[a-z_0-9]+]]{0.0, 0.0};
// CHECK:         for (long [[J:i[_0-9]+]] = 0; [[J]] < {{.*}}; ++[[J]]) {
// CHECK:           const double [[DX:d_self[_0-9]*_x]] = 2.0 * (x_1 * {{.*}});
// CHECK:           d_p[{{.*}}].x += [[DX]];
// CHECK:           d_p[[[J]]].x -= [[DX]];
// CHECK:           [[DS]] = Spring{[[DS]].k + {{.*}}, [[DS]].rest + {{.*}}};
// CHECK:         *d_k += [[DS]].k;
// CHECK-NOT:     energy
// CHECK-NOT:     norm
// CHECK-NOT:     std::sqrt
// CHECK:         return [[E]];
