#!/usr/bin/env python3
"""Tests the e2e harness with a fake unfad (fake_unfad.py): it must pass a
correct gradient, and catch a wrong partial derivative and a non-idempotent
rewrite. Guards against a harness that silently passes everything.

Arrays of structs and arrays of arrays are covered by the cases
arrays_of_structs.cpp and arrays_of_arrays.cpp (run here with the fake, so they
test the harness and their own hand-derived formulas before unfad handles
them) and by nested_kinds.cpp beside this file (the remaining declaration
forms); check_parsing() tests how the harness reads such parameters and how it
rejects bad specs.

In/out array parameters (the spec's "inouts") are covered by inout_kinds.cpp:
the harness must pass a right gradient and catch an f_grad that adds the
cotangent of y's initial value into the incoming d_y, that leaves y at its
initial value, that gets a partial w.r.t. y's initial value wrong, or whose
d_y depends on the other adjoints' incoming values; check_inout_specs() tests
how it rejects bad "inouts" specs."""
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
# arrays of structs / of arrays (as inputs, outputs of structs, float variants)
NESTED_KIND_CASE = os.path.join(HERE, "nested_kinds.cpp")
NESTED_CASES = [os.path.join(E2E, "cases", c)
                for c in ("arrays_of_structs.cpp", "arrays_of_arrays.cpp")] + [NESTED_KIND_CASE]
# in/out array parameters ("inouts"): every array form, floats, structs, with an output
INOUT_CASE = os.path.join(HERE, "inout_kinds.cpp")
INOUT_FUNCS = ("euler_step", "relax", "rotate", "square_and_sum", "damp", "cascade", "leapfrog", "kick",
               "scale_f")

sys.dont_write_bytecode = True
sys.path.insert(0, E2E)
sys.path.insert(0, HERE)
import run_e2e as R  # noqa: E402
import fake_unfad  # noqa: E402


# (declaration, kind, elem, base, row_kind, size, cols, adjoint parameter of f_grad)
PARAM_FORMS = [
    ("const std::vector<Vec3>& p", "vector", "struct", "double", None, None, None, "std::vector<Vec3>& d_p"),
    ("const Vec3* p", "ptr", "struct", "double", None, None, None, "Vec3* d_p"),
    ("const Vec3 p[]", "carray", "struct", "double", None, None, None, "Vec3* d_p"),
    ("const Vec3 p[4]", "carray", "struct", "double", None, 4, None, "Vec3* d_p"),
    ("const Vec3 (&p)[2]", "carray_ref", "struct", "double", None, 2, None, "Vec3* d_p"),
    ("const std::array<Vec3, 3>& p", "array", "struct", "double", None, 3, None, "std::array<Vec3, 3>& d_p"),
    ("std::vector<Vec3>& out", "vector", "struct", "double", None, None, None, "std::vector<Vec3>& d_out"),
    ("Vec3* out", "ptr", "struct", "double", None, None, None, "Vec3* d_out"),
    ("const geo::F2 x[]", "carray", "struct", "float", None, None, None, "geo::F2* d_x"),
    ("const std::vector<std::vector<double>>& A", "vector", "row", "double", "vector", None, None,
     "std::vector<std::vector<double>>& d_A"),
    ("const std::vector< std::vector<float> > &A", "vector", "row", "float", "vector", None, None,
     "std::vector< std::vector<float> >& d_A"),
    ("const double A[3][2]", "carray", "row", "double", "carray", 3, 2, "double (*d_A)[2]"),
    ("const float (&A)[2][3]", "carray_ref", "row", "float", "carray", 2, 3, "float (*d_A)[3]"),
    ("const double (*A)[4]", "ptr", "row", "double", "carray", None, 4, "double (*d_A)[4]"),
    ("const std::array<std::array<double, 2>, 3>& M", "array", "row", "double", "array", 3, 2,
     "std::array<std::array<double, 2>, 3>& d_M"),
    ("const std::vector<std::array<double, 2>>& C", "vector", "row", "double", "array", None, 2,
     "std::vector<std::array<double, 2>>& d_C"),
    # unchanged
    ("const double* x", "ptr", "scalar", "double", None, None, None, "double* d_x"),
    ("const double (&x)[3]", "carray_ref", "scalar", "double", None, 3, None, "double* d_x"),
    ("const std::vector<int>& v", "vector", "scalar", "int", None, None, None, None),
]

STRUCTS = """
struct Vec3 { double x, y, z; };
namespace geo { struct F2 { float u = 0; float v = 0; }; }
struct Mixed { double a; float b; };
struct WithMethod { double a; double norm() const; };
"""


def expect_failure(what, fn, text, failures):
    try:
        fn()
    except R.Failure as e:
        if text not in str(e):
            failures.append(f"{what}: the error does not say '{text}': {e}")
        return
    failures.append(f"{what}: no error")


def check_parsing():
    """The harness's reading of array-of-struct / array-of-array parameters,
    without compilers."""
    failures = []
    structs = R.parse_structs(R.strip_comments(STRUCTS))
    if structs["Vec3"].fields != ["x", "y", "z"] or structs["Vec3"].ftype != "double":
        failures.append(f"struct Vec3 read as {structs['Vec3'].fields}")
    if structs["F2"].fields != ["u", "v"] or structs["F2"].ftype != "float":
        failures.append(f"struct F2 read as {structs['F2'].fields} of {structs['F2'].ftype}")
    for decl, kind, elem, base, row_kind, size, cols, adj in PARAM_FORMS:
        try:
            p = R.Param(decl, structs)
        except R.Failure as e:
            failures.append(f"'{decl}' not parsed: {e}")
            continue
        got = (p.kind, p.elem, p.base, p.row_kind, p.size, p.cols)
        if got != (kind, elem, base, row_kind, size, cols):
            failures.append(f"'{decl}' parsed as {got}, want {(kind, elem, base, row_kind, size, cols)}")
        if adj is not None:
            p.active = True
            if fake_unfad.adjoint_decl(p) != adj:
                failures.append(f"'{decl}': adjoint '{fake_unfad.adjoint_decl(p)}', want '{adj}'")
    expect_failure("a struct of mixed field types",
                   lambda: R.Param("const Mixed* m", structs), "must all be double or all float", failures)
    # member functions are skipped: a class is its data members
    if structs["WithMethod"].fields != ["a"] or structs["WithMethod"].problem:
        failures.append(f"a struct with a member function: fields {structs['WithMethod'].fields}, "
                        f"problem {structs['WithMethod'].problem}")
    src = STRUCTS + """
UNFAD_GRADIENT double f(const std::vector<Vec3>& p, const Unknown* u, int n) { return 0; }
UNFAD_GRADIENT void g(const std::vector<std::vector<double>>& A, std::vector<std::vector<double>>& B) {}
"""
    funcs = R.parse_functions(src)
    f = funcs["f"]
    expect_failure("an element with too few fields",
                   lambda: R.normalize_point(f, [[[1, 2, 3], [4, 5]], [1], 1]),
                   "element 1 gives 2 values but struct Vec3 has 3 fields", failures)
    expect_failure("a number for a struct",
                   lambda: R.normalize_point(f, [[[1, 2, 3], 4], [1], 1]), "must be a list", failures)
    expect_failure("a list of lists for an unknown element type",
                   lambda: R.normalize_point(f, [[[1, 2, 3]], [[1, 2]], 1]),
                   "not a struct the harness could read", failures)
    pt = R.normalize_point(f, [[[1, 2, 3], [4, 5, 6.5]], [7], 1])
    if pt != [[[1.0, 2.0, 3.0], [4.0, 5.0, 6.5]], [7], 1]:
        failures.append(f"point normalised to {pt}")
    p = f.params[0]
    if p.elems(pt[0])[:4] != [(0, 0), (0, 1), (0, 2), (1, 0)] or p.label((1, 2)) != "p[1].z":
        failures.append(f"elements of p: {p.elems(pt[0])}, label {p.label((1, 2))}")
    if p.flatten([[1, 2, 3], [4, 5, 6]], pt[0]) != [1, 2, 3, 4, 5, 6] or p.flatten([1, 2], pt[0]) is not None:
        failures.append("flattening of a list of lists")
    expect_failure("an array of arrays as an output of a flat length",
                   lambda: funcs["g"].set_outputs({"B": 2}), "give its length as [rows, columns]", failures)
    plan = R.Plan([(funcs["f"], {"points": [[[[1, 2, 3]], [1], 1]]})])
    if "static_assert(sizeof(Vec3) == 3 * sizeof(double)" not in plan.driver("x.cpp"):
        failures.append("the driver does not check that Vec3 has no padding")
    return failures


def check_inout_specs():
    """How the harness reads and rejects "inouts" specs, without compilers."""
    failures = []
    src = """
struct Vec3 { double x, y, z; };
UNFAD_GRADIENT void step(double* y, const double* k, double h, int n, double* out) {}
UNFAD_GRADIENT void walk(std::vector<int>& idx, std::vector<std::vector<double>>& A) {}
UNFAD_GRADIENT void push(std::array<double, 3>& y, std::vector<Vec3>& s) {}
"""
    funcs = R.parse_functions(src)
    step, walk, push = funcs["step"], funcs["walk"], funcs["push"]
    expect_failure("an in/out parameter that is not a parameter",
                   lambda: step.set_outputs({}, {"z": 3}), "'inouts' names 'z'", failures)
    expect_failure("an output that is also in/out",
                   lambda: step.set_outputs({"y": 3}, {"y": 3}), "in both 'outputs' and 'inouts'", failures)
    expect_failure("a scalar in/out parameter",
                   lambda: step.set_outputs({}, {"h": 1}), "must be an array of double/float", failures)
    expect_failure("an integer array in/out",
                   lambda: walk.set_outputs({}, {"idx": 2}), "must be an array of double/float", failures)
    expect_failure("an array of arrays in/out of a flat length",
                   lambda: walk.set_outputs({}, {"A": 2}), "give its length as [rows, columns]", failures)
    expect_failure("a flat array in/out of two lengths",
                   lambda: push.set_outputs({}, {"y": [1, 3]}), "is a flat array", failures)
    walk.set_outputs({"A": [2, 3]})
    if walk.out_elems(walk.params[1])[:4] != [(0, 0), (0, 1), (0, 2), (1, 0)]:
        failures.append(f"elements of an output array of rows: {walk.out_elems(walk.params[1])}")
    expect_failure("a std::array in/out of the wrong length",
                   lambda: push.set_outputs({}, {"y": 4}), "has length 3, spec says 4", failures)
    expect_failure("a const in/out parameter",
                   lambda: step.set_outputs({}, {"k": 3}), "'k' is const (const double* k)", failures)
    step.set_outputs({"out": 1}, {"y": 3})
    if [p.name for p in step.active] != ["y", "k", "h"] or [p.name for p in step.adjoint_params] != [
            "y", "k", "h", "out"]:
        failures.append(f"in/out y: active inputs {[p.name for p in step.active]}, "
                        f"adjoints {[p.name for p in step.adjoint_params]}")
    pt = R.normalize_point(step, [[1, 2, 3], [4, 5, 6], 0.5, 3])
    if pt != [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], 0.5, 3, None]:
        failures.append(f"point with an in/out parameter normalised to {pt}")
    expect_failure("an in/out value of the wrong length",
                   lambda: R.normalize_point(step, [[1, 2], [4, 5, 6], 0.5, 3]),
                   "in/out parameter of length 3 ('inouts'), the point gives 2 values", failures)
    expect_failure("an in/out parameter left out of the point",
                   lambda: R.normalize_point(step, [[4, 5, 6], 0.5, 3]), "has 3 values", failures)
    # outputs keep their weights when in/out parameters are added
    step.set_outputs({"out": 1})
    w_alone = R.output_weights(step)
    step.set_outputs({"out": 1}, {"y": 3})
    w_both = R.output_weights(step)
    if w_both["out"] != w_alone["out"] or len(w_both["y"]) != 3:
        failures.append(f"weights with an in/out parameter: {w_both} (alone: {w_alone})")
    push.set_outputs({}, {"s": 2})
    push.weights = R.output_weights(push)
    if len(push.weights["s"]) != 6:
        failures.append("an in/out array of 2 Vec3 must get 6 weights")
    env = R.formula_env(push, R.normalize_point(push, [[1, 2, 3], [[1, 2, 3], [4, 5, 6]]]))
    if len(env.get("w_s", [])) != 2 or len(env["w_s"][0]) != 3:
        failures.append(f"w_s in formulas: {env.get('w_s')}")
    plan = R.Plan([(push, {"inouts": {"s": 2}, "points": [[[1, 2, 3], [[1, 2, 3], [4, 5, 6]]]]})])
    driver = plan.driver("x.cpp")
    if "push(e2e_p0, e2e_s1)" not in driver or "push_grad(e2e_p0, e2e_s1, e2e_d0, e2e_d1)" not in driver:
        failures.append("the driver must call f and f_grad on a fresh copy e2e_s1 of in/out s")
    return failures


def harness(env_extra, extra_args, cases=CASES):
    env = dict(os.environ, **env_extra)
    cmd = [sys.executable, HARNESS, "--unfad", FAKE] + extra_args + cases
    r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       stdin=subprocess.DEVNULL)
    return r.returncode, r.stdout.decode(errors="replace")


def check_inouts(args):
    """In/out parameters through the whole harness, with the fake."""
    failures = []
    rc, out = harness({}, args, [INOUT_CASE])
    if rc != 0:
        failures.append("a correct gradient w.r.t. in/out parameters was rejected:\n" + out)
    # the wrong ones with one compiler (the checks do not depend on it), listing
    # every function's mismatches
    case = ["--compilers", "g++", "--max-problems", "100000", INOUT_CASE]
    # (a) d_y = w + the cotangent of y's initial value: caught and explained,
    # for every function and array form
    rc, out = harness({"FAKE_INOUT_ADD": "1"}, args, case)
    if (rc == 0 or "finite differences give" not in out or "hand formula" not in out
            or any(f"] {f}(" not in out for f in INOUT_FUNCS)
            or "plus the partial: f_grad must overwrite d_y" not in out or "d/ds[1].p = " not in out):
        failures.append("an f_grad that adds into the incoming d_y was not caught:\n" + out)
    # (b) y left at its initial value
    rc, out = harness({"FAKE_INOUT_KEEP": "1"}, args, case)
    if (rc == 0 or "after f_grad y[0] = 1 but f leaves 1.03" not in out
            or "after f_grad s[0].q = 1 but f leaves" not in out
            or any(f"] {f}(" not in out for f in INOUT_FUNCS)):
        failures.append("an f_grad that leaves the in/out y at its initial value was not caught:\n" + out)
    # (c) a wrong partial w.r.t. y's initial value
    rc, out = harness({"FAKE_WRONG_INOUT": "1"}, args, case)
    if (rc == 0 or "finite differences give" not in out or "hand formula" not in out
            or "d/dy[1] = 1.05226963676, expected 1.0521644" not in out
            or any(f"] {f}(" not in out for f in INOUT_FUNCS) or "plus the partial" in out):
        failures.append("a wrong partial w.r.t. an in/out parameter's initial value was not caught:\n" + out)
    # d_y that depends on the incoming values of the other adjoints
    rc, out = harness({"FAKE_INOUT_CROSSTALK": "1"}, args, case)
    if rc == 0 or "after a second f_grad call (y reset, d_y = w_y again" not in out:
        failures.append("a d_y that depends on the other adjoints' incoming values was not caught:\n" + out)
    return failures


# The wrong gradients are caught by the comparisons, whatever compiled the
# driver: one compiler for them (the right ones still build with both).
ONE = ["--compilers", "g++"]


def main():
    args = sys.argv[1:]  # passed through to the harness (--include, --cxx, --clangxx)
    failures = check_parsing() + check_inout_specs()
    rc, out = harness({}, args)
    if rc != 0:
        failures.append("a correct (finite-difference) gradient was rejected:\n" + out)
    rc, out = harness({"FAKE_WRONG": "1"}, args + ONE)
    if rc == 0 or "finite differences give" not in out or "expected -3.8504" not in out:
        failures.append("a wrong partial derivative was not caught:\n" + out)
    rc, out = harness({"FAKE_NOIDEM": "1"}, args + ONE)
    if rc == 0 or "changed the file (not idempotent)" not in out:
        failures.append("a non-idempotent rewrite was not caught:\n" + out)
    rc, out = harness({}, args, ARRAY_CASES)
    if rc != 0:
        failures.append("a correct vector-Jacobian product (arrays, outputs) was rejected:\n" + out)
    rc, out = harness({"FAKE_WRONG": "1"}, args + ONE, ARRAY_CASES)
    if rc == 0 or out.count("FAIL ") != len(ARRAY_CASES) or "finite differences give" not in out:
        failures.append("a wrong partial derivative w.r.t. an array element was not caught:\n" + out)
    rc, out = harness({"FAKE_NOWRITE": "1"}, args + ONE, ARRAY_CASES[:1])
    if rc == 0 or "after f_grad out[0] =" not in out:
        failures.append("an f_grad that does not perform f's writes was not caught:\n" + out)
    rc, out = harness({"FAKE_ASSIGN": "1"}, args + ONE, ARRAY_CASES[1:2])
    if rc == 0 or "must add into the adjoints" not in out:
        failures.append("an f_grad that assigns the adjoints was not caught:\n" + out)
    rc, out = harness({}, args, NESTED_CASES)
    if rc != 0:
        failures.append("a correct gradient w.r.t. arrays of structs / arrays was rejected:\n" + out)
    rc, out = harness({"FAKE_WRONG": "1"}, args + ONE, NESTED_CASES)
    if (rc == 0 or out.count("FAIL ") != len(NESTED_CASES) or "finite differences give" not in out
            or "hand formula" not in out or "d/dp[0].x = " not in out or "d/dA[0][1] = " not in out):
        failures.append("a wrong partial derivative w.r.t. a struct field or A[i][j] was not caught:\n" + out)
    rc, out = harness({"FAKE_NOWRITE": "1"}, args + ONE, [NESTED_KIND_CASE])
    if rc == 0 or "after f_grad out[0].a =" not in out or "after f_grad out[1].r =" not in out:
        failures.append("an f_grad that does not write an output array of structs was not caught:\n" + out)
    rc, out = harness({"FAKE_ASSIGN": "1"}, args + ONE, [NESTED_KIND_CASE])
    if (rc == 0 or "must add into the adjoints" not in out or "d_x[2].b started at" not in out
            or "d_A[1][2] started at" not in out):
        failures.append("an f_grad that assigns adjoints of structs / rows was not caught:\n" + out)
    failures += check_inouts(args)
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("PASS: the harness accepts a right gradient and catches wrong ones")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
