#!/usr/bin/env python3
"""No circle among the modules of a crate: for each crate named, every
module's imports (`use` trees and `crate::`/`super::`/`self::` paths in
code, test modules left out, every `cfg` read) resolved to the module that
holds the item, then the strongly connected components of that graph. A
component of more than one module is a circle; each is printed with the
imports that close it, and the exit status is 1.

    python3 .ci/module-cycles.py mcptest-conformance mcptest-scan

A text reading, not a compiler's: it sees every `cfg` branch at once (so it
may report a circle only one feature set has, never miss one) and reads
doc comments as comments (so an intra-doc link is no import)."""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def strip(text: str) -> str:
    """The code without comments, string and char literals, and
    `#[cfg(test)]` items."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and not text[i - 1:i].isalnum():
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            out.append('""')
            i = n if end < 0 else end + 1 + len(hashes)
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            out.append('""')
            i += 1
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", text[i:i + 4]):
            m = re.match(r"'(\\.[^']*|[^\\'])'", text[i:])
            out.append("' '")
            i += len(m.group(0))
        else:
            out.append(c)
            i += 1
    code = "".join(out)
    # Test modules import what they test; they are not the crate's floors.
    while True:
        m = re.search(r"#\[cfg\(test\)\]\s*(pub(\([^)]*\))?\s*)?mod\s+\w+\s*\{", code)
        if not m:
            return code
        depth, j = 1, m.end()
        while j < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[j], 0)
            j += 1
        code = code[:m.start()] + code[j:]


def modules(src: pathlib.Path) -> dict:
    """Module path (a tuple; the crate root is ()) to its file."""
    found = {}
    for path in sorted(src.rglob("*.rs")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts in (["lib"], ["main"]):
            parts = []
        elif parts[-1] == "mod":
            parts = parts[:-1]
        found[tuple(parts)] = path
    return found


def use_paths(tree: str, prefix: str = "") -> list:
    """The paths a `use` tree names: `a::{b, c::{d}}` is a::b and a::c::d."""
    tree = tree.strip()
    brace = tree.find("{")
    if brace < 0:
        return [prefix + re.split(r"\s+as\s+", tree)[0].strip()] if tree else []
    head, body = tree[:brace], tree[brace + 1:tree.rfind("}")]
    parts, depth, start = [], 0, 0
    for k, ch in enumerate(body):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(body[start:k])
            start = k + 1
    parts.append(body[start:])
    paths = []
    for part in parts:
        paths += use_paths(part, prefix + head)
    return paths


def resolve(path: str, here: tuple, known: dict) -> tuple | None:
    """The module of `path` (as written in module `here`), or None when it
    leaves the crate or names no module of it."""
    segments = [s for s in path.replace(" ", "").split("::") if s]
    if not segments:
        return None
    base = list(here)
    if segments[0] == "crate":
        base, segments = [], segments[1:]
    elif segments[0] in ("super", "self"):
        while segments and segments[0] in ("super", "self"):
            if segments[0] == "super":
                base = base[:-1]
            segments = segments[1:]
    elif tuple(base + segments[:1]) not in known:
        return None  # a dependency or the standard library
    target = tuple(base)
    for segment in segments:
        if tuple(list(target) + [segment]) in known:
            target = tuple(list(target) + [segment])
        else:
            break
    return target


def inline_modules(code: str) -> list:
    """The inline `mod name { .. }` blocks of a file: (start, end, name)."""
    spans = []
    for m in re.finditer(r"\bmod\s+(\w+)\s*\{", code):
        depth, j = 1, m.end()
        while j < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[j], 0)
            j += 1
        spans.append((m.start(), j, m.group(1)))
    return spans


def imports(module: tuple, path: pathlib.Path, known: dict) -> dict:
    """For the module of a file and each inline module in it: each module
    it imports from, with one import that shows it."""
    code = strip(path.read_text())
    spans = inline_modules(code)
    written = []
    for m in re.finditer(r"\buse\s+([^;]+);", code):
        written += [(m.start(), p) for p in use_paths(m.group(1))]
    for m in re.finditer(r"\b(?:crate|super|self)(?:::\w+)+", code):
        if not re.search(r"\buse\s+[^;]*$", code[:m.start()].rsplit(";", 1)[-1]):
            written.append((m.start(), m.group(0)))
    found = {}
    for at, text in written:
        source = module + tuple(name for start, end, name in spans if start < at < end)
        target = resolve(text, source, known)
        while target is not None and target not in known:
            target = target[:-1]
        if target is not None and target != source:
            found.setdefault(source, {}).setdefault(target, text.strip())
    return found


def circles(graph: dict) -> list:
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    sys.setrecursionlimit(10_000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def name(module: tuple) -> str:
    return "::".join(("crate",) + module)


def main() -> None:
    crates = sys.argv[1:]
    if not crates:
        sys.exit("usage: module-cycles.py CRATE_DIR...")
    failed = False
    for crate in crates:
        src = ROOT / crate / "src"
        if not src.is_dir():
            sys.exit(f"{src} is not a directory")
        files = modules(src)
        known = dict(files)
        for m, p in files.items():
            for _, _, inline in inline_modules(strip(p.read_text())):
                known[m + (inline,)] = p
        graph = {}
        for m, p in files.items():
            for source, targets in imports(m, p, known).items():
                graph.setdefault(source, {}).update(targets)
        edges = sum(len(v) for v in graph.values())
        found = circles(graph)
        if not found:
            print(f"{crate}: {len(known)} modules, {edges} imports between them, no circle")
            continue
        failed = True
        print(f"{crate}: {len(found)} circle(s) among its modules:")
        for component in found:
            print(f"  {', '.join(name(m) for m in component)}")
            for m in component:
                for target, text in sorted(graph[m].items()):
                    if target in component:
                        print(f"    {name(m)} imports {name(target)} ({text})")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
