#!/usr/bin/env python3
"""Tests of the CMake package (cmake/, find_package(Unfad), unfad_generate).

    cmake_test.py --build-dir <unfad build> installed
        cmake --install into a temporary prefix; configure, build and run
        test/cmake/downstream against it with find_package(Unfad); check the
        generated copies (#line), that touching a header regenerates exactly
        the source that includes it, and that a new unfad regenerates all.
    cmake_test.py --source-dir <unfad source> add_subdirectory
        configure the downstream project with add_subdirectory(<unfad source>)
        (UNFAD_BUILD_TESTS=OFF) and check the build graph with a dry run
        (building unfad a second time would take minutes): the generated
        copies are made by the in-tree unfad, which is built first.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DOWNSTREAM = os.path.join(HERE, "downstream")


class Failure(Exception):
    pass


def run(cmd, cwd=None):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        raise Failure(f"command failed ({p.returncode}): {' '.join(cmd)}\n{p.stdout}")
    return p.stdout


def check(cond, msg):
    if not cond:
        raise Failure(msg)


def generated_lines(out):
    return sorted(set(re.findall(r"unfad: generating (\S+)", out)))


def installed(a, tmp):
    prefix = os.path.join(tmp, "prefix")
    run(["cmake", "--install", a.build_dir, "--prefix", prefix])
    for f in ["bin/unfad", "include/unfad/unfad.h", "lib/cmake/Unfad/UnfadConfig.cmake",
              "lib/cmake/Unfad/UnfadConfigVersion.cmake", "lib/cmake/Unfad/UnfadTargets.cmake"]:
        check(os.path.exists(os.path.join(prefix, f)), "not installed: " + f)
    src = os.path.join(tmp, "src")
    shutil.copytree(DOWNSTREAM, src)
    bld = os.path.join(tmp, "build")
    run(["cmake", "-S", src, "-B", bld, "-G", "Ninja", "-DCMAKE_PREFIX_PATH=" + prefix])
    out = run(["cmake", "--build", bld])
    print(out)
    check(generated_lines(out) == ["unfad_generated/fit/model.cpp", "unfad_generated/fit/other.cpp"],
          "first build did not generate both copies")
    res = run([os.path.join(bld, "fit")])
    print(res)
    check("PASSED" in res, "gradient check failed")

    copy = os.path.join(bld, "unfad_generated", "fit", "model.cpp")
    text = open(copy).read()
    orig = os.path.join(src, "model.cpp")
    check(text.startswith('#line 1 "%s"\n' % orig), "the copy does not start with #line 1 \"%s\"" % orig)
    check("// unfad:begin model_grad" in text and '#line %d "%s"' % (9, orig) in text,
          "the copy has no block or no #line back to model.cpp:9")
    check(os.path.exists(copy + ".d"), "no depfile")

    # nothing to do the second time
    out = run(["cmake", "--build", bld])
    check(generated_lines(out) == [], "a second build regenerated something:\n" + out)

    # touching a header included by model.cpp regenerates model.cpp only
    other_copy = os.path.join(bld, "unfad_generated", "fit", "other.cpp")
    before = os.path.getmtime(other_copy)
    time.sleep(1.1)
    os.utime(os.path.join(src, "include", "params.h"))
    out = run(["cmake", "--build", bld, "--", "-d", "explain"])
    print(out)
    check(generated_lines(out) == ["unfad_generated/fit/model.cpp"],
          "touching params.h should regenerate exactly model.cpp, got %s" % generated_lines(out))
    check(os.path.getmtime(other_copy) == before, "other.cpp's copy was rewritten")
    check("PASSED" in run([os.path.join(bld, "fit")]), "gradient check failed after regeneration")

    # the quoted include next to the original source counts too
    time.sleep(1.1)
    os.utime(os.path.join(src, "local.h"))
    out = run(["cmake", "--build", bld])
    check(generated_lines(out) == ["unfad_generated/fit/model.cpp"], "touching local.h: %s" % generated_lines(out))

    # a new unfad regenerates everything
    time.sleep(1.1)
    os.utime(os.path.join(prefix, "bin", "unfad"))
    out = run(["cmake", "--build", bld])
    check(generated_lines(out) == ["unfad_generated/fit/model.cpp", "unfad_generated/fit/other.cpp"],
          "a new unfad should regenerate both copies, got %s" % generated_lines(out))

    # a diagnostic in the original points at the original file
    with open(os.path.join(src, "other.cpp"), "a") as f:
        f.write("static int unused_function_for_the_test() { return 0; }\n")
    out = run(["cmake", "--build", bld, "--", "-v"])
    # (g++/clang++ both warn with -Wall only; compile again with -Wall)
    check(os.path.getmtime(other_copy) > before, "editing other.cpp did not regenerate its copy")
    ok = subprocess.run(["c++", "-std=c++17", "-Wall", "-I" + os.path.join(prefix, "include"), "-c", other_copy,
                         "-o", os.devnull], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout
    check(os.path.join(src, "other.cpp") + ":5:" in ok, "the warning does not point at other.cpp:5:\n" + ok)

    # the version file
    vfile = os.path.join(prefix, "lib", "cmake", "Unfad", "UnfadConfigVersion.cmake")
    check('PACKAGE_VERSION "0.' in open(vfile).read(), "no version in UnfadConfigVersion.cmake")


def add_subdirectory(a, tmp):
    src = os.path.join(tmp, "src")
    shutil.copytree(DOWNSTREAM, src)
    bld = os.path.join(tmp, "build")
    run(["cmake", "-S", src, "-B", bld, "-G", "Ninja", "-DUNFAD_SOURCE_DIR=" + a.source_dir,
         "-DUNFAD_BUILD_TESTS=OFF"])
    dry = run(["ninja", "-C", bld, "-n", "fit"])
    check(re.search(r"Linking CXX executable bin/unfad", dry), "the in-tree unfad is not built for fit:\n" + dry)
    gens = generated_lines(dry)
    check(gens == ["unfad_generated/fit/model.cpp", "unfad_generated/fit/other.cpp"],
          "no generation steps in the dry run: %s" % gens)
    # the generated copies depend on the in-tree unfad and are what fit compiles
    q = run(["ninja", "-C", bld, "-t", "query", "unfad_generated/fit/model.cpp"])
    check("bin/unfad" in q and "model.cpp" in q, "the copy does not depend on bin/unfad:\n" + q)
    cmds = run(["ninja", "-C", bld, "-t", "commands", "fit"])
    check(re.search(r"bin/unfad -o \S+/unfad_generated/fit/model\.cpp --depfile=\S+ --line-directives \S+/model\.cpp -- "
                    r".*-I\S+/include.*-DMODEL_SCALE=2\.0.*-std=c\+\+17.*-I" + re.escape(src), cmds),
          "unexpected unfad command line:\n" + cmds)
    check(re.search(r"-c \S*unfad_generated/fit/model\.cpp", cmds) and not re.search(r"-c \S*src/model\.cpp", cmds),
          "fit does not compile the generated copy instead of model.cpp")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir")
    ap.add_argument("--source-dir")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("mode", choices=["installed", "add_subdirectory"])
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="unfad-cmake-")
    try:
        (installed if a.mode == "installed" else add_subdirectory)(a, tmp)
    except Failure as f:
        print("FAIL:", f)
        print("files kept in", tmp)
        return 1
    if not a.keep:
        shutil.rmtree(tmp)
    print("PASS:", a.mode)
    return 0


if __name__ == "__main__":
    sys.exit(main())
