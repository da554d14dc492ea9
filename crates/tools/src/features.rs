//! `pbrain-hoshi features`: the training positions of self-play games, exported for the
//! network trainer (`nn/`) as fixed-size records that numpy maps straight into arrays.
//!
//! The positions are exactly those `train` fits: every searched position that
//! [`is_quiet`] keeps, replayed by [`dataset`], with the same held-out games for the same
//! seed and fraction. Each record holds the engine's own view of the position — per
//! colour, cell and direction the line [`Pattern`] the pattern board keeps, per colour and
//! cell the pcode, the stones, the legal and candidate cells — and its labels: the search
//! score, the game's result, the move played. The threat mask the tables index their threat
//! table by comes too, and the current evaluation's value and move prior, so that the
//! trainer measures the tables on the very positions and targets it measures a network on.
//! Pattern classification stays here, in the engine: the trainer reads codes, never lines
//! of stones.
//!
//! The file (docs/network.md has the same table), all integers little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `HOSHIFTS` |
//! | 4 | version, 1 |
//! | 4 | header bytes, 64 |
//! | 4 | record bytes, `24 + 17 * cells` |
//! | 1 | board side N (cells = N * N, row-major: cell `y * N + x`) |
//! | 1 | pattern count, 11 ([`Pattern`] codes 0..=10) |
//! | 2 | zero |
//! | 4 | pcode vocabulary: [`hoshi::eval::model::vocabulary`], as in the weights file |
//! | 4 | the baseline tables' id: [`Evaluator::tables_id`] of the positions' rule, which a residual network names |
//! | 8 | position count |
//! | 4 | game count (of the inputs, skipped games included) |
//! | 4 | held-out fraction, in millionths |
//! | 8 | the split's seed |
//! | 4 | zero |
//! | 4 | CRC-32 of the 60 bytes before |
//!
//! Record, at `64 + i * record bytes`:
//!
//! | offset | type | field |
//! |---|---|---|
//! | 0 | u32 | game: its index among all the inputs' games, in order |
//! | 4 | u16 | ply: stones on the board |
//! | 6 | u16 | move played, as a cell |
//! | 8 | u8 | rule code (`INFO rule`) |
//! | 9 | u8 | side to move: 0 black, 1 white |
//! | 10 | u8 | the game's result for the side to move: 0 lost, 1 drawn, 2 won |
//! | 11 | u8 | score kind: 0 an evaluation, 1 a win in `score` plies, 2 a loss in `score` plies |
//! | 12 | i32 | the mover's search score |
//! | 16 | i32 | the baseline evaluation for the side to move (`Evaluator::evaluate`) |
//! | 20 | u16 | flags: bit 0, the game is held out |
//! | 22 | u16 | the threat mask for the side to move ([`threat_mask`], 11 bits: the tables' threat-table index) |
//! | 24 | i32 × cells | the baseline move prior for the mover on each legal cell, 0 elsewhere |
//! | 24 + 4 cells | u16 × 2 × cells | pcode per colour (black, white) and cell; 0 on stones |
//! | 24 + 8 cells | u8 × 2 × 4 × cells | pattern per colour, direction ([`Dir::ALL`]: x, y, diagonal, anti-diagonal) and cell; dead (0) on stones |
//! | 24 + 16 cells | u8 × cells | cell: bits 0-1 the stone (0 none, 1 black, 2 white), bit 2 legal for the mover, bit 3 a candidate of the search |
//!
//! The file is written under a temporary name and renamed when complete, so a file with
//! this name always holds every position its header counts.

use std::fmt;
use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use clap::Args;

use hoshi::board::{Color, Dir, Pos};
use hoshi::eval::features::{Features, is_quiet};
use hoshi::eval::model::vocabulary;
use hoshi::eval::{Evaluator, Model, threat_mask};
use hoshi::pattern::{Pattern, PatternBoard};
use hoshi::rules::Rule;

use super::dataset::{self, Refusal, UnreadableInput};
use super::selfplay::Score;
use super::train::init_model;

pub const MAGIC: [u8; 8] = *b"HOSHIFTS";
pub const VERSION: u32 = 1;
pub const HEADER_BYTES: usize = 64;
/// A record's bytes before its per-cell arrays.
pub const FIXED_BYTES: usize = 24;
/// Bytes per cell of a record: prior (4), two pcodes (4), eight patterns (8), the cell (1).
pub const CELL_BYTES: usize = 17;
/// Bit of a record's flags: the game is held out.
pub const FLAG_HELD_OUT: u16 = 1;
/// Bits of a record's cell byte.
pub const CELL_LEGAL: u8 = 1 << 2;
pub const CELL_CANDIDATE: u8 = 1 << 3;

/// Options of `pbrain-hoshi features` (the global --seed seeds the split, as for `train`).
#[derive(Debug, Args)]
pub struct FeaturesArgs {
    /// Game files written by `datagen`, all of one board size.
    #[arg(value_name = "GAMES", required = true)]
    pub inputs: Vec<PathBuf>,
    /// The position file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// The tables whose evaluation and move prior are exported as the baseline:
    /// `builtin`, `handset`, or a weights file.
    #[arg(long, value_name = "WEIGHTS", default_value = "builtin")]
    pub baseline: String,
    /// Fraction of the games held out for validation (as `train --val`).
    #[arg(long, value_name = "FRACTION", default_value_t = 0.1)]
    pub val: f64,
}

/// Why `features` failed.
#[derive(Debug)]
pub enum ExportError {
    /// `--val` out of range.
    Fraction(f64),
    /// An input could not be read.
    Input(UnreadableInput),
    /// The `--baseline` tables could not be loaded (the loader's message).
    Baseline(String),
    /// The inputs mix board sizes: a file's records have one size.
    MixedSizes { first: u8, other: u8 },
    /// The inputs mix rules: a file's positions have one baseline, one rule's tables.
    MixedRules { first: Rule, other: Rule },
    /// No input game has a quiet position.
    NoPositions,
    /// More games than a record's game field counts.
    TooManyGames,
    /// Writing the output failed.
    Write(PathBuf, io::Error),
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::Fraction(v) => {
                write!(f, "--val {v} must be within 0..1 (1 excluded)")
            }
            ExportError::Input(e) => e.fmt(f),
            ExportError::Baseline(e) => e.fmt(f),
            ExportError::MixedSizes { first, other } => write!(
                f,
                "the inputs mix board sizes ({first}x{first}, then {other}x{other}); \
                 export each size to its own file"
            ),
            ExportError::MixedRules { first, other } => write!(
                f,
                "the inputs mix rules ({first}, then {other}); export each rule to its own file"
            ),
            ExportError::NoPositions => {
                f.write_str("the inputs have no quiet position: nothing to export")
            }
            ExportError::TooManyGames => f.write_str("more than 2^32 input games"),
            ExportError::Write(path, e) => write!(f, "cannot write {}: {e}", path.display()),
        }
    }
}

impl std::error::Error for ExportError {}

impl From<UnreadableInput> for ExportError {
    fn from(e: UnreadableInput) -> Self {
        ExportError::Input(e)
    }
}

/// What a position file holds, from its header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileHeader {
    pub side: u8,
    pub vocabulary: u32,
    /// The baseline tables' id ([`Evaluator::tables_id`] of the positions' rule).
    pub baseline: u32,
    pub positions: u64,
    pub games: u32,
    /// The held-out fraction, in millionths.
    pub held_out_ppm: u32,
    pub seed: u64,
}

impl FileHeader {
    #[must_use]
    pub fn cells(&self) -> usize {
        usize::from(self.side) * usize::from(self.side)
    }

    #[must_use]
    pub fn record_bytes(&self) -> usize {
        FIXED_BYTES + CELL_BYTES * self.cells()
    }

    #[must_use]
    pub fn to_bytes(&self) -> [u8; HEADER_BYTES] {
        let mut b = [0u8; HEADER_BYTES];
        b[..8].copy_from_slice(&MAGIC);
        b[8..12].copy_from_slice(&VERSION.to_le_bytes());
        b[12..16].copy_from_slice(&(HEADER_BYTES as u32).to_le_bytes());
        b[16..20].copy_from_slice(&(self.record_bytes() as u32).to_le_bytes());
        b[20] = self.side;
        b[21] = Pattern::COUNT as u8;
        b[24..28].copy_from_slice(&self.vocabulary.to_le_bytes());
        b[28..32].copy_from_slice(&self.baseline.to_le_bytes());
        b[32..40].copy_from_slice(&self.positions.to_le_bytes());
        b[40..44].copy_from_slice(&self.games.to_le_bytes());
        b[44..48].copy_from_slice(&self.held_out_ppm.to_le_bytes());
        b[48..56].copy_from_slice(&self.seed.to_le_bytes());
        let crc = crc32fast::hash(&b[..60]);
        b[60..].copy_from_slice(&crc.to_le_bytes());
        b
    }

    /// The header of a position file written by this build, or why it is not one.
    pub fn from_bytes(b: &[u8]) -> Result<FileHeader, String> {
        if b.len() < HEADER_BYTES || b[..8] != MAGIC {
            return Err("not a Hoshi position file (bad magic)".into());
        }
        let u32_at = |i: usize| u32::from_le_bytes(std::array::from_fn(|k| b[i + k]));
        let u64_at = |i: usize| u64::from_le_bytes(std::array::from_fn(|k| b[i + k]));
        if u32_at(8) != VERSION {
            return Err(format!(
                "position file version {} is not supported (this build reads {VERSION})",
                u32_at(8)
            ));
        }
        if crc32fast::hash(&b[..60]) != u32_at(60) {
            return Err("the position file's header is damaged (checksum mismatch)".into());
        }
        let h = FileHeader {
            side: b[20],
            vocabulary: u32_at(24),
            baseline: u32_at(28),
            positions: u64_at(32),
            games: u32_at(40),
            held_out_ppm: u32_at(44),
            seed: u64_at(48),
        };
        if u32_at(16) as usize != h.record_bytes() || usize::from(b[21]) != Pattern::COUNT {
            return Err("the position file's layout is not this build's".into());
        }
        Ok(h)
    }
}

/// One exported position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub game: u32,
    pub ply: u16,
    /// The move played, as a cell.
    pub played: u16,
    pub rule: Rule,
    pub side: Color,
    /// The game's result for the mover: 0 lost, 1 drawn, 2 won.
    pub result: u8,
    pub score: Score,
    /// The baseline evaluation for the mover.
    pub eval: i32,
    pub held_out: bool,
    /// [`threat_mask`] for the mover.
    pub mask: u16,
    /// Per cell: the baseline prior for the mover on legal cells, 0 elsewhere.
    pub prior: Vec<i32>,
    /// `[colour][cell]`.
    pub pcode: [Vec<u16>; 2],
    /// `[colour][direction][cell]`, [`Pattern`] codes.
    pub pats: [[Vec<u8>; 4]; 2],
    /// Per cell: stone, legal and candidate bits.
    pub cells: Vec<u8>,
}

impl Record {
    /// The record of the position of `pb` with `side` to move, which played `played` and
    /// scored it `score`, under the baseline `eval` (whose tables `model` holds).
    #[must_use]
    pub fn of(
        pb: &PatternBoard,
        side: Color,
        played: Pos,
        score: Score,
        result: f64,
        baseline: (&Model, &Evaluator),
    ) -> Record {
        let n = usize::from(pb.board().width());
        let cells = n * usize::from(pb.board().height());
        let cell = |p: Pos| usize::from(p.y) * n + usize::from(p.x);
        let (model, eval) = baseline;
        let policy = eval.policy(pb.rule());
        let mut r = Record {
            game: 0,
            ply: pb.board().history().len() as u16,
            played: cell(played) as u16,
            rule: pb.rule(),
            side,
            // Results are 0, 0.5 and 1.
            result: (result * 2.0).round() as u8,
            score,
            eval: Features::of(pb, side).value(model.tables(pb.rule())),
            held_out: false,
            mask: threat_mask(pb, side) as u16,
            prior: vec![0; cells],
            pcode: [vec![0; cells], vec![0; cells]],
            pats: std::array::from_fn(|_| std::array::from_fn(|_| vec![0; cells])),
            cells: vec![0; cells],
        };
        for i in pb.all_cells() {
            let c = cell(pb.pos(i));
            let info = pb.info(i);
            let legal = pb.is_legal(i, side);
            if legal {
                r.prior[c] = policy.score(info, side);
            }
            for colour in 0..2 {
                r.pcode[colour][c] = info.pcode[colour];
                for d in 0..Dir::ALL.len() {
                    r.pats[colour][d][c] = info.pats[colour][d] as u8;
                }
            }
            let stone = match pb.stone_at(i) {
                None => 0,
                Some(Color::Black) => 1,
                Some(Color::White) => 2,
            };
            r.cells[c] = stone
                | if legal { CELL_LEGAL } else { 0 }
                | if pb.is_candidate(i) {
                    CELL_CANDIDATE
                } else {
                    0
                };
        }
        r
    }

    /// The record's bytes, [`FileHeader::record_bytes`] of them.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let (kind, score) = match self.score {
            Score::Eval(v) => (0u8, v),
            Score::Win(n) => (1, i32::from(n)),
            Score::Loss(n) => (2, i32::from(n)),
        };
        let mut b = Vec::with_capacity(FIXED_BYTES + CELL_BYTES * self.cells.len());
        b.extend_from_slice(&self.game.to_le_bytes());
        b.extend_from_slice(&self.ply.to_le_bytes());
        b.extend_from_slice(&self.played.to_le_bytes());
        b.extend_from_slice(&[self.rule.code() as u8, self.side as u8, self.result, kind]);
        b.extend_from_slice(&score.to_le_bytes());
        b.extend_from_slice(&self.eval.to_le_bytes());
        let flags = if self.held_out { FLAG_HELD_OUT } else { 0 };
        b.extend_from_slice(&flags.to_le_bytes());
        b.extend_from_slice(&self.mask.to_le_bytes());
        b.extend(self.prior.iter().flat_map(|v| v.to_le_bytes()));
        b.extend(self.pcode.iter().flatten().flat_map(|v| v.to_le_bytes()));
        b.extend(self.pats.iter().flatten().flatten());
        b.extend_from_slice(&self.cells);
        b
    }

    /// A record of `cells` cells from its bytes, or why they are not one.
    pub fn from_bytes(b: &[u8], cells: usize) -> Result<Record, String> {
        if b.len() != FIXED_BYTES + CELL_BYTES * cells {
            return Err(format!("a record of {} bytes for {cells} cells", b.len()));
        }
        let u16_at = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
        let u32_at = |i: usize| u32::from_le_bytes(std::array::from_fn(|k| b[i + k]));
        let rule = Rule::ALL
            .into_iter()
            .find(|r| r.code() == u32::from(b[8]))
            .ok_or_else(|| format!("no rule has code {}", b[8]))?;
        let side = match b[9] {
            0 => Color::Black,
            1 => Color::White,
            s => return Err(format!("side to move {s}")),
        };
        let score = u32_at(12) as i32;
        let plies = || u16::try_from(score).map_err(|_| format!("mate in {score} plies"));
        let score = match b[11] {
            0 => Score::Eval(score),
            1 => Score::Win(plies()?),
            2 => Score::Loss(plies()?),
            k => return Err(format!("score kind {k}")),
        };
        let prior = (0..cells)
            .map(|c| u32_at(FIXED_BYTES + 4 * c) as i32)
            .collect();
        let pcode_at = FIXED_BYTES + 4 * cells;
        let pcode = std::array::from_fn(|colour| {
            (0..cells)
                .map(|c| u16_at(pcode_at + 2 * (colour * cells + c)))
                .collect()
        });
        let pats_at = FIXED_BYTES + 8 * cells;
        let pats = std::array::from_fn(|colour| {
            std::array::from_fn(|d| {
                let at = pats_at + (colour * 4 + d) * cells;
                b[at..at + cells].to_vec()
            })
        });
        let cells_at = FIXED_BYTES + 16 * cells;
        Ok(Record {
            game: u32_at(0),
            ply: u16_at(4),
            played: u16_at(6),
            rule,
            side,
            result: b[10],
            score,
            eval: u32_at(16) as i32,
            held_out: u16_at(20) & FLAG_HELD_OUT != 0,
            mask: u16_at(22),
            prior,
            pcode,
            pats,
            cells: b[cells_at..cells_at + cells].to_vec(),
        })
    }
}

/// A position file's header and records.
pub fn read(path: &Path) -> Result<(FileHeader, Vec<Record>), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let h = FileHeader::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let body = &bytes[HEADER_BYTES..];
    if body.len() as u64 != h.positions * h.record_bytes() as u64 {
        return Err(format!(
            "{}: {} bytes of records, not {} records of {}",
            path.display(),
            body.len(),
            h.positions,
            h.record_bytes()
        ));
    }
    let records = body
        .chunks(h.record_bytes())
        .map(|r| Record::from_bytes(r, h.cells()))
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((h, records))
}

/// The output being written: under a temporary name until [`Output::finish`].
struct Output {
    path: PathBuf,
    partial: PathBuf,
    file: BufWriter<File>,
}

impl Output {
    fn create(path: &Path) -> io::Result<Output> {
        let partial = super::partial_path(path);
        let mut file = BufWriter::new(File::create(&partial)?);
        // Room for the header, written last when the counts are known.
        file.write_all(&[0; HEADER_BYTES])?;
        Ok(Output {
            path: path.to_path_buf(),
            partial,
            file,
        })
    }

    /// Writes the header over its room and gives the file its name.
    fn finish(&mut self, header: &FileHeader) -> io::Result<()> {
        self.file.seek(SeekFrom::Start(0))?;
        self.file.write_all(&header.to_bytes())?;
        self.file.flush()?;
        self.file.get_ref().sync_all()?;
        std::fs::rename(&self.partial, &self.path)
    }
}

/// Runs `features`: writes every quiet position of the inputs, returns the header written.
/// A failed run leaves no output file behind.
pub fn run(args: &FeaturesArgs, seed: u64) -> Result<FileHeader, ExportError> {
    if !(0.0..1.0).contains(&args.val) {
        return Err(ExportError::Fraction(args.val));
    }
    let model = init_model(&args.baseline).map_err(ExportError::Baseline)?;
    let write_error = |e| ExportError::Write(args.out.clone(), e);
    let mut out = Output::create(&args.out).map_err(write_error)?;
    let header = export(args, seed, &model, &mut out.file)
        .and_then(|h| out.finish(&h).map(|()| h).map_err(write_error));
    match header {
        Ok(h) => {
            println!(
                "wrote {}: {} positions of {} games, {} bytes a record",
                args.out.display(),
                h.positions,
                h.games,
                h.record_bytes()
            );
            Ok(h)
        }
        Err(e) => {
            // Best effort: the error said what went wrong, a leftover file would only confuse.
            let _ = std::fs::remove_file(&out.partial);
            Err(e)
        }
    }
}

/// Writes the records of every quiet position of the inputs to `out`; returns the header.
fn export(
    args: &FeaturesArgs,
    seed: u64,
    model: &Model,
    out: &mut impl Write,
) -> Result<FileHeader, ExportError> {
    let eval = Evaluator::from_model(model);
    let write_error = |e| Refusal::Stop(ExportError::Write(args.out.clone(), e));
    let (mut side, mut rule) = (None, None);
    let (mut games, mut positions) = (0u64, 0u64);
    let mut buf = Vec::new();
    dataset::for_each_game(&args.inputs, seed, args.val, |g| {
        let game = u32::try_from(games).map_err(|_| Refusal::Stop(ExportError::TooManyGames))?;
        games += 1;
        let size = g.header.size;
        let first = *side.get_or_insert(size);
        if first != size {
            return Err(Refusal::Stop(ExportError::MixedSizes {
                first,
                other: size,
            }));
        }
        let first = *rule.get_or_insert(g.header.rule);
        if first != g.header.rule {
            return Err(Refusal::Stop(ExportError::MixedRules {
                first,
                other: g.header.rule,
            }));
        }
        // The whole game first: an impossible game leaves nothing behind.
        buf.clear();
        let mut n = 0u64;
        dataset::replay(g.header.rule, size, g.game, |pb, me, played, score| {
            if is_quiet(pb, me) {
                let result = dataset::result_for(g.game, me);
                let mut r = Record::of(pb, me, played, score, result, (model, &eval));
                r.game = game;
                r.held_out = g.held_out;
                buf.extend(r.to_bytes());
                n += 1;
            }
        })
        .map_err(Refusal::Skip)?;
        out.write_all(&buf).map_err(write_error)?;
        positions += n;
        Ok(())
    })?;
    if positions == 0 {
        return Err(ExportError::NoPositions);
    }
    Ok(FileHeader {
        side: side.unwrap_or(0),
        vocabulary: vocabulary(),
        baseline: eval.tables_id(rule.unwrap_or(Rule::Freestyle)),
        positions,
        games: u32::try_from(games).map_err(|_| ExportError::TooManyGames)?,
        held_out_ppm: (args.val * 1e6).round() as u32,
        seed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selfplay::{self, Header, SelfPlayGame};
    use hoshi::board::Board;
    use hoshi::pattern::Threat;

    /// Two short freestyle games. In the first black builds an open three on row 7 that
    /// white leaves open, so black's next position (with an open-four point) is not quiet.
    fn games() -> Vec<SelfPlayGame> {
        let mv = |x, y, s| (Pos::new(x, y), Score::Eval(s));
        vec![
            SelfPlayGame {
                opening: vec![Pos::new(7, 7), Pos::new(7, 8)],
                moves: vec![
                    mv(6, 7, 40),
                    mv(6, 8, -35),
                    mv(8, 7, 300),
                    mv(10, 10, -900),
                    (Pos::new(5, 7), Score::Win(3)),
                ],
                winner: Some(Color::Black),
            },
            SelfPlayGame {
                opening: vec![Pos::new(3, 3)],
                moves: vec![mv(4, 4, -10), mv(10, 10, 12)],
                winner: None,
            },
        ]
    }

    fn write_games(path: &Path, games: &[SelfPlayGame], rule: Rule, size: u8) {
        let header = Header {
            rule,
            size,
            nodes: 100,
            seed: 1,
            weights: 0,
        };
        let mut f = selfplay::create(path, &header).unwrap();
        for g in games {
            f.write_all(&g.to_bytes()).unwrap();
        }
    }

    /// The exported file reads back as the positions `train` sees, each with the pattern
    /// board's codes, the baseline's own evaluation and prior, and its labels.
    #[test]
    fn the_export_reads_back_as_the_replayed_positions_with_the_engines_values() {
        let dir = std::env::temp_dir().join(format!("hoshi-features-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (input, out) = (dir.join("a.games"), dir.join("a.feat"));
        write_games(&input, &games(), Rule::Freestyle, 15);
        let args = FeaturesArgs {
            inputs: vec![input.clone()],
            out: out.clone(),
            baseline: "builtin".into(),
            val: 0.5,
        };
        let written = run(&args, 3).unwrap();
        let (header, records) = read(&out).unwrap();
        assert_eq!(header, written);
        assert_eq!((header.side, header.games), (15, 2));
        assert_eq!(header.vocabulary, vocabulary());
        assert_eq!(
            header.baseline,
            Evaluator::default().tables_id(Rule::Freestyle)
        );
        assert_eq!(header.positions, records.len() as u64);

        // The same positions, in order, rebuilt here with the evaluator's own board.
        let eval = Evaluator::default();
        let mut want = Vec::new();
        for (g, game) in games().iter().enumerate() {
            dataset::replay(Rule::Freestyle, 15, game, |pb, me, played, score| {
                if is_quiet(pb, me) {
                    want.push((g as u32, pb.board().clone(), me, played, score));
                }
            })
            .unwrap();
        }
        assert_eq!(records.len(), want.len());
        assert_eq!(
            records.len(),
            6,
            "the position before the open four is left out"
        );
        assert!(!records.iter().any(|r| r.game == 0 && r.ply == 6));
        for (r, (g, board, me, played, score)) in records.iter().zip(&want) {
            let pb = PatternBoard::with_values(
                board,
                Rule::Freestyle,
                eval.cell_values(Rule::Freestyle),
            );
            assert_eq!((r.game, r.side, r.score), (*g, *me, *score));
            assert_eq!(r.held_out, dataset::is_held_out(3, 0, *g as usize, 0.5));
            assert_eq!(r.ply as usize, board.history().len());
            assert_eq!(r.played, u16::from(played.y) * 15 + u16::from(played.x));
            assert_eq!(r.eval, eval.evaluate(&pb, *me));
            assert_eq!(usize::from(r.mask), threat_mask(&pb, *me));
            let winner = games()[*g as usize].winner;
            let want_result = match winner {
                None => 1,
                Some(w) if w == *me => 2,
                Some(_) => 0,
            };
            assert_eq!(r.result, want_result);
            for i in pb.all_cells() {
                let p = pb.pos(i);
                let c = usize::from(p.y) * 15 + usize::from(p.x);
                let info = pb.info(i);
                for colour in 0..2 {
                    assert_eq!(r.pcode[colour][c], info.pcode[colour]);
                    for d in 0..4 {
                        assert_eq!(r.pats[colour][d][c], info.pats[colour][d] as u8);
                    }
                }
                let legal = pb.is_legal(i, *me);
                assert_eq!(r.cells[c] & CELL_LEGAL != 0, legal);
                assert_eq!(r.cells[c] & CELL_CANDIDATE != 0, pb.is_candidate(i));
                let stone = pb.stone_at(i).map_or(0, |s| s as u8 + 1);
                assert_eq!(r.cells[c] & 3, stone);
                let prior = if legal {
                    eval.policy(Rule::Freestyle).score(info, *me)
                } else {
                    0
                };
                assert_eq!(r.prior[c], prior);
            }
        }
        // A known cell: with black's open three on row 7 (x 6 to 8) and white to move,
        // a black stone on (5, 7) makes an open four along x; a white one there only a
        // one-stone shape blocked by black's three.
        let r = records
            .iter()
            .find(|r| r.ply == 5 && r.game == 0)
            .expect("the position after black's third stone");
        let c = 7 * 15 + 5;
        assert_eq!(r.side, Color::White);
        assert_eq!(r.pats[0][0][c], Pattern::Flex4 as u8);
        let pcodes = hoshi::pattern::Pcodes::get();
        assert_eq!(pcodes.threat(r.pcode[0][c]), Threat::Flex4);
        assert_eq!(r.pats[1][0][c], Pattern::Block1 as u8);
        assert!(r.cells[c] & CELL_LEGAL != 0 && r.cells[7 * 15 + 6] & 3 == 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn records_round_trip_and_bad_files_are_refused() {
        let b = Board::with_stones(9, 9, &[(4, 4), (5, 5)], &[(4, 5)]).unwrap();
        let pb = PatternBoard::new(&b, Rule::Freestyle);
        let (model, eval) = (hoshi::eval::builtin_model(), Evaluator::default());
        let mut r = Record::of(
            &pb,
            Color::White,
            Pos::new(3, 3),
            Score::Loss(9),
            0.0,
            (&model, &eval),
        );
        r.game = 77;
        r.held_out = true;
        let bytes = r.to_bytes();
        assert_eq!(bytes.len(), FIXED_BYTES + CELL_BYTES * 81);
        assert_eq!(Record::from_bytes(&bytes, 81).unwrap(), r);
        assert!(Record::from_bytes(&bytes[1..], 81).is_err());
        let h = FileHeader {
            side: 9,
            vocabulary: vocabulary(),
            baseline: 5,
            positions: 1,
            games: 1,
            held_out_ppm: 100_000,
            seed: 4,
        };
        assert_eq!(FileHeader::from_bytes(&h.to_bytes()), Ok(h));
        let mut damaged = h.to_bytes();
        damaged[33] ^= 1;
        assert!(
            FileHeader::from_bytes(&damaged)
                .unwrap_err()
                .contains("damaged")
        );
        assert!(FileHeader::from_bytes(b"HOSHIGMS").is_err());
    }

    #[test]
    fn mixed_sizes_or_rules_and_empty_inputs_are_refused_with_the_reason() {
        let dir = std::env::temp_dir().join(format!("hoshi-features-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (a, b) = (dir.join("a.games"), dir.join("b.games"));
        write_games(&a, &games(), Rule::Freestyle, 15);
        write_games(&b, &games(), Rule::Freestyle, 13);
        let c = dir.join("c.games");
        write_games(&c, &games(), Rule::Renju, 15);
        let args = |inputs: Vec<PathBuf>| FeaturesArgs {
            inputs,
            out: dir.join("x.feat"),
            baseline: "handset".into(),
            val: 0.1,
        };
        let mixed = run(&args(vec![a.clone(), b]), 0).unwrap_err();
        assert!(
            matches!(
                mixed,
                ExportError::MixedSizes {
                    first: 15,
                    other: 13
                }
            ),
            "{mixed}"
        );
        let mixed = run(&args(vec![a.clone(), c]), 0).unwrap_err();
        assert!(
            matches!(
                mixed,
                ExportError::MixedRules {
                    first: Rule::Freestyle,
                    other: Rule::Renju
                }
            ),
            "{mixed}"
        );
        let empty = dir.join("empty.games");
        write_games(&empty, &[], Rule::Freestyle, 15);
        assert!(matches!(
            run(&args(vec![empty]), 0),
            Err(ExportError::NoPositions)
        ));
        assert!(
            !dir.join("x.feat").exists(),
            "no file is left by a failed export"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
