"""The rate-limited log: a problem repeating for a minute is a handful of lines, with counts,
and a line when it ends; other problems are not hidden by it. Time is an injected clock."""

from __future__ import annotations

import logging

import pytest

from hardware.log_limit import LogLimiter

log = logging.getLogger("setup.test-limit")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def lines(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.INFO, logger=log.name)
    return caplog


def test_a_problem_four_times_a_second_for_two_minutes_is_three_lines_with_counts(lines):
    clock = Clock()
    limit = LogLimiter(log, every=60.0, clock=clock)
    for _ in range(481):  # 0 s to 120 s
        limit.log(logging.ERROR, "card", "cannot write: %s", "No space left on device")
        clock.now += 0.25
    assert lines.messages == [
        "cannot write: No space left on device",
        "cannot write: No space left on device (240 times in the last 60 s)",
        "cannot write: No space left on device (240 times in the last 60 s)",
    ]
    limit.ended("card", "written again")
    assert lines.messages[3:] == ["written again (after 481 times in 2 min)"]
    limit.ended("card", "written again")  # over already: nothing more
    assert len(lines.messages) == 4


def test_a_problem_that_stops_happening_is_said_to_be_over_once(lines):
    clock = Clock()
    limit = LogLimiter(log, every=60.0, clock=clock)
    for _ in range(50):
        limit.log(logging.WARNING, "error", "hub error: %s", "overflow")
        clock.now += 0.125
    clock.now += 60
    limit.expire()
    limit.expire()
    assert lines.messages == [
        "hub error: overflow",
        "no more for 60 s: hub error: overflow (50 times in 6 s)",
    ]


def test_each_problem_is_limited_apart(lines):
    clock = Clock()
    limit = LogLimiter(log, clock=clock)
    for _ in range(100):
        limit.log(logging.WARNING, "a", "problem a")
    assert limit.log(logging.WARNING, "b", "problem b")
    assert lines.messages == ["problem a", "problem b"]
