"""Shared loop of the JSON Lines filters: one answer per input line, in order, never a crash."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, TextIO


def filter_lines(
    answer: Callable[[Any], dict[str, Any]],
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    for line in stdin:
        try:
            data = json.loads(line) if line.strip() else None
            if data is None:
                raise ValueError("the line is empty")
        except ValueError as exc:
            out: dict[str, Any] = {
                "legal": False,
                "error": "bad-input",
                "message": f"not valid JSON: {exc}",
            }
        else:
            try:
                out = answer(data)
            except Exception as exc:  # a bug must not cost the lines after it their answers
                out = {"legal": False, "error": "internal", "message": f"internal error: {exc!r}"}
        stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
        stdout.flush()
    return 0
