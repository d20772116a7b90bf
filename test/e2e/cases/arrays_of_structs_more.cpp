// More arrays of structs and arrays of arrays: a struct with a nested struct
// field written through paths (ps[i].pos.x); a struct with a passive int field
// in a local array passed to a helper, and its elements to another; a time
// stepper (a helper writing a std::vector<Vec3>& output, called in a loop); a
// data-dependent while loop with a recurrence across elements; range-for by
// const reference and a copy of a parameter; rows of a
// std::vector<std::array<double, 3>> passed as A[i].data() and as
// const std::array<double, 3>&; a std::vector<std::vector<double>> passed to a
// helper and its rows to another; an output Vec3* written field by field; a
// local double M[3][3] and std::array<std::array<double, 2>, 2>; manual swaps
// of struct elements.
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

struct Vec3 {
  double x, y, z;
};

struct Particle {
  Vec3 pos;
  double m;
};

struct Obs {
  double t;
  double y;
  int w;
};

// 1. A nested struct field written through paths, then read across elements.
UNFAD_GRADIENT double particles(const double* x, int n) {
  std::vector<Particle> ps(n);
  for (int i = 0; i < n; ++i) {
    ps[i].pos.x = x[i] * x[i];
    ps[i].pos.y = std::sin(x[i]);
    ps[i].pos.z = 0.5 * x[i];
    ps[i].m = 1.0 + x[i];
    ps[i].m *= 2.0;
    ps[i].pos.y += ps[i].pos.x * ps[i].m;
  }
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += ps[i].m * (ps[i].pos.x + ps[i].pos.y * ps[(i + 1) % n].pos.z);
  return s;
}

// 2. A passive int field (a weight) mixed with doubles, in a local array
// filled by aggregate initialisation and field by field, passed to a helper
// that passes its elements to another.
static double term(const Obs& o, double a, double b) {
  const double r = a * o.t + b - o.y;
  return o.w * r * r;
}

static double wsse(const std::vector<Obs>& obs, double a, double b) {
  double s = 0.0;
  for (std::size_t i = 0; i < obs.size(); ++i) s += term(obs[i], a, b);
  return s;
}

UNFAD_GRADIENT double weighted_ls(const std::vector<double>& t, const std::vector<double>& y, double a, double b) {
  const int n = static_cast<int>(t.size());
  std::vector<Obs> obs(n);
  for (int i = 0; i < n; ++i) {
    if (i % 2 == 0) {
      obs[i] = Obs{t[i], y[i], 1 + i % 3};
    } else {
      obs[i].t = t[i];
      obs[i].y = y[i];
      obs[i].w = 1 + i % 3;
    }
    if (y[i] > 0.0) obs[i].w *= 2;
  }
  return wsse(obs, a, b);
}

// 3. A time stepper: a helper computes the next positions from the current
// ones, called in a loop; the caller copies them back into its local array.
// (A helper that updates a std::vector<Vec3>& in place, reading and writing
// it, is diagnosed: a parameter array must not be written after it is read.)
static void step(const std::vector<Vec3>& p, const std::vector<Vec3>& v, double dt, std::vector<Vec3>& q) {
  for (std::size_t i = 0; i < p.size(); ++i) {
    q[i].x = p[i].x + dt * v[i].x;
    q[i].y = p[i].y * (1.0 + dt * v[i].y);
    q[i].z = p[i].z + dt * v[i].z * (p[i].x + dt * v[i].x);
  }
}

UNFAD_GRADIENT double simulate(const std::vector<Vec3>& p0, const std::vector<Vec3>& v) {
  const std::size_t n = p0.size();
  std::vector<Vec3> p = p0;
  std::vector<Vec3> q(n);
  for (int s = 0; s < 3; ++s) {
    step(p, v, 0.25, q);
    for (std::size_t i = 0; i < n; ++i) p[i] = q[i];
  }
  double e = 0.0;
  for (std::size_t i = 0; i < n; ++i) e += p[i].x * p[i].z + p[i].y * p[i].y + p[i].x * p[(i + 1) % n].y;
  return e;
}

// 4. A while loop with a data-dependent trip count: prefix products and sums
// across the elements of a local array of structs, and an if that writes one
// field from the previous element's.
UNFAD_GRADIENT double prefix_while(const double* x, int n, double lim) {
  std::vector<Vec3> a(n);
  for (int i = 0; i < n; ++i) a[i] = Vec3{x[i], 0.5 * x[i], 0.0};
  double total = a[0].x;
  int k = 1;
  while (k < n && total < lim) {
    a[k].x = a[k].x * a[k - 1].x;
    a[k].y = a[k - 1].y + a[k].y;
    if (a[k].x < a[k].y) a[k].z = a[k].y - a[k].x + 0.5 * a[k - 1].z;
    total += a[k].x;
    ++k;
  }
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += a[i].x * a[i].y + a[i].z * a[i].z;
  return s;
}

// 5. A copy of a parameter, modified, and range-for loops by const reference.
UNFAD_GRADIENT double copy_rangefor(const std::vector<Vec3>& p, double s) {
  std::vector<Vec3> q = p;
  for (std::size_t i = 0; i < q.size(); ++i) {
    q[i].x *= s;
    q[i].z = q[i].y * q[i].z;
  }
  q[0].y += s;
  double acc = 0.0;
  for (const Vec3& e : q) acc += e.x * e.y + std::sin(e.z);
  for (const auto& e : p) acc += e.x * e.x;
  return acc;
}

// 6. Rows of a std::vector<std::array<double, 3>> passed to helpers.
static double norm2p(const double* r) { return r[0] * r[0] + r[1] * r[1] + r[2] * r[2]; }

static double dot3(const std::array<double, 3>& r, const std::vector<double>& w) {
  return r[0] * w[0] + r[1] * w[1] + r[2] * w[2];
}

UNFAD_GRADIENT double array_rows(const std::vector<std::array<double, 3>>& A, const std::vector<double>& w) {
  double s = 0.0;
  for (std::size_t i = 0; i < A.size(); ++i) s += std::sqrt(norm2p(A[i].data())) * std::tanh(dot3(A[i], w));
  return s;
}

// 7. A std::vector<std::vector<double>> passed to a helper, and its rows to
// another.
static double weighted_frob(const std::vector<std::vector<double>>& X, const std::vector<double>& c) {
  double s = 0.0;
  for (std::size_t i = 0; i < X.size(); ++i) {
    for (std::size_t j = 0; j < X[i].size(); ++j) s += c[i] * X[i][j] * X[i][j];
  }
  return s;
}

static double mean(const std::vector<double>& r) {
  double s = 0.0;
  for (std::size_t j = 0; j < r.size(); ++j) s += r[j];
  return s / static_cast<double>(r.size());
}

UNFAD_GRADIENT double nested_helpers(const std::vector<std::vector<double>>& X, const std::vector<double>& c) {
  double s = weighted_frob(X, c);
  for (std::size_t i = 0; i < X.size(); ++i) {
    const double m = mean(X[i]);
    s += std::sin(m) * m;
  }
  return s;
}

// 8. An output array of structs through a pointer, written field by field:
// x and y in one loop, z in another (set, then +=).
UNFAD_GRADIENT void to_points(const double* x, int n, Vec3* out) {
  for (int i = 0; i < n; ++i) {
    out[i].x = std::cos(x[i]);
    out[i].y = std::sin(x[i]) * x[(i + 1) % n];
  }
  for (int i = 0; i < n; ++i) {
    out[i].z = std::cos(x[i]) * std::sin(x[i]) * x[(i + 1) % n];
    out[i].z += x[i];
  }
}

// 9. A local double M[3][3] filled and read in loops, and a local
// std::array<std::array<double, 2>, 2> with an initializer list.
UNFAD_GRADIENT double local_mats(const double x[3], double a) {
  double M[3][3];
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) M[i][j] = x[i] * std::exp(-x[j]) + (i == j ? a : 0.0);
  }
  double s = 0.0;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) s += M[i][j] * M[j][i];
  }
  std::array<std::array<double, 2>, 2> B = {{{x[0], a}, {x[1] * x[2], 1.0}}};
  B[1][1] = B[0][0] * B[1][0];
  s += B[0][0] * B[1][1] - B[0][1] * B[1][0];
  return s;
}

// 10. Manual swaps of struct elements in a local copy: a reversal, then a
// bubble sort by x; weighted sums after each.
UNFAD_GRADIENT double swap_sort(const std::vector<Vec3>& p) {
  std::vector<Vec3> v = p;
  const int n = static_cast<int>(v.size());
  for (int i = 0; i < n / 2; ++i) {
    const int j = n - 1 - i;
    const Vec3 t = v[i];
    v[i] = v[j];
    v[j] = t;
  }
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += (i + 1) * (v[i].x * v[i].y + std::sin(v[i].z));
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b + 1 < n - a; ++b) {
      if (v[b].x > v[b + 1].x) {
        const Vec3 t = v[b];
        v[b] = v[b + 1];
        v[b + 1] = t;
      }
    }
  }
  for (int i = 0; i < n; ++i) s += (i + 1) * (i + 1) * v[i].y * v[i].z;
  return s;
}

/* e2e
[{"function": "particles",
  "points": [[[0.5, -1.25, 0.75, 1.5], 4], [[-0.3, 1.1, 2.0], 3]],
  "value_formula": "sum(2*(1 + x[i])*(x[i]**2 + (sin(x[i]) + 2*x[i]**2*(1 + x[i]))*0.5*x[(i + 1) % n]) for i in range(n))",
  "grad_formula": [
    "(lambda X, M, Y, Z, dY: [2*(X(k) + Y(k)*Z((k + 1) % n)) + M(k)*(2*x[k] + dY(k)*Z((k + 1) % n)) + 0.5*M((k - 1) % n)*Y((k - 1) % n) for k in range(n)])(lambda i: x[i]**2, lambda i: 2*(1 + x[i]), lambda i: sin(x[i]) + 2*x[i]**2*(1 + x[i]), lambda i: 0.5*x[i], lambda i: cos(x[i]) + 4*x[i] + 6*x[i]**2)"]},
 {"function": "weighted_ls",
  "points": [[[0.5, 1.0, 1.5, 2.0, 2.5], [1.25, -0.5, 2.0, 0.75, -1.5], 0.8, -0.3],
             [[-1.0, 0.25, 3.0, 1.75], [0.6, 1.4, -2.2, 0.9], -0.5, 1.2]],
  "value_formula": "sum((1 + i % 3)*(2 if y[i] > 0 else 1)*(a*t[i] + b - y[i])**2 for i in range(len(t)))",
  "grad_formula": [
    "[2*(1 + i % 3)*(2 if y[i] > 0 else 1)*(a*t[i] + b - y[i])*a for i in range(len(t))]",
    "[-2*(1 + i % 3)*(2 if y[i] > 0 else 1)*(a*t[i] + b - y[i]) for i in range(len(t))]",
    "sum(2*(1 + i % 3)*(2 if y[i] > 0 else 1)*(a*t[i] + b - y[i])*t[i] for i in range(len(t)))",
    "sum(2*(1 + i % 3)*(2 if y[i] > 0 else 1)*(a*t[i] + b - y[i]) for i in range(len(t)))"]},
 {"function": "simulate",
  "points": [[[[1.0, 0.5, -0.25], [-0.5, 1.5, 0.75], [0.25, -1.0, 2.0]], [[0.5, -0.75, 1.25], [1.5, 0.25, -0.5], [-1.0, 0.6, 0.3]]],
             [[[0.3, -1.2, 0.8], [1.1, 0.7, -0.4]], [[-0.6, 1.4, 0.9], [0.2, -1.6, 1.3]]]],
  "value_formula": "(lambda K, dt, n: (lambda X, Y, Z: sum(X(i)*Z(i) + Y(i)**2 + X(i)*Y((i + 1) % n) for i in range(n)))(lambda i: p0[i][0] + K*dt*v[i][0], lambda i: p0[i][1]*(1 + dt*v[i][1])**K, lambda i: p0[i][2] + dt*v[i][2]*(K*p0[i][0] + dt*v[i][0]*K*(K + 1)/2)))(3, 0.25, len(p0))",
  "grad_formula": [
    "(lambda K, dt, n: (lambda X, c, Z: (lambda Y: (lambda gX, gY, gZ: [[gX(i) + gZ(i)*dt*v[i][2]*K, gY(i)*c(i)**K, gZ(i)] for i in range(n)])(lambda i: Z(i) + Y((i + 1) % n), lambda i: 2*Y(i) + X((i - 1) % n), lambda i: X(i)))(lambda i: p0[i][1]*c(i)**K))(lambda i: p0[i][0] + K*dt*v[i][0], lambda i: 1 + dt*v[i][1], lambda i: p0[i][2] + dt*v[i][2]*(K*p0[i][0] + dt*v[i][0]*K*(K + 1)/2)))(3, 0.25, len(p0))",
    "(lambda K, dt, n: (lambda X, c, Z: (lambda Y: (lambda gX, gY, gZ: [[gX(i)*K*dt + gZ(i)*dt*dt*v[i][2]*K*(K + 1)/2, gY(i)*p0[i][1]*K*c(i)**(K - 1)*dt, gZ(i)*dt*(K*p0[i][0] + dt*v[i][0]*K*(K + 1)/2)] for i in range(n)])(lambda i: Z(i) + Y((i + 1) % n), lambda i: 2*Y(i) + X((i - 1) % n), lambda i: X(i)))(lambda i: p0[i][1]*c(i)**K))(lambda i: p0[i][0] + K*dt*v[i][0], lambda i: 1 + dt*v[i][1], lambda i: p0[i][2] + dt*v[i][2]*(K*p0[i][0] + dt*v[i][0]*K*(K + 1)/2)))(3, 0.25, len(p0))"]},
 {"function": "prefix_while",
  "points": [[[1.2, 0.8, 1.5, 0.6, 1.1], 5, 3.0], [[0.5, -1.5, -2.0, 0.7], 4, 10.0]],
  "value_formula": "(lambda m: (lambda P, Q: (lambda Z: sum(P(i)*Q(i) + Z(i, Z)**2 for i in range(n)))(lambda i, Z: 0.0 if i == 0 or i >= m or not P(i) < Q(i) else Q(i) - P(i) + 0.5*Z(i - 1, Z)))(lambda i: prod(x[:i + 1]) if i < m else x[i], lambda i: 0.5*sum(x[:i + 1]) if i < m else 0.5*x[i]))(next(k for k in range(1, n + 1) if k == n or x[0] + sum(prod(x[:i + 1]) for i in range(1, k)) >= lim))",
  "grad_formula": [
    "(lambda m: (lambda P, Q, dP, dQ: (lambda Z, dZ: [sum(dP(i, j)*Q(i) + P(i)*dQ(i, j) + 2*Z(i, Z)*dZ(i, j, dZ) for i in range(n)) for j in range(n)])(lambda i, Z: 0.0 if i == 0 or i >= m or not P(i) < Q(i) else Q(i) - P(i) + 0.5*Z(i - 1, Z), lambda i, j, dZ: 0.0 if i == 0 or i >= m or not P(i) < Q(i) else dQ(i, j) - dP(i, j) + 0.5*dZ(i - 1, j, dZ)))(lambda i: prod(x[:i + 1]) if i < m else x[i], lambda i: 0.5*sum(x[:i + 1]) if i < m else 0.5*x[i], lambda i, j: (prod(x[l] for l in range(i + 1) if l != j) if j <= i else 0.0) if i < m else float(i == j), lambda i, j: 0.5*(j <= i) if i < m else 0.5*(i == j)))(next(k for k in range(1, n + 1) if k == n or x[0] + sum(prod(x[:i + 1]) for i in range(1, k)) >= lim))",
    "0"]},
 {"function": "copy_rangefor",
  "points": [[[[1.0, 0.5, -0.25], [-0.5, 1.5, 0.75], [0.25, -1.0, 2.0]], 1.5],
             [[[0.3, -1.2, 0.8], [1.1, 0.7, -0.4]], -0.6]],
  "value_formula": "sum(s*q[0]*(q[1] + s*(i == 0)) + sin(q[1]*q[2]) + q[0]**2 for i, q in enumerate(p))",
  "grad_formula": [
    "[[s*(q[1] + s*(i == 0)) + 2*q[0], s*q[0] + cos(q[1]*q[2])*q[2], cos(q[1]*q[2])*q[1]] for i, q in enumerate(p)]",
    "sum(q[0]*(q[1] + s*(i == 0)) for i, q in enumerate(p)) + s*p[0][0]"]},
 {"function": "array_rows",
  "points": [[[[1.0, -0.5, 0.25], [0.75, 1.5, -1.0], [-2.0, 0.3, 0.6]], [0.4, -0.3, 0.7]],
             [[[0.2, 1.1, -0.9], [1.3, -0.4, 0.5]], [-0.8, 0.5, 0.25]]],
  "value_formula": "sum(sqrt(sum(r[m]**2 for m in range(3)))*tanh(sum(r[m]*w[m] for m in range(3))) for r in A)",
  "grad_formula": [
    "[(lambda N, D: [r[m]/N*tanh(D) + N*(1 - tanh(D)**2)*w[m] for m in range(3)])(sqrt(sum(r[m]**2 for m in range(3))), sum(r[m]*w[m] for m in range(3))) for r in A]",
    "[sum(sqrt(sum(r[l]**2 for l in range(3)))*(1 - tanh(sum(r[l]*w[l] for l in range(3)))**2)*r[m] for r in A) for m in range(3)]"]},
 {"function": "nested_helpers",
  "points": [[[[1.0, -0.5, 0.25], [0.75, 1.5], [-2.0, 0.3, 0.6, 1.2]], [0.4, -0.3, 0.7]],
             [[[0.2], [1.3, -0.4, 0.5]], [1.5, -0.25]]],
  "value_formula": "sum(c[i]*sum(v*v for v in X[i]) + sin(sum(X[i])/len(X[i]))*sum(X[i])/len(X[i]) for i in range(len(X)))",
  "grad_formula": [
    "[(lambda mi: [2*c[i]*X[i][j] + (cos(mi)*mi + sin(mi))/len(X[i]) for j in range(len(X[i]))])(sum(X[i])/len(X[i])) for i in range(len(X))]",
    "[sum(v*v for v in X[i]) for i in range(len(X))]"]},
 {"function": "to_points", "outputs": {"out": 4},
  "points": [[[0.5, -1.25, 0.75, 2.0], 4], [[-0.3, 1.1, 2.5, -0.8], 4]],
  "grad_formula": [
    "[-w_out[k][0]*sin(x[k]) + w_out[k][1]*cos(x[k])*x[(k + 1) % n] + w_out[(k - 1) % n][1]*sin(x[(k - 1) % n]) + w_out[k][2]*(cos(2*x[k])*x[(k + 1) % n] + 1) + w_out[(k - 1) % n][2]*cos(x[(k - 1) % n])*sin(x[(k - 1) % n]) for k in range(n)]"]},
 {"function": "local_mats",
  "points": [[[0.5, -1.25, 0.75], 1.5], [[1.1, 0.4, -0.6], -0.7]],
  "value_formula": "(lambda M: sum(M(i, j)*M(j, i) for i in range(3) for j in range(3)))(lambda i, j: x[i]*exp(-x[j]) + a*(i == j)) + x[0]**2*x[1]*x[2] - a*x[1]*x[2]",
  "grad_formula": [
    "(lambda M: [2*sum(M(j, k)*exp(-x[j]) for j in range(3)) - 2*sum(M(k, i)*x[i]*exp(-x[k]) for i in range(3)) + [2*x[0]*x[1]*x[2], x[0]**2*x[2] - a*x[2], x[0]**2*x[1] - a*x[1]][k] for k in range(3)])(lambda i, j: x[i]*exp(-x[j]) + a*(i == j))",
    "2*sum(x[i]*exp(-x[i]) + a for i in range(3)) - x[1]*x[2]"]},
 {"function": "swap_sort",
  "points": [[[[1.0, 0.5, -0.25], [-0.5, 1.5, 0.75], [0.25, -1.0, 2.0], [2.0, 0.3, -1.1], [-1.5, 0.9, 0.4]]],
             [[[0.3, -1.2, 0.8], [1.1, 0.7, -0.4], [-0.7, 0.2, 1.6], [0.6, -0.5, 0.9]]]],
  "value_formula": "(lambda n, o: sum((n - k)*(q[0]*q[1] + sin(q[2])) + (o.index(k) + 1)**2*q[1]*q[2] for k, q in enumerate(p)))(len(p), sorted(range(len(p)), key=lambda i: p[i][0]))",
  "grad_formula": [
    "(lambda n, o: [[(n - k)*q[1], (n - k)*q[0] + (o.index(k) + 1)**2*q[2], (n - k)*cos(q[2]) + (o.index(k) + 1)**2*q[1]] for k, q in enumerate(p)])(len(p), sorted(range(len(p)), key=lambda i: p[i][0]))"]}]
*/
