//! What the engine says, as lines of the protocol's vocabulary ([`ReplyLine`], which
//! prints them), and the one place that writes them to stdout.
//!
//! Every reply is a single answer line, optionally preceded by `MESSAGE` lines (only
//! before a move, where every manager skips them): the level's [`Report`], written here,
//! one line more per line of a `YXNBEST` search, and, when the manager asked for them
//! (`INFO show_detail`), the realtime lines a search writes as it deepens
//! ([`Replies::progress`]) and Rapfi's `INFO` analysis block after each of its depths
//! ([`Replies::analysis`]). Two kinds of reply are `MESSAGE` lines and nothing else, as
//! Yixin-Board, the only manager to ask for them, reads them as they come: the
//! `YXSHOWINFO` limits and Yixin's swap2 dialogue.
//! Lines end in `\n` only (liskvork rejects a `\r`) and are flushed one by one, since
//! managers wait for each answer. Free text is trimmed onto one line here; the vocabulary
//! prints any control character left as a space, so no reply can ever turn into two
//! answers.

use std::fmt::Write as _;
use std::io::Write;

use crate::error::SessionError;
use hoshi::board::Pos;
use hoshi::levels::Report;
use hoshi::rules::Rule;
use hoshi::search::{Progress, mate_in, win_rate};
use hoshi_protocol::{About, Analysis, Coord, Eval, Realtime, ReplyLine, WinRate};

/// One answer to one request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    Ok,
    /// A refused request: `ERROR` and the error's message.
    Error(SessionError),
    Unknown(String),
    /// A move, with a notice for the user (a setting that failed) and the level's report
    /// shown on one `MESSAGE` line before it.
    Move {
        pos: Pos,
        notice: Option<String>,
        report: Option<Report>,
    },
    /// Several stones on one line (the swap2 opening, a balancing pair).
    Stones(Vec<Pos>),
    /// `SWAP`: in swap2, take black.
    Swap,
    /// Yixin's swap2 dialogue (`YXSWAP2STEP1`..`3`), all on `MESSAGE SWAP2` lines as
    /// Yixin-Board reads them: the stones placed, numbered from `first` (the stone's
    /// number in the game)...
    YixinSwap2Stones {
        first: usize,
        stones: Vec<Pos>,
    },
    /// ... or whether we take black after three stones (`SWAP1`) or five (`SWAP2`).
    YixinSwap2Choice {
        stones: usize,
        take_black: bool,
    },
    /// `YXSHOWINFO`: the most threads, and log2 of the largest table in KiB.
    ShowInfo {
        max_threads: usize,
        max_hash_log2: u32,
    },
    /// The `ABOUT` line.
    About,
    /// `YXSHOWFORBID`: black's forbidden points.
    Forbid(Vec<Pos>),
}

/// The ABOUT answer's fields.
fn about() -> About {
    let field = |k: &str, v: &str| (k.to_owned(), v.to_owned());
    About {
        fields: vec![
            field("name", "Hoshi"),
            field("version", env!("CARGO_PKG_VERSION")),
            field("author", "Hoshi developers"),
        ],
    }
}

impl Reply {
    /// The lines of this reply, in order.
    #[must_use]
    pub fn lines(&self) -> Vec<ReplyLine> {
        let coords = |stones: &[Pos]| stones.iter().map(|&p| Coord::from(p)).collect();
        match self {
            Reply::Ok => vec![ReplyLine::Ok],
            Reply::Error(e) => vec![ReplyLine::Error(one_line(&e.to_string()))],
            Reply::Unknown(text) => vec![ReplyLine::Unknown(one_line(text))],
            Reply::Move {
                pos,
                notice,
                report,
            } => {
                let parts: Vec<String> = notice
                    .iter()
                    .cloned()
                    .chain(report.iter().map(report_text))
                    .collect();
                let mut lines = Vec::new();
                if !parts.is_empty() {
                    lines.push(ReplyLine::Message(one_line(&parts.join("; "))));
                }
                if let Some(r) = report.as_ref().filter(|r| r.search.lines.len() > 1) {
                    lines.extend(r.search.lines.iter().enumerate().map(|(k, line)| {
                        let pv: Vec<String> = line.pv.iter().map(Pos::to_string).collect();
                        ReplyLine::Message(format!(
                            "({}) eval {} pv {}",
                            k + 1,
                            eval_text(line.score),
                            pv.join(" ")
                        ))
                    }));
                }
                lines.push(ReplyLine::Move(Coord::from(*pos)));
                lines
            }
            Reply::Swap => vec![ReplyLine::Swap],
            Reply::YixinSwap2Stones { first, stones } => stones
                .iter()
                .enumerate()
                .map(|(k, &p)| ReplyLine::YixinSwap2Move {
                    number: first + k,
                    stone: Coord::from(p),
                })
                .collect(),
            Reply::YixinSwap2Choice { stones, take_black } => {
                vec![ReplyLine::YixinSwap2Choice {
                    swap: if *stones == 3 { 1 } else { 2 },
                    take_black: *take_black,
                }]
            }
            Reply::ShowInfo {
                max_threads,
                max_hash_log2,
            } => vec![
                ReplyLine::YixinMaxThreads(*max_threads),
                ReplyLine::YixinMaxHashSize(*max_hash_log2),
            ],
            Reply::Stones(stones) => vec![ReplyLine::Stones(coords(stones))],
            Reply::About => vec![ReplyLine::About(about())],
            Reply::Forbid(points) => vec![ReplyLine::Forbid(coords(points))],
        }
    }
}

/// The text of a report on its `MESSAGE` line: `[strength S] depth D eval E nodes N speed
/// Kk/s time Tms pv MOVES [pick P]`, the evaluation as `+M<n>`/`-M<n>` for a win/loss in n
/// plies.
fn report_text(report: &Report) -> String {
    let r = &report.search;
    let mut text = String::new();
    if let Some(strength) = report.strength {
        let _ = write!(text, "strength {strength} ");
    }
    let _ = write!(
        text,
        "depth {} eval {} nodes {} speed {}k/s time {}ms pv",
        r.depth,
        eval_text(r.score),
        r.nodes,
        r.speed() / 1000,
        r.elapsed.as_millis()
    );
    for p in &r.pv {
        let _ = write!(text, " {p}");
    }
    if let Some(pick) = report.pick {
        let _ = write!(text, " pick {pick}");
    }
    text
}

/// A score as reports show it: `+M<n>`/`-M<n>` for a win/loss in n plies.
fn eval_text(score: i32) -> String {
    eval(score).to_string()
}

/// A search score as the protocol writes values: a mate as its plies.
fn eval(score: i32) -> Eval {
    match mate_in(score) {
        Some(n) if n > 0 => Eval::Win(n.unsigned_abs()),
        Some(n) => Eval::Loss(n.unsigned_abs()),
        None => Eval::Score(score),
    }
}

/// The realtime lines Yixin-Board reads after an iteration, as Rapfi writes them: clear
/// the marks of the moves being searched, mark each line proved lost, mark the best move.
fn realtime_lines(progress: &Progress) -> Vec<ReplyLine> {
    let mut lines = vec![ReplyLine::Realtime(Realtime::Refresh)];
    for line in &progress.lines {
        if mate_in(line.score).is_some_and(|n| n < 0) {
            lines.push(ReplyLine::Realtime(Realtime::Lost(Coord::from(line.mv))));
        }
    }
    if let Some(best) = progress.lines.first() {
        lines.push(ReplyLine::Realtime(Realtime::Best(Coord::from(best.mv))));
    }
    lines
}

/// Rapfi's analysis block for `progress` under `rule`, one block per line, best first
/// (`printPvCompletes`); a move found without iterating gets one block with no cost
/// (`printBestmoveWithoutSearch`: nodes, time, speed and selective depth 0).
fn analysis_lines(progress: &Progress, rule: Rule) -> Vec<ReplyLine> {
    let searched = progress.searched;
    let millis = u64::try_from(progress.elapsed.as_millis()).unwrap_or(u64::MAX);
    let speed = u64::try_from(u128::from(progress.nodes) * 1000 / u128::from(millis.max(1)))
        .unwrap_or(u64::MAX);
    let cost = |n: u64| if searched { n } else { 0 };
    let mut lines = Vec::new();
    for (k, line) in progress.lines.iter().enumerate() {
        lines.extend(
            [
                Analysis::Pv(k),
                Analysis::NumPv(progress.lines.len()),
                Analysis::Depth(progress.depth),
                Analysis::SelDepth(if searched { line.seldepth } else { 0 }),
                Analysis::Nodes(cost(line.nodes)),
                Analysis::TotalNodes(cost(progress.nodes)),
                Analysis::TotalTime(cost(millis)),
                Analysis::Speed(cost(speed)),
                Analysis::Eval(eval(line.score)),
                Analysis::WinRate(WinRate::new(win_rate(line.score, rule))),
                Analysis::BestLine(line.pv.iter().map(|&p| Coord::from(p)).collect()),
                Analysis::PvDone,
            ]
            .map(ReplyLine::Analysis),
        );
    }
    lines
}

/// `text` with control characters (line breaks included) turned into spaces, trimmed:
/// the tidy form of free text (the vocabulary only guarantees that it stays one line).
fn one_line(text: &str) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    flat.trim().to_string()
}

/// Writes replies, one flushed line at a time.
pub struct Replies<W: Write> {
    out: W,
}

impl<W: Write> Replies<W> {
    pub fn new(out: W) -> Replies<W> {
        Replies { out }
    }

    /// Writes every line of `reply`. A failed write (the manager closed the pipe) is only
    /// logged: nobody is left to tell, and the engine leaves at end of input anyway.
    pub fn send(&mut self, reply: &Reply) {
        for line in reply.lines() {
            self.write(&line);
        }
    }

    /// Writes the realtime lines of a search's `progress` (only while a move is being
    /// searched, so they come before its answer).
    pub fn progress(&mut self, progress: &Progress) {
        for line in realtime_lines(progress) {
            self.write(&line);
        }
    }

    /// Writes Rapfi's analysis block of a search's `progress` under `rule` (only while a
    /// move is being searched, so it comes before its answer).
    pub fn analysis(&mut self, progress: &Progress, rule: Rule) {
        for line in analysis_lines(progress, rule) {
            self.write(&line);
        }
    }

    fn write(&mut self, line: &ReplyLine) {
        log::debug!("> {line}");
        if let Err(e) = writeln!(self.out, "{line}").and_then(|()| self.out.flush()) {
            log::warn!("cannot write a reply: {e}");
        }
    }

    /// What was written, for tests.
    #[cfg(test)]
    pub fn output(&self) -> &W {
        &self.out
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use hoshi::levels::Strength;
    use hoshi::search::alphabeta::WIN;
    use hoshi::search::{RootMove, SearchResult};
    use hoshi_protocol::Command;

    impl Reply {
        /// The lines as written.
        fn text(&self) -> Vec<String> {
            self.lines().iter().map(ToString::to_string).collect()
        }
    }

    #[test]
    fn replies_are_single_lines_of_the_allowed_forms() {
        let p = Pos::new(9, 12);
        assert_eq!(Reply::Ok.text(), ["OK"]);
        assert_eq!(
            Reply::Error(SessionError::NoGame).text(),
            ["ERROR no game started: send START first"]
        );
        // Quoted input cannot break the line.
        let e = "TURN a\r\nb".parse::<Command>().unwrap_err();
        assert_eq!(
            Reply::Error(SessionError::Parse(e)).text(),
            ["ERROR TURN expects numbers separated by commas (e.g. TURN 7,7), got 'a  b'"]
        );
        assert_eq!(Reply::Unknown(String::new()).text(), ["UNKNOWN -"]);
        assert_eq!(
            Reply::Move {
                pos: p,
                notice: None,
                report: None
            }
            .text(),
            ["9,12"]
        );
        assert_eq!(
            Reply::Stones(vec![Pos::new(7, 7), Pos::new(8, 6)]).text(),
            ["7,7 8,6"]
        );
    }

    fn report(score: i32, strength: Option<Strength>, pick: Option<Pos>) -> Report {
        Report {
            search: SearchResult {
                best: Pos::new(7, 7),
                score,
                depth: 5,
                nodes: 123_456,
                pv: vec![Pos::new(7, 7), Pos::new(8, 8)],
                elapsed: Duration::from_millis(250),
                lines: Vec::new(),
            },
            strength,
            pick,
        }
    }

    #[test]
    fn a_move_is_preceded_by_its_report_on_one_message_line() {
        let at = |report| {
            Reply::Move {
                pos: Pos::new(7, 7),
                notice: None,
                report: Some(report),
            }
            .text()
        };
        assert_eq!(
            at(report(-35, None, None)),
            [
                "MESSAGE depth 5 eval -35 nodes 123456 speed 493k/s time 250ms pv 7,7 8,8",
                "7,7"
            ]
        );
        let graded = at(report(0, Strength::new(40), Some(Pos::new(6, 6))));
        assert_eq!(
            graded[0],
            "MESSAGE strength 40 depth 5 eval 0 nodes 123456 speed 493k/s time 250ms pv 7,7 \
             8,8 pick 6,6"
        );
        // Mates count plies: won in 3, lost in 4.
        assert!(at(report(WIN - 3, None, None))[0].contains(" eval +M3 "));
        assert!(at(report(4 - WIN, None, None))[0].contains(" eval -M4 "));
    }

    #[test]
    fn realtime_lines_refresh_mark_the_lost_lines_and_then_the_best() {
        let line = |x, score| RootMove {
            mv: Pos::new(x, 7),
            score,
            pv: vec![Pos::new(x, 7)],
            nodes: 10,
            seldepth: 9,
        };
        let progress = Progress {
            depth: 9,
            lines: vec![line(7, 12), line(8, -(WIN - 6))],
            nodes: 20,
            elapsed: Duration::from_millis(300),
            searched: true,
        };
        assert_eq!(
            realtime_lines(&progress)
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>(),
            [
                "MESSAGE REALTIME REFRESH",
                "MESSAGE REALTIME LOST 8,7",
                "MESSAGE REALTIME BEST 7,7"
            ]
        );
    }

    fn root_move(x: u8, score: i32) -> RootMove {
        RootMove {
            mv: Pos::new(x, 7),
            score,
            pv: vec![Pos::new(x, 7), Pos::new(x, 8)],
            nodes: 1_500,
            seldepth: 11,
        }
    }

    fn analysis_text(progress: &Progress, rule: Rule) -> Vec<String> {
        analysis_lines(progress, rule)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn the_analysis_block_of_a_depth_is_rapfis_for_each_line() {
        let progress = Progress {
            depth: 6,
            lines: vec![root_move(7, 0), root_move(8, -200)],
            nodes: 4_000,
            elapsed: Duration::from_millis(250),
            searched: true,
        };
        let text = analysis_text(&progress, Rule::Freestyle);
        assert_eq!(
            text[..12],
            [
                "INFO PV 0",
                "INFO NUMPV 2",
                "INFO DEPTH 6",
                "INFO SELDEPTH 11",
                "INFO NODES 1500",
                "INFO TOTALNODES 4000",
                "INFO TOTALTIME 250",
                "INFO SPEED 16000",
                "INFO EVAL 0",
                "INFO WINRATE 0.5",
                "INFO BESTLINE 7,7 7,8",
                "INFO PV DONE",
            ]
        );
        assert_eq!(text.len(), 24);
        assert_eq!(text[12], "INFO PV 1");
        assert_eq!(text[20], "INFO EVAL -200");
        // sigmoid(-200 / 517.3), freestyle's scale.
        assert_eq!(text[21], "INFO WINRATE 0.404531");
        // Renju's evaluation has its own scale.
        let renju = analysis_text(&progress, Rule::Renju);
        assert_eq!(renju[21], "INFO WINRATE 0.430542");
    }

    #[test]
    fn mates_found_by_the_search_are_plies_and_certain_in_the_block() {
        let progress = |score| Progress {
            depth: 5,
            lines: vec![root_move(7, score)],
            nodes: 900,
            elapsed: Duration::ZERO,
            searched: true,
        };
        let won = analysis_text(&progress(WIN - 3), Rule::Freestyle);
        assert_eq!(won[8..10], ["INFO EVAL +M3", "INFO WINRATE 1"]);
        // No time elapsed counts as a millisecond.
        assert_eq!(won[7], "INFO SPEED 900000");
        let lost = analysis_text(&progress(4 - WIN), Rule::Renju);
        assert_eq!(lost[8..10], ["INFO EVAL -M4", "INFO WINRATE 0"]);
    }

    #[test]
    fn a_move_found_without_search_gets_one_block_with_no_cost() {
        let progress = Progress {
            depth: 1,
            lines: vec![root_move(9, WIN - 1)],
            nodes: 70,
            elapsed: Duration::from_millis(3),
            searched: false,
        };
        assert_eq!(
            analysis_text(&progress, Rule::Standard),
            [
                "INFO PV 0",
                "INFO NUMPV 1",
                "INFO DEPTH 1",
                "INFO SELDEPTH 0",
                "INFO NODES 0",
                "INFO TOTALNODES 0",
                "INFO TOTALTIME 0",
                "INFO SPEED 0",
                "INFO EVAL +M1",
                "INFO WINRATE 1",
                "INFO BESTLINE 9,7 9,8",
                "INFO PV DONE",
            ]
        );
    }

    #[test]
    fn yixin_swap2_and_showinfo_answer_on_message_lines_only() {
        let moves = Reply::YixinSwap2Stones {
            first: 4,
            stones: vec![Pos::new(6, 6), Pos::new(10, 9)],
        };
        assert_eq!(
            moves.text(),
            ["MESSAGE SWAP2 MOVE4 6 6", "MESSAGE SWAP2 MOVE5 10 9"]
        );
        let choice = |stones, take_black| Reply::YixinSwap2Choice { stones, take_black }.text();
        assert_eq!(choice(3, true), ["MESSAGE SWAP2 SWAP1 YES"]);
        assert_eq!(choice(5, false), ["MESSAGE SWAP2 SWAP2 NO"]);
        assert_eq!(Reply::Swap.text(), ["SWAP"]);
        let info = Reply::ShowInfo {
            max_threads: 64,
            max_hash_log2: 22,
        };
        assert_eq!(
            info.text(),
            [
                "MESSAGE INFO MAX_THREAD_NUM 64",
                "MESSAGE INFO MAX_HASH_SIZE 22"
            ]
        );
    }

    #[test]
    fn forbid_lists_two_digit_pairs_and_ends_with_a_dot() {
        let list = Reply::Forbid(vec![Pos::new(9, 12), Pos::new(10, 11)]);
        assert_eq!(list.text(), ["FORBID 09121011."]);
        assert_eq!(Reply::Forbid(vec![]).text(), ["FORBID ."]);
    }

    #[test]
    fn about_names_the_engine_and_its_version() {
        let line = &Reply::About.text()[0];
        assert!(line.starts_with("name=\"Hoshi\", version=\""), "{line}");
        assert!(line.contains(env!("CARGO_PKG_VERSION")));
    }

    #[test]
    fn the_writer_ends_lines_with_lf_only() {
        let mut w = Replies::new(Vec::new());
        w.send(&Reply::Move {
            pos: Pos::new(1, 2),
            notice: None,
            report: None,
        });
        w.send(&Reply::Ok);
        assert_eq!(w.output(), b"1,2\nOK\n");
    }
}
