//! Line patterns and combined threats, and the tables that name them.
//!
//! A cell's view of one line is the ten cells within five steps on either side (the cell
//! itself is left out: it is the one being considered). Each holds 2 bits (empty, black,
//! white, wall), so a line key has 20 bits and one table per rule and colour maps every key
//! to the [`Pattern`] a stone of that colour on the cell would make. Five steps, not four,
//! because an exact-five rule must see the sixth cell that turns a five into an overline,
//! and caro must see the stones that block a five at both ends.
//!
//! The tables are built once per rule by memoised recursion on the definition: a five wins
//! under the rule (judged by the rules' own [`Line`]); a four has cells that complete a five
//! through the centre (two or more cannot all be blocked: an open four); a three is one
//! move from a four, and so on down. Cells are the padded board's codes
//! ([`crate::board::padded`]).

use std::sync::OnceLock;

use crate::board::Color;
use crate::board::padded::{EMPTY, stone};
use crate::rules::Rule;
use crate::rules::line::Line;

/// How far a line key reaches on each side of its cell.
pub const HALF: usize = 5;
/// Bits in a line key.
pub const KEY_BITS: u32 = 4 * HALF as u32;

/// The 2-bit slot in a line key of the cell `offset` steps away (`offset` in ±1..=±5).
#[must_use]
pub const fn slot(offset: i32) -> u32 {
    if offset < 0 {
        (offset + HALF as i32) as u32
    } else {
        (offset + HALF as i32 - 1) as u32
    }
}

/// What a stone of one colour on a cell makes along one line, weakest first. In the shapes
/// `X` is the stone, `_` an empty cell, `O` an opponent stone or the wall.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Pattern {
    /// Nothing can become five here: `OXX_XO`.
    Dead,
    /// A line longer than five that does not win under the rule: `XXX_XX` filled.
    Overline,
    /// One stone from a blocked two: `OX____`.
    Block1,
    /// One stone from an open two: `__X___`.
    Flex1,
    /// Two from a blocked three: `OXX___`.
    Block2,
    /// Two from an open three: `__XX__`.
    Flex2,
    /// One move from a blocked four: `OXXX__`.
    Block3,
    /// One move from an open four (an open three): `__XXX_`.
    Flex3,
    /// One move from five, with one completing cell: `OXXXX_`.
    Block4,
    /// Two or more completing cells (an open four, or a four twice in one line).
    Flex4,
    /// Wins under the rule.
    Five,
}

impl Pattern {
    /// Every pattern, in code order.
    pub const ALL: [Pattern; 11] = [
        Pattern::Dead,
        Pattern::Overline,
        Pattern::Block1,
        Pattern::Flex1,
        Pattern::Block2,
        Pattern::Flex2,
        Pattern::Block3,
        Pattern::Flex3,
        Pattern::Block4,
        Pattern::Flex4,
        Pattern::Five,
    ];
    /// Number of patterns.
    pub const COUNT: usize = Pattern::ALL.len();

    /// The pattern one move weaker: what a line is when one of its moves makes `self`.
    fn one_before(self) -> Pattern {
        match self {
            Pattern::Flex4 => Pattern::Flex3,
            Pattern::Block4 => Pattern::Block3,
            Pattern::Flex3 => Pattern::Flex2,
            Pattern::Block3 => Pattern::Block2,
            Pattern::Flex2 => Pattern::Flex1,
            Pattern::Block2 => Pattern::Block1,
            _ => Pattern::Dead,
        }
    }
}

/// What a stone of one colour on a cell makes over its four lines, weakest first (the order
/// is urgency: any four outranks a double three).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Threat {
    None,
    /// One open two.
    Flex2,
    /// One blocked three.
    Block3,
    /// Two open twos.
    Flex2x2,
    /// A blocked three and an open two or another blocked three.
    Block3Plus,
    /// One open three.
    Flex3,
    /// An open three with a blocked three or an open two.
    Flex3Plus,
    /// Two open threes.
    Flex3x2,
    /// One blocked four.
    Block4,
    /// A blocked four with a blocked three or an open two.
    Block4Plus,
    /// A blocked four and an open three.
    Block4Flex3,
    /// An open four or two fours: wins unless the opponent has a four of his own.
    Flex4,
    /// Wins at once.
    Five,
}

impl Threat {
    /// Number of threat classes.
    pub const COUNT: usize = 13;

    /// Whether the move makes at least a four (the opponent must answer it).
    #[must_use]
    pub fn is_four(self) -> bool {
        self >= Threat::Block4
    }

    /// Combines the four line patterns of one cell and colour.
    #[must_use]
    pub fn of(pats: [Pattern; 4]) -> Threat {
        let mut n = [0u8; Pattern::COUNT];
        for p in pats {
            n[p as usize] += 1;
        }
        let (b4, f3, b3, f2) = (
            n[Pattern::Block4 as usize],
            n[Pattern::Flex3 as usize],
            n[Pattern::Block3 as usize],
            n[Pattern::Flex2 as usize],
        );
        if n[Pattern::Five as usize] > 0 {
            Threat::Five
        } else if n[Pattern::Flex4 as usize] > 0 || b4 >= 2 {
            Threat::Flex4
        } else if b4 == 1 {
            if f3 > 0 {
                Threat::Block4Flex3
            } else if b3 + f2 > 0 {
                Threat::Block4Plus
            } else {
                Threat::Block4
            }
        } else if f3 >= 2 {
            Threat::Flex3x2
        } else if f3 == 1 {
            if b3 + f2 > 0 {
                Threat::Flex3Plus
            } else {
                Threat::Flex3
            }
        } else if b3 >= 1 && b3 + f2 >= 2 {
            Threat::Block3Plus
        } else if f2 >= 2 {
            Threat::Flex2x2
        } else if b3 == 1 {
            Threat::Block3
        } else if f2 == 1 {
            Threat::Flex2
        } else {
            Threat::None
        }
    }
}

/// A pattern code: the four line patterns of one cell and colour as an unordered multiset,
/// numbered from 0 (four dead lines) to [`PCODE_COUNT`]` - 1`. Everything a cell's patterns mean
/// (its threat, its value to the evaluation) depends only on the multiset, not on which
/// direction holds which pattern, so tables indexed by pcode are 14 times smaller than tables
/// over the four patterns in order.
pub type Pcode = u16;

/// Pattern codes: multisets of four patterns out of [`Pattern::COUNT`], `C(11 + 3, 4)`.
pub const PCODE_COUNT: usize = 1001;

/// The rule-independent pcode tables: patterns in order to pcode, pcode to its patterns and
/// its combined threat.
pub struct Pcodes {
    of_pats: Vec<Pcode>,
    pats: Vec<[Pattern; 4]>,
    threats: Vec<Threat>,
}

impl Pcodes {
    /// The tables, built on first use.
    #[must_use]
    pub fn get() -> &'static Pcodes {
        static PCODES: OnceLock<Pcodes> = OnceLock::new();
        PCODES.get_or_init(|| {
            // Multisets in lexicographic order of their sorted patterns.
            let mut pats = Vec::with_capacity(PCODE_COUNT);
            for a in 0..Pattern::COUNT {
                for b in a..Pattern::COUNT {
                    for c in b..Pattern::COUNT {
                        for d in c..Pattern::COUNT {
                            pats.push([a, b, c, d].map(|i| Pattern::ALL[i]));
                        }
                    }
                }
            }
            debug_assert_eq!(pats.len(), PCODE_COUNT);
            let of_pats = (0..Pattern::COUNT.pow(4))
                .map(|k| {
                    let mut sorted = mixed_radix(k);
                    sorted.sort_unstable();
                    // `pats` is sorted, so the code is the multiset's rank.
                    pats.binary_search(&sorted)
                        .expect("every multiset is listed") as Pcode
                })
                .collect();
            let threats = pats.iter().map(|&p| Threat::of(p)).collect();
            Pcodes {
                of_pats,
                pats,
                threats,
            }
        })
    }

    /// The pcode of four line patterns, in any order.
    #[inline]
    #[must_use]
    pub fn pcode(&self, pats: [Pattern; 4]) -> Pcode {
        let k = pats
            .iter()
            .rev()
            .fold(0, |k, &p| k * Pattern::COUNT + p as usize);
        self.of_pats[k]
    }

    /// The combined threat of a pcode ([`Threat::of`] its patterns).
    #[inline]
    #[must_use]
    pub fn threat(&self, pcode: Pcode) -> Threat {
        self.threats[usize::from(pcode)]
    }

    /// The patterns of a pcode, weakest first.
    #[must_use]
    pub fn patterns(&self, pcode: Pcode) -> [Pattern; 4] {
        self.pats[usize::from(pcode)]
    }
}

/// The four patterns of mixed-radix number `k` (base [`Pattern::COUNT`], first digit lowest).
fn mixed_radix(mut k: usize) -> [Pattern; 4] {
    std::array::from_fn(|_| {
        let p = Pattern::ALL[k % Pattern::COUNT];
        k /= Pattern::COUNT;
        p
    })
}

/// The pattern tables of one rule: line key to both colours' pattern codes (side by side,
/// so one memory access serves both).
///
/// Under freestyle a cell's patterns never depend on the cells five steps away (any run
/// of five or more through the cell has five stones within four of it), so its table is
/// indexed by the inner eight cells only: 64 Ki entries instead of a Mi, which stay in the
/// processor's cache, and a stone changes no pattern five steps away.
pub struct Tables {
    by_key: Vec<[u8; 2]>,
    /// How many cells each side of a cell its patterns depend on.
    reach: usize,
}

/// The key bits of the inner eight cells (offsets ±1..=±4), shifted down to 16 bits.
const INNER_SHIFT: u32 = 2;
const INNER_MASK: u32 = (1 << (KEY_BITS - 4)) - 1;

impl Tables {
    /// The tables of `rule`, built on first use and shared afterwards.
    #[must_use]
    pub fn get(rule: Rule) -> &'static Tables {
        static CELLS: [OnceLock<Tables>; Rule::ALL.len()] =
            [const { OnceLock::new() }; Rule::ALL.len()];
        CELLS[rule.index()].get_or_init(|| {
            // Under freestyle only the keys with both outer cells empty, whose value stands
            // for any: a sixteenth of the work at START. Their children (a stone added
            // within four) stay among them. Entry `i` is the patterns of key `i << shift`.
            let (shift, entries, reach) = if rule == Rule::Freestyle {
                (INNER_SHIFT, INNER_MASK + 1, HALF - 1)
            } else {
                (0, 1 << KEY_BITS, HALF)
            };
            let keys = (0..entries).map(|i| i << shift);
            let [black, white] = Color::BOTH.map(|c| build(rule, c, keys.clone()));
            Tables {
                by_key: keys
                    .map(|k| [black[k as usize], white[k as usize]])
                    .collect(),
                reach,
            }
        })
    }

    /// How many cells each side of a cell its patterns depend on: a stone further away
    /// changes none of them.
    #[must_use]
    pub fn reach(&self) -> usize {
        self.reach
    }

    /// The patterns a black and a white stone make in the line `key`.
    #[inline]
    #[must_use]
    pub fn patterns(&self, key: u32) -> [Pattern; 2] {
        let index = if self.reach < HALF {
            (key >> INNER_SHIFT) & INNER_MASK
        } else {
            // Keys are masked to KEY_BITS, the table's length.
            key & ((1 << KEY_BITS) - 1)
        };
        let [b, w] = self.by_key[index as usize];
        [Pattern::ALL[usize::from(b)], Pattern::ALL[usize::from(w)]]
    }

    /// The pattern a stone of `color` makes in the line `key`.
    #[inline]
    #[must_use]
    pub fn pattern(&self, color: Color, key: u32) -> Pattern {
        self.patterns(key)[color as usize]
    }
}

const UNSET: u8 = u8::MAX;

/// The patterns of `color` for `keys` (and the keys they lead to), indexed by full key.
fn build(rule: Rule, color: Color, keys: impl Iterator<Item = u32>) -> Vec<u8> {
    let mut table = vec![UNSET; 1 << KEY_BITS];
    for key in keys {
        classify(rule, color, key, &mut table);
    }
    table
}

/// The code of the cell `offset` (±1..=±5) steps from the centre in `key`.
fn cell(key: u32, offset: i32) -> u8 {
    ((key >> (2 * slot(offset))) & 3) as u8
}

fn classify(rule: Rule, color: Color, key: u32, table: &mut [u8]) -> Pattern {
    let cached = table[key as usize];
    if cached != UNSET {
        return Pattern::ALL[usize::from(cached)];
    }
    let own = stone(color);
    let line = Line::read(|k| cell(key, k), color);
    let five_rule = rule.five_rule(color);
    let pattern = if line.five(five_rule) {
        Pattern::Five
    } else if line.overline(five_rule) {
        Pattern::Overline
    } else {
        // A stone five steps away cannot join a five through the middle: only four out.
        let mut completions = 0;
        let mut best = Pattern::Dead;
        for offset in -(HALF as i32 - 1)..HALF as i32 {
            if offset == 0 || cell(key, offset) != EMPTY {
                continue;
            }
            let child = key | (u32::from(own) << (2 * slot(offset)));
            match classify(rule, color, child, table) {
                Pattern::Five => completions += 1,
                p => best = best.max(p),
            }
        }
        match completions {
            0 => best.one_before(),
            1 => Pattern::Block4,
            _ => Pattern::Flex4,
        }
    };
    table[key as usize] = pattern as u8;
    pattern
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::padded::{WALL, color_of};
    use crate::board::{Board, Dir, Pos};
    use crate::rules::line::line_through;

    /// The key of a strip written `X`/`O`/`.`/`#` with `*` marking the considered cell;
    /// cells past the strip's ends are walls.
    fn key_of(strip: &str) -> u32 {
        let cells: Vec<char> = strip.chars().collect();
        let c = cells
            .iter()
            .position(|&ch| ch == '*')
            .expect("a * in the strip") as i32;
        let mut key = 0;
        for offset in -(HALF as i32)..=HALF as i32 {
            if offset == 0 {
                continue;
            }
            let code = match usize::try_from(c + offset).ok().and_then(|i| cells.get(i)) {
                Some('X') => stone(Color::Black),
                Some('O') => stone(Color::White),
                Some('.') => EMPTY,
                _ => WALL,
            };
            key |= u32::from(code) << (2 * slot(offset));
        }
        key
    }

    fn pat(rule: Rule, color: Color, strip: &str) -> Pattern {
        Tables::get(rule).pattern(color, key_of(strip))
    }

    #[test]
    fn freestyle_patterns_of_black() {
        let b = |s| pat(Rule::Freestyle, Color::Black, s);
        assert_eq!(b("..XX*XX.."), Pattern::Five);
        assert_eq!(b("...XXX*X..."), Pattern::Five);
        assert_eq!(b("...XX*X...."), Pattern::Flex4);
        assert_eq!(b("..OXX*X...."), Pattern::Block4);
        assert_eq!(b("....X*X...."), Pattern::Flex3);
        assert_eq!(b("...OX*X...."), Pattern::Block3);
        assert_eq!(b("....X*....."), Pattern::Flex2);
        assert_eq!(b("OX*.O"), Pattern::Dead);
        // Two completions in one line cannot both be blocked.
        assert_eq!(b("X.X*X.X"), Pattern::Flex4);
        // The board's edge is a wall.
        assert_eq!(b("XX*X."), Pattern::Block4);
    }

    #[test]
    fn exact_five_rules_see_the_sixth_stone() {
        for rule in [Rule::Standard, Rule::Renju] {
            assert_eq!(pat(rule, Color::Black, "XXX*XX"), Pattern::Overline);
            // X.XX*X: filling the gap makes six, so only the right side is a four.
            assert_eq!(pat(rule, Color::Black, "OX.XX*X.."), Pattern::Block4);
        }
        assert_eq!(
            pat(Rule::Standard, Color::White, "OOO*OO"),
            Pattern::Overline
        );
        assert_eq!(pat(Rule::Renju, Color::White, "OOO*OO"), Pattern::Five);
        assert_eq!(pat(Rule::Freestyle, Color::Black, "XXX*XX"), Pattern::Five);
    }

    #[test]
    fn caro_five_blocked_at_both_ends_is_dead_but_the_edge_does_not_block() {
        assert_eq!(pat(Rule::Caro, Color::Black, "OXX*XXO"), Pattern::Dead);
        assert_eq!(pat(Rule::Caro, Color::Black, "XX*XXO"), Pattern::Five);
        // O X X X * . O : the only completion is blocked at both ends.
        assert_eq!(pat(Rule::Caro, Color::Black, "OXXX*.O"), Pattern::Dead);
        assert_eq!(pat(Rule::Caro, Color::Black, "XXX*XX"), Pattern::Five);
        assert_eq!(
            pat(Rule::CaroExact, Color::Black, "XXX*XX"),
            Pattern::Overline
        );
    }

    /// A board holding `key` around its cell (5, 2), every cell `color`'s line sees on
    /// the board itself: an 11-wide row, walls as blocked cells, the other rows empty.
    fn board_of(key: u32) -> Board {
        let mut board = Board::new(2 * HALF as i64 + 1, 5).unwrap();
        for offset in (-(HALF as i32)..=HALF as i32).filter(|&k| k != 0) {
            let q = Pos::new((HALF as i32 + offset) as u8, 2);
            match color_of(cell(key, offset)) {
                Some(c) => board.place(q, c).unwrap(),
                None if cell(key, offset) == WALL => board.block(q).unwrap(),
                None => {}
            }
        }
        board
    }

    /// Every key of `rule`'s table, for both colours, laid on a board and judged by the
    /// rules: a five is what `Rule::is_win` calls a win; an overline a run longer than five
    /// that does not win; a four has as many completing cells as there are empty cells
    /// whose stone makes a five (one: `Block4`, more: `Flex4`, none: weaker), judged on the
    /// board's line through the cell as `is_win` judges each line (its other three
    /// lines hold no stone: asking for them a million times would only slow the test).
    fn table_agrees_with_the_rules(rule: Rule) {
        let tables = Tables::get(rule);
        let p = Pos::new(HALF as u8, 2);
        let rules = |color| rule.five_rule(color);
        let near = (-(HALF as i32 - 1)..HALF as i32).filter(|&k| k != 0);
        let mut fours = 0;
        for key in 0..1u32 << KEY_BITS {
            let mut board = board_of(key);
            for color in Color::BOTH {
                let pattern = tables.pattern(color, key);
                let why = |b: &Board| format!("{rule} {color:?} key {key:#07x}: {pattern:?}\n{b}");
                let five = rule.is_win(&board, p, color);
                assert_eq!(pattern == Pattern::Five, five, "{}", why(&board));
                let long = board.run_through(p, color, Dir::ALL[0]).len > 5;
                assert_eq!(
                    pattern == Pattern::Overline,
                    long && !five,
                    "{}",
                    why(&board)
                );
                if five || long {
                    continue;
                }
                // A completion needs three more stones of the colour within four cells.
                let own = near.clone().filter(|&k| cell(key, k) == stone(color));
                let completions = if own.count() < 3 {
                    0
                } else {
                    near.clone()
                        .filter(|&k| cell(key, k) == EMPTY)
                        .filter(|&k| {
                            let q = Pos::new((HALF as i32 + k) as u8, 2);
                            board.place(q, color).unwrap();
                            // The key's line is the only one through p with stones.
                            let win =
                                line_through(&board, p, color, Dir::ALL[0]).five(rules(color));
                            board.remove(q).unwrap();
                            win
                        })
                        .count()
                };
                match completions {
                    0 => assert!(pattern < Pattern::Block4, "{}", why(&board)),
                    1 => assert_eq!(pattern, Pattern::Block4, "{}", why(&board)),
                    _ => assert_eq!(pattern, Pattern::Flex4, "{}", why(&board)),
                }
                fours += usize::from(completions > 0);
            }
        }
        // The walk saw plenty of fours, or the agreement would mean little.
        assert!(fours > 10_000, "{rule}: {fours} fours");
    }

    #[test]
    fn the_freestyle_table_agrees_with_the_rules_on_every_key() {
        table_agrees_with_the_rules(Rule::Freestyle);
    }

    #[test]
    fn the_standard_table_agrees_with_the_rules_on_every_key() {
        table_agrees_with_the_rules(Rule::Standard);
    }

    #[test]
    fn the_renju_table_agrees_with_the_rules_on_every_key() {
        table_agrees_with_the_rules(Rule::Renju);
    }

    #[test]
    fn the_caro_table_agrees_with_the_rules_on_every_key() {
        table_agrees_with_the_rules(Rule::Caro);
    }

    #[test]
    fn the_caro_exact_table_agrees_with_the_rules_on_every_key() {
        table_agrees_with_the_rules(Rule::CaroExact);
    }

    #[test]
    fn threats_combine_directions() {
        use Pattern as P;
        assert_eq!(
            Threat::of([P::Block4, P::Block4, P::Dead, P::Dead]),
            Threat::Flex4
        );
        assert_eq!(
            Threat::of([P::Block4, P::Flex3, P::Dead, P::Dead]),
            Threat::Block4Flex3
        );
        assert_eq!(
            Threat::of([P::Flex3, P::Flex3, P::Dead, P::Dead]),
            Threat::Flex3x2
        );
        assert_eq!(
            Threat::of([P::Flex2, P::Dead, P::Five, P::Dead]),
            Threat::Five
        );
        assert_eq!(Threat::of([P::Dead; 4]), Threat::None);
        assert!(Threat::Block4.is_four() && !Threat::Flex3x2.is_four());
    }

    #[test]
    fn pcodes_ignore_direction_order_and_keep_the_threat() {
        let pc = Pcodes::get();
        assert_eq!(pc.pcode([Pattern::Dead; 4]), 0);
        assert_eq!(usize::from(pc.pcode([Pattern::Five; 4])), PCODE_COUNT - 1);
        let mut seen = vec![false; PCODE_COUNT];
        for k in 0..Pattern::COUNT.pow(4) {
            let pats = mixed_radix(k);
            let code = pc.pcode(pats);
            seen[usize::from(code)] = true;
            let mut sorted = pats;
            sorted.sort_unstable();
            assert_eq!(pc.patterns(code), sorted);
            assert_eq!(pc.threat(code), Threat::of(pats));
            let mut turned = pats;
            turned.rotate_left(1);
            assert_eq!(pc.pcode(turned), code);
        }
        assert!(seen.iter().all(|&s| s), "every pcode is reached");
    }
}
