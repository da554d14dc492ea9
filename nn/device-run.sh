#!/bin/sh
# One device session's worth of network data and training, in one command: self-play on
# every core for a fixed time, the positions exported, a window network trained on the GPU
# (the CPU where there is none; mirrored, the form that learned most, docs/network.md NN4),
# and what is worth keeping written to $OUT.
#
# The device machines (/work/.library/device) have PyTorch but no Rust toolchain and no
# network: build the release binary here and carry it. From the repository root:
#
#   cargo build --release
#   run(command: "OUT=$OUT nn/device-run.sh", carry: ["target/release/pbrain-hoshi"])
#
# Settings (environment): GAMES_SECONDS (self-play time, default 300), SEED (the game
# file's seed, default 6001: give each run its own, so the files are shards of one data
# set), NODES (8000), RULE (freestyle), EPOCHS (8), CHANNELS (32), BIN, PYTHON.
# $OUT receives the game file (about 250 bytes a game: keep it, it is the data), the
# network and the training log; the position file (about 3.8 KB a position) stays behind.
set -eu

: "${OUT:?set OUT to the folder that receives the results}"
BIN=${BIN:-target/release/pbrain-hoshi}
PYTHON=${PYTHON:-python3}
GAMES_SECONDS=${GAMES_SECONDS:-300}
SEED=${SEED:-6001}
NODES=${NODES:-8000}
RULE=${RULE:-freestyle}
EPOCHS=${EPOCHS:-8}
CHANNELS=${CHANNELS:-32}
THREADS=$(nproc)
WORK=${WORK:-/tmp/hoshi-device}
mkdir -p "$WORK" "$OUT"
games="$OUT/$RULE-s$SEED.games"

echo "self-play: $THREADS threads, $GAMES_SECONDS s, $NODES nodes a move"
# Stopped by the clock: a game cut short leaves a torn last record, which every reader
# of game files drops (and `datagen` removes when it continues the file).
timeout "$GAMES_SECONDS" "$BIN" --seed "$SEED" datagen --rule "$RULE" --nodes "$NODES" \
    --threads "$THREADS" --games 100000000 --out "$games" || [ $? -eq 124 ]

"$BIN" features "$games" --out "$WORK/positions.feat"

PYTHONUNBUFFERED=1 "$PYTHON" nn/train.py "$WORK/positions.feat" --out "$OUT/$RULE-w4m$CHANNELS.hnn" \
    --residual --mirror --channels "$CHANNELS" --hidden 32 --window 4 --no-cell \
    --epochs "$EPOCHS" --lr 1e-3 --linear-lr 2e-4 2>&1 | tee "$OUT/train.log"
