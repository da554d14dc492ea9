//! The game rules: what wins, and (in renju) which black moves are forbidden.
//!
//! The win conditions are the Gomocup referee's (GomocupJudge `ai_match.py`), with `c` the
//! run through the new stone and `blocked` the opponent stones just past its two ends (the
//! board's edge and blocked cells never block):
//!
//! | rule | wins when | [`FiveRule`] |
//! |---|---|---|
//! | freestyle | `c >= 5` | `OrMore` |
//! | standard | `c == 5` | `Exact` |
//! | renju | black `c == 5`, white `c >= 5`; black's forbidden points lose first | `Exact`, `OrMore` |
//! | caro (8) | `c > 5`, or `c == 5` and `blocked < 2` | `Caro` |
//! | caro exact (9) | `c == 5` and `blocked < 2` | `CaroExact` |
//!
//! [`FiveRule::wins`] is the only place these are written: [`Rule::is_win`], the pattern
//! tables and the renju checker all ask it, through [`line::Line`].

pub mod line;
pub mod renju;

use std::fmt;
use std::str::FromStr;

use crate::board::{Board, Color, Dir, Pos};
use line::line_through;
pub use renju::Foul;

/// Which runs of one colour's stones win: the table above, one row per variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FiveRule {
    /// Five or more in a row (freestyle; white in renju).
    OrMore,
    /// Exactly five: six or more is no five (standard; black in renju).
    Exact,
    /// Caro: six or more, or exactly five not held by the opponent at both ends.
    Caro,
    /// Caro with exactly five: exactly five, not held by the opponent at both ends.
    CaroExact,
}

impl FiveRule {
    /// Whether a run of `len` stones, `blocked` of whose two ends hold an opponent stone,
    /// wins.
    #[must_use]
    pub fn wins(self, len: usize, blocked: usize) -> bool {
        match self {
            FiveRule::OrMore => len >= 5,
            FiveRule::Exact => len == 5,
            FiveRule::Caro => len > 5 || (len == 5 && blocked < 2),
            FiveRule::CaroExact => len == 5 && blocked < 2,
        }
    }

    /// Whether such a run is an overline: longer than five, and no win (renju's overline
    /// foul for black, the pattern tables' `Overline`).
    #[must_use]
    pub fn overline(self, len: usize, blocked: usize) -> bool {
        len > 5 && !self.wins(len, blocked)
    }
}

/// A rule of play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    Freestyle,
    Standard,
    Renju,
    Caro,
    CaroExact,
}

impl Rule {
    /// Every rule, in the order of their codes.
    pub const ALL: [Rule; 5] = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::Caro,
        Rule::CaroExact,
    ];

    /// The rule's position in [`Rule::ALL`], for per-rule tables.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Decodes the protocol's `INFO rule` value. 2 is renju (the Yixin-Board convention);
    /// otherwise it is Piskvork's bit mask: 4 renju, 8 caro, 1 exactly five, and bit 2
    /// (continuous game) is ignored. Negative values are not rules.
    #[must_use]
    pub fn from_code(code: i64) -> Option<Rule> {
        if code < 0 {
            return None;
        }
        Some(if code == 2 || code & 4 != 0 {
            Rule::Renju
        } else if code & 8 != 0 {
            if code & 1 != 0 {
                Rule::CaroExact
            } else {
                Rule::Caro
            }
        } else if code & 1 != 0 {
            Rule::Standard
        } else {
            Rule::Freestyle
        })
    }

    /// The code a manager sends for this rule (`INFO rule N`).
    #[must_use]
    pub fn code(self) -> u32 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::Caro => 8,
            Rule::CaroExact => 9,
        }
    }

    /// Which runs of `color`'s stones win under this rule.
    #[must_use]
    pub const fn five_rule(self, color: Color) -> FiveRule {
        match (self, color) {
            (Rule::Freestyle, _) | (Rule::Renju, Color::White) => FiveRule::OrMore,
            (Rule::Standard, _) | (Rule::Renju, Color::Black) => FiveRule::Exact,
            (Rule::Caro, _) => FiveRule::Caro,
            (Rule::CaroExact, _) => FiveRule::CaroExact,
        }
    }

    /// Whether a stone of `color` on `p` makes a winning line. The board's content at `p` is
    /// ignored (treated as `color`), so this answers for a stone already placed and for one
    /// merely considered. Renju fouls are not judged here: see [`Rule::judge`].
    #[must_use]
    pub fn is_win(self, board: &Board, p: Pos, color: Color) -> bool {
        self.winning_dir(board, p, color).is_some()
    }

    /// The first direction (in [`Dir::ALL`] order) in which a stone of `color` on `p` makes
    /// a winning line, as [`Rule::is_win`] judges it: where a picture finds the five.
    #[must_use]
    pub fn winning_dir(self, board: &Board, p: Pos, color: Color) -> Option<Dir> {
        let five = self.five_rule(color);
        Dir::ALL
            .into_iter()
            .find(|&dir| line_through(board, p, color, dir).five(five))
    }

    /// The foul a stone of `color` on the empty cell `p` would commit, if any. Only black
    /// fouls, and only under renju; a move that makes five is never a foul.
    #[must_use]
    pub fn foul(self, board: &Board, p: Pos, color: Color) -> Option<Foul> {
        (self == Rule::Renju && color == Color::Black)
            .then(|| renju::foul(board, p))
            .flatten()
    }

    /// Whether `color` may play on `p`: the cell is empty and the move is no foul.
    #[must_use]
    pub fn is_legal(self, board: &Board, p: Pos, color: Color) -> bool {
        board.is_empty_at(p) && self.foul(board, p, color).is_none()
    }

    /// What a stone of `color` on the empty cell `p` does, as the referee judges it.
    #[must_use]
    pub fn judge(self, board: &Board, p: Pos, color: Color) -> Verdict {
        if let Some(foul) = self.foul(board, p, color) {
            Verdict::Foul(foul)
        } else if self.is_win(board, p, color) {
            Verdict::Win
        } else {
            Verdict::Continue
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro => "caro",
            Rule::CaroExact => "caro-exact",
        })
    }
}

/// A rule name that is not one of [`Rule::ALL`]'s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRule(pub String);

impl fmt::Display for UnknownRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<String> = Rule::ALL.iter().map(Rule::to_string).collect();
        write!(
            f,
            "unknown rule '{}' (expected one of: {}, or a protocol code such as 4)",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownRule {}

impl FromStr for Rule {
    type Err = UnknownRule;

    /// A rule's name as [`Rule`]'s `Display` writes it (any case), or its `INFO rule` code.
    fn from_str(s: &str) -> Result<Rule, UnknownRule> {
        let s = s.trim();
        Rule::ALL
            .into_iter()
            .find(|r| r.to_string().eq_ignore_ascii_case(s))
            .or_else(|| s.parse().ok().and_then(Rule::from_code))
            .ok_or_else(|| UnknownRule(s.to_string()))
    }
}

/// The referee's view of one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The mover wins.
    Win,
    /// The mover (black, in renju) loses by playing a forbidden point.
    Foul(Foul),
    /// The game goes on.
    Continue,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board_with(black: &[(u8, u8)], white: &[(u8, u8)]) -> Board {
        Board::with_stones(15, 15, black, white).unwrap()
    }

    #[test]
    fn rule_codes_decode_as_the_managers_send_them() {
        let cases = [
            (0, Rule::Freestyle),
            (1, Rule::Standard),
            (2, Rule::Renju),
            (3, Rule::Standard),
            (4, Rule::Renju),
            (8, Rule::Caro),
            (9, Rule::CaroExact),
        ];
        for (code, rule) in cases {
            assert_eq!(Rule::from_code(code), Some(rule), "code {code}");
        }
        assert_eq!(Rule::from_code(-1), None);
        for rule in Rule::ALL {
            assert_eq!(Rule::from_code(i64::from(rule.code())), Some(rule));
        }
    }

    #[test]
    fn rules_parse_from_their_names_and_codes() {
        for rule in Rule::ALL {
            assert_eq!(rule.to_string().to_uppercase().parse(), Ok(rule));
            assert_eq!(rule.code().to_string().parse(), Ok(rule));
        }
        assert!("gomoku".parse::<Rule>().is_err());
        assert!("-1".parse::<Rule>().is_err());
    }

    #[test]
    fn winning_dir_names_the_line_of_the_five() {
        // A vertical five through (3, 3), and a horizontal four that is no win.
        let b = board_with(
            &[(3, 1), (3, 2), (3, 4), (3, 5), (1, 3), (2, 3), (4, 3)],
            &[],
        );
        let p = Pos::new(3, 3);
        assert_eq!(
            Rule::Standard.winning_dir(&b, p, Color::Black),
            Some(Dir::ALL[1])
        );
        assert_eq!(Rule::Standard.winning_dir(&b, p, Color::White), None);
    }

    #[test]
    fn overline_wins_only_where_the_rule_says() {
        // Black X X X X X _ X : filling the gap at (5, 7) makes six.
        let b = board_with(&[(0, 7), (1, 7), (2, 7), (3, 7), (4, 7)], &[]);
        let six = Pos::new(5, 7);
        let b6 = board_with(&[(0, 7), (1, 7), (2, 7), (3, 7), (4, 7), (6, 7)], &[]);
        assert!(Rule::Freestyle.is_win(&b6, six, Color::Black));
        assert!(!Rule::Standard.is_win(&b6, six, Color::Black));
        assert!(!Rule::Renju.is_win(&b6, six, Color::Black));
        assert!(Rule::Caro.is_win(&b6, six, Color::Black));
        assert!(!Rule::CaroExact.is_win(&b6, six, Color::Black));
        // Five exactly wins everywhere (ends open).
        assert!(Rule::Standard.is_win(&b, Pos::new(4, 7), Color::Black));
    }

    #[test]
    fn white_overline_wins_in_renju() {
        let w = board_with(&[], &[(0, 3), (1, 3), (2, 3), (4, 3), (5, 3)]);
        assert!(Rule::Renju.is_win(&w, Pos::new(3, 3), Color::White));
        assert!(!Rule::Standard.is_win(&w, Pos::new(3, 3), Color::White));
    }

    #[test]
    fn caro_five_blocked_at_both_ends_does_not_win_but_the_edge_never_blocks() {
        // O X X X X _ O : filling (5, 2) makes a five with white at both ends.
        let b = board_with(&[(1, 2), (2, 2), (3, 2), (4, 2)], &[(0, 2), (6, 2)]);
        let p = Pos::new(5, 2);
        assert!(!Rule::Caro.is_win(&b, p, Color::Black));
        assert!(!Rule::CaroExact.is_win(&b, p, Color::Black));
        assert!(Rule::Freestyle.is_win(&b, p, Color::Black));
        // Against the edge and one white stone: still a win.
        let e = board_with(&[(0, 4), (1, 4), (2, 4), (3, 4)], &[(5, 4)]);
        assert!(Rule::Caro.is_win(&e, Pos::new(4, 4), Color::Black));
    }

    #[test]
    fn judge_reports_wins_and_plain_moves() {
        let b = board_with(&[(0, 0), (1, 1), (2, 2), (3, 3)], &[]);
        assert_eq!(
            Rule::Renju.judge(&b, Pos::new(4, 4), Color::Black),
            Verdict::Win
        );
        assert_eq!(
            Rule::Renju.judge(&b, Pos::new(9, 9), Color::Black),
            Verdict::Continue
        );
    }

    /// A `size` board from the protocol's `BOARD` fields: (x, y, 1 own / 2 opponent), with
    /// `own` the colour to move.
    fn protocol_board(size: i64, own: Color, fields: &[(u8, u8, u8)]) -> Board {
        let mut b = Board::new(size, size).unwrap();
        for &(x, y, who) in fields {
            let c = if who == 1 { own } else { own.opponent() };
            b.place(Pos::new(x, y), c).unwrap();
        }
        b
    }

    fn winning_moves(rule: Rule, b: &Board, c: Color) -> Vec<Pos> {
        b.empty_cells()
            .filter(|&p| rule.judge(b, p, c) == Verdict::Win)
            .collect()
    }

    /// Cells where `c` would make a straight four (the points an open three threatens).
    fn straight_four_points(b: &Board, c: Color, five: FiveRule) -> Vec<Pos> {
        b.empty_cells()
            .filter(|&p| {
                Dir::ALL
                    .iter()
                    .any(|&d| line_through(b, p, c, d).straight_four(five))
            })
            .collect()
    }

    #[test]
    fn gomocup_rule_tester_t14_five_in_one_under_every_rule() {
        // h8 h9 i8 i9 j8 j9 k8 k9 on 20x20, black to move: g8 or l8 completes five.
        let b = protocol_board(
            20,
            Color::Black,
            &[
                (7, 7, 1),
                (7, 8, 2),
                (8, 7, 1),
                (8, 8, 2),
                (9, 7, 1),
                (9, 8, 2),
                (10, 7, 1),
                (10, 8, 2),
            ],
        );
        for rule in Rule::ALL {
            assert_eq!(
                winning_moves(rule, &b, Color::Black),
                [Pos::new(6, 7), Pos::new(11, 7)],
                "{rule}"
            );
        }
    }

    #[test]
    fn gomocup_rule_tester_t15a_standard_six_is_no_win() {
        // White to move: h13 (7,12) joins white's column into six, which wins nothing in
        // standard, so white must stop black's open three g8-h8-i8 at f8 or j8.
        let b = protocol_board(
            15,
            Color::White,
            &[
                (7, 7, 2),
                (7, 8, 1),
                (8, 7, 2),
                (7, 9, 1),
                (6, 7, 2),
                (7, 10, 1),
                (9, 12, 2),
                (7, 11, 1),
                (6, 13, 2),
                (7, 13, 1),
                (8, 14, 2),
            ],
        );
        assert!(winning_moves(Rule::Standard, &b, Color::White).is_empty());
        assert_eq!(
            winning_moves(Rule::Freestyle, &b, Color::White),
            [Pos::new(7, 12)]
        );
        assert_eq!(
            straight_four_points(&b, Color::Black, FiveRule::Exact),
            [Pos::new(5, 7), Pos::new(9, 7)]
        );
    }

    #[test]
    fn gomocup_rule_tester_t15b_renju_g9_is_forbidden() {
        // h8 h9 i7 i9 h10 i6 i11 i12, black to move: g9 (6,8) makes two open threes.
        let b = protocol_board(
            15,
            Color::Black,
            &[
                (7, 7, 1),
                (7, 8, 2),
                (8, 6, 1),
                (8, 8, 2),
                (7, 9, 1),
                (8, 5, 2),
                (8, 10, 1),
                (8, 11, 2),
            ],
        );
        let g9 = Pos::new(6, 8);
        assert_eq!(
            Rule::Renju.judge(&b, g9, Color::Black),
            Verdict::Foul(Foul::DoubleThree)
        );
        assert!(renju::forbidden_points(&b).contains(&(g9, Foul::DoubleThree)));
        // The rule gates it: the same move is fine for white, and outside renju.
        assert!(Rule::Renju.is_legal(&b, g9, Color::White));
        assert!(Rule::Freestyle.is_legal(&b, g9, Color::Black));
    }

    #[test]
    fn gomocup_rule_tester_t15c_caro_five_blocked_at_both_ends_is_no_win() {
        // h8 f8 g8 f9 i8 f7 j8 l8, black to move: k8 (10,7) gives g8-k8 between white's f8
        // and l8, no win in caro, so black must answer white's three f7-f8-f9.
        let b = protocol_board(
            15,
            Color::Black,
            &[
                (7, 7, 1),
                (5, 7, 2),
                (6, 7, 1),
                (5, 8, 2),
                (8, 7, 1),
                (5, 6, 2),
                (9, 7, 1),
                (11, 7, 2),
            ],
        );
        for rule in [Rule::Caro, Rule::CaroExact] {
            assert!(winning_moves(rule, &b, Color::Black).is_empty(), "{rule}");
        }
        assert_eq!(
            winning_moves(Rule::Freestyle, &b, Color::Black),
            [Pos::new(10, 7)]
        );
        assert_eq!(
            straight_four_points(&b, Color::White, FiveRule::OrMore),
            [Pos::new(5, 5), Pos::new(5, 9)]
        );
    }
}
