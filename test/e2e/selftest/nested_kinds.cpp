// For the harness's self-test (not an e2e case): the parameter kinds for
// arrays of structs and arrays of arrays that the cases under cases/ leave
// out, each with a hand-derived gradient formula.
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

struct P2 {
  double a = 0.0, b = 0.0;
};

struct F3 {
  float p, q;
  float r;
};

// const S x[N]
UNFAD_GRADIENT double fixed_structs(const P2 x[3]) {
  double s = 0.0;
  for (int i = 0; i < 3; ++i) s += x[i].a * x[i].b;
  return s;
}

// const S (&x)[N] and a scalar
UNFAD_GRADIENT double ref_structs(const P2 (&x)[2], double k) {
  return k * std::sin(x[0].a) + x[1].b * x[0].b;
}

// S* out
UNFAD_GRADIENT void struct_ptr_out(const P2* x, int n, P2* out) {
  for (int i = 0; i < n; ++i) out[i] = P2{x[i].a * x[i].b, x[i].a + x[i].b};
}

// std::array<S, N>& out, and std::vector<S> of floats in
UNFAD_GRADIENT void struct_array_out(const std::vector<F3>& x, std::array<F3, 2>& out) {
  for (std::size_t i = 0; i < 2; ++i) out[i] = F3{x[i].p * x[i].q, x[i].r, 2.0f * x[i].p};
}

// const float (&A)[R][C]
UNFAD_GRADIENT float ref_matrix_f(const float (&A)[2][3]) {
  float s = 0.0f;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) s += A[i][j] * A[i][j] * static_cast<float>(i + j + 1);
  return s;
}

// std::vector<std::vector<float>> and std::array<std::array<float, C>, R>
UNFAD_GRADIENT float nested_f(const std::vector<std::vector<float>>& V,
                              const std::array<std::array<float, 2>, 3>& M) {
  float s = 0.0f;
  for (const auto& row : V)
    for (float v : row) s += v * v;
  for (std::size_t i = 0; i < 3; ++i) s += M[i][0] * M[i][1];
  return s;
}

// const double (*A)[C], const double B[][C] with a row count, std::vector<std::array<double, C>>
UNFAD_GRADIENT double row_pointers(const double (*A)[2], const double B[][2], int n,
                                   const std::vector<std::array<double, 2>>& C) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += A[i][0] * B[i][1] - A[i][1] * B[i][0];
  for (const auto& c : C) s += std::exp(c[0]) * c[1];
  return s;
}

/* e2e
[{"function": "fixed_structs",
  "points": [[[[1.0, 2.0], [-0.5, 1.5], [0.25, -3.0]]]],
  "value_formula": "sum(a*b for a, b in x)",
  "grad_formula": ["[[b, a] for a, b in x]"]},
 {"function": "ref_structs",
  "points": [[[[0.5, -1.0], [2.0, 0.75]], 1.5]],
  "grad_formula": ["[[k*cos(x[0][0]), x[1][1]], [0, x[0][1]]]", "sin(x[0][0])"]},
 {"function": "struct_ptr_out", "outputs": {"out": 2},
  "points": [[[[1.0, 2.0], [-0.5, 1.5]], 2]],
  "grad_formula": ["[[w_out[i][0]*x[i][1] + w_out[i][1], w_out[i][0]*x[i][0] + w_out[i][1]] for i in range(2)]"]},
 {"function": "struct_array_out", "outputs": {"out": 2},
  "points": [[[[1.0, 2.0, 0.5], [-0.5, 1.5, 0.25], [3.0, 1.0, 2.0]]]],
  "grad_formula": ["[[w_out[i][0]*x[i][1] + 2*w_out[i][2], w_out[i][0]*x[i][0], w_out[i][1]] for i in range(2)] + [[0, 0, 0]]"]},
 {"function": "ref_matrix_f",
  "points": [[[[1.0, -0.5, 2.0], [0.25, 1.5, -1.0]]]],
  "value_formula": "sum(A[i][j]**2*(i + j + 1) for i in range(2) for j in range(3))",
  "grad_formula": ["[[2*A[i][j]*(i + j + 1) for j in range(3)] for i in range(2)]"]},
 {"function": "nested_f",
  "points": [[[[1.0, -2.0], [0.5], [1.5, 0.25, -0.75]], [[1.0, 2.0], [-0.5, 0.75], [3.0, -1.0]]]],
  "grad_formula": ["[[2*v for v in row] for row in V]", "[[m[1], m[0]] for m in M]"]},
 {"function": "row_pointers",
  "points": [[[[1.0, 2.0], [-0.5, 1.5]], [[0.25, -1.0], [2.0, 0.5]], 2, [[0.5, -1.0], [0.1, 2.0]]]],
  "grad_formula": ["[[B[i][1], -B[i][0]] for i in range(n)]",
                   "[[-A[i][1], A[i][0]] for i in range(n)]",
                   "[[exp(c[0])*c[1], exp(c[0])] for c in C]"]}]
*/
