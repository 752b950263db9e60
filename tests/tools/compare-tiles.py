#!/usr/bin/env python3
"""compare-tiles.py - does the audit of a tiled trace say, per copy, what the
audit of its input says?

usage: compare-tiles.py [--copies J,K,...] INPUT.json TILED.json TILED.tiling.json

INPUT.json and TILED.json are `coreaudit audit --json` of the input trace and
of the trace tile.py made of it (TILED.tiling.json, written by tile.py, holds
the mapping: copy j's CPU k is cpu_base[k] + j*cpu_step, its pid p > 0 is
p + j*pid_shift).  Every finding of the tiled audit is mapped back to its copy
and input CPU and pid, and compared exactly:

  verdict            the same
  totals             violations, trace events, lost events, missed switches,
                     reschedule IPIs, windows count and total_ns (overall,
                     by_kind, by_cause, undecided): N times the input's; max_ns
                     the same; p50_ns/p99_ns the same (N copies of a set have
                     its nearest-rank percentiles), or at most 0.4% above when
                     the tiled audit says "approximate" (over 65536 windows)
  forced idle        per CPU and per task (pid, comm, cookie, kernel_ns,
                     starved_ns, longest_starved_ns): each copy exactly the
                     input's
  windows            per copy, its windows (CPUs of the core, start, end, kind,
                     cause, leaving CPU, tasks with pid, comm, cookie, the
                     evidence of unexplained ones) exactly the input's, in the
                     input's order; when the tiled audit listed only part of its
                     windows (coreaudit keeps the first 10000 it finalizes and
                     lists them longest first), each copy's listed windows must
                     be exactly the input's windows that ended first, in the
                     input's order
  Cookies rebuilt from prctl calls (cookie_source prctl) are coreaudit's own
  numbers, handed out in call order: they are compared up to a one-to-one
  renaming per copy, read from the per-task figures.

With --copies, the tiled audit covered those copies only (coreaudit audit --cpu
with their CPUs): every finding must map to one of them, and the totals are
as many times the input's as copies are named (lost events and missed switches:
as many as copies there are, every CPU's count).

One line per aspect, "ok ASPECT: ..." or "not ok ASPECT: ...", on stdout; the
exit status is 1 when any aspect differs.  Nothing depends on the copy count:
the same comparison holds for any N the audit accepts.
"""
import json
import sys

PCT_KEYS = ("p50_ns", "p99_ns")


class Mapping:
    def __init__(self, info, selected=None):
        self.n = info["copies"]
        self.selected = selected if selected is not None else list(range(self.n))
        self.shift = info["pid_shift"]
        self.back = {}
        for j in range(self.n):
            for k, base in enumerate(info["cpu_base"]):
                self.back[base + j * info["cpu_step"]] = (j, k)

    def cpu(self, cpu):
        return self.back[cpu]

    def pid(self, pid):
        """(copy or None, input pid)"""
        if not isinstance(pid, int) or pid <= 0:
            return None, pid
        return pid // self.shift, pid % self.shift


def summary_ok(name, inp, out, n, approximate):
    """count/total N times, max equal, percentiles equal (or within 0.4% above)."""
    errs = []
    for key in ("count", "total_ns"):
        if out.get(key) != n * inp.get(key, 0):
            errs.append("%s %s: %s, expected %d x %s" % (name, key, out.get(key), n, inp.get(key)))
    if out.get("max_ns") != inp.get("max_ns"):
        errs.append("%s max_ns: %s, input %s" % (name, out.get("max_ns"), inp.get("max_ns")))
    for key in PCT_KEYS:
        a, b = inp.get(key), out.get(key)
        if a == b:
            continue
        if approximate and a is not None and b is not None and a <= b <= a * 1.004 + 1:
            continue
        errs.append("%s %s: %s, input %s" % (name, key, b, a))
    return errs


def map_evidence(m, ev, copy):
    """An evidence row of a tiled window, back in input terms."""
    ev = dict(ev)
    if "cpu" in ev and isinstance(ev["cpu"], int) and ev["cpu"] in m.back:
        ev["cpu"] = m.cpu(ev["cpu"])[1]
    if "pid" in ev:
        ev["pid"] = m.pid(ev["pid"])[1]
    kind = str(ev.get("event", ""))
    if "switch" in kind:
        for key in ("a", "b"):
            if key in ev:
                ev[key] = m.pid(ev[key])[1]
    elif "wakeup" in kind or "waking" in kind:
        if "a" in ev:
            ev["a"] = m.pid(ev["a"])[1]
        if isinstance(ev.get("b"), int) and ev["b"] in m.back:
            ev["b"] = m.cpu(ev["b"])[1]
    elif "ipi" in kind and isinstance(ev.get("a"), int):
        # the target CPU (one row per target of a cpumask send)
        if ev["a"] in m.back:
            ev["a"] = m.cpu(ev["a"])[1]
        elif ev["a"] >= 0:
            ev["a"] = "CPU %d of no copy" % ev["a"]
    return json.dumps(ev, sort_keys=True)


def window_key(m, w):
    """(copy, the window in input terms) of a tiled window; copy 0 for the input."""
    cpus = [m.cpu(c) for c in w["cpus"]]
    copy = cpus[0][0]
    key = dict(w)
    key.pop("core", None)
    key["cpus"] = sorted(k for _, k in cpus)
    if isinstance(w.get("leaving_cpu"), int) and w["leaving_cpu"] in m.back:
        key["leaving_cpu"] = m.cpu(w["leaving_cpu"])[1]
    key["tasks"] = [dict(t, pid=m.pid(t.get("pid"))[1]) for t in w.get("tasks", [])]
    if "evidence" in w:
        key["evidence"] = [map_evidence(m, e, copy) for e in w["evidence"]]
    return copy, json.dumps(key, sort_keys=True)


def time_prefix(got, want, windows):
    """None when @got is the input's windows that ended first, in the input's
    order (coreaudit keeps the first windows it finalizes, lists them longest
    first); else what is wrong."""
    where = {key: i for i, key in enumerate(want)}
    idx = [where.get(key) for key in got]
    if None in idx:
        return "%d listed windows are none of the input's (first: %s)" % (
            idx.count(None), difference(got[idx.index(None)], want))
    if idx != sorted(idx) or len(set(idx)) != len(idx):
        return "its listed windows are not in the input's order"
    chosen = set(idx)
    if len(chosen) < len(windows) and chosen:
        last = max(windows[i]["end_ns"] for i in chosen)
        first_left = min(w["end_ns"] for i, w in enumerate(windows) if i not in chosen)
        if last > first_left:
            return "its %d listed windows are not the input's first %d to end" % (
                len(idx), len(idx))
    return None


def cookie_renaming(m, inp, out, errs):
    """Cookies rebuilt from prctl calls are coreaudit's own numbers, given in
    the order of the calls: copy j's are others than the input's.  Then, per
    copy, the one-to-one renaming the per-task figures imply; else None."""
    if inp["trace"].get("cookie_source") != "prctl":
        return None
    of_pid = {t["pid"]: t.get("cookie") for t in inp["forced_idle"]["per_task"]}
    maps = [{} for _ in range(m.n)]
    for t in out["forced_idle"]["per_task"]:
        j, pid = m.pid(t["pid"])
        if j is None or j >= m.n or pid not in of_pid or t.get("cookie") is None:
            continue
        mine, theirs = maps[j].setdefault(t["cookie"], of_pid[pid]), of_pid[pid]
        if mine != theirs:
            errs.append("copy %d: cookie %s is the input's %s and %s" % (j, t["cookie"],
                                                                         mine, theirs))
    for j, mp in enumerate(maps):
        if len(set(mp.values())) != len(mp):
            errs.append("copy %d: two cookies are one of the input's" % j)
    return maps


def difference(key, want):
    """What differs between a window (JSON key) and the input's window of the
    same start and end."""
    w = json.loads(key)
    for other in map(json.loads, want):
        if (other["start_ns"], other["end_ns"]) != (w["start_ns"], w["end_ns"]):
            continue
        fields = sorted(k for k in set(w) | set(other) if w.get(k) != other.get(k))
        if fields == ["evidence"]:
            rows = [(json.loads(a), json.loads(b))
                    for a, b in zip(w["evidence"], other["evidence"]) if a != b]
            if rows:
                a, b = rows[0]
                return "evidence %s: %s, input %s" % (
                    a.get("event"), {k: a[k] for k in a if a[k] != b.get(k)},
                    {k: b.get(k) for k in a if a[k] != b.get(k)})
        return "window at %d: %s differ" % (w["start_ns"], ", ".join(fields))
    return "window at %d-%d: no input window there" % (w["start_ns"], w["end_ns"])


def identity_key(w):
    key = dict(w)
    key.pop("core", None)
    key["cpus"] = sorted(w["cpus"])
    if "evidence" in w:
        key["evidence"] = [json.dumps(e, sort_keys=True) for e in w["evidence"]]
    return json.dumps(key, sort_keys=True)


def compare(inp, out, info, selected=None):
    m = Mapping(info, selected)
    n = len(m.selected)
    results = []

    def report(aspect, errs, what):
        if errs:
            results.append("not ok %s: %s%s" % (aspect, "; ".join(errs[:5]),
                                                 " (+%d more)" % (len(errs) - 5)
                                                 if len(errs) > 5 else ""))
        else:
            results.append("ok %s: %s" % (aspect, what))

    report("verdict", [] if inp["verdict"] == out["verdict"] else
           ["%s, input %s" % (out["verdict"], inp["verdict"])], inp["verdict"])

    errs = []
    if out.get("violations") != n * inp.get("violations", 0):
        errs.append("violations %s, expected %d x %s" % (out.get("violations"), n,
                                                         inp.get("violations")))
    for key in ("events", "lost_events", "missed_switches", "resched_ipis"):
        a, b = inp["trace"].get(key), out["trace"].get(key)
        # lost events and missing switches count on every CPU, audited or not:
        # they may hide a wakeup or a kick onto an audited one
        copies = m.n if key in ("lost_events", "missed_switches") else n
        if a is not None and b != copies * a:
            errs.append("trace.%s %s, expected %d x %s" % (key, b, copies, a))
    for key in ("span_ns", "observed_pct", "clock", "cookie_source", "identity"):
        if inp["trace"].get(key) != out["trace"].get(key):
            errs.append("trace.%s %s, input %s" % (key, out["trace"].get(key),
                                                   inp["trace"].get(key)))
    wi, wo = inp["windows"], out["windows"]
    summaries = [("windows", wi, wo)]
    for group in ("by_kind", "by_cause"):
        for name, s in wi.get(group, {}).items():
            summaries.append(("%s.%s" % (group, name), s, wo.get(group, {}).get(name, {})))
    if "undecided" in wi:
        summaries.append(("undecided", wi["undecided"], wo.get("undecided", {})))
    for name, a, b in summaries:
        errs += summary_ok(name, a, b, n, b.get("approximate", False))
    report("totals", errs, "%d windows (%d x %d), %d violations, %d events"
           % (wo["count"], n, wi["count"], out.get("violations", 0), out["trace"]["events"]))

    errs = []
    per_in = inp["forced_idle"]["per_cpu_ns"]
    per_out = out["forced_idle"]["per_cpu_ns"]
    for cpu, ns in per_out.items():
        if int(cpu) not in m.back or m.cpu(int(cpu))[0] not in m.selected:
            if ns:
                errs.append("CPU %s is no copy's, yet has %s ns" % (cpu, ns))
            continue
        j, k = m.cpu(int(cpu))
        if ns != per_in.get(str(k)):
            errs.append("CPU %s (copy %d CPU %d): %s ns, input %s" % (cpu, j, k, ns,
                                                                      per_in.get(str(k))))
    for cpu in m.back:
        if m.cpu(cpu)[0] not in m.selected:
            continue
        if str(cpu) not in per_out and per_in.get(str(m.cpu(cpu)[1])):
            errs.append("CPU %d missing" % cpu)
    report("forced idle per CPU", errs, "%d CPUs, each its input CPU's"
           % sum(1 for c in m.back if m.cpu(c)[0] in m.selected))

    errs = []
    renamed = cookie_renaming(m, inp, out, errs)
    want = sorted(json.dumps(t, sort_keys=True) for t in inp["forced_idle"]["per_task"])
    copies = {j: [] for j in m.selected}
    for t in out["forced_idle"]["per_task"]:
        j, pid = m.pid(t["pid"])
        if j is None or j not in copies:
            errs.append("task %s belongs to no copy" % t["pid"])
            continue
        t = dict(t, pid=pid)
        if "longest_starved_cpu" in t:  # the copy's CPU, as the input's
            cj, k = m.cpu(t["longest_starved_cpu"])
            if cj != j:
                errs.append("task %s starved longest on CPU %d of copy %d"
                            % (t["pid"], t["longest_starved_cpu"], cj))
            t["longest_starved_cpu"] = k
        if renamed and t.get("cookie") is not None:
            t["cookie"] = renamed[j].get(t["cookie"], t["cookie"])
        copies[j].append(json.dumps(t, sort_keys=True))
    for j in m.selected:
        if sorted(copies[j]) != want:
            errs.append("copy %d: %d tasks differ" % (j, len(set(copies[j]) ^ set(want))))
    report("forced idle per task", errs, "%d copies of %d tasks, pids shifted by %d%s"
           % (n, len(want), m.shift, ", prctl cookies renamed one-to-one per copy"
              if renamed else ""))

    errs = []
    want = [identity_key(w) for w in wi.get("list", [])]
    complete_in = wi.get("not_listed", 0) == 0 and len(want) == wi["count"]
    got = {j: [] for j in m.selected}
    for w in wo.get("list", []):
        if renamed:
            j = m.cpu(w["cpus"][0])[0]
            w = dict(w, tasks=[dict(t, cookie=renamed[j].get(t.get("cookie"), t.get("cookie")))
                               for t in w.get("tasks", [])])
        j, key = window_key(m, w)
        if j not in got:
            errs.append("a window on CPUs %s, of copy %d, which was not audited" % (w["cpus"], j))
            continue
        got[j].append(key)
    complete_out = wo.get("not_listed", 0) == 0
    if not complete_in:
        errs.append("the input's audit did not list all its windows (%d of %d)"
                    % (len(want), wi["count"]))
    listed = 0
    for j in m.selected:
        listed += len(got[j])
        if complete_out:
            if got[j] != want:
                bad = next((i for i, (a, b) in enumerate(zip(got[j], want)) if a != b),
                           min(len(got[j]), len(want)))
                errs.append("copy %d: %d windows, input %d, first difference at %d"
                            % (j, len(got[j]), len(want), bad))
        else:
            err = time_prefix(got[j], want, wi.get("list", []))
            if err:
                errs.append("copy %d: %s" % (j, err))
    if listed != wo.get("listed", listed):
        errs.append("%d windows in the list, listed says %s" % (listed, wo.get("listed")))
    if complete_out:
        what = "each of %d copies: its %d windows, exactly the input's" % (n, len(want))
    else:
        what = ("%d of %d windows listed (coreaudit's list limit): per copy the %d to %d "
                "of the input's that ended first, exactly" % (listed, wo["count"],
                                                              min(map(len, got.values())),
                                                              max(map(len, got.values()))))
    report("windows", errs, what)
    return results


def main(argv):
    selected = None
    if len(argv) == 6 and argv[1] == "--copies":
        selected = sorted({int(j) for j in argv[2].split(",")})
        argv = argv[:1] + argv[3:]
    if len(argv) != 4:
        sys.exit(__doc__)
    with open(argv[1]) as f:
        inp = json.load(f)
    with open(argv[2]) as f:
        out = json.load(f)
    with open(argv[3]) as f:
        info = json.load(f)
    try:
        results = compare(inp, out, info, selected)
    except (KeyError, TypeError, ValueError, IndexError) as e:
        results = ["not ok compare: the tiled audit does not map back to the input's "
                   "(%s: %s)" % (type(e).__name__, e)]
    print("\n".join(results))
    return 1 if any(r.startswith("not ok") for r in results) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
