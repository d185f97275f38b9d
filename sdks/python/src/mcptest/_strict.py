"""Strict reading of closed JSON objects from the binary.

A :class:`Fields` reader takes each field by name and type; :meth:`Fields.done`
then fails on anything left over. An unknown field, a missing one or a wrong
type is a :class:`~mcptest.errors.FrameError` naming the method and the path,
never a silent default.

Example::

    fields = Fields(frame, "mcp.call", "the verdict")
    success = fields.boolean("success")
    fields.done()
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from .errors import FrameError, sdk_frames_hidden

__tracebackhide__ = sdk_frames_hidden

_JSON_TYPES = {
    dict: "an object",
    list: "an array",
    str: "a string",
    bool: "a boolean",
    int: "an integer",
    float: "a number",
    type(None): "null",
}


def describe(value: object) -> str:
    """The JSON type of ``value`` in words, for messages."""
    return _JSON_TYPES.get(type(value), type(value).__name__)


class Fields:
    """A closed JSON object read field by field.

    ``method`` is the coprocess method whose answer this is; ``where`` names
    the object within it (``"the verdict"``, ``"tests[3]"``).

    Example: ``Fields({"a": 1}, "m", "x").integer("a") == 1``.
    """

    def __init__(self, value: object, method: str, where: str) -> None:
        if not isinstance(value, dict):
            raise FrameError(method, f"{where} is {describe(value)}, not an object")
        self._value: Dict[str, Any] = value
        self._taken: set[str] = set()
        self.method = method
        self.where = where

    def fail(self, detail: str) -> FrameError:
        """A :class:`FrameError` about this object."""
        return FrameError(self.method, f"{self.where}: {detail}")

    def _take(self, name: str, required: bool) -> Any:
        self._taken.add(name)
        if name not in self._value:
            if required:
                raise self.fail(f"missing field `{name}`")
            return None
        return self._value[name]

    def _typed(self, name: str, value: Any, kinds: tuple[type, ...], what: str) -> Any:
        # bool is an int in Python, never in JSON.
        if isinstance(value, bool) and bool not in kinds:
            raise self.fail(f"field `{name}` is a boolean, not {what}")
        if not isinstance(value, kinds):
            raise self.fail(f"field `{name}` is {describe(value)}, not {what}")
        return value

    def string(self, name: str) -> str:
        """A required string field."""
        value: str = self._typed(name, self._take(name, True), (str,), "a string")
        return value

    def opt_string(self, name: str, *, required: bool = False) -> Optional[str]:
        """A string or null field; absent too unless ``required``."""
        value = self._take(name, required)
        if value is None:
            return None
        text: str = self._typed(name, value, (str,), "a string or null")
        return text

    def integer(self, name: str) -> int:
        """A required integer field."""
        value: int = self._typed(name, self._take(name, True), (int,), "an integer")
        return value

    def opt_integer(self, name: str, *, required: bool = False) -> Optional[int]:
        """An integer or null field; absent too unless ``required``."""
        value = self._take(name, required)
        if value is None:
            return None
        number: int = self._typed(name, value, (int,), "an integer or null")
        return number

    def boolean(self, name: str) -> bool:
        """A required boolean field."""
        value: bool = self._typed(name, self._take(name, True), (bool,), "a boolean")
        return value

    def array(self, name: str) -> List[Any]:
        """A required array field."""
        value: List[Any] = self._typed(name, self._take(name, True), (list,), "an array")
        return value

    def obj(self, name: str) -> Dict[str, Any]:
        """A required object field."""
        value: Dict[str, Any] = self._typed(name, self._take(name, True), (dict,), "an object")
        return value

    def opt_obj(self, name: str, *, required: bool = False) -> Optional[Dict[str, Any]]:
        """An object or null field; absent too unless ``required``."""
        value = self._take(name, required)
        if value is None:
            return None
        found: Dict[str, Any] = self._typed(name, value, (dict,), "an object or null")
        return found

    def any(self, name: str, *, required: bool = True) -> Any:
        """A field of any JSON type (null when absent and not ``required``)."""
        return self._take(name, required)

    def string_list(self, name: str) -> List[str]:
        """A required array of strings."""
        items = self.array(name)
        for index, item in enumerate(items):
            if not isinstance(item, str):
                raise self.fail(f"`{name}[{index}]` is {describe(item)}, not a string")
        return items

    def objects(self, name: str) -> List[Dict[str, Any]]:
        """A required array of objects."""
        items = self.array(name)
        for index, item in enumerate(items):
            if not isinstance(item, dict):
                raise self.fail(f"`{name}[{index}]` is {describe(item)}, not an object")
        return items

    def done(self) -> None:
        """Fails if the object holds a field no one took."""
        extra = sorted(set(self._value) - self._taken)
        if extra:
            names = ", ".join(f"`{name}`" for name in extra)
            noun = "field" if len(extra) == 1 else "fields"
            known = ", ".join(sorted(self._taken))
            raise self.fail(f"unknown {noun} {names} (known: {known})")
