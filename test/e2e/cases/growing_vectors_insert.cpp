// Appending a range to a std::vector, as C++ concatenates:
// `z.insert(z.end(), x.begin(), x.end())` (at `std::end(z)`, at
// `out.begin() + out.size()`) on a local vector (after a list
// and a range copy), in a loop (the rows of a table flattened, every other
// row of a row-major matrix `m.begin() + i * d, m.begin() + (i + 1) * d`),
// in a branch, and into an output grown from `out.clear()`. Refused before
// ("'insert' on a growing std::vector is not supported"). The room the
// local vector needs is bounded where it is declared, from the ranges'
// lengths and the loops' trip counts.
#include <unfad/unfad.h>

#include <cmath>
#include <iterator>
#include <vector>

UNFAD_GRADIENT double concatenated(const std::vector<double>& x) {
  std::vector<double> y = {x[0] * 2, x[1] + x[2], std::exp(x[0])};
  std::vector<double> z(y.begin(), y.end());
  z.insert(std::end(z), x.begin(), x.end());
  double s = 0;
  for (std::size_t i = 0; i < z.size(); ++i) s += z[i] * z[i] * (i + 1);
  return s;
}

UNFAD_GRADIENT double flattened(const std::vector<std::vector<double>>& rows, int skip) {
  std::vector<double> flat;
  for (const auto& r : rows) flat.insert(flat.end(), r.begin(), r.begin() + 2);
  std::vector<double> head = {flat[0], flat[1]};
  for (int k = 0; k < 3; ++k)
    if (k != skip) head.insert(head.end(), flat.begin() + k, flat.begin() + k + 1);
  double s = 0;
  for (double f : flat) s += std::sin(f) * head.size();
  for (double h : head) s += h * h;
  return s;
}

// rows of a row-major matrix, every other one: [i * d, (i + 1) * d) has
// length d (the room is bounded by rows * d)
UNFAD_GRADIENT double even_rows(const std::vector<double>& m, int rows, int d) {
  std::vector<double> kept;
  for (int i = 0; i < rows; ++i)
    if (i % 2 == 0) kept.insert(kept.end(), m.begin() + i * d, m.begin() + (i + 1) * d);
  double s = 0;
  for (std::size_t k = 0; k < kept.size(); ++k) s += kept[k] * kept[k] * (k + 1);
  return s;
}

UNFAD_GRADIENT void joined(const std::vector<double>& a, const std::vector<double>& b, std::vector<double>& out) {
  out.clear();
  out.insert(out.end(), a.begin(), a.end());
  for (double v : b) out.push_back(v * v);
  out.insert(out.begin() + out.size(), a.begin() + 1, a.end());
}

/* e2e
[{"function": "concatenated", "points": [[[0.3, -1.2, 2.0]]]},
 {"function": "flattened", "points": [[[[0.3, -1.2, 2.0], [0.5, 0.25], [1.0, 2.0, 3.0]], 1]]},
 {"function": "even_rows", "points": [[[0.3, -1.2, 2.0, 0.5, 0.25, 1.5, -0.7, 0.9, 1.1], 3, 3]]},
 {"function": "joined", "points": [[[0.3, -1.2, 2.0], [0.5, 0.25]]], "outputs": {"out": 7}}]
*/
