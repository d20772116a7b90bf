// Aggregates with std::vector members outside what is supported (they are
// parameters by const reference, of the marked function and of helpers, and
// reference locals: test/lit/classes/struct_params.cpp): a non-const
// parameter of the marked function, an array of them, assigning a vector
// member; each an error at the construct, nothing written (objects built in
// the function and copies: vector_members.cpp).
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <vector>
struct Model {
  std::vector<double> w;
  double bias;
};
// CHECK: struct_vector_members_refused.cpp:[[@LINE+1]]:40: error: cannot differentiate 'non_const': a parameter of type 'Model &' (a struct with std::vector members) that is not 'const' is not supported yet (pass 'const Model&')
UNFAD_GRADIENT double non_const(Model &m) { return m.w[0] * m.bias; }
// CHECK: struct_vector_members_refused.cpp:[[@LINE+1]]:54: error: cannot differentiate 'many': 'ms' (std::vector<Model>) is a container of objects holding std::vectors: derivatives with respect to it are not supported yet (hold its numbers in flat std::vectors, or name the parameters to differentiate in UNFAD_GRADIENT_WRT(...), leaving 'ms' out, to read it as passive data, without derivatives)
UNFAD_GRADIENT double many(const std::vector<Model> &ms) { return ms[0].bias; }
