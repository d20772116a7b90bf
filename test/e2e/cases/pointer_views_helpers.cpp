// Views passed to helpers in the shape of bundle adjustment: a camera's
// parameters as one array, `&cam[3]` and `cam + 6` passed to helpers that
// take pointers; a helper writing its result through an output view
// (`out + 2 * i`); and a local buffer from `new double[n]` (freed with
// `delete[]`) filled in a loop and read back.
#include <unfad/unfad.h>

#include <cmath>

// rotates p about the z axis by angle w[0] and scales it by (1 + w[1])
static void rotate(const double* w, const double* p, double* q) {
  const double c = std::cos(w[0]), s = std::sin(w[0]);
  q[0] = (1.0 + w[1]) * (c * p[0] - s * p[1]);
  q[1] = (1.0 + w[1]) * (s * p[0] + c * p[1]);
  q[2] = p[2];
}

static void project(const double* cam, const double* x, double* proj) {
  double q[3];
  rotate(cam, x, q);
  const double* t = &cam[3];
  const double z = q[2] + t[2];
  proj[0] = cam[6] * (q[0] + t[0]) / z;
  proj[1] = cam[6] * (q[1] + t[1]) / z;
}

UNFAD_GRADIENT void reprojection(const double* cams, const double* pts, const double* obs, int n, double* err) {
  for (int i = 0; i < n; ++i) {
    const double* cam = cams + 7 * (i % 2);
    double proj[2];
    project(cam, &pts[3 * i], proj);
    err[2 * i] = proj[0] - obs[2 * i];
    err[2 * i + 1] = proj[1] - obs[2 * i + 1];
  }
}

static void axpy2(double a, const double* x, double* y) {
  y[0] = a * x[0];
  y[1] = a * x[1];
}

UNFAD_GRADIENT void scaled_pairs(const double* s, const double* x, int n, double* out) {
  for (int i = 0; i < n; ++i) axpy2(s[i], x + 2 * i, out + 2 * i);
}

UNFAD_GRADIENT double buffer_sum(const double* x, int n) {
  double* buf = new double[n];
  for (int i = 0; i < n; ++i) buf[i] = std::exp(x[i]);
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += buf[i] * x[i];
  delete[] buf;
  return s;
}

/* e2e
[{"function": "reprojection",
  "points": [[[0.1, 0.2, 0.3, -0.2, 5.0, 1.5, 0.2, -0.4, 0.5, -0.1, 0.2, 6.0, 0.9, 0.1],
              [1.0, 2.0, 3.0, -1.0, 0.5, 2.0, 0.3, -0.7, 1.5], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6], 3]],
  "outputs": {"err": 6}},
 {"function": "scaled_pairs",
  "points": [[[0.5, -1.5], [1.0, 2.0, 3.0, -1.0], 2]],
  "outputs": {"out": 4}},
 {"function": "buffer_sum",
  "points": [[[0.5, -1.0, 0.25], 3]],
  "grad_formula": ["[exp(v) * (v + 1) for v in x]"]}]
*/
