"""The tile registry: UID -> tile, written atomically."""

import json
import os

import pytest

from companion.board.registry import Registry, RegistryError
from tests.helpers import tile


def test_enrol_save_and_load(tmp_path):
    path = tmp_path / "state" / "registry.json"
    registry = Registry.load(path)  # no file yet: nothing enrolled
    assert len(registry) == 0 and registry.tile("04A1B2C3D4E5F6") is None
    registry.enrol("04a1:b2:c3:d4:e5:f6", tile("star-3"))  # spelled as a phone app shows it
    registry.enrol("0A0B0C0D", tile("heart-10"))
    registry.save()
    assert json.loads(path.read_text()) == {"04A1B2C3D4E5F6": "star-3", "0A0B0C0D": "heart-10"}
    again = Registry.load(path)
    assert again.tile("04A1B2C3D4E5F6") == tile("star-3")
    assert again.uid(tile("heart-10")) == "0A0B0C0D"
    assert len(again.missing()) == 48
    assert os.listdir(path.parent) == ["registry.json"]  # no temporary file left behind


def test_one_tag_per_tile(tmp_path):
    registry = Registry(tmp_path / "r.json")
    registry.enrol("04A1B2C3D4E5F6", tile("star-3"))
    assert registry.enrol("04FFFFFFFFFFFF", tile("star-3")) == "04A1B2C3D4E5F6"  # new sticker
    assert registry.tile("04A1B2C3D4E5F6") is None
    registry.enrol("04FFFFFFFFFFFF", tile("club-1"))  # the sticker moved to another tile
    assert registry.uid(tile("star-3")) is None and registry.tile("04FFFFFFFFFFFF") == tile(
        "club-1"
    )
    with pytest.raises(RegistryError, match="not a tag UID"):
        registry.enrol("04A1B2", tile("star-3"))


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"04A1B2C3D4E5F6": "star-3",\n "04A1B2C3D4E5F7" "club-1"}', "line 2"),
        ('{"04A1B2C3D4E5F6": "star-11"}', "04A1B2C3D4E5F6.*not a tile"),
        ('{"XYZ": "star-1"}', "not a tag UID"),
        ('{"04A1B2C3D4E5F6": "star-1", "04A1B2C3D4E5F7": "star-1"}', "two tags"),
        ('["star-1"]', "must be an object"),
    ],
)
def test_a_broken_registry_file_says_why(tmp_path, text, message):
    path = tmp_path / "registry.json"
    path.write_text(text)
    with pytest.raises(RegistryError, match=message):
        Registry.load(path)


def test_a_crash_while_saving_leaves_the_old_registry(tmp_path, monkeypatch):
    path = tmp_path / "registry.json"
    registry = Registry(path)
    registry.enrol("04A1B2C3D4E5F6", tile("star-3"))
    registry.save()
    before = path.read_bytes()
    registry.enrol("04A1B2C3D4E5F7", tile("star-4"))

    def power_cut(src, dst):
        raise OSError("power cut")

    monkeypatch.setattr(os, "replace", power_cut)
    with pytest.raises(OSError):
        registry.save()
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["registry.json"]
