// Gradient benchmark: times every objective f and its generated f_grad at
// two sizes (x10 apart) in one run, then prints gradient time / primal
// time side by side. Inputs come from a fixed seed.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

// From the generated copy of objectives.cpp.
double sum_of_squares(const double *x, int n);
double sum_of_squares_grad(const double *x, int n, double *d_x);
double rosenbrock(const double *x, int n);
double rosenbrock_grad(const double *x, int n, double *d_x);
double product(const double *x, int n);
double product_grad(const double *x, int n, double *d_x);
double horner(const double *c, int n, double x);
double horner_grad(const double *c, int n, double x, double *d_c, double *d_x);
double least_squares(const double *A, const double *b, const double *x, int m, int n);
double least_squares_grad(const double *A, const double *b, const double *x, int m, int n, double *d_A, double *d_b,
                          double *d_x);
double log_sum_exp(const double *x, int n);
double log_sum_exp_grad(const double *x, int n, double *d_x);
struct Vec3 {
  double x, y, z;
};
double pairwise_energy_vec3(const std::vector<Vec3> &p);
double pairwise_energy_vec3_grad(const std::vector<Vec3> &p, std::vector<Vec3> &d_p);
double pairwise_energy(const double *p, int n);
double pairwise_energy_grad(const double *p, int n, double *d_p);
double mixture_nll(const double *x, const double *mu, const double *logs, const double *logw, int n, int k, int d);
double mixture_nll_grad(const double *x, const double *mu, const double *logs, const double *logw, int n, int k,
                        int d, double *d_x, double *d_mu, double *d_logs, double *d_logw);

double rnn_loss(const double *W, const double *U, const double *b, const double *v, const double *x, int H, int T);
double rnn_loss_grad(const double *W, const double *U, const double *b, const double *v, const double *x, int H, int T,
                     double *d_W, double *d_U, double *d_b, double *d_v, double *d_x);

double nested_accumulation(const double *x, int n);
double nested_accumulation_grad(const double *x, int n, double *d_x);

// memory_bench.cpp
void registerMemoryBenchmarks();

#ifdef UNFAD_HAVE_ADOLC
int adolc_tape(int which, const std::vector<double> &x);
void adolc_gradient(int tag, const std::vector<double> &x, std::vector<double> &g);
#endif

namespace {

std::vector<double> data(size_t n, double lo, double hi, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<double> v(n);
  for (auto &x : v) x = u(gen);
  return v;
}

void registerAll() {
  for (int n : {100000, 1000000}) {
    auto x = std::make_shared<std::vector<double>>(data(n, -1, 1, 1));
    auto d = std::make_shared<std::vector<double>>(n);
    auto name = std::to_string(n);
    benchmark::RegisterBenchmark(("sum_of_squares/" + name + "/primal").c_str(), [=](benchmark::State &s) {
      for (auto _ : s) benchmark::DoNotOptimize(sum_of_squares(x->data(), n));
    });
    benchmark::RegisterBenchmark(("sum_of_squares/" + name + "/gradient").c_str(), [=](benchmark::State &s) {
      for (auto _ : s) benchmark::DoNotOptimize(sum_of_squares_grad(x->data(), n, d->data()));
    });
    benchmark::RegisterBenchmark(("rosenbrock/" + name + "/primal").c_str(), [=](benchmark::State &s) {
      for (auto _ : s) benchmark::DoNotOptimize(rosenbrock(x->data(), n));
    });
    benchmark::RegisterBenchmark(("rosenbrock/" + name + "/gradient").c_str(), [=](benchmark::State &s) {
      for (auto _ : s) benchmark::DoNotOptimize(rosenbrock_grad(x->data(), n, d->data()));
    });
    benchmark::RegisterBenchmark(("log_sum_exp/" + name + "/primal").c_str(), [=](benchmark::State &s) {
      for (auto _ : s) benchmark::DoNotOptimize(log_sum_exp(x->data(), n));
    });
    benchmark::RegisterBenchmark(("log_sum_exp/" + name + "/gradient").c_str(), [=](benchmark::State &s) {
      for (auto _ : s) benchmark::DoNotOptimize(log_sum_exp_grad(x->data(), n, d->data()));
    });
#ifdef UNFAD_HAVE_ADOLC
    // The peer: ADOL-C's gradient driver on a tape recorded once.
    const char *names[] = {"sum_of_squares", "rosenbrock", "log_sum_exp"};
    for (int which = 0; which < 3; ++which) {
      int tag = adolc_tape(which, *x);
      benchmark::RegisterBenchmark((std::string(names[which]) + "/" + name + "/adolc").c_str(),
                                   [=](benchmark::State &s) {
                                     std::vector<double> g(n);
                                     for (auto _ : s) {
                                       adolc_gradient(tag, *x, g);
                                       benchmark::DoNotOptimize(g.data());
                                     }
                                   });
    }
#endif
  }
  for (int n : {1000, 10000}) {
    auto x = std::make_shared<std::vector<double>>(data(n, 0.999, 1.001, 2));
    auto d = std::make_shared<std::vector<double>>(n);
    auto name = std::to_string(n);
    benchmark::RegisterBenchmark(("product/" + name + "/primal").c_str(), [=](benchmark::State &s) {
      for (auto _ : s) benchmark::DoNotOptimize(product(x->data(), n));
    });
    benchmark::RegisterBenchmark(("product/" + name + "/gradient").c_str(), [=](benchmark::State &s) {
      for (auto _ : s) benchmark::DoNotOptimize(product_grad(x->data(), n, d->data()));
    });
    benchmark::RegisterBenchmark(("horner/" + name + "/primal").c_str(), [=](benchmark::State &s) {
      for (auto _ : s) benchmark::DoNotOptimize(horner(x->data(), n, 0.5));
    });
    benchmark::RegisterBenchmark(("horner/" + name + "/gradient").c_str(), [=](benchmark::State &s) {
      double dx = 0;
      for (auto _ : s) benchmark::DoNotOptimize(horner_grad(x->data(), n, 0.5, d->data(), &dx));
    });
  }
  for (int n : {100, 1000}) {
    auto A = std::make_shared<std::vector<double>>(data(size_t(n) * n, -1, 1, 3));
    auto b = std::make_shared<std::vector<double>>(data(n, -1, 1, 4));
    auto x = std::make_shared<std::vector<double>>(data(n, -1, 1, 5));
    auto dA = std::make_shared<std::vector<double>>(size_t(n) * n);
    auto db = std::make_shared<std::vector<double>>(n), dx = std::make_shared<std::vector<double>>(n);
    auto name = std::to_string(n) + "x" + std::to_string(n);
    benchmark::RegisterBenchmark(("least_squares/" + name + "/primal").c_str(), [=](benchmark::State &s) {
      for (auto _ : s) benchmark::DoNotOptimize(least_squares(A->data(), b->data(), x->data(), n, n));
    });
    benchmark::RegisterBenchmark(("least_squares/" + name + "/gradient").c_str(), [=](benchmark::State &s) {
      for (auto _ : s)
        benchmark::DoNotOptimize(
            least_squares_grad(A->data(), b->data(), x->data(), n, n, dA->data(), db->data(), dx->data()));
    });
  }
  for (int n : {200, 2000}) {
    auto p = std::make_shared<std::vector<double>>(data(3 * size_t(n), 0, 10, 6));
    auto d = std::make_shared<std::vector<double>>(3 * size_t(n));
    auto name = std::to_string(n);
    benchmark::RegisterBenchmark(("pairwise_energy/" + name + "/primal").c_str(), [=](benchmark::State &s) {
      for (auto _ : s) benchmark::DoNotOptimize(pairwise_energy(p->data(), n));
    });
    benchmark::RegisterBenchmark(("pairwise_energy/" + name + "/gradient").c_str(), [=](benchmark::State &s) {
      for (auto _ : s) benchmark::DoNotOptimize(pairwise_energy_grad(p->data(), n, d->data()));
    });
  }
  for (int n : {200, 2000}) {
    auto flat = data(3 * size_t(n), 0, 10, 6);
    auto p = std::make_shared<std::vector<Vec3>>(size_t(n));
    for (int i = 0; i < n; ++i) (*p)[size_t(i)] = Vec3{flat[3 * size_t(i)], flat[3 * size_t(i) + 1], flat[3 * size_t(i) + 2]};
    auto d = std::make_shared<std::vector<Vec3>>(size_t(n));
    auto name = std::to_string(n);
    benchmark::RegisterBenchmark(("pairwise_energy_vec3/" + name + "/primal").c_str(), [=](benchmark::State &s) {
      for (auto _ : s) benchmark::DoNotOptimize(pairwise_energy_vec3(*p));
    });
    benchmark::RegisterBenchmark(("pairwise_energy_vec3/" + name + "/gradient").c_str(), [=](benchmark::State &s) {
      for (auto _ : s) benchmark::DoNotOptimize(pairwise_energy_vec3_grad(*p, *d));
    });
  }
  const int H = 8;
  for (int T : {10000, 100000}) {
    auto W = std::make_shared<std::vector<double>>(data(H * H, -0.4, 0.4, 11));
    auto U = std::make_shared<std::vector<double>>(data(H, -1, 1, 12));
    auto b = std::make_shared<std::vector<double>>(data(H, -0.1, 0.1, 13));
    auto v = std::make_shared<std::vector<double>>(data(H, -1, 1, 14));
    auto x = std::make_shared<std::vector<double>>(data(T, -1, 1, 15));
    auto dW = std::make_shared<std::vector<double>>(H * H), dU = std::make_shared<std::vector<double>>(H);
    auto db = std::make_shared<std::vector<double>>(H), dv = std::make_shared<std::vector<double>>(H);
    auto dx = std::make_shared<std::vector<double>>(T);
    auto name = "h8x" + std::to_string(T);
    benchmark::RegisterBenchmark(("rnn/" + name + "/primal").c_str(), [=](benchmark::State &s) {
      for (auto _ : s) benchmark::DoNotOptimize(rnn_loss(W->data(), U->data(), b->data(), v->data(), x->data(), H, T));
    });
    benchmark::RegisterBenchmark(("rnn/" + name + "/gradient").c_str(), [=](benchmark::State &s) {
      for (auto _ : s)
        benchmark::DoNotOptimize(rnn_loss_grad(W->data(), U->data(), b->data(), v->data(), x->data(), H, T, dW->data(),
                                               dU->data(), db->data(), dv->data(), dx->data()));
    });
  }
  // n and 8n: the ratio must not grow with n (no whole-array copy per vertex).
  for (int n : {250, 2000}) {
    auto x = std::make_shared<std::vector<double>>(data(3 * size_t(n), -1, 1, 16));
    auto d = std::make_shared<std::vector<double>>(3 * size_t(n));
    auto name = std::to_string(n);
    benchmark::RegisterBenchmark(("nested_accumulation/" + name + "/primal").c_str(), [=](benchmark::State &s) {
      for (auto _ : s) benchmark::DoNotOptimize(nested_accumulation(x->data(), n));
    });
    benchmark::RegisterBenchmark(("nested_accumulation/" + name + "/gradient").c_str(), [=](benchmark::State &s) {
      for (auto _ : s) benchmark::DoNotOptimize(nested_accumulation_grad(x->data(), n, d->data()));
    });
  }
  const int k = 8, dim = 64;
  for (int n : {1000, 10000}) {
    auto x = std::make_shared<std::vector<double>>(data(size_t(n) * dim, -2, 2, 7));
    auto mu = std::make_shared<std::vector<double>>(data(k * dim, -1, 1, 8));
    auto ls = std::make_shared<std::vector<double>>(data(k * dim, -0.2, 0.2, 9));
    auto lw = std::make_shared<std::vector<double>>(data(k, -1, 0, 10));
    auto dx = std::make_shared<std::vector<double>>(size_t(n) * dim), dmu = std::make_shared<std::vector<double>>(k * dim);
    auto dls = std::make_shared<std::vector<double>>(k * dim), dlw = std::make_shared<std::vector<double>>(k);
    auto name = std::to_string(n) + "x" + std::to_string(k) + "x" + std::to_string(dim);
    benchmark::RegisterBenchmark(("mixture_nll/" + name + "/primal").c_str(), [=](benchmark::State &s) {
      for (auto _ : s) benchmark::DoNotOptimize(mixture_nll(x->data(), mu->data(), ls->data(), lw->data(), n, k, dim));
    });
    benchmark::RegisterBenchmark(("mixture_nll/" + name + "/gradient").c_str(), [=](benchmark::State &s) {
      for (auto _ : s)
        benchmark::DoNotOptimize(mixture_nll_grad(x->data(), mu->data(), ls->data(), lw->data(), n, k, dim,
                                                  dx->data(), dmu->data(), dls->data(), dlw->data()));
    });
  }
}

// Collects each run's time so the ratios can be printed side by side.
class RatioReporter : public benchmark::ConsoleReporter {
public:
  struct Times {
    double primal = 0, gradient = 0, adolc = 0;
  };
  std::map<std::string, Times> times; // problem/size -> times
  std::vector<std::string> order;
  void ReportRuns(const std::vector<Run> &runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (auto &r : runs) {
      std::string name = r.benchmark_name();
      auto slash = name.rfind('/');
      std::string key = name.substr(0, slash), kind = name.substr(slash + 1);
      if (!times.count(key)) order.push_back(key);
      double t = r.GetAdjustedRealTime();
      if (kind == "primal") times[key].primal = t;
      else if (kind == "gradient") times[key].gradient = t;
      else times[key].adolc = t;
    }
  }
};

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  registerAll();
  registerMemoryBenchmarks();
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  std::printf("\ngradient time / primal time (times in ns per call)\n");
  std::printf("%-32s %12s %12s %8s %14s\n", "problem/size", "primal", "gradient", "ratio", "ADOL-C ratio");
  for (auto &key : reporter.order) {
    auto t = reporter.times[key];
    if (t.primal <= 0 || t.gradient <= 0) continue;
    std::printf("%-32s %12.4g %12.4g %8.2f", key.c_str(), t.primal, t.gradient, t.gradient / t.primal);
    if (t.adolc > 0) std::printf(" %14.2f", t.adolc / t.primal);
    std::printf("\n");
  }
  benchmark::Shutdown();
}
