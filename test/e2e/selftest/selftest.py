#!/usr/bin/env python3
"""Tests the e2e harness with a fake unfad (fake_unfad.py): it must pass a
correct gradient, and catch a wrong partial derivative and a non-idempotent
rewrite. Guards against a harness that silently passes everything."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
E2E = os.path.dirname(HERE)
HARNESS = os.path.join(E2E, "run_e2e.py")
FAKE = os.path.join(HERE, "fake_unfad.py")
CASES = [os.path.join(E2E, "cases", c) for c in ("chad_fig1.cpp", "wrt.cpp")]
# array parameters (pointer + size, std::vector, std::array, C arrays) and outputs
ARRAY_CASES = [os.path.join(E2E, "cases", c)
               for c in ("vector_valued.cpp", "std_array_params.cpp", "c_array_params.cpp")]


def harness(env_extra, extra_args, cases=CASES):
    env = dict(os.environ, **env_extra)
    cmd = [sys.executable, HARNESS, "--unfad", FAKE] + extra_args + cases
    r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       stdin=subprocess.DEVNULL)
    return r.returncode, r.stdout.decode(errors="replace")


def main():
    args = sys.argv[1:]  # passed through to the harness (--include, --cxx, --clangxx)
    failures = []
    rc, out = harness({}, args)
    if rc != 0:
        failures.append("a correct (finite-difference) gradient was rejected:\n" + out)
    rc, out = harness({"FAKE_WRONG": "1"}, args)
    if rc == 0 or "finite differences give" not in out or "expected -3.8504" not in out:
        failures.append("a wrong partial derivative was not caught:\n" + out)
    rc, out = harness({"FAKE_NOIDEM": "1"}, args)
    if rc == 0 or "second `unfad -i` changed the file" not in out:
        failures.append("a non-idempotent rewrite was not caught:\n" + out)
    rc, out = harness({}, args, ARRAY_CASES)
    if rc != 0:
        failures.append("a correct vector-Jacobian product (arrays, outputs) was rejected:\n" + out)
    rc, out = harness({"FAKE_WRONG": "1"}, args, ARRAY_CASES)
    if rc == 0 or out.count("FAIL ") != len(ARRAY_CASES) or "finite differences give" not in out:
        failures.append("a wrong partial derivative w.r.t. an array element was not caught:\n" + out)
    rc, out = harness({"FAKE_NOWRITE": "1"}, args, ARRAY_CASES[:1])
    if rc == 0 or "after f_grad out[0] =" not in out:
        failures.append("an f_grad that does not perform f's writes was not caught:\n" + out)
    rc, out = harness({"FAKE_ASSIGN": "1"}, args, ARRAY_CASES[1:2])
    if rc == 0 or "must add into the adjoints" not in out:
        failures.append("an f_grad that assigns the adjoints was not caught:\n" + out)
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("PASS: the harness accepts a right gradient and catches wrong ones")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
