"""The reader hub: scan the readers one at a time, speak the protocol, answer commands.

Board-independent: the readers (mfrc522.MFRC522 objects), the output and the clock are
passed in by main.py on the Pico, or by the host tests with the chip model. Nothing in
here may stop the hub: a reader that fails is reported as F and tried again later, a bad
command gets an ERR line.
"""

import iso14443
import protocol


class Hub:
    """Twelve readers (any number, in fact), swept round-robin with one field on at a time.

    write(line: bytes) sends a line to the Pi; clock is the MicroPython time module or
    anything with ticks_ms(), ticks_us(), ticks_diff(a, b), sleep_us(n) and sleep_ms(n).
    """

    def __init__(
        self,
        readers,
        write,
        clock,
        firmware: str = "dev",
        max_tags: int = 8,
        antenna_settle_us: int = 1000,
        sweep_period_ms: int = 50,
        heartbeat_ms: int = 1000,
        fault_retry_ms: int = 5000,
        test_at_boot: bool = True,
    ):
        self.readers = list(readers)
        self._write = write
        self._clock = clock
        self.firmware = firmware
        self.max_tags = max_tags
        self.antenna_settle_us = antenna_settle_us
        self.sweep_period_ms = sweep_period_ms
        self.heartbeat_ms = heartbeat_ms
        self.fault_retry_ms = fault_retry_ms
        self.test_at_boot = test_at_boot
        # VersionReg of each reader from its last self-test; None = in fault.
        self.versions = [None] * len(self.readers)
        # The UIDs each reader read in the last sweep: tried first, by direct SELECT.
        self.last_uids = [[] for _ in self.readers]
        self.seq = 0
        self.sweeps = 0
        self.uptime_ms = 0
        self._lines = protocol.LineReader()
        self._started = False
        self._last_tick = 0
        self._last_sweep = 0
        self._last_heartbeat = 0
        self._last_retry = 0

    @property
    def faulty(self) -> list:
        return [i for i, v in enumerate(self.versions) if v is None]

    def _send(self, line: bytes) -> None:
        self._write(line)

    # -- readers --------------------------------------------------------------------------

    def _test_reader(self, index: int):
        chip = self.readers[index]
        try:
            version = chip.init()
        except Exception:  # ReaderFault, or an OSError from the SPI driver: the same to us
            version = None
        self.versions[index] = version
        return version

    def self_test(self) -> list:
        """Reset and check every reader (VersionReg); return the versions, None = fault."""
        return [self._test_reader(i) for i in range(len(self.readers))]

    def scan(self, index: int):
        """Read one reader with its field on, all others off; return (status, uids)."""
        if self.versions[index] is None:
            return "fault", []
        chip = self.readers[index]
        try:
            chip.antenna_on()
            self._clock.sleep_us(self.antenna_settle_us)
            status, uids = iso14443.read_field(chip, self.max_tags, self.last_uids[index])
        except Exception:
            self.versions[index] = None
            status, uids = "fault", []
        try:
            chip.antenna_off()
        except Exception:
            self.versions[index] = None
            status, uids = "fault", []
        self.last_uids[index] = uids
        return status, uids

    def sweep(self) -> bytes:
        """Scan every reader once and send the S line; return it."""
        readings = [self.scan(i) for i in range(len(self.readers))]
        line = protocol.snapshot_line(self.seq, readings)
        self._send(line)
        self.seq = (self.seq + 1) & 0xFFFF
        self.sweeps += 1
        return line

    # -- commands -------------------------------------------------------------------------

    def hello(self) -> bytes:
        line = protocol.hello_line(self.firmware, len(self.readers))
        self._send(line)
        return line

    def test_line(self) -> bytes:
        line = protocol.selftest_line(self.versions)
        self._send(line)
        return line

    def send_error(self, text: str) -> None:
        self._send(protocol.error_line(text))

    def feed(self, data: bytes) -> int:
        """Handle the bytes the Pi sent; return how many commands were answered."""
        answered = 0
        for raw in self._lines.feed(data):
            command, error = protocol.parse_command(raw)
            if command == "VERSION":
                self.hello()
            elif command == "SELFTEST":
                self.self_test()
                self.test_line()
            elif error:
                self.send_error(error)
            else:
                continue
            answered += 1
        return answered

    # -- the loop -------------------------------------------------------------------------

    def start(self) -> None:
        """Boot: self-test, HELLO (and TEST), then the first sweep."""
        self.self_test()
        self.hello()
        if self.test_at_boot:
            self.test_line()
        now = self._clock.ticks_ms()
        self.uptime_ms = now  # ticks_ms counts from boot; later steps add up differences,
        # because ticks wrap around (after ~12 days on the Pico)
        self._last_tick = self._last_heartbeat = self._last_retry = now
        self._started = True
        self._last_sweep = now
        self.sweep()

    def step(self, data: bytes = b"") -> bool:
        """One turn of the main loop; return True if it did anything (else the caller idles)."""
        if not self._started:
            self.start()
            return True
        busy = self.feed(data) > 0 if data else False
        clock = self._clock
        now = clock.ticks_ms()
        self.uptime_ms += clock.ticks_diff(now, self._last_tick)
        self._last_tick = now
        if clock.ticks_diff(now, self._last_retry) >= self.fault_retry_ms:
            self._last_retry = now
            for index in self.faulty:
                self._test_reader(index)
        if clock.ticks_diff(now, self._last_sweep) >= self.sweep_period_ms:
            self._last_sweep = now
            self.sweep()
            busy = True
        if clock.ticks_diff(now, self._last_heartbeat) >= self.heartbeat_ms:
            self._last_heartbeat = now
            # The seq of the last snapshot sent, which is one behind the next one.
            self._send(protocol.heartbeat_line((self.seq - 1) & 0xFFFF, self.uptime_ms))
            busy = True
        return busy

    def run(self, read_input, idle, stop=None) -> None:
        """The main loop: read what the Pi sent, step, idle when there was nothing to do.

        read_input() returns the bytes received since the last call (b"" for none);
        idle() waits a little (time.sleep_ms(1) on the Pico); stop() ends the loop when it
        returns True (the host tests; on the Pico the loop runs forever).
        """
        while stop is None or not stop():
            if not self.step(read_input()):
                idle()
