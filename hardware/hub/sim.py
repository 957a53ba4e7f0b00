"""The simulated table: ground truth, the readers' faults, and a virtual hub on a real pty.

Every test, demo and benchmark uses it: `SimTable` says which tagged item lies where,
`FaultModel` what the readers get wrong (seeded), and `VirtualHub` speaks protocol v1 on a
pseudo-terminal, so the link under test is the very code that runs on the Pi::

    table = SimTable()
    with VirtualHub(table, FaultModel.realistic(), seed=7) as hub, HubLink(hub.port) as link:
        table.put(0, tag_uid(1))
        hub.sweep()
        snapshot = link.read(timeout=1.0)
"""

from hardware.hub.sim_faults import FaultModel, FaultyReaders, line_neighbours
from hardware.hub.sim_hub import READER_VERSION, SweepRecord, VirtualHub
from hardware.hub.sim_table import SimTable, tag_uid

__all__ = [
    "READER_VERSION",
    "FaultModel",
    "FaultyReaders",
    "SimTable",
    "SweepRecord",
    "VirtualHub",
    "line_neighbours",
    "tag_uid",
]
