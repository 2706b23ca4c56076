#!/usr/bin/env python3
"""Rewrite every quoted #include in the repo to one canonical form.

Run from the repository root:  python3 scripts/fix_includes.py [--check]

Canonical form (the Makefile compiles with -Isim -I.):
  - a header in the same folder as the including file: "name.h"
  - a header under sim/:        path from sim/, e.g. "core/stats.h", "driver/evict/evict.h"
  - any other header:           path from the repo root, e.g. "workloads/workload.h"

Resolution of an existing include, in order: relative to the including file's
folder, then sim/, then the repo root (as the compiler would).  When none
resolves (the header was moved), the header is looked up by basename among
all tracked-or-present headers; ties (two headers with one basename, e.g.
trace/trace.h and workloads/trace.h) are broken by the longest matching path
suffix of the include as written.  Idempotent: running it twice changes
nothing the second time.  Files in build*/ and .git are skipped.
"""
import os
import re
import sys

ROOT = os.getcwd()
INC = re.compile(r'^(\s*#\s*include\s+)"([^"]+)"(.*)$')
SKIP = ('build', '.git')


def walk():
    for d, dirs, files in os.walk(ROOT):
        rel = os.path.relpath(d, ROOT)
        top = rel.split(os.sep)[0]
        if top.startswith(SKIP) and rel != '.':
            dirs[:] = []
            continue
        dirs[:] = [x for x in dirs if not x.startswith(SKIP)]
        for f in files:
            if f.endswith(('.c', '.h')):
                yield os.path.normpath(os.path.join(rel, f))


def main():
    check = '--check' in sys.argv
    files = sorted(walk())
    headers = [f for f in files if f.endswith('.h')]
    by_base = {}
    for h in headers:
        by_base.setdefault(os.path.basename(h), []).append(h)
    hset = set(headers)
    changed = []
    unresolved = []
    for f in files:
        fdir = os.path.dirname(f)
        with open(f, encoding='utf-8', errors='surrogateescape') as fh:
            lines = fh.read().split('\n')
        out = []
        dirty = False
        for ln in lines:
            m = INC.match(ln)
            if not m:
                out.append(ln)
                continue
            written = m.group(2)
            target = None
            for base in (fdir, 'sim', ''):
                cand = os.path.normpath(os.path.join(base, written))
                if cand in hset:
                    target = cand
                    break
            if target is None:
                cands = by_base.get(os.path.basename(written), [])
                if len(cands) > 1:
                    parts = [p for p in written.split('/') if p not in ('..', '.')]

                    def score(c):
                        cp = c.split('/')
                        n = 0
                        while n < min(len(cp), len(parts)) and cp[-1 - n] == parts[-1 - n]:
                            n += 1
                        return n
                    best = max(score(c) for c in cands)
                    cands = [c for c in cands if score(c) == best]
                if len(cands) == 1:
                    target = cands[0]
            if target is None:
                unresolved.append('%s: #include "%s"' % (f, written))
                out.append(ln)
                continue
            if os.path.dirname(target) == fdir:
                canon = os.path.basename(target)
            elif target.startswith('sim/'):
                canon = target[len('sim/'):]
                # a header at sim/x.h written "x.h" would be ambiguous with a
                # same-folder header: keep such includes explicit from root.
                if os.path.normpath(os.path.join(fdir, canon)) in hset and \
                        os.path.normpath(os.path.join(fdir, canon)) != target:
                    canon = target
            else:
                canon = target
            if canon != written:
                dirty = True
                ln = '%s"%s"%s' % (m.group(1), canon, m.group(3))
            out.append(ln)
        if dirty:
            changed.append(f)
            if not check:
                with open(f, 'w', encoding='utf-8', errors='surrogateescape') as fh:
                    fh.write('\n'.join(out))
    for u in unresolved:
        print('unresolved:', u, file=sys.stderr)
    for c in changed:
        print(('would change: ' if check else 'rewrote: ') + c)
    return 1 if (unresolved or (check and changed)) else 0


if __name__ == '__main__':
    sys.exit(main())
