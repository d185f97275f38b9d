"""Checks the frames a test saw against the coprocess JSON Schema.

The SDK appends every frame it sends and receives to ``MCPTEST_TRACE_FRAMES``
(see ``mcptest._engine``); :func:`problems` validates each one with
``jsonschema`` against the schema the repository keeps beside the binary's
source (``mcptest-coprocess/coprocess.schema.json``; ``MCPTEST_COPROCESS_SCHEMA``
overrides the path).

Example: ``assert not problems(tmp_path / "frames.jsonl")``.
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any, Dict, List

from jsonschema import validators
from jsonschema.protocols import Validator

REPO = Path(__file__).resolve().parents[3]
SCHEMA = REPO / "mcptest-coprocess" / "coprocess.schema.json"


def schema_path() -> Path:
    """Where the coprocess schema is read from."""
    return Path(os.environ.get("MCPTEST_COPROCESS_SCHEMA") or SCHEMA)


@cache
def _validator(path: str) -> Validator:
    with open(path, encoding="utf-8") as source:
        schema = json.load(source)
    cls = validators.validator_for(schema)
    cls.check_schema(schema)
    validator: Validator = cls(schema)
    return validator


def read(trace: Path) -> List[Dict[str, Any]]:
    """The trace's records, in order (none if no frame was exchanged)."""
    if not trace.exists():
        return []
    with open(trace, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def problems(trace: Path) -> List[str]:
    """Every schema violation among the traced frames, one line each."""
    path = schema_path()
    if not path.is_file():
        raise AssertionError(
            f"the coprocess schema {path} is missing: the frame check would see nothing"
        )
    validator = _validator(str(path))
    found = []
    for index, record in enumerate(read(trace)):
        where = f"frame {index} ({record['direction']} {record['method']})"
        if "frame" not in record:
            found.append(f"{where}: not JSON: {record['line']!r}")
            continue
        for error in validator.iter_errors(record["frame"]):
            found.append(f"{where} at {error.json_path}: {error.message}")
    return found
