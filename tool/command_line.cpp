#include "command_line.h"
#include "unfad/ad/reverse.h"
#include "unfad/opt/passes.h"

#include <clang/Tooling/ArgumentsAdjusters.h>
#include <clang/Tooling/CommonOptionsParser.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cstring>

namespace cl = llvm::cl;
using clang::tooling::ArgumentsAdjustingCompilations;
using clang::tooling::CommonOptionsParser;
using clang::tooling::CompilationDatabase;
using clang::tooling::FixedCompilationDatabase;

namespace unfad::tool {
namespace {

// Every option is in one category: CommonOptionsParser hides all options of
// other categories (LLVM's own) except the generic ones (--help, --version).
cl::OptionCategory unfadCategory("unfad options");

// An option whose value is one of a list, with an error that names what was
// expected ("unknown dump stage 'x' (expected ir, unf, ...)").
template <class T, const char *Noun> class NamedValueParser : public cl::parser<T> {
public:
  using cl::parser<T>::parser;
  bool parse(cl::Option &option, llvm::StringRef name, llvm::StringRef arg, T &value) {
    std::string expected;
    for (unsigned i = 0; i < this->getNumOptions(); ++i) {
      if (arg == this->getOption(i)) return cl::parser<T>::parse(option, name, arg, value);
      expected += (i ? ", " : "") + std::string(this->getOption(i));
    }
    return option.error(std::string("unknown ") + Noun + " '" + arg.str() + "' (expected " + expected + ")");
  }
};
constexpr char kDumpStage[] = "dump stage";
constexpr char kDumpFormat[] = "dump format";

cl::opt<bool> inPlace("i", cl::desc("Rewrite the files in place (and the files they include, under their\n"
                                    "directory, that hold marked functions)"),
                      cl::cat(unfadCategory));
cl::opt<std::string> output("o", cl::desc("Write the rewritten (single) input to <file>"), cl::value_desc("file"),
                            cl::Prefix, cl::cat(unfadCategory));
cl::opt<std::string> depfile("depfile", cl::desc("With -o: also write a Makefile-style dependency file"),
                             cl::value_desc("file"), cl::cat(unfadCategory));
cl::opt<bool> lineDirectives("line-directives",
                             cl::desc("With -o: add #line directives, so that diagnostics and debuggers\n"
                                      "point at the original file (the CMake step uses this)"),
                             cl::cat(unfadCategory));
cl::opt<bool> check("check", cl::desc("Change nothing; exit 1 when generated code is missing, stale or edited"),
                    cl::cat(unfadCategory));
cl::opt<bool> tapeNestedLoops("tape-nested-loops",
                              cl::desc("Tape the inner loops of a time-stepping loop per step instead of\n"
                                       "recomputing each step in the backward loop (default; =false turns it\n"
                                       "off; README, \"How it works\")"),
                              cl::init(true), cl::cat(unfadCategory));
cl::opt<bool> force("force", cl::desc("Overwrite generated blocks that were edited by hand"), cl::cat(unfadCategory));
cl::opt<bool> numericalFallback("numerical-fallback",
                                cl::desc("Differentiate calls of functions without a visible body (and without "
                                         "UNFAD_CUSTOM_GRADIENT) by central differences, with a warning"),
                                cl::cat(unfadCategory));
cl::opt<DumpStage, false, NamedValueParser<DumpStage, kDumpStage>>
    dumpStage("dump", cl::desc("Print a pipeline stage of every marked function instead"), cl::value_desc("stage"),
              cl::values(clEnumValN(DumpStage::IR, "ir", "the typed IR of the source"),
                         clEnumValN(DumpStage::UNF, "unf", "Unary Normal Form"),
                         clEnumValN(DumpStage::Reverse, "reverse", "the reverse-mode program, with continuations"),
                         clEnumValN(DumpStage::Optimized, "optimized", "after the optimiser")),
              cl::cat(unfadCategory));
cl::opt<std::string> dumpAfter("dump-after",
                               cl::desc("Print the program after the optimiser pass <pass> instead (the passes,\n"
                                        "in pipeline order: `unfad-opt --list-passes`)"),
                               cl::value_desc("pass"), cl::cat(unfadCategory));
enum class DumpFormat { Text, Json };
cl::opt<DumpFormat, false, NamedValueParser<DumpFormat, kDumpFormat>>
    dumpFormat("dump-format", cl::desc("The format of --dump and --dump-after"), cl::value_desc("format"),
             cl::values(clEnumValN(DumpFormat::Text, "text", "text (default)"), clEnumValN(DumpFormat::Json, "json", "JSON")),
             cl::cat(unfadCategory));

cl::extrahelp modesHelp(R"(
Without -i, -o, --check or --dump, unfad prints the rewritten files to standard
output and changes nothing. A marked function in a file that an input includes
gets its block in that file: -i writes it there when the file lies under the
input's directory (and --check checks it); otherwise, or with -o or standard
output, the block must be there already, and unfad says what to run.
)");
cl::extrahelp databaseHelp(CommonOptionsParser::HelpMessage);
cl::extrahelp defaultFlagsHelp(R"(Without `--`, -p or a compile_commands.json in a parent directory of the first
source, unfad compiles with -std=c++17. It finds Clang's builtin headers and
<unfad/unfad.h> itself.
)");

int usageError(const std::string &message) {
  llvm::errs() << "unfad: error: " << message << "\n"
               << "run 'unfad --help' for usage\n";
  return 1;
}

// The build directory given with -p (an option of CommonOptionsParser's).
std::string buildPath() {
  auto &options = cl::getRegisteredOptions();
  auto it = options.find("p");
  if (it == options.end() || it->second->getNumOccurrences() == 0) return "";
  return static_cast<cl::opt<std::string> *>(it->second)->getValue();
}

// Without `--`: the compile_commands.json of -p, else the one found by
// walking up from the first source, else -std=c++17. A -p without a
// database is an error (CommonOptionsParser would only warn, and run without
// flags).
std::unique_ptr<CompilationDatabase> detectDatabase(const std::string &firstSource, std::string &error) {
  std::string build = buildPath();
  std::unique_ptr<CompilationDatabase> db;
  if (!build.empty()) {
    db = CompilationDatabase::autoDetectFromDirectory(build, error);
    if (!db) return nullptr;
  } else {
    std::string ignored; // no database: the default flags
    db = CompilationDatabase::autoDetectFromSource(firstSource, ignored);
    if (!db) return std::make_unique<FixedCompilationDatabase>(".", std::vector<std::string>{"-std=c++17"});
  }
  // Headers and new files are not in compile_commands.json: their flags are
  // those of a file nearby.
  return clang::tooling::inferMissingCompileCommands(std::move(db));
}

std::optional<int> checkModes(CommandLine &out) {
  bool dumping = dumpStage.getNumOccurrences() > 0 || dumpAfter.getNumOccurrences() > 0;
  int modes = int(inPlace) + int(check) + int(!output.empty()) + int(dumping);
  if (modes > 1) return usageError("'-i', '-o', '--check' and '--dump' exclude each other");
  if (dumpStage.getNumOccurrences() > 0 && dumpAfter.getNumOccurrences() > 0)
    return usageError("'--dump' and '--dump-after' exclude each other");
  if (dumpAfter.getNumOccurrences() > 0 && !isPassName(dumpAfter)) {
    std::string names;
    for (auto &n : opt::passNames()) names += (names.empty() ? "" : ", ") + n;
    return usageError("unknown optimiser pass '" + dumpAfter + "' (expected " + names + ")");
  }
  if (!output.empty() && out.files.size() != 1) return usageError("'-o' needs exactly one input file");
  if (!depfile.empty() && output.empty()) return usageError("'--depfile' needs '-o'");
  if (lineDirectives && output.empty()) return usageError("'--line-directives' needs '-o'");
  out.mode = inPlace                                  ? Mode::InPlace
             : check                                  ? Mode::Check
             : !output.empty()                        ? Mode::Output
             : dumping                                ? Mode::Dump
                                                      : Mode::Print;
  out.output = output;
  out.depfile = depfile;
  out.lineDirectives = lineDirectives;
  out.force = force;
  out.numericalFallback = numericalFallback;
  out.stage = dumpStage;
  out.dumpAfterPass = dumpAfter;
  out.json = dumpFormat == DumpFormat::Json;
  return std::nullopt;
}

} // namespace

std::optional<int> parseCommandLine(int argc, const char **argv, CommandLine &out) {
  cl::SetVersionPrinter([](llvm::raw_ostream &os) { os << "unfad 0.1.0\n"; });
  // CommonOptionsParser reads the flags after `--` as a fixed database. With
  // none, it is given an empty `--`, so that it never falls back on its own
  // (with a warning): detectDatabase() decides.
  std::vector<const char *> args(argv, argv + argc);
  auto dashDash = llvm::find_if(args, [](const char *a) { return std::strcmp(a, "--") == 0; });
  // -h is --help (an alias of cl's own --help option cannot be declared).
  std::replace_if(args.begin(), dashDash, [](const char *a) { return std::strcmp(a, "-h") == 0; }, "--help");
  bool haveFlags = dashDash != args.end();
  if (!haveFlags) args.push_back("--");
  int count = int(args.size());
  auto parser = CommonOptionsParser::create(count, args.data(), unfadCategory, cl::ZeroOrMore,
                                            "Writes the gradient f_grad of every function marked UNFAD_GRADIENT "
                                            "right after it.\n");
  if (!parser) {
    llvm::errs() << llvm::toString(parser.takeError());
    return 1;
  }
  out.files = parser->getSourcePathList();
  if (out.files.empty()) return usageError("no input file");
  if (auto exit = checkModes(out)) return exit;
  if (haveFlags) {
    out.database = &parser->getCompilations();
  } else {
    std::string error;
    std::unique_ptr<CompilationDatabase> found = detectDatabase(out.files.front(), error);
    if (!found) {
      llvm::errs() << "unfad: error: " << error << "\n";
      return 1;
    }
    auto adjusting = std::make_unique<ArgumentsAdjustingCompilations>(std::move(found));
    adjusting->appendArgumentsAdjuster(parser->getArgumentsAdjuster()); // --extra-arg(-before)
    out.detectedDatabase = std::move(adjusting);
    out.database = out.detectedDatabase.get();
  }
  out.parser = std::make_unique<CommonOptionsParser>(std::move(*parser));
  ad::setTapeNestedLoops(tapeNestedLoops);
  return std::nullopt;
}

} // namespace unfad::tool
