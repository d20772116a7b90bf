// Local std::vectors filled with push_back / emplace_back: read back by index,
// size(), back(), range-for, std::accumulate, passed to a helper by const
// reference; conditional pushes (a data-dependent length), vectors of structs,
// a vector declared and filled inside a loop body.
#include <unfad/unfad.h>

#include <cmath>
#include <numeric>
#include <vector>

struct Vec3 {
  double x, y, z;
};

static double mean_of(const std::vector<double>& v) {
  double s = 0.0;
  for (std::size_t i = 0; i < v.size(); ++i) s += v[i];
  return s / double(v.size());
}

// squares pushed in a counted loop, then every way of reading them
UNFAD_GRADIENT double pushed_squares(const double* x, int n) {
  std::vector<double> sq;
  sq.reserve(n);
  for (int i = 0; i < n; ++i) sq.push_back(x[i] * x[i] + 0.5 * x[i]);
  double total = 0.0;
  for (double s : sq) total += std::sin(s);
  const double acc = std::accumulate(sq.begin(), sq.end(), 0.0);
  double weighted = 0.0;
  for (std::size_t i = 0; i < sq.size(); ++i) weighted += double(i + 1) * sq[i];
  return total + 0.1 * acc * sq.back() + weighted + mean_of(sq);
}

// only the positive entries: the length depends on the data
UNFAD_GRADIENT double positive_part_norm(const std::vector<double>& x) {
  std::vector<double> pos;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (x[i] > 0) pos.push_back(x[i] * std::exp(0.3 * x[i]));
  double s = 0.0;
  for (std::size_t k = 0; k < pos.size(); ++k) s += pos[k] * pos[k];
  if (pos.empty()) return 0.0;
  return std::sqrt(s) + pos.front() * pos.back() + double(pos.size());
}

static double spread(const std::vector<Vec3>& pts) {
  double s = 0.0;
  for (const Vec3& p : pts) s += p.x * p.x + p.y * p.y + p.z * p.z;
  return s;
}

// a vector of structs, pushed as braced lists and emplaced
UNFAD_GRADIENT double struct_points(const double* c, int n) {
  std::vector<Vec3> pts;
  pts.reserve(2 * n);
  for (int i = 0; i < n; ++i) {
    pts.push_back({c[3 * i], c[3 * i + 1] * c[3 * i], c[3 * i + 2]});
    pts.emplace_back(Vec3{c[3 * i + 2], 1.0, c[3 * i] - c[3 * i + 1]});
  }
  double d = 0.0;
  for (std::size_t k = 1; k < pts.size(); ++k) d += pts[k].x * pts[k - 1].y - pts[k].z;
  return d + spread(pts);
}

// a scratch vector declared inside the loop body: empty at every iteration
UNFAD_GRADIENT double rows_softmax(const double* a, int rows, int cols) {
  double total = 0.0;
  for (int r = 0; r < rows; ++r) {
    std::vector<double> e;
    for (int c = 0; c < cols; ++c) e.push_back(std::exp(a[r * cols + c]));
    const double z = std::accumulate(e.begin(), e.end(), 0.0);
    for (std::size_t c = 0; c < e.size(); ++c) total += double(c + 1) * e[c] / z;
    total += e.back() * a[r * cols];
  }
  return total;
}

// pushes after an initial size, and reading while pushing
UNFAD_GRADIENT double running_prefix(const double* x, int n) {
  std::vector<double> pre(1, x[0]);
  for (int i = 1; i < n; ++i) pre.push_back(pre.back() * 0.5 + x[i] * pre[pre.size() - 1]);
  double s = 0.0;
  for (double p : pre) s += p;
  return s;
}

/* e2e
[{"function": "pushed_squares",
  "points": [[[0.3, -1.2, 0.8, 2.0], 4], [[1.5, 0.25], 2]]},
 {"function": "positive_part_norm",
  "points": [[[0.3, -1.2, 0.8, 2.0, -0.1]], [[1.5, 0.25, -3.0]], [[-1.0, 0.5]]]},
 {"function": "struct_points",
  "points": [[[0.3, -1.2, 0.8, 2.0, 0.1, -0.7], 2], [[1.5, 0.25, -0.4], 1]]},
 {"function": "rows_softmax",
  "points": [[[0.3, -1.2, 0.8, 2.0, 0.1, -0.7], 2, 3], [[1.5, 0.25, -0.4, 0.9], 1, 4]]},
 {"function": "running_prefix",
  "points": [[[0.3, -1.2, 0.8, 2.0], 4], [[1.5, 0.25, -0.5], 3]]}]
*/
