"""Shared loop of the JSON Lines filters: one answer per input line, in order, never a crash.

The input is read as bytes and each line decoded on its own: a line that is not UTF-8 (or
not JSON, or nested too deeply to be read) is answered `bad-input` and the lines around it
are answered as usual, whatever the locale says stdin's encoding is. The answers are
written as bytes too, always strict UTF-8: JSON can carry a lone surrogate (`"\udcff"`),
which no UTF-8 can encode, so an answer that echoes one keeps it as its JSON escape.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, BinaryIO


def filter_lines(
    answer: Callable[[Any], dict[str, Any]],
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
) -> int:
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    for raw in stdin:
        stdout.write(json_line(answer_line(answer, raw)))
        stdout.flush()
    return 0


def json_line(value: Any) -> bytes:
    """`value` as one line of JSON in strict UTF-8, whatever it holds: text as it is where
    UTF-8 can encode it, else (a lone surrogate from the input) the whole line in ASCII
    escapes, which decodes back to the same value."""
    text = json.dumps(value, ensure_ascii=False)
    try:
        return text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:
        return json.dumps(value).encode("ascii") + b"\n"


def _bad(message: str) -> dict[str, Any]:
    return {"legal": False, "error": "bad-input", "message": message}


def answer_line(answer: Callable[[Any], dict[str, Any]], raw: bytes) -> dict[str, Any]:
    """The answer to one line of input (bytes, with or without its line end)."""
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _bad(f"not UTF-8 text (byte {exc.start + 1} of the line)")
    if not line.strip():
        return _bad("not valid JSON: the line is empty")
    try:
        data = json.loads(line)
    except ValueError as exc:
        return _bad(f"not valid JSON: {exc}")
    except RecursionError:
        return _bad("not valid JSON: it is nested too deeply")
    try:
        return answer(data)
    except RecursionError:  # a value nested deep enough for the engine to give up on
        return _bad("the input is nested too deeply")
    except Exception as exc:  # a bug must not cost the lines after it their answers
        return {"legal": False, "error": "internal", "message": f"internal error: {exc}"}
