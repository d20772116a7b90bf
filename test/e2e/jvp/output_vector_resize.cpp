// Forward mode of a function that sizes its output std::vector
// (`out.resize(z.size())`, softmax as written): f_jvp sizes the tangent of
// out with out (both are passed empty) and fills it.
#include <unfad/unfad.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

UNFAD_JVP void output_vector_resize(const std::vector<double>& z, std::vector<double>& out) {
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

UNFAD_GRADIENT void output_vector_resize_rev(const std::vector<double>& z, std::vector<double>& out) {
  output_vector_resize(z, out);
}

/* jvp
{"function": "output_vector_resize", "gradient": "output_vector_resize_rev",
 "params": [["z", "vec", 4], ["out", "vecout", 4]],
 "points": [[[0.5, -1.25, 2.0, 0.3]], [[-0.4, 0.1, 0.9, -2.0]]]}
*/
