// Local vectors of rows grown by push_back, as geometry and data code
// builds them: `std::vector<std::array<double, 2>> pts;` filled with braces
// or with a std::array local, `std::vector<std::vector<double>> rows;` filled
// with rows of one length, read as pts[i][k], by range-for, through a row
// handed to a helper, emptied and refilled in a loop, grown in a strided
// loop (i += 2, whose ends bound the room). Checked against finite
// differences.
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <vector>

using P2 = std::array<double, 2>;
using P3 = std::array<double, 3>;

static double dist(const P3& a, const P3& b) {
  double s = 0;
  for (int k = 0; k < 3; ++k) s += (a[k] - b[k]) * (a[k] - b[k]);
  return std::sqrt(s);
}

// The length of a curve through points on the unit circle.
UNFAD_GRADIENT double arc_length(const std::vector<double>& t) {
  std::vector<P2> pts;
  for (double s : t) pts.push_back({std::cos(s), std::sin(s)});
  double len = 0;
  for (std::size_t i = 1; i < pts.size(); ++i) len += std::hypot(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]);
  return len;
}

// Points from a flat buffer (a strided loop), a polyline's length by a helper.
UNFAD_GRADIENT double polyline(const std::vector<double>& flat) {
  std::vector<P3> pts;
  for (std::size_t i = 0; i + 2 < flat.size(); i += 3) {
    P3 p{flat[i], flat[i + 1], flat[i + 2]};
    pts.push_back(p);
  }
  double e = 0;
  for (std::size_t i = 1; i < pts.size(); ++i) e += dist(pts[i], pts[i - 1]);
  return e;
}

// Pairs as rows of a vector of vectors, summed by range-for.
UNFAD_GRADIENT double pair_products(const std::vector<double>& x) {
  std::vector<std::vector<double>> rows;
  for (std::size_t i = 0; i + 1 < x.size(); i += 2) rows.push_back({x[i], x[i + 1]});
  double s = 0;
  for (const auto& r : rows) s += r[0] * r[1] + std::sin(r[1]);
  return s * static_cast<double>(rows.size());
}

// A buffer of rows emptied and refilled at every step, the last row dropped.
UNFAD_GRADIENT double refilled(const std::vector<double>& x, double a) {
  std::vector<P2> buf;
  double acc = 0;
  for (int step = 0; step < 3; ++step) {
    buf.clear();
    for (double v : x) buf.push_back({v * a, v + step});
    buf.pop_back();
    for (const auto& b : buf) acc += b[0] * b[1];
  }
  return acc;
}
/* e2e
[{"function": "arc_length", "points": [[[0.3, -1.2, 2.0, 0.5]]]},
 {"function": "polyline", "points": [[[0.3, -1.2, 2.0, 0.5, 1, 2, -1, 0.4, 0.9, 0.1]]]},
 {"function": "pair_products", "points": [[[0.3, -1.2, 2.0, 0.9, 0.4]]]},
 {"function": "refilled", "points": [[[0.3, -1.2, 2.0], 0.7]]}]
*/
