#!/usr/bin/env python3
"""tile.py - a trace.dat of a big machine made of N copies of a real small one.

usage: tile.py [options] IN.dat N OUT.dat

Copy j (0..N-1) of input CPU k becomes output CPU map_j(k):
  --layout packed   j*C + k                      (C: the input's CPU count)
  --layout split    x86 enumeration, siblings far apart: thread t of input
                    core c (of M cores of T threads) -> t*N*M + j*M + c;
                    for one core of C threads: j + k*N
  --layout sparse   j*(C+G) + k (--gap G, default 2): the G numbers after
                    each copy are possible-but-absent CPUs, declared in the
                    file with empty per-CPU data sections
  --layout time     k: the copies run one after another on the input's own
                    CPUs, copy j's timestamps later by j*P (P: the input's
                    span rounded up to a millisecond, plus one), pids kept: a
                    long trace of a small machine with the events of a big
                    one, for benchmarks (what runs at a join is not what ran
                    at the end of the copy before, so findings there differ)
Every pid p > 0 becomes p + j*SHIFT (--pid-shift, default: the smallest power
of ten above the input's largest pid; pid 0, the idle task, stays 0; the time
layout keeps every pid).
Timestamps are kept (but with --layout time): the copies run in parallel on
separate cores.

Options:
  --layout packed|split|sparse|time  (packed)
  --gap G                 absent CPUs after each copy in the sparse layout (2)
  --pid-shift S           pid offset between copies
  --topology SPEC         the input's cores ("0,1", "0-3", "0,2 1,3"); else
                          IN.topology ("CPU SIBLINGS" lines) beside IN, else
                          the input's coreaudit-topology marker
  --tasks FILE            the input's .tasks file (default: IN.tasks if present)
  --text FILE             also write `trace-cmd report` text of the result
  --print-topology        print only the tiled topology (for coreaudit audit -t)
  --ipi-as-cpumask        test aid: write each ipi:ipi_send_cpu as the
                          ipi:ipi_send_cpumask of that one CPU (real small
                          traces have no cpumask IPIs; this exercises their
                          re-encoding with real data)

Beside OUT.dat it writes OUT.topology (`CPU SIBLINGS` a line, as sysfs
thread_siblings_list), OUT.tasks (the input's task figures with shifted pids,
when the input has them) and OUT.tiling.json (the mapping, for
compare-tiles.py).

A version 7 or compressed input is first turned into version 6 with
`trace-cmd convert --file-version 6 --compression none`.  The output is
always version 6, uncompressed, little endian.  See tests/tools/README.
"""
import argparse
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import time

COMMIT_MASK = (1 << 27) - 1
MISSING_EVENTS = 1 << 31
MISSING_STORED = 1 << 30
TS_MSB = 0xf8 << 56
TS_DELTA_MASK = (1 << 27) - 1
TYPE_PADDING, TYPE_TIME_EXTEND, TYPE_TIME_STAMP = 29, 30, 31
PR_SCHED_CORE = 62
PID_MAX_LIMIT = 1 << 22          # the kernel's, on 64-bit (and coreaudit's pid table)

OPTION_CPUSTAT, OPTION_BUFFER, OPTION_CPUCOUNT = 2, 3, 8

PID_FIELD = re.compile(r"^(common_pid|pid|tgid|ppid|.+_pid|.+_tgid)$")
CPU_FIELD = re.compile(r"^(cpu|cpu_id|.+_cpu)$")
MARKER_PID = re.compile(r"(?<![^ ])((?:pid|tgid|ppid|[a-z_]+_pid)=)(\d+)")
INT_FMT = {(1, False): "B", (1, True): "b", (2, False): "H", (2, True): "h",
           (4, False): "I", (4, True): "i", (8, False): "Q", (8, True): "q"}


def die(msg):
    sys.stderr.write("tile.py: %s\n" % msg)
    sys.exit(1)


# ---------------------------------------------------------------- the file --

class Field:
    __slots__ = ("name", "decl", "offset", "size", "signed", "is_dyn", "is_array")

    def __init__(self, decl, offset, size, signed):
        self.decl = decl.strip()
        m = re.search(r"(\w+)\s*(\[[^\]]*\])?\s*$", self.decl)
        self.name = m.group(1) if m else ""
        self.is_array = bool(m and m.group(2))
        self.offset, self.size, self.signed = offset, size, signed
        self.is_dyn = self.decl.startswith("__data_loc") or self.decl.startswith("__rel_loc")


class Format:
    def __init__(self, system, text):
        self.system = system
        self.name = re.search(r"^name: (\S+)", text, re.M).group(1)
        self.id = int(re.search(r"^ID: (\d+)", text, re.M).group(1))
        self.fields = [Field(m.group(1), int(m.group(2)), int(m.group(3)), m.group(4) == "1")
                       for m in re.finditer(r"field:([^;]*);\s*offset:(\d+);\s*size:(\d+);"
                                            r"\s*signed:(\d+);", text)]
        self.by_name = {f.name: f for f in self.fields}
        self.text = text


class Trace:
    """A version 6 trace.dat, as trace-cmd.dat.v6(5) lays it out."""

    def __init__(self, path):
        with open(path, "rb") as f:
            b = f.read()
        self.b = b
        if b[:10] != b"\x17\x08Dtracing" or b[10:12] != b"6\0":
            die("%s: not a version 6 trace.dat" % path)
        if b[12] != 0:
            die("%s: big-endian trace files are not supported" % path)
        self.long_size = b[13]
        self.page_size = struct.unpack_from("<I", b, 14)[0]
        at = 18
        if b[at:at + 12] != b"header_page\0":
            die("%s: no header_page" % path)
        at += 12
        n = self.u64(at)
        header_page = b[at + 8:at + 8 + n].decode()
        at += 8 + n
        m = re.search(r"field: local_t commit;\s*offset:(\d+);\s*size:(\d+);", header_page)
        self.commit_size = int(m.group(2)) if m else self.long_size
        m = re.search(r"field: char data;\s*offset:(\d+);\s*size:(\d+);", header_page)
        self.data_offset = int(m.group(1)) if m else 8 + self.commit_size
        self.data_room = self.page_size - self.data_offset
        at += 13
        at += 8 + self.u64(at)                               # header_event
        self.formats = {}
        count = self.u32(at)
        at += 4
        for _ in range(count):                               # ftrace formats
            n = self.u64(at)
            self.add_format("ftrace", b[at + 8:at + 8 + n].decode(errors="replace"))
            at += 8 + n
        systems = self.u32(at)
        at += 4
        for _ in range(systems):                             # event formats
            end = b.index(b"\0", at)
            system = b[at:end].decode()
            at = end + 1
            count = self.u32(at)
            at += 4
            for _ in range(count):
                n = self.u64(at)
                self.add_format(system, b[at + 8:at + 8 + n].decode(errors="replace"))
                at += 8 + n
        at += 4 + self.u32(at)                               # kallsyms
        at += 4 + self.u32(at)                               # printk formats
        self.head_end = at                                   # all before cmdlines: kept
        n = self.u64(at)
        self.cmdlines = b[at + 8:at + 8 + n].decode(errors="replace")
        at += 8 + n
        self.cpus = self.u32(at)
        at += 4
        self.options = []
        kind = b[at:at + 10]
        at += 10
        if kind == b"options  \0":
            while True:
                option = self.u16(at)
                at += 2
                if option == 0:
                    break
                n = self.u32(at)
                self.options.append((option, b[at + 4:at + 4 + n]))
                at += 4 + n
            kind = b[at:at + 10]
            at += 10
        if kind != b"flyrecord\0":
            die("%s: %r traces are not supported (flyrecord only)" % (path, kind))
        if any(o == OPTION_BUFFER for o, _ in self.options):
            die("%s: traces with instance buffers are not supported" % path)
        self.cpu_data = []
        for _ in range(self.cpus):
            self.cpu_data.append((self.u64(at), self.u64(at + 8)))
            at += 16

    def u16(self, at):
        return struct.unpack_from("<H", self.b, at)[0]

    def u32(self, at):
        return struct.unpack_from("<I", self.b, at)[0]

    def u64(self, at):
        return struct.unpack_from("<Q", self.b, at)[0]

    def add_format(self, system, text):
        if "ID:" in text:
            fmt = Format(system, text)
            self.formats[fmt.id] = fmt

    def pages(self, cpu):
        """(timestamp, commit word, data bytes) of each page of @cpu."""
        offset, size = self.cpu_data[cpu]
        ps, cs, do = self.page_size, self.commit_size, self.data_offset
        for at in range(offset, offset + size - ps + 1, ps):
            ts = struct.unpack_from("<Q", self.b, at)[0]
            commit = struct.unpack_from("<Q" if cs == 8 else "<I", self.b, at + 8)[0]
            yield ts, commit, self.b[at + do:at + ps]


def records(data, commit, page_ts):
    """The records of one page, as kbuffer walks them: (kind, timestamp
    before, timestamp after, header bytes, payload) with kind data|raw."""
    size = commit & COMMIT_MASK
    pos, ts = 0, page_ts
    while pos + 4 <= size:
        word = struct.unpack_from("<I", data, pos)[0]
        type_len, delta = word & 31, word >> 5
        before = ts
        if type_len == TYPE_PADDING:
            length = struct.unpack_from("<I", data, pos + 4)[0] if pos + 8 <= size else 0
            end = pos + 4 + length
            if delta == 0 or end >= size or length == 0:
                return                                      # the page's tail
            ts += delta
            yield "raw", before, ts, data[pos:end], b""
            pos = end
        elif type_len in (TYPE_TIME_EXTEND, TYPE_TIME_STAMP):
            extend = (struct.unpack_from("<I", data, pos + 4)[0] << 27) + delta
            ts = (extend | (ts & TS_MSB)) if type_len == TYPE_TIME_STAMP else ts + extend
            yield "raw", before, ts, data[pos:pos + 8], b""
            pos += 8
        elif type_len == 0:
            length = struct.unpack_from("<I", data, pos + 4)[0] - 4
            length = (length + 3) & ~3
            ts += delta
            yield "data", before, ts, data[pos:pos + 8], data[pos + 8:pos + 8 + length]
            pos += 8 + length
        else:
            ts += delta
            yield "data", before, ts, data[pos:pos + 4], data[pos + 4:pos + 4 + 4 * type_len]
            pos += 4 + 4 * type_len


def header_for(orig, payload_len):
    """The record header of a payload of @payload_len, keeping orig's delta."""
    word = struct.unpack_from("<I", orig, 0)[0]
    type_len = word & 31
    if type_len == 0 and len(orig) == 8:
        old = ((struct.unpack_from("<I", orig, 4)[0] - 4) + 3) & ~3
    else:
        old = 4 * type_len
    if old == payload_len:
        return orig
    delta = word >> 5
    if payload_len <= 4 * 28:
        return struct.pack("<I", (payload_len // 4) | (delta << 5))
    return struct.pack("<II", delta << 5, payload_len + 4)


# ------------------------------------------------------------- the mapping --

def parse_spec(spec):
    """Cores of a topology spec: "0,1 2,3", "0-3 4-7" -> [[0,1],[2,3]]."""
    cores = []
    for core in spec.split():
        cpus = []
        for part in core.split(","):
            if "-" in part:
                lo, hi = part.split("-")
                cpus.extend(range(int(lo), int(hi) + 1))
            elif part:
                cpus.append(int(part))
        cores.append(sorted(cpus))
    return cores


def format_list(cpus):
    """A sibling list the way sysfs and coreaudit write it: 0-3, 0,16,32."""
    cpus = sorted(cpus)
    if len(cpus) > 1 and cpus[-1] - cpus[0] == len(cpus) - 1:
        return "%d-%d" % (cpus[0], cpus[-1])
    return ",".join(map(str, cpus))


def format_spec(cores):
    return " ".join(format_list(c) for c in sorted(cores, key=min))


def read_topology_file(path):
    cores = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 2:
                core = parse_spec(parts[1])[0]
                if core not in cores:
                    cores.append(core)
    return cores


class Tiling:
    def __init__(self, cores, cpus, copies, layout, gap):
        self.cores, self.C, self.N, self.layout = cores, cpus, copies, layout
        C, N = cpus, copies
        self.period = 0                         # the time layout's shift per copy
        if layout == "time":
            self.base, self.step, self.out_cpus = list(range(C)), 0, C
        elif layout == "packed":
            self.base, self.step, self.out_cpus = list(range(C)), C, N * C
        elif layout == "sparse":
            self.base, self.step, self.out_cpus = list(range(C)), C + gap, N * (C + gap)
        else:
            M = len(cores)
            threads = {len(c) for c in cores}
            if len(threads) == 1 and sum(len(c) for c in cores) == C:
                self.base = [0] * C
                for c, core in enumerate(cores):
                    for t, cpu in enumerate(core):
                        self.base[cpu] = t * N * M + c
                self.step = M
            else:
                self.base, self.step = [k * N for k in range(C)], 1
            self.out_cpus = N * C
        # output CPU -> (copy, input CPU); the time layout's CPUs hold every copy
        self.owner = {self.cpu(j, k): (j, k) for j in range(N) for k in range(C)}

    def cpu(self, j, k):
        return self.base[k] + j * self.step

    def tiled_cores(self):
        if self.layout == "time":
            return [list(core) for core in self.cores]
        return [[self.cpu(j, k) for k in core] for j in range(self.N) for core in self.cores]

    def owners(self, cpu):
        """The (copy, input CPU) pairs whose data make up output CPU @cpu, in order."""
        if self.layout == "time":
            return [(j, cpu) for j in range(self.N)] if cpu < self.C else []
        return [self.owner[cpu]] if cpu in self.owner else []



# ---------------------------------------------------------------- rewriting --

class Plan:
    """What one event's records need, from its format, by field name."""

    def __init__(self, fmt):
        self.fmt = fmt
        ints = [f for f in fmt.fields
                if not f.is_dyn and not f.is_array and (f.size, f.signed) in INT_FMT]
        self.pids = [f for f in ints if PID_FIELD.match(f.name)]
        self.cpus = [f for f in ints if CPU_FIELD.match(f.name)]
        self.dyn = [f for f in fmt.fields if f.is_dyn and f.size == 4]
        self.masks = {f.name for f in self.dyn if "cpumask" in f.decl}
        self.is_marker = fmt.name == "print" and "buf" in fmt.by_name
        self.prctl = (fmt.name == "sys_enter_prctl" and "option" in fmt.by_name and
                      "arg3" in fmt.by_name)


class Rewriter:
    def __init__(self, trace, tiling, shift, topo_spec, ipi_as_cpumask):
        self.trace, self.t, self.shift = trace, tiling, shift
        self.topo_spec = topo_spec
        self.plans = {i: Plan(f) for i, f in trace.formats.items()}
        self.mask_width = -(-tiling.out_cpus // (8 * trace.long_size)) * trace.long_size
        self.max_pid = tiling.N - 1
        self.ipi_swap = None
        if ipi_as_cpumask:
            by_name = {f.name: f for f in trace.formats.values() if f.system == "ipi"}
            one, many = by_name.get("ipi_send_cpu"), by_name.get("ipi_send_cpumask")
            if not one or not many:
                die("--ipi-as-cpumask: the input has no ipi_send_cpu/ipi_send_cpumask formats")
            self.ipi_swap = (one, many)
        self.unmapped_mask_bits = 0

    # A linear site: value + j*delta in copy j.
    def site(self, sites, at, field, value, delta):
        fmtc = INT_FMT[(field.size, field.signed)]
        last = value + (self.t.N - 1) * delta
        limit = 1 << (8 * field.size - (1 if field.signed else 0))
        if last >= limit:
            die("field %s: %d does not fit %d bytes; fewer copies or a smaller --pid-shift"
                % (field.name, last, field.size))
        sites.append((at + field.offset, fmtc, delta))

    def linear(self, plan, payload, sites, at):
        """Pid and CPU fields of @payload (rewritten to copy 0 in place)."""
        for f in plan.pids:
            v = struct.unpack_from("<" + INT_FMT[(f.size, f.signed)], payload, f.offset)[0]
            if v > 0:
                self.site(sites, at, f, v, self.shift)
        if plan.prctl:
            o, a = plan.fmt.by_name["option"], plan.fmt.by_name["arg3"]
            option = struct.unpack_from("<" + INT_FMT[(o.size, o.signed)], payload, o.offset)[0]
            v = struct.unpack_from("<" + INT_FMT[(a.size, a.signed)], payload, a.offset)[0]
            if option == PR_SCHED_CORE and 0 < v < (1 << 31):
                self.site(sites, at, a, v, self.shift)
        for f in plan.cpus:
            fc = "<" + INT_FMT[(f.size, f.signed)]
            v = struct.unpack_from(fc, payload, f.offset)[0]
            if 0 <= v < self.t.C:
                struct.pack_into(fc, payload, f.offset, self.t.base[v])
                self.site(sites, at, f, self.t.base[v], self.t.step)

    def marker_text(self, text, j):
        if text.startswith("coreaudit-topology "):
            return "coreaudit-topology " + self.topo_spec + ("\n" if text.endswith("\n") else "")
        if not text.startswith("coreaudit-"):
            return text
        return MARKER_PID.sub(lambda m: m.group(1) + str(int(m.group(2)) + j * self.shift
                                                          if int(m.group(2)) > 0
                                                          else m.group(2)), text)

    def mask_bytes(self, mask, j):
        out = 0
        for k in range(self.t.C):
            if mask >> k & 1:
                out |= 1 << self.t.cpu(j, k)
        return out.to_bytes(self.mask_width, "little")

    def record(self, payload, at, sites, patches):
        """Copy 0's payload of one data record; fills @sites and @patches
        (offsets from @at, where the payload will start)."""
        if len(payload) < 8:
            return payload
        eid = struct.unpack_from("<H", payload, 0)[0]
        plan = self.plans.get(eid)
        if plan is None:
            return payload
        if self.ipi_swap and eid == self.ipi_swap[0].id:
            payload, plan = self.as_cpumask(payload), self.plans[self.ipi_swap[1].id]
        payload = bytearray(payload)
        if plan.is_marker:
            return self.marker(plan, payload, at, sites, patches)
        if plan.dyn and plan.masks:
            payload = self.remask(plan, payload, at, patches)
        self.linear(plan, payload, sites, at)
        return payload

    def as_cpumask(self, payload):
        one, many = self.ipi_swap
        cpu = struct.unpack_from("<I", payload, one.by_name["cpu"].offset)[0]
        fields = [f for f in many.fields if not f.is_dyn]
        loc = many.by_name["cpumask"]
        fixed = max(f.offset + f.size for f in many.fields)
        out = bytearray(fixed)
        out[0:8] = payload[0:8]
        struct.pack_into("<H", out, 0, many.id)
        for f in fields:
            if f.name in one.by_name and f.offset >= 8:
                src = one.by_name[f.name]
                out[f.offset:f.offset + f.size] = payload[src.offset:src.offset + src.size]
        mask = (1 << cpu).to_bytes(self.trace.long_size, "little")
        struct.pack_into("<I", out, loc.offset, (len(mask) << 16) | len(out))
        out += mask
        out += bytes(-len(out) % 4)
        return bytes(out)

    def remask(self, plan, payload, at, patches):
        """Dynamic fields laid out again, cpumasks at the output's width."""
        locs = []
        for f in plan.dyn:
            word = struct.unpack_from("<I", payload, f.offset)[0]
            off, length = word & 0xffff, word >> 16
            if f.decl.startswith("__rel_loc"):
                off += f.offset + 4
            locs.append((off, length, f))
        locs.sort(key=lambda x: x[0])
        start = min(off for off, _, _ in locs)
        out = bytearray(payload[:start])
        for off, length, f in locs:
            new_off = len(out)
            if f.name in plan.masks:
                mask = int.from_bytes(payload[off:off + length], "little")
                if mask >> self.t.C:
                    self.unmapped_mask_bits += 1
                out += self.mask_bytes(mask, 0)
                if self.t.N > 1:
                    patches.append((at + new_off, lambda j, m=mask: self.mask_bytes(m, j)))
                new_len = self.mask_width
            else:
                out += payload[off:off + length]
                new_len = length
            rel = new_off - (f.offset + 4) if f.decl.startswith("__rel_loc") else new_off
            struct.pack_into("<I", out, f.offset, (new_len << 16) | rel)
        out += bytes(-len(out) % 4)
        return out

    def marker(self, plan, payload, at, sites, patches):
        buf = plan.fmt.by_name["buf"].offset
        raw = bytes(payload[buf:])
        text = raw.split(b"\0", 1)[0].decode(errors="surrogateescape")
        texts = [self.marker_text(text, 0), self.marker_text(text, self.t.N - 1)]
        room = max(len(t.encode(errors="surrogateescape")) for t in texts) + 1
        out = bytearray(payload[:buf])
        self.linear(plan, out, sites, at)
        total = buf + room + (-(buf + room) % 4)
        width = total - buf
        enc = lambda j: self.marker_text(text, j).encode(errors="surrogateescape").ljust(width, b"\0")
        out += enc(0)
        per_copy = (text.startswith("coreaudit-") and not text.startswith("coreaudit-topology ")
                    and any(int(m.group(2)) > 0 for m in MARKER_PID.finditer(text)))
        if self.t.N > 1 and per_copy:
            patches.append((at + buf, enc))
        return out


class Stream:
    """One input CPU's records, packed into fresh pages for copy 0, with what
    changes per copy.

    Pages are filled in order; a page with lost-events flags in the input
    starts a page of its own with those flags (and the stored count), so the
    loss is reported before the same event as in the input.  Where the next
    input page's records join the current output page, a time-extend record
    carries the timestamp from the last record to that page's timestamp; the
    records' own deltas are kept."""

    def __init__(self, rw, trace, cpu):
        self.pages = 0
        self.events = 0
        out = bytearray()
        sites, patches = [], []
        ps, do, room = trace.page_size, trace.data_offset, trace.data_room
        cfmt = "<Q" if trace.commit_size == 8 else "<I"
        lsize = trace.long_size
        cur = None
        running = 0
        for page_ts, commit, data in trace.pages(cpu):
            flags = commit & ~COMMIT_MASK & ((1 << (8 * trace.commit_size)) - 1)
            lost = None
            if flags & MISSING_EVENTS and flags & MISSING_STORED:
                size = commit & COMMIT_MASK
                lost = data[size:size + lsize]
            fresh = cur is None or flags or page_ts < running
            if not fresh and page_ts > running:
                gap = page_ts - running
                if gap >> 59 or len(cur) + 8 > cap:
                    fresh = True
                else:
                    cur += struct.pack("<II", TYPE_TIME_EXTEND | (gap & TS_DELTA_MASK) << 5,
                                       gap >> 27)
            if fresh:
                if cur is not None and (cur or cur_flags):
                    self.flush(out, cur, cur_ts, cur_flags, cur_lost, ps, do, cfmt)
                cur, cur_ts, cur_flags, cur_lost = bytearray(), page_ts, flags, lost
                cap = room - (lsize if lost is not None else 0)
            running = page_ts
            for kind, before, after, header, payload in records(data, commit, page_ts):
                if rw.t.period and kind == "raw" and header[0] & 31 == TYPE_TIME_STAMP:
                    die("--layout time: the input has absolute timestamps in its pages")
                base = len(out) + do
                if kind == "data":
                    self.events += 1
                    rs, rp = [], []
                    new = rw.record(payload, 0, rs, rp)
                    head = header_for(header, len(new))
                    rec = head + new
                else:
                    rec, head, rs, rp = header, b"", [], []
                if len(cur) + len(rec) > cap and cur:
                    self.flush(out, cur, cur_ts, cur_flags, cur_lost, ps, do, cfmt)
                    cur, cur_ts, cur_flags, cur_lost, cap = bytearray(), before, 0, None, room
                    base = len(out) + do
                if len(rec) > cap:
                    die("a record of %d bytes does not fit a %d-byte page (a coreaudit-topology "
                        "marker of too many CPUs?)" % (len(rec), ps))
                at = base + len(cur) + len(head)
                sites.extend((at + o, f, d) for o, f, d in rs)
                patches.extend((at + o, g) for o, g in rp)
                cur += rec
                running = after
        if cur is not None and (cur or cur_flags):
            self.flush(out, cur, cur_ts, cur_flags, cur_lost, ps, do, cfmt)
        if rw.t.period:                         # each page's timestamp, later per copy
            sites.extend((at, "Q", rw.t.period) for at in range(0, len(out), ps))
        self.template = out
        self.patches = patches
        delta = bytearray(len(out))
        for at, f, d in sites:
            struct.pack_into("<" + f.upper(), delta, at, d)
        self.tint = int.from_bytes(out, "little")
        self.dint = int.from_bytes(delta, "little")

    def flush(self, out, cur, ts, flags, lost, ps, do, cfmt):
        page = bytearray(ps)
        struct.pack_into("<Q", page, 0, ts)
        struct.pack_into(cfmt, page, 8, len(cur) | flags)
        page[do:do + len(cur)] = cur
        if lost is not None:
            page[do + len(cur):do + len(cur) + len(lost)] = lost
        out += page
        self.pages += 1

    def copy(self, j):
        if j == 0:
            data = bytearray(self.template)
        else:
            data = bytearray((self.tint + j * self.dint).to_bytes(len(self.template), "little"))
        for at, gen in self.patches:
            b = gen(j)
            data[at:at + len(b)] = b
        return data


# ------------------------------------------------------------------ writing --

def max_pid(trace):
    """The largest pid in the input: pid fields of every record, cmdlines."""
    top = 0
    for line in trace.cmdlines.splitlines():
        parts = line.split(None, 1)
        if parts and parts[0].isdigit():
            top = max(top, int(parts[0]))
    plans = {i: Plan(f) for i, f in trace.formats.items()}
    for cpu in range(trace.cpus):
        for ts, commit, data in trace.pages(cpu):
            for kind, _, _, _, payload in records(data, commit, ts):
                if kind != "data" or len(payload) < 8:
                    continue
                plan = plans.get(struct.unpack_from("<H", payload, 0)[0])
                if not plan:
                    continue
                for f in plan.pids:
                    if f.offset + f.size <= len(payload):
                        v = struct.unpack_from("<" + INT_FMT[(f.size, f.signed)], payload,
                                               f.offset)[0]
                        top = max(top, v)
                if plan.is_marker:
                    text = payload[plan.fmt.by_name["buf"].offset:].split(b"\0")[0].decode(
                        errors="replace")
                    for m in MARKER_PID.finditer(text):
                        top = max(top, int(m.group(2)))
    return top


def find_topology_marker(trace):
    plans = {i: Plan(f) for i, f in trace.formats.items()}
    for cpu in range(trace.cpus):
        for ts, commit, data in trace.pages(cpu):
            for kind, _, _, _, payload in records(data, commit, ts):
                if kind != "data" or len(payload) < 8:
                    continue
                plan = plans.get(struct.unpack_from("<H", payload, 0)[0])
                if plan and plan.is_marker:
                    text = payload[plan.fmt.by_name["buf"].offset:].split(b"\0")[0].decode(
                        errors="replace")
                    if text.startswith("coreaudit-topology "):
                        return text[len("coreaudit-topology "):].strip()
    return None


def time_period(trace):
    """The shift between copies of the time layout: the input's span, from its
    first page to its last record, rounded up to a millisecond, plus one."""
    first, last = None, 0
    for cpu in range(trace.cpus):
        for ts, commit, data in trace.pages(cpu):
            first = ts if first is None else min(first, ts)
            for _, _, after, _, _ in records(data, commit, ts):
                last = max(last, after)
    if first is None:
        die("--layout time: the input has no events")
    return (-(-(last - first) // 1000000) + 1) * 1000000


def write_tiled(trace, tiling, streams, shift, path):
    b = trace.b
    N = tiling.N
    cmdlines = []
    for j in range(N):
        for line in trace.cmdlines.splitlines():
            parts = line.split(None, 1)
            if len(parts) == 2 and parts[0].isdigit():
                pid = int(parts[0])
                if pid == 0 and j:
                    continue
                cmdlines.append("%d %s" % (pid + j * shift if pid else 0, parts[1]))
            elif j == 0 and line:
                cmdlines.append(line)
    cmdlines = ("\n".join(cmdlines) + "\n").encode(errors="surrogateescape")
    stats = {}
    options = []
    for option, body in trace.options:
        if option == OPTION_CPUSTAT:
            m = re.match(rb"CPU: (\d+)\n", body)
            if m:
                stats[int(m.group(1))] = body[m.end():]
            continue
        if option == OPTION_CPUCOUNT:
            continue
        options.append((option, body))
    for cpu in range(tiling.out_cpus):
        owners = tiling.owners(cpu)
        if owners and owners[0][1] in stats:
            options.append((OPTION_CPUSTAT, b"CPU: %d\n" % cpu + stats[owners[0][1]]))
    options.append((OPTION_CPUCOUNT, struct.pack("<I", tiling.out_cpus)))
    head = bytearray(b[:trace.head_end])
    head += struct.pack("<Q", len(cmdlines)) + cmdlines
    head += struct.pack("<I", tiling.out_cpus)
    head += b"options  \0"
    for option, body in options:
        head += struct.pack("<HI", option, len(body)) + body
    head += struct.pack("<H", 0)
    head += b"flyrecord\0"
    table_at = len(head)
    head += bytes(16 * tiling.out_cpus)
    ps = trace.page_size
    at = len(head) + (-len(head) % ps)
    for cpu in range(tiling.out_cpus):
        size = sum(len(streams[k].template) for _, k in tiling.owners(cpu))
        struct.pack_into("<QQ", head, table_at + 16 * cpu, at, size)
        at += size
    with open(path, "wb") as f:
        f.write(head)
        f.write(bytes(-len(head) % ps))
        for cpu in range(tiling.out_cpus):
            for j, k in tiling.owners(cpu):
                f.write(streams[k].copy(j))
        total = f.tell()
    return total


def main(argv=None):
    ap = argparse.ArgumentParser(prog="tile.py", usage="tile.py [options] IN.dat N OUT.dat",
                                 description=__doc__.split("\n\n", 2)[2],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 add_help=True)
    ap.add_argument("input", help=argparse.SUPPRESS)
    ap.add_argument("copies", type=int, help=argparse.SUPPRESS)
    ap.add_argument("output", help=argparse.SUPPRESS)
    ap.add_argument("--layout", choices=("packed", "split", "sparse", "time"), default="packed",
                    help=argparse.SUPPRESS)
    ap.add_argument("--gap", type=int, default=2, help=argparse.SUPPRESS)
    ap.add_argument("--pid-shift", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--topology", help=argparse.SUPPRESS)
    ap.add_argument("--tasks", help=argparse.SUPPRESS)
    ap.add_argument("--text", help=argparse.SUPPRESS)
    ap.add_argument("--print-topology", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--ipi-as-cpumask", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    started = time.time()
    if args.copies < 1:
        die("the copy count must be at least 1")
    if args.gap < 1 and args.layout == "sparse":
        die("--gap must be at least 1")
    stem = os.path.splitext(args.input)[0]
    with open(args.input, "rb") as f:
        magic = f.read(12)
    tmp = None
    src = args.input
    if magic[:10] != b"\x17\x08Dtracing":
        die("%s: not a trace-cmd trace.dat" % args.input)
    if magic[10:12] != b"6\0":
        fd, tmp = tempfile.mkstemp(suffix=".v6.dat")
        os.close(fd)
        r = subprocess.run(["trace-cmd", "convert", "-i", args.input, "-o", tmp,
                            "--file-version", "6", "--compression", "none"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if r.returncode:
            os.unlink(tmp)
            die("trace-cmd convert failed: %s" % r.stderr.decode(errors="replace").strip())
        src = tmp
    try:
        trace = Trace(src)
    finally:
        if tmp:
            os.unlink(tmp)
    C = trace.cpus
    if args.topology:
        cores = parse_spec(args.topology)
    elif os.path.exists(stem + ".topology"):
        cores = read_topology_file(stem + ".topology")
    else:
        spec = find_topology_marker(trace)
        if not spec:
            die("%s: no topology: give --topology, or put %s.topology beside it"
                % (args.input, stem))
        cores = parse_spec(spec)
    if sorted(c for core in cores for c in core) != list(range(C)):
        die("the topology %s does not name each of the input's %d CPUs once"
            % (format_spec(cores), C))
    tiling = Tiling(cores, C, args.copies, args.layout, args.gap)
    if args.layout == "time":
        tiling.period = time_period(trace)
    top = max_pid(trace)
    if args.layout == "time":
        shift = 0                               # the same tasks, running on
    else:
        shift = args.pid_shift or 10 ** len(str(top))
    if args.layout != "time" and shift <= top:
        die("--pid-shift %d is not above the input's largest pid %d" % (shift, top))
    if (args.copies - 1) * shift + top >= PID_MAX_LIMIT:
        if args.pid_shift:
            die("pids up to %d pass the kernel's limit %d" % ((args.copies - 1) * shift + top,
                                                              PID_MAX_LIMIT))
        shift = top + 1
        if (args.copies - 1) * shift + top >= PID_MAX_LIMIT:
            die("%d copies of pids up to %d pass the kernel's pid limit %d"
                % (args.copies, top, PID_MAX_LIMIT))
    tiled = tiling.tiled_cores()
    spec = format_spec(tiled)
    rw = Rewriter(trace, tiling, shift, spec, args.ipi_as_cpumask)
    streams = [Stream(rw, trace, k) for k in range(C)]
    size = write_tiled(trace, tiling, streams, shift, args.output)
    out_stem = os.path.splitext(args.output)[0]
    by_cpu = {}
    for core in tiled:
        for cpu in core:
            by_cpu[cpu] = format_list(core)
    with open(out_stem + ".topology", "w") as f:
        for cpu in sorted(by_cpu):
            f.write("%d %s\n" % (cpu, by_cpu[cpu]))
    tasks = args.tasks or (stem + ".tasks" if os.path.exists(stem + ".tasks") else None)
    if tasks and args.layout != "time":         # no per-copy figures: the tasks run on
        with open(tasks) as f:
            lines = f.read().splitlines()
        with open(out_stem + ".tasks", "w") as f:
            for j in range(args.copies):
                for line in lines:
                    f.write(re.sub(r"(?<= )pid=(\d+)",
                                   lambda m: "pid=%d" % (int(m.group(1)) + j * shift
                                                         if int(m.group(1)) else 0),
                                   line) + "\n")
    events = sum(s.events for s in streams)
    info = {"input": os.path.abspath(args.input), "copies": args.copies, "input_cpus": C,
            "layout": args.layout, "gap": args.gap if args.layout == "sparse" else 0,
            "pid_shift": shift, "output_cpus": tiling.out_cpus, "cpu_base": tiling.base,
            "cpu_step": tiling.step, "time_step_ns": tiling.period,
            "input_cores": cores, "topology": spec,
            "input_events": events, "output_events": events * args.copies,
            "output_bytes": size}
    with open(out_stem + ".tiling.json", "w") as f:
        json.dump(info, f, indent=1)
        f.write("\n")
    if args.text:
        with open(args.text, "w") as f:
            r = subprocess.run(["trace-cmd", "report", "-i", args.output], stdout=f,
                               stderr=subprocess.PIPE)
        if r.returncode:
            die("trace-cmd report failed: %s" % r.stderr.decode(errors="replace").strip())
    if rw.unmapped_mask_bits:
        sys.stderr.write("tile.py: %d cpumasks named CPUs beyond the input's %d: dropped\n"
                         % (rw.unmapped_mask_bits, C))
    if args.print_topology:
        print(spec)
    else:
        print("%s: %d CPUs x %d (%s) -> %s: %d CPUs, %d events, pid shift %d, %d bytes, %.1f s"
              % (args.input, C, args.copies, args.layout, args.output, tiling.out_cpus,
                 events * args.copies, shift, size, time.time() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
