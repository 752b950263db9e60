#!/usr/bin/env python3
"""metrics-lint.py FORMAT FILE - check metrics text strictly, for want of
promtool: FORMAT "prometheus" (the text format 0.0.4, what node_exporter's
textfile collector reads) or "openmetrics" (OpenMetrics 1.0 text).  Every
family has one HELP and one TYPE (counter or gauge) before its samples, its
samples together and named for it (a counter's end in _total; in OpenMetrics
its family is named without), names and labels as the formats allow, values
that are numbers, no series twice, and in OpenMetrics a closing "# EOF".
Prints what is wrong ("# " lines, for TAP) and exits 1; else exits 0."""
import re
import sys

NAME = r'[a-zA-Z_:][a-zA-Z0-9_:]*'
LABEL = r'[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*"'
SAMPLE = re.compile(rf'^({NAME})(\{{(?:{LABEL})(?:,{LABEL})*\}})? (\S+)$')


def lint(fmt, lines):
    errors, families, series, current = [], {}, set(), None
    om = fmt == 'openmetrics'
    if om and (not lines or lines[-1] != '# EOF'):
        errors.append('no "# EOF" at the end')
    for n, line in enumerate(lines[:-1] if om else lines, 1):
        meta = re.match(rf'^# (HELP|TYPE) ({NAME}) (.*)$', line)
        if meta:
            kind, name, rest = meta.groups()
            family = families.setdefault(name, {})
            if kind in family:
                errors.append(f'{n}: a second {kind} for {name}')
            family[kind] = rest
            if kind == 'TYPE' and rest not in ('counter', 'gauge'):
                errors.append(f'{n}: type {rest}')
            if kind == 'TYPE' and rest == 'counter' and om == name.endswith('_total'):
                errors.append(f'{n}: counter family {name} in {fmt}')
            current = name
            continue
        m = SAMPLE.match(line)
        if not m:
            errors.append(f'{n}: not a sample: {line!r}')
            continue
        name, labels, value = m.groups()
        ftype = families.get(current, {}).get('TYPE')
        want = current + '_total' if om and ftype == 'counter' else current
        if ftype is None or name != want:
            errors.append(f'{n}: {name} outside its family (current {current}, {ftype})')
        try:
            float(value)
        except ValueError:
            errors.append(f'{n}: value {value!r}')
        if (name, labels) in series:
            errors.append(f'{n}: {name}{labels or ""} twice')
        series.add((name, labels))
    for name, family in families.items():
        if set(family) != {'HELP', 'TYPE'}:
            errors.append(f'{name}: HELP and TYPE: {sorted(family)}')
    return errors, families


fmt, path = sys.argv[1], sys.argv[2]
errors, families = lint(fmt, open(path).read().rstrip('\n').split('\n'))
for e in errors:
    print(f'# {path}: {e}')
sys.exit(1 if errors else 0)
