// Output std::vector parameters filled by push_back, as C++ returns a list
// whose length the function decides: `out.clear();` then pushes in loops and
// branches (two features per input, the positive entries only), in a
// `while` loop, an early `return` after the clear, `reserve`, and reading
// back what was pushed (`out.back()`). Refused before ("'clear' is only supported on a local
// std::vector"). f_grad grows `out` as a push needs room (geometrically, as
// std::vector does) and cuts it to its length at every exit, so it leaves
// `out` as f does; the harness passes d_out at that length.
#include <unfad/unfad.h>

#include <algorithm>
#include <cmath>
#include <vector>

UNFAD_GRADIENT void features(const std::vector<double>& x, std::vector<double>& out) {
  out.clear();
  for (double v : x) {
    out.push_back(v * v);
    out.push_back(std::sin(v));
  }
}

UNFAD_GRADIENT void positive_logs(const std::vector<double>& x, double scale, std::vector<double>& out) {
  out.clear();
  out.reserve(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    if (x[i] > 0) out.push_back(scale * std::log(x[i]));
}

UNFAD_GRADIENT double running(const std::vector<double>& x, int limit, std::vector<double>& out) {
  out.clear();
  if (limit <= 0) return 0.0;
  const int n = std::min(limit, static_cast<int>(x.size()));
  double s = 0;
  for (int i = 0; i < n; ++i) {
    s += x[i];
    out.push_back(s);
    if (out.back() > 10) return s;
  }
  return s * s;
}

// (a while loop: how many it pushes is known only when it runs)
UNFAD_GRADIENT double geometric(double a, double r, std::vector<double>& out) {
  out.clear();
  double v = a;
  while (std::fabs(v) > 0.1) {
    out.push_back(v);
    v *= r;
  }
  return v;
}

// (a point where nothing is pushed: out ends empty)
UNFAD_GRADIENT double nothing_yet(const std::vector<double>& x, double threshold, std::vector<double>& out) {
  out.clear();
  double s = 0;
  for (double v : x) {
    s += v * v;
    if (v > threshold) out.push_back(v);
  }
  return s;
}

/* e2e
[{"function": "features", "points": [[[0.5, -1.25, 2.0]]], "outputs": {"out": 6}},
 {"function": "positive_logs", "points": [[[0.5, -1.25, 2.0, 3.0], 1.5]], "outputs": {"out": 3}},
 {"function": "running", "points": [[[0.5, -1.25, 2.0, 3.0], 2], [[5.5, 6.25, 2.0, 3.0], 4]], "outputs": {"out": 2}},
 {"function": "geometric", "points": [[1.3, 0.5], [-1.25, 0.55]], "outputs": {"out": 4}},
 {"function": "nothing_yet", "points": [[[0.5, -1.25], 0.5]], "outputs": {"out": 0}}]
*/
