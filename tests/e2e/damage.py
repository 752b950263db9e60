#!/usr/bin/env python3
"""damage.py - make damaged copies of a trace.dat, reproducibly (seeded).

  damage.py layout IN                      per CPU: "cpu offset size" of its data
  damage.py chunks IN                      version 7 zstd: "cpu offset size" per chunk
  damage.py bytes IN OUT SEED COUNT LEN [FROM TO]
                                           COUNT runs of LEN random bytes at seeded
                                           offsets (within [FROM, TO) when given)
  damage.py at IN OUT OFFSET LEN SEED      LEN random bytes at OFFSET
  damage.py late IN OUT PAGE               the page at file offset PAGE (version 6,
                                           8-byte longs, little endian) with its middle
                                           event 2^26 ns late, and the events after it
                                           (one bit of a time delta flipped)
  damage.py cut IN OUT LENGTH              the first LENGTH bytes
  damage.py cuts IN SEED COUNT             COUNT seeded lengths to cut at, one a line
  damage.py plan IN OUTDIR SEED ROUNDS     damaged copies of IN in OUTDIR, ROUNDS of
                                           each kind, printed "kind path" a line:
                                           bytes (3 runs of 1-64 random bytes anywhere),
                                           data (16-512 random bytes in a CPU's data),
                                           page (a whole page overwritten in a CPU's
                                           data), chunk (zstd: bytes inside a chunk),
                                           cut (truncated anywhere), cutdata (truncated
                                           inside a CPU's data), zeros (16 bytes to two
                                           pages of zeros in a CPU's data, page-aligned
                                           half the time)

The layout is read the way trace-cmd.dat.v6(5) and trace-cmd.dat.v7(5) lay it
out (the flyrecord table; the BUFFER option of the options sections), not
through coreaudit, so the tests do not trust what they test.
"""
import random
import struct
import sys

try:
    import zstandard
except ImportError:  # only needed for compressed options sections
    zstandard = None


def u16(b, at):
    return struct.unpack_from("<H", b, at)[0]


def u32(b, at):
    return struct.unpack_from("<I", b, at)[0]


def u64(b, at):
    return struct.unpack_from("<Q", b, at)[0]


def cstring_end(b, at):
    return b.index(b"\0", at) + 1


def layout_v6(b):
    at = 18 + 12
    at += 8 + u64(b, at)                      # header_page
    at += 13
    at += 8 + u64(b, at)                      # header_event
    count = u32(b, at)
    at += 4
    for _ in range(count):                    # ftrace formats
        at += 8 + u64(b, at)
    systems = u32(b, at)
    at += 4
    for _ in range(systems):                  # event formats
        at = cstring_end(b, at)
        count = u32(b, at)
        at += 4
        for _ in range(count):
            at += 8 + u64(b, at)
    at += 4 + u32(b, at)                      # kallsyms
    at += 4 + u32(b, at)                      # printk
    at += 8 + u64(b, at)                      # cmdlines
    cpus = u32(b, at)
    at += 4
    kind = b[at:at + 10]
    at += 10
    if kind.startswith(b"options"):
        while True:
            option = u16(b, at)
            at += 2
            if option == 0:
                break
            at += 4 + u32(b, at)
        kind = b[at:at + 10]
        at += 10
    assert kind.startswith(b"flyrecord"), kind
    out = []
    for cpu in range(cpus):
        offset, size = u64(b, at), u64(b, at + 8)
        at += 16
        if size:
            out.append((cpu, offset, size))
    return out


def section(b, at):
    flags, size = u16(b, at + 2), u64(b, at + 8)
    if not flags & 1:
        return b[at + 16:at + 16 + size]
    csize, usize = u32(b, at + 16), u32(b, at + 20)
    if zstandard is None:
        raise SystemExit("damage.py: python3-zstandard is needed for compressed options")
    return zstandard.ZstdDecompressor().decompress(b[at + 24:at + 24 + csize],
                                                   max_output_size=usize)


def layout_v7(b):
    at = cstring_end(b, 18)
    at = cstring_end(b, at)
    offset = u64(b, at)
    out = []
    while offset:
        data, nxt, at = section(b, offset), 0, 0
        while at + 6 <= len(data):
            option, size = u16(data, at), u32(data, at + 2)
            body = data[at + 6:at + 6 + size]
            if option == 3 and body[8:9] == b"\0":        # BUFFER, top instance
                p = cstring_end(body, 9)
                cpus = u32(body, p + 4)
                p += 8
                for _ in range(cpus):
                    cpu, off, sz = u32(body, p), u64(body, p + 4), u64(body, p + 12)
                    p += 20
                    if sz:
                        out.append((cpu, off, sz))
            elif option == 0 and size == 8:
                nxt = u64(body, 0)
            at += 6 + size
        offset = nxt
    return out


def layout(b):
    return layout_v6(b) if b[10:11] == b"6" else layout_v7(b)


def chunks(b):
    out = []
    for cpu, offset, size in layout(b):
        count, at = u32(b, offset), offset + 4
        for _ in range(count):
            csize = u32(b, at)
            out.append((cpu, at, 8 + csize))
            at += 8 + csize
    return out


def noise(rng, n):
    return bytes(rng.randrange(256) for _ in range(n))


def variants(b, rng):
    """One damaged copy of each kind: (kind, bytes)."""
    cpus = layout(b)
    page = u32(b, 14)
    cpu, off, size = rng.choice(cpus)
    end = min(off + size, len(b))
    out = []
    d = bytearray(b)
    for _ in range(3):
        n = rng.randrange(1, 65)
        at = rng.randrange(0, len(b) - n)
        d[at:at + n] = noise(rng, n)
    out.append(("bytes", d))
    d = bytearray(b)
    n = rng.randrange(16, 513)
    at = rng.randrange(off, max(off + 1, end - n))
    d[at:at + n] = noise(rng, n)
    out.append(("data", d))
    d = bytearray(b)
    at = off + rng.randrange(max(1, (end - off) // page)) * page
    d[at:at + page] = noise(rng, page)
    out.append(("page", d[:len(b)]))
    if b[10:11] == b"7" and b[18:23] == b"zstd\0":
        ccpu, coff, csize = rng.choice(chunks(b))
        n = rng.randrange(8, 257)
        at = coff + 8 + rng.randrange(max(1, csize - 8 - n))
        d = bytearray(b)
        d[at:at + n] = noise(rng, n)
        out.append(("chunk", d))
    out.append(("cut", b[:rng.randrange(1, len(b))]))
    out.append(("cutdata", b[:rng.randrange(off, end)]))
    d = bytearray(b)
    n = rng.randrange(16, 2 * page + 1)
    at = rng.randrange(off, max(off + 1, end - n))
    if rng.random() < 0.5:
        at -= (at - off) % page
    d[at:at + n] = bytes(n)
    out.append(("zeros", d[:len(b)]))
    return out


def plan(src, b, outdir, seed, rounds):
    rng = random.Random(seed)
    base = src.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    for r in range(rounds):
        for kind, d in variants(b, rng):
            path = "%s/%s-%s%d.dat" % (outdir, base, kind, r)
            write(path, bytes(d))
            print(kind, path)


def headers(b, page):
    """File offsets of the event headers of the page at @page, as kbuffer walks it."""
    size, at, out = u64(b, page + 8) & ((1 << 27) - 1), 0, []
    events = page + 16
    while at + 4 <= size:
        word = u32(b, events + at)
        kind = word & 31
        out.append((events + at, kind))
        if kind == 29:
            at += 4 + u32(b, events + at + 4)
        elif kind in (30, 31):
            at += 8
        elif kind == 0:
            at += 8 + ((u32(b, events + at + 4) - 4 + 3) & ~3)
        else:
            at += 4 + kind * 4
    return out


def late(b, page):
    """The middle data event of the page 2^26 ns late (bit 26 of its delta set)."""
    data = [at for at, kind in headers(b, page) if kind < 29]
    at = data[len(data) // 2]
    b[at + 3] |= 0x80
    return b


def write(path, b):
    with open(path, "wb") as f:
        f.write(b)


def main(argv):
    cmd, src = argv[1], argv[2]
    with open(src, "rb") as f:
        b = bytearray(f.read())
    if cmd == "layout":
        for row in layout(b):
            print(*row)
    elif cmd == "chunks":
        for row in chunks(b):
            print(*row)
    elif cmd == "bytes":
        seed, count, length = int(argv[4]), int(argv[5]), int(argv[6])
        lo, hi = (int(argv[7]), int(argv[8])) if len(argv) > 8 else (0, len(b))
        rng = random.Random(seed)
        for _ in range(count):
            at = rng.randrange(lo, max(lo + 1, hi - length))
            b[at:at + length] = bytes(rng.randrange(256) for _ in range(length))
        write(argv[3], bytes(b[:len(b)]))
    elif cmd == "at":
        at, length, rng = int(argv[4]), int(argv[5]), random.Random(int(argv[6]))
        b[at:at + length] = bytes(rng.randrange(256) for _ in range(length))
        write(argv[3], bytes(b))
    elif cmd == "plan":
        plan(src, bytes(b), argv[3], int(argv[4]), int(argv[5]))
    elif cmd == "late":
        write(argv[3], bytes(late(b, int(argv[4]))))
    elif cmd == "cut":
        write(argv[3], bytes(b[:int(argv[4])]))
    elif cmd == "cuts":
        rng = random.Random(int(argv[3]))
        for _ in range(int(argv[4])):
            print(rng.randrange(1, len(b)))
    else:
        raise SystemExit(__doc__)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
