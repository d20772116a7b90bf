// Forward mode into an output array of arrays (a Jacobian written element
// by element, rows handed to a helper), against finite differences and
// reverse mode.
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

static void fill_row(std::vector<double>& row, double t, double s) {
  for (std::size_t j = 0; j < row.size(); ++j) row[j] = std::sin(t * static_cast<double>(j + 1)) * s;
}

UNFAD_JVP double model(const std::vector<double>& x, double s, std::vector<std::vector<double>>& J) {
  const std::size_t n = x.size();
  double norm = 0;
  for (std::size_t i = 0; i < n; ++i) {
    fill_row(J[i], x[i], s);
    J[i][i] = std::exp(x[i]) * s;
    norm += x[i] * x[i];
  }
  return std::sqrt(norm);
}

UNFAD_GRADIENT double model_rev(const std::vector<double>& x, double s, std::vector<std::vector<double>>& J) {
  return model(x, s, J);
}

/* jvp
{"function": "model", "gradient": "model_rev",
 "params": [["x", "vec", 3], ["s", "scalar"], ["J", "rowsout", [3, 3]]],
 "points": [[[0.3, -1.1, 2.0], 0.9], [[1.3, 0.4, -0.6], -0.4]]}
*/
