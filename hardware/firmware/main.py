"""Entry point on the Pico: wires the board's SPI, pins, USB serial and clock to the hub.

MicroPython runs main.py at power-on. This is the only firmware module that touches the
board (machine, sys, select, time); the logic it wires together runs, and is tested, on
the host as well.
"""

import select
import sys
import time

import config
import machine
import protocol
from hub import Hub, describe
from mfrc522 import MFRC522


def name_usb(cfg=config):
    """Give the USB device the product string the Pi's udev rule looks for, keeping the
    built-in serial port (the protocol, the REPL) and the board's serial number. None once
    done, else why not (the hub runs either way, as a Pico the Pi does not name)."""
    try:
        import usb.device  # micropython-lib's usb-device: `make flash` installs it
    except ImportError:
        return "usb-device package missing: /dev/setup-hub will not appear"
    try:
        # init() re-enumerates: the serial port drops and comes back under the new name.
        usb.device.get().init(
            builtin_driver=True,
            manufacturer_str=cfg.USB_MANUFACTURER,
            product_str=cfg.USB_PRODUCT,
        )
    except Exception as exc:  # e.g. no machine.USBDevice before MicroPython 1.23
        return "cannot set the USB name (" + describe(exc) + "): /dev/setup-hub will not appear"
    return None


def reset_readers(pin_id) -> None:
    """Hard power-down of all readers through NRSTPD, then time for their oscillators to
    start (datasheet 8.8.2: crystal start-up plus 37.74 us; 50 ms is plenty)."""
    reset = machine.Pin(pin_id, machine.Pin.OUT, value=0)
    time.sleep_ms(2)
    reset.value(1)
    time.sleep_ms(50)


def build(cfg=config, write=None):
    """The hub with its twelve readers on the shared SPI bus, as config.py describes it."""
    reset_readers(cfg.RESET_PIN)
    spi = machine.SPI(
        cfg.SPI_ID,
        baudrate=cfg.SPI_BAUDRATE,
        polarity=0,
        phase=0,
        bits=8,
        firstbit=machine.SPI.MSB,
        sck=machine.Pin(cfg.SPI_SCK),
        mosi=machine.Pin(cfg.SPI_MOSI),
        miso=machine.Pin(cfg.SPI_MISO),
    )
    readers = []
    for pin_id in cfg.CS_PINS:
        cs = machine.Pin(pin_id, machine.Pin.OUT, value=1)
        readers.append(MFRC522(spi, cs, time, cfg.TIMER_PRESCALER, cfg.TIMER_RELOAD, cfg.RX_GAIN))
    return Hub(
        readers,
        write or usb_writer(),
        time,
        cfg.FIRMWARE_VERSION,
        cfg.MAX_TAGS,
        cfg.ANTENNA_SETTLE_US,
        cfg.SWEEP_PERIOD_MS,
        cfg.HEARTBEAT_MS,
        cfg.FAULT_RETRY_MS,
        cfg.TEST_AT_BOOT,
        cfg.FIELD_GROUPS,
        machine.reset,  # RECONNECT: a reset drops USB, hanging up whoever had the port open
    )


def usb_writer():
    """Write lines to the USB serial port as raw bytes (no newline translation)."""
    out = getattr(sys.stdout, "buffer", None)
    if out is not None:
        return out.write
    return lambda line: sys.stdout.write(line.decode())


class UsbInput:
    """What the Pi sent over USB serial, read without blocking the scan."""

    def __init__(self, stream=None):
        self._stream = stream or getattr(sys.stdin, "buffer", sys.stdin)
        self._poll = select.poll()
        self._poll.register(self._stream, select.POLLIN)

    def read(self) -> bytes:
        data = b""
        # A bounded read per turn: a flood of input must not stop the sweeps.
        while len(data) < 64 and self._poll.poll(0):
            chunk = self._stream.read(1)
            if not chunk:
                break
            data += chunk.encode() if isinstance(chunk, str) else chunk
        return data


def report(hub, exc) -> bool:
    """Tell the Pi about an unexpected error as an ERR line; False if even that failed."""
    try:
        hub.send_error("internal " + describe(exc))
        return True
    except Exception:  # the USB port itself failed: nobody to tell
        return False


def serve(cfg, write) -> None:
    """Build the hub and run it for ever; nothing but protocol lines reach the port."""
    hub = None
    while hub is None:
        try:
            hub = build(cfg, write)
        except Exception as exc:  # e.g. MemoryError: say so, and try again
            try:  # noqa: SIM105 - MicroPython has no contextlib
                write(protocol.error_line("internal " + describe(exc)))
            except Exception:  # the USB port itself failed: nobody to tell
                pass
            time.sleep_ms(1000)
    led = machine.Pin(cfg.LED_PIN, machine.Pin.OUT, value=0)
    usb = UsbInput()
    watchdog = machine.WDT(timeout=cfg.WATCHDOG_MS) if cfg.WATCHDOG_MS else None

    def read_input():
        if watchdog is not None:
            watchdog.feed()
        return usb.read()

    def idle():
        # A short blink once a second while scanning; lit while a reader is in fault.
        led.value(1 if hub.faulty or time.ticks_ms() % 1000 < 50 else 0)
        time.sleep_ms(1)

    try:
        while True:
            try:
                hub.run(read_input, idle)
            except Exception as exc:  # never stop scanning; say what happened and go on
                report(hub, exc)
                time.sleep_ms(100)
    finally:
        hub.fields_off()


def main(cfg=config) -> None:
    try:
        problem = name_usb(cfg)  # before the first line: the port may drop and come back
        write = usb_writer()
        if problem is not None:
            try:  # noqa: SIM105 - MicroPython has no contextlib
                write(protocol.error_line("usb " + problem))
            except Exception:  # the USB port itself failed: nobody to tell
                pass
        serve(cfg, write)
    except KeyboardInterrupt:
        # Ctrl-C (mpremote, a terminal): back to the REPL, without a traceback on the port.
        pass


if __name__ == "__main__":
    main()
