#!/usr/bin/env python3
"""Regenerates fuzz/seeds/<target>/ from the inputs of the tests: every raw
string (r#"..."#) of tests/*.rs and elicit-core/src that is a JSON object,
and every URL-like string literal. Small (a few dozen kB), committed; the
growing corpora (fuzz/corpus/) are not. Run from anywhere:

    python3 fuzz/seeds.py

A seed for url_review, client_receive and acp_convert starts with a 0 byte
(those targets' "raw input" mode); schema_wire reads the text as is.
"""
import glob, hashlib, json, os, re

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
os.chdir(root)
objs, urls = set(), set()
files = sorted(glob.glob("tests/*.rs")) + sorted(glob.glob("elicit-core/src/**/*.rs", recursive=True))
for f in files:
    s = open(f, encoding="utf-8").read()
    for m in re.finditer(r'r#"(.*?)"#', s, re.S):
        t = m.group(1)
        try:
            v = json.loads(t)
        except Exception:
            continue
        if isinstance(v, dict) and len(t) <= 4096:
            objs.add(t)
    for m in re.finditer(r'"((?:[a-zA-Z][a-zA-Z+.-]*):[^"\\]*(?:\\.[^"\\]*)*)"', s):
        u = m.group(1)
        if "//" in u or u.startswith(("javascript:", "data:", "mailto:")):
            try:
                urls.add(json.loads('"' + u + '"'))
            except Exception:
                pass


def write(target, data):
    d = os.path.join("fuzz/seeds", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()[:16]), "wb") as f:
        f.write(data)


for u in sorted(urls):
    write("url_review", b"\0" + u.encode())
for o in sorted(objs):
    if '"properties"' in o:
        write("schema_wire", o.encode())
    if any(k in o for k in ('"mode"', '"action"', '"form"', '"url"')):
        write("client_receive", b"\0" + o.encode())
    write("acp_convert", b"\0" + o.encode())
