// unfad as a GradBench tool: GradBench's line protocol on stdin/stdout (one JSON message per
// line: "start", "define", "evaluate", "analysis"; see GradBench's js/common/protocol.ts and
// crates/gradbench/src/protocol.rs), with the outputs in the shapes of GradBench's evals
// (evals/<name>/README.md). The derivatives are unfad's generated gradients of marked.cpp.
//
// Modules: lse, llsq, det, ode (primal, gradient); kmeans (cost, dir); gmm and lstm (objective,
// jacobian). kmeans' dir is J H^-1 with H the Hessian's diagonal, 2 x (the centroid's cluster
// size), written by hand (unfad has no forward mode yet); J is unfad's gradient.
#include "tools.h"
#include "workloads.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <iostream>
#include <set>
#include <string>
#include <vector>

using json = nlohmann::json;

namespace {

// Runs f min_runs times and until min_seconds have passed; one "evaluate" timing per run.
json timed(const json &input, const std::function<void()> &f) {
  const int minRuns = input.value("min_runs", 1);
  const double minSeconds = input.value("min_seconds", 0.0);
  json timings = json::array();
  double total = 0;
  for (int run = 0; run < minRuns || total < minSeconds; ++run) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count();
    timings.push_back({{"name", "evaluate"}, {"nanoseconds", ns}});
    total += ns * 1e-9;
  }
  return timings;
}

std::vector<double> flatten(const json &rows, int &count, int &width) {
  std::vector<double> flat;
  count = int(rows.size());
  width = count ? int(rows[0].size()) : 0;
  for (const auto &r : rows)
    for (const auto &v : r) flat.push_back(v.get<double>());
  return flat;
}

json rows(const double *v, int count, int width) {
  json out = json::array();
  for (int i = 0; i < count; ++i) out.push_back(std::vector<double>(v + i * width, v + (i + 1) * width));
  return out;
}

// Returns {output, timings} or throws.
std::pair<json, json> evaluate(const std::string &module, const std::string &function, const json &in) {
  json output, timings;
  if (module == "lse" || module == "llsq") {
    const std::vector<double> x = in.at("x").get<std::vector<double>>();
    const int m = int(x.size()), n = module == "llsq" ? in.at("n").get<int>() : 0;
    if (function == "primal") {
      double y = 0;
      timings = timed(in, [&] { y = module == "lse" ? gb_lse(x.data(), m) : gb_llsq(x.data(), m, n); });
      output = y;
    } else if (function == "gradient") {
      std::vector<double> g(m);
      timings = timed(in, [&] {
        std::fill(g.begin(), g.end(), 0.0);
        if (module == "lse") gb_lse_grad(x.data(), m, g.data());
        else gb_llsq_grad(x.data(), m, n, g.data());
      });
      output = g;
    } else throw std::runtime_error("unknown function " + function);
  } else if (module == "det") {
    const std::vector<double> a = in.at("A").get<std::vector<double>>();
    const int ell = in.at("ell").get<int>();
    if (int(a.size()) != ell * ell) throw std::runtime_error("A has not ell^2 values");
    if (function == "primal") {
      double y = 0;
      timings = timed(in, [&] { y = gb_det(a.data(), ell); });
      output = y;
    } else if (function == "gradient") {
      std::vector<double> g(a.size());
      timings = timed(in, [&] {
        std::fill(g.begin(), g.end(), 0.0);
        gb_det_grad(a.data(), ell, g.data());
      });
      output = g;
    } else throw std::runtime_error("unknown function " + function);
  } else if (module == "ode") {
    const std::vector<double> x = in.at("x").get<std::vector<double>>();
    const int n = int(x.size()), s = in.at("s").get<int>();
    std::vector<double> y(n);
    if (function == "primal") {
      timings = timed(in, [&] { gb_ode(x.data(), n, s, y.data()); });
      output = y;
    } else if (function == "gradient") {
      std::vector<double> g(n), dy(n);
      timings = timed(in, [&] {
        std::fill(g.begin(), g.end(), 0.0);
        std::fill(dy.begin(), dy.end(), 0.0);
        dy[n - 1] = 1.0;
        gb_ode_grad(x.data(), n, s, y.data(), g.data(), dy.data());
      });
      output = g;
    } else throw std::runtime_error("unknown function " + function);
  } else if (module == "kmeans") {
    int n, d, k, dc;
    const std::vector<double> p = flatten(in.at("points"), n, d);
    const std::vector<double> c = flatten(in.at("centroids"), k, dc);
    if (dc != d) throw std::runtime_error("points and centroids differ in dimension");
    if (function == "cost") {
      double y = 0;
      timings = timed(in, [&] { y = gb_kmeans(p.data(), c.data(), n, k, d); });
      output = y;
    } else if (function == "dir") {
      std::vector<double> g(k * d), h(k);
      timings = timed(in, [&] {
        std::fill(g.begin(), g.end(), 0.0);
        gb_kmeans_grad(p.data(), c.data(), n, k, d, g.data());
        // The Hessian's diagonal: 2 x the number of points nearest to each centroid.
        std::fill(h.begin(), h.end(), 0.0);
        for (int i = 0; i < n; ++i) {
          int best = 0;
          double closest = 0;
          for (int j = 0; j < k; ++j) {
            double dist = 0;
            for (int l = 0; l < d; ++l) dist += (c[j * d + l] - p[i * d + l]) * (c[j * d + l] - p[i * d + l]);
            if (j == 0 || dist < closest) closest = dist, best = j;
          }
          h[best] += 2.0;
        }
        for (int j = 0; j < k; ++j)
          for (int l = 0; l < d; ++l) g[j * d + l] /= h[j];
      });
      output = rows(g.data(), k, d);
    } else throw std::runtime_error("unknown function " + function);
  } else if (module == "gmm") {
    const int d = in.at("d").get<int>(), k = in.at("k").get<int>(), n = in.at("n").get<int>();
    const int m = in.at("m").get<int>(), ls = d * (d - 1) / 2;
    const double gamma = in.at("gamma").get<double>();
    int r, w;
    const std::vector<double> alpha = in.at("alpha").get<std::vector<double>>();
    const std::vector<double> mu = flatten(in.at("mu"), r, w), q = flatten(in.at("q"), r, w);
    std::vector<double> l = flatten(in.at("l"), r, w), x = flatten(in.at("x"), r, w);
    l.resize(k * ls);
    if (function == "objective") {
      double y = 0;
      timings = timed(in, [&] {
        y = gb_gmm(d, k, n, alpha.data(), mu.data(), q.data(), l.data(), x.data(), gamma, m) +
            gb::gmm_constant(d, k, n, gamma, m);
      });
      output = y;
    } else if (function == "jacobian") {
      std::vector<double> da(k), dmu(k * d), dq(k * d), dl(k * ls);
      timings = timed(in, [&] {
        for (auto *v : {&da, &dmu, &dq, &dl}) std::fill(v->begin(), v->end(), 0.0);
        gb_gmm_grad(d, k, n, alpha.data(), mu.data(), q.data(), l.data(), x.data(), gamma, m, da.data(), dmu.data(),
                    dq.data(), dl.data());
      });
      output = {{"alpha", da}, {"mu", rows(dmu.data(), k, d)}, {"q", rows(dq.data(), k, d)}, {"l", rows(dl.data(), k, ls)}};
    } else throw std::runtime_error("unknown function " + function);
  } else if (module == "lstm") {
    int rm, wm, re, we, rs, ws, c, b;
    const std::vector<double> mainp = flatten(in.at("main_params"), rm, wm), extra = flatten(in.at("extra_params"), re, we);
    const std::vector<double> state = flatten(in.at("state"), rs, ws), seq = flatten(in.at("sequence"), c, b);
    const int l = rm / 2;
    if (wm != 4 * b || we != b || re != 3 || rs != 2 * l || ws != b) throw std::runtime_error("lstm: inconsistent shapes");
    if (function == "objective") {
      double y = 0;
      timings = timed(in, [&] { y = gb_lstm(l, c, b, mainp.data(), extra.data(), state.data(), seq.data()); });
      output = y;
    } else if (function == "jacobian") {
      // The gradient of main_params then extra_params, each flattened row by row.
      std::vector<double> g(mainp.size() + extra.size());
      timings = timed(in, [&] {
        std::fill(g.begin(), g.end(), 0.0);
        gb_lstm_grad(l, c, b, mainp.data(), extra.data(), state.data(), seq.data(), g.data(), g.data() + mainp.size());
      });
      output = g;
    } else throw std::runtime_error("unknown function " + function);
  } else throw std::runtime_error("unknown module " + module);
  return {output, timings};
}

} // namespace

int main() {
  const std::set<std::string> modules = {"lse", "llsq", "det", "ode", "kmeans", "gmm", "lstm"};
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    json msg;
    try {
      msg = json::parse(line);
    } catch (const std::exception &e) {
      std::cerr << "unfad_gradbench_tool: not JSON: " << e.what() << "\n";
      return 1;
    }
    const std::string kind = msg.value("kind", "");
    json reply = {{"id", msg.value("id", json())}};
    if (kind == "start") {
      reply["tool"] = "unfad";
    } else if (kind == "define") {
      const std::string module = msg.value("module", "");
      reply["success"] = modules.count(module) > 0;
      if (!modules.count(module)) reply["error"] = "unfad's GradBench tool has no module " + module;
    } else if (kind == "evaluate") {
      try {
        auto [output, timings] = evaluate(msg.at("module"), msg.at("function"), msg.value("input", json::object()));
        reply["success"] = true;
        reply["output"] = output;
        reply["timings"] = timings;
      } catch (const std::exception &e) {
        reply["success"] = false;
        reply["error"] = e.what();
      }
    }
    // "analysis" (and anything else) is acknowledged with its id.
    std::cout << reply.dump() << std::endl;
  }
  return 0;
}
