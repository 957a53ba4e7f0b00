"""`Daemon.step()` handles a failing step as `serve()` does (issue 15): the error is logged
and counted, the loop goes on, and a step that succeeds again resets the count, so a
simulated-time run behaves like the real one."""

from __future__ import annotations

import logging


def test_a_failing_step_is_logged_and_counted_not_raised(make_table, caplog, monkeypatch):
    t = make_table(playing=True)

    def broken(snapshot, now):
        raise RuntimeError("a bug in the table")

    monkeypatch.setattr(t.table, "on_snapshot", broken)
    with caplog.at_level(logging.ERROR, logger="setup.daemon"):
        t.rig.sweep()
        for _ in range(20):  # until the step that reads the sweep
            assert t.daemon.step(0.5) is None
            if t.daemon.failures:
                break
    assert t.daemon.failures == 1
    assert "error in the main loop" in caplog.text and "a bug in the table" in caplog.text
    monkeypatch.undo()
    t.sweep(2)
    assert t.daemon.failures == 0
    assert t.table.game is not None and t.table.phase == "playing"
