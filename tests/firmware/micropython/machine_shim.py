"""The `machine` module as main.py uses it (Pin, SPI, WDT, reset), for the real MicroPython unix
port: chip-select Pins and the SPI bus are the chip model's, the other pins remember their
values, and the watchdog checks it is fed in time on the model's virtual clock.

harness.py puts this module into sys.modules as "machine" before main.py is imported.
"""

board = None
cs_by_id = {}
made = {}
spi_settings = {}
watchdogs = []
resets = []  # when reset() was called (the hub's RECONNECT), on the model's clock


def reset() -> None:
    """machine.reset(): on the Pico the board restarts (USB drops); here it is recorded."""
    resets.append(board.clock.now_us)


def install(model_board, cs_pins) -> None:
    global board
    board = model_board
    cs_by_id.clear()
    for pin_id, pin in zip(cs_pins, model_board.pins):
        cs_by_id[pin_id] = pin


class StandInPin:
    """A pin that is not a chip-select (reset, LED, the SPI lines): it keeps its values."""

    def __init__(self, pin_id, mode=None, value=None):
        self.id = pin_id
        self.mode = mode
        self.values = [] if value is None else [value]

    def value(self, v=None):
        if v is None:
            return self.values[-1] if self.values else 0
        self.values.append(1 if v else 0)
        return None

    def __call__(self, v=None):
        return self.value(v)


class _PinClass:
    """machine.Pin: Pin(id, mode, value=...), with Pin.OUT and Pin.IN."""

    OUT = 1
    IN = 0

    def __call__(self, pin_id, mode=None, value=None):
        pin = cs_by_id.get(pin_id)
        if pin is None:
            pin = StandInPin(pin_id, mode, value)
        elif value is not None:
            pin.value(value)
        made[pin_id] = pin
        return pin


class _SpiClass:
    """machine.SPI: SPI(id, baudrate=..., polarity=..., ...), with SPI.MSB."""

    MSB = 0
    LSB = 1

    def __call__(self, spi_id, **settings):
        spi_settings.clear()
        spi_settings["id"] = spi_id
        for key in settings:
            value = settings[key]
            spi_settings[key] = value.id if isinstance(value, StandInPin) else value
        return board.bus


class WDT:
    """machine.WDT(timeout=ms).feed(): records the longest gap between feeds."""

    def __init__(self, id=0, timeout=5000):
        self.timeout_ms = timeout
        self.feeds = 0
        self.longest_gap_ms = 0.0
        self._last = board.clock.now_us
        watchdogs.append(self)

    def feed(self) -> None:
        now = board.clock.now_us
        gap = (now - self._last) / 1000
        if gap > self.longest_gap_ms:
            self.longest_gap_ms = gap
        self._last = now
        self.feeds += 1


Pin = _PinClass()
SPI = _SpiClass()
