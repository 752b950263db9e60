#!/usr/bin/env python3
"""make-tiny-dat.py - cut a real trace.dat into a tiny one for a fuzz seed.

    trace-cmd convert --file-version 6 --compression none -i BIG.dat -o big6.dat
    make-tiny-dat.py big6.dat tiny.dat [PAGES_PER_CPU [FIRST_PAGE]]

Reads a version 6 uncompressed trace.dat (trace-cmd.dat.v6(5)) and writes the
same headers and event formats with the kallsyms cut to the symbols the audit
names (__schedule, tick handlers), no printk formats, no options that hold
file offsets, and only PAGES_PER_CPU pages of each CPU's data (default 1)
from FIRST_PAGE on.  The result is a few KB to a few tens of KB: small enough
for libFuzzer to mutate, real enough that libtracecmd reads it.
"""
import re
import struct
import sys

KEEP_SYMBOLS = re.compile(rb" (__schedule|tick_\w+|hrtimer_\w+|generic_smp\w+)\n")
OFFSET_OPTIONS = {3, 7, 22}     # BUFFER, OFFSET, BUFFER_TEXT: they hold file offsets
# The events coreaudit reads (src/util/event.c), the marker and the cookie probe.
KEEP_EVENTS = {b"sched_switch", b"sched_wakeup", b"sched_wakeup_new", b"sched_migrate_task",
               b"sched_process_fork", b"sched_process_exit", b"sched_process_exec",
               b"cpu_idle", b"ipi_send_cpu", b"ipi_send_cpumask", b"local_timer_entry",
               b"hrtimer_expire_entry", b"sys_enter_prctl", b"sys_exit_prctl", b"print",
               b"cs_switch"}


def is_kept(format_text):
    name = re.match(rb"name: (\w+)", format_text)
    return bool(name) and name.group(1) in KEEP_EVENTS


def put_formats(out, bodies):
    bodies = [body for body in bodies if is_kept(body)]
    out += struct.pack("<I", len(bodies))
    for body in bodies:
        out += struct.pack("<Q", len(body)) + body


class Reader:
    def __init__(self, data):
        self.data, self.pos = data, 0

    def take(self, n):
        chunk = self.data[self.pos:self.pos + n]
        self.pos += n
        return chunk

    def u16(self):
        return struct.unpack("<H", self.take(2))[0]

    def u32(self):
        return struct.unpack("<I", self.take(4))[0]

    def u64(self):
        return struct.unpack("<Q", self.take(8))[0]

    def cstring(self):
        end = self.data.index(b"\0", self.pos)
        text = self.data[self.pos:end]
        self.pos = end + 1
        return text


def sized64(r):
    return r.take(r.u64())


def main():
    src, dst = sys.argv[1], sys.argv[2]
    pages = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    first = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    r = Reader(open(src, "rb").read())
    out = bytearray()
    magic = r.take(10)
    version = r.cstring()
    if version != b"6":
        sys.exit(f"{src}: version {version.decode()}, not 6: convert it first")
    endian, long_size, page_size = r.take(1), r.take(1), r.u32()
    out += magic + b"6\0" + endian + long_size + struct.pack("<I", page_size)
    for label in (b"header_page\0", b"header_event\0"):
        assert r.take(len(label)) == label
        body = sized64(r)
        out += label + struct.pack("<Q", len(body)) + body
    put_formats(out, [sized64(r) for _ in range(r.u32())])
    systems = []
    for _ in range(r.u32()):
        name = r.cstring()
        bodies = [sized64(r) for _ in range(r.u32())]
        if any(is_kept(body) for body in bodies):
            systems.append((name, bodies))
    out += struct.pack("<I", len(systems))
    for name, bodies in systems:
        out += name + b"\0"
        put_formats(out, bodies)
    kallsyms = r.take(r.u32())
    kept = b"".join(line + b"\n" for line in kallsyms.split(b"\n")
                    if KEEP_SYMBOLS.search(line + b"\n"))
    out += struct.pack("<I", len(kept)) + kept
    r.take(r.u32())                     # printk formats: none kept
    out += struct.pack("<I", 0)
    cmdlines = sized64(r)
    out += struct.pack("<Q", len(cmdlines)) + cmdlines
    cpus = r.u32()
    out += struct.pack("<I", cpus)
    while True:
        label = r.take(10)
        if label != b"options  \0":
            break
        out += label
        while True:
            option = r.u16()
            if option == 0:
                out += struct.pack("<H", 0)
                break
            body = r.take(r.u32())
            if option not in OFFSET_OPTIONS:
                out += struct.pack("<HI", option, len(body)) + body
    assert label == b"flyrecord\0", label
    out += label
    spans = [(r.u64(), r.u64()) for _ in range(cpus)]
    table = len(out)
    out += bytes(16 * cpus)
    for cpu, (offset, size) in enumerate(spans):
        start = offset + first * page_size
        size = max(0, min(size - first * page_size, pages * page_size))
        out += bytes(-len(out) % page_size)
        struct.pack_into("<QQ", out, table + 16 * cpu, len(out), size)
        out += r.data[start:start + size]
    open(dst, "wb").write(out)


if __name__ == "__main__":
    main()
