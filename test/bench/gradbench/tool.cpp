// unfad as a GradBench tool: GradBench's line protocol on stdin/stdout (one JSON message per
// line: "start", "define", "evaluate", "analysis"; see GradBench's js/common/protocol.ts and
// crates/gradbench/src/protocol.rs), with the outputs in the shapes of GradBench's evals
// (evals/<name>/README.md). The derivatives are unfad's generated gradients of marked.cpp.
//
// Modules: lse, llsq, det, ode (primal, gradient); kmeans (cost, dir); gmm, lstm, ba and ht
// (objective, jacobian). kmeans' dir is J H^-1 with J unfad's gradient and H the Hessian's diagonal,
// unfad's gradient of the sum of J's entries (second derivatives by reverse over reverse: marked.cpp).
#include "tools.h"
#include "workloads.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <iostream>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
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

// ba: one camera, point, weight and feature replicated as GradBench's ba.hpp does (n cameras,
// m points, p observations; observation i uses camera i mod n and point i mod m). The work is
// done for every observation; the output keeps GradBench's abridged shapes: the objective's
// first reprojection error and first weight error with their repetition counts, and of the
// Jacobian (compressed sparse rows: 2 rows of 15 values per observation, then one row per
// weight error) the first 30 entries of rows, cols and vals and the last entry of each.
std::pair<json, json> evaluateBa(const std::string &function, const json &in) {
  const int n = in.at("n").get<int>(), m = in.at("m").get<int>(), p = in.at("p").get<int>();
  const std::vector<double> cam = in.at("cam").get<std::vector<double>>(), x = in.at("x").get<std::vector<double>>();
  const std::vector<double> feat = in.at("feat").get<std::vector<double>>();
  if (cam.size() != 11 || x.size() != 3 || feat.size() != 2 || n < 1 || m < 1 || p < 1)
    throw std::runtime_error("ba: inconsistent shapes");
  std::vector<double> cams, points, w(p, in.at("w").get<double>()), feats;
  for (int i = 0; i < n; ++i) cams.insert(cams.end(), cam.begin(), cam.end());
  for (int i = 0; i < m; ++i) points.insert(points.end(), x.begin(), x.end());
  for (int i = 0; i < p; ++i) feats.insert(feats.end(), feat.begin(), feat.end());
  const double *C = cams.data(), *X = points.data();
  json output, timings;
  if (function == "objective") {
    std::vector<double> reproj(2 * p), werr(p);
    timings = timed(in, [&] {
      for (int i = 0; i < p; ++i) gb_ba(C + 11 * (i % n), X + 3 * (i % m), &w[i], &feats[2 * i], &reproj[2 * i]);
      for (int i = 0; i < p; ++i) werr[i] = 1.0 - w[i] * w[i];
    });
    output = {{"reproj_error", {{"elements", {reproj[0], reproj[1]}}, {"repeated", p}}},
              {"w_err", {{"element", werr[0]}, {"repeated", p}}}};
  } else if (function == "jacobian") {
    const int nnz = 31 * p;
    std::vector<int> rowStart(3 * p + 1), cols(nnz);
    std::vector<double> vals(nnz);
    timings = timed(in, [&] {
      double err[2];
      for (int i = 0; i < p; ++i)
        for (int row = 0; row < 2; ++row) {
          const int at = 30 * i + 15 * row, cameraCol = 11 * (i % n), pointCol = 11 * n + 3 * (i % m);
          rowStart[2 * i + row + 1] = at + 15;
          for (int k = 0; k < 15; ++k) cols[at + k] = k < 11 ? cameraCol + k : k < 14 ? pointCol + k - 11 : 11 * n + 3 * m + i;
          double *r = &vals[at];
          std::fill(r, r + 15, 0.0);
          double derr[2] = {row == 0 ? 1.0 : 0.0, row == 1 ? 1.0 : 0.0};
          gb_ba_grad(C + 11 * (i % n), X + 3 * (i % m), &w[i], &feats[2 * i], err, r, r + 11, r + 14, derr);
        }
      for (int i = 0; i < p; ++i) {
        rowStart[2 * p + i + 1] = 30 * p + i + 1;
        cols[30 * p + i] = 11 * n + 3 * m + i;
        vals[30 * p + i] = -2.0 * w[i];
      }
    });
    auto abridged = [](const auto &v) {
      std::vector<typename std::decay_t<decltype(v)>::value_type> out(v.begin(), v.begin() + 30);
      out.push_back(v.back());
      return out;
    };
    output = {{"rows", abridged(rowStart)}, {"cols", abridged(cols)}, {"vals", abridged(vals)}};
  } else throw std::runtime_error("unknown function " + function);
  return {output, timings};
}

// ht: GradBench's HTInput (theta, us: N x 2 or empty, data: model, correspondences, points);
// the objective's 3 N residuals, or the 3 N x (26, or 2 + 26 with us) Jacobian as rows.
std::pair<json, json> evaluateHt(const std::string &function, const json &in) {
  const json &data = in.at("data"), &model = data.at("model");
  const std::vector<double> theta = in.at("theta").get<std::vector<double>>();
  if (theta.size() != 26) throw std::runtime_error("ht: theta has not 26 values");
  int r, w;
  std::vector<double> us = flatten(in.value("us", json::array()), r, w);
  const std::vector<double> observed = flatten(data.at("points"), r, w);
  const std::vector<int> corr = data.at("correspondences").get<std::vector<int>>();
  const std::vector<int> parents = model.at("parents").get<std::vector<int>>();
  const int bones = int(parents.size()), points = int(corr.size());
  auto matrices = [](const json &list) { // bones x 4 x 4, row-major
    std::vector<double> flat;
    for (const auto &matrix : list)
      for (const auto &row : matrix)
        for (const auto &v : row) flat.push_back(v.get<double>());
    return flat;
  };
  const std::vector<double> relatives = matrices(model.at("base_relatives"));
  const std::vector<double> inverses = matrices(model.at("inverse_base_absolutes"));
  std::vector<double> positions;
  for (const auto &row : model.at("base_positions"))
    for (int k = 0; k < 3; ++k) positions.push_back(row.at(k).get<double>());
  const std::vector<double> weights = flatten(model.at("weights"), r, w);
  std::vector<int> triangles;
  for (const auto &t : model.at("triangles"))
    for (const auto &v : t) triangles.push_back(v.get<int>());
  const int vertices = int(positions.size() / 3);
  if (bones < 22 || relatives.size() != 16u * bones || inverses.size() != 16u * bones ||
      weights.size() != size_t(vertices) * bones || observed.size() != 3u * points ||
      (!us.empty() && us.size() != 2u * points))
    throw std::runtime_error("ht: inconsistent shapes");
  HtProblem problem;
  problem.model = {bones, vertices, parents.data(), relatives.data(), inverses.data(), positions.data(),
                   weights.data(), triangles.data(), model.value("is_mirrored", false)};
  problem.points = points;
  problem.correspondences = corr.data();
  problem.observed = observed.data();
  problem.us = us.empty() ? nullptr : us.data();
  json output, timings;
  std::vector<double> err(3 * points);
  if (function == "objective") {
    timings = timed(in, [&] { ht_objective(problem, theta.data(), err.data()); });
    output = err;
  } else if (function == "jacobian") {
    const int columns = (us.empty() ? 0 : 2) + 26;
    std::vector<double> J(size_t(3) * points * columns);
    timings = timed(in, [&] { unfad_ht_jacobian(problem, theta.data(), J.data()); });
    output = rows(J.data(), 3 * points, columns);
  } else throw std::runtime_error("unknown function " + function);
  return {output, timings};
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
      std::vector<double> g(k * d), h(k * d);
      timings = timed(in, [&] {
        std::fill(g.begin(), g.end(), 0.0);
        gb_kmeans_grad(p.data(), c.data(), n, k, d, g.data());
        std::fill(h.begin(), h.end(), 0.0);
        gb_kmeans_curvature_grad(p.data(), c.data(), n, k, d, h.data()); // the Hessian's diagonal
        for (int i = 0; i < k * d; ++i) g[i] /= h[i];
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
  } else if (module == "ba") {
    std::tie(output, timings) = evaluateBa(function, in);
  } else if (module == "ht") {
    std::tie(output, timings) = evaluateHt(function, in);
  } else throw std::runtime_error("unknown module " + module);
  return {output, timings};
}

} // namespace

int main() {
  const std::set<std::string> modules = {"lse", "llsq", "det", "ode", "kmeans", "gmm", "lstm", "ba", "ht"};
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
