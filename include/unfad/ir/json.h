// JSON form of the IR (the `--dump-format=json` output). Round-trips:
// fromJson(toJson(x)) prints identically to x.
#pragma once

#include "unfad/ir/ir.h"
#include <nlohmann/json.hpp>

namespace unfad::ir {

nlohmann::json toJson(const TypeP &t);
nlohmann::json toJson(const Expr &e);
nlohmann::json toJson(const Function &f);
nlohmann::json toJson(const Program &p);

TypeP typeFromJson(const nlohmann::json &j);
Expr exprFromJson(const nlohmann::json &j);
Function functionFromJson(const nlohmann::json &j);
Program programFromJson(const nlohmann::json &j);

} // namespace unfad::ir
