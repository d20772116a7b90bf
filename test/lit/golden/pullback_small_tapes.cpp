// Tapes in a helper's pullback. det_minor_pullback runs once per call of
// det_minor, at every level of the recursion: a heap allocation per tape per
// call cost more than the work taped (GradBench det: 8 allocations per call,
// 3/4 of the calls at the two lowest levels). Its tapes are unfad::tape,
// which keeps up to 16 elements inside the object (on the stack) and
// allocates only beyond. The marked function's own tapes, allocated once per
// gradient call, stay heap arrays.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>
#include <vector>

// The minor of the ell x ell matrix `a` whose rows and columns are linked
// lists: r[ell] is its first row and r[i] the row after i, c likewise.
static double det_minor(const double* a, int ell, int m, std::vector<int>& r, std::vector<int>& c) {
  const int row = r[ell];
  if (m == 1) return a[row * ell + c[ell]];
  r[ell] = r[row];
  double det = 0.0;
  double sign = 1.0;
  int before = ell;
  int col = c[ell];
  for (int j = 0; j < m; ++j) {
    c[before] = c[col];
    const double minor = det_minor(a, ell, m - 1, r, c);
    c[before] = col;
    det += sign * a[row * ell + col] * minor;
    sign = -sign;
    before = col;
    col = c[col];
  }
  r[ell] = row;
  return det;
}

UNFAD_GRADIENT double det(const double* a, int ell) {
  std::vector<int> r(ell + 1), c(ell + 1);
  for (int i = 0; i < ell; ++i) {
    r[i] = i + 1;
    c[i] = i + 1;
  }
  r[ell] = 0;
  c[ell] = 0;
  return det_minor(a, ell, ell, r, c);
}

// Pulling the (unnumbered) golden lines for the shape: the pullback's tapes
// are unfad::tape, sized at run time; nothing in it says `new`.
// CHECK-LABEL: void det_minor_pullback(
// CHECK-NOT:     new
// CHECK:         unfad::tape<double> tape_minor([[N:n[_0-9]*]]);
// CHECK-NOT:     new
// CHECK:         det_minor_pullback(a, ell, {{.*}}, r, c, d_minor{{[_0-9]*}}, d_a);
// CHECK-NOT:     new
// CHECK:       }
// CHECK-LABEL: double det_grad(
