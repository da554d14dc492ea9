//! `pbrain-hoshi analyse`: what the full-strength search thinks of a position.
//!
//! The position comes as a pos string (`h8i9j10`), a PSQ or pos file, or on stdin. The
//! answer is the board, the evaluation for the side to move, the principal variation and
//! the best few root moves with their values (multi-PV), or, with `--json`, one JSON
//! object for scripts (see [`json`]). Points are written in [`hoshi::notation`].

use std::path::Path;
use std::sync::atomic::AtomicBool;

use clap::Args;
use serde::Serialize;

use super::game::{Game, Outcome, color_name};
use super::picture::{self, ColorChoice};
use super::record::{self, RecordError};
use super::{Size, ThinkArgs};
use hoshi::board::Pos;
use hoshi::eval::Evaluator;
use hoshi::notation;
use hoshi::rules::Rule;
use hoshi::search::{self, Request, SearchResult, Searcher, mate_in};

/// `pbrain-hoshi analyse`'s arguments.
#[derive(Debug, Args)]
pub struct AnalyseArgs {
    /// The position: a pos string such as h8i9j10 (moves alternate from black), a PSQ or
    /// pos file, or - for stdin (the default).
    #[arg(value_name = "POSITION")]
    pub position: Option<String>,
    /// The rule: freestyle, standard, renju, caro or caro-exact (or a protocol code).
    #[arg(long, default_value = "freestyle")]
    pub rule: Rule,
    /// Board size for pos strings, 15 or WIDTHxHEIGHT (a PSQ file names its own).
    #[arg(long, default_value = "15")]
    pub size: Size,
    #[command(flatten)]
    pub budget: ThinkArgs,
    /// How many best moves to list, each searched to the same depth.
    #[arg(long, default_value_t = 3, value_name = "N",
          value_parser = clap::value_parser!(u16).range(1..=64))]
    pub multipv: u16,
    /// Search threads (one gives the same answer every time under --depth or --nodes).
    #[arg(long, default_value_t = 1, value_name = "N",
          value_parser = clap::value_parser!(u16).range(1..=search::MAX_THREADS as i64))]
    pub threads: u16,
    /// Print one JSON object instead of the board and text.
    #[arg(long)]
    pub json: bool,
    /// Colours: auto (when stdout is a terminal), always or never.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

/// Runs `analyse` with `evaluator` (`--weights`): prints the analysis, or says why the
/// position cannot be read.
pub fn run(args: &AnalyseArgs, evaluator: Evaluator) -> Result<(), RecordError> {
    let game = read_position(args)?;
    let result = game.outcome().is_none().then(|| {
        let mut searcher = Searcher::new(search::DEFAULT_TT_BYTES);
        searcher.set_evaluator(evaluator);
        searcher.set_threads(args.threads.into());
        let stop = AtomicBool::new(false);
        let (board, rule) = (game.board(), game.rule());
        let request = Request::new(board, rule, game.to_move(), args.budget.limits());
        searcher.search(request.stop(&stop).lines(args.multipv.into()))
    });
    if args.json {
        println!("{}", json(&game, result.as_ref()));
    } else {
        print!("{}", text(&game, result.as_ref(), args.color.paint()));
    }
    Ok(())
}

/// The game `args.position` names: stdin, a file, or a pos string.
fn read_position(args: &AnalyseArgs) -> Result<Game, RecordError> {
    let source = args.position.as_deref().unwrap_or("-");
    // A pos string is letters and digits only, so anything with a dot or a slash is a
    // file name, even one that does not exist (then its error says so).
    let is_file = source == "-" || source.contains(['.', '/', '\\']) || Path::new(source).is_file();
    if is_file {
        record::load(source, args.size.board(), args.rule)
    } else {
        record::parse(source, args.size.board(), args.rule)
    }
}

/// A value for the mover in words: `+35`, `win in 3` (the mover's moves, its five
/// included) or `loss in 2` (the opponent's moves).
#[must_use]
pub fn describe_score(score: i32) -> String {
    match mate_in(score) {
        Some(plies) if plies > 0 => format!("win in {}", (plies + 1) / 2),
        Some(plies) => format!("loss in {}", -plies / 2),
        None => format!("{score:+}"),
    }
}

/// The board and the analysis as text.
fn text(game: &Game, result: Option<&SearchResult>, paint: bool) -> String {
    let board = game.board();
    let mut out = picture::draw(game, paint);
    out.push_str(&format!(
        "{}, {}x{}, {} stones",
        game.rule(),
        board.width(),
        board.height(),
        board.history().len()
    ));
    if !game.forbidden_points().is_empty() {
        out.push_str(" (! forbidden for black)");
    }
    out.push('\n');
    let Some(r) = result else {
        if let Some(outcome) = game.outcome() {
            out.push_str(&format!("The game is over: {outcome}.\n"));
        }
        return out;
    };
    let mover = color_name(game.to_move());
    out.push_str(&format!(
        "{mover} to move: {} for {mover}\n",
        describe_score(r.score)
    ));
    out.push_str(&format!("best move {}\n", notation::name(r.best)));
    out.push_str(&format!("pv {}\n", names(&r.pv)));
    if r.lines.len() > 1 {
        out.push_str("best moves:\n");
        for (i, line) in r.lines.iter().enumerate() {
            out.push_str(&format!(
                "{:>3}. {:<4} {:>10}  {}\n",
                i + 1,
                notation::name(line.mv),
                describe_score(line.score),
                names(&line.pv)
            ));
        }
    }
    out.push_str(&format!(
        "depth {}, {} nodes, {:.2} s\n",
        r.depth,
        r.nodes,
        r.elapsed.as_secs_f64()
    ));
    out
}

fn names(points: &[Pos]) -> String {
    point_names(points).join(" ")
}

/// The analysis as one JSON object. Points are strings in [`hoshi::notation`]; `score` is
/// for the side to move, in the search's units; `mate` is the plies to the five
/// (positive: the side to move wins) or `null`; `result` is set, and the search fields
/// are `null`, when the game is already over. The fields come in the order shown.
///
/// ```json
/// {"rule":"renju","width":15,"height":15,"moves":["h8","i9"],"to_move":"black",
///  "forbidden":[],"result":null,"winner":null,"best":"j10","score":35,"mate":null,
///  "depth":9,"nodes":123456,"time_ms":2400,"pv":["j10","g7"],
///  "lines":[{"move":"j10","score":35,"mate":null,"pv":["j10","g7"]}]}
/// ```
#[must_use]
pub fn json(game: &Game, result: Option<&SearchResult>) -> String {
    let board = game.board();
    let moves: Vec<Pos> = board.history().iter().map(|&(p, _)| p).collect();
    let analysis = Analysis {
        rule: game.rule().to_string(),
        width: board.width(),
        height: board.height(),
        moves: point_names(&moves),
        to_move: color_name(game.to_move()),
        forbidden: point_names(&game.forbidden_points()),
        result: game.outcome().map(ToString::to_string),
        winner: game.outcome().and_then(Outcome::winner).map(color_name),
        best: result.map(|r| notation::name(r.best)),
        score: result.map(|r| r.score),
        mate: result.and_then(|r| mate_in(r.score)),
        depth: result.map(|r| r.depth),
        nodes: result.map(|r| r.nodes),
        time_ms: result.map(|r| r.elapsed.as_millis()),
        pv: result.map_or_else(Vec::new, |r| point_names(&r.pv)),
        lines: result.map_or_else(Vec::new, |r| {
            r.lines
                .iter()
                .map(|l| AnalysedMove {
                    mv: notation::name(l.mv),
                    score: l.score,
                    mate: mate_in(l.score),
                    pv: point_names(&l.pv),
                })
                .collect()
        }),
    };
    // Strings, numbers, options and vectors only: nothing here can fail to serialize.
    serde_json::to_string(&analysis).expect("the analysis serializes")
}

/// [`json`]'s object, its fields in the order written.
#[derive(Serialize)]
struct Analysis {
    rule: String,
    width: u8,
    height: u8,
    moves: Vec<String>,
    to_move: &'static str,
    forbidden: Vec<String>,
    result: Option<String>,
    winner: Option<&'static str>,
    best: Option<String>,
    score: Option<i32>,
    mate: Option<i32>,
    depth: Option<u32>,
    nodes: Option<u64>,
    time_ms: Option<u128>,
    pv: Vec<String>,
    lines: Vec<AnalysedMove>,
}

/// One root move of [`Analysis`]'s multi-PV list.
#[derive(Serialize)]
struct AnalysedMove {
    #[serde(rename = "move")]
    mv: String,
    score: i32,
    mate: Option<i32>,
    pv: Vec<String>,
}

fn point_names(points: &[Pos]) -> Vec<String> {
    points.iter().map(|&p| notation::name(p)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use hoshi::board::Board;
    use hoshi::search::alphabeta::{WIN, WIN_MIN};

    #[test]
    fn scores_read_as_values_or_wins_and_losses_in_moves() {
        assert_eq!(describe_score(35), "+35");
        assert_eq!(describe_score(-7), "-7");
        assert_eq!(describe_score(0), "+0");
        // One ply: the mover's five; three plies: a four, the block, the five.
        assert_eq!(describe_score(WIN - 1), "win in 1");
        assert_eq!(describe_score(WIN - 3), "win in 2");
        // The opponent fives on the second ply.
        assert_eq!(describe_score(-(WIN - 2)), "loss in 1");
        assert_eq!(mate_in(WIN_MIN - 1), None);
    }

    /// The object's fields, their order and their values are fixed: scripts read them.
    #[test]
    fn a_finished_game_has_no_search_and_the_fields_keep_their_order() {
        let game = record::parse(
            "a1a2b1b2c1c2d1d2e1",
            Board::new(15, 15).unwrap(),
            Rule::Freestyle,
        )
        .unwrap();
        assert_eq!(
            json(&game, None),
            concat!(
                r#"{"rule":"freestyle","width":15,"height":15,"#,
                r#""moves":["a1","a2","b1","b2","c1","c2","d1","d2","e1"],"to_move":"white","#,
                r#""forbidden":[],"result":"black wins with a1b1c1d1e1","winner":"black","#,
                r#""best":null,"score":null,"mate":null,"depth":null,"nodes":null,"#,
                r#""time_ms":null,"pv":[],"lines":[]}"#
            )
        );
    }

    /// A win by fours (i8 the only first move): the fields in order, the mate in plies.
    #[test]
    fn a_search_gives_its_move_score_mate_and_lines_in_order() {
        let game = record::parse(
            "f8e8g8a1h8o1i6a15i7o15",
            Board::new(15, 15).unwrap(),
            Rule::Freestyle,
        )
        .unwrap();
        let mut searcher = Searcher::new(1 << 20);
        let limits = hoshi::time::Limits {
            max_depth: Some(3),
            ..hoshi::time::Limits::default()
        };
        let stop = AtomicBool::new(false);
        let request = Request::new(game.board(), game.rule(), game.to_move(), limits);
        let result = searcher.search(request.stop(&stop).lines(2));
        let text = json(&game, Some(&result));
        let keys = [
            "rule",
            "width",
            "height",
            "moves",
            "to_move",
            "forbidden",
            "result",
            "winner",
            "best",
            "score",
            "mate",
            "depth",
            "nodes",
            "time_ms",
            "pv",
            "lines",
        ];
        let at: Vec<usize> = keys
            .iter()
            .map(|k| text.find(&format!("\"{k}\":")).unwrap_or(usize::MAX))
            .collect();
        assert!(at.is_sorted() && at[15] < text.len(), "{text}");
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            (&value["best"], &value["mate"]),
            (&"i8".into(), &5.into()),
            "{text}"
        );
        assert_eq!(value["score"], WIN - 5);
        assert_eq!(value["lines"][0]["move"], "i8");
        assert_eq!(value["lines"][0]["mate"], 5);
        assert_eq!(value["pv"], value["lines"][0]["pv"]);
    }
}
