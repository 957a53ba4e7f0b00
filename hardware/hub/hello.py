"""`python -m hardware.hub.hello PORT`: waits for the reader hub on PORT to say HELLO, the
last step of `make flash` (the Pico restarts after the copy, and its USB port comes back a
moment later). Prints one line; exit code 0 with a HELLO, 1 without."""

from __future__ import annotations

import sys
import time

from hardware.hub.link import HubLink

WAIT = 15.0  # the Pico reboots, re-enumerates on USB and starts main.py
NAMED_PORT = "/dev/setup-hub"
# The udev rule names only a Pico whose firmware gave it our USB name (the firmware's config.py).
UNNAMED = (
    f" {NAMED_PORT} appears only once the hub has its USB name:"
    " `udevadm info /dev/ttyACM0 | grep ID_MODEL=` must say SETUP_reader_hub (docs/firmware.md)"
)


def wait_for_hello(port: str, seconds: float = WAIT) -> str | None:
    """The firmware version the hub on `port` announces within `seconds`, or None."""
    deadline = time.monotonic() + seconds
    with HubLink(port) as link:
        while time.monotonic() < deadline:
            link.read(0.25)
            if link.health.firmware is not None:
                return link.health.firmware
            if link.health.connected:
                link.send("VERSION")  # a hub that started before we listened says it again
    return None


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m hardware.hub.hello PORT", file=sys.stderr)
        return 2
    port = argv[0]
    firmware = wait_for_hello(port, WAIT)
    if firmware is None:
        print(
            f"no HELLO from the hub on {port} within {WAIT:g} s: is main.py on the Pico,"
            " and is the port right (make flash HUB_PORT=...)?"
            + (UNNAMED if port == NAMED_PORT else "")
        )
        return 1
    print(f"the hub on {port} says HELLO: firmware {firmware}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
