//! The VCF solver on published renju puzzles (transcribed in `tests/data/vcf-puzzles.txt`):
//! every found line is replayed and checked to be a forced win by continuous fours.

use hoshi::board::{Board, Color, Pos};
use hoshi::pattern::PatternBoard;
use hoshi::rules::Rule;
use hoshi::search::vcf::Vcf;

struct Puzzle {
    id: String,
    attacker: Color,
    vcf_moves: usize,
    board: Board,
}

fn puzzles() -> Vec<Puzzle> {
    let text = include_str!("data/vcf-puzzles.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('|').collect();
            let mut board = Board::new(15, 15).unwrap();
            for (field, color) in [(f[3], Color::Black), (f[4], Color::White)] {
                for xy in field.split_whitespace() {
                    let (x, y) = xy.split_once(',').unwrap();
                    board
                        .place(Pos::new(x.parse().unwrap(), y.parse().unwrap()), color)
                        .unwrap();
                }
            }
            Puzzle {
                id: f[0].to_string(),
                attacker: if f[1] == "black" {
                    Color::Black
                } else {
                    Color::White
                },
                vcf_moves: f[2].parse().unwrap(),
                board,
            }
        })
        .collect()
}

fn winning_cells(rule: Rule, b: &Board, color: Color) -> Vec<Pos> {
    b.empty_cells()
        .filter(|&p| rule.is_win(b, p, color))
        .collect()
}

/// Replays `line` and checks each attacker move is legal and a four (the last a five, or a
/// four that cannot be blocked), and each defender move is the only block, with no
/// defender five on the way.
fn check_forced_win(rule: Rule, mut b: Board, att: Color, line: &[Pos]) -> Result<(), String> {
    let def = att.opponent();
    for (k, pair) in line.chunks(2).enumerate() {
        let m = pair[0];
        if !rule.is_legal(&b, m, att) {
            return Err(format!("attacker move {k} at {m} is illegal"));
        }
        if rule.is_win(&b, m, att) {
            return if pair.len() == 1 {
                Ok(())
            } else {
                Err("line goes on past a five".into())
            };
        }
        let def_wins = winning_cells(rule, &b, def);
        if def_wins.iter().any(|&w| w != m) {
            return Err(format!(
                "defender could win at {:?} after move {k}",
                def_wins
            ));
        }
        b.place(m, att).unwrap();
        let threats = winning_cells(rule, &b, att);
        let blockable: Vec<Pos> = threats
            .iter()
            .copied()
            .filter(|&t| rule.is_legal(&b, t, def))
            .collect();
        let Some(&reply) = pair.get(1) else {
            // A line may stop at a four the defender cannot block: two five points, or
            // (renju) a block on black's forbidden point.
            return if threats.len() >= 2 || (!threats.is_empty() && blockable.is_empty()) {
                Ok(())
            } else {
                Err(format!("line ends at {m} without a five"))
            };
        };
        match threats.as_slice() {
            [] => return Err(format!("attacker move {k} at {m} is not a four")),
            [only] if *only != reply => {
                return Err(format!("defender reply {reply} is not the block {only}"));
            }
            _ => {}
        }
        b.place(reply, def).unwrap();
    }
    Err("line ends without a five".into())
}

/// Whether renju fouls are judged yet: a plain double three (two open threes crossing at
/// the centre) must be forbidden. Until `rules::renju` lands, white's wins that rely on a
/// black block being forbidden cannot be found, so only black's puzzles must all pass.
fn fouls_are_judged() -> bool {
    let mut b = Board::new(15, 15).unwrap();
    for (x, y) in [(5, 7), (6, 7), (7, 5), (7, 6)] {
        b.place(Pos::new(x, y), Color::Black).unwrap();
    }
    Rule::Renju.foul(&b, Pos::new(7, 7), Color::Black).is_some()
}

#[test]
fn vcf_solver_solves_the_transcribed_puzzles_with_forced_lines() {
    let rule = Rule::Renju;
    let all = puzzles();
    assert_eq!(all.len(), 40);
    let mut vcf = Vcf::new();
    let mut failures = Vec::new();
    for p in &all {
        let mut pb = PatternBoard::new(&p.board, rule);
        let found = vcf.solve(&mut pb, p.attacker, 40, 2_000_000, &mut || false);
        let Some(line) = found else {
            if p.attacker == Color::Black || fouls_are_judged() {
                failures.push(format!("{}: no VCF found", p.id));
            }
            continue;
        };
        let line: Vec<Pos> = line.iter().map(|&i| pb.pos(i)).collect();
        if let Err(e) = check_forced_win(rule, p.board.clone(), p.attacker, &line) {
            failures.push(format!("{}: {e} in {line:?}", p.id));
        }
        // Deepening finds the shortest VCF, never longer than the published one.
        let attacker_moves = line.len().div_ceil(2);
        if attacker_moves > p.vcf_moves {
            failures.push(format!(
                "{}: {attacker_moves} moves, book {}",
                p.id, p.vcf_moves
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
