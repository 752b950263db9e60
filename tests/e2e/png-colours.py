#!/usr/bin/env python3
"""png-colours.py PNG [X0 Y0 X1 Y1] - how many distinct colours a PNG has
(in the box, when given), for tests that a rendered page is not blank.
Reads 8-bit RGB and RGBA PNGs without a library (zlib and the five filters)."""
import struct
import sys
import zlib


def rows(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit(f'{path}: not a PNG')
    pos, idat, width = 8, b'', 0
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            width, height, depth, colour = struct.unpack('>IIBB', body[:10])
            if depth != 8 or colour not in (2, 6):
                sys.exit(f'{path}: depth {depth}, colour type {colour}: not read here')
            bpp = 3 if colour == 2 else 4
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
    raw, stride, prev, out = zlib.decompress(idat), width * bpp, None, []
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        prev = prev or bytearray(stride)
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out.append([bytes(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return out


pixels = rows(sys.argv[1])
x0, y0, x1, y1 = (map(int, sys.argv[2:6]) if len(sys.argv) == 6 else
                  (0, 0, len(pixels[0]), len(pixels)))
print(len({p for row in pixels[y0:y1] for p in row[x0:x1]}))
