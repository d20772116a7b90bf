#!/usr/bin/env python3
"""Runs one of GradBench's own evals against unfad_gradbench_tool: starts the eval and the tool
and passes each of the eval's messages to the tool and each reply back (what GradBench's `gradbench
run` does), printing a line per exchange. The eval's Python needs GradBench's python/gradbench
package (a checkout of gradbench/gradbench) with pydantic 2 and numpy, and runs from the checkout's
root (it reads evals/<name>/data/).

usage: run_eval.py TOOL -- python3 -m gradbench.evals.ba.run --no-validation --max 2
"""
import json
import subprocess
import sys


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        print(__doc__, file=sys.stderr)
        return 2
    tool = subprocess.Popen([sys.argv[1]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    ev = subprocess.Popen(sys.argv[3:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    count = 0
    for line in ev.stdout:
        message = json.loads(line)
        tool.stdin.write(line)
        tool.stdin.flush()
        reply = tool.stdout.readline()
        if not reply:
            print("the tool stopped answering", file=sys.stderr)
            return 1
        shown = {k: v for k, v in json.loads(reply).items() if k not in ("output", "timings")}
        print(message.get("kind"), message.get("module", ""), message.get("function", ""),
              message.get("description", ""), "->", json.dumps(shown))
        ev.stdin.write(reply)
        ev.stdin.flush()
        count += 1
    ev.wait()
    tool.stdin.close()
    tool.wait()
    print(f"{count} messages; the eval exited with {ev.returncode}")
    return ev.returncode


if __name__ == "__main__":
    sys.exit(main())
