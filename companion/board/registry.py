"""The tile registry: which NFC tag (by UID) is glued under which tile.

Stored as one small JSON object, `{"04A1B2C3D4E5F6": "star-3", ...}`, written atomically so
a power cut during enrolment leaves the old registry or the new one. Every tile has at most
one tag: enrolling a tile again (a replaced sticker) forgets its old UID.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path

from companion.atomic import read_file, write_atomic
from engine import ALL_TILES, Tile, TileError

#: UIDs as the hub writes them: 4, 7 or 10 bytes in upper-case hex.
_UID = re.compile(r"(?:[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20})")


class RegistryError(ValueError):
    """A registry file or an enrolment that cannot be right; the message says why."""


def normalise_uid(uid: str) -> str:
    """The hub's spelling of a UID (upper-case hex, no separators), or RegistryError."""
    if not isinstance(uid, str):
        raise RegistryError(f"a tag UID is hex text such as '04A1B2C3D4E5F6', not {uid!r}")
    text = uid.strip().upper().replace(":", "").replace(" ", "")
    if not _UID.fullmatch(text):
        raise RegistryError(f"{uid!r} is not a tag UID (8, 14 or 20 hex digits)")
    return text


class Registry:
    """UID -> tile, with the file it lives in."""

    def __init__(self, path: str | Path | None = None, tiles: Mapping[str, Tile] | None = None):
        self.path = None if path is None else Path(path)
        self._tiles: dict[str, Tile] = {}
        self._uids: dict[Tile, str] = {}
        for uid, tile in (tiles or {}).items():
            self.enrol(uid, tile)

    @classmethod
    def load(cls, path: str | Path) -> Registry:
        """Reads the registry; a missing file is an empty registry (nothing enrolled yet)."""
        path = Path(path)
        return read_file(
            path,
            lambda data: cls._parse(path, data),
            lambda reason: RegistryError(f"the tile registry {path}: {reason}"),
            RegistryError,
            missing=lambda: cls(path),
        )

    @classmethod
    def _parse(cls, path: Path, data: bytes) -> Registry:
        try:
            parsed = json.loads(data.decode("utf-8"))
        except json.JSONDecodeError as exc:
            raise RegistryError(
                f"the tile registry {path} is not valid JSON (line {exc.lineno}: {exc.msg})"
            ) from exc
        if not isinstance(parsed, dict):
            raise RegistryError(f"the tile registry {path} must be an object of UID -> tile")
        registry = cls(path)
        for uid, name in parsed.items():
            try:
                tile = Tile.parse(name)
            except TileError as exc:
                raise RegistryError(f"the tile registry {path}, tag {uid}: {exc}") from exc
            if registry.uid(tile) is not None:
                raise RegistryError(
                    f"the tile registry {path} gives {tile} two tags: "
                    f"{registry.uid(tile)} and {uid}"
                )
            try:
                registry.enrol(uid, tile)
            except RegistryError as exc:
                raise RegistryError(f"the tile registry {path}: {exc}") from exc
        return registry

    def save(self, path: str | Path | None = None) -> None:
        """Writes the registry atomically (to `path`, which then becomes its file)."""
        if path is not None:
            self.path = Path(path)
        if self.path is None:
            raise RegistryError("this registry has no file to be saved to")
        ordered = dict(sorted(self._tiles.items(), key=lambda item: item[1]))
        text = json.dumps({uid: str(tile) for uid, tile in ordered.items()}, indent=1)
        write_atomic(self.path, text + "\n")

    # -- looking up -----------------------------------------------------------------------
    def tile(self, uid: str) -> Tile | None:
        """The tile with this tag, or None for a tag nobody enrolled."""
        tile = self._tiles.get(uid)
        if tile is None and isinstance(uid, str):
            try:
                tile = self._tiles.get(normalise_uid(uid))
            except RegistryError:
                return None
        return tile

    def uid(self, tile: Tile) -> str | None:
        return self._uids.get(tile)

    def missing(self) -> tuple[Tile, ...]:
        """Tiles that have no tag yet, in the canonical order."""
        return tuple(tile for tile in ALL_TILES if tile not in self._uids)

    def __len__(self) -> int:
        return len(self._tiles)

    def __contains__(self, uid: object) -> bool:
        return isinstance(uid, str) and self.tile(uid) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self._tiles)

    def items(self) -> list[tuple[str, Tile]]:
        return list(self._tiles.items())

    def __repr__(self) -> str:
        return f"<Registry {len(self)} tags {self.path}>"

    # -- changing -------------------------------------------------------------------------
    def enrol(self, uid: str, tile: Tile) -> str | None:
        """Glues `uid` to `tile`; returns the UID the tile had before (now forgotten)."""
        if not isinstance(tile, Tile):
            raise RegistryError(f"only a tile can be enrolled, not {tile!r}")
        uid = normalise_uid(uid)
        previous = self._uids.get(tile)
        if previous == uid:
            return None
        if previous is not None:
            del self._tiles[previous]
        other = self._tiles.get(uid)
        if other is not None:  # the tag was on another tile: that tile has no tag now
            del self._uids[other]
        self._tiles[uid] = tile
        self._uids[tile] = uid
        return previous

    def forget(self, uid: str) -> Tile | None:
        """Removes a tag; returns the tile it was on."""
        tile = self._tiles.pop(normalise_uid(uid), None)
        if tile is not None:
            del self._uids[tile]
        return tile
