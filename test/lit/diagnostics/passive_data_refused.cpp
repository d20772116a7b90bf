// Passive data (golden/passive_data.cpp) carries no derivative and is read
// with integers only. Refused, located, with nothing written: such a
// parameter under plain UNFAD_GRADIENT when it holds floating-point values
// (the user would expect their derivatives) or named in
// UNFAD_GRADIENT_WRT, a method of it given a floating-point value, a
// range-based `for` over a map in it, a copy of it written later, and a
// loop variable over it written in the loop.
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
#include <unfad/unfad.h>
#include <map>
#include <string>
#include <vector>

struct Obs { double x, y; };
struct Dataset {
  std::string name;
  std::vector<Obs> obs;
  std::map<std::string, double> opts;
  double scale(double t) const { return t * opts.at("s"); }
};

// CHECK: passive_data_refused.cpp:[[@LINE+1]]:52: error: cannot differentiate 'all': 'd' (Dataset) holds text or a keyed container, so it is passive data, but UNFAD_GRADIENT differentiates every floating-point parameter: name the parameters to differentiate in UNFAD_GRADIENT_WRT(...), leaving 'd' out
UNFAD_GRADIENT double all(double w, const Dataset& d) { return w * d.obs[0].x; }

// CHECK: passive_data_refused.cpp:[[@LINE+1]]:64: error: cannot differentiate 'named': 'd' (Dataset) holds text or a keyed container, so it is passive data (its numbers are read as written, without derivatives): leave it out of UNFAD_GRADIENT_WRT
UNFAD_GRADIENT_WRT(w, d) double named(double w, const Dataset& d) { return w * d.obs[0].x; }

// CHECK: passive_data_refused.cpp:[[@LINE+1]]:76: error: cannot differentiate 'floaty': 'scale' of passive data is given 'w', which is not an integer: passive data is read with integers only (the result would need a derivative: read the numbers it uses and compute it in the function)
UNFAD_GRADIENT_WRT(w) double floaty(double w, const Dataset& d) { return d.scale(w); }

UNFAD_GRADIENT_WRT(w) double keyed(double w, const Dataset& d) {
  double s = 0;
// CHECK: passive_data_refused.cpp:[[@LINE+1]]:27: error: cannot differentiate 'keyed': range-based 'for' over passive data of type 'const std::map<std::string, double>' is not supported (only std::vector, std::array, std::deque and C arrays in it, which are read by position)
  for (const auto& kv : d.opts) s += kv.second * w;
  return s;
}

UNFAD_GRADIENT_WRT(w) double copied(double w, const Dataset& d) {
// CHECK: passive_data_refused.cpp:[[@LINE+1]]:11: error: cannot differentiate 'copied': a copy of passive data that is written later is not supported (bind a const reference)
  Dataset c = d;
  c.name = "x";
  return w * c.obs[0].x;
}

UNFAD_GRADIENT_WRT(w) double stepped(double w, const Dataset& d) {
  double s = 0;
// CHECK: passive_data_refused.cpp:[[@LINE+1]]:12: error: cannot differentiate 'stepped': the loop variable over passive data is written in the loop, which is not supported
  for (Obs o : d.obs) {
    o.x += 1;
    s += o.x * w;
  }
  return s;
}

// CHECK-NOT: unfad:begin

// A container of objects holding std::vectors is passive data too; named in
// UNFAD_GRADIENT_WRT, its derivatives are asked for and not yet supported.
struct Layer {
  std::vector<double> W, b;
  int in, out;
};
// CHECK: passive_data_refused.cpp:[[@LINE+1]]:82: error: cannot differentiate 'trained': 'layers' (std::vector<Layer>) is a container of objects holding std::vectors: derivatives with respect to it are not supported yet (hold its numbers in flat std::vectors, or leave it out of UNFAD_GRADIENT_WRT to read it as passive data, without derivatives)
UNFAD_GRADIENT_WRT(x, layers) double trained(double x, const std::vector<Layer>& layers) { return x * layers[0].W[0]; }

// A class with private members left out of UNFAD_GRADIENT_WRT is passive
// data (golden/passive_private_class.cpp); an object of it built from the
// function's values would be active, and is refused.
class Samples {
public:
  explicit Samples(double s) : s_(s) {}
  double at(int i) const { return s_ * i; }

private:
  double s_;
};

UNFAD_GRADIENT_WRT(w) double fromData(double w, const Samples& d) {
  // CHECK: passive_data_refused.cpp:[[@LINE+1]]:11: error: cannot differentiate 'fromData': 'made' is an object of 'Samples', a class of passive data here
  Samples made(w);
  return made.at(1) + d.at(2) * w;
}

// Named in UNFAD_GRADIENT_WRT: no derivative can be given for it.
// CHECK: passive_data_refused.cpp:[[@LINE+1]]:67: error: cannot differentiate 'mirrored': 'd' (Samples) has members that are not public (passive data where it is left out of UNFAD_GRADIENT_WRT): derivatives with respect to it are not supported yet
UNFAD_GRADIENT_WRT(w, d) double mirrored(double w, const Samples& d) { return d.at(2) * w; }
