# lit configuration for unfad's golden tests (test/lit/**).
#
# Run through ctest (test "lit"), or by hand after configuring:
#   python3 /usr/lib/llvm-19/build/utils/lit/lit.py -sv build/test/lit
#
# Substitutions:
#   %unfad          build/bin/unfad
#   %unfad-opt      build/bin/unfad-opt (the optimiser's passes on IR)
#   %unfad_include  the repository's include/ directory (for -I)
#   %cxx            g++
#   %clangxx        clang++ of LLVM 19
#   %e2e            python3 test/e2e/run_e2e.py (the end-to-end harness)
#   %python         python3
#   FileCheck, not  LLVM 19's
import os
import shutil

import lit.formats

config.name = "unfad"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cpp", ".test"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
# Files beside lit.cfg.py that are not tests.
config.excludes = ["lit.cfg.py", "lit.site.cfg.py.in", "Inputs"]

if not hasattr(config, "unfad_source_dir"):
    lit_config.fatal(
        "run lit on the configured build directory (build/test/lit), not on the source tree"
    )

if not os.path.exists(config.unfad_tool):
    lit_config.warning(f"unfad not found at {config.unfad_tool}: build it first")

not_tool = config.not_tool
if not os.path.exists(not_tool):
    lit_config.fatal(f"'not' not found at {not_tool}")

# Longest names first: lit applies substitutions in order.
config.substitutions.append(("%unfad_include", config.unfad_include_dir))
config.substitutions.append(("%unfad-opt", config.unfad_opt_tool))
config.substitutions.append(("%unfad", config.unfad_tool))
config.substitutions.append(("%clangxx", config.clangxx))
config.substitutions.append(("%cxx", config.cxx))
config.substitutions.append(("%e2e", f"{config.python} {config.e2e_script} --unfad "
                             f"{config.unfad_tool} --include {config.unfad_include_dir}"))
config.substitutions.append(("%python", config.python))
# As LLVM's ToolSubst: only whole words, not parts of paths or options.
config.substitutions.append((r"(?<![\w.\-/])FileCheck(?![\w.\-/])", config.filecheck))
config.substitutions.append((r"(?<![\w.\-/])not(?![\w.\-/])", not_tool))

# A clean environment: no user-specific compiler flags leak into the tests.
for var in ("CPATH", "CPLUS_INCLUDE_PATH", "CXXFLAGS"):
    config.environment.pop(var, None)
