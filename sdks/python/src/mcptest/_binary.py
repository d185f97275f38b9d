"""Finding the ``mcptest`` binary: ``MCPTEST_BIN``, then ``mcptest`` on
``PATH``, then the scripts directory of the running Python (where a wheel
that carries the binary installs it).

Example: ``find_binary()`` -> ``"/usr/local/bin/mcptest"``.
"""

from __future__ import annotations

import os
import shutil
import sysconfig
from pathlib import Path
from typing import Optional

from .errors import BinaryNotFound

INSTALL_HINT = (
    "Install it with `cargo install --path mcptest-cli` from a clone of the "
    "mcptest repository (or a wheel of this package that carries the binary), "
    "or set MCPTEST_BIN to its path."
)


def _executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def find_binary(explicit: Optional[str] = None) -> str:
    """The path of the binary to spawn.

    ``explicit`` (a ``binary=`` argument) wins; then ``MCPTEST_BIN``; then
    ``mcptest`` on ``PATH``; then the interpreter's scripts directory.

    Example: ``find_binary("/opt/mcptest/bin/mcptest")``.
    """
    for source, given in (("binary=", explicit), ("MCPTEST_BIN", os.environ.get("MCPTEST_BIN"))):
        if given:
            if _executable(given):
                return given
            why = "does not exist" if not os.path.exists(given) else "is not an executable file"
            raise BinaryNotFound(f"{source} names {given!r}, which {why}. {INSTALL_HINT}")
    found = shutil.which("mcptest")
    if found:
        return found
    scripts = sysconfig.get_path("scripts")
    if scripts:
        beside = Path(scripts) / ("mcptest.exe" if os.name == "nt" else "mcptest")
        if _executable(str(beside)):
            return str(beside)
    raise BinaryNotFound(
        f"no mcptest binary: MCPTEST_BIN is unset and PATH has none. {INSTALL_HINT}"
    )
