"""The process table, read from /proc: whether a pid still runs and which
processes a pid started. Leak checks look at the processes a test started,
never at process-wide counts other tests share.

Example: ``assert wait_gone(client.pid)`` after ``client.close()``.
"""

from __future__ import annotations

import os
import time
from typing import List, Optional


def state(pid: int) -> Optional[str]:
    """The process state letter (R, S, Z, ...), or None when no such process exists."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
            text = stat.read()
    except (FileNotFoundError, ProcessLookupError):
        return None
    # The command name may hold spaces and parentheses: the state follows the last ')'.
    return text[text.rindex(")") + 2]


def running(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie."""
    found = state(pid)
    return found is not None and found != "Z"


def children(pid: int) -> List[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as stat:
                text = stat.read()
        except (FileNotFoundError, ProcessLookupError):
            continue
        fields = text[text.rindex(")") + 2 :].split()
        if int(fields[1]) == pid:
            found.append(int(entry))
    return found


def wait_gone(pid: int, seconds: float = 5.0) -> bool:
    """Waits (bounded) until ``pid`` no longer exists at all: no process,
    no zombie. True if it went."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if state(pid) is None:
            return True
        time.sleep(0.02)
    return state(pid) is None


def wait_stopped(pid: int, seconds: float = 5.0) -> bool:
    """Waits (bounded) until ``pid`` no longer runs (gone, or a zombie its
    new parent has yet to reap). True if it stopped."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not running(pid):
            return True
        time.sleep(0.02)
    return not running(pid)
