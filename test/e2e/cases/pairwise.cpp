// A pairwise-interaction double loop (i < j) over particles in 3-D, stored as
// xyz triples: a soft-core repulsion plus a harmonic tether to the origin.
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double pair_energy(const double* pos, int n, double eps) {
  double e = 0.0;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      const double dx = pos[3 * i] - pos[3 * j];
      const double dy = pos[3 * i + 1] - pos[3 * j + 1];
      const double dz = pos[3 * i + 2] - pos[3 * j + 2];
      const double r2 = dx * dx + dy * dy + dz * dz;
      e += 1.0 / std::sqrt(r2 + eps);
    }
    e += 0.5 * (pos[3 * i] * pos[3 * i] + pos[3 * i + 1] * pos[3 * i + 1] + pos[3 * i + 2] * pos[3 * i + 2]);
  }
  return e;
}

/* e2e
{"function": "pair_energy",
 "points": [[[0.0, 0.0, 0.0, 1.0, 0.5, -0.25, -0.5, 1.2, 0.3], 3, 0.1],
            [[0.1, -0.2, 0.3, 1.1, 0.4, -0.6, -0.8, 0.9, 0.2, 0.5, -1.0, 0.7], 4, 0.25],
            [[0.3, 0.2, -0.1, -0.4, 0.6, 0.5], 2, 0.05]]}
*/
