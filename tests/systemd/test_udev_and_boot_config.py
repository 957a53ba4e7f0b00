"""The udev rule naming the hub /dev/setup-hub, and the config.txt lines for I2C and the mux."""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path

from tests.firmware.loader import firmware

SYSTEMD = Path(__file__).resolve().parents[2] / "systemd"
RULES = SYSTEMD / "99-setup-hub.rules"
BOOT = SYSTEMD / "config.txt"

# udev's rule syntax: KEY[{attribute}] OPERATOR "value", comma-separated (udev(7)).
TOKEN = re.compile(
    r'^(?P<key>[A-Z_]+)(?:\{(?P<attr>[^}]+)\})?(?P<op>==|!=|\+=|-=|:=|=)"(?P<value>[^"]*)"$'
)
MATCH_KEYS = {"ACTION", "SUBSYSTEM", "KERNEL", "ATTRS", "ATTR", "ENV", "DRIVERS", "SUBSYSTEMS"}
ASSIGN_KEYS = {"SYMLINK", "GROUP", "MODE", "OWNER", "ENV", "TAG", "RUN"}


def rule_lines() -> list[list[tuple[str, str | None, str, str]]]:
    rules = []
    for raw in RULES.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        tokens = []
        for part in (p.strip() for p in line.split(",")):
            found = TOKEN.match(part)
            assert found, f"not udev syntax: {part!r}"
            tokens.append((found["key"], found["attr"], found["op"], found["value"]))
        rules.append(tokens)
    return rules


def test_one_rule_in_valid_udev_syntax():
    (rule,) = rule_lines()
    for key, _attr, op, _value in rule:
        if op in ("==", "!="):
            assert key in MATCH_KEYS, key
        else:
            assert key in ASSIGN_KEYS, key


def test_rule_matches_the_micropython_pico_tty_and_names_it_setup_hub():
    (rule,) = rule_lines()
    matches = {(k, a): v for k, a, op, v in rule if op == "=="}
    assigns = {(k, a): (op, v) for k, a, op, v in rule if op != "=="}
    assert matches[("SUBSYSTEM", None)] == "tty"
    assert matches[("ATTRS", "idVendor")] == "2e8a"
    assert matches[("ATTRS", "idProduct")] == "0005"
    assert assigns[("SYMLINK", None)] == ("+=", "setup-hub")
    # ModemManager's AT probes would reach the hub as garbage lines.
    assert assigns[("ENV", "ID_MM_DEVICE_IGNORE")] == ("=", "1")


#: the USB product string our hub firmware sets (any other MicroPython Pico: "Board in FS mode")
HUB_PRODUCT = firmware().config.USB_PRODUCT
HUB = {"SUBSYSTEM": "tty", "KERNEL": "ttyACM0", ("ATTRS", "idVendor"): "2e8a",
       ("ATTRS", "idProduct"): "0005", ("ATTRS", "product"): HUB_PRODUCT}  # fmt: skip


def matches(rule, device) -> bool:
    """Whether a udev rule's == matches hold for a device (its keys and attributes)."""
    for key, attr, op, value in rule:
        if op != "==":
            continue
        have = device.get((key, attr) if attr else key)
        if have is None or not fnmatch.fnmatchcase(have, value):
            return False
    return True


def test_the_rule_looks_for_the_product_string_the_firmware_sets():
    (rule,) = rule_lines()
    matches = {(k, a): v for k, a, op, v in rule if op == "=="}
    assert matches[("ATTRS", "product")] == HUB_PRODUCT == "SETUP reader hub"


def test_rule_matches_our_hub_only_not_any_micropython_pico():
    (rule,) = rule_lines()
    assert matches(rule, HUB)
    assert not matches(rule, {**HUB, ("ATTRS", "product"): "Board in FS mode"})
    assert not matches(rule, {**HUB, ("ATTRS", "idVendor"): "1a86"})


def test_the_port_is_the_services_alone():
    (rule,) = rule_lines()
    assigns = {(k, a): (op, v) for k, a, op, v in rule if op != "=="}
    # The service's own user; no group (dialout was every serial user) may read it.
    assert assigns[("OWNER", None)] == ("=", "setup-companion")
    assert assigns[("GROUP", None)] == ("=", "setup-companion")
    assert assigns[("MODE", None)] == ("=", "0600")


def boot_block() -> list[str]:
    lines = BOOT.read_text().splitlines()
    begin = lines.index("# BEGIN setup-companion")
    end = lines.index("# END setup-companion")
    assert begin < end
    return lines[begin : end + 1]


def test_boot_config_block_is_marked_for_install_and_uninstall():
    block = boot_block()
    assert block[0] == "# BEGIN setup-companion" and block[-1] == "# END setup-companion"
    assert sum(line.startswith("# BEGIN") for line in BOOT.read_text().splitlines()) == 1


def test_boot_config_turns_on_i2c_and_the_display_mux():
    settings = [
        line for line in boot_block() if line and not line.startswith("#") and line != "[all]"
    ]
    for line in settings:
        assert re.fullmatch(r"(dtparam|dtoverlay)=[\w,=-]+", line), line
    assert "dtparam=i2c_arm=on" in settings
    assert "dtoverlay=i2c-mux,pca9548,addr=0x70" in settings
    # Conditional sections above must not swallow our lines: the block opens with [all].
    assert boot_block()[1] == "[all]"
