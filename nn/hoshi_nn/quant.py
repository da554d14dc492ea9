"""The exported network: quantisation of a trained MixNet, its file, and the reference of
its integer inference.

Weights become integers at per-tensor power-of-two scales, chosen at export as fine as the
type allows: the feature tables int16, the dense layers int8 with int32 biases. Activations
are bytes 0..127 at scale 128 (the float model clips to [0, 127/128] to match). A cell's
feature sum is int16 (the tables' scale is chosen so that no cell's sum can leave it: the
engine adds them in 16 bits); all other sums are int32; every rescaling is an arithmetic
right shift (a floor), so the engine's inference can give exactly the outputs `forward`
gives here. docs/network.md has the file's layout and the arithmetic step by step; this
module is its executable statement.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from .data import PATTERNS, PCODES, RULES, THREAT_MASKS
from .model import (MAX_WINDOW, POOL_SHIFT, MixNet, Shape, line_codes, mirror_rows,
                    shape_codes, swap_colours)

MAGIC = b"HOSHINET"
VERSION = 1
FLAG_PCODE = 1
FLAG_RESIDUAL = 2
FLAG_CONV = 4
FLAG_WINDOW = 8
# No per-cell layer: a cell's activation is its clipped feature sum (Shape.cell false).
FLAG_NO_CELL = 16
# The colours' mirror (Shape.mirror): each feature table's second half of columns is its
# first half read for the other colour; `mirror_error` is what a file must satisfy.
FLAG_MIRROR = 64
FLAGS = FLAG_PCODE | FLAG_RESIDUAL | FLAG_CONV | FLAG_WINDOW | FLAG_NO_CELL | FLAG_MIRROR
# The byte after the pattern count is the line windows' reach (0 without FLAG_WINDOW; it
# was padding, always 0, before windows had an integer format).
# The byte after the shifts is the rule the positions were played under (its `INFO rule`
# code; padding, 0 = freestyle, before networks recorded it: those were all freestyle), and
# the next one their board's side (padding, 0, before networks recorded it: those were all
# 15x15, and LEGACY_SIDE reads it so).
HEADER = struct.Struct("<8sIHHBBBBIIfBBBBBBBBI")
LEGACY_SIDE = 15
# The board sides the engine plays (`hoshi::board::{MIN_SIDE, MAX_SIDE}`).
SIDES = range(5, 33)
# Activations: scale 2^ACT_SHIFT, values 0..ACT_MAX.
ACT_SHIFT = 7
ACT_MAX = 127
# The shifts the exporter chooses from: the feature tables' (their sum is read at scale 2^7
# after a right shift, so their own scale is no coarser) and a dense layer's. A file with
# another is refused (here and by the engine's reader).
EMBED_SHIFTS = (ACT_SHIFT, 15)
LAYER_SHIFTS = (0, 14)
INT32 = (-(1 << 31), (1 << 31) - 1)
INT16 = (-(1 << 15), (1 << 15) - 1)


class ExportError(ValueError):
    """A network that cannot be carried by the integer format (a weight too large)."""


@dataclass
class QuantNet:
    """An exported network: integer tensors and the shifts that give their scales."""

    shape: Shape
    k: float
    vocabulary: int
    # A residual network's value is a correction to the evaluation of these tables (the
    # CRC-32 of their weights file): the win logit is their evaluation / k plus its own.
    residual: bool
    baseline: int
    # The rule of the positions it was trained on (`INFO rule` code).
    rule: int
    # Their board's side: the engine plays the network on boards of this size only (its
    # value sums the cells, so it knows the number of cells it learnt on).
    side: int
    # Feature tables (int16) share one scale 2^embed_shift, so they can be summed.
    embed_shift: int
    pattern: np.ndarray  # (2 * PATTERNS, C) int16
    pcode: np.ndarray | None  # (2 * PCODES, C) int16
    # A line window network's mapped shapes, one row per code of shape_codes(window).
    shapes: np.ndarray | None  # (len(shape_codes(window)), C) int16
    stone: np.ndarray  # (3, C) int16
    # The value's linear part, at the value's scale (value_scale).
    psqt: np.ndarray  # (2 * PCODES,) int32
    psqt_stone: np.ndarray  # (3,) int32
    threat: np.ndarray  # (THREAT_MASKS,) int32
    cell_shift: int  # 0 without the cell layer
    cell_w: np.ndarray | None  # (C, C) int8, [out, in]
    cell_b: np.ndarray | None  # (C,) int32
    conv_shift: int  # 0 without the convolution
    conv_w: np.ndarray | None  # (C, 3, 3) int8, [channel][dy][dx]
    conv_b: np.ndarray | None  # (C,) int32
    value1_shift: int
    value1_w: np.ndarray  # (H, C) int8
    value1_b: np.ndarray  # (H,) int32
    value2_shift: int
    value2_w: np.ndarray  # (H,) int8
    value2_b: np.ndarray  # (1,) int32
    policy_shift: int
    policy_w: np.ndarray  # (C,) int8
    policy_b: np.ndarray  # (1,) int32

    @property
    def value_scale(self) -> int:
        """The integer value is the win logit times this."""
        return 1 << (self.value2_shift + ACT_SHIFT)

    @property
    def policy_scale(self) -> int:
        """An integer policy output is the move's logit times this."""
        return 1 << (self.policy_shift + ACT_SHIFT)


def _shift(w: np.ndarray, limit: int, lowest: int, highest: int, name: str) -> int:
    """The largest shift s in lowest..highest with max|w| * 2^s <= limit."""
    m = float(np.max(np.abs(w))) if w.size else 0.0
    s = highest if m == 0.0 else min(highest, int(np.floor(np.log2(limit / m))))
    if s < lowest:
        raise ExportError(f"{name}: weights up to {m:.3g} do not fit at scale 2^{lowest}")
    return s


def feature_bound(pattern: np.ndarray, pcode: np.ndarray | None, stone: np.ndarray,
                  shapes: np.ndarray | None) -> int:
    """The largest magnitude a cell's feature sum can take in any channel: per channel, the
    largest magnitude of each table times the rows of it a cell adds (four pattern rows per
    colour, a pcode row per colour, a stone row, four shape rows). The engine's loader
    computes the same and refuses a file past int16."""
    def col_max(t: np.ndarray | None) -> np.ndarray:
        if t is None or t.size == 0:
            return np.zeros(pattern.shape[1], dtype=np.int64)
        return np.abs(t.astype(np.int64)).max(axis=0)
    b = 4 * col_max(pattern[:PATTERNS]) + 4 * col_max(pattern[PATTERNS:]) + col_max(stone)
    if pcode is not None:
        b += col_max(pcode[:PCODES]) + col_max(pcode[PCODES:])
    b += 4 * col_max(shapes)
    return int(b.max(initial=0))


def mirror_error(pattern: np.ndarray, pcode: np.ndarray | None, stone: np.ndarray,
                 shapes: np.ndarray | None, window: int) -> str | None:
    """Why these tables are not a mirrored network's, or None: swapping the halves of a
    row's columns must give the row of the other colour (own and opponent's pattern and
    pcode rows, own and opponent's stone, the empty cell itself, a window shape and the
    shape with its colours swapped). The engine's loader checks the same."""
    def swap(t: np.ndarray) -> np.ndarray:
        half = t.shape[1] // 2
        return np.concatenate([t[:, half:], t[:, :half]], axis=1)

    if pattern.shape[1] % 2:
        return "an odd number of channels"
    checks = [("pattern", pattern, mirror_rows(len(pattern))), ("stone", stone, mirror_rows(3))]
    if pcode is not None:
        checks.append(("pcode", pcode, mirror_rows(len(pcode))))
    if shapes is not None:
        codes = shape_codes(window)
        other = np.searchsorted(codes, swap_colours(torch.from_numpy(codes.copy()), window)
                                .numpy())
        checks.append(("shape", shapes, other))
    for name, t, other in checks:
        if not np.array_equal(swap(t), t[other]):
            return f"the {name} table"
    return None


def _ints(w: np.ndarray, shift: int, dtype: type, name: str) -> np.ndarray:
    q = np.round(w.astype(np.float64) * (1 << shift))
    info = np.iinfo(dtype)
    if q.min(initial=0) < info.min or q.max(initial=0) > info.max:
        raise ExportError(f"{name}: a value beyond {dtype.__name__} at scale 2^{shift}")
    return q.astype(dtype)


def quantise(net: MixNet, k: float, vocabulary: int, residual: bool, baseline: int,
             rule: int = 0, side: int = LEGACY_SIDE) -> QuantNet:
    """The integer network closest to `net` in this format."""
    window = net.shape.window
    if window > MAX_WINDOW:
        raise ExportError(f"line windows of reach {window}: the integer format takes up to "
                          f"{MAX_WINDOW}")
    p = {n: t.detach().cpu().numpy().astype(np.float64) for n, t in net.state_dict().items()}
    tables = {"pattern": net.pattern, "stone": net.stone} | (
        {"pcode": net.pcode} if net.pcode is not None else {})
    with torch.no_grad():
        for n, table in tables.items():
            p[f"{n}.weight"] = net.full_table(table).cpu().numpy().astype(np.float64)
    if window:
        # Every shape the engine can meet, mapped once: the table that replaces the
        # mapping network.
        with torch.no_grad():
            p["shapes"] = net.map_shapes(torch.from_numpy(shape_codes(window).copy())
                                         ).numpy().astype(np.float64)
    names = {"pattern.weight": "pattern table", "stone.weight": "stone table"}
    names |= {"pcode.weight": "pcode table"} if net.pcode is not None else {}
    names |= {"shapes": "shape table"} if window else {}
    # The tables' sum is read at scale 2^7 after a right shift, so their own scale is finer;
    # each table fits int16, and so must a cell's sum of them: the finest scale that does.
    es = min(_shift(p[n], INT16[1], *EMBED_SHIFTS, "feature tables") for n in names)
    while True:
        t = {n: _ints(p[n], es, np.int16, what) for n, what in names.items()}
        bound = feature_bound(t["pattern.weight"], t.get("pcode.weight"), t["stone.weight"],
                              t.get("shapes"))
        if bound <= INT16[1]:
            break
        if es == EMBED_SHIFTS[0]:
            raise ExportError(f"feature tables: a cell's sum could reach {bound} at scale "
                              f"2^{es}, beyond int16")
        es -= 1
    if net.shape.mirror and (why := mirror_error(t["pattern.weight"], t.get("pcode.weight"),
                                                  t["stone.weight"], t.get("shapes"), window)):
        raise ExportError(f"the mirrored network's tables are not mirrored: {why}")
    cs = _shift(p["cell.weight"], 127, *LAYER_SHIFTS, "cell layer") if net.cell is not None else 0
    v1 = _shift(p["value1.weight"], 127, *LAYER_SHIFTS, "value layer 1")
    v2 = _shift(p["value2.weight"], 127, *LAYER_SHIFTS, "value layer 2")
    ps = _shift(p["policy.weight"], 127, *LAYER_SHIFTS, "policy layer")
    ds = _shift(p["conv.weight"], 127, *LAYER_SHIFTS, "convolution") if net.conv is not None else 0
    return QuantNet(
        shape=net.shape,
        k=k,
        vocabulary=vocabulary,
        residual=residual,
        baseline=baseline,
        rule=rule,
        side=side,
        embed_shift=es,
        pattern=t["pattern.weight"],
        pcode=t.get("pcode.weight"),
        shapes=t.get("shapes"),
        stone=t["stone.weight"],
        psqt=_ints(p["psqt.weight"].reshape(-1), v2 + ACT_SHIFT, np.int32, "linear value"),
        psqt_stone=_ints(p["psqt_stone.weight"].reshape(-1), v2 + ACT_SHIFT, np.int32,
                         "linear stone value"),
        threat=_ints(p["threat.weight"].reshape(-1), v2 + ACT_SHIFT, np.int32, "threat value"),
        cell_shift=cs,
        cell_w=_ints(p["cell.weight"], cs, np.int8, "cell weights") if net.cell is not None else None,
        cell_b=(_ints(p["cell.bias"], cs + ACT_SHIFT, np.int32, "cell bias")
                if net.cell is not None else None),
        conv_shift=ds,
        conv_w=(_ints(p["conv.weight"].reshape(-1, 3, 3), ds, np.int8, "convolution weights")
                if net.conv is not None else None),
        conv_b=(_ints(p["conv.bias"], ds + ACT_SHIFT, np.int32, "convolution bias")
                if net.conv is not None else None),
        value1_shift=v1,
        value1_w=_ints(p["value1.weight"], v1, np.int8, "value 1 weights"),
        value1_b=_ints(p["value1.bias"], v1 + ACT_SHIFT + POOL_SHIFT, np.int32, "value 1 bias"),
        value2_shift=v2,
        value2_w=_ints(p["value2.weight"].reshape(-1), v2, np.int8, "value 2 weights"),
        value2_b=_ints(p["value2.bias"], v2 + ACT_SHIFT, np.int32, "value 2 bias"),
        policy_shift=ps,
        policy_w=_ints(p["policy.weight"].reshape(-1), ps, np.int8, "policy weights"),
        policy_b=_ints(p["policy.bias"], ps + ACT_SHIFT, np.int32, "policy bias"),
    )


def _tensors(q: QuantNet) -> list[tuple[np.ndarray, str]]:
    """The tensors in file order, each with its little-endian type."""
    out = [(q.pattern, "<i2")]
    if q.pcode is not None:
        out.append((q.pcode, "<i2"))
    if q.shapes is not None:
        out.append((q.shapes, "<i2"))
    out += [(q.stone, "<i2"), (q.psqt, "<i4"), (q.psqt_stone, "<i4"), (q.threat, "<i4")]
    if q.cell_w is not None:
        out += [(q.cell_w, "i1"), (q.cell_b, "<i4")]
    if q.conv_w is not None:
        out += [(q.conv_w, "i1"), (q.conv_b, "<i4")]
    out += [(q.value1_w, "i1"),
            (q.value1_b, "<i4"), (q.value2_w, "i1"), (q.value2_b, "<i4"), (q.policy_w, "i1"),
            (q.policy_b, "<i4")]
    return out


def to_bytes(q: QuantNet) -> bytes:
    flags = ((FLAG_PCODE if q.pcode is not None else 0) | (FLAG_RESIDUAL if q.residual else 0)
             | (FLAG_CONV if q.conv_w is not None else 0)
             | (FLAG_WINDOW if q.shapes is not None else 0)
             | (FLAG_NO_CELL if q.cell_w is None else 0)
             | (FLAG_MIRROR if q.shape.mirror else 0))
    head = HEADER.pack(MAGIC, VERSION, q.shape.channels, q.shape.hidden, flags, POOL_SHIFT,
                       PATTERNS, q.shape.window, PCODES, q.vocabulary, q.k, q.embed_shift,
                       q.cell_shift, q.value1_shift, q.value2_shift, q.policy_shift, q.conv_shift,
                       q.rule, q.side, q.baseline)
    body = head + b"".join(t.astype(dt).tobytes() for t, dt in _tensors(q))
    return body + struct.pack("<I", zlib.crc32(body))


def save(q: QuantNet, path: str | Path) -> None:
    Path(path).write_bytes(to_bytes(q))


def from_bytes(b: bytes) -> QuantNet:
    """The network of a file's bytes, or ExportError saying why they are not one."""
    if len(b) < HEADER.size + 4 or b[:8] != MAGIC:
        raise ExportError("not a Hoshi network file (bad magic)")
    if zlib.crc32(b[:-4]) != struct.unpack_from("<I", b, len(b) - 4)[0]:
        raise ExportError("the network file is damaged (checksum mismatch)")
    (_, version, c, h, flags, pool, patterns, window, pcodes, vocabulary, k,
     es, cs, v1, v2, ps, ds, rule, side, baseline) = HEADER.unpack_from(b, 0)
    if version != VERSION or pool != POOL_SHIFT or patterns != PATTERNS or pcodes != PCODES:
        raise ExportError(f"network format version {version} or layout is not this reader's")
    if rule not in RULES:
        raise ExportError(f"rule code {rule} is not a rule's")
    side = side or LEGACY_SIDE
    if side not in SIDES:
        raise ExportError(f"board side {side} is not one the engine plays")
    if flags & ~FLAGS:
        raise ExportError(f"unknown flags {flags:#04x}")
    if (flags & FLAG_WINDOW != 0) != (window != 0) or window > MAX_WINDOW:
        raise ExportError(f"line window reach {window} with flags {flags:#04x}: not what the "
                          f"exporter writes (reach 1 to {MAX_WINDOW} with the window flag, "
                          "else 0)")
    conv = bool(flags & FLAG_CONV)
    cell = not flags & FLAG_NO_CELL
    mirror = bool(flags & FLAG_MIRROR)
    if mirror and (conv or cell or c % 2):
        raise ExportError(f"flags {flags:#04x} with {c} channels: a mirrored network has no "
                          "cell layer, no convolution and an even number of channels")
    layers = {"v1": v1, "v2": v2, "p": ps} | ({"c": cs} if cell else {}) | ({"d": ds} if conv else {})
    if not EMBED_SHIFTS[0] <= es <= EMBED_SHIFTS[1]:
        raise ExportError(f"shift e is {es}, outside what the exporter writes")
    for name, s in layers.items():
        if not LAYER_SHIFTS[0] <= s <= LAYER_SHIFTS[1]:
            raise ExportError(f"shift {name} is {s}, outside what the exporter writes")
    at = HEADER.size

    def take(shape: tuple[int, ...], dt: str) -> np.ndarray:
        nonlocal at
        n = int(np.prod(shape)) * np.dtype(dt).itemsize
        if at + n > len(b) - 4:
            raise ExportError("the network file is cut short")
        t = np.frombuffer(b, dtype=dt, count=int(np.prod(shape)), offset=at).reshape(shape)
        at += n
        return t.astype(np.dtype(dt).newbyteorder("="))

    pattern = take((2 * PATTERNS, c), "<i2")
    pcode = take((2 * PCODES, c), "<i2") if flags & FLAG_PCODE else None
    shapes = take((len(shape_codes(window)), c), "<i2") if window else None
    q = QuantNet(Shape(c, h, pcode is not None, conv, window, cell=cell, mirror=mirror), k,
                 vocabulary,
                 bool(flags & FLAG_RESIDUAL), baseline, rule, side, es, pattern, pcode, shapes,
                 take((3, c), "<i2"), take((2 * PCODES,), "<i4"), take((3,), "<i4"),
                 take((THREAT_MASKS,), "<i4"), cs if cell else 0,
                 take((c, c), "i1") if cell else None, take((c,), "<i4") if cell else None,
                 ds if conv else 0, take((c, 3, 3), "i1") if conv else None,
                 take((c,), "<i4") if conv else None,
                 v1, take((h, c), "i1"), take((h,), "<i4"),
                 v2, take((h,), "i1"), take((1,), "<i4"),
                 ps, take((c,), "i1"), take((1,), "<i4"))
    if at != len(b) - 4:
        raise ExportError("the network file has bytes after its tensors")
    if mirror and (why := mirror_error(q.pattern, q.pcode, q.stone, q.shapes, window)):
        raise ExportError(f"the mirrored network's tables are not mirrored: {why}")
    bound = feature_bound(q.pattern, q.pcode, q.stone, q.shapes)
    if bound > INT16[1]:
        raise ExportError(f"the feature tables could sum to {bound} in a cell, past int16: "
                          "export the network again with this version")
    return q


def load(path: str | Path) -> QuantNet:
    return from_bytes(Path(path).read_bytes())


def _checked(x: np.ndarray, what: str, bits: tuple[int, int] = INT32) -> np.ndarray:
    if x.min(initial=0) < bits[0] or x.max(initial=0) > bits[1]:
        raise OverflowError(f"{what} leaves int{16 if bits == INT16 else 32}: the engine's "
                            "arithmetic would wrap")
    return x


def _matmul(a: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Exact integer a @ w.T: float64 holds every partial sum exactly (far below 2^53)."""
    return np.rint(a.astype(np.float64) @ w.astype(np.float64).T).astype(np.int64)


def pcode_tables(q: QuantNet, counts: np.ndarray) -> np.ndarray:
    """(2 * PCODES, C) int64: per colour and pcode, the sum of the pattern table over its
    four lines, plus its pcode table row. The engine may sum per line or look these up: the
    sums are integers, the same either way."""
    c = counts.astype(np.int64)
    p = q.pattern.astype(np.int64)
    t = np.concatenate([c @ p[:PATTERNS], c @ p[PATTERNS:]])
    return t if q.pcode is None else t + q.pcode


def line_shapes(q: QuantNet, stones: np.ndarray) -> np.ndarray:
    """(batch, cells, C) int64: each cell's shape table rows of its four line windows,
    summed."""
    codes = line_codes(torch.from_numpy(stones.astype(np.int64)), q.shape.window).numpy()
    rows = np.searchsorted(shape_codes(q.shape.window), codes)
    return q.shapes.astype(np.int64)[rows].sum(axis=1)


def _conv(q: QuantNet, a: np.ndarray) -> np.ndarray:
    """The 3x3 depthwise convolution of the cells' activations (batch, cells, C); cells
    off the board count as 0."""
    batch, cells, c = a.shape
    side = int(np.sqrt(cells))
    grid = np.zeros((batch, side + 2, side + 2, c), np.int64)
    grid[:, 1:-1, 1:-1] = a.reshape(batch, side, side, c)
    y = np.zeros((batch, side, side, c), np.int64) + q.conv_b
    for dy in range(3):
        for dx in range(3):
            y += grid[:, dy:dy + side, dx:dx + side] * q.conv_w[:, dy, dx].astype(np.int64)
    y = _checked(y, "the convolution")
    return np.clip(y >> q.conv_shift, 0, ACT_MAX).reshape(batch, cells, c)


def feature_sums(q: QuantNet, counts: np.ndarray, pcode: np.ndarray, stones: np.ndarray
                 ) -> np.ndarray:
    """(batch, cells, C) int64: each cell's feature sum from the mover's view (`forward`'s
    inputs), checked to fit int16."""
    tables = pcode_tables(q, counts)
    pcode = pcode.astype(np.int64)
    x = tables[pcode[:, 0]] + tables[pcode[:, 1] + PCODES]
    x += q.stone[stones.astype(np.int64)]
    if q.shapes is not None:
        x += line_shapes(q, stones)
    return _checked(x, "the feature sum", INT16)


def forward(q: QuantNet, counts: np.ndarray, pcode: np.ndarray, stones: np.ndarray,
            mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The integer outputs for a batch from the mover's view (data.Inputs' arrays; `counts`
    is data.pcode_counts): the value (batch,), the win logit times `q.value_scale`, and the
    policy (batch, cells), each cell's logit times `q.policy_scale`. Every intermediate is
    checked to fit int32, and the feature sum int16."""
    x = feature_sums(q, counts, pcode, stones)
    pcode = pcode.astype(np.int64)
    a1 = np.clip(x >> (q.embed_shift - ACT_SHIFT), 0, ACT_MAX)
    if q.cell_w is None:
        a2 = a1
    else:
        y = _checked(_matmul(a1, q.cell_w) + q.cell_b, "the cell layer")
        a2 = np.clip(y >> q.cell_shift, 0, ACT_MAX)
    if q.conv_w is not None:
        a2 = _conv(q, a2)
    pooled = _checked(a2.sum(axis=1), "the pooled sum")
    z = _checked(_matmul(pooled, q.value1_w) + q.value1_b, "value layer 1")
    a3 = np.clip(z >> (q.value1_shift + POOL_SHIFT), 0, ACT_MAX)
    linear = q.psqt[pcode[:, 0]].sum(axis=1, dtype=np.int64)
    linear += q.psqt[pcode[:, 1] + PCODES].sum(axis=1, dtype=np.int64)
    linear += q.psqt_stone[stones.astype(np.int64)].sum(axis=1, dtype=np.int64)
    linear += q.threat[mask.astype(np.int64)]
    mlp = _matmul(a3, q.value2_w[None, :])[:, 0] + q.value2_b[0]
    value = _checked(_checked(linear, "the linear value") + mlp, "the value")
    policy = _checked(_matmul(a2, q.policy_w[None, :])[..., 0] + q.policy_b[0], "the policy")
    return value, policy


def float_net(q: QuantNet, counts: np.ndarray) -> MixNet:
    """The float network whose weights are exactly the exported integers' values: what
    the integer model approximates up to the floors of its shifts."""
    net = MixNet(q.shape, counts)
    # A mirrored network's parameters are its tables' first halves (MixNet.full_table).
    learned = slice(q.shape.channels // 2 if q.shape.mirror else None)
    sd = {
        "pattern.weight": q.pattern[:, learned] / 2.0 ** q.embed_shift,
        "stone.weight": q.stone[:, learned] / 2.0 ** q.embed_shift,
        "psqt.weight": q.psqt[:, None] / 2.0 ** (q.value2_shift + ACT_SHIFT),
        "psqt_stone.weight": q.psqt_stone[:, None] / 2.0 ** (q.value2_shift + ACT_SHIFT),
        "threat.weight": q.threat[:, None] / 2.0 ** (q.value2_shift + ACT_SHIFT),
        "value1.weight": q.value1_w / 2.0 ** q.value1_shift,
        "value1.bias": q.value1_b / 2.0 ** (q.value1_shift + ACT_SHIFT + POOL_SHIFT),
        "value2.weight": q.value2_w[None, :] / 2.0 ** q.value2_shift,
        "value2.bias": q.value2_b / 2.0 ** (q.value2_shift + ACT_SHIFT),
        "policy.weight": q.policy_w[None, :] / 2.0 ** q.policy_shift,
        "policy.bias": q.policy_b / 2.0 ** (q.policy_shift + ACT_SHIFT),
    }
    if q.pcode is not None:
        sd["pcode.weight"] = q.pcode[:, learned] / 2.0 ** q.embed_shift
    if q.cell_w is not None:
        sd["cell.weight"] = q.cell_w / 2.0 ** q.cell_shift
        sd["cell.bias"] = q.cell_b / 2.0 ** (q.cell_shift + ACT_SHIFT)
    if q.shapes is not None:
        # The mapping network's weights are not exported: the shape table stands in for it.
        sd |= {n: v.detach().numpy() for n, v in net.state_dict().items() if n.startswith("lines.")}
        net.shape_table = torch.tensor(q.shapes / 2.0 ** q.embed_shift, dtype=torch.float32)
        net.lines.requires_grad_(False)
    if q.conv_w is not None:
        sd["conv.weight"] = q.conv_w[:, None] / 2.0 ** q.conv_shift
        sd["conv.bias"] = q.conv_b / 2.0 ** (q.conv_shift + ACT_SHIFT)
    net.load_state_dict({n: torch.tensor(v, dtype=torch.float32) for n, v in sd.items()})
    # Trained further, it stays on its value layer's grid (MixNet.value1_shift).
    net.value1_shift = q.value1_shift
    return net
