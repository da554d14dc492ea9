"""The exported network's integer outputs on positions of a position file: the reference
the engine's integer inference must reproduce exactly.

    python nn/reference.py NET.hnn POSITIONS.feat [--first 0 --count 8] [--full]

Prints one JSON line per position: where it comes from (index, game, ply), the integer
value and its win logit, the same logit from the float network with the exported weights
(they differ only by the integer model's floors), and the integer policy of the five most
likely legal cells. A last line gives the largest gap between the integer and the float
value over the positions printed.

With --full (every position from --first unless --count says otherwise) each line holds
the integers alone: index, game, ply, the value and the policy of every cell (row-major,
`y * N + x`; stones and illegal cells included, as the inference computes them), and
nothing else is printed. The engine's exactness test reads these lines as its expected
outputs (crates/tools/tests/network.rs).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hoshi_nn import data, quant  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("network", help="a network file written by train.py (.hnn)")
    p.add_argument("positions", help="a position file written by `pbrain-hoshi features`")
    p.add_argument("--first", type=int, default=0, help="index of the first position")
    p.add_argument("--count", type=int, default=None,
                   help="positions to print (default 8, or all with --full)")
    p.add_argument("--full", action="store_true",
                   help="only the integers, with every cell's policy: the engine's test fixture")
    args = p.parse_args()
    if args.count is None:
        args.count = len(data.open_positions(args.positions)) if args.full else 8

    q = quant.load(args.network)
    pos = data.open_positions(args.positions)
    if pos.vocabulary != q.vocabulary:
        sys.exit("the network and the positions number the pcodes differently")
    counts = data.pcode_counts(pos.vocabulary)
    records = pos.records[args.first: args.first + args.count]
    x = data.inputs(records)
    value, policy = quant.forward(q, counts, x.pcode, x.stones, x.mask)
    if args.full:
        for i, r in enumerate(records):
            print(json.dumps({
                "index": args.first + i,
                "game": int(r["game"]),
                "ply": int(r["ply"]),
                "value": int(value[i]),
                "policy": [int(v) for v in policy[i]],
            }, separators=(",", ":")))
        return
    with torch.no_grad():
        fvalue, _ = quant.float_net(q, counts)(torch.from_numpy(x.pcode).long(),
                                               torch.from_numpy(x.stones).long(),
                                               torch.from_numpy(x.mask))
    gap = 0.0
    for i, r in enumerate(records):
        legal = np.flatnonzero(x.legal[i])
        top = legal[np.argsort(-policy[i, legal], kind="stable")[:5]]
        logit = value[i] / q.value_scale
        gap = max(gap, abs(logit - float(fvalue[i])))
        print(json.dumps({
            "index": args.first + i,
            "game": int(r["game"]),
            "ply": int(r["ply"]),
            "value": int(value[i]),
            "value_logit": round(float(logit), 6),
            "float_logit": round(float(fvalue[i]), 6),
            "policy_top": [[int(c), int(policy[i, c])] for c in top],
        }))
    print(f"largest |integer - float| value logit: {gap:.6f} "
          f"(the residual network adds the tables' evaluation / K to both)"
          if q.residual else f"largest |integer - float| value logit: {gap:.6f}")


if __name__ == "__main__":
    main()
