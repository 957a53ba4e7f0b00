"""Settings of the reader hub: the wiring on the Pico and the scan timing.

Only main.py reads this module; it hands the values to the logic modules as arguments, so
the host tests can run the same logic with their own values. Change the pins here if your
wiring differs from docs/hardware.md, then copy the file to the Pico again.
"""

FIRMWARE_VERSION = "1.0.0"  # sent in HELLO; one word, no spaces

# The USB name the hub gives itself at boot (main.py, with micropython-lib's usb-device). The
# Pi's udev rule (systemd/99-setup-hub.rules) names /dev/setup-hub only a Pico whose product
# string is USB_PRODUCT; any other MicroPython Pico says "Board in FS mode". The serial number
# stays the board's unique id.
USB_PRODUCT = "SETUP reader hub"
USB_MANUFACTURER = "SETUP Companion"

# SPI0 of the RP2040. MISO comes back through the 74LVC125 buffers (docs/hardware.md).
SPI_ID = 0
SPI_SCK = 18
SPI_MOSI = 19
SPI_MISO = 16
# The MFRC522 takes up to 10 Mbit/s (datasheet 8.1.2); 4 MHz leaves margin for the
# half-metre ribbon cables running under the board.
SPI_BAUDRATE = 4_000_000

# NRSTPD ("RST" on RC522 modules) of all twelve readers, on one line: low = hard power-down.
RESET_PIN = 20

# Chip-select (NSS, printed "SDA" on RC522 modules) of reader 0..11. Reader i is reported in
# field i of every S line; the Pi maps reader numbers to squares in its configuration.
# GP0/GP1 stay free for a UART console, GP16..GP19 are the SPI bus.
CS_PINS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)

# The on-board LED ("LED" works on the Pico and the Pico W): blinks once a second while
# scanning, stays lit while any reader is in fault.
LED_PIN = "LED"

# The reply timeout of every RF exchange, in the MFRC522 timer (datasheet 8.5):
# f_timer = 13.56 MHz / (2 * TIMER_PRESCALER + 1) = 40 kHz (25 us per tick), and the timer
# runs TIMER_RELOAD + 1 ticks = 1.0 ms. A tag answers after ~90 us (ISO 14443-3 FDT) and the
# timer stops at the answer's 5th bit, so 1 ms is generous; libraries' usual 25 ms is what
# makes an empty square expensive.
TIMER_PRESCALER = 169
TIMER_RELOAD = 39

# Receiver gain, RFCfgReg RxGain (datasheet 9.3.3.6): 4 = 33 dB (the chip's default) ... 7 = 48 dB.
# Raise it if tags under thick tiles are missed.
RX_GAIN = 4

# How long the fields of a group are on before the first WUPA, so that the tags have
# powered up: ISO/IEC 14443-3 gives a tag up to 5 ms, so a reader waits at least 5.1 ms.
# The readers of a group settle together, so this costs 4 x 5.1 ms a sweep, not 12 x.
ANTENNA_SETTLE_US = 5100

# Readers whose fields may be on at the same time: no two of them are neighbours (not even
# diagonally), so their fields do not disturb each other. These four groups of three are
# the default wiring's (reader i under square i of N1 N2 E1 E2 S1 S2 W1 W2 NW NE SW SE, see
# docs/hardware.md): each group is one colour of a 2x2 chequer over the 4x4 grid. If your
# readers sit under other squares, regroup them; one reader per group, e.g.
# ((0,), (1,), ..., (11,)), is the slow, one-field-at-a-time sweep (and the least current).
FIELD_GROUPS = ((0, 3, 10), (1, 6, 11), (2, 5, 8), (4, 7, 9))

# At most this many tags are read per reader and sweep (a stack answers with several).
MAX_TAGS = 8

# A sweep starts at most every SWEEP_PERIOD_MS (the protocol promises at least every 100 ms).
SWEEP_PERIOD_MS = 50
HEARTBEAT_MS = 1000
# A reader in fault is tried again this often, so a loose connector that comes back is used
# (a retry of a reader that is not there costs one register read).
FAULT_RETRY_MS = 1000

# Send a TEST line right after HELLO at boot (the Pi learns every reader's state at once).
TEST_AT_BOOT = True

# Hardware watchdog in ms (RP2040 maximum 8388), 0 = off. With it on, a hung hub restarts by
# itself; but an interrupted program (mpremote, the REPL) also resets after this time, so
# turn it on only once the build is finished (docs/firmware.md).
WATCHDOG_MS = 0
