// Forward mode of an output std::vector filled by push_back after
// `out.clear()` (conditional pushes): f_jvp grows the tangent of out with
// out (both are passed empty) and cuts both to the same length.
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

UNFAD_JVP void output_vector_growth(const std::vector<double>& x, double scale, std::vector<double>& out) {
  out.clear();
  for (double v : x) {
    if (v > 0) out.push_back(scale * std::log(v));
    out.push_back(std::sin(scale * v));
  }
}

UNFAD_GRADIENT void output_vector_growth_rev(const std::vector<double>& x, double scale, std::vector<double>& out) {
  output_vector_growth(x, scale, out);
}

/* jvp
{"function": "output_vector_growth", "gradient": "output_vector_growth_rev",
 "params": [["x", "vec", 3], ["scale", "scalar"], ["out", "vecout", 5]],
 "points": [[[0.5, -1.25, 2.0], 1.5], [[0.3, 0.7, -0.1], -0.5]]}
*/
