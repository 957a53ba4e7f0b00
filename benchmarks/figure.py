"""One measured figure, with its target if it has one."""

from __future__ import annotations

import statistics
from dataclasses import dataclass


@dataclass(frozen=True)
class Figure:
    name: str
    value: float
    unit: str
    target: float | None = None  # the value must stay below this (or above, see `higher`)
    higher: bool = False  # True when bigger is better

    def met(self) -> bool:
        if self.target is None:
            return True
        return self.value >= self.target if self.higher else self.value <= self.target

    def target_text(self) -> str:
        return f"{'>=' if self.higher else '<='} {self.target:g}"

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "value": self.value,
            "unit": self.unit,
            "target": self.target,
            "higher_is_better": self.higher,
            "met": self.met(),
        }


def percentile(samples: list[float], p: float) -> float:
    """The p-th percentile (0..100) of the samples, by the inclusive method."""
    if len(samples) == 1:
        return samples[0]
    return statistics.quantiles(samples, n=100, method="inclusive")[max(0, min(98, round(p) - 1))]
