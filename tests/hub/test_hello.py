"""The last step of `make flash`: waiting for the hub's HELLO on its port."""

from __future__ import annotations

from hardware.hub import hello
from hardware.hub.sim import SimTable, VirtualHub
from tests.firmware.loader import firmware


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


def test_no_hub_on_setup_hub_says_how_to_see_the_picos_usb_name(capsys, monkeypatch):
    monkeypatch.setattr(hello, "WAIT", 0.2)
    monkeypatch.setattr(hello, "NAMED_PORT", "/nonexistent/setup-hub")
    assert hello.main(["/nonexistent/setup-hub"]) == 1
    out = capsys.readouterr().out
    assert "udevadm info /dev/ttyACM0 | grep ID_MODEL=` must say SETUP_reader_hub" in out
    # udev's ID_MODEL is the USB product string with its spaces made underscores
    assert firmware().config.USB_PRODUCT.replace(" ", "_") in hello.UNNAMED
    assert out.count("\n") == 1
