// The front end's description of a parameter's or the return's C++ type for
// the printer (ir::CxxType): computed from Clang's type, so that the printer
// never parses a spelling.
#pragma once

#include "unfad/ir/ir.h"

#include <string>

namespace clang {
class ASTContext;
class QualType;
struct PrintingPolicy;
} // namespace clang

namespace unfad::frontend {

// `type` as the printer needs it. With `fullyQualified` every name in the
// spellings is spelled from the global namespace (a helper's pullback may be
// emitted in another namespace than the helper); otherwise as written (a
// marked function's gradient sits right after it).
// "(anonymous namespace)::" removed from a qualified name: generated code
// sits in the same translation unit, where the plain name reaches it.
std::string stripAnon(std::string s);

ir::CxxType describeCxxType(clang::QualType type, clang::ASTContext &ctx, const clang::PrintingPolicy &policy,
                            bool fullyQualified);

} // namespace unfad::frontend
