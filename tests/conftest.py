"""gpiozero's own test doubles for the buzzer and the buttons."""

from __future__ import annotations

import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin


class RecordingPWMPin(MockPWMPin):
    """gpiozero's MockPWMPin, also keeping the frequencies it was set to (its `states` keep
    only the duty cycle): (time since the previous change, Hz or None)."""

    def __init__(self, factory, info):
        super().__init__(factory, info)
        self.frequencies: list[tuple[float, float | None]] = []

    def _set_frequency(self, value):
        super()._set_frequency(value)
        self.frequencies.append((time.monotonic(), value))


@pytest.fixture
def pwm_factory():
    factory = MockFactory(pin_class=RecordingPWMPin)
    yield factory
    factory.reset()


@pytest.fixture
def pin_factory():
    factory = MockFactory()
    yield factory
    factory.reset()
