"""The daemon: the loop that joins the table, the devices and the web companion's socket.

`loop` (the `Daemon`: one queue of typed `events`, dispatched through its `modes`), the
`devices` it drives, the socket it `publish`es the table on and the web companion's
`requests` it answers."""

from companion.daemon.devices import Devices, open_devices
from companion.daemon.loop import Daemon, describe, load_registry

__all__ = ["Daemon", "Devices", "describe", "load_registry", "open_devices"]
