// Output std::vector parameters sized by the function, as C++ returns
// vectors through parameters: `out.resize(z.size())` then a loop over
// `out.size()` and a range-for over `out` (softmax as written),
// `out.assign(n, 0.0)` then `+=` accumulation (a kernel density on a grid).
// Refused before ("'resize' is only supported on a local std::vector"). The
// harness passes `out` at its final size; golden output_vector_resize.cpp
// pins that f_grad resizes it once, as f does.
#include <unfad/unfad.h>

#include <cmath>
#include <cstddef>
#include <vector>

UNFAD_GRADIENT void softmax(const std::vector<double>& z, std::vector<double>& out) {
  out.resize(z.size());
  double m = z[0];
  for (double v : z) m = std::max(m, v);
  double s = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = std::exp(z[i] - m);
    s += out[i];
  }
  for (auto& o : out) o /= s;
}

UNFAD_GRADIENT void density(const std::vector<double>& samples, double bandwidth, int bins,
                            std::vector<double>& grid) {
  grid.assign(bins, 0.0);
  for (double x : samples)
    for (int k = 0; k < bins; ++k) {
      const double u = (x - (k + 0.5) / bins) / bandwidth;
      grid[k] += std::exp(-0.5 * u * u) / (bandwidth * samples.size());
    }
}

/* e2e
[{"function": "softmax", "points": [[[0.5, -1.25, 2.0, 0.3]]], "outputs": {"out": 4}},
 {"function": "density", "points": [[[0.1, 0.35, 0.8], 0.2, 5]], "outputs": {"grid": 5}}]
*/
