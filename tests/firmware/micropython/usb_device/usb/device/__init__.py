"""micropython-lib's `usb.device` as main.py uses it (get().init(...)), for the MicroPython
unix port, which has no USB: it records each init call and what had happened on the board
by then. harness.py puts this folder on sys.path only when the scenario asks for the
package; `fail` makes init raise as it does on a MicroPython without machine.USBDevice."""

calls = []
fail = None


class _Device:
    def init(self, *interfaces, **settings):
        import machine  # the harness's machine_shim

        if fail is not None:
            raise AttributeError(fail)
        calls.append(
            {"interfaces": len(interfaces), "settings": settings, "pins_made": len(machine.made)}
        )


_device = _Device()


def get():
    return _device
