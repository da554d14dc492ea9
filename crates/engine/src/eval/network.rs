//! The exported network's integer inference: a network file written by `nn/train.py`
//! (`*.hnn`), read and evaluated with exactly the arithmetic of its executable statement,
//! `nn/hoshi_nn/quant.py` (`from_bytes`, `forward`). docs/network.md ("The network file",
//! "The integer inference") has the layout and the arithmetic step by step; the test
//! `crates/tools/tests/network.rs` replays fixture games and checks every value and every
//! cell's policy against the integers `nn/reference.py --full` printed for them.
//!
//! The inputs are the pattern board's own: per cell the pcode of each colour (0 on a
//! stone, as `pbrain-hoshi features` exports it), the stone, and the side to move's
//! [`threat_mask`]; nothing here classifies a line. A cell's four line patterns are its
//! pcode's, so the sum of the pattern table over a cell's lines (plus its pcode table row)
//! is looked up in a per-pcode table made once at load: the same integers as summing per
//! line, a quarter of the lookups.
//!
//! A line-window network (`FLAG_WINDOW`) also reads each cell's four line windows, `R`
//! cells either way ([`PatternBoard::line_window`]): the file carries a table of features
//! per window shape (`quant.shape_codes` order), indexed here by a window's raw code
//! through an array made at load.
//!
//! A cell's feature sum is kept in i16 (the incremental state saves and adds half the bytes
//! it would in i32): the loader refuses a file whose feature tables could sum past i16 in
//! some cell, a bound the exporter chooses the tables' scale to keep. Every other sum fits
//! i32: where it depends on the position, the loader refuses a file whose weights could
//! leave i32 on any position of any board up to 32x32 (the reference checks the positions
//! it computes and raises there; a file `train.py` writes is far inside), so
//! [`Network::evaluate`] cannot overflow. Every rescaling is an arithmetic shift right, a
//! floor, as Python's `>>` is on negative numbers.
//!
//! This is the from-scratch inference; the search keeps the value incrementally
//! ([`super::incremental`]) and is checked against it. [`Network::evaluate`] wants square
//! boards, as the position file and the trainer do (the reference's convolution reads the
//! cells as an N x N grid); a rectangular board is refused with
//! [`NetworkError::NotSquare`]. The incremental state has no such limit.

use std::fmt;
use std::path::Path;

use crate::board::padded::{self, EMPTY, WALL};
use crate::board::{Color, MAX_SIDE, MIN_SIDE};
use crate::pattern::{Idx, PCODE_COUNT, Pattern, PatternBoard, Pcode, Pcodes};
use crate::rules::Rule;

use super::model::vocabulary;
use super::simd::{self, ACT_MAX, dot};
use super::{THREAT_MASKS, threat_mask};

/// The file's first bytes.
pub const MAGIC: [u8; 8] = *b"HOSHINET";
/// The format this code reads.
pub const VERSION: u32 = 1;
/// The pooled sum is scaled by `2^-POOL_SHIFT` (the file says so; only this value is read).
pub const POOL_SHIFT: u32 = 5;
/// Flags: the pcode tables are present.
pub const FLAG_PCODE: u8 = 1;
/// Flags: the value is a correction to the baseline tables' evaluation.
pub const FLAG_RESIDUAL: u8 = 2;
/// Flags: the 3x3 depthwise convolution is present.
pub const FLAG_CONV: u8 = 4;
/// Flags: the line windows' shape table is present (its reach is the header's byte 19).
pub const FLAG_WINDOW: u8 = 8;
/// Flags: no per-cell layer (a cell's activation is its clipped feature sum).
pub const FLAG_NO_CELL: u8 = 16;
/// Flags: the colours' mirror — each feature table's second half of columns is its first
/// half read for the other colour, so one view of the board gives both ([`mirror_error`]).
pub const FLAG_MIRROR: u8 = 64;
const KNOWN_FLAGS: u8 =
    FLAG_PCODE | FLAG_RESIDUAL | FLAG_CONV | FLAG_WINDOW | FLAG_NO_CELL | FLAG_MIRROR;
/// The board side of a file whose side byte is 0: networks recorded no board before they
/// were trained on more than one, and all were trained on 15x15.
pub const LEGACY_SIDE: u8 = 15;
/// The largest line window reach the format takes (`model.MAX_WINDOW`): the index array has
/// `4^(2R + 1)` entries, 262,144 at reach 4.
pub const MAX_WINDOW: usize = 4;
/// A window cell's state in a shape code (`model.line_codes`): empty, the mover's stone,
/// the opponent's, off the board.
const OFF_BOARD: u32 = 3;
/// Header bytes before the first tensor (`quant.HEADER`, `<8sIHHBBBBIIfBBBBBBBxI`).
const HEADER_BYTES: usize = 44;
const CRC_BYTES: usize = 4;
/// Activations are bytes `0..=ACT_MAX` at scale `2^ACT_SHIFT`.
const ACT_SHIFT: u32 = 7;
/// The exporter's range of the feature tables' shift (`quant.quantise`): the tables' sum is
/// read at scale 2^7 after a right shift, so their own scale is no coarser.
const EMBED_SHIFTS: std::ops::RangeInclusive<u8> = 7..=15;
/// The exporter's range of a dense layer's shift.
const LAYER_SHIFTS: std::ops::RangeInclusive<u8> = 0..=14;
/// Cells of the largest board: the bound the loader checks the sums against.
const MAX_CELLS: i64 = MAX_SIDE as i64 * MAX_SIDE as i64;

/// Why a network file was refused, or a position could not be evaluated.
#[derive(Debug)]
pub enum NetworkError {
    Io(String, std::io::Error),
    BadMagic,
    Version(u32),
    /// Fewer bytes than the header describes.
    Truncated {
        len: usize,
        expected: usize,
    },
    /// More bytes than the header describes.
    TrailingBytes {
        len: usize,
        expected: usize,
    },
    Checksum,
    /// A header field this reader does not know (flags, pool shift, vocabulary sizes).
    Layout(String),
    /// The pcode numbering is not this build's: `(the file's, this build's)` checksums.
    Vocabulary(u32, u32),
    /// A shift outside what the exporter writes: `(which, value)`.
    Shift(&'static str, u8),
    /// Weights whose sums could leave i32 on some position (the layer's name).
    Range(&'static str),
    /// Feature tables whose sum in a cell could reach this, past i16.
    FeatureSums(i64),
    /// The board is not square: `(width, height)`.
    NotSquare(u8, u8),
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::Io(path, e) => write!(f, "cannot read {path}: {e}"),
            NetworkError::BadMagic => f.write_str("not a Hoshi network file (bad magic)"),
            NetworkError::Version(v) => write!(
                f,
                "network format version {v} is not supported (this build reads {VERSION}); \
                 export it with a matching nn/train.py"
            ),
            NetworkError::Truncated { len, expected } => write!(
                f,
                "the network file is cut short ({len} bytes, its header describes \
                 {expected}); copy or export it again"
            ),
            NetworkError::TrailingBytes { len, expected } => write!(
                f,
                "the network file has {} bytes after its last tensor ({len} bytes, its \
                 header describes {expected}); copy or export it again",
                len - expected
            ),
            NetworkError::Checksum => f.write_str(
                "the network file is damaged (checksum mismatch); copy or export it again",
            ),
            NetworkError::Layout(what) => write!(f, "bad network layout: {what}"),
            NetworkError::Vocabulary(file, engine) => write!(
                f,
                "the network was made for other pattern codes (pcode vocabulary \
                 {file:08x}, this build's is {engine:08x}); export the positions with this \
                 build and train it again"
            ),
            NetworkError::Shift(which, v) => write!(
                f,
                "bad network file: shift {which} is {v}, outside what nn/train.py exports"
            ),
            NetworkError::Range(layer) => write!(
                f,
                "the network's {layer} has weights large enough to overflow 32-bit sums \
                 on a {MAX_SIDE}x{MAX_SIDE} board; this engine cannot evaluate it"
            ),
            NetworkError::FeatureSums(bound) => write!(
                f,
                "the network's feature tables could sum to {bound} in a cell, past the 16 \
                 bits the engine adds them in; export it again with this version's \
                 nn/train.py, which scales the tables to fit"
            ),
            NetworkError::NotSquare(w, h) => {
                write!(f, "the network evaluates square boards only, not {w}x{h}")
            }
        }
    }
}

impl std::error::Error for NetworkError {}

/// The network's outputs for one position, from the side to move's view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkOutput {
    /// The mover's win logit times [`Network::value_scale`] (a residual network's is added
    /// to the baseline tables' evaluation / K).
    pub value: i32,
    /// Per cell, row-major (`y * N + x`), its move logit times [`Network::policy_scale`];
    /// computed on every cell, stones and illegal cells too, as the reference does.
    pub policy: Vec<i32>,
}

/// The shifts of the file's header (docs/network.md: `e`, `c`, `v1`, `v2`, `p`, `d`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shifts {
    embed: u32,
    cell: u32,
    value1: u32,
    value2: u32,
    policy: u32,
    /// 0 without the convolution.
    conv: u32,
}

/// A layer's i8 weights (row-major, one row per output) and i32 biases: the per-cell layer
/// (`[out][in]`), or the 3x3 depthwise convolution (`[channel][dy][dx]`).
#[derive(Clone, Debug)]
struct Layer {
    w: Vec<i32>,
    b: Vec<i32>,
}

/// The line windows: their reach and each raw window code's shape row.
#[derive(Clone, Debug)]
struct Lines {
    reach: usize,
    /// Per raw code (base 4, first cell most significant), its shape's row in
    /// `quant.shape_codes` order; `u16::MAX` for a code no board shows.
    row: Vec<u16>,
    /// Per shape row, the row of the same window read by the other colour: white's view
    /// of a cell is black's with this, so only black's codes are kept.
    other: Vec<u16>,
}

/// The feature rows a cell's inputs select, from one view: its own pcode's, the
/// opponent's pcode's, its stone's, and with line windows the four windows' shapes (as
/// indices into [`Network`]'s `rows`). Its feature sum is the sum of these rows.
pub(super) type CellRows = [u16; MAX_INPUTS];
/// Inputs of a cell: two pcodes, a stone and four windows.
pub(super) const MAX_INPUTS: usize = 7;
/// A cell's raw line window codes ([`window_codes`]) from black's view, per direction
/// (`Dir::ALL`'s order); all 0 for a network without windows.
pub(super) type WindowCodes = [u32; 4];
/// Where each kind of row starts in the row table.
const OWN_PCODE_ROWS: usize = 0;
const OPP_PCODE_ROWS: usize = PCODE_COUNT;
const STONE_ROWS: usize = 2 * PCODE_COUNT;
const SHAPE_ROWS: usize = 2 * PCODE_COUNT + 3;

/// Every window of `reach` cells either way that a board can show (the cells off the board
/// are a run at either end, the centre is on it), as `(code, reversed code)`: the
/// enumeration of `model.shape_codes`.
fn windows(reach: usize) -> Vec<(u32, u32)> {
    let len = 2 * reach + 1;
    let mut out = Vec::new();
    for left in 0..=reach {
        for right in 0..=reach {
            let middle = len - left - right;
            for m in 0..3u32.pow(middle as u32) {
                let mut digits = m;
                let cells = (0..len).map(|i| {
                    if i < left || i >= len - right {
                        OFF_BOARD
                    } else {
                        let d = digits % 3;
                        digits /= 3;
                        d
                    }
                });
                let (mut forward, mut backward, mut power) = (0u32, 0u32, 1u32);
                for c in cells {
                    forward = forward * 4 + c;
                    backward += c * power;
                    power *= 4;
                }
                out.push((forward, backward));
            }
        }
    }
    out
}

/// The shape rows of [`windows`]: the sorted distinct codes of a window and its reverse
/// (the smaller), and each raw code's row.
fn shape_rows(reach: usize) -> (usize, Vec<u16>) {
    let all = windows(reach);
    let mut shapes: Vec<u32> = all.iter().map(|&(f, b)| f.min(b)).collect();
    shapes.sort_unstable();
    shapes.dedup();
    let mut row = vec![u16::MAX; 1 << (2 * (2 * reach + 1))];
    for (f, b) in all {
        // 22,143 shapes at reach 4: a row fits u16.
        let r = shapes
            .binary_search(&f.min(b))
            .expect("a window's shape is listed") as u16;
        row[f as usize] = r;
    }
    (shapes.len(), row)
}

/// The raw code of the window of `reach` cells either way of `i` along `Dir::ALL[dir]`,
/// from black's view (`model.line_codes`' digits, first cell most significant; white's
/// view is [`swap_code`]'s). A blocked cell stops the line as the edge does: it and what
/// lies past it read as off the board, and a blocked centre as empty (as the cell's stone
/// input reads it), so a code is always one of [`windows`]; on boards without blocked cells
/// it is exactly the trainer's.
fn window_codes(pb: &PatternBoard, i: Idx, dir: usize, reach: usize) -> usize {
    let mut cells = [OFF_BOARD; 2 * MAX_WINDOW + 1];
    for (cell, c) in cells.iter_mut().zip(pb.line_window(i, dir, reach)) {
        *cell = match c {
            EMPTY => 0,
            WALL => OFF_BOARD,
            c if c == padded::stone(Color::Black) => 1,
            _ => 2,
        };
    }
    let cells = &mut cells[..2 * reach + 1];
    if cells[reach] == OFF_BOARD {
        cells[reach] = 0;
    }
    for t in (0..reach).rev() {
        if cells[t + 1] == OFF_BOARD {
            cells[t] = OFF_BOARD;
        }
    }
    for t in reach + 1..cells.len() {
        if cells[t - 1] == OFF_BOARD {
            cells[t] = OFF_BOARD;
        }
    }
    cells.iter().fold(0, |code, &c| code * 4 + c as usize)
}

/// A window cell's digit read by the other colour: own and opponent's stones swap.
fn swap_digit(c: u32) -> u32 {
    if c == 1 || c == 2 { 3 - c } else { c }
}

/// The raw code of a window of `len` cells read by the other colour.
fn swap_code(code: usize, len: usize) -> usize {
    (0..len).fold(0, |out, i| {
        let d = (code >> (2 * (len - 1 - i))) & 3;
        out * 4 + swap_digit(d as u32) as usize
    })
}

/// Why a file's feature tables (`[row][channel]`, `ch` channels) are not a mirrored
/// network's, or `None`: swapping the halves of a row's columns must give the row of the
/// other colour — own and opponent's pattern and pcode rows, own and opponent's stone, the
/// empty cell itself, and a window shape and the shape with its colours swapped
/// (`quant.mirror_error`).
fn mirror_error(
    pattern: &[i32],
    pcode: Option<&[i32]>,
    stone: &[i32],
    shapes: &[i32],
    lines: Option<&Lines>,
    ch: usize,
) -> Option<&'static str> {
    if !ch.is_multiple_of(2) {
        return Some("an odd number of channels");
    }
    let half = ch / 2;
    // Row `a` with its halves swapped is row `b`.
    let mirrored = |t: &[i32], a: usize, b: usize| {
        let (a, b) = (&t[a * ch..][..ch], &t[b * ch..][..ch]);
        a[..half] == b[half..] && a[half..] == b[..half]
    };
    let roles = |t: &[i32], n: usize| (0..n).all(|r| mirrored(t, r, r + n));
    if !roles(pattern, Pattern::COUNT) {
        return Some("the pattern table");
    }
    if pcode.is_some_and(|t| !roles(t, PCODE_COUNT)) {
        return Some("the pcode table");
    }
    if !(mirrored(stone, 0, 0) && mirrored(stone, 1, 2)) {
        return Some("the stone table");
    }
    if let Some(lines) = lines {
        let len = 2 * lines.reach + 1;
        let shapes_ok = lines.row.iter().enumerate().all(|(code, &r)| {
            r == u16::MAX || {
                let other = lines.row[swap_code(code, len)];
                other != u16::MAX && mirrored(shapes, usize::from(r), usize::from(other))
            }
        });
        if !shapes_ok {
            return Some("the shape table");
        }
    }
    None
}

/// A network loaded from its file, with the per-pcode feature tables precomputed.
#[derive(Clone, Debug)]
pub struct Network {
    channels: usize,
    hidden: usize,
    pcode_table: bool,
    residual: bool,
    /// `FLAG_MIRROR`: white's view of a cell is black's with the channels' halves swapped.
    mirror: bool,
    k: f32,
    /// K in 1/2^16 units, for [`Network::to_eval`]: made once, not per evaluation.
    k_fixed: i64,
    baseline: u32,
    rule: Rule,
    /// The side of the square board its positions were played on.
    side: u8,
    /// The CRC-32 the file ends with: which network this is.
    checksum: u32,
    shifts: Shifts,
    /// Every feature row a cell's input can select, `[row][channel]`: per role (own, the
    /// opponent's) and pcode the pattern table summed over the pcode's four lines plus its
    /// pcode table row when the file has one; per stone (empty, own, opponent's) the stone
    /// table's; per window shape the shape table's. (`OWN_PCODE_ROWS` and the other
    /// constants say where each kind starts.) The loader's bound keeps a cell's sum of
    /// them in i16.
    rows: Vec<i16>,
    /// Per row, the linear value it adds (pcode and stone rows; 0 for shapes).
    linear_rows: Vec<i32>,
    /// Inputs a cell has: 3, or 7 with line windows.
    inputs: usize,
    /// The linear value per threat mask.
    threat: Vec<i32>,
    /// The per-cell layer, `[out][in]` (absent with `FLAG_NO_CELL`).
    cell: Option<Layer>,
    conv: Option<Layer>,
    lines: Option<Lines>,
    /// `[hidden][channel]`.
    value1_w: Vec<i32>,
    value1_b: Vec<i32>,
    value2_w: Vec<i32>,
    value2_b: i32,
    policy_w: Vec<i32>,
    policy_b: i32,
}

/// A little-endian reader over the tensors, whose sizes the loader has checked already;
/// running short is still an error, never a panic.
struct Cursor<'a> {
    bytes: &'a [u8],
    len: usize,
    expected: usize,
}

impl Cursor<'_> {
    fn take<const N: usize>(&mut self, count: usize) -> Result<Vec<[u8; N]>, NetworkError> {
        let n = count * N;
        if self.bytes.len() < n {
            return Err(NetworkError::Truncated {
                len: self.len,
                expected: self.expected,
            });
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head
            .chunks_exact(N)
            .map(|c| std::array::from_fn(|i| c[i]))
            .collect())
    }

    fn i8s(&mut self, count: usize) -> Result<Vec<i32>, NetworkError> {
        Ok(self
            .take::<1>(count)?
            .into_iter()
            .map(|b| i32::from(i8::from_le_bytes(b)))
            .collect())
    }

    fn i16s(&mut self, count: usize) -> Result<Vec<i32>, NetworkError> {
        Ok(self
            .take::<2>(count)?
            .into_iter()
            .map(|b| i32::from(i16::from_le_bytes(b)))
            .collect())
    }

    fn i32s(&mut self, count: usize) -> Result<Vec<i32>, NetworkError> {
        Ok(self
            .take::<4>(count)?
            .into_iter()
            .map(i32::from_le_bytes)
            .collect())
    }
}

/// The bytes of the tensors of a network of `c` channels, `h` hidden units, `flags` and
/// `shapes` rows of the line windows' table, in file order.
fn tensor_bytes(c: usize, h: usize, flags: u8, shapes: usize) -> usize {
    let pcode = flags & FLAG_PCODE != 0;
    let conv = flags & FLAG_CONV != 0;
    let cell = flags & FLAG_NO_CELL == 0;
    [
        // The pattern, pcode, shape and stone tables, i16.
        2 * Pattern::COUNT * c * 2,
        if pcode { 2 * PCODE_COUNT * c * 2 } else { 0 },
        shapes * c * 2,
        3 * c * 2,
        // The linear value per pcode, per stone and per threat mask, i32.
        (2 * PCODE_COUNT + 3 + THREAT_MASKS) * 4,
        // Each layer's i8 weights and i32 biases: cell, convolution, value 1 and 2, policy.
        if cell { c * c + c * 4 } else { 0 },
        if conv { c * 9 + c * 4 } else { 0 },
        h * c + h * 4,
        h + 4,
        c + 4,
    ]
    .iter()
    .sum()
}

/// The largest magnitude of `bias + sum of w * input` over inputs in `0..=input_max`.
fn bound(bias: i32, w: &[i32], input_max: i64) -> i64 {
    i64::from(bias).abs() + w.iter().map(|&v| i64::from(v).abs()).sum::<i64>() * input_max
}

fn max_abs(v: &[i32]) -> i64 {
    v.iter().map(|&x| i64::from(x).abs()).max().unwrap_or(0)
}

/// The largest magnitude a cell's feature sum can take in any channel: per channel, the
/// largest row magnitude of each table times the rows of it a cell adds (four pattern rows
/// per colour, a pcode row per colour, a stone row, four shape rows). `quant.feature_bound`
/// computes the same from the same tensors; a subset of a cell's rows is bounded by it too.
fn feature_bound(
    pattern: &[i32],
    pcode: Option<&[i32]>,
    stone: &[i32],
    shapes: &[i32],
    ch: usize,
) -> i64 {
    // The largest |value| of each channel over `rows` rows of a `[row][ch]` table.
    let col_max = |t: &[i32], rows: std::ops::Range<usize>| -> Vec<i64> {
        (0..ch)
            .map(|c| {
                rows.clone()
                    .map(|r| i64::from(t[r * ch + c]).abs())
                    .max()
                    .unwrap_or(0)
            })
            .collect()
    };
    let (pat, pc) = (Pattern::COUNT, PCODE_COUNT);
    let per_table = [
        (col_max(pattern, 0..pat), 4),
        (col_max(pattern, pat..2 * pat), 4),
        (pcode.map_or(vec![0; ch], |t| col_max(t, 0..pc)), 1),
        (pcode.map_or(vec![0; ch], |t| col_max(t, pc..2 * pc)), 1),
        (col_max(stone, 0..3), 1),
        (col_max(shapes, 0..shapes.len() / ch.max(1)), 4),
    ];
    (0..ch)
        .map(|c| per_table.iter().map(|(m, n)| m[c] * n).sum())
        .max()
        .unwrap_or(0)
}

/// `x >> shift`, clamped to an activation.
#[inline]
fn activation(x: i32, shift: u32) -> i16 {
    (x >> shift).clamp(0, ACT_MAX) as i16
}

impl Network {
    /// Parses a network file, refusing anything but a whole, valid one of this build's
    /// pcode vocabulary.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            return Err(NetworkError::BadMagic);
        }
        let len = bytes.len();
        if len < HEADER_BYTES + CRC_BYTES {
            return Err(NetworkError::Truncated {
                len,
                expected: HEADER_BYTES + CRC_BYTES,
            });
        }
        let h = &bytes[..HEADER_BYTES];
        let u16_at = |i: usize| u16::from_le_bytes([h[i], h[i + 1]]);
        let u32_at = |i: usize| u32::from_le_bytes([h[i], h[i + 1], h[i + 2], h[i + 3]]);
        let version = u32_at(8);
        if version != VERSION {
            return Err(NetworkError::Version(version));
        }
        let (channels, hidden) = (usize::from(u16_at(12)), usize::from(u16_at(14)));
        let (flags, pool, patterns, reach) = (h[16], h[17], h[18], usize::from(h[19]));
        let (pcodes, vocab) = (u32_at(20), u32_at(24));
        let k = f32::from_le_bytes([h[28], h[29], h[30], h[31]]);
        let [e, c, v1, v2, p, d] = std::array::from_fn(|i| h[32 + i]);
        let rule_code = h[38];
        // 0 in files from before networks recorded their board: those were all 15x15.
        let side = match h[39] {
            0 => LEGACY_SIDE,
            side => side,
        };
        let baseline = u32_at(40);
        // The reach decides the size, so it is checked before it (the checksum after).
        if (flags & FLAG_WINDOW != 0) != (reach != 0) || reach > MAX_WINDOW {
            return Err(NetworkError::Layout(format!(
                "line window reach {reach} with flags {flags:#04x} (reach 1 to {MAX_WINDOW} \
                 with the window flag {FLAG_WINDOW:#04x}, else 0)"
            )));
        }
        let (shapes, row) = if reach > 0 {
            shape_rows(reach)
        } else {
            (0, Vec::new())
        };

        // The size first: a file cut short (or with something appended) says so, rather
        // than only that its checksum is wrong.
        let expected = HEADER_BYTES + tensor_bytes(channels, hidden, flags, shapes) + CRC_BYTES;
        if len < expected {
            return Err(NetworkError::Truncated { len, expected });
        }
        if len > expected {
            return Err(NetworkError::TrailingBytes { len, expected });
        }
        let (body, crc) = bytes.split_at(len - CRC_BYTES);
        if crc32fast::hash(body).to_le_bytes() != crc {
            return Err(NetworkError::Checksum);
        }
        if flags & !KNOWN_FLAGS != 0 {
            return Err(NetworkError::Layout(format!(
                "unknown flags {flags:#04x} (this build knows {KNOWN_FLAGS:#04x})"
            )));
        }
        if (u32::from(pool), usize::from(patterns), pcodes as usize)
            != (POOL_SHIFT, Pattern::COUNT, PCODE_COUNT)
        {
            return Err(NetworkError::Layout(format!(
                "pool shift {pool}, {patterns} patterns, {pcodes} pcodes; this build has \
                 {POOL_SHIFT}, {}, {PCODE_COUNT}",
                Pattern::COUNT
            )));
        }
        // Only a rule's own code (0, freestyle, in files from before the byte was read).
        let rule = Rule::ALL
            .into_iter()
            .find(|r| r.code() == u32::from(rule_code))
            .ok_or_else(|| {
                NetworkError::Layout(format!("rule code {rule_code} is not a rule's"))
            })?;
        if !(MIN_SIDE..=MAX_SIDE).contains(&side) {
            return Err(NetworkError::Layout(format!(
                "board side {side} (a board is {MIN_SIDE} to {MAX_SIDE} on a side)"
            )));
        }
        if vocab != vocabulary() {
            return Err(NetworkError::Vocabulary(vocab, vocabulary()));
        }
        let conv = flags & FLAG_CONV != 0;
        let cell = flags & FLAG_NO_CELL == 0;
        if !EMBED_SHIFTS.contains(&e) {
            return Err(NetworkError::Shift("e", e));
        }
        // `quant.from_bytes` reads c as 0 without the cell layer and d without the
        // convolution, whatever the bytes say.
        let c = if cell { c } else { 0 };
        let d = if conv { d } else { 0 };
        for (name, s) in [("c", c), ("v1", v1), ("v2", v2), ("p", p), ("d", d)] {
            if !LAYER_SHIFTS.contains(&s) {
                return Err(NetworkError::Shift(name, s));
            }
        }
        let shifts = Shifts {
            embed: u32::from(e),
            cell: u32::from(c),
            value1: u32::from(v1),
            value2: u32::from(v2),
            policy: u32::from(p),
            conv: u32::from(d),
        };

        let mut r = Cursor {
            bytes: &body[HEADER_BYTES..],
            len,
            expected,
        };
        let ch = channels;
        let pattern = r.i16s(2 * Pattern::COUNT * ch)?;
        let pcode = if flags & FLAG_PCODE != 0 {
            Some(r.i16s(2 * PCODE_COUNT * ch)?)
        } else {
            None
        };
        let shape_table = r.i16s(shapes * ch)?;
        let lines = (reach > 0).then(|| {
            let len = 2 * reach + 1;
            let mut other = vec![0; shapes];
            for (code, &r) in row.iter().enumerate() {
                if r != u16::MAX {
                    // Every window read by the other colour is a window too.
                    other[usize::from(r)] = row[swap_code(code, len)];
                }
            }
            Lines { reach, row, other }
        });
        let stone = r.i16s(3 * ch)?;
        let psqt = r.i32s(2 * PCODE_COUNT)?;
        let psqt_stone = r.i32s(3)?;
        let threat = r.i32s(THREAT_MASKS)?;
        let cell = if cell {
            Some(Layer {
                w: r.i8s(ch * ch)?,
                b: r.i32s(ch)?,
            })
        } else {
            None
        };
        let conv = if conv {
            Some(Layer {
                w: r.i8s(ch * 9)?,
                b: r.i32s(ch)?,
            })
        } else {
            None
        };
        let value1_w = r.i8s(hidden * ch)?;
        let value1_b = r.i32s(hidden)?;
        let value2_w = r.i8s(hidden)?;
        let value2_b = r.i32s(1)?;
        let policy_w = r.i8s(ch)?;
        let policy_b = r.i32s(1)?;
        // The size was checked against `tensor_bytes` before: the reads must agree with it.
        debug_assert!(r.bytes.is_empty(), "tensor_bytes disagrees with the reads");

        let mirror = flags & FLAG_MIRROR != 0;
        if mirror {
            if cell.is_some() || conv.is_some() {
                return Err(NetworkError::Layout(format!(
                    "flags {flags:#04x}: a mirrored network has no cell layer and no \
                     convolution"
                )));
            }
            if let Some(why) = mirror_error(
                &pattern,
                pcode.as_deref(),
                &stone,
                &shape_table,
                lines.as_ref(),
                ch,
            ) {
                return Err(NetworkError::Layout(format!(
                    "the mirrored network's tables are not mirrored ({why}); export it \
                     again"
                )));
            }
        }
        let bound = feature_bound(&pattern, pcode.as_deref(), &stone, &shape_table, ch);
        if bound > i64::from(i16::MAX) {
            return Err(NetworkError::FeatureSums(bound));
        }
        // Per role and pcode, the pattern table over its four lines (`quant.pcode_tables`):
        // within the bound, so within i16.
        let pcodes = Pcodes::get();
        let mut rows = vec![0i32; (SHAPE_ROWS + shapes) * ch];
        for role in 0..2 {
            for pc in 0..PCODE_COUNT {
                let row = &mut rows[(role * PCODE_COUNT + pc) * ch..][..ch];
                for pat in pcodes.patterns(pc as Pcode) {
                    let t = &pattern[(role * Pattern::COUNT + pat as usize) * ch..][..ch];
                    row.iter_mut().zip(t).for_each(|(x, &t)| *x += t);
                }
                if let Some(pcode) = &pcode {
                    let t = &pcode[(role * PCODE_COUNT + pc) * ch..][..ch];
                    row.iter_mut().zip(t).for_each(|(x, &t)| *x += t);
                }
            }
        }
        rows[STONE_ROWS * ch..SHAPE_ROWS * ch].copy_from_slice(&stone);
        rows[SHAPE_ROWS * ch..].copy_from_slice(&shape_table);
        let mut linear_rows = vec![0i32; SHAPE_ROWS + shapes];
        linear_rows[..STONE_ROWS].copy_from_slice(&psqt);
        linear_rows[STONE_ROWS..SHAPE_ROWS].copy_from_slice(&psqt_stone);

        let rows = rows.into_iter().map(|v| v as i16).collect();
        let net = Network {
            channels,
            hidden,
            pcode_table: pcode.is_some(),
            residual: flags & FLAG_RESIDUAL != 0,
            mirror,
            k,
            k_fixed: (f64::from(k) * 65536.0).round() as i64,
            baseline,
            rule,
            side,
            checksum: u32::from_le_bytes([crc[0], crc[1], crc[2], crc[3]]),
            shifts,
            rows,
            linear_rows,
            inputs: if reach > 0 { MAX_INPUTS } else { 3 },
            threat,
            cell,
            conv,
            lines,
            value1_w,
            value1_b,
            value2_w,
            value2_b: value2_b[0],
            policy_w,
            policy_b: policy_b[0],
        };
        net.check_range()?;
        Ok(net)
    }

    /// Refuses weights whose sums could leave i32 on some position of a board up to
    /// `MAX_SIDE` square: the reference checks every intermediate on the positions it
    /// computes, this checks once for all positions. The feature sums were bounded in i16
    /// before (`feature_bound`); each other sum is bounded by its bias plus its weights'
    /// magnitudes times the largest input.
    fn check_range(&self) -> Result<(), NetworkError> {
        let fits = |v: i64| v <= i64::from(i32::MAX);
        let act = i64::from(ACT_MAX);
        let ch = self.channels;
        // Each output's bias and its row of `n` weights.
        let rows_fit = |w: &[i32], b: &[i32], n: usize, input: i64| {
            (0..b.len()).all(|o| fits(bound(b[o], &w[o * n..][..n], input)))
        };
        if let Some(cell) = &self.cell
            && !rows_fit(&cell.w, &cell.b, ch, act)
        {
            return Err(NetworkError::Range("cell layer"));
        }
        if let Some(conv) = &self.conv
            && !rows_fit(&conv.w, &conv.b, 9, act)
        {
            return Err(NetworkError::Range("convolution"));
        }
        if !fits(bound(self.policy_b, &self.policy_w, act)) {
            return Err(NetworkError::Range("policy layer"));
        }
        // The pooled sum is at most MAX_CELLS * 127 per channel.
        if !rows_fit(&self.value1_w, &self.value1_b, ch, MAX_CELLS * act) {
            return Err(NetworkError::Range("value layer 1"));
        }
        let per_cell = max_abs(&self.linear_rows[OWN_PCODE_ROWS..OPP_PCODE_ROWS])
            + max_abs(&self.linear_rows[OPP_PCODE_ROWS..STONE_ROWS])
            + max_abs(&self.linear_rows[STONE_ROWS..SHAPE_ROWS]);
        let linear = MAX_CELLS * per_cell + max_abs(&self.threat);
        let mlp = bound(self.value2_b, &self.value2_w, act);
        if !fits(linear) || !fits(linear + mlp) {
            return Err(NetworkError::Range("value"));
        }
        Ok(())
    }

    /// Reads a network file.
    pub fn load(path: &Path) -> Result<Network, NetworkError> {
        let bytes =
            std::fs::read(path).map_err(|e| NetworkError::Io(path.display().to_string(), e))?;
        Network::from_bytes(&bytes)
    }

    /// C, the features per cell.
    #[must_use]
    pub fn channels(&self) -> usize {
        self.channels
    }

    /// H, the width of the value MLP.
    #[must_use]
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Whether the file has pcode tables (beside the pattern tables).
    #[must_use]
    pub fn has_pcode_table(&self) -> bool {
        self.pcode_table
    }

    /// Whether the per-cell layer is present.
    #[must_use]
    pub fn has_cell_layer(&self) -> bool {
        self.cell.is_some()
    }

    /// Whether the 3x3 convolution is present.
    #[must_use]
    pub fn has_conv(&self) -> bool {
        self.conv.is_some()
    }

    /// Whether the colours are mirrored (`FLAG_MIRROR`): the activations from white's view
    /// are black's with the halves of the channels swapped.
    #[must_use]
    pub fn mirrored(&self) -> bool {
        self.mirror
    }

    /// The line windows' reach, cells either way of a cell (0: no windows).
    #[must_use]
    pub fn window(&self) -> usize {
        self.lines.as_ref().map_or(0, |l| l.reach)
    }

    /// Whether the value is a correction to the baseline tables' evaluation / K.
    #[must_use]
    pub fn residual(&self) -> bool {
        self.residual
    }

    /// The CRC-32 the file ends with: equal checksums, equal networks.
    #[must_use]
    pub fn checksum(&self) -> u32 {
        self.checksum
    }

    /// The rule of the positions it was trained on: the rule it evaluates.
    #[must_use]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The side of the square board of the positions it was trained on: the board it
    /// evaluates. Its value sums the cells, so on another size it would sum more (or fewer)
    /// than it ever saw: NN5, trained on 15x15, lost 86 (−170, −12) Elo to the tables alone
    /// on 20x20 (docs/network.md, "The built-in network").
    #[must_use]
    pub fn side(&self) -> u8 {
        self.side
    }

    /// K: the evaluation units of one logit.
    #[must_use]
    pub fn k(&self) -> f32 {
        self.k
    }

    /// The id (the checksum its weights file carries) of the tables a residual network
    /// corrects.
    #[must_use]
    pub fn baseline(&self) -> u32 {
        self.baseline
    }

    /// The integer value is the win logit times this, `2^(v2 + 7)`.
    #[must_use]
    pub fn value_scale(&self) -> i32 {
        1 << (self.shifts.value2 + ACT_SHIFT)
    }

    /// An integer policy output is the move's logit times this, `2^(p + 7)`.
    #[must_use]
    pub fn policy_scale(&self) -> i32 {
        1 << (self.shifts.policy + ACT_SHIFT)
    }

    /// The outputs for the position of `pb` with `side` to move, computed from scratch:
    /// `quant.forward` for one position.
    pub fn evaluate(&self, pb: &PatternBoard, side: Color) -> Result<NetworkOutput, NetworkError> {
        let board = pb.board();
        let (width, height) = (board.width(), board.height());
        if width != height {
            return Err(NetworkError::NotSquare(width, height));
        }
        let n = usize::from(width);
        let ch = self.channels;

        // Per cell: its activations (a2, `[cell][channel]`) and its share of the linear
        // value.
        let mut a2 = vec![0i16; n * n * ch];
        let (mut x, mut a1) = (vec![0i16; ch], vec![0i16; ch]);
        let mut linear = 0;
        for i in pb.all_cells() {
            let p = pb.pos(i);
            let cell = usize::from(p.y) * n + usize::from(p.x);
            linear += self.cell(pb, i, side, (&mut x, &mut a1), &mut a2[cell * ch..][..ch]);
        }
        if let Some(conv) = &self.conv {
            a2 = self.convolve(conv, &a2, n);
        }
        let mut pooled = vec![0i32; ch];
        for cell in 0..n * n {
            simd::accumulate(&mut pooled, &a2[cell * ch..][..ch]);
        }
        let value = self.value(&pooled, linear + self.threat_entry(threat_mask(pb, side)));
        let policy = (0..n * n)
            .map(|cell| dot(&self.policy_w, &a2[cell * ch..][..ch]) + self.policy_b)
            .collect();
        Ok(NetworkOutput { value, policy })
    }

    /// Inputs a cell has: 3 (two pcodes and a stone), or 7 with line windows.
    pub(super) fn inputs(&self) -> usize {
        self.inputs
    }

    /// The feature rows of cell `i`'s inputs from each colour's view (indexed by
    /// [`Color`]); the first [`Network::inputs`] of each are used.
    pub(super) fn cell_rows(&self, pb: &PatternBoard, i: Idx) -> [CellRows; 2] {
        self.cell_rows_with(pb, i, &self.window_codes(pb, i))
    }

    /// Cell `i`'s line window codes, read from the board.
    pub(super) fn window_codes(&self, pb: &PatternBoard, i: Idx) -> WindowCodes {
        let Some(lines) = &self.lines else {
            return [0; 4];
        };
        std::array::from_fn(|dir| window_codes(pb, i, dir, lines.reach) as u32)
    }

    /// [`Network::cell_rows`] with the line windows given by their codes (the board's
    /// other inputs read from `pb`).
    pub(super) fn cell_rows_with(
        &self,
        pb: &PatternBoard,
        i: Idx,
        codes: &WindowCodes,
    ) -> [CellRows; 2] {
        let mut rows = [[0; MAX_INPUTS]; 2];
        // The exporter's codes: pcode 0 on a stone (the board keeps no info there), stones
        // 0 empty, 1 the mover's, 2 the opponent's.
        let pcode = pb.info(i).pcode;
        let stone = pb.stone_at(i);
        for side in Color::BOTH {
            let r = &mut rows[side as usize];
            r[0] = (OWN_PCODE_ROWS + usize::from(pcode[side as usize])) as u16;
            r[1] = (OPP_PCODE_ROWS + usize::from(pcode[side.opponent() as usize])) as u16;
            r[2] = (STONE_ROWS
                + match stone {
                    None => 0,
                    Some(c) if c == side => 1,
                    Some(_) => 2,
                }) as u16;
        }
        if let Some(lines) = &self.lines {
            for (dir, &code) in codes.iter().enumerate() {
                let black = lines.row[code as usize];
                let white = lines.other[usize::from(black)];
                // Shape rows end below 2,005 + 22,143: they fit u16.
                rows[Color::Black as usize][3 + dir] = (SHAPE_ROWS + usize::from(black)) as u16;
                rows[Color::White as usize][3 + dir] = (SHAPE_ROWS + usize::from(white)) as u16;
            }
        }
        rows
    }

    /// Row `r` of the feature rows.
    #[inline]
    pub(super) fn row(&self, r: u16) -> &[i16] {
        &self.rows[usize::from(r) * self.channels..][..self.channels]
    }

    /// The linear value that row `r` adds.
    #[inline]
    pub(super) fn linear_row(&self, r: u16) -> i32 {
        self.linear_rows[usize::from(r)]
    }

    /// A cell's feature sum: its rows summed into `x` (C values). The loader's bound keeps
    /// it in i16.
    pub(super) fn feature_sum(&self, rows: &CellRows, x: &mut [i16]) {
        x.fill(0);
        for &r in &rows[..self.inputs] {
            simd::add_row(x, self.row(r));
        }
    }

    /// A cell's activations (after the cell layer when there is one) from its feature sum
    /// `x` into `out`, using `a1` (C values) as scratch.
    #[inline(always)]
    pub(super) fn activate(&self, x: &[i16], a1: &mut [i16], out: &mut [i16]) {
        let embed = self.shifts.embed - ACT_SHIFT;
        match &self.cell {
            Some(layer) => {
                let ch = self.channels;
                simd::activate(x, embed, a1);
                for (o, a) in out.iter_mut().enumerate() {
                    let y = dot(&layer.w[o * ch..][..ch], a1) + layer.b[o];
                    *a = activation(y, self.shifts.cell);
                }
            }
            None => simd::activate(x, embed, out),
        }
    }

    /// Cell `i`'s activations from `side`'s view into `out` (C values: after the cell
    /// layer, before the convolution), using `x` and `a1` (C values each) as scratch;
    /// returns the cell's share of the linear value.
    fn cell(
        &self,
        pb: &PatternBoard,
        i: Idx,
        side: Color,
        (x, a1): (&mut [i16], &mut [i16]),
        out: &mut [i16],
    ) -> i32 {
        let rows = self.cell_rows(pb, i)[side as usize];
        self.feature_sum(&rows, x);
        self.activate(x, a1, out);
        self.linear_share(&rows)
    }

    /// A cell's share of the linear value: the linear values of its rows.
    pub(super) fn linear_share(&self, rows: &CellRows) -> i32 {
        rows[..self.inputs]
            .iter()
            .map(|&r| self.linear_row(r))
            .sum()
    }

    /// An integer value in evaluation units: the win logit times K, `value * K /
    /// value_scale`, floored.
    #[must_use]
    pub fn to_eval(&self, value: i32) -> i32 {
        // An integer product, the same on every machine.
        let scale = i64::from(self.value_scale()) << 16;
        let e = (i64::from(value) * self.k_fixed).div_euclid(scale);
        e.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }

    /// The linear value's threat table entry for a [`threat_mask`].
    pub(super) fn threat_entry(&self, mask: usize) -> i32 {
        self.threat[mask]
    }

    /// The value from the pooled activations (C sums over the cells) and the linear part
    /// (the cells' shares and the threat table's entry). Inlined so that the incremental
    /// state's AVX2 path compiles it with AVX2 ([`simd`]).
    #[inline(always)]
    pub(super) fn value(&self, pooled: &[i32], linear: i32) -> i32 {
        // The slice's length, not the field: a caller that knows the count as a constant
        // gets the dot products compiled for it.
        let ch = pooled.len();
        debug_assert_eq!(ch, self.channels);
        let shift1 = self.shifts.value1 + POOL_SHIFT;
        let mlp = (0..self.hidden)
            .map(|h| {
                let z = dot(&self.value1_w[h * ch..][..ch], pooled) + self.value1_b[h];
                self.value2_w[h] * i32::from(activation(z, shift1))
            })
            .sum::<i32>();
        linear + mlp + self.value2_b
    }

    /// The 3x3 depthwise convolution of the cells' activations (`[cell][channel]` of an
    /// `n` x `n` board), cells off the board counting as 0 (`quant._conv`).
    fn convolve(&self, conv: &Layer, a: &[i16], n: usize) -> Vec<i16> {
        let ch = self.channels;
        let mut out = vec![0i16; a.len()];
        for y in 0..n {
            for x in 0..n {
                let o = &mut out[(y * n + x) * ch..][..ch];
                for (k, v) in o.iter_mut().enumerate() {
                    let w = &conv.w[k * 9..][..9];
                    let mut sum = conv.b[k];
                    for dy in 0..3 {
                        for dx in 0..3 {
                            // The neighbour (x + dx - 1, y + dy - 1), when on the board.
                            let (Some(yy), Some(xx)) =
                                ((y + dy).checked_sub(1), (x + dx).checked_sub(1))
                            else {
                                continue;
                            };
                            if yy < n && xx < n {
                                sum += w[dy * 3 + dx] * i32::from(a[(yy * n + xx) * ch + k]);
                            }
                        }
                    }
                    *v = activation(sum, self.shifts.conv);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::eval::fixtures::resealed;
    use crate::rules::Rule;

    /// A network file's tensors, in file order, to write test files with.
    struct Spec {
        channels: u16,
        hidden: u16,
        flags: u8,
        shifts: [u8; 6],
        threat: Vec<i32>,
        value2_b: i32,
        policy_b: i32,
        /// Every stone-table entry (a constant, so that the test can predict the outputs).
        stone: i16,
        cell_b: i32,
    }

    impl Spec {
        fn new(flags: u8) -> Spec {
            Spec {
                channels: 2,
                hidden: 3,
                flags,
                shifts: [8, 1, 2, 3, 4, 5],
                threat: vec![0; THREAT_MASKS],
                value2_b: 0,
                policy_b: 0,
                stone: 0,
                cell_b: 0,
            }
        }

        fn to_bytes(&self) -> Vec<u8> {
            let (c, h) = (usize::from(self.channels), usize::from(self.hidden));
            let mut b = Vec::new();
            b.extend_from_slice(&MAGIC);
            b.extend_from_slice(&VERSION.to_le_bytes());
            b.extend_from_slice(&self.channels.to_le_bytes());
            b.extend_from_slice(&self.hidden.to_le_bytes());
            b.extend_from_slice(&[self.flags, POOL_SHIFT as u8, Pattern::COUNT as u8, 0]);
            b.extend_from_slice(&(PCODE_COUNT as u32).to_le_bytes());
            b.extend_from_slice(&vocabulary().to_le_bytes());
            b.extend_from_slice(&517.3f32.to_le_bytes());
            b.extend_from_slice(&self.shifts);
            b.extend_from_slice(&[0, 0]);
            b.extend_from_slice(&0x2144_df1cu32.to_le_bytes());
            assert_eq!(b.len(), HEADER_BYTES);
            let zeros = |b: &mut Vec<u8>, n: usize| b.extend(std::iter::repeat_n(0u8, n));
            zeros(&mut b, 2 * Pattern::COUNT * c * 2);
            if self.flags & FLAG_PCODE != 0 {
                zeros(&mut b, 2 * PCODE_COUNT * c * 2);
            }
            for _ in 0..3 * c {
                b.extend_from_slice(&self.stone.to_le_bytes());
            }
            zeros(&mut b, (2 * PCODE_COUNT + 3) * 4);
            b.extend(self.threat.iter().flat_map(|v| v.to_le_bytes()));
            if self.flags & FLAG_NO_CELL == 0 {
                // The cell layer passes channel 0 through (weight 1 at scale 2^c = 2).
                let mut cell_w = vec![0u8; c * c];
                cell_w[0] = 2;
                b.extend_from_slice(&cell_w);
                for _ in 0..c {
                    b.extend_from_slice(&self.cell_b.to_le_bytes());
                }
            }
            if self.flags & FLAG_CONV != 0 {
                zeros(&mut b, c * 9 + c * 4);
            }
            zeros(&mut b, h * c + h * 4 + h);
            b.extend_from_slice(&self.value2_b.to_le_bytes());
            // The policy reads channel 0 with weight 1.
            let mut policy_w = vec![0u8; c];
            policy_w[0] = 1;
            b.extend_from_slice(&policy_w);
            b.extend_from_slice(&self.policy_b.to_le_bytes());
            let crc = crc32fast::hash(&b);
            b.extend_from_slice(&crc.to_le_bytes());
            b
        }
    }

    fn board() -> Board {
        Board::with_stones(15, 15, &[(7, 7), (8, 8)], &[(7, 8)]).unwrap()
    }

    #[test]
    fn the_header_facts_read_back() {
        let net = Network::from_bytes(&Spec::new(FLAG_PCODE | FLAG_RESIDUAL).to_bytes()).unwrap();
        assert_eq!((net.channels(), net.hidden()), (2, 3));
        assert!(net.residual() && net.has_pcode_table() && !net.has_conv());
        assert_eq!(net.k(), 517.3);
        assert_eq!(net.baseline(), 0x2144_df1c);
        assert_eq!(net.value_scale(), 1 << (3 + 7));
        assert_eq!(net.policy_scale(), 1 << (4 + 7));
        let conv = Network::from_bytes(&Spec::new(FLAG_CONV).to_bytes()).unwrap();
        assert!(conv.has_conv() && !conv.residual() && !conv.has_pcode_table());
    }

    /// A network whose outputs are known by hand: the value is the threat table's entry
    /// for the position's mask plus the last bias, and each cell's policy is its channel 0
    /// after the shifts: the stone table's constant 100 at scale 2^8 is 50 at 2^7, the
    /// cell layer doubles it and shifts it back, and the policy bias is added.
    #[test]
    fn a_hand_made_network_gives_the_expected_integers() {
        let mut spec = Spec::new(0);
        spec.stone = 100;
        spec.value2_b = 7;
        spec.policy_b = -3;
        spec.threat = (0..THREAT_MASKS as i32).map(|m| 1000 + m).collect();
        let net = Network::from_bytes(&spec.to_bytes()).unwrap();
        let pb = PatternBoard::new(&board(), Rule::Freestyle);
        for side in Color::BOTH {
            let out = net.evaluate(&pb, side).unwrap();
            assert_eq!(out.value, 1000 + threat_mask(&pb, side) as i32 + 7);
            assert_eq!(out.policy, vec![50 - 3; 225]);
        }
        // Without the cell layer channel 0 reaches the policy as it is: the same outputs.
        let mut bare = Spec::new(FLAG_NO_CELL);
        (bare.stone, bare.value2_b, bare.policy_b) = (100, 7, -3);
        bare.threat.clone_from(&spec.threat);
        let net = Network::from_bytes(&bare.to_bytes()).unwrap();
        assert!(!net.has_cell_layer());
        assert_eq!(
            net.evaluate(&pb, Color::Black).unwrap().policy,
            vec![50 - 3; 225]
        );
        // A negative feature floors and clamps to 0: the policy is the bias alone.
        spec.stone = -100;
        let net = Network::from_bytes(&spec.to_bytes()).unwrap();
        let out = net.evaluate(&pb, Color::White).unwrap();
        assert_eq!(out.policy, vec![-3; 225]);
    }

    #[test]
    fn a_rectangular_board_is_refused() {
        let net = Network::from_bytes(&Spec::new(FLAG_CONV).to_bytes()).unwrap();
        let pb = PatternBoard::new(&Board::new(15, 13).unwrap(), Rule::Freestyle);
        let e = net.evaluate(&pb, Color::Black).unwrap_err();
        assert!(matches!(e, NetworkError::NotSquare(15, 13)), "{e}");
        assert!(e.to_string().contains("square boards only"));
    }

    #[test]
    fn a_damaged_file_is_refused_by_its_checksum() {
        let good = Spec::new(FLAG_PCODE | FLAG_CONV).to_bytes();
        for at in [20, 30, 100, good.len() / 2, good.len() - 1] {
            let mut bad = good.clone();
            bad[at] ^= 0x10;
            let e = Network::from_bytes(&bad).unwrap_err();
            assert!(matches!(e, NetworkError::Checksum), "byte {at}: {e}");
        }
        let e = Network::from_bytes(&{
            let mut b = good.clone();
            b[200] ^= 1;
            b
        })
        .unwrap_err();
        assert!(e.to_string().contains("damaged"), "{e}");
    }

    #[test]
    fn a_cut_short_or_extended_file_is_refused_with_its_sizes() {
        let good = Spec::new(FLAG_PCODE).to_bytes();
        let n = good.len();
        for cut in [n - 1, n - 4, n / 2, HEADER_BYTES + 4, 20] {
            let e = Network::from_bytes(&good[..cut]).unwrap_err();
            assert!(
                matches!(e, NetworkError::Truncated { len, .. } if len == cut),
                "{cut}: {e}"
            );
            assert!(e.to_string().contains("cut short"));
        }
        let mut long = good.clone();
        long.extend_from_slice(&[0; 3]);
        let e = Network::from_bytes(&long).unwrap_err();
        assert!(matches!(e, NetworkError::TrailingBytes { .. }), "{e}");
        assert!(e.to_string().contains("3 bytes after"), "{e}");
        // The same file with its flags saying "no pcode tables" is too long by them.
        let mut flags = good;
        flags[16] = 0;
        assert!(matches!(
            Network::from_bytes(&resealed(flags)),
            Err(NetworkError::TrailingBytes { .. })
        ));
    }

    #[test]
    fn other_files_versions_and_layouts_are_refused_with_the_reason() {
        let good = Spec::new(FLAG_PCODE).to_bytes();
        let refuse = |b: Vec<u8>| Network::from_bytes(&b).unwrap_err();
        assert!(matches!(
            refuse(b"HOSHIEVL and more".to_vec()),
            NetworkError::BadMagic
        ));
        assert!(matches!(refuse(b"HOSH".to_vec()), NetworkError::BadMagic));
        let mut magic = good.clone();
        magic[0] = b'h';
        assert!(matches!(refuse(magic), NetworkError::BadMagic));
        let mut version = good.clone();
        version[8] = 2;
        assert!(matches!(refuse(version), NetworkError::Version(2)));
        let edit = |at: usize, v: u8| {
            let mut b = good.clone();
            b[at] = v;
            resealed(b)
        };
        let vocab = refuse(edit(24, good[24] ^ 0xff));
        assert!(matches!(vocab, NetworkError::Vocabulary(..)), "{vocab}");
        assert!(vocab.to_string().contains("train it again"));
        assert!(matches!(refuse(edit(17, 4)), NetworkError::Layout(_)));
        assert!(matches!(refuse(edit(18, 12)), NetworkError::Layout(_)));
        assert!(matches!(refuse(edit(20, 0xe8)), NetworkError::Layout(_)));
        assert!(matches!(
            refuse(edit(16, FLAG_PCODE | 32)),
            NetworkError::Layout(_)
        ));
        // A window reach without the flag, the flag without a reach, a reach beyond 4.
        for (at, v) in [(19, 2), (16, FLAG_PCODE | FLAG_WINDOW)] {
            let e = refuse(edit(at, v));
            assert!(e.to_string().contains("line window reach"), "{e}");
        }
        let mut far = edit(16, FLAG_PCODE | FLAG_WINDOW);
        far[19] = 5;
        assert!(matches!(refuse(resealed(far)), NetworkError::Layout(_)));
        let rule = refuse(edit(38, 2));
        assert!(rule.to_string().contains("rule code 2"), "{rule}");
        assert_eq!(
            Network::from_bytes(&edit(38, 4)).unwrap().rule(),
            Rule::Renju
        );
        // The board side: 0 (files from before it was recorded) reads as 15.
        for side in [4, 33] {
            let e = refuse(edit(39, side));
            assert!(e.to_string().contains(&format!("board side {side}")), "{e}");
        }
        for (byte, side) in [(0, 15), (20, 20), (5, 5), (32, 32)] {
            assert_eq!(Network::from_bytes(&edit(39, byte)).unwrap().side(), side);
        }
        assert!(matches!(refuse(edit(32, 6)), NetworkError::Shift("e", 6)));
        assert!(matches!(refuse(edit(33, 15)), NetworkError::Shift("c", 15)));
        // Without the convolution its shift is not read (as `quant.from_bytes`).
        assert!(Network::from_bytes(&edit(37, 200)).is_ok());
    }

    /// A mirrored file is read only when its tables are mirrored, and without a cell layer
    /// or an odd number of channels; the fixture's shape table is checked shape by shape.
    #[test]
    fn a_mirrored_network_must_mirror_its_tables() {
        let spec = Spec::new(FLAG_NO_CELL | FLAG_MIRROR);
        assert!(Network::from_bytes(&spec.to_bytes()).unwrap().mirrored());
        assert!(
            !Network::from_bytes(&Spec::new(FLAG_NO_CELL).to_bytes())
                .unwrap()
                .mirrored()
        );
        let refused = |b: &[u8]| Network::from_bytes(b).unwrap_err().to_string();
        let mut broken = spec.to_bytes();
        // Own pattern 0, channel 0; the opponent's row stays 0.
        broken[HEADER_BYTES] = 1;
        assert!(refused(&resealed(broken)).contains("not mirrored (the pattern table)"));
        let odd = Spec {
            channels: 3,
            ..Spec::new(FLAG_NO_CELL | FLAG_MIRROR)
        };
        assert!(refused(&odd.to_bytes()).contains("odd number of channels"));
        assert!(refused(&Spec::new(FLAG_MIRROR).to_bytes()).contains("no cell layer"));

        let fixture = include_bytes!("../../../tools/tests/data/network/m8.hnn");
        let net = Network::from_bytes(fixture).unwrap();
        assert!(net.mirrored() && net.window() == 2);
        let (ch, tables) = (8, 2 * (Pattern::COUNT + PCODE_COUNT));
        // The second shape's channel 0 (the first is the empty window, its own mirror
        // image, whose channel 4 would change with it).
        let at = HEADER_BYTES + (tables + 1) * ch * 2;
        let mut broken = fixture.to_vec();
        broken[at] ^= 1;
        assert!(refused(&resealed(broken)).contains("not mirrored (the shape table)"));
    }

    /// Weights whose sums could overflow on some board are refused at load, so that
    /// `evaluate` never can.
    #[test]
    fn weights_that_could_overflow_are_refused() {
        // A threat entry of i32::MAX alone fits; with the last bias on top it could not.
        let mut spec = Spec::new(0);
        spec.threat[5] = i32::MAX;
        assert!(Network::from_bytes(&spec.to_bytes()).is_ok());
        spec.value2_b = 1;
        assert!(matches!(
            Network::from_bytes(&spec.to_bytes()),
            Err(NetworkError::Range("value"))
        ));
        let mut spec = Spec::new(0);
        spec.cell_b = i32::MAX - 100;
        let e = Network::from_bytes(&spec.to_bytes()).unwrap_err();
        assert!(matches!(e, NetworkError::Range("cell layer")), "{e}");
        assert!(e.to_string().contains("overflow"));
        // Just inside: the bias plus one weight of 2 at 127.
        spec.cell_b = i32::MAX - 2 * 127;
        assert!(Network::from_bytes(&spec.to_bytes()).is_ok());
    }

    /// A cell adds four own pattern rows and a stone row (among others): their largest
    /// values, four times and once, must stay within i16 in each channel.
    #[test]
    fn feature_tables_that_could_sum_past_i16_are_refused() {
        let with = |stone: i16| {
            let mut spec = Spec::new(0);
            spec.stone = stone;
            let mut b = spec.to_bytes();
            // Own pattern 0, channel 1 (the tables are `[row][channel]`).
            let at = HEADER_BYTES + 2;
            b[at..at + 2].copy_from_slice(&(-8000i16).to_le_bytes());
            Network::from_bytes(&resealed(b))
        };
        assert!(with(767).is_ok());
        let e = with(768).unwrap_err();
        assert!(matches!(e, NetworkError::FeatureSums(32768)), "{e}");
        assert!(e.to_string().contains("export it again"));
    }

    /// The enumeration is `model.shape_codes`' (its test checks the counts against what
    /// boards show): 30, 273, 2460 and 22,143 shapes; every window's row is its reverse's.
    #[test]
    fn the_shape_rows_are_the_trainers() {
        for (reach, count) in [(1, 30), (2, 273), (3, 2460), (4, 22_143)] {
            let (shapes, row) = shape_rows(reach);
            assert_eq!(shapes, count, "reach {reach}");
            for (f, b) in windows(reach) {
                assert_eq!(row[f as usize], row[b as usize]);
                assert!(usize::from(row[f as usize]) < shapes);
            }
        }
    }

    /// A blocked cell stops a line as the edge does: the cells from it outwards read as off
    /// the board, and a blocked cell's own windows have an empty centre — so every code
    /// has a row and a board with blocked cells evaluates.
    #[test]
    fn a_blocked_cell_reads_as_the_edge() {
        let mut b = Board::with_stones(15, 15, &[(6, 7)], &[(8, 7)]).unwrap();
        b.block(crate::board::Pos::new(3, 7)).unwrap();
        let pb = PatternBoard::new(&b, Rule::Freestyle);
        let at = |x, y| pb.idx(crate::board::Pos::new(x, y));
        let digits = |d: [usize; 9]| d.iter().fold(0, |code, &c| code * 4 + c);
        // The row through (5, 7): (1..=9, 7); (1, 7) and (2, 7) lie past the blocked (3, 7).
        let code = window_codes(&pb, at(5, 7), 0, 4);
        assert_eq!(code, digits([3, 3, 3, 0, 0, 1, 0, 2, 0]));
        assert_eq!(swap_code(code, 9), digits([3, 3, 3, 0, 0, 2, 0, 1, 0]));
        // The blocked cell's own row, (-1..=7, 7): the edge, then its centre read as empty.
        assert_eq!(
            window_codes(&pb, at(3, 7), 0, 4),
            digits([3, 0, 0, 0, 0, 0, 0, 1, 0])
        );
        let (_, row) = shape_rows(4);
        for i in pb.all_cells() {
            for dir in 0..4 {
                let code = window_codes(&pb, i, dir, 4);
                assert_ne!(row[code], u16::MAX);
                assert_ne!(row[swap_code(code, 9)], u16::MAX);
            }
        }
    }

    #[test]
    fn a_missing_file_names_its_path() {
        let e = Network::load(Path::new("/nonexistent/x.hnn")).unwrap_err();
        assert!(e.to_string().contains("/nonexistent/x.hnn"), "{e}");
    }
}
