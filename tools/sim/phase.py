#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""phase.py - a story's figures over its tasks' start offsets.

    tools/sim/phase.py MODEL STORY TASK=US,US,... [TASK=...] [--base POLICY]
                       [-p POLICY,...] [--sim PATH]

Every combination of the offsets given: each named task starts that many us
late (a first phase that sleeps for it, then the task's own events; 0
leaves the task as the story has it, so all zeros is the story itself).
Periodic tasks keep their cadence from where they start, so an offset
moves their phase against the others'.  One line per combination, each
policy's energy (mJ) and p99 (us), then per policy the mean energy, its
mean ratio to --base's energy (default eas) and on how many combinations
that ratio is above 1.01 (issue 19's bound against a baseline), e.g.
phone video's compositor and audio thread, 45 phases
(Documentation/placement.rst):

    tools/sim/phase.py models/phone-biglittle.model \\
        tools/sim/stories/video.json compositor=0,2000,4000,6000,8000,10000,12000,14000,16000 \\
        audio=0,2000,4000,6000,8000
"""
import argparse
import csv
import itertools
import json
import os
import subprocess
import sys
import tempfile

EVENT_KEYS = ("run", "runtime", "sleep", "timer")


def is_event(key):
    """An event key: run, runtime, sleep, timer, optionally with digits."""
    for ev in EVENT_KEYS:
        if key == ev or (key.startswith(ev) and key[len(ev):].isdigit()):
            return True
    return False


def delayed(task, off_us):
    """@task starting @off_us later: a first phase sleeps for it."""
    if off_us == 0:
        return task
    out = {k: v for k, v in task.items() if k != "loop" and k != "phases" and not is_event(k)}
    loop = task.get("loop", 1)
    if "phases" in task:
        if loop != 1:
            sys.exit("phase.py: a task with phases and a loop cannot be delayed")
        phases = dict(task["phases"])
    else:
        main = {"loop": loop}
        main.update({k: v for k, v in task.items() if is_event(k)})
        phases = {"main": main}
    name = "phase_py_offset"
    out["phases"] = {name: {"loop": 1, "sleep": off_us}}
    out["phases"].update(phases)
    return out


def run(sim, model, pols, story, out):
    """Each policy's (energy_mJ, p99_us) for @story, its CSV in @out."""
    subprocess.run([sim, "-m", model, "-p", pols, "--csv", out, story],
                   stdout=subprocess.DEVNULL, check=True)
    with open(out) as f:
        rows = csv.DictReader(f)
        return {r["policy"]: (float(r["energy_uj"]) / 1000, r["p99_us"]) for r in rows
                if r["energy_uj"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("model")
    ap.add_argument("story")
    ap.add_argument("offsets", nargs="+", metavar="TASK=US,US,...")
    ap.add_argument("-p", dest="pols", default="cfs,eas,sp-power,sp-power-nofloor,oracle-lat")
    ap.add_argument("--base", default="eas")
    ap.add_argument("--sim", default=os.environ.get("SP_SIM", "build/tools/sim/sp_sim"))
    a = ap.parse_args()
    with open(a.story) as f:
        story = json.load(f)
    names, lists = [], []
    for spec in a.offsets:
        task, _, offs = spec.partition("=")
        if task not in story["tasks"]:
            sys.exit("phase.py: no task %s in %s" % (task, a.story))
        names.append(task)
        lists.append([int(x) for x in offs.split(",")])
    pols = a.pols.split(",")
    if a.base not in pols:
        pols.append(a.base)
    sums = {p: 0.0 for p in pols}
    ratios = {p: 0.0 for p in pols}
    over = {p: 0 for p in pols}
    n = 0
    with tempfile.TemporaryDirectory() as tmp:
        for combo in itertools.product(*lists):
            s = json.loads(json.dumps(story))
            for task, off in zip(names, combo):
                s["tasks"][task] = delayed(s["tasks"][task], off)
            path = os.path.join(tmp, "story.json")
            with open(path, "w") as f:
                json.dump(s, f)
            r = run(a.sim, a.model, ",".join(pols), path, os.path.join(tmp, "out.csv"))
            base = r[a.base][0]
            tag = " ".join("%s=%d" % (t, o) for t, o in zip(names, combo))
            print(tag, " ".join("%s %.1f mJ %s us" % (p, r[p][0], r[p][1]) for p in pols))
            for p in pols:
                sums[p] += r[p][0]
                ratios[p] += r[p][0] / base
                over[p] += r[p][0] > 1.01 * base
            n += 1
    print("over %d phases: mean energy, mean ratio to %s, phases above 1.01x it" % (n, a.base))
    for p in pols:
        print("%-18s %10.1f %7.4f %4d/%d" % (p, sums[p] / n, ratios[p] / n, over[p], n))


if __name__ == "__main__":
    main()
