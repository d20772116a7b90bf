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


def harness(env_extra, extra_args):
    env = dict(os.environ, **env_extra)
    cmd = [sys.executable, HARNESS, "--unfad", FAKE] + extra_args + CASES
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
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("PASS: the harness accepts a right gradient and catches wrong ones")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
