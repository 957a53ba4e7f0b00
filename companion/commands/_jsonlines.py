"""Shared loop of the JSON Lines filters: one answer per input line, in order, never a crash.

The input is read as bytes and each line decoded on its own: a line that is not UTF-8 (or
not JSON, or nested too deeply to be read) is answered `bad-input` and the lines around it
are answered as usual, whatever the locale says stdin's encoding is.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, BinaryIO, TextIO


def filter_lines(
    answer: Callable[[Any], dict[str, Any]],
    stdin: BinaryIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout
    for raw in stdin:
        out = answer_line(answer, raw)
        stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
        stdout.flush()
    return 0


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
