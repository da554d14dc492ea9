//! The hard level: the depth-limited minimax with alpha-beta of docs/levels.md. The
//! engine's move, the opponent's reply and the engine's reply are searched, then the board
//! is evaluated: at most 12 x 8 x 8 = 768 leaves.

use std::cmp::Reverse;

use crate::board::{Board, Color, Pos};
use crate::levels::classic::{Classic, WIN};

/// Root moves searched.
const ROOT_WIDTH: usize = 12;
/// Moves searched at every inner node.
const INNER_WIDTH: usize = 8;
/// Plies below the root move.
const DEPTH: u32 = 2;
/// Beyond every score.
const INF: i64 = i64::MAX;

/// The move, or `None` when the engine has no candidate.
pub fn choose(board: &mut Board, game: &Classic<'_>) -> Option<Pos> {
    search(board, game).map(|o| o.pos)
}

/// The move a search chose, with its value and the search's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BestMove {
    pub pos: Pos,
    /// The chosen move's value (`WIN` for a win at once).
    pub value: i64,
    /// Boards evaluated.
    pub leaves: usize,
}

/// The root of the tree; `None` when the engine has no candidate.
pub fn search(board: &mut Board, game: &Classic<'_>) -> Option<BestMove> {
    let mut minimax = Minimax { game, leaves: 0 };
    let moves = minimax.sorted(board, game.me, ROOT_WIDTH);
    let mut best = BestMove {
        pos: *moves.first()?,
        value: -INF,
        leaves: 0,
    };
    let mut alpha = -INF;
    for c in moves {
        if game.wins(board, c, game.me) {
            return Some(BestMove {
                pos: c,
                value: WIN,
                leaves: minimax.leaves,
            });
        }
        let Some(v) = with_stone(board, c, game.me, |b| {
            minimax.minimax(b, DEPTH, alpha, INF, false)
        }) else {
            continue;
        };
        // Strict improvement: among equal values the earlier sorted move stays.
        if v > best.value {
            best = BestMove {
                pos: c,
                value: v,
                leaves: 0,
            };
        }
        alpha = alpha.max(v);
    }
    best.leaves = minimax.leaves;
    Some(best)
}

/// The search below the root: the game it scores, and the boards it has evaluated.
struct Minimax<'g, 'a> {
    game: &'g Classic<'a>,
    leaves: usize,
}

impl Minimax<'_, '_> {
    /// The first `width` of `side`'s candidates by candidate total, highest first, always
    /// from the engine's point of view; the sort is stable, so ties stay row-major.
    fn sorted(&self, board: &Board, side: Color, width: usize) -> Vec<Pos> {
        let mut scored: Vec<(i64, Pos)> = self
            .game
            .candidates(board, side)
            .into_iter()
            .map(|c| (self.game.total(board, c), c))
            .collect();
        scored.sort_by_key(|&(total, _)| Reverse(total));
        scored.into_iter().take(width).map(|(_, c)| c).collect()
    }

    fn leaf(&mut self, board: &Board) -> i64 {
        self.leaves += 1;
        self.game.eval(board)
    }

    fn minimax(
        &mut self,
        board: &mut Board,
        depth: u32,
        mut alpha: i64,
        mut beta: i64,
        maximizing: bool,
    ) -> i64 {
        if depth == 0 {
            return self.leaf(board);
        }
        let side = if maximizing {
            self.game.me
        } else {
            self.game.opp()
        };
        let moves = self.sorted(board, side, INNER_WIDTH);
        if moves.is_empty() {
            return self.leaf(board);
        }
        let mut best = if maximizing { -INF } else { INF };
        for c in moves {
            if self.game.wins(board, c, side) {
                return if maximizing { WIN } else { -WIN };
            }
            let Some(v) = with_stone(board, c, side, |b| {
                self.minimax(b, depth - 1, alpha, beta, !maximizing)
            }) else {
                continue;
            };
            if maximizing {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if beta <= alpha {
                break;
            }
        }
        best
    }
}

/// Runs `f` with a stone of `colour` on `p`, then takes it back. `None` only if `p` was
/// not empty, which candidates never are.
fn with_stone<T>(
    board: &mut Board,
    p: Pos,
    colour: Color,
    f: impl FnOnce(&mut Board) -> T,
) -> Option<T> {
    board.place(p, colour).ok()?;
    let out = f(board);
    board.undo();
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::levels::testkit::{at, forbid, picture, random_position};
    use crate::rng::Rng;
    use crate::rules::Rule;

    const B: Color = Color::Black;
    const W: Color = Color::White;

    fn hard(board: &mut Board, game: &Classic<'_>) -> BestMove {
        let before = board.clone();
        let out = search(board, game).expect("a candidate");
        assert_eq!(*board, before, "the search leaves the board as given");
        out
    }

    /// The spec's tree without alpha-beta: every one of the first `root` (then `inner`)
    /// sorted candidates is searched and the plain maximum or minimum kept, with the same
    /// win returns and the same strict improvement at the root. `wild` records a leaf
    /// outside `-WIN..=WIN` (see `reference_minimax_agrees_on_random_positions`).
    struct Plain<'g, 'a> {
        game: &'g Classic<'a>,
        inner: usize,
        leaves: usize,
        wild: bool,
    }

    impl Plain<'_, '_> {
        fn top(&self, board: &Board, side: Color, width: usize) -> Vec<Pos> {
            // Ties broken explicitly by position (row-major), rather than by a stable sort.
            let mut scored: Vec<(Reverse<i64>, Pos)> = (self.game.candidates(board, side))
                .into_iter()
                .map(|c| (Reverse(self.game.total(board, c)), c))
                .collect();
            scored.sort_unstable();
            scored.into_iter().take(width).map(|(_, c)| c).collect()
        }

        fn leaf(&mut self, board: &Board) -> i64 {
            self.leaves += 1;
            let v = self.game.eval(board);
            self.wild |= !(-WIN..=WIN).contains(&v);
            v
        }

        fn value(&mut self, board: &mut Board, depth: u32, maximizing: bool) -> i64 {
            if depth == 0 {
                return self.leaf(board);
            }
            let side = if maximizing {
                self.game.me
            } else {
                self.game.opp()
            };
            let moves = self.top(board, side, self.inner);
            if moves.is_empty() {
                return self.leaf(board);
            }
            let mut values = Vec::new();
            for c in moves {
                if self.game.wins(board, c, side) {
                    return if maximizing { WIN } else { -WIN };
                }
                board.place(c, side).unwrap();
                values.push(self.value(board, depth - 1, !maximizing));
                board.undo();
            }
            let best = if maximizing {
                values.iter().max()
            } else {
                values.iter().min()
            };
            *best.unwrap()
        }

        /// The answer with caps `root` and `inner`, and whether a leaf was wild.
        fn choose(
            board: &mut Board,
            game: &Classic<'_>,
            root: usize,
            inner: usize,
        ) -> (BestMove, bool) {
            let mut plain = Plain {
                game,
                inner,
                leaves: 0,
                wild: false,
            };
            let mut best: Option<(Pos, i64)> = None;
            for c in plain.top(board, game.me, root) {
                if game.wins(board, c, game.me) {
                    best = Some((c, WIN));
                    break;
                }
                board.place(c, game.me).unwrap();
                let v = plain.value(board, DEPTH, false);
                board.undo();
                if best.is_none_or(|(_, top)| v > top) {
                    best = Some((c, v));
                }
            }
            let (pos, value) = best.unwrap();
            (
                BestMove {
                    pos,
                    value,
                    leaves: plain.leaves,
                },
                plain.wild,
            )
        }
    }

    #[test]
    fn a_win_at_the_root_is_answered_at_once() {
        // Black's four in row 3 wins at (1, 3) or (6, 3): 11 * 1,000,030 + 10 * 30 each,
        // above white's wins (11 * 30 + 10 * 1,000,030). The first sorted, (1, 3), is
        // answered before any evaluation.
        let mut board = picture(&[
            ".........",
            ".........",
            ".........",
            "..XXXX...",
            ".........",
            "..OOOO...",
            ".........",
            ".........",
            ".........",
        ]);
        let out = hard(&mut board, &Classic::new(Rule::Freestyle, B));
        assert_eq!(
            out,
            BestMove {
                pos: at(1, 3),
                value: WIN,
                leaves: 0
            }
        );
    }

    /// One-dimensional rows for caro: `#` rows keep every row apart, and blocked cells end
    /// each run, so only horizontal runs score. A "fake" row, `#OXXXX.O#`: black's stone on
    /// (6, y) makes five held by white at both ends, no win in caro, yet point black =
    /// 1,000,000 (other directions run into blocked cells: 0) and point white = 0 (white's
    /// pair there is closed): total 11,000,000. Its lines: the four, open at (6, y), 10,000
    /// for black; filled by black, 1,000,000 (eval + 9,900,000); filled by white, 0 (eval
    /// - 100,000).
    const FAKE: &str = "#OXXXX.O#";
    /// Black's real five at (5, y) (the blocked cell does not hold it): point black
    /// 1,000,000, white 0, total 11,000,000, tied with a fake.
    const FIVE: &str = "#XXXX.###";
    /// White's five at (5, y): point white 1,000,000, black 0: total 10,000,000 for black.
    const THREAT: &str = "#OOOO.###";

    /// The rows, each followed by a blocked row (at least 5 rows in all).
    fn rows(content: &[&str]) -> Board {
        let wall = "#".repeat(content.first().map_or(0, |r| r.len()));
        let mut lines = Vec::new();
        for row in content {
            lines.extend([*row, wall.as_str()]);
        }
        while lines.len() < 5 {
            lines.push(wall.as_str());
        }
        picture(&lines)
    }

    #[test]
    fn a_win_found_later_at_the_root_still_ends_the_search() {
        // Fakes at y 0 and 2, black's five at (5, 4): all total 11,000,000, so row-major
        // order. Root (6, 0): white tries (6, 2) (black's reply (5, 4) wins: WIN, no leaf)
        // then (5, 4) (black's reply (6, 2): one leaf, two held fives for black,
        // 10 * 2,000,000 = 20,000,000); the minimum is WIN, and alpha becomes WIN.
        // Root (6, 2): white's (6, 0) is answered by black's win again, beta = WIN <=
        // alpha: cut. Root (5, 4) wins: answered at once, after 1 leaf.
        let mut board = rows(&[FAKE, FAKE, FIVE]);
        let out = hard(&mut board, &Classic::new(Rule::Caro, B));
        assert_eq!(
            out,
            BestMove {
                pos: at(5, 4),
                value: WIN,
                leaves: 1
            }
        );
    }

    #[test]
    fn a_win_ranked_13th_at_the_root_is_not_seen() {
        // Twelve fakes (y 0..=22), then black's real five at (5, 24): thirteenth of 13
        // equal totals, outside the root's 12, and last at every inner node (outside 8).
        // The tree sees only fakes, and every row is alike, so every root move is worth
        // the same: base 10 * (13 * 10,000) = 1,300,000, black fills a fake (+9,900,000),
        // white fills one (-100,000), black fills one (+9,900,000): 21,000,000. Equal values
        // keep the first root move, (6, 0).
        let mut content = vec![FAKE; 12];
        content.push(FIVE);
        let mut board = rows(&content);
        let game = Classic::new(Rule::Caro, B);
        let out = hard(&mut board, &game);
        assert_eq!((out.pos, out.value), (at(6, 0), 21_000_000));
        // With a root cap of 13 the same procedure wins at once.
        assert_eq!(
            Plain::choose(&mut board, &game, 13, INNER_WIDTH).0.pos,
            at(5, 24)
        );
        assert_eq!(
            Plain::choose(&mut board, &game, ROOT_WIDTH, INNER_WIDTH)
                .0
                .pos,
            at(6, 0)
        );
    }

    #[test]
    fn an_opponent_win_ranked_9th_at_a_min_node_is_not_seen() {
        // White's five threat at (5, 0), then nine fakes (y 2..=18). From the engine's
        // point of view the threat totals 10,000,000, below every fake's 11,000,000, so it
        // is sorted last at every node (from white's own view it would be first).
        // Base: 10 * (9 * 10,000) - 11 * 10,000 = 790,000.
        // - Root on a fake: white's 8 replies are the 8 other fakes (the threat is 9th);
        //   each is worth 790,000 + 9,900,000 - 100,000 + 9,900,000 = 20,490,000 (black's
        //   best reply is another fake; blocking adds only 110,000).
        // - Root on the block (5, 0): 790,000 + 110,000 - 100,000 + 9,900,000 = 10,700,000.
        // So hard plays the first fake, (6, 2), and white wins next move.
        let mut content = vec![THREAT];
        content.extend([FAKE; 9]);
        let mut board = rows(&content);
        let game = Classic::new(Rule::Caro, B);
        let out = hard(&mut board, &game);
        assert_eq!((out.pos, out.value), (at(6, 2), 20_490_000));
        // With 9 replies per node white's win is found under every fake (-WIN), and the
        // block is played.
        assert_eq!(
            Plain::choose(&mut board, &game, ROOT_WIDTH, 9).0.pos,
            at(5, 0)
        );
        assert_eq!(
            Plain::choose(&mut board, &game, ROOT_WIDTH, INNER_WIDTH)
                .0
                .pos,
            at(6, 2)
        );
    }

    /// Four rows whose cells all total 0 (every run through them is closed at both ends
    /// once filled), so every node orders them row-major: A (2, 0), B (4, 2), C (2, 4),
    /// D (4, 6). Filling a cell, by either side, changes the evaluation by
    /// A: 0 (a lone white stone scores nothing either way),
    /// B: +5,500 (white's three, open at B, 500, is closed: -11 * -500),
    /// C: 0,
    /// D: -5,000 (black's three, open at D, 500, is closed: 10 * -500).
    /// Base: 10 * 500 - 11 * 500 = -500; a leaf is -500 + d(x) + d(y) + d(z).
    fn four_cells() -> Board {
        rows(&["#O.###", "#OOO.#", "#O.###", "#XXX.#"])
    }

    #[test]
    fn alpha_beta_cuts_off_when_beta_reaches_alpha() {
        // Relative to the base, root x, white y, black z:
        // x=A: y=B: z=C 5,500, z=D 500 -> 5,500 (beta 5,500).
        //      y=C: z=B 5,500 >= beta 5,500: cut (beta <= alpha with equality) -> 5,500.
        //      y=D: z=B 500, z=C -5,000 -> 500. Min 500. Leaves 5. Best A = 500, alpha 500.
        // x=B: y=A: z=C 5,500, z=D 500 -> 5,500; y=C: z=A 5,500: cut; y=D: z=A 500,
        //      z=C 500 -> 500. Value 500, not better. Leaves 5.
        // x=C: y=A: z=B 5,500, z=D -5,000 -> 5,500; y=B: z=A 5,500: cut; y=D: z=A -5,000,
        //      z=B 500 -> 500. Value 500. Leaves 5.
        // x=D: y=A: z=B 500, z=C -5,000 -> 500; beta 500 <= alpha 500: cut before y=B, C.
        //      Leaves 2.
        // 17 leaves instead of 4 * 3 * 2 = 24; every root move is worth 500, so A stays:
        // (2, 0) with value -500 + 500 = 0.
        let mut board = four_cells();
        let game = Classic::new(Rule::Freestyle, B);
        assert_eq!(
            hard(&mut board, &game),
            BestMove {
                pos: at(2, 0),
                value: 0,
                leaves: 17
            }
        );
        let (plain, _) = Plain::choose(&mut board, &game, ROOT_WIDTH, INNER_WIDTH);
        assert_eq!(
            plain,
            BestMove {
                pos: at(2, 0),
                value: 0,
                leaves: 24
            }
        );
    }

    #[test]
    fn equal_values_keep_the_first_move_by_total_not_by_row() {
        // Standard. Row 0: a lone white stone, A (2, 0), total 0. Row 2: black's six;
        // (7, 2) makes seven, no win under standard, but totals 11 * 1,000,000. Sorted:
        // (7, 2), then A. Either root move leaves the other cell to white, then black has no
        // candidate left: the board is evaluated (2 leaves). Both boards are worth
        // 10 * 1,000,000 (black's long run; nothing else scores), so the first sorted,
        // (7, 2), stays, though A comes first in row-major order.
        let mut board = rows(&["#O.######", "#XXXXXX.#"]);
        let game = Classic::new(Rule::Standard, B);
        assert_eq!(
            hard(&mut board, &game),
            BestMove {
                pos: at(7, 2),
                value: 10_000_000,
                leaves: 2
            }
        );
    }

    #[test]
    fn each_side_searches_only_its_own_allowed_cells() {
        // White to play; black's fours at (5, 0) and (5, 2) (both total 10,000,000 for
        // white, so row-major). Black may play both: each block leaves the other win, so
        // both are worth -WIN and the first, (5, 0), stays.
        let mut board = rows(&[FIVE, FIVE]);
        let out = hard(&mut board, &Classic::new(Rule::Freestyle, W));
        assert_eq!(
            out,
            BestMove {
                pos: at(5, 0),
                value: -WIN,
                leaves: 0
            }
        );
        // (5, 0) forbidden for black: at the min node under white's (5, 2) black has no
        // candidate, so that board is evaluated: black's four open at (5, 0), 10,000, gives
        // -11 * 10,000. White blocks (5, 2).
        let game = Classic::with_filter(Rule::Renju, W, forbid(B, &[(5, 0)]));
        assert_eq!(
            hard(&mut board, &game),
            BestMove {
                pos: at(5, 2),
                value: -110_000,
                leaves: 1
            }
        );

        // Black to play with a five at (5, 0) that black may not play: the root skips it,
        // and so does black's reply after white fills it, so A (2, 2) is played and the
        // leaf (every run closed) is worth 0, not WIN.
        let mut board = rows(&[FIVE, "#O.######"]);
        let game = Classic::with_filter(Rule::Renju, B, forbid(B, &[(5, 0)]));
        assert_eq!(
            hard(&mut board, &game),
            BestMove {
                pos: at(2, 2),
                value: 0,
                leaves: 1
            }
        );
    }

    #[test]
    fn past_win_values_alpha_beta_and_plain_minimax_can_disagree() {
        // Standard, black to play; a stand-in filter forbids S for black and makes D (an
        // empty cell, open end for black's four) unplayable for both.
        // y 0: #OOO.OO##  S (4, 0): white's six (no win), 1,000,000; base 500 + 50
        // y 2: #OOOO.###  F (5, 2): white's five; base 10,000
        // y 4: #XXX.D###  K (4, 4): black's closed four, 10,000; base 500
        // Base 10 * 500 - 11 * 10,550 = -111,050. Deltas: black F +110,000; white S
        // -11 * 999,450 = -10,993,950; black K +95,000; white K -5,000.
        // Totals for black: F and S 10,000,000 (row-major: S first), K 110,000.
        // Root F: white S, black K: -111,050 + 110,000 - 10,993,950 + 95,000 = -10,900,000;
        //   white K, then black has no cell left: -111,050 + 110,000 - 5,000 = -6,050.
        //   Value -10,900,000.
        // Root K: white S, black F: -10,900,000 again; beta = alpha: cut. Value
        //   -10,900,000, not better: the spec's tree blocks at F (3 leaves).
        // The plain tree goes on to white's F, a win: -WIN = -10,000,000, which is
        // greater than -10,900,000, so it plays K. The leaves past -WIN make the
        // difference (see the reference test below).
        let mut board = rows(&["#OOO.OO##", "#OOOO.###", "#XXX.-###"]);
        let (s, d) = (at(4, 0), at(5, 4));
        let filter =
            move |b: &Board, p: Pos, c: Color| b.is_empty_at(p) && p != d && !(c == B && p == s);
        let game = Classic::with_filter(Rule::Standard, B, filter);
        let expected = BestMove {
            pos: at(5, 2),
            value: -10_900_000,
            leaves: 3,
        };
        assert_eq!(hard(&mut board, &game), expected);
        let (plain, wild) = Plain::choose(&mut board, &game, ROOT_WIDTH, INNER_WIDTH);
        assert_eq!((plain.pos, plain.value, wild), (at(4, 4), -WIN, true));
    }

    #[test]
    fn no_candidate_means_no_answer_here() {
        let mut board = four_cells();
        let game = Classic::with_filter(Rule::Renju, B, |_, _, c| c != B);
        assert_eq!(search(&mut board, &game), None);
    }

    /// Alpha-beta with the spec's orderings picks the same root move as the plain tree
    /// whenever every leaf lies within `-WIN..=WIN`. Then each node's plain value is the
    /// ordinary minimax of its children (a win, `+-WIN`, bounds every other value, so
    /// returning it at once equals taking the max or min), and alpha-beta returns that
    /// value exactly when it lies inside the window, and a bound on the same side of the
    /// window otherwise. At the root, alpha is the best value so far and beta is
    /// infinite, so a later move comes back above alpha exactly when its true value is
    /// strictly greater: the same moves replace the best, ties included.
    ///
    /// Outside that range the shortcut is not a minimax: a non-winning run of five or
    /// more (a six in standard, a held five in caro) scores 1,000,000 and a leaf can pass
    /// WIN, so a win returned at once may not be the maximum of the values before it,
    /// and a cut-off taken before reaching that win can then change the answer
    /// (`past_win_values_alpha_beta_and_plain_minimax_can_disagree`). Those positions
    /// are only counted here; hard follows the spec's procedure in them too.
    #[test]
    fn reference_minimax_agrees_on_random_positions() {
        let rules = Rule::ALL;
        let mut rng = Rng::new(0x4057_4A4D);
        let (mut compared, mut wild) = (0, 0);
        for i in 0..40 {
            let rule = rules[i % rules.len()];
            let stones = 3 + rng.below(20);
            let (mut board, me) = random_position(&mut rng, 11, stones, rule);
            let game = Classic::new(rule, me);
            let out = hard(&mut board, &game);
            assert!(out.leaves <= ROOT_WIDTH * INNER_WIDTH * INNER_WIDTH);
            let (plain, out_of_range) = Plain::choose(&mut board, &game, ROOT_WIDTH, INNER_WIDTH);
            if out_of_range {
                wild += 1;
                continue;
            }
            compared += 1;
            assert_eq!(
                (out.pos, out.value),
                (plain.pos, plain.value),
                "{rule} {me:?}\n{board}"
            );
            assert!(out.leaves <= plain.leaves);
        }
        assert!(compared >= 30, "compared {compared}, wild {wild}");
    }
}
