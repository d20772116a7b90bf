// structs with pointer members outside what is supported: an array of them as a parameter of the marked function (one by reference is supported: test/lit/classes/struct_params.cpp), a std::vector of them filled with a value, a member pointed into two arrays, a whole-struct assignment; each an error at the construct.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <vector>
struct Layer {
  const double *w;
  int n;
};
// CHECK: struct_views_refused.cpp:[[@LINE+1]]:42: error: cannot differentiate 'param': type 'Layer' has pointer or std::vector members: such structs are supported as parameters, local variables and local arrays of a constant size, not here
UNFAD_GRADIENT double param(const Layer *l) { return l[0].w[0]; }
UNFAD_GRADIENT double vec(const double *p) {
// CHECK: struct_views_refused.cpp:[[@LINE+1]]:22: error: cannot differentiate 'vec': a 'std::vector<Layer>' must start empty or with a number of elements ('v(n)', of an aggregate; grow it with push_back or emplace_back)
  std::vector<Layer> ls(2, Layer{p, 1});
  return p[0];
}
UNFAD_GRADIENT double two_arrays(const double *p, const double *q) {
  Layer ls[2];
  ls[0].w = p;
// CHECK: struct_views_refused.cpp:[[@LINE+1]]:9: error: cannot differentiate 'two_arrays': member 'ls_w' of the elements is made to point into another array than before (not supported: every element's member points into one array)
  ls[1].w = q;
  return ls[0].w[0] + ls[1].w[0];
}
UNFAD_GRADIENT double whole(const double *p) {
  Layer a{p, 1}, b{p + 1, 1};
// CHECK: struct_views_refused.cpp:[[@LINE+1]]:3: error: cannot differentiate 'whole': assigning a whole struct with pointer members is not supported (assign its members, or declare a new local)
  a = b;
  return a.w[0];
}
UNFAD_GRADIENT double rows(const double (&A)[2][3]) {
  Layer ls[2];
  for (int k = 0; k < 2; ++k) {
// CHECK: struct_views_refused.cpp:[[@LINE+1]]:11: error: cannot differentiate 'rows': members of an array of structs must point into a named array (not into a row of an array of arrays)
    ls[k].w = A[k];
    ls[k].n = 3;
  }
  return ls[0].w[0] + ls[1].w[1];
}
