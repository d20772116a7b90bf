// Text parameters: a loss chosen by a `const std::string&` (`kind == "l1"`),
// a helper given the text (lowered into its caller's loop) and a literal
// (`penalty(v, "huber")`, built as a std::string so the helper compares
// strings), numbers read from text (`kind[0]` in a switch, `kind.size()`),
// an exception whose message holds the text (f_grad throws it as f does),
// C strings (`const char*`, strcmp), and passive library objects (a
// `std::map` of options read by key, a `std::vector<std::string>` of names
// indexed by the loop counter), and local text (`std::string tag = "[" +
// mode + "]";`). The gradients against central differences,
// for each kind.
// RUN: cp %s %t.cpp && %unfad -i %t.cpp -- -std=c++17 -I%unfad_include -I%S/Inputs
// RUN: %cxx -std=c++17 -O1 -I%unfad_include -I%S/Inputs %t.cpp -o %t.exe && %t.exe | FileCheck %s
// RUN: grep -v '^// *[A-Z-]*:' %t.cpp | FileCheck %s --check-prefix=CODE
// CHECK: loss ok
// CHECK-NEXT: threw unknown loss 'cubic'
// CHECK: total ok
// CHECK: fixed ok
// CHECK: picked ok
// CHECK: knobbed ok
// CHECK: scaled ok
// CHECK: c_string ok
// CHECK: options ok
// CHECK: locals ok
// CODE-LABEL: double loss_grad(const std::vector<double>& r, const std::string& kind, std::vector<double>& d_r) {
// CODE:         const bool {{[a-z_0-9]+}} = (kind == "l1");
// CODE-LABEL: double fixed_grad(
// CODE:         std::string("huber")
// CODE-LABEL: double c_loss_grad(const std::vector<double>& r, const char* kind, std::vector<double>& d_r) {
// CODE:         (std::strcmp(kind, "l1") == 0)
// CODE-LABEL: double options_grad(const std::vector<double>& x, const std::map<std::string, double>& opts, const std::vector<std::string>& names, std::vector<double>& d_x) {
// CODE:         names[static_cast<unsigned long>({{[a-z_0-9]+}})] == "skip")
// CODE:         (opts.at("scale"))
// CODE-LABEL: double tagged_grad(
// CODE:         const auto unit = static_cast<const char *>({{[a-z_0-9]+}} ? "km" : "m");
// CODE-NEXT:    const auto tag = std::string("[" + mode + "]");
// CODE:         const auto key = std::string(tag + std::to_string(
#include <unfad/unfad.h>

#include "gradient_check.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

UNFAD_GRADIENT double loss(const std::vector<double>& r, const std::string& kind) {
  double s = 0;
  for (double v : r) {
    if (kind == "l1") s += std::abs(v);
    else if (kind == "huber") s += std::abs(v) < 1 ? 0.5 * v * v : std::abs(v) - 0.5;
    else if (kind == "l2") s += v * v;
    else throw std::invalid_argument("unknown loss '" + kind + "'");
  }
  return s;
}

static double penalty(double v, const std::string& kind) {
  if (kind == "huber") return std::abs(v) < 1 ? 0.5 * v * v : std::abs(v) - 0.5;
  if (kind == "log") return std::log(1 + v * v);
  return v * v;
}

UNFAD_GRADIENT double total(const std::vector<double>& x, const std::string& kind) {
  double s = 0;
  for (double v : x) s += penalty(v, kind);
  return s;
}

// A reference to an element of x chosen by the text: an ordinary
// reference, not a name of passive data.
UNFAD_GRADIENT double picked(const std::vector<double>& x, const std::string& kind) {
  const double& x0 = x[kind.size()];
  return x0 * std::sin(x0);
}

// An object argument built from the text and a value of x (by a
// constructor): an ordinary argument, not passive data.
struct Knob {
  Knob(double g, int o) : gain(g), order(o) {}
  double gain;
  int order;
};

static double knob_power(double v, const Knob& k) { return k.gain * std::pow(v, k.order); }

UNFAD_GRADIENT double knobbed(const std::vector<double>& x, const std::string& kind) {
  double s = 0;
  for (double v : x) s += knob_power(v, Knob{x[0], static_cast<int>(kind.size())});
  return s;
}

UNFAD_GRADIENT double fixed(const std::vector<double>& x) {
  double s = 0;
  for (double v : x) s += penalty(v, "huber") + 0.1 * penalty(2 * v, "log");
  return s;
}

UNFAD_GRADIENT double scaled(const std::vector<double>& x, const std::string& unit) {
  double f = 1.0;
  switch (unit.empty() ? 'm' : unit[0]) {
  case 'k': f = 1000.0; break;
  case 'c': f = 0.01; break;
  default: break;
  }
  double s = 0;
  for (double v : x) s += std::sin(v) * f / static_cast<double>(unit.size() + 1);
  return s;
}

// The same with C strings: `const char*` text, compared with strcmp, its
// first character read, and a literal given to a helper's `const char*`.
static double c_penalty(double v, const char* kind) {
  return std::strcmp(kind, "log") == 0 ? std::log(1 + v * v) : v * v;
}

UNFAD_GRADIENT double c_loss(const std::vector<double>& r, const char* kind) {
  double s = 0;
  for (double v : r) {
    if (std::strcmp(kind, "l1") == 0) s += std::abs(v);
    else if (kind[0] == 'h') s += std::abs(v) < 1 ? 0.5 * v * v : std::abs(v) - 0.5;
    else s += c_penalty(v, kind) + 0.5 * c_penalty(v, "log");
  }
  return s;
}

// Passive library objects: a map of options read by key (in a helper too)
// and a list of names indexed by the loop's counter.
static double weighted(double v, const std::map<std::string, double>& opts) {
  return opts.count("w") ? opts.at("w") * v * v : v * v;
}

UNFAD_GRADIENT double options(const std::vector<double>& x, const std::map<std::string, double>& opts,
                              const std::vector<std::string>& names) {
  double s = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (i < names.size() && names[i] == "skip") continue;
    s += weighted(x[i], opts) + opts.at("scale") * std::sin(x[i]);
  }
  return s;
}

// Local text: a reference to the parameter, a C string chosen by an
// integer, a std::string built from text, and one built per iteration from
// the counter (`std::to_string`), compared and used in a message.
UNFAD_GRADIENT double tagged(const std::vector<double>& x, const std::string& mode, int level) {
  const std::string& m = mode;
  const char* unit = level > 1 ? "km" : "m";
  std::string tag = "[" + m + "]";
  double s = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    std::string key = tag + std::to_string(i % 2);
    if (key == "[abs]1") s += std::abs(x[i]);
    else s += x[i] * x[i] * (std::strcmp(unit, "km") == 0 ? 1000.0 : 1.0);
  }
  if (!(s >= 0)) throw std::domain_error(tag + " not a number");
  return s;
}

int main() {
  const std::vector<double> x = {0.3, -1.7, 2.2, -0.4, 0.9};
  bool ok = true;
  for (std::string kind : {"l1", "huber", "l2"})
    ok = ok && check([&](const std::vector<double>& v) { return loss(v, kind); },
                     [&](const std::vector<double>& v, std::vector<double>& d) { return loss_grad(v, kind, d); }, x);
  std::printf("loss %s\n", ok ? "ok" : "wrong");
  try {
    std::vector<double> d(x.size(), 0.0);
    loss_grad(x, "cubic", d);
  } catch (const std::invalid_argument &e) {
    std::printf("threw %s\n", e.what());
  }
  ok = true;
  for (std::string kind : {"huber", "log", "l2"})
    ok = ok && check([&](const std::vector<double>& v) { return total(v, kind); },
                     [&](const std::vector<double>& v, std::vector<double>& d) { return total_grad(v, kind, d); }, x);
  std::printf("total %s\n", ok ? "ok" : "wrong");
  ok = check([](const std::vector<double>& v) { return fixed(v); },
             [](const std::vector<double>& v, std::vector<double>& d) { return fixed_grad(v, d); }, x);
  std::printf("fixed %s\n", ok ? "ok" : "wrong");
  ok = true;
  for (std::string kind : {"", "ab", "abcd"})
    ok = ok && check([&](const std::vector<double>& v) { return picked(v, kind); },
                     [&](const std::vector<double>& v, std::vector<double>& d) { return picked_grad(v, kind, d); }, x);
  std::printf("picked %s\n", ok ? "ok" : "wrong");
  ok = true;
  for (std::string kind : {"a", "ab", "abc"})
    ok = ok && check([&](const std::vector<double>& v) { return knobbed(v, kind); },
                     [&](const std::vector<double>& v, std::vector<double>& d) { return knobbed_grad(v, kind, d); }, x);
  std::printf("knobbed %s\n", ok ? "ok" : "wrong");
  ok = true;
  for (std::string unit : {"km", "cm", "", "m"})
    ok = ok && check([&](const std::vector<double>& v) { return scaled(v, unit); },
                     [&](const std::vector<double>& v, std::vector<double>& d) { return scaled_grad(v, unit, d); }, x);
  std::printf("scaled %s\n", ok ? "ok" : "wrong");
  ok = true;
  for (const char* kind : {"l1", "huber", "log", "l2"})
    ok = ok && check([&](const std::vector<double>& v) { return c_loss(v, kind); },
                     [&](const std::vector<double>& v, std::vector<double>& d) { return c_loss_grad(v, kind, d); }, x);
  std::printf("c_string %s\n", ok ? "ok" : "wrong");
  ok = true;
  const std::vector<std::string> names = {"a", "skip", "c"};
  for (const std::map<std::string, double>& opts :
       {std::map<std::string, double>{{"scale", 2.0}}, std::map<std::string, double>{{"scale", -0.5}, {"w", 3.0}}})
    ok = ok && check([&](const std::vector<double>& v) { return options(v, opts, names); },
                     [&](const std::vector<double>& v, std::vector<double>& d) { return options_grad(v, opts, names, d); }, x);
  std::printf("options %s\n", ok ? "ok" : "wrong");
  ok = true;
  for (std::string mode : {"abs", "sq"})
    for (int level : {1, 2})
      ok = ok && check([&](const std::vector<double>& v) { return tagged(v, mode, level); },
                       [&](const std::vector<double>& v, std::vector<double>& d) { return tagged_grad(v, mode, level, d); }, x);
  std::printf("locals %s\n", ok ? "ok" : "wrong");
}
