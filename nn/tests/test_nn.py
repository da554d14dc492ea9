"""Tests of the trainer's pieces that need no data: the position file reader on a file made
here, the targets, the network file's round trip and the integer reference against the
float network. Run from the repository root: `nn/.venv/bin/python -m unittest discover nn/tests`.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import struct
import sys
import tempfile
import unittest
import zlib
from dataclasses import replace
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import train  # noqa: E402
from hoshi_nn import data, quant  # noqa: E402
from hoshi_nn.model import MixNet, Shape, line_codes, shape_codes  # noqa: E402

# The vocabulary checksum of the engine's pcode numbering (lexicographic multisets).
VOCABULARY = zlib.crc32(np.array(
    list(itertools.combinations_with_replacement(range(data.PATTERNS), 4)), np.uint8).tobytes())
SIDE = 7
CELLS = SIDE * SIDE


def random_inputs(rng: np.random.Generator, n: int) -> data.Inputs:
    stones = rng.integers(0, 3, (n, CELLS)).astype(np.uint8)
    pcode = rng.integers(0, data.PCODES, (n, 2, CELLS)).astype(np.int16)
    pcode[np.repeat((stones != 0)[:, None], 2, axis=1)] = 0
    return data.Inputs(pcode, stones, stones == 0, rng.integers(0, CELLS, n),
                       rng.integers(0, data.THREAT_MASKS, n))


def random_net(seed: int, shape: Shape) -> MixNet:
    torch.manual_seed(seed)
    net = MixNet(shape, data.pcode_counts(VOCABULARY))
    with torch.no_grad():
        for p in net.parameters():
            p.add_(torch.randn_like(p) * 0.2)
    return net


class PositionFileTest(unittest.TestCase):
    def write(self, path: Path, records: np.ndarray, crc_ok: bool = True) -> None:
        head = bytearray(64)
        head[:8] = data.MAGIC
        struct.pack_into("<IIIBBxxIIQIIQxxxx", head, 8, data.VERSION, 64,
                         data.record_dtype(CELLS).itemsize, SIDE, data.PATTERNS, VOCABULARY,
                         0xABCD, len(records), 3, 100_000, 9)
        struct.pack_into("<I", head, 60, zlib.crc32(bytes(head[:60])) ^ (0 if crc_ok else 1))
        path.write_bytes(bytes(head) + records.tobytes())

    def test_a_file_reads_back_and_bad_ones_are_refused(self) -> None:
        records = np.zeros(3, data.record_dtype(CELLS))
        records["side"] = [0, 1, 1]
        records["flags"] = [0, data.FLAG_HELD_OUT, 0]
        records["pcode"][1, 0, 5] = 17  # black's pcode, white to move: the opponent's
        records["cell"][1, 6] = 1  # a black stone: the opponent's
        records["cell"][1, 7] = 2 | data.CELL_LEGAL
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "p.feat"
            self.write(path, records)
            pos = data.open_positions(path)
            self.assertEqual((pos.side, pos.games, len(pos)), (SIDE, 3, 3))
            self.assertEqual(pos.held_out.tolist(), [False, True, False])
            x = data.inputs(pos.records)
            self.assertEqual(x.pcode[1, 1, 5], 17)
            self.assertEqual(x.pcode[1, 0, 5], 0)
            self.assertEqual((x.stones[1, 6], x.stones[1, 7]), (2, 1))
            self.assertTrue(x.legal[1, 7] and not x.legal[1, 6])
            self.write(path, records, crc_ok=False)
            with self.assertRaisesRegex(data.FormatError, "damaged"):
                data.open_positions(path)
            self.write(path, records[:2])
            path.write_bytes(path.read_bytes() + b"\0")
            with self.assertRaisesRegex(data.FormatError, "bytes"):
                data.open_positions(path)
            path.write_bytes(b"HOSHIGMS" + bytes(100))
            with self.assertRaisesRegex(data.FormatError, "magic"):
                data.open_positions(path)

    def test_targets_mix_result_and_score_and_mates_give_the_result(self) -> None:
        r = np.zeros(3, data.record_dtype(CELLS))
        r["result"] = [2, 0, 1]
        r["score"] = [0, 517, 3]
        r["score_kind"] = [0, 0, 2]
        t = data.value_targets(r, 517.0, 0.5)
        np.testing.assert_allclose(t, [0.75, 0.5 / (1 + np.exp(-1.0)), 0.5], rtol=1e-6)

    def test_the_vocabulary_guards_the_pcode_numbering(self) -> None:
        self.assertEqual(data.pcode_patterns(VOCABULARY)[-1].tolist(), [10] * 4)
        self.assertEqual(data.pcode_counts(VOCABULARY).sum(axis=1).tolist(), [4.0] * data.PCODES)
        with self.assertRaises(data.FormatError):
            data.pcode_patterns(VOCABULARY ^ 1)


class ExportTest(unittest.TestCase):
    def test_the_file_round_trips_and_damage_is_refused(self) -> None:
        # (The mapping network's width is not in the file: the shape table replaces it.)
        for shape in (Shape(8, 4, True), Shape(4, 8, False), Shape(4, 4, True, conv=True),
                      Shape(4, 4, True, window=2), Shape(4, 4, False, window=1, cell=False),
                      Shape(4, 4, True, window=2, cell=False, mirror=True)):
            q = quant.quantise(random_net(1, shape), 517.3, VOCABULARY, True, 0x1234, 4, 20)
            back = quant.from_bytes(quant.to_bytes(q))
            self.assertEqual((back.shape, back.residual, back.baseline, back.rule, back.side),
                             (replace(shape, mapper=Shape.mapper), True, 0x1234, 4, 20))
            self.assertAlmostEqual(back.k, 517.3, places=3)
            for name, value in vars(q).items():
                if isinstance(value, np.ndarray):
                    np.testing.assert_array_equal(getattr(back, name), value, err_msg=name)
            b = bytearray(quant.to_bytes(q))
            b[100] ^= 1
            with self.assertRaisesRegex(quant.ExportError, "damaged"):
                quant.from_bytes(bytes(b))

    def test_flags_and_shifts_the_exporter_never_writes_are_refused(self) -> None:
        """As the engine's reader refuses them (crates/engine/src/eval/network.rs)."""
        q = quant.quantise(random_net(1, Shape(4, 4, True)), 517.3, VOCABULARY, False, 0)

        def edited(at: int, value: int) -> bytes:
            b = bytearray(quant.to_bytes(q))
            b[at] = value
            return bytes(b[:-4]) + struct.pack("<I", zlib.crc32(bytes(b[:-4])))

        for at, value, message in ((16, quant.FLAG_PCODE | 32, "flags"), (32, 6, "shift e"),
                                   (33, 15, "shift c"), (19, 2, "window reach"), (38, 2, "rule"),
                                   (16, quant.FLAG_PCODE | quant.FLAG_WINDOW, "window reach"),
                                   (39, 4, "board side"), (39, 33, "board side")):
            with self.assertRaisesRegex(quant.ExportError, message):
                quant.from_bytes(edited(at, value))
        # A file from before networks recorded their board reads as 15x15.
        self.assertEqual((q.side, quant.from_bytes(edited(39, 0)).side), (15, 15))
        # Without the convolution its shift is not read.
        quant.from_bytes(edited(37, 200))

    def test_the_integer_network_follows_the_float_one(self) -> None:
        """The integer outputs are the float network's with the exported weights, up to
        the floors of the shifts; and every value fits int32."""
        rng = np.random.default_rng(5)
        counts = data.pcode_counts(VOCABULARY)
        x = random_inputs(rng, 64)
        for shape in (Shape(16, 8, True), Shape(8, 8, False, conv=True),
                      Shape(8, 8, True, window=3, mapper=16),
                      Shape(8, 8, True, window=2, mapper=16, cell=False),
                      Shape(8, 8, True, window=2, mapper=16, cell=False, mirror=True)):
            net = random_net(2, shape)
            q = quant.quantise(net, 517.3, VOCABULARY, False, 0)
            value, policy = quant.forward(q, counts, x.pcode, x.stones, x.mask)
            self.assertEqual((value.shape, policy.shape), ((64,), (64, CELLS)))
            # Against the exported weights in float, and against the trained network (a
            # window network's mapping network, not its table).
            for float_model in (quant.float_net(q, counts), net):
                with torch.no_grad():
                    fv, fp = float_model(torch.from_numpy(x.pcode).long(),
                                         torch.from_numpy(x.stones).long(),
                                         torch.from_numpy(x.mask))
                self.assertGreater(float(fv.std()), 0.5, "a test net whose value varies")
                np.testing.assert_allclose(value / q.value_scale, fv.numpy(), atol=0.05)
                np.testing.assert_allclose(policy / q.policy_scale, fp.numpy(), atol=0.05)

    def test_the_pcode_tables_are_the_sums_over_the_four_lines(self) -> None:
        q = quant.quantise(random_net(3, Shape(8, 4, True)), 517.3, VOCABULARY, False, 0)
        tables = quant.pcode_tables(q, data.pcode_counts(VOCABULARY))
        pats = data.pcode_patterns(VOCABULARY)
        for code in (0, 1, 500, 1000):
            own = q.pattern[pats[code]].astype(np.int64).sum(axis=0) + q.pcode[code]
            opp = (q.pattern[pats[code] + data.PATTERNS].astype(np.int64).sum(axis=0)
                   + q.pcode[code + data.PCODES])
            np.testing.assert_array_equal(tables[code], own)
            np.testing.assert_array_equal(tables[code + data.PCODES], opp)

    def test_a_cells_feature_sum_fits_int16_at_the_finest_scale_that_allows_it(self) -> None:
        """The engine adds a cell's feature rows in 16 bits: the exporter coarsens the tables'
        scale until no cell's sum can leave int16, and the reader refuses a file past it."""
        for shape in (Shape(8, 4, True, window=2, mapper=16, cell=False), Shape(8, 4, False)):
            net = random_net(6, shape)
            q = quant.quantise(net, 517.3, VOCABULARY, False, 0)
            bound = quant.feature_bound(q.pattern, q.pcode, q.stone, q.shapes)
            self.assertLessEqual(bound, quant.INT16[1])
            # A scale finer by one doubles every table, and the bound with them.
            self.assertGreater(2 * bound, quant.INT16[1] - 64, "the finest scale that fits")
            self.assertLess(q.embed_shift, quant.EMBED_SHIFTS[1])
        b = bytearray(quant.to_bytes(q))
        struct.pack_into("<h", b, quant.HEADER.size, 20000)  # own pattern 0, channel 0
        b[-4:] = struct.pack("<I", zlib.crc32(bytes(b[:-4])))
        with self.assertRaisesRegex(quant.ExportError, "could sum to"):
            quant.from_bytes(bytes(b))

    def test_a_mirrored_networks_other_view_is_its_halves_swapped(self) -> None:
        """What lets the engine keep one view: the same board read by the other colour
        (stones and pcodes swapped) gives every cell the feature sums with their halves
        swapped. An unmirrored network does not; a mirrored file whose tables break the
        mirror is refused."""
        rng = np.random.default_rng(7)
        counts = data.pcode_counts(VOCABULARY)
        x = random_inputs(rng, 16)
        stones = np.where(x.stones == 0, 0, 3 - x.stones).astype(np.uint8)
        pcode = x.pcode[:, ::-1].copy()
        nets = {}
        for mirror in (True, False):
            shape = Shape(8, 4, True, window=2, mapper=16, cell=False, mirror=mirror)
            q = nets[mirror] = quant.quantise(random_net(8, shape), 517.3, VOCABULARY, False, 0)
            own = quant.feature_sums(q, counts, x.pcode, x.stones)
            other = quant.feature_sums(q, counts, pcode, stones)
            swapped = np.concatenate([own[..., 4:], own[..., :4]], axis=-1)
            self.assertEqual(np.array_equal(other, swapped), mirror)
        quant.from_bytes(quant.to_bytes(nets[True]))
        for table in ("pattern", "pcode", "stone", "shapes"):
            broken = replace(nets[True], **{table: getattr(nets[True], table).copy()})
            getattr(broken, table)[1, 0] += 1
            with self.assertRaisesRegex(quant.ExportError, f"not mirrored: the {table[:5]}"):
                quant.from_bytes(quant.to_bytes(broken))
        with self.assertRaisesRegex(ValueError, "cell layer"):
            MixNet(Shape(8, 4, mirror=True), counts)

    def test_a_weight_too_large_for_its_type_is_refused(self) -> None:
        net = random_net(4, Shape(4, 4, False))
        with torch.no_grad():
            net.cell.weight[0, 0] = 1000.0
        with self.assertRaisesRegex(quant.ExportError, "cell layer"):
            quant.quantise(net, 517.3, VOCABULARY, False, 0)



class LineWindowTest(unittest.TestCase):
    def test_codes_read_each_line_both_ways_with_the_edge_as_a_state(self) -> None:
        rng = np.random.default_rng(3)
        stones = rng.integers(0, 3, (2, CELLS))
        codes = line_codes(torch.from_numpy(stones), 2).numpy()

        def state(b: int, x: int, y: int) -> int:
            inside = 0 <= x < SIDE and 0 <= y < SIDE
            return int(stones[b, y * SIDE + x]) if inside else 3

        for b, (d, (dx, dy)), cell in itertools.product(
                range(2), enumerate(((1, 0), (0, 1), (1, 1), (1, -1))), range(CELLS)):
            x, y = cell % SIDE, cell // SIDE
            window = [state(b, x + t * dx, y + t * dy) for t in range(-2, 3)]
            code = min(int("".join(map(str, w)), 4) for w in (window, window[::-1]))
            self.assertEqual(codes[b, d, cell], code, (b, d, cell))

    def test_a_window_network_sees_a_shape_the_pcodes_do_not(self) -> None:
        net = random_net(5, Shape(channels=8, hidden=8, window=2, mapper=16))
        x = random_inputs(np.random.default_rng(4), 2)
        pcode, stones, mask = (torch.from_numpy(a).long() for a in (x.pcode, x.stones, x.mask))
        # A stone changes at cell 0, nothing else: its row neighbour's feature changes
        # through its line window alone.
        moved = stones.clone()
        moved[0, 0] = (moved[0, 0] + 1) % 3
        before, after = net.cells(pcode, stones)[0, 1], net.cells(pcode, moved)[0, 1]
        self.assertFalse(torch.allclose(before, after))
        # Without windows it cannot.
        plain = random_net(5, Shape(channels=8, hidden=8))
        self.assertTrue(torch.equal(plain.cells(pcode, stones)[0, 1], plain.cells(pcode, moved)[0, 1]))

    def test_the_shape_table_has_a_row_for_every_window_a_board_shows(self) -> None:
        """Every code of every cell of boards from 1x1 to 9x9 is among shape_codes (the
        integer format's rows), and every row is met on some board: the enumeration is
        neither short nor padded. The counts are the docs' (43,923 windows at reach 4)."""
        rng = np.random.default_rng(6)
        for window in (1, 2, 3):
            known = shape_codes(window)
            seen = set()
            for side in range(1, 10):
                stones = rng.integers(0, 3, (3000, side * side))
                codes = line_codes(torch.from_numpy(stones), window).numpy()
                self.assertTrue(np.isin(codes, known).all(), (window, side))
                seen.update(np.unique(codes).tolist())
            self.assertEqual(seen, set(known.tolist()), window)
        self.assertEqual([len(shape_codes(w)) for w in (1, 2, 3, 4)], [30, 273, 2460, 22143])

    def test_a_position_without_a_legal_cell_has_no_policy_loss(self) -> None:
        """Renju's black can be left with forbidden cells only (its move is then a foul,
        no choice): that position's policy loss is 0 and not counted, not NaN, and the
        others' losses are the cross-entropy over their legal cells."""
        logits = torch.tensor([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]], requires_grad=True)
        legal = torch.tensor([[True, True, False], [False, False, False]])
        ce, hit, chose = train.policy_loss(logits, legal, torch.tensor([1, 2]))
        expected = -torch.log_softmax(torch.tensor([1.0, 2.0]), dim=0)[1]
        self.assertTrue(torch.allclose(ce, torch.stack([expected, torch.tensor(0.0)])))
        self.assertEqual((hit.tolist(), chose.tolist()), ([True, False], [True, False]))
        ce.sum().backward()
        self.assertTrue(torch.isfinite(logits.grad).all())

    def test_a_network_file_is_trained_further_from_its_own_weights(self) -> None:
        """--init: the float network of a file exports to that very file; a step moves its
        tables but not its shape table (the windows as exported), and it exports again,
        mirrored. A residual file without --residual, or the reverse, is refused."""
        shape = Shape(8, 8, True, window=2, mapper=16, cell=False, mirror=True)
        counts = data.pcode_counts(VOCABULARY)
        q = quant.quantise(random_net(7, shape), 517.3, VOCABULARY, True, 0xBA5E, 0, 20)
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "start.hnn"
            quant.save(q, path)
            with contextlib.redirect_stdout(io.StringIO()):
                net = train.initial_network(str(path), counts, True, torch.device("cpu"))
            again = quant.quantise(net, 517.3, VOCABULARY, True, 0xBA5E, 0, 20)
            self.assertEqual(quant.to_bytes(again), quant.to_bytes(q))
            x = random_inputs(np.random.default_rng(8), 16)
            value, _ = net(torch.from_numpy(x.pcode).long(), torch.from_numpy(x.stones).long(),
                           torch.from_numpy(x.mask))
            table = net.shape_table.clone()
            pattern = net.pattern.weight.detach().clone()
            opt = torch.optim.Adam(net.parameters(), lr=0.01)
            value.sum().backward()
            opt.step()
            self.assertFalse(torch.equal(net.pattern.weight, pattern))
            self.assertTrue(torch.equal(net.shape_table, table))
            quant.quantise(net, 517.3, VOCABULARY, True, 0xBA5E, 0, 20)
            with self.assertRaises(SystemExit):
                train.initial_network(str(path), counts, False, torch.device("cpu"))
            standalone = Path(tmp) / "standalone.hnn"
            quant.save(replace(q, residual=False), standalone)
            with self.assertRaises(SystemExit):
                train.initial_network(str(standalone), counts, True, torch.device("cpu"))

    def test_value_layer_one_trains_on_the_exported_grid(self) -> None:
        """With a grid set, the forward pass reads value layer 1's weights rounded as the
        exporter rounds them, and held within int8 there they keep the exporter at that
        scale: the file's layer is the one trained."""
        net = random_net(9, Shape(8, 8, True))
        net.value1_shift = 7
        with torch.no_grad():
            net.value1.weight[0, 0] = 1.5  # beyond int8 at 2^7
        x = random_inputs(np.random.default_rng(10), 16)
        opt = torch.optim.Adam(net.parameters(), lr=0.003)
        value, _ = net(torch.from_numpy(x.pcode).long(), torch.from_numpy(x.stones).long(),
                       torch.from_numpy(x.mask))
        value.sum().backward()
        opt.step()
        net.hold_value1()
        q = quant.quantise(net, 517.3, VOCABULARY, False, 0)
        self.assertEqual(q.value1_shift, 7)
        np.testing.assert_array_equal(q.value1_w / 128.0, net.value1_weight().detach().numpy())
        self.assertEqual(float(net.value1.weight.abs().max()), 127.0 / 128.0)

    def test_a_reach_beyond_the_format_is_refused_at_export(self) -> None:
        net = random_net(5, Shape(channels=4, hidden=4, window=5, mapper=8))
        with self.assertRaisesRegex(quant.ExportError, "reach 5"):
            quant.quantise(net, 517.3, VOCABULARY, False, 0)


if __name__ == "__main__":
    unittest.main()
