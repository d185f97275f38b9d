"""Checks the frames a test saw against the coprocess JSON Schema.

The SDK appends every frame it sends and receives to ``MCPTEST_TRACE_FRAMES``
(see ``mcptest._engine``); :func:`problems` validates each one with
``jsonschema``, a request against its method's definition, a response
against the response's and its result against its method's, in the schema
the repository keeps beside the binary's source
(``mcptest-coprocess/coprocess.schema.json``; ``MCPTEST_COPROCESS_SCHEMA``
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
from referencing import Registry, Resource

REPO = Path(__file__).resolve().parents[3]
SCHEMA = REPO / "mcptest-coprocess" / "coprocess.schema.json"


def schema_path() -> Path:
    """Where the coprocess schema is read from."""
    return Path(os.environ.get("MCPTEST_COPROCESS_SCHEMA") or SCHEMA)


@cache
def _schema(path: str) -> Dict[str, Any]:
    with open(path, encoding="utf-8") as source:
        schema: Dict[str, Any] = json.load(source)
    validators.validator_for(schema).check_schema(schema)
    return schema


@cache
def _validator(path: str, pointer: str) -> Validator:
    """A validator of the definition at ``pointer`` in the schema document."""
    schema = _schema(path)
    cls = validators.validator_for(schema)
    registry: Registry[Any] = Registry().with_resource(
        schema["$id"], Resource.from_contents(schema)
    )
    validator: Validator = cls({"$ref": f"{schema['$id']}#{pointer}"}, registry=registry)
    return validator


def _escape(method: str) -> str:
    return method.replace("~", "~0").replace("/", "~1")


def read(trace: Path) -> List[Dict[str, Any]]:
    """The trace's records, in order (none if no frame was exchanged)."""
    if not trace.exists():
        return []
    with open(trace, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def _pointers(path: str, record: Dict[str, Any]) -> List[str]:
    """The definitions a traced frame must satisfy: a request its method's;
    a response the response's, and a result its method's result."""
    defs = _schema(path)["$defs"]
    method = record["method"]
    if record["direction"] == "sent":
        if method not in defs["request"]:
            return ["/$defs/envelope"]
        return [f"/$defs/request/{_escape(method)}"]
    pointers = ["/$defs/response"]
    if "result" in record["frame"] and method in defs["result"]:
        pointers.append(f"/$defs/result/{_escape(method)}")
    return pointers


def problems(trace: Path) -> List[str]:
    """Every schema violation among the traced frames, one line each."""
    path = schema_path()
    if not path.is_file():
        raise AssertionError(
            f"the coprocess schema {path} is missing: the frame check would see nothing"
        )
    found = []
    for index, record in enumerate(read(trace)):
        where = f"frame {index} ({record['direction']} {record['method']})"
        if "frame" not in record:
            found.append(f"{where}: not JSON: {record['line']!r}")
            continue
        for pointer in _pointers(str(path), record):
            target = record["frame"]
            if pointer.startswith("/$defs/result/"):
                target = target["result"]
            for error in _validator(str(path), pointer).iter_errors(target):
                found.append(f"{where} against #{pointer} at {error.json_path}: {error.message}")
    return found
