"""The network: a small member of Rapfi's "mix" family over Hoshi's pattern codes.

Per cell, the line patterns of both colours (from the side to move's view: own and the
opponent's) each look up a feature vector in a table shared by the four directions, and so
do the cell's two pcodes (optional) and its stone; the sum is the cell's feature. A cell's
four patterns are its pcode's (data.pcode_patterns), so the sum over its lines is computed
as one lookup per colour in a per-pcode table made from the pattern table each step: four
times fewer gathers, the same function. Optionally (`Shape.window`) each cell also reads
the exact stones of its four lines, `window` cells either way: a shared mapping network
turns each line's shape into features, summed over the directions (what Rapfi's mix
networks read instead of pattern classes).

A clipped ReLU, a per-cell linear layer and a second clipped ReLU let threats on different
lines through one cell, and the two colours' shapes on it, combine — what a sum of per-cell
table values cannot see. An optional 3x3 depthwise convolution (`Shape.conv`) then lets
each cell see its neighbours' features. The value head pools the cells (a sum, scaled by
2^-POOL_SHIFT) into a small MLP giving the logit of the mover's win probability; the policy
head is a linear map of each cell's feature to a logit.

Optionally (`Shape.mirror`, without the cell layer) the colours' features are tied: the
second half of every table's columns is the first half read for the other colour, so that
white's view of a board is black's with the halves of the channels swapped and an engine
keeps one view for both (docs/network.md, "The mirrored network").

Every activation is clipped to [0, 127/128] so that the integer model (quant.py) carries it
exactly as a byte of 0..127 at scale 128.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from .data import PATTERNS, PCODES, THREAT_MASKS

# The pooled sum is divided by 2^POOL_SHIFT: a sum (like the tables' sum over cells) rather
# than a mean, so a feature keeps its weight whatever the board size, and the division is a
# shift in the integer model.
POOL_SHIFT = 5
# Activations live in [0, ACT_MAX]: 0..127 at scale 128 in the integer model.
ACT_MAX = 127.0 / 128.0


@dataclass(frozen=True)
class Shape:
    """A network's size: what the exported file records in its header."""

    channels: int = 32
    hidden: int = 32
    pcode: bool = True
    # A 3x3 depthwise convolution over the cells' features after the cell layer: each cell
    # sees its neighbours' (mix9's spatial step).
    conv: bool = False
    # The reach of each cell's line windows, cells either way (0: none): each of the four
    # windows' exact shape (empty, own, opponent's, off the board) maps to features through
    # a small shared network, the same for a window read backwards.
    window: int = 0
    # Width of that mapping network's hidden layers.
    mapper: int = 64
    # The per-cell C x C layer after the features' clipped ReLU. Without it a cell's
    # activation is its clipped feature sum, as in Rapfi's mix6: an incremental update then
    # costs table additions alone (the layer is C x C multiplications per changed cell).
    cell: bool = True
    # The colours' mirror (no cell layer, no convolution, even C): channel j + C/2 reads
    # for the opponent what channel j reads for the mover, so the white view's features are
    # the black view's with their halves swapped, and an engine keeps one view for both
    # (docs/network.md, "The mirrored network").
    mirror: bool = False


def clip(x: torch.Tensor) -> torch.Tensor:
    return torch.clamp(x, 0.0, ACT_MAX)


class MixNet(nn.Module):
    def __init__(self, shape: Shape, pcode_counts: np.ndarray) -> None:
        """`pcode_counts`: data.pcode_counts, each pcode's count of each line pattern."""
        super().__init__()
        c, h = shape.channels, shape.hidden
        self.shape = shape
        self.register_buffer("counts", torch.from_numpy(pcode_counts), persistent=False)
        if shape.mirror and (shape.cell or shape.conv or c % 2):
            raise ValueError("a mirrored network has no cell layer, no convolution and an "
                             "even number of channels")
        # A mirrored network learns the first half of each feature table's columns; the
        # second half is the first read for the other colour (`full_table`).
        t = c // 2 if shape.mirror else c
        # Rows 0..10: own patterns, 11..21: the opponent's.
        self.pattern = nn.Embedding(2 * PATTERNS, t)
        # Rows 0..1000: own pcodes, 1001..2001: the opponent's.
        self.pcode = nn.Embedding(2 * PCODES, t) if shape.pcode else None
        # Empty, own stone, opponent's stone.
        self.stone = nn.Embedding(3, t)
        self.cell = nn.Linear(c, c) if shape.cell else None
        self.conv = nn.Conv2d(c, c, 3, padding=1, groups=c) if shape.conv else None
        self.lines = None
        # The integer model's shape table (shape_codes(window) order, float values) stands
        # in for the mapping network in quant.float_net; None while training.
        self.shape_table: torch.Tensor | None = None
        if shape.window:
            width = 4 * (2 * shape.window + 1)
            self.lines = nn.Sequential(nn.Linear(width, shape.mapper), nn.ReLU(),
                                       nn.Linear(shape.mapper, shape.mapper), nn.ReLU(),
                                       nn.Linear(shape.mapper, t))
        # The value's linear part: a scalar per colour and pcode and per stone, summed over
        # the cells, and one per threat mask — the tables' own form (Stockfish's NNUE calls
        # such a part PSQT), so the network holds the linear model and its MLP learns what
        # that cannot say.
        self.psqt = nn.Embedding(2 * PCODES, 1)
        self.psqt_stone = nn.Embedding(3, 1)
        self.threat = nn.Embedding(THREAT_MASKS, 1)
        self.value1 = nn.Linear(c, h)
        # Value layer 1's weights on the integer format's grid, 2^-value1_shift (None: free).
        # The pooled sum it reads is large (a few per channel on 15x15, more on bigger
        # boards), so its int8 weights' rounding costs more than any other layer's: a
        # network whose weights moved by less than a step would export unchanged.
        self.value1_shift: int | None = None
        self.value2 = nn.Linear(h, 1)
        self.policy = nn.Linear(c, 1)
        for linear in (self.psqt, self.psqt_stone, self.threat):
            nn.init.zeros_(linear.weight)
        nn.init.normal_(self.pattern.weight, 0.0, 0.1)
        nn.init.normal_(self.stone.weight, 0.0, 0.1)
        if self.pcode is not None:
            # The pcode tables start at zero: the patterns explain what they can first.
            nn.init.zeros_(self.pcode.weight)
        # Clipped activations saturate and pass no gradient: start every unit mid-range.
        # The pooled sum is large (a few per channel), so value layer 1 starts small.
        if self.cell is not None:
            nn.init.constant_(self.cell.bias, 0.25)
        nn.init.normal_(self.value1.weight, 0.0, 0.02)
        nn.init.constant_(self.value1.bias, 0.5)

    def value1_weight(self) -> torch.Tensor:
        """Value layer 1's weights as the forward pass uses them: on the grid, when one is
        set, rounded as the exporter rounds (a straight-through gradient: the float weights
        learn, and a step shows once they cross to another grid point)."""
        w = self.value1.weight
        if self.value1_shift is None:
            return w
        scale = float(1 << self.value1_shift)
        return w + (torch.round(w * scale) / scale - w).detach()

    @torch.no_grad()
    def hold_value1(self) -> None:
        """Keeps value layer 1's weights within int8 at the grid's scale, so that the
        exporter chooses that scale (quant.quantise: the finest whose weights fit)."""
        if self.value1_shift is not None:
            limit = 127.0 / (1 << self.value1_shift)
            self.value1.weight.clamp_(-limit, limit)

    def full_table(self, table: nn.Embedding) -> torch.Tensor:
        """A feature table's weights, (rows, channels). A mirrored network's rows are
        (own, opponent's) blocks of equal size, or the stones (empty, own, opponent's): the
        second half of a row's columns is the first half of the row for the other colour."""
        w = table.weight
        if not self.shape.mirror:
            return w
        return torch.cat([w, w[mirror_rows(w.shape[0])]], dim=1)

    def pcode_tables(self) -> torch.Tensor:
        """(2 * PCODES, channels): per colour and pcode, the sum of its four lines' pattern
        features plus its pcode feature."""
        w = self.full_table(self.pattern).view(2, PATTERNS, -1)
        t = torch.cat([self.counts @ w[0], self.counts @ w[1]])
        return t if self.pcode is None else t + self.full_table(self.pcode)

    def cells(self, pcode: torch.Tensor, stones: torch.Tensor) -> torch.Tensor:
        """Each cell's feature after the per-cell layers: (batch, cells, channels).

        pcode (batch, 2, cells), stones (batch, cells): integer codes from the mover's view
        (data.Inputs), own colour first.
        """
        offset = torch.tensor([0, PCODES], device=pcode.device).view(1, 2, 1)
        x = (F.embedding(pcode + offset, self.pcode_tables()).sum(dim=1)
             + F.embedding(stones, self.full_table(self.stone)))
        if self.shape.window:
            x = x + self.line_features(stones)
        a = clip(x) if self.cell is None else clip(self.cell(clip(x)))
        if self.conv is None:
            return a
        batch, cells, c = a.shape
        side = math.isqrt(cells)
        grid = a.transpose(1, 2).reshape(batch, c, side, side)
        return clip(self.conv(grid)).reshape(batch, c, cells).transpose(1, 2)

    def line_features(self, stones: torch.Tensor) -> torch.Tensor:
        """(batch, cells, channels): the mapped shapes of each cell's four line windows,
        summed. Each distinct shape of the batch goes through the mapping network once."""
        codes = line_codes(stones, self.shape.window)
        unique, inverse = torch.unique(codes, return_inverse=True)
        return self.map_shapes(unique)[inverse].sum(dim=1)

    def map_shapes(self, codes: torch.Tensor) -> torch.Tensor:
        """(n, channels): the features of n window shapes (line_codes' codes)."""
        if self.shape_table is not None:
            known = torch.tensor(shape_codes(self.shape.window), device=codes.device)
            return self.shape_table[torch.searchsorted(known, codes)]
        if not self.shape.mirror:
            return self.map_halves(codes)
        # A shape's second half is the first half of its colours swapped; each distinct
        # code goes through the mapping network once, so the halves are exact copies.
        swapped = swap_colours(codes, self.shape.window)
        both, inverse = torch.unique(torch.cat([codes, swapped]), return_inverse=True)
        mapped = self.map_halves(both)[inverse]
        return torch.cat([mapped[:len(codes)], mapped[len(codes):]], dim=1)

    def map_halves(self, codes: torch.Tensor) -> torch.Tensor:
        """The mapping network's output for n window shapes: (n, channels), or a mirrored
        network's first halves (n, channels / 2)."""
        digits, _ = code_digits(codes, self.shape.window)
        onehot = F.one_hot(digits, 4).float().reshape(len(codes), -1)
        return self.lines(onehot)

    def forward(self, pcode: torch.Tensor, stones: torch.Tensor, mask: torch.Tensor
                ) -> tuple[torch.Tensor, torch.Tensor]:
        """The value logit (batch,) and the policy logits (batch, cells), unmasked. `mask`
        (batch,) is the threat mask of the tables' threat table."""
        a = self.cells(pcode, stones)
        pooled = a.sum(dim=1) / (1 << POOL_SHIFT)
        offset = torch.tensor([0, PCODES], device=pcode.device).view(1, 2, 1)
        linear = (self.psqt(pcode + offset).sum(dim=(1, 2, 3))
                  + self.psqt_stone(stones).sum(dim=(1, 2)) + self.threat(mask).squeeze(-1))
        hidden = F.linear(pooled, self.value1_weight(), self.value1.bias)
        value = linear + self.value2(clip(hidden)).squeeze(-1)
        return value, self.policy(a).squeeze(-1)


# The four line directions as (dx, dy): a row, a column, the diagonal and the anti-diagonal.
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
OFF_BOARD = 3
# The integer format's largest window reach: the engine indexes its shape table by a
# window's raw code, an array of 4^(2 * MAX_WINDOW + 1) entries.
MAX_WINDOW = 4


@functools.cache
def shape_codes(window: int) -> np.ndarray:
    """The sorted codes line_codes can give for this reach: every window whose cells off
    the board form a run at either end (the centre is on the board), a window and its
    reverse as one, the smaller code. The integer format's shape table has one row per code
    in this order (22,143 rows at reach 4); the engine enumerates them the same way."""
    length = 2 * window + 1
    found = set()
    for left in range(window + 1):
        for right in range(window + 1):
            for middle in itertools.product(range(3), repeat=length - left - right):
                cells = (OFF_BOARD,) * left + middle + (OFF_BOARD,) * right
                forward = sum(s * 4 ** (length - 1 - i) for i, s in enumerate(cells))
                backward = sum(s * 4 ** i for i, s in enumerate(cells))
                found.add(min(forward, backward))
    codes = np.array(sorted(found), dtype=np.int64)
    codes.flags.writeable = False  # shared by every caller (cached)
    return codes


def mirror_rows(rows: int) -> list[int]:
    """For each row of a feature table, the row of the same input read by the other
    colour: the stone table's three rows (empty, own, opponent's) swap the last two; a
    table of (own, opponent's) blocks swaps the blocks."""
    if rows == 3:
        return [0, 2, 1]
    return [*range(rows // 2, rows), *range(rows // 2)]


def code_digits(codes: torch.Tensor, window: int) -> tuple[torch.Tensor, torch.Tensor]:
    """The cells of n window codes (line_codes'), (n, 2 * window + 1), first cell first,
    and each cell's place value."""
    length = 2 * window + 1
    powers = 4 ** torch.arange(length - 1, -1, -1, device=codes.device)
    return (codes[:, None] // powers) % 4, powers


def swap_colours(codes: torch.Tensor, window: int) -> torch.Tensor:
    """The codes (line_codes') of the same windows with the two colours' stones swapped,
    each the smaller of its two readings again."""
    digits, powers = code_digits(codes, window)
    digits = torch.where((digits == 1) | (digits == 2), 3 - digits, digits)
    forward = (digits * powers).sum(dim=1)
    backward = (digits.flip(1) * powers).sum(dim=1)
    return torch.minimum(forward, backward)


def line_codes(stones: torch.Tensor, window: int) -> torch.Tensor:
    """(batch, 4, cells): each cell's window of `window` cells either way along each
    direction, as a base-4 number of its states (0 empty, 1 own, 2 opponent's, 3 off the
    board), first cell most significant; a window and its reverse get the same (smaller)
    code. `stones` (batch, cells) from the mover's view, cells row-major on a square board."""
    batch, cells = stones.shape
    side = math.isqrt(cells)
    grid = F.pad(stones.long().view(batch, side, side), (window,) * 4, value=OFF_BOARD)
    out = []
    for dx, dy in DIRECTIONS:
        forward = torch.zeros(batch, side, side, dtype=torch.long, device=stones.device)
        backward = torch.zeros_like(forward)
        for t in range(-window, window + 1):
            y0, x0 = window + t * dy, window + t * dx
            forward = forward * 4 + grid[:, y0:y0 + side, x0:x0 + side]
            y1, x1 = window - t * dy, window - t * dx
            backward = backward * 4 + grid[:, y1:y1 + side, x1:x1 + side]
        out.append(torch.minimum(forward, backward).reshape(batch, cells))
    return torch.stack(out, dim=1)
