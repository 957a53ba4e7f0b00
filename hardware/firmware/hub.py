"""The reader hub: sweep the readers group by group, speak the protocol, answer commands.

Board-independent: the readers (mfrc522.MFRC522 objects), the output and the clock are
passed in by main.py on the Pico, or by the host tests with the chip model. Nothing in
here may stop the hub: a reader that fails is reported as F (and the reason as an ERR line)
and tried again later, a bad command gets an ERR line.
"""

import iso14443
import protocol
from mfrc522 import ReaderFault

# ISO/IEC 14443-3: a tag may take up to 5 ms from the field coming on to being ready for
# its first command; a reader waits at least 5.1 ms.
ISO_SETTLE_US = 5100


def field_groups(groups, count: int) -> list:
    """The groups as lists of reader numbers below count; every reader in exactly one
    (one of its own if no group names it); None: one reader per group."""
    result = []
    seen = set()
    for group in groups or ():
        members = [r for r in group if 0 <= r < count and r not in seen]
        seen.update(members)
        if members:
            result.append(members)
    result.extend([[r] for r in range(count) if r not in seen])
    return result


def describe(exc) -> str:
    """An exception as a short line of printable ASCII for an ERR line."""
    if isinstance(exc, ReaderFault):
        text = str(exc)
    else:
        text = type(exc).__name__
        detail = str(exc)
        if detail:
            text += " " + detail
    clean = "".join([ch if " " <= ch <= "~" and ch != "*" else "?" for ch in text])
    return clean[:80] or "error"


class Hub:
    """Twelve readers (any number, in fact), swept group by group.

    The readers of one group (groups: lists of reader numbers; readers whose coils are not
    neighbours) have their fields on together: they settle once, together, and their RF
    exchanges run side by side, one reader's frame on the air while the SPI bus serves the
    next. write(line: bytes) sends a line to the Pi; clock is the MicroPython time module or
    anything with ticks_ms(), ticks_us(), ticks_add(t, d), ticks_diff(a, b), sleep_us(n)
    and sleep_ms(n).
    """

    def __init__(
        self,
        readers,
        write,
        clock,
        firmware: str = "dev",
        max_tags: int = 8,
        antenna_settle_us: int = ISO_SETTLE_US,
        sweep_period_ms: int = 50,
        heartbeat_ms: int = 1000,
        fault_retry_ms: int = 1000,
        test_at_boot: bool = True,
        groups=None,
        reconnect=None,
    ):
        self.readers = list(readers)
        # RECONNECT: drop off USB and come back (main.py: a reset); None: not on this board
        self._reconnect = reconnect
        self._write = write
        self._clock = clock
        self.firmware = firmware
        self.max_tags = max_tags
        self.antenna_settle_us = antenna_settle_us
        self.sweep_period_ms = sweep_period_ms
        self.heartbeat_ms = heartbeat_ms
        self.fault_retry_ms = fault_retry_ms
        self.test_at_boot = test_at_boot
        self.groups = field_groups(groups, len(self.readers))
        # VersionReg of each reader from its last self-test; None = in fault.
        self.versions = [None] * len(self.readers)
        # The UIDs each reader read in the last sweep: tried first, by direct SELECT.
        self.last_uids = [[] for _ in self.readers]
        self.seq = 0
        self.sweeps = 0
        self.uptime_ms = 0
        self._lines = protocol.LineReader()
        self._started = False
        self._last_tick = clock.ticks_ms()
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
        except Exception:  # ReaderFault, or an OSError from the SPI driver: the TEST line
            version = None  # (or the F in the S lines) says it
        self.versions[index] = version
        return version

    def self_test(self) -> list:
        """Reset and check every reader (VersionReg); return the versions, None = fault."""
        return [self._test_reader(i) for i in range(len(self.readers))]

    def _fault(self, index: int, exc) -> None:
        """A reader failed during a sweep: F from now on, and an ERR line saying why."""
        was_working = self.versions[index] is not None
        self.versions[index] = None
        self.last_uids[index] = []
        try:  # noqa: SIM105 - MicroPython has no contextlib
            self.readers[index].antenna_off()
        except Exception:  # it is in fault already; nothing more to do
            pass
        if was_working:
            self.send_error("reader " + str(index) + " " + describe(exc))

    def scan_group(self, group, readings) -> None:
        """Read the readers of one group at once; put (status, uids) into readings."""
        clock = self._clock
        tasks = []
        for index in group:
            if self.versions[index] is None:
                readings[index] = ("fault", [])
                continue
            try:
                self.readers[index].antenna_on()
                tasks.append([index, None])
            except Exception as exc:
                self._fault(index, exc)
                readings[index] = ("fault", [])
        if not tasks:
            return
        # One settle for the whole group, counted from the last field switched on.
        switched_on = clock.ticks_us()
        for task in tasks:
            task[1] = iso14443.reading(self.max_tags, self.last_uids[task[0]])
        wait = self.antenna_settle_us - clock.ticks_diff(clock.ticks_us(), switched_on)
        if wait > 0:
            clock.sleep_us(wait)
        for task in tasks[:]:
            self._advance(task, None, tasks, readings)
        while tasks:
            # The reader whose exchange can end soonest; sleep until then if nobody can.
            now = clock.ticks_us()
            task = tasks[0]
            soonest = clock.ticks_diff(self.readers[task[0]].due(), now)
            for other in tasks[1:]:
                left = clock.ticks_diff(self.readers[other[0]].due(), now)
                if left < soonest:
                    task, soonest = other, left
            if soonest > 0:
                clock.sleep_us(soonest)
            index = task[0]
            try:
                reply = self.readers[index].poll()
            except Exception as exc:
                self._drop(task, exc, tasks, readings)
                continue
            if reply is not None:
                self._advance(task, reply, tasks, readings)

    def _advance(self, task, reply, tasks, readings) -> None:
        """Give a reader's reading its reply and start its next exchange, or finish it."""
        index = task[0]
        chip = self.readers[index]
        try:
            request = task[1].send(reply)
        except StopIteration as stop:
            tasks.remove(task)
            readings[index] = stop.value
            self.last_uids[index] = stop.value[1]
            try:
                chip.antenna_off()
            except Exception as exc:
                self._fault(index, exc)
                readings[index] = ("fault", [])
            return
        except Exception as exc:
            self._drop(task, exc, tasks, readings)
            return
        try:
            chip.start(request[0], request[1], request[2], request[3])
        except Exception as exc:
            self._drop(task, exc, tasks, readings)

    def _drop(self, task, exc, tasks, readings) -> None:
        tasks.remove(task)
        self._fault(task[0], exc)
        readings[task[0]] = ("fault", [])

    def scan(self, index: int):
        """Read one reader on its own (field on, settle, read, field off)."""
        readings = [None] * len(self.readers)
        self.scan_group([index], readings)
        return readings[index]

    def sweep(self) -> bytes:
        """Scan every reader once, group by group, and send the S line; return it."""
        readings = [("fault", [])] * len(self.readers)
        for group in self.groups:
            self.scan_group(group, readings)
        line = protocol.snapshot_line(self.seq, readings)
        self._send(line)
        self.seq = (self.seq + 1) & 0xFFFF
        self.sweeps += 1
        return line

    def fields_off(self) -> None:
        """Switch every field off (the hub is being stopped)."""
        for chip in self.readers:
            try:  # noqa: SIM105 - MicroPython has no contextlib
                chip.antenna_off()
            except Exception:  # a reader in fault has no field to switch off
                pass

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
            elif command == "RECONNECT" and self._reconnect is not None:
                self._reconnect()  # on the Pico this does not return
            elif command == "RECONNECT":
                self.send_error("cannot reconnect")
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
        # Uptime adds up differences of ticks, which wrap around (2^30 ms on the Pico).
        self.uptime_ms += self._clock.ticks_diff(now, self._last_tick)
        self._last_tick = self._last_heartbeat = self._last_retry = now
        self._started = True
        self._last_sweep = now
        self.sweep()

    def step(self, data: bytes = b"") -> bool:
        """One turn of the main loop; return True if it did anything (else the caller idles)."""
        busy = False
        if not self._started:
            self.start()
            busy = True  # and the commands that waited for the boot are answered now
        if data:
            busy = self.feed(data) > 0 or busy
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
