// The benchmarks of memory_objectives.cpp (issue 11): each objective and
// its generated gradient at two sizes, registered beside bench_main.cpp's.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <random>
#include <string>
#include <vector>

// From the generated copy of memory_objectives.cpp.
double rnn_fixed_state(const double *W, const double *U, const double *b, const double *v, const double *x, int T);
double rnn_fixed_state_grad(const double *W, const double *U, const double *b, const double *v, const double *x,
                            int T, double *d_W, double *d_U, double *d_b, double *d_v, double *d_x);
double kmeans_cost(const double *points, const double *centroids, int n, int k, int d);
double kmeans_cost_grad(const double *points, const double *centroids, int n, int k, int d, double *d_points,
                        double *d_centroids);
double gmm_rows(const double *alpha, const double *mu, const double *q, const double *x, int n, int k, int d);
double gmm_rows_grad(const double *alpha, const double *mu, const double *q, const double *x, int n, int k, int d,
                     double *d_alpha, double *d_mu, double *d_q, double *d_x);
double det_by_minors(const double *a, std::size_t n);
double det_by_minors_grad(const double *a, std::size_t n, double *d_a);
void ode_in_place(const double *c, std::size_t n, std::size_t steps, double *y);
void ode_in_place_grad(const double *c, std::size_t n, std::size_t steps, double *y, double *d_c, double *d_y);
double lstm_views(const double *main, const double *extra, const double *state0, const double *seq, int c);
double lstm_views_grad(const double *main, const double *extra, const double *state0, const double *seq, int c,
                       double *d_main, double *d_extra, double *d_state0, double *d_seq);
double trajectory_rows(const double *x, int n);
double trajectory_rows_grad(const double *x, int n, double *d_x);
double mlp_layers(const std::vector<double> &w, const std::vector<int> &widths, const std::vector<double> &x);
double mlp_layers_grad(const std::vector<double> &w, const std::vector<int> &widths, const std::vector<double> &x,
                       std::vector<double> &d_w, std::vector<double> &d_x);
double mlp_kept_activations(const std::vector<double> &w, const std::vector<int> &widths,
                            const std::vector<double> &x);
double mlp_kept_activations_grad(const std::vector<double> &w, const std::vector<int> &widths,
                                 const std::vector<double> &x, std::vector<double> &d_w, std::vector<double> &d_x);

namespace {

using Buffer = std::shared_ptr<std::vector<double>>;

Buffer random(size_t n, double lo, double hi, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  auto v = std::make_shared<std::vector<double>>(n);
  for (auto &x : *v) x = u(gen);
  return v;
}

Buffer zeros(size_t n) { return std::make_shared<std::vector<double>>(n); }

template <class Primal, class Gradient>
void registerPair(const std::string &name, Primal primal, Gradient gradient) {
  benchmark::RegisterBenchmark((name + "/primal").c_str(), [=](benchmark::State &s) {
    for (auto _ : s) benchmark::DoNotOptimize(primal());
  });
  benchmark::RegisterBenchmark((name + "/gradient").c_str(), [=](benchmark::State &s) {
    for (auto _ : s) benchmark::DoNotOptimize(gradient());
  });
}

} // namespace

void registerMemoryBenchmarks() {
  const int H = 8;
  for (int T : {10000, 80000}) {
    Buffer W = random(H * H, -0.4, 0.4, 21), U = random(H, -1, 1, 22), b = random(H, -0.1, 0.1, 23),
           v = random(H, -1, 1, 24), x = random(size_t(T), -1, 1, 25);
    Buffer dW = zeros(H * H), dU = zeros(H), db = zeros(H), dv = zeros(H), dx = zeros(size_t(T));
    registerPair(
        "rnn_fixed_state/h8x" + std::to_string(T),
        [=] { return rnn_fixed_state(W->data(), U->data(), b->data(), v->data(), x->data(), T); },
        [=] {
          return rnn_fixed_state_grad(W->data(), U->data(), b->data(), v->data(), x->data(), T, dW->data(), dU->data(),
                                      db->data(), dv->data(), dx->data());
        });
  }
  const int k = 16, d = 8;
  for (int n : {2000, 16000}) {
    Buffer points = random(size_t(n) * d, -2, 2, 31), centroids = random(k * d, -2, 2, 32);
    Buffer dp = zeros(size_t(n) * d), dc = zeros(k * d);
    registerPair(
        "kmeans_cost/" + std::to_string(n) + "x16x8",
        [=] { return kmeans_cost(points->data(), centroids->data(), n, k, d); },
        [=] { return kmeans_cost_grad(points->data(), centroids->data(), n, k, d, dp->data(), dc->data()); });
  }
  for (int n : {1000, 8000}) {
    Buffer alpha = random(k, -1, 0, 41), mu = random(k * d, -1, 1, 42), q = random(k * d, -0.2, 0.2, 43),
           x = random(size_t(n) * d, -2, 2, 44);
    Buffer da = zeros(k), dm = zeros(k * d), dq = zeros(k * d), dx = zeros(size_t(n) * d);
    registerPair(
        "gmm_rows/" + std::to_string(n) + "x16x8",
        [=] { return gmm_rows(alpha->data(), mu->data(), q->data(), x->data(), n, k, d); },
        [=] {
          return gmm_rows_grad(alpha->data(), mu->data(), q->data(), x->data(), n, k, d, da->data(), dm->data(),
                               dq->data(), dx->data());
        });
  }
  // (each extra order multiplies the primal's work by about n)
  for (std::size_t ell : {7, 8}) {
    Buffer a = random(ell * ell, -1, 1, 51), da = zeros(ell * ell);
    registerPair(
        "det_by_minors/" + std::to_string(ell), [=] { return det_by_minors(a->data(), ell); },
        [=] { return det_by_minors_grad(a->data(), ell, da->data()); });
  }
  for (std::size_t n : {1000, 8000}) {
    const std::size_t steps = 16;
    Buffer c = random(n, -1, 1, 61), y = zeros(n), dc = zeros(n), dy = zeros(n);
    registerPair(
        "ode_in_place/" + std::to_string(n) + "x16",
        [=] {
          ode_in_place(c->data(), n, steps, y->data());
          return (*y)[n - 1];
        },
        [=] {
          std::fill(dy->begin(), dy->end(), 0.0);
          (*dy)[n - 1] = 1.0;
          ode_in_place_grad(c->data(), n, steps, y->data(), dc->data(), dy->data());
          return (*dc)[0];
        });
  }
  for (int c : {1000, 8000}) {
    Buffer main = random(64, -0.5, 0.5, 71), extra = random(12, -1, 1, 72), state0 = random(16, -0.5, 0.5, 73),
           seq = random(size_t(c) * 4, -1, 1, 74);
    Buffer dm = zeros(64), de = zeros(12), ds = zeros(16), dq = zeros(size_t(c) * 4);
    registerPair(
        "lstm_views/b4x" + std::to_string(c),
        [=] { return lstm_views(main->data(), extra->data(), state0->data(), seq->data(), c); },
        [=] {
          return lstm_views_grad(main->data(), extra->data(), state0->data(), seq->data(), c, dm->data(), de->data(),
                                 ds->data(), dq->data());
        });
  }
  for (int n : {2000, 16000}) {
    Buffer x = random(size_t(n) * 3, -1, 1, 81), dx = zeros(size_t(n) * 3);
    registerPair(
        "trajectory_rows/" + std::to_string(n) + "x3", [=] { return trajectory_rows(x->data(), n); },
        [=] { return trajectory_rows_grad(x->data(), n, dx->data()); });
  }
  // Layers alternating 32 and 48 wide, 8 and 64 deep: the ratio must not
  // grow with the depth (no table copied per layer).
  for (int depth : {8, 64}) {
    auto widths = std::make_shared<std::vector<int>>();
    for (int l = 0; l <= depth; ++l) widths->push_back(l % 2 ? 48 : 32);
    size_t nw = 0;
    for (int l = 0; l < depth; ++l) nw += size_t((*widths)[l + 1]) * size_t((*widths)[l] + 1);
    Buffer w = random(nw, -0.2, 0.2, 41), x = random(size_t((*widths)[0]), -1, 1, 42);
    Buffer dw = zeros(nw), dx = zeros(x->size());
    const std::string shape = std::to_string(depth) + "x32-48";
    registerPair(
        "mlp_layers/" + shape, [=] { return mlp_layers(*w, *widths, *x); },
        [=] { return mlp_layers_grad(*w, *widths, *x, *dw, *dx); });
    registerPair(
        "mlp_kept_activations/" + shape, [=] { return mlp_kept_activations(*w, *widths, *x); },
        [=] { return mlp_kept_activations_grad(*w, *widths, *x, *dw, *dx); });
  }
}
