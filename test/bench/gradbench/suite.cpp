// The GradBench suite: every workload of workloads.h at one size class (tiny, small, large), with
// the primal, unfad's generated gradient, hand-written adjoints (lse, llsq, kmeans, gmm, lstm) and
// ADOL-C (ht: the dense Jacobian, unfad's reverse mode chained by hand against ADOL-C's vector
// forward mode).
// For each workload it first checks every derivative against every other one (GradBench's rule
// |x - y| / max(1, |x| + |y|) <= 1e-4; with --fd also against central finite differences), then
// times the primal and each derivative and prints derivative/primal per tool (min, median and
// max over repetitions), and writes the results as JSON (--json FILE).
//
//   unfad_gradbench_suite [--size tiny|small|large] [--only w1,w2] [--reps R] [--min-seconds S]
//                         [--data DIR] [--json FILE] [--fd] [--no-time] [--inject-error]
#include "inputs.h"
#include "tools.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

struct Tool {
  std::string name;
  std::function<void(std::vector<double> &)> derivative; // writes the flattened derivative
};

struct Case {
  std::string workload, description;
  std::function<void()> primal;
  std::vector<Tool> tools;                        // the first is the reference
  std::function<std::vector<double>()> reference; // finite differences (for --fd), may be empty
};

struct Options {
  std::string size = "small", data = UNFAD_GRADBENCH_DATA, json, only;
  int reps = 5;
  double minSeconds = 0.05;
  bool fd = false, time = true, injectError = false;
};

double elapsedSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Seconds per call: runs f at least once and until min_seconds have passed.
double secondsPerCall(const std::function<void()> &f, double minSeconds) {
  const auto t0 = std::chrono::steady_clock::now();
  long runs = 0;
  double elapsed = 0;
  do {
    f();
    ++runs;
    elapsed = elapsedSince(t0);
  } while (elapsed < minSeconds);
  return elapsed / runs;
}

// GradBench's rule.
bool close(double x, double y) { return std::fabs(x - y) / std::max(1.0, std::fabs(x) + std::fabs(y)) <= 1e-4; }

bool compare(const std::string &what, const std::vector<double> &ref, const std::string &refName,
             const std::vector<double> &got, const std::string &gotName) {
  if (ref.size() != got.size()) {
    std::printf("MISMATCH %s: %s has %zu values, %s %zu\n", what.c_str(), refName.c_str(), ref.size(), gotName.c_str(),
                got.size());
    return false;
  }
  size_t bad = 0;
  for (size_t i = 0; i < ref.size(); ++i)
    if (!close(ref[i], got[i]) || std::isnan(got[i]) || std::isnan(ref[i])) {
      if (bad < 5)
        std::printf("MISMATCH %s [%zu]: %s %.12g, %s %.12g\n", what.c_str(), i, refName.c_str(), ref[i],
                    gotName.c_str(), got[i]);
      ++bad;
    }
  if (bad) std::printf("MISMATCH %s: %zu of %zu values differ\n", what.c_str(), bad, ref.size());
  return bad == 0;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Central differences of a scalar function of x (h scaled by |x_i|).
std::vector<double> centralDifferences(std::vector<double> x, const std::function<double(const std::vector<double> &)> &f) {
  std::vector<double> g(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const double xi = x[i], h = 1e-6 * std::max(1.0, std::fabs(xi));
    x[i] = xi + h;
    const double up = f(x);
    x[i] = xi - h;
    const double down = f(x);
    x[i] = xi;
    g[i] = (up - down) / (2 * h);
  }
  return g;
}

using namespace gbin;

void addZeroed(std::vector<double> &g, size_t n) { g.assign(n, 0.0); }

// ---- the cases ----

Case lseCase(const Sizes &z) {
  auto x = std::make_shared<std::vector<double>>(uniform(z.lseN, 31337));
  const int n = z.lseN;
  Case c{"lse", "n=" + std::to_string(n), [x, n] { volatile double r = gb_lse(x->data(), n); (void)r; }, {}, {}};
  c.tools.push_back({"hand", [x, n](std::vector<double> &g) { g.resize(n); hand_lse_grad(x->data(), n, g.data()); }});
#ifdef UNFAD_HAVE_ADOLC
  const int tag = adolc_tape_lse(*x);
  c.tools.push_back({"adolc", [x, tag, n](std::vector<double> &g) { g.resize(n); adolc_gradient(tag, *x, g); }});
#endif
  c.tools.push_back({"unfad", [x, n](std::vector<double> &g) { addZeroed(g, n); gb_lse_grad(x->data(), n, g.data()); }});
  c.reference = [x, n] { return centralDifferences(*x, [n](const std::vector<double> &v) { return gb_lse(v.data(), n); }); };
  return c;
}

Case llsqCase(const Sizes &z) {
  const int m = z.llsqM, n = z.llsqN;
  auto x = std::make_shared<std::vector<double>>(uniform(m, 31337));
  Case c{"llsq", "m=" + std::to_string(m) + ",n=" + std::to_string(n),
         [x, m, n] { volatile double r = gb_llsq(x->data(), m, n); (void)r; }, {}, {}};
  c.tools.push_back({"hand", [x, m, n](std::vector<double> &g) { g.resize(m); hand_llsq_grad(x->data(), m, n, g.data()); }});
#ifdef UNFAD_HAVE_ADOLC
  const int tag = adolc_tape_llsq(*x, n);
  c.tools.push_back({"adolc", [x, tag, m](std::vector<double> &g) { g.resize(m); adolc_gradient(tag, *x, g); }});
#endif
  c.tools.push_back({"unfad", [x, m, n](std::vector<double> &g) { addZeroed(g, m); gb_llsq_grad(x->data(), m, n, g.data()); }});
  c.reference = [x, m, n] {
    return centralDifferences(*x, [m, n](const std::vector<double> &v) { return gb_llsq(v.data(), m, n); });
  };
  return c;
}

Case kmeansCase(const Sizes &z) {
  const int k = z.kmeansK, n = z.kmeansN, d = z.kmeansD;
  auto p = std::make_shared<std::vector<double>>(uniform(n * d, 31337));
  // GradBench's choice: the centroids are the last k points, so that every cluster is nonempty.
  auto cs = std::make_shared<std::vector<double>>(p->end() - k * d, p->end());
  Case c{"kmeans", "k=" + std::to_string(k) + ",n=" + std::to_string(n) + ",d=" + std::to_string(d),
         [p, cs, n, k, d] { volatile double r = gb_kmeans(p->data(), cs->data(), n, k, d); (void)r; }, {}, {}};
  c.tools.push_back({"hand", [=](std::vector<double> &g) { g.resize(k * d); hand_kmeans_grad(p->data(), cs->data(), n, k, d, g.data()); }});
#ifdef UNFAD_HAVE_ADOLC
  const int tag = adolc_tape_kmeans(*p, *cs, n, k, d);
  c.tools.push_back({"adolc", [cs, tag, k, d](std::vector<double> &g) { g.resize(k * d); adolc_gradient(tag, *cs, g); }});
#endif
  c.tools.push_back({"unfad", [=](std::vector<double> &g) { addZeroed(g, k * d); gb_kmeans_grad(p->data(), cs->data(), n, k, d, g.data()); }});
  c.reference = [=] {
    return centralDifferences(*cs, [&](const std::vector<double> &v) { return gb_kmeans(p->data(), v.data(), n, k, d); });
  };
  return c;
}

Case odeCase(const Sizes &z) {
  const int n = z.odeN, s = z.odeS;
  auto x = std::make_shared<std::vector<double>>(uniform(n, 31337));
  auto y = std::make_shared<std::vector<double>>(n);
  Case c{"ode", "n=" + std::to_string(n) + ",s=" + std::to_string(s), [x, y, n, s] { gb_ode(x->data(), n, s, y->data()); }, {}, {}};
#ifdef UNFAD_HAVE_ADOLC
  const int tag = adolc_tape_ode(*x, s);
  auto u = std::make_shared<std::vector<double>>(n, 0.0);
  (*u)[n - 1] = 1.0;
  c.tools.push_back({"adolc", [x, u, tag, n](std::vector<double> &g) { g.resize(n); adolc_vjp(tag, n, *x, *u, g); }});
#endif
  // The gradient of the last state: the output's cotangent is e_{n-1}.
  auto dy = std::make_shared<std::vector<double>>(n);
  c.tools.push_back({"unfad", [x, y, dy, n, s](std::vector<double> &g) {
                       addZeroed(g, n);
                       std::fill(dy->begin(), dy->end(), 0.0);
                       (*dy)[n - 1] = 1.0;
                       gb_ode_grad(x->data(), n, s, y->data(), g.data(), dy->data());
                     }});
  c.reference = [x, n, s] {
    return centralDifferences(*x, [n, s](const std::vector<double> &v) {
      std::vector<double> out(n);
      gb_ode(v.data(), n, s, out.data());
      return out[n - 1];
    });
  };
  return c;
}

Case detCase(const Sizes &z) {
  const int ell = z.detEll;
  auto a = std::make_shared<std::vector<double>>(uniform(ell * ell, 31337));
  Case c{"det", "ell=" + std::to_string(ell), [a, ell] { volatile double r = gb_det(a->data(), ell); (void)r; }, {}, {}};
#ifdef UNFAD_HAVE_ADOLC
  const int tag = adolc_tape_det(*a, ell);
  c.tools.push_back({"adolc", [a, tag, ell](std::vector<double> &g) { g.resize(ell * ell); adolc_gradient(tag, *a, g); }});
#endif
  c.tools.push_back({"unfad", [a, ell](std::vector<double> &g) { addZeroed(g, ell * ell); gb_det_grad(a->data(), ell, g.data()); }});
  c.reference = [a, ell] {
    return centralDifferences(*a, [ell](const std::vector<double> &v) { return gb_det(v.data(), ell); });
  };
  return c;
}

Case gmmCase(const Sizes &z, const std::string &data) {
  auto in = std::make_shared<GmmInput>(loadGmm(data, z.gmmFile, z.gmmD, z.gmmK, z.gmmN));
  const int d = in->d, k = in->k, n = in->n, m = in->m;
  const double gamma = in->gamma;
  const int ls = d * (d - 1) / 2, total = k + 2 * k * d + k * ls;
  Case c{"gmm", "d=" + std::to_string(d) + ",k=" + std::to_string(k) + ",n=" + std::to_string(n),
         [in, d, k, n, m, gamma] {
           const double *p = in->params.data();
           volatile double r = gb_gmm(d, k, n, p, p + k, p + k + k * d, p + k + 2 * k * d, in->x.data(), gamma, m);
           (void)r;
         }, {}, {}};
  c.tools.push_back({"hand", [in, d, k, n, m, gamma, total](std::vector<double> &g) {
                       g.resize(total);
                       const double *p = in->params.data();
                       hand_gmm_grad(d, k, n, p, p + k, p + k + k * d, p + k + 2 * k * d, in->x.data(), gamma, m, g.data());
                     }});
#ifdef UNFAD_HAVE_ADOLC
  const int tag = adolc_tape_gmm(d, k, n, in->params, in->x, gamma, m);
  c.tools.push_back({"adolc", [in, tag, total](std::vector<double> &g) { g.resize(total); adolc_gradient(tag, in->params, g); }});
#endif
  c.tools.push_back({"unfad", [in, d, k, n, m, gamma, total](std::vector<double> &g) {
                       addZeroed(g, total);
                       const double *p = in->params.data();
                       double *dp = g.data();
                       gb_gmm_grad(d, k, n, p, p + k, p + k + k * d, p + k + 2 * k * d, in->x.data(), gamma, m, dp,
                                   dp + k, dp + k + k * d, dp + k + 2 * k * d);
                     }});
  c.reference = [in, d, k, n, m, gamma] {
    return centralDifferences(in->params, [&](const std::vector<double> &p) {
      return gb_gmm(d, k, n, p.data(), p.data() + k, p.data() + k + k * d, p.data() + k + 2 * k * d, in->x.data(),
                    gamma, m);
    });
  };
  return c;
}

// ba: the Jacobian of the residuals (2 reprojection errors per observation, then one weight
// error 1 - w^2 per observation) in GradBench's sparse layout: per observation 2 x 15 values
// (camera 11, point 3, weight 1), then the weight errors' derivatives -2w (the same hand-written
// line for every tool).
Case baCase(const Sizes &z, const std::string &data) {
  auto in = std::make_shared<BaInput>(loadBa(data, z.baFile, z.baCams, z.baPoints, z.baObs));
  const int p = in->p;
  auto err = std::make_shared<std::vector<double>>(2 * p + p);
  Case c{"ba", "n=" + std::to_string(in->n) + ",m=" + std::to_string(in->m) + ",p=" + std::to_string(p),
         [in, err, p] {
           double *e = err->data();
           for (int i = 0; i < p; ++i)
             gb_ba(in->cam(i), in->point(i), &in->w[i], &in->feat[2 * i], e + 2 * i);
           for (int i = 0; i < p; ++i) e[2 * p + i] = 1.0 - in->w[i] * in->w[i];
         }, {}, {}};
#ifdef UNFAD_HAVE_ADOLC
  const int tag = adolc_tape_ba(in->cam(0), in->point(0), in->w[0], &in->feat[0]);
  c.tools.push_back({"adolc", [in, tag, p](std::vector<double> &J) {
                       J.resize(31 * p);
                       double x[17], j2[34];
                       for (int i = 0; i < p; ++i) {
                         std::copy(in->cam(i), in->cam(i) + 11, x);
                         std::copy(in->point(i), in->point(i) + 3, x + 11);
                         x[14] = in->w[i];
                         x[15] = in->feat[2 * i];
                         x[16] = in->feat[2 * i + 1];
                         adolc_jacobian(tag, 2, 17, x, j2);
                         std::copy(j2, j2 + 15, &J[30 * i]);
                         std::copy(j2 + 17, j2 + 32, &J[30 * i + 15]);
                       }
                       for (int i = 0; i < p; ++i) J[30 * p + i] = -2.0 * in->w[i];
                     }});
#endif
  c.tools.push_back({"unfad", [in, p](std::vector<double> &J) {
                       J.resize(31 * p);
                       double e[2];
                       for (int i = 0; i < p; ++i)
                         for (int row = 0; row < 2; ++row) {
                           double *r = &J[30 * i + 15 * row];
                           std::fill(r, r + 15, 0.0);
                           double de[2] = {row == 0 ? 1.0 : 0.0, row == 1 ? 1.0 : 0.0};
                           gb_ba_grad(in->cam(i), in->point(i), &in->w[i], &in->feat[2 * i], e, r, r + 11, r + 14, de);
                         }
                       for (int i = 0; i < p; ++i) J[30 * p + i] = -2.0 * in->w[i];
                     }});
  c.reference = [in, p] {
    std::vector<double> J(31 * p);
    for (int i = 0; i < p; ++i) {
      std::vector<double> v(in->cam(i), in->cam(i) + 11);
      v.insert(v.end(), in->point(i), in->point(i) + 3);
      v.push_back(in->w[i]);
      for (int row = 0; row < 2; ++row) {
        auto g = centralDifferences(v, [&](const std::vector<double> &u) {
          double e[2];
          gb_ba(u.data(), u.data() + 11, u.data() + 14, &in->feat[2 * i], e);
          return e[row];
        });
        std::copy(g.begin(), g.end(), &J[30 * i + 15 * row]);
      }
    }
    for (int i = 0; i < p; ++i) J[30 * p + i] = -2.0 * in->w[i];
    return J;
  };
  return c;
}

Case lstmCase(const Sizes &z, const std::string &data) {
  auto in = std::make_shared<LstmInput>(loadLstm(data, z.lstmFile, z.lstmL, z.lstmC, z.lstmB));
  const int l = in->l, c = in->c, b = in->b, total = int(in->params.size());
  Case k{"lstm", "l=" + std::to_string(l) + ",c=" + std::to_string(c) + ",b=" + std::to_string(b),
         [in, l, c, b] {
           const double *p = in->params.data();
           volatile double r = gb_lstm(l, c, b, p, p + 8 * l * b, in->state.data(), in->sequence.data());
           (void)r;
         }, {}, {}};
  k.tools.push_back({"hand", [in, l, c, b, total](std::vector<double> &g) {
                       g.resize(total);
                       const double *p = in->params.data();
                       hand_lstm_grad(l, c, b, p, p + 8 * l * b, in->state.data(), in->sequence.data(), g.data());
                     }});
#ifdef UNFAD_HAVE_ADOLC
  const int tag = adolc_tape_lstm(l, c, b, in->params, in->state, in->sequence);
  k.tools.push_back({"adolc", [in, tag, total](std::vector<double> &g) { g.resize(total); adolc_gradient(tag, in->params, g); }});
#endif
  k.tools.push_back({"unfad", [in, l, c, b, total](std::vector<double> &g) {
                       addZeroed(g, total);
                       const double *p = in->params.data();
                       gb_lstm_grad(l, c, b, p, p + 8 * l * b, in->state.data(), in->sequence.data(), g.data(),
                                    g.data() + 8 * l * b);
                     }});
  k.reference = [in, l, c, b] {
    return centralDifferences(in->params, [&](const std::vector<double> &p) {
      return gb_lstm(l, c, b, p.data(), p.data() + 8 * l * b, in->state.data(), in->sequence.data());
    });
  };
  return k;
}

// ht: the dense Jacobian of the 3 N residuals, row-major, in GradBench's layout (ht_jacobian.cpp):
// for the complicated variant the columns d/du0 and d/du1 of each point's own u come first.
struct HtCase {
  HtInput in;
  HtProblem problem;
  int rows = 0, columns = 0;
  std::vector<double> err;
  explicit HtCase(HtInput input) : in(std::move(input)) {
    problem.model.bones = in.bones;
    problem.model.vertices = in.vertices;
    problem.model.parents = in.parents.data();
    problem.model.base_relatives = in.baseRelatives.data();
    problem.model.inverse_base_absolutes = in.inverseBaseAbsolutes.data();
    problem.model.base_positions = in.basePositions.data();
    problem.model.weights = in.weights.data();
    problem.model.triangles = in.triangles.data();
    problem.points = in.points;
    problem.correspondences = in.correspondences.data();
    problem.observed = in.observed.data();
    problem.us = in.complicated ? in.us.data() : nullptr;
    rows = 3 * in.points;
    columns = (in.complicated ? 2 : 0) + 26;
    err.resize(rows);
  }
  HtCase(const HtCase &) = delete; // problem points into in
  // The independents (theta, then us) and the directions of a column: theta_c, or every u0
  // (every u1) at once, each residual depending on its own point's u only.
  std::vector<double> independents() const {
    std::vector<double> x = in.theta;
    if (in.complicated) x.insert(x.end(), in.us.begin(), in.us.end());
    return x;
  }
  std::vector<double> seed() const {
    const int uColumns = columns - 26, n = 26 + int(in.complicated ? in.us.size() : 0);
    std::vector<double> s(size_t(n) * columns, 0.0);
    for (int i = 0; i < 26; ++i) s[size_t(i) * columns + uColumns + i] = 1.0;
    for (int j = 26; j < n; ++j) s[size_t(j) * columns + (j - 26) % 2] = 1.0;
    return s;
  }
};

Case htCase(const Sizes &z, const std::string &data, bool complicated) {
  auto h = std::make_shared<HtCase>(loadHt(data, complicated, complicated ? z.htComplicatedFile : z.htSimpleFile,
                                           z.htVertices, z.htTriangles, z.htPoints));
  const int rows = h->rows, columns = h->columns;
  Case c{"ht", std::string(complicated ? "complicated" : "simple") + ",N=" + std::to_string(h->in.points) +
                   ",verts=" + std::to_string(h->in.vertices),
         [h] { ht_objective(h->problem, h->in.theta.data(), h->err.data()); }, {}, {}};
#ifdef UNFAD_HAVE_ADOLC
  const int tag = adolc_tape_ht(h->problem, h->in.theta.data());
  auto x = std::make_shared<std::vector<double>>(h->independents());
  auto seed = std::make_shared<std::vector<double>>(h->seed());
  c.tools.push_back({"adolc", [h, x, seed, tag, rows, columns](std::vector<double> &J) {
                       J.resize(size_t(rows) * columns);
                       adolc_forward_jacobian(tag, rows, int(x->size()), columns, x->data(), seed->data(), J.data());
                     }});
#endif
  c.tools.push_back({"unfad", [h, rows, columns](std::vector<double> &J) {
                       J.resize(size_t(rows) * columns);
                       unfad_ht_jacobian(h->problem, h->in.theta.data(), J.data());
                     }});
  c.reference = [h, rows, columns] {
    std::vector<double> J(size_t(rows) * columns), up(rows), down(rows);
    const std::vector<double> seed = h->seed();
    const int n = int(seed.size()) / columns;
    for (int col = 0; col < columns; ++col) {
      const double step = 1e-6;
      auto evaluate = [&](double sign, std::vector<double> &out) {
        std::vector<double> x = h->independents();
        for (int i = 0; i < n; ++i) x[i] += sign * step * seed[size_t(i) * columns + col];
        HtInput moved = h->in;
        std::copy(x.begin(), x.begin() + 26, moved.theta.begin());
        std::copy(x.begin() + 26, x.end(), moved.us.begin());
        const HtCase fresh(std::move(moved));
        ht_objective(fresh.problem, fresh.in.theta.data(), out.data());
      };
      evaluate(1.0, up);
      evaluate(-1.0, down);
      for (int r = 0; r < rows; ++r) J[size_t(r) * columns + col] = (up[r] - down[r]) / (2 * step);
    }
    return J;
  };
  return c;
}

std::string jsonString(const std::string &s) { return "\"" + s + "\""; }

} // namespace

int main(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--size") o.size = next();
    else if (a == "--only") o.only = "," + next() + ",";
    else if (a == "--reps") o.reps = std::atoi(next().c_str());
    else if (a == "--min-seconds") o.minSeconds = std::atof(next().c_str());
    else if (a == "--data") o.data = next();
    else if (a == "--json") o.json = next();
    else if (a == "--fd") o.fd = true;
    else if (a == "--no-time") o.time = false;
    else if (a == "--inject-error") o.injectError = true;
    else {
      std::fprintf(stderr, "usage: %s [--size tiny|small|large] [--only lse,llsq,...] [--reps R] [--min-seconds S] "
                           "[--data DIR] [--json FILE] [--fd] [--no-time] [--inject-error]\n", argv[0]);
      return 2;
    }
  }
  const Sizes z = sizesFor(o.size);
  std::vector<std::function<Case()>> makers = {
      [&] { return lseCase(z); },         [&] { return llsqCase(z); },       [&] { return kmeansCase(z); },
      [&] { return gmmCase(z, o.data); }, [&] { return odeCase(z); },        [&] { return detCase(z); },
      [&] { return baCase(z, o.data); },  [&] { return lstmCase(z, o.data); },
      [&] { return htCase(z, o.data, false); }, [&] { return htCase(z, o.data, true); }};
  const char *names[] = {"lse", "llsq", "kmeans", "gmm", "ode", "det", "ba", "lstm", "ht", "ht"};
  std::ostringstream json;
  json << "{\"size\": " << jsonString(o.size) << ", \"reps\": " << o.reps << ", \"min_seconds\": " << o.minSeconds
       << ", \"results\": [";
  bool firstJson = true, ok = true;
  std::printf("%-7s %-24s %12s  %-8s %9s %9s %9s\n", "work", "size", "primal (s)", "tool", "min", "median", "max");
  for (size_t w = 0; w < makers.size(); ++w) {
    if (!o.only.empty() && o.only.find("," + std::string(names[w]) + ",") == std::string::npos) continue;
    Case c = makers[w]();
    // Check every derivative before timing anything.
    std::vector<std::vector<double>> values(c.tools.size());
    for (size_t t = 0; t < c.tools.size(); ++t) {
      c.tools[t].derivative(values[t]);
      if (o.injectError && t + 1 == c.tools.size() && !values[t].empty()) values[t][values[t].size() / 2] += 1e-2;
    }
    bool caseOk = true;
    for (size_t t = 1; t < c.tools.size(); ++t)
      caseOk &= compare(c.workload + " " + c.description, values[0], c.tools[0].name, values[t], c.tools[t].name);
    if (o.fd && c.reference) {
      const std::vector<double> fd = c.reference();
      for (size_t t = 0; t < c.tools.size(); ++t)
        caseOk &= compare(c.workload + " " + c.description, fd, "finite differences", values[t], c.tools[t].name);
    }
    // A second evaluation gives the same values (the adjoints are zeroed, the state reset).
    for (size_t t = 0; t < c.tools.size(); ++t) {
      std::vector<double> again;
      c.tools[t].derivative(again);
      if (!o.injectError) caseOk &= compare(c.workload + " again", values[t], c.tools[t].name, again, c.tools[t].name);
    }
    std::printf("checked %s %s: %zu derivative values, %zu tools%s: %s\n", c.workload.c_str(), c.description.c_str(),
                values[0].size(), c.tools.size(), o.fd ? " and finite differences" : "", caseOk ? "ok" : "FAILED");
    if (!caseOk) {
      ok = false;
      break;
    }
    if (!o.time) continue;
    std::vector<double> primal;
    std::vector<std::vector<double>> ratio(c.tools.size()), seconds(c.tools.size());
    std::vector<double> scratch;
    for (int r = 0; r < o.reps; ++r) {
      primal.push_back(secondsPerCall(c.primal, o.minSeconds));
      for (size_t t = 0; t < c.tools.size(); ++t) {
        const double s = secondsPerCall([&] { c.tools[t].derivative(scratch); }, o.minSeconds);
        seconds[t].push_back(s);
        ratio[t].push_back(s / primal.back());
      }
    }
    for (size_t t = 0; t < c.tools.size(); ++t) {
      const auto &v = ratio[t];
      std::printf("%-7s %-24s %12.4g  %-8s %9.3g %9.3g %9.3g\n", c.workload.c_str(), c.description.c_str(),
                  median(primal), c.tools[t].name.c_str(), *std::min_element(v.begin(), v.end()), median(v),
                  *std::max_element(v.begin(), v.end()));
      json << (firstJson ? "" : ",") << "\n  {\"workload\": " << jsonString(c.workload)
           << ", \"description\": " << jsonString(c.description) << ", \"tool\": " << jsonString(c.tools[t].name)
           << ", \"primal_seconds\": [";
      for (size_t r = 0; r < primal.size(); ++r) json << (r ? ", " : "") << primal[r];
      json << "], \"seconds\": [";
      for (size_t r = 0; r < seconds[t].size(); ++r) json << (r ? ", " : "") << seconds[t][r];
      json << "], \"ratio\": {\"min\": " << *std::min_element(v.begin(), v.end()) << ", \"median\": " << median(v)
           << ", \"max\": " << *std::max_element(v.begin(), v.end()) << "}}";
      firstJson = false;
    }
    std::fflush(stdout);
  }
  json << "\n]}\n";
  if (!o.json.empty() && ok) {
    FILE *f = std::fopen(o.json.c_str(), "w");
    if (!f) {
      std::perror(o.json.c_str());
      return 1;
    }
    std::fputs(json.str().c_str(), f);
    std::fclose(f);
  }
  if (!ok) std::printf("derivatives disagree: no timings reported past this workload\n");
  return ok ? 0 : 1;
}
