#!/usr/bin/env python3
"""Turns the suite's JSON results (unfad_gradbench_suite --json) into a Markdown table and an
SVG plot of derivative time / primal time per workload and tool (min, median, max over the
repetitions). Plain Python: no plotting package needed.

usage: report.py --markdown OUT.md --svg OUT.svg RESULTS.json...
"""
import argparse
import json
import math

TOOLS = ["unfad", "hand", "adolc"]
COLOURS = {"unfad": "#1f77b4", "hand": "#2ca02c", "adolc": "#d62728"}
# GradBench's published Enzyme ratios (issue 13), for reference in the table.
ENZYME = {"lse": "~2.1", "llsq": "1.44", "kmeans": "", "gmm": "4.7–9.1", "ode": "2.0", "det": "11–30",
          "ba": "9.1–9.6", "lstm": "2.8", "ht": "~48"}


def load(paths):
    runs = []
    for path in paths:
        with open(path) as f:
            runs.append(json.load(f))
    return runs


def fmt(r):
    return f"{r['median']:.3g} ({r['min']:.3g}–{r['max']:.3g})"


def markdown(runs):
    lines = []
    for run in runs:
        by = {}
        order = []
        for res in run["results"]:
            key = (res["workload"], res["description"])
            if key not in by:
                by[key] = {}
                order.append(key)
            by[key][res["tool"]] = res
        lines.append(f"Size class `{run['size']}` ({run['reps']} repetitions of ≥ {run['min_seconds']} s each; "
                     "derivative time / primal time, median (min–max)):")
        lines.append("")
        lines.append("| workload | size | primal (ms) | unfad | hand-written | ADOL-C | Enzyme (published) |")
        lines.append("|---|---|---|---|---|---|---|")
        for key in order:
            tools = by[key]
            any_res = next(iter(tools.values()))
            primal = sorted(any_res["primal_seconds"])[len(any_res["primal_seconds"]) // 2] * 1e3
            cells = [fmt(tools[t]["ratio"]) if t in tools else "" for t in TOOLS]
            lines.append(f"| {key[0]} | {key[1]} | {primal:.3g} | " + " | ".join(cells) + f" | {ENZYME.get(key[0], '')} |")
        lines.append("")
    return "\n".join(lines)


def svg(runs):
    """One panel per size class: per workload a group of horizontal bars (median ratio, log
    scale) with min–max whiskers."""
    bar, gap, left, width, top = 9, 8, 150, 460, 64
    panels = []
    for run in runs:
        rows = []
        seen = []
        for res in run["results"]:  # one group per workload and size (ht has two variants)
            key = (res["workload"], res["description"])
            if key not in seen:
                seen.append(key)
        for key in seen:
            for t in TOOLS:
                for res in run["results"]:
                    if (res["workload"], res["description"]) == key and res["tool"] == t:
                        rows.append((key, res["description"], t, res["ratio"]))
        panels.append((run["size"], seen, rows))
    lo = 0.5
    hi = max([r[3]["max"] for _, _, rows in panels for r in rows] + [10])
    hi = 10 ** math.ceil(math.log10(hi))

    def xpos(v):
        return left + width * (math.log10(max(v, lo)) - math.log10(lo)) / (math.log10(hi) - math.log10(lo))

    out = []
    y = top
    for size, workloads, rows in panels:
        out.append(f'<text x="{left}" y="{y - 18}" font-size="13" font-weight="bold">size class: {size}</text>')
        y0 = y
        start = len(out)
        for key in workloads:
            group = [r for r in rows if r[0] == key]
            w, desc = key
            gh = len(group) * (bar + 2)
            out.append(f'<text x="{left - 6}" y="{y + gh / 2}" font-size="11" text-anchor="end">{w}</text>')
            out.append(f'<text x="{left - 6}" y="{y + gh / 2 + 11}" font-size="8" fill="#666" '
                       f'text-anchor="end">{desc}</text>')
            for _, _, t, r in group:
                x1 = xpos(r["median"])
                out.append(f'<rect x="{left}" y="{y}" width="{x1 - left:.1f}" height="{bar}" fill="{COLOURS[t]}">'
                           f'<title>{w} {t}: {fmt(r)}</title></rect>')
                out.append(f'<line x1="{xpos(r["min"]):.1f}" x2="{xpos(r["max"]):.1f}" y1="{y + bar / 2}" '
                           f'y2="{y + bar / 2}" stroke="black" stroke-width="1"/>')
                out.append(f'<text x="{xpos(r["max"]) + 4:.1f}" y="{y + bar - 1}" font-size="8">{r["median"]:.3g}</text>')
                y += bar + 2
            y += gap
        # the axis, drawn under the bars
        grid = []
        for p in range(math.floor(math.log10(lo)), int(math.log10(hi)) + 1):
            for m in (1, 2, 5):
                v = m * 10**p
                if lo <= v <= hi:
                    x = xpos(v)
                    grid.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{y0 - 4}" y2="{y}" stroke="#ccc" '
                                'stroke-width="0.5"/>')
                    grid.append(f'<text x="{x:.1f}" y="{y + 10}" font-size="8" text-anchor="middle">{v:g}</text>')
        out[start:start] = grid
        out.append(f'<text x="{left + width / 2}" y="{y + 22}" font-size="10" text-anchor="middle">'
                   'derivative time / primal time (log scale; bar: median, line: min–max)</text>')
        y += 50
    # the legend
    lx = left
    for t in TOOLS:
        out.append(f'<rect x="{lx}" y="8" width="10" height="10" fill="{COLOURS[t]}"/>')
        out.append(f'<text x="{lx + 14}" y="17" font-size="11">{"hand-written" if t == "hand" else t}</text>')
        lx += 110
    height = y
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 60}" height="{height}" '
            f'font-family="sans-serif"><rect width="100%" height="100%" fill="white"/>' + "".join(out) + "</svg>\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--markdown", required=True)
    parser.add_argument("--svg", required=True)
    parser.add_argument("results", nargs="+")
    args = parser.parse_args()
    runs = load(args.results)
    with open(args.markdown, "w") as f:
        f.write(markdown(runs))
    with open(args.svg, "w") as f:
        f.write(svg(runs))
    print(markdown(runs))


if __name__ == "__main__":
    main()
