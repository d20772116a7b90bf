// Growing std::vectors of structs of pointer views and of pointers, the way
// GradBench's lstm keeps its layers' views and its input sequence: reserve
// and emplace_back through a constructor, push_back of a pointer, of a
// braced struct and of a copy, elements passed to helpers by const
// reference, pointers read from the vector into locals, writes through
// `double*` elements into a local buffer, and size() in loop bounds.
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

struct Row {
  const double* p;
  int n;
  Row(const double* q, int m) : p(q), n(m) {}
};

struct Span {
  const double* first;
  int len;
};

static double dot(const Row& a, const double* b) {
  double s = 0;
  for (int j = 0; j < a.n; ++j) s += a.p[j] * b[j];
  return s;
}

// x is rows x cols, row-major
UNFAD_GRADIENT double rows_energy(const double* x, int rows, int cols) {
  std::vector<Row> rs;
  rs.reserve(rows);
  for (int i = 0; i < rows; ++i) rs.emplace_back(&x[i * cols], cols);
  std::vector<const double*> starts;
  for (int i = 0; i < rows; ++i) starts.push_back(x + i * cols);
  double s = 0;
  for (size_t i = 0; i < rs.size(); ++i) {
    const double* mirror = starts[rows - 1 - i];
    s += std::sin(dot(rs[i], mirror)) + rs[i].p[0] * starts[i][cols - 1];
  }
  return s;
}

// a vector of braced view structs, one copied from another element,
// `double*` elements written through, and a vector made with a size
UNFAD_GRADIENT double spans_and_outputs(const double* x, int n) {
  std::vector<Span> spans;
  for (int k = 0; k < n / 2; ++k) spans.push_back(Span{x + 2 * k, 2});
  spans.push_back(spans[0]);
  double buffer[8] = {};
  std::vector<double*> outs;
  for (size_t k = 0; k < spans.size(); ++k) outs.push_back(&buffer[2 * k]);
  for (size_t k = 0; k < spans.size(); ++k)
    for (int j = 0; j < spans[k].len; ++j) outs[k][j] = spans[k].first[j] * spans[k].first[1 - j] + std::exp(0.1 * spans[k].first[j]);
  std::vector<Span> two(2); // value-initialised, then pointed member by member and whole
  two[0].first = x;
  two[0].len = 1;
  two[1] = Span{x + 1, 1};
  double s = two[0].first[0] * std::cos(two[1].first[0]) * two[1].len;
  for (size_t k = 0; k < spans.size(); ++k) s += outs[k][0] * outs[k][1];
  return s;
}

/* e2e
[{"function": "rows_energy",
  "points": [[[0.3, -0.5, 0.8, 0.1, -0.2, 0.7, 0.4, -0.9, 0.6, 0.2, -0.3, 0.5], 3, 4],
             [[1.1, -0.4, 0.2, 0.9], 2, 2]]},
 {"function": "spans_and_outputs",
  "points": [[[0.3, -0.5, 0.8, 0.1, -0.2, 0.7], 6], [[1.5, -0.25], 2]]}]
*/
