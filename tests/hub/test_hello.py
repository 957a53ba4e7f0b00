"""The last step of `make flash`: waiting for the hub's HELLO on its port."""

from __future__ import annotations

from hardware.hub import hello
from hardware.hub.sim import SimTable, VirtualHub


def test_a_hub_that_says_hello_is_named_with_its_firmware(capsys):
    with VirtualHub(SimTable(), seed=1, firmware="1.0.0") as hub:
        assert hello.main([hub.port]) == 0
    assert capsys.readouterr().out == f"the hub on {hub.port} says HELLO: firmware 1.0.0\n"


def test_no_hub_is_one_sentence_and_exit_code_1(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(hello, "WAIT", 0.5)
    port = str(tmp_path / "ttyACM0")
    assert hello.main([port]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"no HELLO from the hub on {port} within 0.5 s: ")
    assert out.count("\n") == 1
