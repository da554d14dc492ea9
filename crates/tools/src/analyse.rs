//! `pbrain-hoshi analyse`: what the full-strength search thinks of a position.
//!
//! The position comes as a pos string (`h8i9j10`), a PSQ or pos file, or on stdin. The
//! answer is the board, the evaluation for the side to move, the principal variation and
//! the best few root moves with their values (multi-PV), or, with `--json`, one JSON
//! object for scripts (see [`json`]). Points are written in [`hoshi::notation`].

use std::path::Path;
use std::sync::atomic::AtomicBool;

use clap::Args;

use super::game::{Game, color_name};
use super::picture::{self, ColorChoice};
use super::record::{self, RecordError};
use super::{Budget, Size};
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
    pub budget: Budget,
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

fn names(points: &[hoshi::board::Pos]) -> String {
    let names: Vec<String> = points.iter().map(|&p| notation::name(p)).collect();
    names.join(" ")
}

/// The analysis as one JSON object. Points are strings in [`hoshi::notation`]; `score` is
/// for the side to move, in the search's units; `mate` is the plies to the five
/// (positive: the side to move wins) or `null`; `result` is set, and the search fields
/// are `null`, when the game is already over.
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
    let list = |points: &[hoshi::board::Pos]| {
        let items: Vec<String> = points.iter().map(|&p| quote(&notation::name(p))).collect();
        format!("[{}]", items.join(","))
    };
    let moves: Vec<hoshi::board::Pos> = board.history().iter().map(|&(p, _)| p).collect();
    let mate = |score: i32| mate_in(score).map_or("null".to_string(), |m| m.to_string());
    let mut fields = vec![
        ("rule", quote(&game.rule().to_string())),
        ("width", board.width().to_string()),
        ("height", board.height().to_string()),
        ("moves", list(&moves)),
        ("to_move", quote(color_name(game.to_move()))),
        ("forbidden", list(&game.forbidden_points())),
        (
            "result",
            game.outcome()
                .map_or("null".to_string(), |o| quote(&o.to_string())),
        ),
        (
            "winner",
            game.outcome()
                .and_then(|o| o.winner())
                .map_or("null".to_string(), |c| quote(color_name(c))),
        ),
    ];
    let null = || "null".to_string();
    fields.extend(match result {
        Some(r) => {
            let lines: Vec<String> = r
                .lines
                .iter()
                .map(|l| {
                    format!(
                        "{{\"move\":{},\"score\":{},\"mate\":{},\"pv\":{}}}",
                        quote(&notation::name(l.mv)),
                        l.score,
                        mate(l.score),
                        list(&l.pv)
                    )
                })
                .collect();
            [
                ("best", quote(&notation::name(r.best))),
                ("score", r.score.to_string()),
                ("mate", mate(r.score)),
                ("depth", r.depth.to_string()),
                ("nodes", r.nodes.to_string()),
                ("time_ms", r.elapsed.as_millis().to_string()),
                ("pv", list(&r.pv)),
                ("lines", format!("[{}]", lines.join(","))),
            ]
        }
        None => [
            ("best", null()),
            ("score", null()),
            ("mate", null()),
            ("depth", null()),
            ("nodes", null()),
            ("time_ms", null()),
            ("pv", "[]".to_string()),
            ("lines", "[]".to_string()),
        ],
    });
    let body: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("{}:{v}", quote(k)))
        .collect();
    format!("{{{}}}", body.join(","))
}

/// `s` as a JSON string.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
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

    #[test]
    fn json_strings_are_escaped_and_a_finished_game_has_no_search() {
        assert_eq!(quote("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
        let game = record::parse(
            "a1a2b1b2c1c2d1d2e1",
            Board::new(15, 15).unwrap(),
            Rule::Freestyle,
        )
        .unwrap();
        let value: serde_json::Value = serde_json::from_str(&json(&game, None)).unwrap();
        assert_eq!(value["winner"], "black");
        assert_eq!(value["result"], "black wins with a1b1c1d1e1");
        assert!(value["best"].is_null() && value["lines"].as_array().unwrap().is_empty());
        assert_eq!(value["moves"].as_array().unwrap().len(), 9);
    }
}
