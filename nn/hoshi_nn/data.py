"""The position file `pbrain-hoshi features` writes, mapped by numpy, and the training
targets made from it.

The layout is documented in docs/network.md and in crates/tools/src/features.rs, its one
writer; this reader checks the header and maps the records as one structured array, so
nothing is copied until a field is used. Pattern codes are the engine's: nothing here
classifies lines of stones.
"""

from __future__ import annotations

import itertools
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

MAGIC = b"HOSHIFTS"
VERSION = 1
HEADER_BYTES = 64
PATTERNS = 11
PCODES = 1001
# Entries of the tables' threat table: the threat mask has 11 bits.
THREAT_MASKS = 2048
# Bits of a record's cell byte.
CELL_STONE = 0b11
CELL_LEGAL = 1 << 2
CELL_CANDIDATE = 1 << 3
FLAG_HELD_OUT = 1
# The rule codes of `INFO rule` (the engine's `Rule::code`).
RULES = {0: "freestyle", 1: "standard", 4: "renju", 8: "caro", 9: "caro-exact"}


def logistic_scale(rule: int) -> float:
    """Texel's K of the evaluation under `rule` (its code): the engine's
    `hoshi::eval::logistic_scale`, which `train` fits the tables with."""
    return 715.2 if rule == 4 else 517.3


class FormatError(ValueError):
    """A file that is not a position file this reader understands."""


def record_dtype(cells: int) -> np.dtype:
    """One record of a board of `cells` cells, as the exporter writes it."""
    return np.dtype(
        [
            ("game", "<u4"),
            ("ply", "<u2"),
            ("move", "<u2"),
            ("rule", "u1"),
            ("side", "u1"),
            ("result", "u1"),
            ("score_kind", "u1"),
            ("score", "<i4"),
            ("eval", "<i4"),
            ("flags", "<u2"),
            ("mask", "<u2"),
            ("prior", "<i4", (cells,)),
            ("pcode", "<u2", (2, cells)),
            ("pats", "u1", (2, 4, cells)),
            ("cell", "u1", (cells,)),
        ]
    )


@dataclass
class Positions:
    """A position file: its header's facts and its records (memory-mapped)."""

    side: int
    games: int
    held_out_fraction: float
    seed: int
    vocabulary: int
    baseline_id: int
    records: np.ndarray

    @property
    def cells(self) -> int:
        return self.side * self.side

    def __len__(self) -> int:
        return len(self.records)

    @property
    def held_out(self) -> np.ndarray:
        """Per position: its game is held out (the split `pbrain-hoshi train` uses)."""
        return (self.records["flags"] & FLAG_HELD_OUT) != 0


def open_positions(path: str | Path) -> Positions:
    """Maps a position file, or raises FormatError saying why it cannot."""
    path = Path(path)
    with path.open("rb") as f:
        head = f.read(HEADER_BYTES)
    if len(head) < HEADER_BYTES or head[:8] != MAGIC:
        raise FormatError(f"{path}: not a Hoshi position file (bad magic)")
    (version, header_bytes, record_bytes, side, patterns, vocabulary, baseline,
     positions, games, held_ppm, seed, crc) = struct.unpack_from(
        "<IIIBBxxIIQIIQxxxxI", head, 8)
    if version != VERSION:
        raise FormatError(f"{path}: version {version}, this reader reads {VERSION}")
    if zlib.crc32(head[:60]) != crc:
        raise FormatError(f"{path}: damaged header (checksum mismatch)")
    dtype = record_dtype(side * side)
    if header_bytes != HEADER_BYTES or record_bytes != dtype.itemsize or patterns != PATTERNS:
        raise FormatError(f"{path}: another layout (records of {record_bytes} bytes)")
    expected = HEADER_BYTES + positions * record_bytes
    if path.stat().st_size != expected:
        raise FormatError(f"{path}: {path.stat().st_size} bytes, the header says {expected}")
    records = np.memmap(path, dtype=dtype, mode="r", offset=HEADER_BYTES, shape=(positions,))
    return Positions(side, games, held_ppm / 1e6, seed, vocabulary, baseline, records)


def pcode_patterns(vocabulary: int) -> np.ndarray:
    """The four line patterns of every pcode, (PCODES, 4), weakest first.

    The engine numbers the multisets of four patterns in lexicographic order of their
    sorted patterns (crates/engine/src/pattern/table.rs); the file's vocabulary checksum,
    the CRC-32 of exactly these bytes, proves this numbering is the engine's.
    """
    pats = np.array(list(itertools.combinations_with_replacement(range(PATTERNS), 4)), np.uint8)
    if len(pats) != PCODES or zlib.crc32(pats.tobytes()) != vocabulary:
        raise FormatError("the file's pcodes are not numbered as this trainer expects")
    return pats


def pcode_counts(vocabulary: int) -> np.ndarray:
    """(PCODES, PATTERNS): how many of each pcode's four lines have each pattern. The sum of
    a per-pattern table over a cell's four lines is its pcode's row of this times the table."""
    counts = np.zeros((PCODES, PATTERNS), np.float32)
    for code, pats in enumerate(pcode_patterns(vocabulary)):
        for p in pats:
            counts[code, p] += 1
    return counts


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def value_targets(records: np.ndarray, k: float, lam: float) -> np.ndarray:
    """The value target of each position, as `pbrain-hoshi train` makes it:
    `lam * result + (1 - lam) * sigmoid(score / k)`, the result alone for a mate score."""
    result = records["result"].astype(np.float64) / 2.0
    mix = lam * result + (1.0 - lam) * sigmoid(records["score"].astype(np.float64) / k)
    return np.where(records["score_kind"] == 0, mix, result).astype(np.float32)


def bce(p: np.ndarray, y: np.ndarray) -> float:
    """Mean cross-entropy of predictions `p` to soft targets `y` (train's loss)."""
    p = np.clip(p, 1e-12, 1.0 - 1e-12)
    return float(np.mean(-(y * np.log(p) + (1.0 - y) * np.log(1.0 - p))))


@dataclass
class Inputs:
    """The network's inputs, from the side to move's view, as compact arrays.

    pcode: (n, 2, cells) int16, [own, opponent][cell] (the cell's four line patterns are
    its pcode's, see pcode_patterns); stones: (n, cells) uint8, 0 empty, 1 own,
    2 opponent; legal: (n, cells) bool; move: (n,) int64; mask: (n,) int64, the threat
    mask.
    """

    pcode: np.ndarray
    stones: np.ndarray
    legal: np.ndarray
    move: np.ndarray
    mask: np.ndarray


def inputs(records: np.ndarray) -> Inputs:
    """The inputs of `records`, turned to the mover's view (own colour first)."""
    white = records["side"] == 1
    pcode = np.array(records["pcode"]).astype(np.int16)
    pcode[white] = pcode[white][:, ::-1]
    stone = records["cell"] & CELL_STONE
    # Stone codes are 1 black, 2 white; the mover's become 1, the opponent's 2.
    mover = (records["side"] + 1).astype(np.uint8)[:, None]
    stones = np.where(stone == 0, 0, np.where(stone == mover, 1, 2)).astype(np.uint8)
    legal = (records["cell"] & CELL_LEGAL) != 0
    return Inputs(pcode, stones, legal, records["move"].astype(np.int64),
                  records["mask"].astype(np.int64))
