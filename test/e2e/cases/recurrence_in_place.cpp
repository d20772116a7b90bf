// Loops that rewrite elements of a local array they also read (recurrences
// in place). Each overwritten element is taped with its index and a backward
// iteration undoes the iteration's stores, last first: memory linear in what
// the loop overwrites (golden/recurrence_in_place.cpp pins the shape). A
// store inside a branch falls back to saving the array per iteration.
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

UNFAD_GRADIENT double prefix_recurrence(const double* x, int n, double c) {
  std::vector<double> a(n);
  a[0] = x[0];
  for (int i = 1; i < n; ++i) a[i] = a[i - 1] * c + x[i];
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[i] * a[i];
  return s;
}

UNFAD_GRADIENT double two_stores_per_step(const double* x, int n) {
  std::vector<double> a(n, 1.0);
  for (int i = 1; i < n; ++i) {
    a[i] = std::sin(a[i - 1]) + x[i];
    a[i - 1] = a[i - 1] * a[i];
    a[i] += a[i - 1] * x[0];
  }
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[i];
  return s;
}

UNFAD_GRADIENT double same_element_every_step(const double* x, int n) {
  double acc[2] = {0.5, 1.5};
  for (int i = 0; i < n; ++i) {
    acc[i % 2] = acc[i % 2] * x[i] + acc[(i + 1) % 2];
    acc[0] -= 0.25 * acc[1];
  }
  return acc[0] * acc[1];
}

UNFAD_GRADIENT double store_in_branch(const double* x, int n) {
  std::vector<double> a(n, 0.5);
  for (int i = 1; i < n; ++i) {
    if (x[i] > 0) a[i] = a[i - 1] * x[i];
    else a[i - 1] += x[i];
  }
  return a[n - 1] + a[0];
}

/* e2e
[{"function": "prefix_recurrence",
  "points": [[[0.5, -1.25, 2.0, 0.75], 4, 0.8], [[1.5], 1, 0.3]]},
 {"function": "two_stores_per_step",
  "points": [[[0.3, -0.7, 1.1, 0.4], 4], [[0.9, 0.2], 2]]},
 {"function": "same_element_every_step",
  "points": [[[0.5, -1.5, 2.0, 0.75, 1.25], 5], [[1.5, 0.5], 2]]},
 {"function": "store_in_branch",
  "points": [[[0.5, -1.25, 2.0, 0.75], 4], [[0.5, 1.5, -0.5], 3]]}]
*/
