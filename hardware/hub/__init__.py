"""The reader hub: its line protocol, the Pi-side serial link, and its typed snapshots.

- `hardware.hub.snapshot`: `Snapshot` and `ReaderReading`, what one sweep saw.
- `hardware.hub.protocol`: protocol v2 and v1 (docs/hub-protocol.md): CRC, framing, `parse_line`.
- `hardware.hub.link`: `HubLink`, the serial port in, snapshots and `LinkHealth` out.
- `hardware.hub.sim`: `SimTable`, `FaultModel` and `VirtualHub`, the simulated table on a pty.
"""

from hardware.hub.link import DEFAULT_PORT, HubLink, LinkHealth
from hardware.hub.snapshot import READER_COUNT, ReaderReading, Snapshot

__all__ = ["DEFAULT_PORT", "READER_COUNT", "HubLink", "LinkHealth", "ReaderReading", "Snapshot"]
