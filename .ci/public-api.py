#!/usr/bin/env python3
"""The facade's public API, pinned: every item rustdoc lists for the
`mcptest` crate (all features on, as `cargo doc --workspace` builds it),
grouped by kind, against the reviewed list in `mcptest/public-api.txt`.
Items of the re-exported `rmcp` crate are left out (they are rmcp's API).

    python3 .ci/public-api.py           # compare; exit 1 with a diff on change
    python3 .ci/public-api.py --update  # write the list after a reviewed change

Reads target/doc/mcptest/all.html, so run `cargo doc --workspace --no-deps`
first."""
import difflib
import html
import os
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
TARGET = pathlib.Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target")
ALL = TARGET / "doc" / "mcptest" / "all.html"
PINNED = ROOT / "mcptest" / "public-api.txt"


def current() -> list[str]:
    if not ALL.is_file():
        sys.exit(f"{ALL} is missing: run `cargo doc --workspace --no-deps` first")
    text = ALL.read_text()
    lines = []
    # Each kind is an <h3 id="structs">Structs</h3> followed by a list.
    for section in re.finditer(r'<h3 id="([a-z-]+)">[^<]*</h3><ul class="all-items">(.*?)</ul>', text, re.S):
        kind = section.group(1)
        for name in re.findall(r"<li><a [^>]*>([^<]+)</a></li>", section.group(2)):
            name = html.unescape(name)
            if name == "rmcp" or name.startswith("rmcp::"):
                continue
            lines.append(f"{kind} {name}")
    if not lines:
        sys.exit(f"no items found in {ALL}: has rustdoc's page layout changed?")
    return sorted(lines)


def main() -> None:
    now = current()
    if "--update" in sys.argv:
        PINNED.write_text("\n".join(now) + "\n")
        print(f"wrote {len(now)} items to {PINNED.relative_to(ROOT)}")
        return
    pinned = PINNED.read_text().splitlines() if PINNED.is_file() else []
    if now == pinned:
        print(f"public API of mcptest: {len(now)} items, as pinned")
        return
    print("The public API of the `mcptest` crate changed (- pinned, + now):")
    for line in difflib.unified_diff(pinned, now, "pinned", "now", lineterm="", n=0):
        if not line.startswith(("---", "+++", "@@")):
            print(line)
    print("Review the change; if it is meant, run: python3 .ci/public-api.py --update")
    sys.exit(1)


if __name__ == "__main__":
    main()
