// Local std::vector<std::vector<double>> m(rows, std::vector<double>(cols[, v])) and
// std::vector<std::array<double, 2>> (flat and row-major in the generated code).
#include <unfad/unfad.h>
#include <vector>
#include <array>
#include <cmath>
UNFAD_GRADIENT double dist_matrix(const double* x, int n, int m) {
  std::vector<std::vector<double>> D(n, std::vector<double>(m));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) D[i][j] = std::sin(x[i] * (j + 1));
  std::vector<std::vector<double>> E(n, std::vector<double>(m, 0.5));
  for (size_t i = 0; i < E.size(); ++i)
    for (size_t j = 0; j < E[i].size(); ++j) E[i][j] += D[i][j] * D[n - 1 - i][j];
  std::vector<std::array<double, 2>> P(n);
  for (int i = 0; i < n; ++i) { P[i][0] = x[i]; P[i][1] = x[i] * x[i]; }
  double s = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) s += E[i][j] * E[i][j] + P[i][1] * P[i][0];
  return s;
}

/* e2e
{"function": "dist_matrix", "points": [[[0.3, -1.2, 0.8, 1.5], 4, 3], [[1.1, 0.25, -0.6], 3, 2]]}
*/
