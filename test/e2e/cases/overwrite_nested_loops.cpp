// Loops whose nested loops rewrite elements of a local array the loop also
// reads. The forward loop logs each overwritten element with its index (one
// undo log per array, sized before the loop from the nested trip counts);
// each backward iteration pops its own entries, last first, and recomputes
// from the memory the forward iteration found. Nothing copies the whole
// array per iteration (golden/overwrite_nested_loops.cpp pins the shape).
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

// Accumulation into 3-vectors, then a rewrite that reads a neighbour.
UNFAD_GRADIENT double accumulate_positions(const double* x, const double* w, int n) {
  std::vector<double> pos(3 * n, 0.0);
  for (int v = 0; v < n; ++v) {
    for (int i = 0; i < 3; ++i) pos[3 * v + i] += w[i] * x[v];
    for (int i = 0; i < 3; ++i) pos[3 * v + i] = std::sin(pos[3 * v + i]) * pos[3 * ((v + n - 1) % n) + i];
  }
  double s = 0;
  for (int k = 0; k < 3 * n; ++k) s += pos[k] * pos[k];
  return s;
}

// A triangular nest (the inner bound is the outer index) with a branch in
// the inner loop and a store in the outer body itself.
UNFAD_GRADIENT double triangular_smoothing(const double* x, int n) {
  std::vector<double> a(n);
  for (int i = 0; i < n; ++i) a[i] = x[i];
  for (int i = 1; i < n; ++i) {
    for (int j = 0; j < i; ++j) {
      if (a[j] > 0.0) a[j] = a[j] * a[i] + 0.5 * x[j];
      else a[j] -= 0.25 * a[i];
    }
    a[i] = std::cos(a[i - 1]) + a[i];
  }
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[i] * (i + 1);
  return s;
}

// Two levels of nesting over a fixed-size local array; the outer loop's
// state also depends on what the nested loops overwrite.
UNFAD_GRADIENT double doubly_nested(const double* x, int n, int m) {
  double grid[6] = {1.0, 0.5, -0.5, 0.25, 2.0, -1.0};
  double acc = 0;
  for (int t = 0; t < n; ++t) {
    for (int r = 0; r < 2; ++r)
      for (int c = 0; c < m; ++c) grid[3 * r + c] = grid[3 * r + c] * x[t] + grid[3 * (1 - r) + (c + 1) % m];
    acc += grid[t % 6] * grid[(t + 1) % 6];
  }
  return acc + grid[0];
}

struct Particle {
  double p, q;
};

// An array of structs rewritten one field at a time in a nested loop.
UNFAD_GRADIENT double particles(const double* x, int n) {
  std::vector<Particle> ps(3);
  for (int k = 0; k < 3; ++k) {
    ps[k].p = x[k];
    ps[k].q = 1.0;
  }
  for (int step = 0; step < n; ++step)
    for (int k = 0; k < 3; ++k) {
      ps[k].q = ps[k].q * std::cos(ps[k].p) + x[step];
      ps[k].p += 0.1 * ps[(k + 1) % 3].q;
    }
  return ps[0].p * ps[1].q + ps[2].p;
}

// A while loop whose iterations rewrite a local array in an inner loop that
// only some iterations run (the log is sized for the larger branch).
UNFAD_GRADIENT double while_with_branch_nest(const double* x, int n) {
  double buf[4] = {0.5, -0.25, 1.0, 0.75};
  double t = 0;
  int step = 0;
  while (t < 3.0 && step < 8) {
    if (x[step % n] > 0) {
      for (int k = 1; k < 4; ++k) buf[k] = buf[k] * x[step % n] + buf[k - 1];
    } else {
      buf[step % 4] -= x[step % n] * buf[(step + 1) % 4];
    }
    t += 0.5 + 0.1 * step;
    ++step;
  }
  return buf[0] * buf[1] + buf[2] - buf[3];
}

/* e2e
[{"function": "accumulate_positions",
  "points": [[[0.5, -1.25, 2.0, 0.75], [0.3, -0.7, 1.1], 4], [[1.5], [0.2, 0.4, -0.6], 1]]},
 {"function": "triangular_smoothing",
  "points": [[[0.5, -1.25, 2.0, 0.75, -0.3], 5], [[0.9, 0.2], 2], [[0.4], 1]]},
 {"function": "doubly_nested",
  "points": [[[0.5, -1.25, 0.8, 0.75, 1.1], 5, 3], [[0.9, 0.2], 2, 2], [[0.4], 1, 1]]},
 {"function": "while_with_branch_nest",
  "points": [[[0.5, -1.25, 0.8], 3], [[0.9, 0.2], 2], [[-0.4], 1]]},
 {"function": "particles",
  "points": [[[0.5, -1.25, 0.8, 0.75], 4], [[0.9, 0.2, 0.3], 3]]}]
*/
