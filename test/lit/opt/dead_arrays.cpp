// dead-arrays: `qdiff` (gmm's shape) is refilled whole for every point before anything
// reads it. The sweep snapshots it around each recomputed iteration and
// logs the triangular loop's in-place updates to put them back, but nothing
// reads what those restores put back: the saves, the log and the restores
// of qdiff go, and the refilling loop stays.
// RUN: %unfad --dump=reverse --dump-format=json %s -- -std=c++17 -I%unfad_include > %t.json
// RUN: %unfad-opt --passes=lower-parallel,partial-eval,split-struct-adds,dead-stores,dead-code --format=json %t.json > %t.in.json
// RUN: %unfad-opt --passes=lower-parallel %t.in.json | FileCheck %s --check-prefix=IN
// RUN: %unfad-opt --passes=dead-arrays,dead-code,dead-arrays,dead-code %t.in.json | FileCheck %s --implicit-check-not='= saved_qdiff' --implicit-check-not='= log_qdiff_old' --implicit-check-not='= tape_qdiff_old'
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

UNFAD_GRADIENT double quad(const double* x, const double* L, int n, int d) {
  std::vector<double> diff(d), qdiff(d);
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < d; ++j) {
      diff[j] = x[i * d + j];
      qdiff[j] = diff[j];
    }
    for (int col = 0; col < d; ++col)
      for (int row = col + 1; row < d; ++row) qdiff[row] += L[row * d + col] * diff[col];
    double sq = 0.0;
    for (int j = 0; j < d; ++j) sq += qdiff[j] * qdiff[j];
    total += std::exp(-sq);
  }
  return total;
}
// IN-LABEL: def quad$grad(
// IN:         store qdiff[{{.*}}] = log_qdiff
// IN:         store qdiff[{{.*}}] = saved_qdiff

// CHECK-LABEL: def quad$grad(
// CHECK:         store qdiff[{{.*}}] =
// CHECK:         store d_x[{{.*}}] +=
