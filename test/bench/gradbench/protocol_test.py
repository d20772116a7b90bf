#!/usr/bin/env python3
"""Drives unfad_gradbench_tool through a scripted GradBench exchange (one JSON message per line
on stdin, one reply per line on stdout) and checks every reply: the protocol fields, the
timings (one "evaluate" entry per run, at least min_runs, integer nanoseconds) and the outputs
against values computed here independently, in plain Python (closed forms where there are
some, else finite differences of an independent implementation).

usage: protocol_test.py <unfad_gradbench_tool>
"""
import itertools
import json
import math
import random
import subprocess
import sys

TOL = 1e-4  # GradBench's rule: |x - y| / max(1, |x| + |y|) <= TOL
failures = []


def close(x, y):
    return abs(x - y) / max(1.0, abs(x) + abs(y)) <= TOL


def check(what, got, want):
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            failures.append(f"{what}: shape {json.dumps(got)[:80]} != expected length {len(want)}")
            return
        for i, (g, w) in enumerate(zip(got, want)):
            check(f"{what}[{i}]", g, w)
        return
    if isinstance(want, dict):
        if not isinstance(got, dict) or set(got) != set(want):
            failures.append(f"{what}: keys {sorted(got) if isinstance(got, dict) else got} != {sorted(want)}")
            return
        for key in want:
            check(f"{what}.{key}", got[key], want[key])
        return
    if not isinstance(got, (int, float)) or not close(got, want):
        failures.append(f"{what}: {got} != expected {want}")


def fd(f, x, h=1e-6):
    g = []
    for i in range(len(x)):
        up, down = list(x), list(x)
        up[i] += h
        down[i] -= h
        g.append((f(up) - f(down)) / (2 * h))
    return g


# ---- independent references ----

def lse(x):
    return math.log(sum(math.exp(v) for v in x))


def llsq(x, n):
    total = 0.0
    for i in range(n):
        t = -1 + i * 2 / (n - 1)
        s = (t > 0) - (t < 0)
        total += (s - sum(xj * t**j for j, xj in enumerate(x))) ** 2
    return total / 2


def llsq_grad(x, n):
    g = [0.0] * len(x)
    for i in range(n):
        t = -1 + i * 2 / (n - 1)
        r = ((t > 0) - (t < 0)) - sum(xj * t**j for j, xj in enumerate(x))
        for j in range(len(x)):
            g[j] -= r * t**j
    return g


def sign(p):  # the sign of a permutation, by counting inversions
    return -1 if sum(p[i] > p[j] for i in range(len(p)) for j in range(i + 1, len(p))) % 2 else 1


def det(a, ell):  # Leibniz's formula
    return sum(sign(p) * math.prod(a[i * ell + p[i]] for i in range(ell)) for p in itertools.permutations(range(ell)))


def det_grad(a, ell):  # d det / d a_ij: the permutations through (i, j)
    g = [0.0] * (ell * ell)
    for p in itertools.permutations(range(ell)):
        for i in range(ell):
            g[i * ell + p[i]] += sign(p) * math.prod(a[r * ell + p[r]] for r in range(ell) if r != i)
    return g


def ode(x, s):
    n, h = len(x), 2.0 / s

    def rhs(y):
        out, c = [x[0]], 0.0
        for i in range(1, n):
            c += x[i]
            out.append(c * y[i - 1])
        return out

    y = [0.0] * n
    for _ in range(s):
        k1 = rhs(y)
        k2 = rhs([y[i] + h / 2 * k1[i] for i in range(n)])
        k3 = rhs([y[i] + h / 2 * k2[i] for i in range(n)])
        k4 = rhs([y[i] + h * k3[i] for i in range(n)])
        y = [y[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]) for i in range(n)]
    return y


def kmeans_nearest(points, centroids):
    return [min(range(len(centroids)), key=lambda j: sum((c - q) ** 2 for c, q in zip(centroids[j], p)))
            for p in points]


def kmeans_cost(points, centroids):
    near = kmeans_nearest(points, centroids)
    return sum(sum((c - q) ** 2 for c, q in zip(centroids[j], p)) for p, j in zip(points, near))


def kmeans_dir(points, centroids):
    # J H^-1 with J_j = sum 2 (c_j - p_i), H_j = 2 |cluster j|: c_j minus its cluster's mean.
    near = kmeans_nearest(points, centroids)
    out = []
    for j, c in enumerate(centroids):
        cluster = [p for p, nj in zip(points, near) if nj == j]
        out.append([c[l] - sum(p[l] for p in cluster) / len(cluster) for l in range(len(c))])
    return out


def gmm_objective(inp):
    """The log posterior written directly from the definition (GradBench's evals/gmm/README):
    the mixture density per point with Q from q and l, and the Wishart log density per
    component."""
    d, k, n, m, gamma = inp["d"], inp["k"], inp["n"], inp["m"], inp["gamma"]
    alpha, mu, q, l, x = inp["alpha"], inp["mu"], inp["q"], inp["l"], inp["x"]

    def Q(c):
        mat = [[0.0] * d for _ in range(d)]
        idx = 0
        for col in range(d):
            mat[col][col] = math.exp(q[c][col])
            for row in range(col + 1, d):
                mat[row][col] = l[c][idx]
                idx += 1
        return mat

    Qs = [Q(c) for c in range(k)]
    wsum = sum(math.exp(a) for a in alpha)
    loglik = 0.0
    for xi in x:
        dens = 0.0
        for c in range(k):
            diff = [xi[j] - mu[c][j] for j in range(d)]
            qd = [sum(Qs[c][r][j] * diff[j] for j in range(d)) for r in range(d)]
            detQ = math.exp(sum(q[c]))
            dens += math.exp(alpha[c]) / wsum * detQ / math.sqrt((2 * math.pi) ** d) * math.exp(
                -0.5 * sum(v * v for v in qd))
        loglik += math.log(dens)
    nw = d + m + 1
    lmgamma = d * (d - 1) / 4 * math.log(math.pi) + sum(math.lgamma(nw / 2 + (1 - j) / 2) for j in range(1, d + 1))
    logprior = 0.0
    for c in range(k):
        frob = sum(v * v for row in Qs[c] for v in row)
        logprior += (nw * d * math.log(gamma / math.sqrt(2)) - lmgamma - gamma**2 / 2 * frob + m * sum(q[c]))
    return loglik + logprior


def gmm_jacobian(inp):
    k, d = inp["k"], inp["d"]
    out = {}
    for key in ("alpha", "mu", "q", "l"):
        val = inp[key]
        flat = val if key == "alpha" else [v for row in val for v in row]

        def f(v, key=key):
            changed = dict(inp)
            if key == "alpha":
                changed[key] = v
            else:
                w = len(val[0])
                changed[key] = [v[i * w:(i + 1) * w] for i in range(len(val))]
            return gmm_objective(changed)

        g = fd(f, flat)
        out[key] = g if key == "alpha" else [g[i * len(val[0]):(i + 1) * len(val[0])] for i in range(len(val))]
    return out


def lstm_objective(main_params, extra, state, sequence):
    """ADBench's LSTM written again here: diagonal weights, per layer forget/input/output gates
    and the change, the next character's log-likelihood with ADBench's log-sum-exp (+ 2)."""
    l, b = len(main_params) // 2, len(extra[0])
    sig = lambda v: 1 / (1 + math.exp(-v))
    st = [list(row) for row in state]
    total, count = 0.0, 0
    for t in range(len(sequence) - 1):
        inp = [sequence[t][i] * extra[0][i] for i in range(b)]
        for layer in range(l):
            w, bias, h, cell = main_params[2 * layer], main_params[2 * layer + 1], st[2 * layer], st[2 * layer + 1]
            for i in range(b):
                f = sig(inp[i] * w[i] + bias[i])
                ig = sig(h[i] * w[b + i] + bias[b + i])
                og = sig(inp[i] * w[2 * b + i] + bias[2 * b + i])
                ch = math.tanh(h[i] * w[3 * b + i] + bias[3 * b + i])
                cell[i] = cell[i] * f + ig * ch
                h[i] = og * math.tanh(cell[i])
            inp = h
        y = [inp[i] * extra[1][i] + extra[2][i] for i in range(b)]
        lse = math.log(sum(math.exp(v) for v in y) + 2)
        total += sum(g * (v - lse) for g, v in zip(sequence[t + 1], y))
        count += b
    return -total / count


def lstm_jacobian(main_params, extra, state, sequence):
    flat = [v for row in main_params for v in row] + [v for row in extra for v in row]
    nm, w = len(main_params) * len(main_params[0]), len(main_params[0])

    def f(v):
        mp = [v[i * w:(i + 1) * w] for i in range(len(main_params))]
        b = len(extra[0])
        ex = [v[nm + i * b:nm + (i + 1) * b] for i in range(3)]
        return lstm_objective(mp, ex, state, sequence)

    return fd(f, flat)


def main():
    tool = sys.argv[1]
    rng = random.Random(31337)
    x5 = [rng.random() for _ in range(5)]
    A = [rng.random() for _ in range(16)]
    xo = [rng.random() for _ in range(4)]
    points = [[rng.random() for _ in range(2)] for _ in range(12)]
    centroids = points[-3:]
    d, k, n = 3, 2, 4
    gmm = {"d": d, "k": k, "n": n, "m": 1, "gamma": 1.5,
           "alpha": [rng.uniform(-1, 1) for _ in range(k)],
           "mu": [[rng.uniform(-1, 1) for _ in range(d)] for _ in range(k)],
           "q": [[rng.uniform(-0.5, 0.5) for _ in range(d)] for _ in range(k)],
           "l": [[rng.uniform(-0.5, 0.5) for _ in range(d * (d - 1) // 2)] for _ in range(k)],
           "x": [[rng.uniform(-1, 1) for _ in range(d)] for _ in range(n)]}
    L, B, C = 2, 3, 4
    lstm = {"main_params": [[rng.uniform(-1, 1) for _ in range(4 * B)] for _ in range(2 * L)],
            "extra_params": [[rng.uniform(-1, 1) for _ in range(B)] for _ in range(3)],
            "state": [[rng.uniform(-1, 1) for _ in range(B)] for _ in range(2 * L)],
            "sequence": [[rng.random() for _ in range(B)] for _ in range(C)]}
    lstm_args = (lstm["main_params"], lstm["extra_params"], lstm["state"], lstm["sequence"])
    runs = {"min_runs": 3, "min_seconds": 0}
    # (message, expected reply fields, expected output)
    script = [
        ({"kind": "start", "eval": "lse"}, {"tool": "unfad"}, None),
        ({"kind": "define", "module": "lse"}, {"success": True}, None),
        ({"kind": "evaluate", "module": "lse", "function": "primal", "input": {"x": x5} | runs}, {"success": True},
         lse(x5)),
        ({"kind": "evaluate", "module": "lse", "function": "gradient", "input": {"x": x5} | runs}, {"success": True},
         [math.exp(v - lse(x5)) for v in x5]),
        ({"kind": "analysis", "of": 3, "valid": True}, {}, None),
        ({"kind": "define", "module": "llsq"}, {"success": True}, None),
        ({"kind": "evaluate", "module": "llsq", "function": "primal", "input": {"x": x5, "n": 10} | runs},
         {"success": True}, llsq(x5, 10)),
        ({"kind": "evaluate", "module": "llsq", "function": "gradient", "input": {"x": x5, "n": 10} | runs},
         {"success": True}, llsq_grad(x5, 10)),
        ({"kind": "define", "module": "det"}, {"success": True}, None),
        ({"kind": "evaluate", "module": "det", "function": "primal", "input": {"A": A, "ell": 4} | runs},
         {"success": True}, det(A, 4)),
        ({"kind": "evaluate", "module": "det", "function": "gradient", "input": {"A": A, "ell": 4} | runs},
         {"success": True}, det_grad(A, 4)),
        ({"kind": "define", "module": "ode"}, {"success": True}, None),
        ({"kind": "evaluate", "module": "ode", "function": "primal", "input": {"x": xo, "s": 3} | runs},
         {"success": True}, ode(xo, 3)),
        ({"kind": "evaluate", "module": "ode", "function": "gradient", "input": {"x": xo, "s": 3} | runs},
         {"success": True}, fd(lambda v: ode(v, 3)[-1], xo)),
        ({"kind": "define", "module": "kmeans"}, {"success": True}, None),
        ({"kind": "evaluate", "module": "kmeans", "function": "cost",
          "input": {"points": points, "centroids": centroids} | runs}, {"success": True},
         kmeans_cost(points, centroids)),
        ({"kind": "evaluate", "module": "kmeans", "function": "dir",
          "input": {"points": points, "centroids": centroids} | runs}, {"success": True},
         kmeans_dir(points, centroids)),
        ({"kind": "define", "module": "gmm"}, {"success": True}, None),
        ({"kind": "evaluate", "module": "gmm", "function": "objective", "input": gmm | runs}, {"success": True},
         gmm_objective(gmm)),
        ({"kind": "evaluate", "module": "gmm", "function": "jacobian", "input": gmm | runs}, {"success": True},
         gmm_jacobian(gmm)),
        ({"kind": "define", "module": "lstm"}, {"success": True}, None),
        ({"kind": "evaluate", "module": "lstm", "function": "objective", "input": lstm | runs}, {"success": True},
         lstm_objective(*lstm_args)),
        ({"kind": "evaluate", "module": "lstm", "function": "jacobian", "input": lstm | runs}, {"success": True},
         lstm_jacobian(*lstm_args)),
        # Refusals: an unknown module, an unknown function.
        ({"kind": "define", "module": "no_such_eval"}, {"success": False}, None),
        ({"kind": "evaluate", "module": "lse", "function": "hessian", "input": {"x": x5} | runs},
         {"success": False}, None),
    ]
    messages = []
    for i, (msg, _, _) in enumerate(script):
        messages.append(json.dumps({"id": i} | msg))
    proc = subprocess.run([tool], input="\n".join(messages) + "\n", capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        failures.append(f"tool exited with {proc.returncode}: {proc.stderr}")
    replies = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    if len(replies) != len(script):
        failures.append(f"{len(replies)} replies to {len(script)} messages")
    for i, ((msg, fields, want), reply) in enumerate(zip(script, replies)):
        what = f"message {i} ({msg['kind']} {msg.get('module', '')} {msg.get('function', '')})"
        if reply.get("id") != i:
            failures.append(f"{what}: reply id {reply.get('id')}")
        for key, value in fields.items():
            if reply.get(key) != value:
                failures.append(f"{what}: {key} = {reply.get(key)!r}, expected {value!r}")
        if msg["kind"] == "evaluate" and fields.get("success"):
            timings = reply.get("timings", [])
            if len(timings) < runs["min_runs"] or any(
                    t.get("name") != "evaluate" or not isinstance(t.get("nanoseconds"), int) or t["nanoseconds"] < 0
                    for t in timings):
                failures.append(f"{what}: timings {timings}")
            check(what + " output", reply.get("output"), want)
        if fields.get("success") is False and not reply.get("error"):
            failures.append(f"{what}: a refusal without an error message")
    for f in failures:
        print("FAIL", f)
    print(f"{len(script)} messages, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
