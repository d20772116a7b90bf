// A backward sweep reads passive data again where it needs it, as the
// primal reads it (`mesh.base(j, v)`, an accessor returning an element),
// instead of taping it: a tape costs a store and a load (and, in the
// recomputation of a loop nest, a buffer per iteration), a read costs a
// load. A value computed from passive data (`std::sqrt(mesh.weight(b, v))`)
// is still taped where the backward sweep needs it. (GradBench's ht reads
// its model's rest positions and weights this way: 8.8 -> 3.6 primals per
// vector-Jacobian product.) The gradient is checked against central
// differences.
// RUN: cp %s %t.cpp && %unfad -i %t.cpp -- -std=c++17 -I%unfad_include -I%S/Inputs
// RUN: %cxx -std=c++17 -O1 -I%unfad_include -I%S/Inputs %t.cpp -o %t.exe && %t.exe | FileCheck %s
// RUN: grep -v '^// *[A-Z-]*:' %t.cpp | FileCheck %s --check-prefix=CODE
// CHECK: skin ok
// CODE-LABEL: double skin_grad(const double* pose, const Mesh& mesh, double* d_pose) {
// CODE:         for (long {{[a-z_0-9]+}} = {{[a-z_0-9]+}} - 1; {{[a-z_0-9]+}} >= 0;
// CODE:         = (std::sqrt(mesh.weight(
// CODE-NEXT:    tape_{{[a-z_0-9]+}}[{{[a-z_0-9]+}}] = {{[a-z_0-9]+}};
// CODE:         for (long [[K:[a-z_0-9]+]] = verts - 1; [[K]] >= 0; --[[K]]) {
// CODE-NOT:       tape
// CODE:           const double [[B0:[a-z_0-9]+]] = (mesh.base(0, static_cast<int>([[K]])));
// CODE-NEXT:      for (long [[J:[a-z_0-9]+]] = 3; [[J]] >= 1; --[[J]]) {
// CODE-NEXT:        const double [[BJ:[a-z_0-9]+]] = (mesh.base(static_cast<int>([[J]]), static_cast<int>([[K]])));
// CODE-NEXT:        d_pose[{{.+}}] += [[BJ]] * d_curr[
// CODE-NOT:     tape_
// CODE:         unfad:end skin_grad
#include <unfad/unfad.h>

#include "gradient_check.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

// A skinned mesh, passive data: rest positions (4 x verts, column-major, as
// LightMatrix keeps them) and skinning weights behind const accessors.
class Mesh {
public:
  Mesh(int bones, int verts) : bones_(bones), verts_(verts), base_(4 * verts), weights_(bones * verts) {}
  int bones() const { return bones_; }
  int verts() const { return verts_; }
  double base(int r, int v) const { return base_[v * 4 + r]; }
  double weight(int b, int v) const { return weights_[v * bones_ + b]; }
  void setBase(int r, int v, double x) { base_[v * 4 + r] = x; }
  void setWeight(int b, int v, double w) { weights_[v * bones_ + b] = w; }

private:
  std::string name_ = "hand"; // (text: the mesh is passive data, read as written)
  int bones_, verts_;
  std::vector<double> base_, weights_;
};

// pose: one 3 x 4 affine transform per bone, row-major. Skinning as ht
// writes it: each bone's transform times the rest positions into a scratch
// matrix (mat_mult: the first product, then += the rest), then blended by
// the bone's weights.
UNFAD_GRADIENT_WRT(pose) double skin(const double* pose, const Mesh& mesh) {
  const int verts = mesh.verts();
  std::vector<double> posed(3 * verts, 0.0), curr(3 * verts);
  for (int b = 0; b < mesh.bones(); ++b) {
    const double* T = pose + 12 * b;
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < verts; ++k) {
        curr[3 * k + i] = T[4 * i] * mesh.base(0, k);
        for (int j = 1; j < 4; ++j) curr[3 * k + i] += T[4 * i + j] * mesh.base(j, k);
      }
    for (int v = 0; v < verts; ++v)
      for (int i = 0; i < 3; ++i) posed[3 * v + i] += curr[3 * v + i] * std::sqrt(mesh.weight(b, v));
  }
  double total = 0.0;
  for (double x : posed) total += std::sin(x);
  return total;
}

int main() {
  const int bones = 3, verts = 5;
  Mesh mesh(bones, verts);
  for (int v = 0; v < verts; ++v) {
    for (int r = 0; r < 3; ++r) mesh.setBase(r, v, std::sin(1.0 + 3 * v + r));
    mesh.setBase(3, v, 1.0);
    for (int b = 0; b < bones; ++b) mesh.setWeight(b, v, 0.2 + 0.1 * ((v + b) % 3));
  }
  std::vector<double> pose(12 * bones);
  for (std::size_t k = 0; k < pose.size(); ++k) pose[k] = 0.5 * std::cos(0.7 * k);
  const bool ok = check([&](const std::vector<double> &x) { return skin(x.data(), mesh); },
                        [&](const std::vector<double> &x, std::vector<double> &d) { return skin_grad(x.data(), mesh, d.data()); },
                        pose);
  std::printf("skin %s\n", ok ? "ok" : "FAILED");
}
