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


def matmul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))] for i in range(len(a))]


def axis_angle(w):
    """Rodrigues in matrix form: I + sin(t) K + (1 - cos(t)) K^2 with K the cross-product matrix
    of the unit axis."""
    t = math.sqrt(sum(v * v for v in w))
    eye = [[float(i == j) for j in range(3)] for i in range(3)]
    if t < 1e-4:
        return eye
    x, y, z = (v / t for v in w)
    K = [[0, -z, y], [z, 0, -x], [-y, x, 0]]
    K2 = matmul(K, K)
    return [[eye[i][j] + math.sin(t) * K[i][j] + (1 - math.cos(t)) * K2[i][j] for j in range(3)] for i in range(3)]


def ba_residual(cam, X, w, feat):
    """One observation's weighted reprojection error: rotate X - centre by the camera's
    angle-axis, divide by depth, distort radially, scale by the focal length, add the principal
    point (ADBench's camera model)."""
    R = axis_angle(cam[0:3])
    d = [X[i] - cam[3 + i] for i in range(3)]
    p = [sum(R[i][k] * d[k] for k in range(3)) for i in range(3)]
    u, v = p[0] / p[2], p[1] / p[2]
    r2 = u * u + v * v
    dist = 1 + cam[9] * r2 + cam[10] * r2 * r2
    return [w * (cam[6] * dist * u + cam[7] - feat[0]), w * (cam[6] * dist * v + cam[8] - feat[1])]


def ba_expected(inp):
    n, m, p, cam, X, w, feat = (inp[k] for k in ("n", "m", "p", "cam", "x", "w", "feat"))
    err = ba_residual(cam, X, w, feat)
    objective = {"reproj_error": {"elements": err, "repeated": p}, "w_err": {"element": 1 - w * w, "repeated": p}}
    # Compressed sparse rows: 2 rows of 15 (camera 11, point 3, weight 1) per observation, then
    # one row per weight error; GradBench keeps the first 30 entries of each list and the last.
    x15 = cam + X + [w]
    rows = [15 * k for k in range(2 * p + 1)] + [30 * p + j for j in range(1, p + 1)]
    cols, vals = [], []
    for row in range(2):
        cols += list(range(11)) + [11 * n + k for k in range(3)] + [11 * n + 3 * m]
        vals += fd(lambda v: ba_residual(v[0:11], v[11:14], v[14], feat)[row], x15)
    jacobian = {"rows": rows[:30] + [rows[-1]], "cols": cols + [11 * n + 3 * m + p - 1], "vals": vals + [-2 * w]}
    return objective, jacobian


def ht_model(rng, mirrored):
    """A made-up hand: 22 bones (wrist, five fingers of four bones, forearm), eight vertices
    skinned by two or three bones each, four triangles."""
    parents = [-1] + [0 if k == 0 else 4 * f + k for f in range(5) for k in range(4)] + [0]

    def affine():
        R = axis_angle([rng.uniform(-1, 1) for _ in range(3)])
        return [R[i] + [rng.uniform(-0.3, 0.3)] for i in range(3)] + [[0.0, 0.0, 0.0, 1.0]]

    verts = 8
    weights = []
    for v in range(verts):
        row = [0.0] * 22
        for k in range(2 + v % 2):
            row[(3 * v + 5 * k) % 22] += rng.uniform(0.1, 1.0)
        total = sum(row)
        weights.append([x / total for x in row])
    return {"bone_count": 22, "bone_names": [f"bone{i}" for i in range(22)], "parents": parents,
            "base_relatives": [affine() for _ in range(22)],
            "inverse_base_absolutes": [affine() for _ in range(22)],
            "base_positions": [[rng.uniform(-1, 1) for _ in range(3)] + [1.0] for _ in range(verts)],
            "weights": weights, "triangles": [[0, 1, 2], [3, 4, 5], [6, 7, 0], [1, 3, 5]], "is_mirrored": mirrored}


def ht_vertices(theta, model):
    """Every posed vertex: per bone the rotation Rz Ry Rx of its angles (the (x, z, y) slots
    theta drives: per finger the second bone's x and z, the third's and fourth's x), the chain of
    relative transforms down the tree, linear blend skinning, the mirroring, then the global
    rotation and translation."""
    angles = [[0.0, 0.0, 0.0] for _ in range(22)]
    for f in range(5):
        angles[2 + 4 * f][0], angles[2 + 4 * f][1] = theta[6 + 4 * f], theta[7 + 4 * f]
        angles[3 + 4 * f][0], angles[4 + 4 * f][0] = theta[8 + 4 * f], theta[9 + 4 * f]
    absolutes = []
    for b in range(22):
        tx, tz, ty = angles[b]
        Rx = [[1, 0, 0], [0, math.cos(tx), -math.sin(tx)], [0, math.sin(tx), math.cos(tx)]]
        Ry = [[math.cos(ty), 0, math.sin(ty)], [0, 1, 0], [-math.sin(ty), 0, math.cos(ty)]]
        Rz = [[math.cos(tz), -math.sin(tz), 0], [math.sin(tz), math.cos(tz), 0], [0, 0, 1]]
        R = matmul(matmul(Rz, Ry), Rx)
        T = [R[i] + [0.0] for i in range(3)] + [[0.0, 0.0, 0.0, 1.0]]
        rel = matmul(model["base_relatives"][b], T)
        parent = model["parents"][b]
        absolutes.append(rel if parent < 0 else matmul(absolutes[parent], rel))
    skin = [matmul(absolutes[b], model["inverse_base_absolutes"][b]) for b in range(22)]
    G = axis_angle(theta[0:3])
    out = []
    for base, weights in zip(model["base_positions"], model["weights"]):
        p = [sum(weights[b] * sum(skin[b][i][k] * base[k] for k in range(4)) for b in range(22)) for i in range(3)]
        if model["is_mirrored"]:
            p[0] = -p[0]
        out.append([sum(G[i][k] * p[k] for k in range(3)) + theta[3 + i] for i in range(3)])
    return out


def ht_objective(theta, us, data):
    V = ht_vertices(theta, data["model"])
    err = []
    for i, (c, point) in enumerate(zip(data["correspondences"], data["points"])):
        if us:
            a, b, t = (V[v] for v in data["model"]["triangles"][c])
            u0, u1 = us[i]
            err += [point[j] - (u0 * a[j] + u1 * b[j] + (1 - u0 - u1) * t[j]) for j in range(3)]
        else:
            err += [point[j] - V[c][j] for j in range(3)]
    return err


def ht_jacobian(theta, us, data):
    """Rows: 3 per point; columns: with us d/du0 and d/du1 of each point's own u (all points' u0
    moved at once: a residual reads only its own u), then theta; central differences."""
    columns = []
    h = 1e-6
    for which in ([0, 1] if us else []):
        moved = lambda s: [[u[0] + s * h * (which == 0), u[1] + s * h * (which == 1)] for u in us]
        up, down = ht_objective(theta, moved(1), data), ht_objective(theta, moved(-1), data)
        columns.append([(a - b) / (2 * h) for a, b in zip(up, down)])
    for k in range(len(theta)):
        up, down = list(theta), list(theta)
        up[k] += h
        down[k] -= h
        columns.append([(a - b) / (2 * h) for a, b in zip(ht_objective(up, us, data), ht_objective(down, us, data))])
    return [list(row) for row in zip(*columns)]


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
    ba = {"n": 2, "m": 3, "p": 12, "cam": [0.1, -0.2, 0.15, 0.3, -0.1, -5.0, 1.2, 0.05, -0.03, 0.01, -0.002],
          "x": [0.4, -0.3, 0.8], "w": 0.9, "feat": [0.2, -0.1]}
    ba_objective, ba_jacobian = ba_expected(ba)
    ht_inputs = []
    for complicated, mirrored in ((False, False), (True, True)):
        model = ht_model(rng, mirrored)
        observed = 3
        data = {"model": model,
                "correspondences": [rng.randrange(4 if complicated else 8) for _ in range(observed)],
                "points": [[rng.uniform(-1, 1) for _ in range(3)] for _ in range(observed)]}
        theta = [rng.uniform(-0.5, 0.5) for _ in range(26)]
        us = [[rng.uniform(0, 0.5), rng.uniform(0, 0.5)] for _ in range(observed)] if complicated else []
        ht_inputs.append({"theta": theta, "data": data, "us": us})
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
        ({"kind": "define", "module": "ba"}, {"success": True}, None),
        ({"kind": "evaluate", "module": "ba", "function": "objective", "input": ba | runs}, {"success": True},
         ba_objective),
        ({"kind": "evaluate", "module": "ba", "function": "jacobian", "input": ba | runs}, {"success": True},
         ba_jacobian),
        ({"kind": "define", "module": "ht"}, {"success": True}, None),
    ] + [
        ({"kind": "evaluate", "module": "ht", "function": function, "input": inp | runs}, {"success": True},
         (ht_objective if function == "objective" else ht_jacobian)(inp["theta"], inp["us"], inp["data"]))
        for inp in ht_inputs for function in ("objective", "jacobian")
    ] + [
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
