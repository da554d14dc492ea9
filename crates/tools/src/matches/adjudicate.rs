//! Adjudication by proof: a game ends early when the side to move has a forced win by
//! continuous fours (VCF).
//!
//! Hoshi's own solver ([`Vcf`]) looks for the line; the referee's rules then confirm it
//! move by move, independently of the solver: each attacker move is legal and is a five
//! or a four, the defender never has a five of his own, and after each four exactly one
//! defender move stops every threat (that move is taken, whatever the solver wrote), or
//! none does. A line that survives this is a proof under any rule, caro included (where a
//! five blocked at both ends is no win, so a stone beside a four can defend it too).
//! The solver's budget is in nodes, so adjudication is as reproducible as the games.

use hoshi::board::{Board, Color, Pos};
use hoshi::pattern::PatternBoard;
use hoshi::rules::{Rule, Verdict};
use hoshi::search::vcf::Vcf;

/// Longest VCF looked for, in attacker moves (the search's own root VCF goes as deep).
const MAX_FOURS: u8 = 40;
/// Nodes per position: most positions have no four at all and cost one node.
const NODE_BUDGET: u64 = 200_000;

/// A VCF solver kept for one game (its failure cache serves the next positions).
#[derive(Default)]
pub struct Adjudicator {
    vcf: Vcf,
}

impl Adjudicator {
    #[must_use]
    pub fn new() -> Adjudicator {
        Adjudicator::default()
    }

    /// A proven win for `mover`, to move on `board`: the line, attacker and forced
    /// defender moves alternating, ending with the five or with a four nothing stops.
    pub fn proven_win(&mut self, board: &Board, rule: Rule, mover: Color) -> Option<Vec<Pos>> {
        let mut pb = PatternBoard::new(board, rule);
        let line = self
            .vcf
            .solve(&mut pb, mover, MAX_FOURS, NODE_BUDGET, &mut || false)?;
        let line: Vec<Pos> = line.into_iter().map(|i| pb.pos(i)).collect();
        confirm(board, rule, mover, &line)
    }
}

/// Replays the attacker's moves of `line` (its even entries) under `rule`, computing the
/// defender's replies, and returns the confirmed line if it wins by force.
#[must_use]
pub fn confirm(board: &Board, rule: Rule, att: Color, line: &[Pos]) -> Option<Vec<Pos>> {
    let def = att.opponent();
    let mut b = board.clone();
    let mut proof = Vec::new();
    for &m in line.iter().step_by(2) {
        match rule.judge(&b, m, att) {
            Verdict::Win => {
                proof.push(m);
                return Some(proof);
            }
            Verdict::Foul(_) => return None,
            Verdict::Continue => {}
        }
        b.place(m, att).ok()?;
        proof.push(m);
        if winning_cells(&b, rule, def).next().is_some() {
            return None;
        }
        let threats: Vec<Pos> = winning_cells(&b, rule, att).collect();
        if threats.is_empty() {
            return None;
        }
        let empty: Vec<Pos> = b.empty_cells().collect();
        let mut defences = empty
            .into_iter()
            .filter(|&d| stops_all(&mut b, rule, d, def, &threats));
        let (first, second) = (defences.next(), defences.next());
        match (first, second) {
            (None, _) => return Some(proof),
            (Some(d), None) => {
                b.place(d, def).ok()?;
                proof.push(d);
            }
            (Some(_), Some(_)) => return None,
        }
    }
    None
}

/// The empty cells where `color` would win at once.
fn winning_cells(b: &Board, rule: Rule, color: Color) -> impl Iterator<Item = Pos> + '_ {
    b.empty_cells()
        .filter(move |&p| rule.judge(b, p, color) == Verdict::Win)
}

/// Whether `def` may play `d` and leave the attacker none of `threats` (a defender stone
/// never gives the attacker a new five, so the old threats are all there is to check).
/// `b` is left as it was.
fn stops_all(b: &mut Board, rule: Rule, d: Pos, def: Color, threats: &[Pos]) -> bool {
    if !rule.is_legal(b, d, def) || b.place(d, def).is_err() {
        return false;
    }
    let att = def.opponent();
    let stopped = threats
        .iter()
        .all(|&t| !b.is_empty_at(t) || rule.judge(b, t, att) != Verdict::Win);
    let _ = b.remove(d);
    stopped
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(black: &[(u8, u8)], white: &[(u8, u8)]) -> Board {
        let mut b = Board::new(15, 15).unwrap();
        for &(x, y) in black {
            b.place(Pos::new(x, y), Color::Black).unwrap();
        }
        for &(x, y) in white {
            b.place(Pos::new(x, y), Color::White).unwrap();
        }
        b
    }

    #[test]
    fn a_double_four_is_found_and_confirmed() {
        // Black: 3,7 4,7 5,7 on row 7 (2,7 white) and 7,4 7,5 7,6 on column 7 (7,3 white).
        // 7,7 makes a broken four on the row (five at 6,7) and a four on the column (five
        // at 7,8): nothing stops both. 6,7 alone would be a four that 7,7 blocks.
        let b = board(
            &[(3, 7), (4, 7), (5, 7), (7, 4), (7, 5), (7, 6)],
            &[(2, 7), (7, 3), (0, 0), (2, 0), (14, 14), (12, 14)],
        );
        let mut adj = Adjudicator::new();
        let proof = adj.proven_win(&b, Rule::Freestyle, Color::Black);
        assert_eq!(proof, Some(vec![Pos::new(7, 7)]));
        // White, to move instead, has nothing.
        assert_eq!(adj.proven_win(&b, Rule::Freestyle, Color::White), None);
    }

    #[test]
    fn lines_the_defender_escapes_are_refused() {
        let quiet = board(&[(7, 7), (8, 8)], &[(7, 8), (8, 7)]);
        let mut adj = Adjudicator::new();
        assert_eq!(adj.proven_win(&quiet, Rule::Freestyle, Color::Black), None);
        // Black 4,3 5,3 6,3 (3,3 white): 7,3 is a four, five point 8,3.
        let three = [(4, 3), (5, 3), (6, 3)];
        let b = board(&three, &[(3, 3), (9, 9), (11, 10)]);
        let (m, block) = (Pos::new(7, 3), Pos::new(8, 3));
        // A four the defender blocks, with no follow-up, proves nothing.
        assert_eq!(
            confirm(&b, Rule::Freestyle, Color::Black, &[m, block]),
            None
        );
        // Nor does a move that makes no four.
        assert_eq!(
            confirm(&b, Rule::Freestyle, Color::Black, &[Pos::new(9, 3)]),
            None
        );
        // A defender with a five point of his own (white 8,5..8,8) refutes the four.
        let b = board(&three, &[(3, 3), (8, 5), (8, 6), (8, 7), (8, 8)]);
        assert_eq!(confirm(&b, Rule::Freestyle, Color::Black, &[m]), None);
        // With both ends open the four cannot be stopped: proven on its own.
        let b = board(&three, &[(9, 9), (11, 10), (12, 12)]);
        assert_eq!(
            confirm(&b, Rule::Freestyle, Color::Black, &[m]),
            Some(vec![m])
        );
    }

    #[test]
    fn renju_fouls_end_a_line_and_a_forbidden_block_loses() {
        // Black's 7,3 would make 3,3..8,3 six in a row: an overline, a foul, no proof.
        let b = board(
            &[(3, 3), (4, 3), (5, 3), (6, 3), (8, 3)],
            &[(0, 0), (2, 0), (4, 0), (6, 0)],
        );
        assert_eq!(
            confirm(&b, Rule::Renju, Color::Black, &[Pos::new(7, 3)]),
            None
        );
        // White 3,3 4,3 5,3 (2,3 black) plays 6,3: its five point 7,3 is a double three
        // for black (7,4 7,5 on the column, 8,4 9,5 on the diagonal), so black cannot
        // block: proven. In freestyle the block is legal, and the four alone is no proof.
        let b = board(
            &[(2, 3), (7, 4), (7, 5), (8, 4), (9, 5)],
            &[(3, 3), (4, 3), (5, 3), (12, 12)],
        );
        let m = Pos::new(6, 3);
        assert_eq!(confirm(&b, Rule::Renju, Color::White, &[m]), Some(vec![m]));
        assert_eq!(confirm(&b, Rule::Freestyle, Color::White, &[m]), None);
    }
}
