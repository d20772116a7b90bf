#!/usr/bin/env python3
"""Tests of the clang plugin (build/lib/unfad-plugin.so).

    plugin_test.py --plugin P --clangxx clang++-19 --unfad build/bin/unfad <case>

Each case copies test/plugin/inputs/ into a fresh temporary directory and
compiles there, with relative file names (so the plugin is used from a
directory that is neither the source nor the build tree).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = os.path.join(HERE, "inputs")


class Failure(Exception):
    pass


def run(cmd, cwd, env=None, expect=0):
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    shown = " ".join(cmd)
    if expect == 0 and p.returncode != 0:
        raise Failure(f"command failed ({p.returncode}): {shown}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}")
    if expect == "fail" and p.returncode == 0:
        raise Failure(f"command should have failed: {shown}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}")
    return p


# <unfad/unfad.h>, for compiling the command's output without the plugin
INCLUDE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "include")


def check(cond, msg):
    if not cond:
        raise Failure(msg)


class Env:
    def __init__(self, args, tmp):
        self.a = args
        self.tmp = tmp
        self.plugin = ["-fplugin=" + args.plugin]

    def cxx(self, *flags, expect=0, env=None):
        return run([self.a.clangxx, "-std=c++17", *self.plugin, *flags], self.tmp, env=env, expect=expect)

    def path(self, name):
        return os.path.join(self.tmp, name)

    def read(self, name):
        with open(self.path(name)) as f:
            return f.read()


def case_run(e):
    """-c, link, run: f_grad exists and agrees with finite differences; a
    warning after the generated block points at the original line."""
    p = e.cxx("-Wall", "-c", "run.cpp", "-o", "run.o")
    check("run.cpp:28:7: warning: unused variable 'unused_after_the_block'" in p.stderr,
          "the warning after the generated block is not at run.cpp:28:7:\n" + p.stderr)
    run([e.a.clangxx, "run.o", "-o", "run"], e.tmp)
    out = run([e.path("run")], e.tmp).stdout
    print(out)
    check("PASSED" in out, "gradient check failed")
    check("unfad:begin" not in e.read("run.cpp"), "the plugin wrote to the source")


def case_forward(e):
    """UNFAD_JVP through the plugin: f_jvp in the same translation unit, checked
    against finite differences and a reverse-mode gradient; nothing written."""
    e.cxx("-Wall", "-Werror", "forward.cpp", "-o", "forward")
    out = run([e.path("forward")], e.tmp).stdout
    print(out)
    check("PASSED" in out, "jvp check failed")
    check("unfad:begin" not in e.read("forward.cpp"), "the plugin wrote to the source")


def case_modes(e):
    """-S, -fsyntax-only, -MD and -E keep working with the plugin loaded."""
    e.cxx("-S", "run.cpp", "-o", "run.s")
    asm = e.read("run.s")
    check("_Z6f_graddd" in asm and ".text" in asm, "-S output has no f_grad")
    e.cxx("-fsyntax-only", "run.cpp")
    check(not os.path.exists(e.path("run.o")), "-fsyntax-only wrote an object")
    e.cxx("-MD", "-c", "header.cpp", "-o", "header.o")
    deps = e.read("header.d")
    check(deps.startswith("header.o:") and "inc/model.h" in deps and "fdcheck.h" in deps,
          "-MD wrote a wrong .d file:\n" + deps)
    check(os.path.getsize(e.path("header.o")) > 0, "-MD -c wrote no object")
    # -E: the preprocessed output contains the generated code (documented).
    pre = e.cxx("-E", "run.cpp").stdout
    check(re.search(r"double f_grad\(double x, double y, double\* d_x, double\* d_y\)", pre),
          "-E output has no f_grad definition")
    pre = e.cxx("-E", "-C", "header.cpp").stdout
    check(pre.count("// unfad:begin model_grad") == 1, "-E -C: expected one model_grad block")
    # and the preprocessed output compiles without the plugin
    with open(e.path("run.ii"), "w") as f:
        f.write(e.cxx("-E", "run.cpp").stdout)
    run([e.a.clangxx, "-std=c++17", "run.ii", "-o", "run_from_ii"], e.tmp)
    check("PASSED" in run([e.path("run_from_ii")], e.tmp).stdout, "-E output does not run correctly")
    # -E with -MD writes the dependency file too
    e.cxx("-E", "-MD", "-MF", "pre.d", "header.cpp", "-o", "header.ii")
    check("inc/model.h" in e.read("pre.d"), "-E -MD wrote a wrong .d file")


def case_header(e):
    """A marked function defined in an #included header."""
    e.cxx("header.cpp", "-o", "header")
    out = run([e.path("header")], e.tmp).stdout
    print(out)
    check("PASSED" in out, "gradient check failed")


def case_up_to_date(e):
    """A file that already has the blocks (`unfad -i`) is not duplicated; a
    stale block is replaced."""
    run([e.a.unfad, "-i", "run.cpp", "--", "-std=c++17"], e.tmp)
    text = e.read("run.cpp")
    check(text.count("// unfad:begin f_grad") == 1, "unfad -i did not write one block")
    pre = e.cxx("-E", "-C", "run.cpp").stdout
    check(pre.count("// unfad:begin f_grad") == 1, "the plugin duplicated an up-to-date block")
    e.cxx("run.cpp", "-o", "run")
    check("PASSED" in run([e.path("run")], e.tmp).stdout, "gradient check failed (up to date)")
    # make the block stale: a wrong derivative inside it
    stale = re.sub(r"(// unfad:begin f_grad\n)(.*?)(// unfad:end f_grad)",
                   lambda m: m.group(1) + "double f_grad(double x, double y, double* d_x, double* d_y) {\n"
                   "  *d_x += 42; *d_y += 42; return f(x, y);\n}\n" + m.group(3), text, flags=re.S)
    with open(e.path("run.cpp"), "w") as f:
        f.write(stale)
    e.cxx("run.cpp", "-o", "run")
    out = run([e.path("run")], e.tmp).stdout
    check("PASSED" in out, "the plugin compiled a stale block:\n" + out)
    check(e.read("run.cpp") == stale, "the plugin wrote to the source")


def case_second_order(e):
    """A marked function calling the gradient of another (second.cpp): both
    gradients exist in the one compile, the second checked against finite
    differences of the first; a warning after both blocks points at its
    line."""
    p = e.cxx("-Wall", "second.cpp", "-o", "second")
    check("second.cpp:25:7: warning: unused variable 'unused_after_the_blocks'" in p.stderr,
          "the warning after the generated blocks is not at second.cpp:25:7:\n" + p.stderr)
    out = run([e.path("second")], e.tmp).stdout
    print(out)
    check("PASSED" in out, "Hessian-vector product check failed")
    check("unfad:begin" not in e.read("second.cpp"), "the plugin wrote to the source")


def checked_both_ways(e, name):
    """Compiles `name`.cpp (whose main checks its gradients and prints PASSED)
    through the plugin and, as the command's output, by another run of the
    compiler; runs both. Returns the command's output text."""
    e.cxx("-Wall", "-Wextra", "-Werror", name + ".cpp", "-o", name + "_plugin")
    out = run([e.path(name + "_plugin")], e.tmp).stdout
    print(out)
    check("PASSED" in out and "MISMATCH" not in out, "gradient check failed (plugin)")
    gen = run([e.a.unfad, name + ".cpp", "--", "-std=c++17"], e.tmp).stdout
    with open(e.path(name + "_gen.cpp"), "w") as f:
        f.write(gen)
    run([e.a.clangxx, "-std=c++17", "-Wall", "-Wextra", "-Werror", "-I" + INCLUDE, name + "_gen.cpp",
         "-o", name + "_cmd"], e.tmp)
    check("PASSED" in run([e.path(name + "_cmd")], e.tmp).stdout, "gradient check failed (command output)")
    return gen


def case_class_params(e):
    """Objects of mirrored classes (a base class, a constructor that computes)
    as parameters of marked functions (class_params.cpp): through the plugin,
    and the command's output compiled by another run of the compiler."""
    checked_both_ways(e, "class_params")


def case_matrix_params(e):
    """A class owning a std::vector (a matrix with a constructor and
    accessors) as a parameter of a marked function and as a local built by
    its constructor (matrix_params.cpp): through the plugin, and the
    command's output compiled by another run of the compiler."""
    checked_both_ways(e, "matrix_params")


def case_methods(e):
    """Marked member functions and a functor's operator() (methods.cpp): their
    gradients are members, declared in the class and defined after it; the
    same through the plugin, the command's output compiled by another run of
    the compiler, and `unfad -i` twice (the second run changes nothing, and
    the plugin neither duplicates nor rewrites the blocks)."""
    gen = checked_both_ways(e, "methods")
    run([e.a.unfad, "-i", "methods.cpp", "--", "-std=c++17"], e.tmp)
    once = e.read("methods.cpp")
    check(once == gen, "unfad -i wrote other text than unfad printed")
    for block in ("fit::Model::loss_grad", "fit::Model::penalty_grad", "fit::Model::advance_grad",
                  "fit::Gaussian::grad", "fit::Outer::Spring::energy_grad"):
        block = block.split("::", 1)[1]
        check(once.count("// unfad:begin " + block + " ") == 1 and
              once.count("// unfad:begin " + block + ":declaration ") == 1,
              "expected one definition and one declaration block of " + block)
    run([e.a.unfad, "-i", "methods.cpp", "--", "-std=c++17"], e.tmp)
    check(e.read("methods.cpp") == once, "a second unfad -i changed the file")
    run([e.a.unfad, "--check", "methods.cpp", "--", "-std=c++17"], e.tmp)
    pre = e.cxx("-E", "-C", "methods.cpp").stdout
    check(pre.count("// unfad:begin Model::loss_grad ") == 1, "the plugin duplicated an up-to-date block")
    e.cxx("methods.cpp", "-o", "methods_again")
    check("PASSED" in run([e.path("methods_again")], e.tmp).stdout, "gradient check failed (after unfad -i)")


def case_templates(e):
    """Marked methods of class templates (templates.cpp): one gradient per
    specialization the file uses, declared in the template and defined after
    it as an explicit specialization; through the plugin, the command's output
    compiled by another run of the compiler, and `unfad -i` twice."""
    gen = checked_both_ways(e, "templates")
    run([e.a.unfad, "-i", "templates.cpp", "--", "-std=c++17"], e.tmp)
    once = e.read("templates.cpp")
    check(once == gen, "unfad -i wrote other text than unfad printed")
    for block in ("Spring<double>::energy_grad", "Spring<float>::energy_grad", "Damped<4>::run_grad",
                  "Gauss<double>::nll_grad", "Cubic<double>::grad", "rosen_grad<double>", "rosen_grad<float>"):
        check(once.count("// unfad:begin " + block + " ") == 1 and
              once.count("// unfad:begin " + block + ":declaration ") == (0 if block.startswith("rosen") else 1),
              "expected one definition and one declaration block of " + block)
    check("template <> inline double Spring<double>::energy_grad(" in once, "no explicit specialization:\n" + once)
    run([e.a.unfad, "-i", "templates.cpp", "--", "-std=c++17"], e.tmp)
    check(e.read("templates.cpp") == once, "a second unfad -i changed the file")
    run([e.a.unfad, "--check", "templates.cpp", "--", "-std=c++17"], e.tmp)
    e.cxx("templates.cpp", "-o", "templates_again")
    check("PASSED" in run([e.path("templates_again")], e.tmp).stdout, "gradient check failed (after unfad -i)")


def case_diagnostics(e):
    """Unsupported constructs fail the compile with the diagnostic at the construct."""
    p = e.cxx("-c", "goto.cpp", "-o", "goto.o", expect="fail")
    check(re.search(r"^goto\.cpp:5:14: error: cannot differentiate 'f': .*goto", p.stderr, re.M),
          "no diagnostic at goto.cpp:5:14:\n" + p.stderr)
    check(not os.path.exists(e.path("goto.o")), "an object was written despite the error")
    p = e.cxx("-fsyntax-only", "nobody.cpp", expect="fail")
    check(re.search(r"^nobody\.cpp:6:\d+: error: cannot differentiate 'g': ", p.stderr, re.M),
          "no diagnostic at nobody.cpp:6:\n" + p.stderr)
    p = e.cxx("-fsyntax-only", "bad_header.cpp", expect="fail")
    check(re.search(r"^\./inc/bad_header\.h:7:\d+: error: cannot differentiate 'h': |"
                    r"^inc/bad_header\.h:7:\d+: error: cannot differentiate 'h': ", p.stderr, re.M),
          "no diagnostic at inc/bad_header.h:7:\n" + p.stderr)
    # the command reports the same diagnostics
    c = run([e.a.unfad, "goto.cpp", "--", "-std=c++17"], e.tmp, expect="fail")
    check("goto.cpp:5:14: error: cannot differentiate 'f'" in c.stderr, "the command's diagnostic differs:\n" + c.stderr)
    p = e.cxx("-fsyntax-only", "nobody.cpp", expect="fail")
    c = run([e.a.unfad, "nobody.cpp", "--", "-std=c++17"], e.tmp, expect="fail")
    pl = re.search(r"nobody\.cpp:\d+:\d+: error: .*", p.stderr).group(0)
    check(pl in c.stderr, "the command's diagnostic differs from the plugin's:\n" + c.stderr + "\n" + p.stderr)


def case_arguments(e):
    """-fplugin-arg-unfad-...: dump works; malformed arguments fail with a clear error."""
    p = e.cxx("-fsyntax-only", "-fplugin-arg-unfad-dump=optimized", "run.cpp")
    check("def f" in p.stderr or "f(" in p.stderr, "dump=optimized printed nothing:\n" + p.stderr)
    p = e.cxx("-fsyntax-only", "-fplugin-arg-unfad-dump=ir", "-fplugin-arg-unfad-dump-format=json", "run.cpp")
    check(p.stderr.lstrip().startswith(("{", "[")), "dump-format=json printed no JSON:\n" + p.stderr[:300])
    for bad, msg in [("bogus", "unfad plugin: unknown argument '-fplugin-arg-unfad-bogus'"),
                     ("dump=nonsense", "unfad plugin: unknown dump stage 'nonsense'"),
                     ("dump-format=xml", "unfad plugin: unknown dump format 'xml'")]:
        for mode in (["-c", "-o", "x.o"], ["-E", "-o", "x.ii"]):
            p = e.cxx(*mode, "-fplugin-arg-unfad-" + bad, "run.cpp", expect="fail")
            check(("error: " + msg) in p.stderr, f"no clear error for '{bad}' ({mode[0]}):\n" + p.stderr)


def case_no_clang_libs(e):
    """The plugin links no Clang/LLVM library: clang provides the symbols."""
    needed = run(["readelf", "-d", e.a.plugin], e.tmp).stdout
    libs = re.findall(r"\(NEEDED\)\s+Shared library: \[(.*?)\]", needed)
    print("NEEDED:", libs)
    check(not any("clang" in l.lower() or "llvm" in l.lower() for l in libs), "the plugin links Clang/LLVM: %s" % libs)
    undef = run(["nm", "-D", "--undefined-only", e.a.plugin], e.tmp).stdout
    check("_ZN5clang" in undef, "no undefined clang symbols: the plugin must take them from clang")


def case_version(e):
    """The plugin refuses to load into a clang of another major version."""
    env = dict(os.environ, UNFAD_PLUGIN_TEST_CLANG_VERSION="clang version 18.1.8")
    p = e.cxx("-c", "run.cpp", "-o", "run.o", env=env, expect="fail")
    check("error: unfad-plugin.so was built for Clang 19" in p.stderr and "clang version 18.1.8" in p.stderr,
          "no clear version error:\n" + p.stderr)
    other = shutil.which("clang++-14")
    if other:
        p = run([other, "-fplugin=" + e.a.plugin, "-c", "run.cpp", "-o", "run14.o"], e.tmp, expect="fail")
        print(p.stderr)
        check("unfad-plugin.so was built for Clang 19" in p.stderr or "unable to load plugin" in p.stderr,
              "clang++-14 did not refuse the plugin clearly:\n" + p.stderr)


CASES = {n[5:]: f for n, f in globals().items() if n.startswith("case_")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--clangxx", required=True)
    ap.add_argument("--unfad", required=True)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("case", choices=sorted(CASES))
    a = ap.parse_args()
    a.plugin = os.path.abspath(a.plugin)
    a.unfad = os.path.abspath(a.unfad)
    tmp = tempfile.mkdtemp(prefix="unfad-plugin-")
    shutil.copytree(INPUTS, tmp, dirs_exist_ok=True)
    try:
        CASES[a.case](Env(a, tmp))
    except Failure as f:
        print("FAIL:", f)
        print("files kept in", tmp)
        return 1
    if not a.keep:
        shutil.rmtree(tmp)
    print("PASS:", a.case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
