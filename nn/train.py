"""Trains the network on a position file of `pbrain-hoshi features` and exports it.

    python nn/train.py POSITIONS.feat --out NET.hnn [--channels 32 --hidden 32 --epochs 8]

Prints, before training, the baseline tables' losses on the same positions and targets
(their evaluation and move prior come in the file), then one row per epoch: the value
loss on the training games and the held-out games, the policy's held-out cross-entropy
and top-1 accuracy. The split is the file's: the held-out games `pbrain-hoshi train`
holds out for the same --seed and --val, so its validation loss compares too. The weights
of the best held-out value loss are kept, quantised, written, and measured again through
the integer reference (quant.forward).

`--init NET.hnn` trains a network file further on these positions: the built-in 15x15
freestyle network taught 20x20 or renju games learns far more than a new network from the
same games (docs/network.md, "Trained further").
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hoshi_nn import data, quant  # noqa: E402
from hoshi_nn.model import MAX_WINDOW, MixNet, Shape  # noqa: E402


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("positions", help="a position file written by `pbrain-hoshi features`")
    p.add_argument("--out", required=True, help="the network file to write (.hnn)")
    p.add_argument("--channels", type=int, default=32, help="features per cell")
    p.add_argument("--hidden", type=int, default=32, help="width of the value MLP")
    p.add_argument("--no-pcode", action="store_true", help="no pcode tables: line patterns only")
    p.add_argument("--conv", action="store_true",
                   help="a 3x3 depthwise convolution over the cells' features")
    p.add_argument("--window", type=int, default=0,
                   help="each cell also reads its four line windows, this many cells either "
                        "way, through a shape-mapping network (0: off); the export "
                        f"tabulates every shape (reach 1 to {MAX_WINDOW})")
    p.add_argument("--no-cell", action="store_true",
                   help="no per-cell C x C layer: a cell's activation is its clipped feature "
                        "sum (cheap to update incrementally, as Rapfi's mix6)")
    p.add_argument("--mirror", action="store_true",
                   help="tie the colours' features (needs --no-cell): the engine then keeps "
                        "one view of the board for both sides, about half the update")
    p.add_argument("--residual", action="store_true",
                   help="learn a correction to the baseline tables: the value logit is the "
                        "tables' evaluation / K plus the network's")
    p.add_argument("--init", metavar="NET.hnn",
                   help="start from this network file's weights (its shape replaces the shape "
                        "options; its line windows stay as exported: the shape table is not "
                        "trained): a network learnt elsewhere, taught these positions")
    p.add_argument("--value1-shift", type=int, default=None, metavar="S",
                   help="train value layer 1 on the exported grid 2^-S, its weights within "
                        "int8 there (default: free, or the --init file's own scale)")
    p.add_argument("--epochs", type=int, default=8)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--lr", type=float, default=2e-3, help="Adam's step, decaying linearly to a tenth")
    p.add_argument("--linear-lr", type=float, default=1e-2,
                   help="Adam's step for the value's linear part (the per-pcode values)")
    p.add_argument("--weight-decay", type=float, default=1e-5)
    p.add_argument("--policy-weight", type=float, default=0.25,
                   help="weight of the policy's cross-entropy in the loss (the value's is 1)")
    p.add_argument("--k", type=float, default=None,
                   help="logistic scale K of the search scores (default: the rule's, as the "
                        "engine's: renju 715.2, the others 517.3; docs/eval.md)")
    p.add_argument("--lambda", dest="lam", type=float, default=0.5,
                   help="weight of the game result in the value target (as `train --lambda`)")
    p.add_argument("--seed", type=int, default=0, help="seeds initialisation and batch order")
    p.add_argument("--threads", type=int, default=1,
                   help="CPU threads for torch (more than 1 is much slower on a busy machine)")
    p.add_argument("--device", default="auto", help="auto (a GPU when present), cpu, cuda")
    p.add_argument("--limit", type=int, default=0,
                   help="use only the first N positions (a quick try; 0: all)")
    args = p.parse_args()
    if args.mirror and (not args.no_cell or args.conv or args.channels % 2):
        p.error("--mirror needs --no-cell, no --conv and an even --channels")
    low, high = quant.LAYER_SHIFTS
    if args.value1_shift is not None and not low <= args.value1_shift <= high:
        p.error(f"--value1-shift {args.value1_shift}: the integer format takes "
                f"{low} to {high}")
    if not 0 <= args.window <= MAX_WINDOW:
        p.error(f"--window {args.window}: the integer format takes 0 to {MAX_WINDOW}")
    return args


class Split:
    """One side of the split as tensors on the device, from the mover's view."""

    def __init__(self, records: np.ndarray, k: float, lam: float, device: torch.device) -> None:
        x = data.inputs(records)
        self.pcode = torch.from_numpy(x.pcode).to(device)
        self.stones = torch.from_numpy(x.stones).to(device)
        self.legal = torch.from_numpy(x.legal).to(device)
        self.move = torch.from_numpy(x.move).to(device)
        self.mask = torch.from_numpy(x.mask).to(device)
        self.target = torch.from_numpy(data.value_targets(records, k, lam)).to(device)
        self.eval = records["eval"].astype(np.float64)
        # The baseline tables' logit, which a residual network adds to.
        self.base = torch.from_numpy((self.eval / k).astype(np.float32)).to(device)
        self.prior = np.array(records["prior"])
        self.legal_np = x.legal
        self.move_np = x.move

    def __len__(self) -> int:
        return len(self.move)

    def batch(self, idx: torch.Tensor) -> tuple[torch.Tensor, ...]:
        return (self.pcode[idx].long(), self.stones[idx].long(), self.mask[idx],
                self.legal[idx], self.move[idx], self.target[idx], self.base[idx])


def policy_loss(logits: torch.Tensor, legal: torch.Tensor, move: torch.Tensor
                ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Per position: the cross-entropy of the move played over the legal cells, whether
    it is the most likely one, and whether the mover had a choice. Without a legal cell
    (renju's black may have only forbidden cells left, and its move is then a foul) the
    first two are 0 and false: such a position has a value target, no policy target."""
    chose = legal.any(dim=1, keepdim=True)
    logits = logits.masked_fill(~legal & chose, float("-inf"))
    ce = -torch.log_softmax(logits, dim=1).gather(1, move[:, None]).squeeze(1)
    chose = chose.squeeze(1)
    return ce.where(chose, 0.0), (logits.argmax(dim=1) == move) & chose, chose


@torch.no_grad()
def measure(net: MixNet, s: Split, batch: int, residual: bool,
            idx: torch.Tensor | None = None) -> tuple[float, float, float]:
    """Mean value loss, policy cross-entropy and top-1 accuracy over `s` (or its `idx`)."""
    net.eval()
    order = idx if idx is not None else torch.arange(len(s), device=s.move.device)
    v_sum = ce_sum = hits = choices = 0.0
    for start in range(0, len(order), 4 * batch):
        pcode, stones, mask, legal, move, target, base = s.batch(order[start:start + 4 * batch])
        value, logits = net(pcode, stones, mask)
        if residual:
            value = value + base
        v_sum += F.binary_cross_entropy_with_logits(value, target, reduction="sum").item()
        ce, hit, chose = policy_loss(logits, legal, move)
        ce_sum += ce.sum().item()
        hits += hit.sum().item()
        choices += chose.sum().item()
    return v_sum / len(order), ce_sum / max(choices, 1), hits / max(choices, 1)


def prior_metrics(train: Split, held: Split) -> tuple[float, float, float]:
    """The baseline move prior on the held-out positions: its cross-entropy at the
    temperature fitted on the training positions, and its top-1 accuracy; and that
    temperature. Like the network, over every legal cell, where the mover has one."""

    def ce(s: Split, temperature: float, rows: slice = slice(None)) -> float:
        legal, prior, move = s.legal_np[rows], s.prior[rows], s.move_np[rows]
        chose = legal.any(axis=1)
        logits = np.where(legal[chose], prior[chose] / temperature, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        logp = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
        return float(-np.take_along_axis(logp, move[chose, None], axis=1).mean())

    # Golden-section search on log T over a fixed sample: the loss has one minimum.
    sample = slice(0, min(len(train), 40_000))
    lo, hi = math.log(1.0), math.log(10_000.0)
    g = (math.sqrt(5.0) - 1.0) / 2.0
    for _ in range(40):
        c, d = hi - g * (hi - lo), lo + g * (hi - lo)
        if ce(train, math.exp(c), sample) < ce(train, math.exp(d), sample):
            hi = d
        else:
            lo = c
    t = math.exp((lo + hi) / 2.0)
    chose = held.legal_np.any(axis=1)
    best = np.where(held.legal_np, held.prior, np.iinfo(np.int32).min).argmax(axis=1)
    return ce(held, t), float((best == held.move_np)[chose].mean()), t


@torch.no_grad()
def measure_quantised(q: quant.QuantNet, counts: np.ndarray, s: Split, batch: int,
                      residual: bool) -> tuple[float, float, float]:
    """measure() for the integer network, through the reference inference."""
    v_sum = ce_sum = hits = choices = 0.0
    for start in range(0, len(s), batch):
        idx = torch.arange(start, min(start + batch, len(s)))
        pcode, stones, mask, legal, move, target, base = s.batch(idx.to(s.move.device))
        value, policy = quant.forward(q, counts, pcode.cpu().numpy(), stones.cpu().numpy(),
                                      mask.cpu().numpy())
        v = torch.from_numpy(value / q.value_scale).float()
        if residual:
            v = v + base.cpu()
        v_sum += F.binary_cross_entropy_with_logits(v, target.cpu(), reduction="sum").item()
        logits = torch.from_numpy(policy / q.policy_scale).float()
        ce, hit, chose = policy_loss(logits, legal.cpu(), move.cpu())
        ce_sum += ce.sum().item()
        hits += hit.sum().item()
        choices += chose.sum().item()
    return v_sum / len(s), ce_sum / max(choices, 1), hits / max(choices, 1)


def check_pcodes(records: np.ndarray, patterns: np.ndarray) -> None:
    """The trainer reads a cell's four line patterns through its pcode: check on `records`
    that the exported patterns are their pcode's, as the vocabulary says."""
    pats = np.sort(np.array(records["pats"]).transpose(0, 1, 3, 2), axis=-1)
    if not (pats == patterns[np.array(records["pcode"])]).all():
        raise data.FormatError("the file's line patterns disagree with their pcodes")


def initial_network(path: str, counts: np.ndarray, residual: bool,
                    device: torch.device) -> MixNet:
    """The float network of a network file, to train further: on another board, rule or
    baseline too (the file written records the positions', as any trained network's)."""
    q = quant.load(path)
    if q.residual != residual:
        sys.exit(f"{path} is {'' if q.residual else 'not '}residual: give --residual "
                 f"{'too' if q.residual else 'only with a residual network'}")
    print(f"starting from {path} ({data.RULES[q.rule]}, {q.side}x{q.side}, "
          f"{f'residual on the tables {q.baseline:08x}' if residual else 'standalone'})")
    net = quant.float_net(q, counts).to(device)
    if net.shape_table is not None:
        net.shape_table = net.shape_table.to(device)
    return net


def main() -> None:
    args = parse_args()
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    torch.set_num_threads(args.threads)
    device = torch.device("cuda" if args.device == "auto" and torch.cuda.is_available()
                          else "cpu" if args.device == "auto" else args.device)
    if device.type == "cpu":
        torch.use_deterministic_algorithms(True)
    started = time.time()

    pos = data.open_positions(args.positions)
    counts = data.pcode_counts(pos.vocabulary)
    records = pos.records[: args.limit] if args.limit else pos.records
    check_pcodes(records[:1000], data.pcode_patterns(pos.vocabulary))
    rules = np.unique(records["rule"])
    if len(rules) != 1:
        sys.exit(f"positions of several rules ({', '.join(map(str, rules))}): a network is "
                 "trained for one rule; export each rule's games apart")
    rule = int(rules[0])
    if args.k is None:
        args.k = data.logistic_scale(rule)
    held_mask = (records["flags"] & data.FLAG_HELD_OUT) != 0
    train = Split(records[~held_mask], args.k, args.lam, device)
    held = Split(records[held_mask], args.k, args.lam, device)
    print(f"{args.positions}: {len(records)} positions, {len(train)} training, {len(held)} "
          f"held out ({len(np.unique(records['game'][held_mask]))} games), "
          f"{pos.side}x{pos.side}, {data.RULES[rule]}, K {args.k}; device {device}")

    base_train = data.bce(data.sigmoid(train.eval / args.k), train.target.cpu().numpy())
    base_held = data.bce(data.sigmoid(held.eval / args.k), held.target.cpu().numpy())
    prior_ce, prior_top1, temperature = prior_metrics(train, held)
    print(f"baseline tables (id {pos.baseline_id:08x}): value loss train {base_train:.5f}, "
          f"held-out {base_held:.5f}; move prior held-out cross-entropy {prior_ce:.5f} "
          f"(temperature {temperature:.1f}), top-1 {100 * prior_top1:.1f} %")

    if args.init:
        net = initial_network(args.init, counts, args.residual, device)
        shape = net.shape
    else:
        shape = Shape(args.channels, args.hidden, not args.no_pcode, args.conv, args.window,
                      cell=not args.no_cell, mirror=args.mirror)
        net = MixNet(shape, counts).to(device)
    if args.value1_shift is not None:
        net.value1_shift = args.value1_shift
    net.hold_value1()
    params = sum(p.numel() for p in net.parameters() if p.requires_grad)
    print(f"network: {shape.channels} channels, value MLP {shape.hidden}, pcode tables "
          f"{'yes' if shape.pcode else 'no'}, 3x3 convolution {'yes' if shape.conv else 'no'}, "
          f"line windows {shape.window or 'no'}, cell layer {'yes' if shape.cell else 'no'}, "
          f"mirrored {'yes' if shape.mirror else 'no'}, value layer 1 on "
          f"{'no grid' if net.value1_shift is None else f'the grid 2^-{net.value1_shift}'}; "
          f"{params} parameters")
    # The linear part is the tables' form: a few thousand sparse values that each move
    # little per batch, so it gets its own, larger step.
    linear = [net.psqt.weight, net.psqt_stone.weight, net.threat.weight]
    rest = [p for n, p in net.named_parameters()
            if not any(p is q for q in linear)]
    opt = torch.optim.Adam([{"params": rest}, {"params": linear, "lr": args.linear_lr}],
                           lr=args.lr, weight_decay=args.weight_decay)
    steps = args.epochs * math.ceil(len(train) / args.batch)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda step: 1.0 - 0.9 * step / max(steps, 1))
    gen = torch.Generator().manual_seed(args.seed)
    # The training loss is measured on a fixed sample of the training positions.
    train_sample = torch.randperm(len(train), generator=gen)[:20_000].to(device)

    print("| epoch | train value loss | held-out value loss | held-out policy CE | held-out top-1 | s |")
    print("|---:|---:|---:|---:|---:|---:|")
    best = (float("inf"), 0, None)
    for epoch in range(1, args.epochs + 1):
        t0 = time.time()
        net.train()
        for idx in torch.randperm(len(train), generator=gen).to(device).split(args.batch):
            pcode, stones, mask, legal, move, target, base = train.batch(idx)
            value, logits = net(pcode, stones, mask)
            if args.residual:
                value = value + base
            ce, _, chose = policy_loss(logits, legal, move)
            loss = (F.binary_cross_entropy_with_logits(value, target)
                    + args.policy_weight * ce.sum() / chose.sum().clamp(min=1))
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            net.hold_value1()
            sched.step()
        tv, _, _ = measure(net, train, args.batch, args.residual, train_sample)
        hv, hce, htop = measure(net, held, args.batch, args.residual)
        print(f"| {epoch} | {tv:.5f} | {hv:.5f} | {hce:.5f} | {100 * htop:.1f} % | "
              f"{time.time() - t0:.0f} |", flush=True)
        if hv < best[0]:
            best = (hv, epoch, {n: t.detach().clone() for n, t in net.state_dict().items()})

    net.load_state_dict(best[2])
    q = quant.quantise(net.cpu(), args.k, pos.vocabulary, args.residual, pos.baseline_id,
                       rule, pos.side)
    quant.save(q, args.out)
    qv, qce, qtop = measure_quantised(q, counts, held, 512, args.residual)
    print(f"best epoch {best[1]}: held-out value loss {best[0]:.5f} (baseline tables "
          f"{base_held:.5f})")
    print(f"wrote {args.out} ({Path(args.out).stat().st_size} bytes); the integer network on "
          f"the held-out positions: value loss {qv:.5f}, policy CE {qce:.5f}, top-1 "
          f"{100 * qtop:.1f} %")
    print(f"{time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
