//! Graded strengths of the master level: Rapfi's `INFO STRENGTH` (itself Stockfish's
//! "Skill Level") over our search.
//!
//! A [`Strength`] below [`Strength::FULL`] weakens master four ways, all here:
//! - blind spots: each of the two newest stones goes unnoticed with the
//!   [`Skill::miss_rate`], and the move is chosen on the board without it
//!   (`inattention`): the threats a weak human misses;
//! - a node budget, [`Skill::node_budget`], doubling every 10 steps of skill;
//! - a small multi-PV: the most promising root moves are re-searched with a full window
//!   at the depth reached, and the best [`Skill::pool`] kept;
//! - a bounded stochastic pick among them: with `w` the weakness (0.9 at strength 0 down to
//!   0.1 at 100), `bonus_i = w * (top - v_i) + U(0, w) * min(top - v_last, NOISE_CAP)`,
//!   playing the argmax of `v_i + bonus_i`. The pull toward worse moves compresses the
//!   gaps by `1 - w` and the noise is bounded by [`NOISE_CAP`], so a move much worse than
//!   the best (a lost one) is never played.
//!
//! The floor holds at every strength: nothing is overlooked while either side has a five
//! point, the search plays our five and a proved forced win before any pick (its answers
//! at depth 0), and the root's move generation lists only the block when the opponent has
//! a five point (none when renju forbids it: then the search's own legal answer stands).
//! Every move offered is a legal empty cell. At full strength none of this runs: the
//! answer is the plain search's.

use std::fmt;
use std::str::FromStr;

use super::{Choice, Context, Report, inattention};
use crate::board::{Board, Pos};
use crate::eval::Evaluator;
use crate::rng::Rng;
use crate::search::{Progress, Request, SearchResult};
use crate::time::Limits;

/// The largest random bonus, in evaluation units: Rapfi's 120, here about the weight of
/// one double-three threat of the opponent, so the noise swaps quiet moves, not threats.
pub const NOISE_CAP: i32 = 120;

/// Times the pool of root moves tried: the move order is only a guess at their values.
const TRIED_PER_KEPT: usize = 2;

/// The ratings of skills, `(skill, Elo)`, linear in between: Elo at 1 s a move, freestyle
/// 15x15, pela (Piskvork's own brain) = 0, from the games of docs/strength.md ("The
/// strength scale"): Hoshi at skills 0 to 95, `hard`, full master and four peer engines.
/// The skills' own ratings are too noisy one by one to interpolate between, so the games
/// are fitted by maximum likelihood with every skill's rating on one line (12.35 Elo a
/// step of skill) and the other engines free (docs/scale/fit.py): the scale is that line
/// from skill 0 to 95, then full master's own rating.
pub const SCALE: [(f64, f64); 3] = [(0.0, -654.0), (95.0, 519.0), (100.0, 725.1)];

/// A playing strength of the master level, 0 (weakest) to 100 (full strength).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Strength(u8);

impl Strength {
    /// Full strength: the plain search.
    pub const FULL: Strength = Strength(100);
    /// The weakest.
    pub const MIN: Strength = Strength(0);

    /// The strength `n`, if it is in `0..=100`.
    #[must_use]
    pub fn new(n: i64) -> Option<Strength> {
        u8::try_from(n)
            .ok()
            .filter(|&n| n <= Strength::FULL.0)
            .map(Strength)
    }

    #[must_use]
    pub fn value(self) -> u8 {
        self.0
    }

    /// The setting of the weakening that gives this strength's rating: strengths move
    /// in even steps of rating from [`Strength::MIN`]'s to full strength's, and each step's
    /// skill is read off the measured [`SCALE`] by linear interpolation.
    #[must_use]
    pub fn skill(self) -> Skill {
        if self == Strength::FULL {
            return Skill::FULL;
        }
        let target = self.rating();
        let (below, above) = SCALE
            .windows(2)
            .map(|w| (w[0], w[1]))
            .find(|&(_, (_, elo))| elo >= target)
            .unwrap_or((SCALE[SCALE.len() - 2], SCALE[SCALE.len() - 1]));
        let t = (target - below.1) / (above.1 - below.1);
        Skill(below.0 + t.clamp(0.0, 1.0) * (above.0 - below.0))
    }

    /// The rating this strength plays at on the [`SCALE`] (pela at 1 s a move is 0),
    /// unrounded.
    fn rating(self) -> f64 {
        let (low, high) = (SCALE[0].1, SCALE[SCALE.len() - 1].1);
        low + f64::from(self.0) / f64::from(Strength::FULL.0) * (high - low)
    }

    /// This strength's rating, rounded: Elo at 1 s a move, freestyle 15x15, pela = 0.
    #[must_use]
    pub fn elo(self) -> i32 {
        // Within the scale's few thousand Elo: the cast cannot overflow.
        self.rating().round() as i32
    }

    /// The strength whose rating is nearest to `elo` (the weakest or full strength beyond
    /// the scale's ends; the stronger of two equally near).
    #[must_use]
    pub fn for_elo(elo: i32) -> Strength {
        (Strength::MIN.0..=Strength::FULL.0)
            .map(Strength)
            .min_by(|a, b| {
                let distance = |s: &Strength| (s.rating() - f64::from(elo)).abs();
                distance(a).total_cmp(&distance(b)).then(b.0.cmp(&a.0))
            })
            .unwrap_or(Strength::FULL)
    }

    /// The evaluation master plays with at this strength, given its full-strength one:
    /// below full strength the tables alone, the evaluation the [`SCALE`] was measured
    /// with (a network would make every step stronger than its rating).
    #[must_use]
    pub fn evaluator(self, master: &Evaluator) -> Evaluator {
        if self == Strength::FULL {
            master.clone()
        } else {
            master.tables()
        }
    }

    /// `limits` bounded by the node budget of this strength's [`Skill`].
    #[must_use]
    pub fn bound(self, limits: Limits) -> Limits {
        self.skill().bound(limits)
    }

    /// The strength named by an executable such as `pbrain-hoshi-master50(.exe)`.
    #[must_use]
    pub fn from_exe_suffix(suffix: &str) -> Option<Strength> {
        let digits = suffix
            .get(..6)
            .filter(|head| head.eq_ignore_ascii_case("master"))
            .and_then(|_| suffix.get(6..))?;
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Strength::new(digits.parse().ok()?)
    }
}

impl Default for Strength {
    fn default() -> Strength {
        Strength::FULL
    }
}

impl fmt::Display for Strength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A setting of the weakening's mechanisms, 0 (weakest) to 100 (none: the plain search);
/// what [`Strength`]s were before they were measured. The dial reaches a skill through
/// the ratings of [`SCALE`].
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Skill(f64);

impl Skill {
    /// No weakening: the plain search.
    pub const FULL: Skill = Skill(100.0);

    /// The skill `k`, if it is in `0..=100`.
    #[must_use]
    pub fn new(k: f64) -> Option<Skill> {
        (0.0..=100.0).contains(&k).then_some(Skill(k))
    }

    #[must_use]
    pub fn value(self) -> f64 {
        self.0
    }

    /// The most nodes a move may search, `None` at full skill: 500 at 0, doubling every
    /// 10 (16,000 at 50, 475,000 at 99). Nodes, not a depth: the budget grows smoothly up
    /// to where the clock binds instead (about 160,000 nodes a second), so the skills
    /// below full join the full search without a gap, and the root's VCF solver, which gets
    /// half the budget, misses the long wins of the weakest.
    #[must_use]
    pub fn node_budget(self) -> Option<u64> {
        // At most 500 * 2^10: the cast loses only the fraction.
        (self < Skill::FULL).then(|| (500.0 * 2f64.powf(self.0 / 10.0)) as u64)
    }

    /// `limits` bounded by [`Skill::node_budget`].
    #[must_use]
    pub fn bound(self, limits: Limits) -> Limits {
        let max_nodes = match (limits.max_nodes, self.node_budget()) {
            (Some(n), Some(b)) => Some(n.min(b)),
            (n, b) => n.or(b),
        };
        Limits {
            max_nodes,
            ..limits
        }
    }

    /// The weakness in thousandths: 900 at 0, 100 at 100.
    #[must_use]
    pub fn weakness(self) -> i64 {
        // In 100..=900.
        (900.0 - 8.0 * self.0).round() as i64
    }

    /// How often, in thousandths, each of the two newest stones goes unnoticed
    /// (`inattention`): 500 at 0, falling with the square of the distance from full
    /// (125 at 50, 20 at 80), 0 at full skill.
    #[must_use]
    pub fn miss_rate(self) -> u32 {
        let distance = (100.0 - self.0) / 100.0;
        // In 0..=500.
        (500.0 * distance * distance) as u32
    }

    /// How many root moves the pick chooses among: 6 at 0, 2 above 75.
    #[must_use]
    pub fn pool(self) -> usize {
        // In 2..=6.
        2 + ((100.0 - self.0) / 25.0) as usize
    }
}

/// A strength that is not a whole number in `0..=100`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadStrength(pub String);

impl fmt::Display for BadStrength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "strength '{}' is not a whole number from 0 to 100",
            self.0
        )
    }
}

impl std::error::Error for BadStrength {}

impl FromStr for Strength {
    type Err = BadStrength;

    fn from_str(s: &str) -> Result<Strength, BadStrength> {
        s.trim()
            .parse()
            .ok()
            .and_then(Strength::new)
            .ok_or_else(|| BadStrength(s.to_string()))
    }
}

/// Master's move at `strength`.
pub fn choose(strength: Strength, board: &Board, ctx: &mut Context<'_>) -> Choice {
    if strength == Strength::FULL {
        let result = search(board, ctx, ctx.limits);
        return Choice {
            pos: result.best,
            report: Some(Report {
                search: result,
                strength: None,
                pick: None,
            }),
        };
    }
    let skill = strength.skill();
    if let Some(view) = inattention::glance(board, ctx.rule, ctx.me, skill.miss_rate(), ctx.rng) {
        let choice = graded(strength, skill, &view, ctx);
        // The overlooked stone's own cell, or a foul that only the real board makes.
        if board.is_empty_at(choice.pos) && ctx.rule.is_legal(board, choice.pos, ctx.me) {
            return choice;
        }
    }
    graded(strength, skill, board, ctx)
}

/// The plain search of `board` under `limits`, told to the context's observer.
fn search(board: &Board, ctx: &mut Context<'_>, limits: Limits) -> SearchResult {
    let mut quiet = |_: &Progress| {};
    let observe: &mut dyn FnMut(&Progress) = match ctx.observe.as_mut() {
        Some(observe) => *observe,
        None => &mut quiet,
    };
    let request = Request::new(board, ctx.rule, ctx.me, limits).stop(ctx.stop);
    ctx.searcher.search(request.observe(observe))
}

/// The weakened choice on `board` (the real one or a glance at it): the search within the
/// node budget, then the pick among the best few.
fn graded(strength: Strength, skill: Skill, board: &Board, ctx: &mut Context<'_>) -> Choice {
    let limits = skill.bound(ctx.limits);
    let result = search(board, ctx, limits);
    let report = |search, pick| Report {
        search,
        strength: Some(strength),
        pick,
    };
    // Depth 0: a five, a proved win, or no time to search; a mate: the search proved it.
    if result.depth == 0 || result.mate_in().is_some_and(|n| n > 0) {
        return Choice {
            pos: result.best,
            report: Some(report(result, None)),
        };
    }
    let pool = skill.pool();
    let request = Request::new(board, ctx.rule, ctx.me, limits).stop(ctx.stop);
    let mut values =
        ctx.searcher
            .root_values(&request, result.depth, pool * TRIED_PER_KEPT, result.best);
    values.truncate(pool);
    let pos = pick(&values, skill.weakness(), ctx.rng).unwrap_or(result.best);
    Choice {
        pos,
        report: Some(report(result, Some(pos))),
    }
}

/// The stochastic pick among `values` (best first) with `weakness` in thousandths; `None`
/// when there is nothing to pick from.
fn pick(values: &[(Pos, i32)], weakness: i64, rng: &mut Rng) -> Option<Pos> {
    let top = i64::from(values.first()?.1);
    let last = i64::from(values.last()?.1);
    let range = (top - last).min(i64::from(NOISE_CAP));
    let draws = usize::try_from(weakness + 1).unwrap_or(1);
    values
        .iter()
        .map(|&(p, v)| {
            let v = i64::from(v);
            let noise = i64::try_from(rng.below(draws)).unwrap_or(0);
            let bonus = (weakness * (top - v) + noise * range) / 1000;
            (v + bonus, p)
        })
        // Ties go to the earlier, better-valued move.
        .reduce(|a, b| if b.0 > a.0 { b } else { a })
        .map(|(_, p)| p)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::board::Color;
    use crate::levels::Level;
    use crate::levels::testkit::{at, random_position};
    use crate::rules::Rule;
    use crate::search::Searcher;

    /// Master's choice at `strength` with a fresh table, the generator seeded by `seed`.
    fn play(
        strength: Strength,
        board: &Board,
        rule: Rule,
        me: Color,
        limits: Limits,
        seed: u64,
    ) -> Choice {
        let stop = AtomicBool::new(false);
        let mut rng = Rng::new(seed);
        let mut ctx = Context {
            rule,
            me,
            limits,
            stop: &stop,
            rng: &mut rng,
            searcher: &mut Searcher::new(1 << 20),
            strength,
            observe: None,
        };
        let mut board = board.clone();
        Level::Master.choose(&mut board, &mut ctx)
    }

    fn strength(n: i64) -> Strength {
        Strength::new(n).unwrap()
    }

    fn nodes(n: u64) -> Limits {
        Limits {
            max_nodes: Some(n),
            ..Limits::default()
        }
    }

    /// A quiet opening, black to move: many moves are about as good.
    fn quiet() -> Board {
        Board::with_stones(15, 15, &[(7, 7), (8, 8)], &[(8, 7), (6, 6)]).unwrap()
    }

    #[test]
    fn strengths_parse_from_0_to_100_only() {
        assert_eq!(" 42 ".parse(), Ok(strength(42)));
        assert_eq!("100".parse(), Ok(Strength::FULL));
        for bad in ["101", "-1", "5.5", "", "full", "300"] {
            assert!(bad.parse::<Strength>().is_err(), "{bad}");
        }
    }

    fn skill(k: f64) -> Skill {
        Skill::new(k).unwrap()
    }

    #[test]
    fn the_mechanisms_grow_and_steady_with_skill() {
        let budgets: Vec<u64> = [0.0, 10.0, 50.0, 99.0]
            .iter()
            .map(|&k| skill(k).node_budget().unwrap())
            .collect();
        assert_eq!(budgets, [500, 1000, 16_000, 477_712]);
        assert_eq!(Skill::FULL.node_budget(), None);
        for n in 0..100 {
            let (a, b) = (skill(f64::from(n)), skill(f64::from(n + 1)));
            assert!(a.node_budget() < b.node_budget().or(Some(u64::MAX)), "{n}");
            assert!(a.weakness() > b.weakness() && a.pool() >= b.pool(), "{n}");
            assert!(a.miss_rate() >= b.miss_rate(), "{n}");
        }
        let weakest = skill(0.0);
        assert_eq!(
            (weakest.weakness(), weakest.pool(), weakest.miss_rate()),
            (900, 6, 500)
        );
        assert_eq!((skill(50.0).miss_rate(), Skill::FULL.miss_rate()), (125, 0));
        assert_eq!((skill(99.0).weakness(), skill(99.0).pool()), (108, 2));
        assert_eq!(Skill::new(100.5), None);
    }

    #[test]
    fn the_scale_rises_from_the_weakest_skill_to_full_master() {
        assert_eq!(SCALE[0].0, 0.0);
        assert_eq!(skill(SCALE[SCALE.len() - 1].0), Skill::FULL);
        for w in SCALE.windows(2) {
            assert!(w[0].0 < w[1].0 && w[0].1 < w[1].1, "{w:?}");
        }
    }

    #[test]
    fn strengths_step_evenly_in_rating_and_climb_in_skill() {
        assert_eq!(Strength::FULL.skill(), Skill::FULL);
        assert_eq!(Strength::MIN.skill(), skill(SCALE[0].0));
        assert_eq!(
            Strength::FULL.elo(),
            SCALE[SCALE.len() - 1].1.round() as i32
        );
        let step = (SCALE[SCALE.len() - 1].1 - SCALE[0].1) / 100.0;
        for n in 0..100 {
            let (a, b) = (strength(n), strength(n + 1));
            assert!(
                a.skill() < b.skill(),
                "{n}: {:?} {:?}",
                a.skill(),
                b.skill()
            );
            assert!((b.rating() - a.rating() - step).abs() < 1e-9, "{n}");
        }
        // The measured points themselves are hit exactly.
        for &(k, elo) in &SCALE[..SCALE.len() - 1] {
            let s = Strength::for_elo(elo.round() as i32);
            assert!(
                (s.skill().value() - k).abs() < 100.0 * step.abs(),
                "{k} {s}"
            );
        }
    }

    #[test]
    fn a_rating_picks_the_nearest_strength() {
        for n in 0..=100 {
            assert_eq!(Strength::for_elo(strength(n).elo()), strength(n), "{n}");
        }
        assert_eq!(Strength::for_elo(i32::MIN), Strength::MIN);
        assert_eq!(Strength::for_elo(i32::MAX), Strength::FULL);
    }

    #[test]
    fn the_budget_bounds_the_limits_it_is_given() {
        let k = skill(10.0);
        assert_eq!(k.bound(Limits::default()).max_nodes, Some(1000));
        assert_eq!(k.bound(nodes(300)).max_nodes, Some(300));
        assert_eq!(Skill::FULL.bound(nodes(300)).max_nodes, Some(300));
        assert_eq!(Strength::FULL.bound(Limits::default()).max_nodes, None);
        let s = strength(30);
        assert_eq!(
            s.bound(Limits::default()).max_nodes,
            s.skill().node_budget()
        );
    }

    #[test]
    fn full_strength_plays_exactly_the_plain_search() {
        let stop = AtomicBool::new(false);
        let mut rng = Rng::new(0x5EED);
        for (i, rule) in [Rule::Freestyle, Rule::Renju, Rule::Standard]
            .into_iter()
            .enumerate()
        {
            let (board, me) = random_position(&mut rng, 15, 8 + 6 * i, rule);
            let limits = Limits {
                max_depth: Some(4),
                ..nodes(30_000)
            };
            let plain =
                Searcher::new(1 << 20).search(Request::new(&board, rule, me, limits).stop(&stop));
            let choice = play(Strength::FULL, &board, rule, me, limits, 1);
            assert_eq!(choice.pos, plain.best, "{rule}\n{board}");
            // The same report, but for the time: the same search, and nothing graded.
            let report = choice.report.expect("master reports its search");
            let seen =
                |r: &crate::search::SearchResult| (r.best, r.score, r.depth, r.nodes, r.pv.clone());
            assert_eq!(seen(&report.search), seen(&plain), "{rule}");
            assert_eq!((report.strength, report.pick), (None, None));
        }
    }

    #[test]
    fn a_low_strength_stays_within_its_budget() {
        // Without the budget the search would go on to the node limit.
        let (board, rule, me) = (quiet(), Rule::Freestyle, Color::Black);
        let unbounded = play(Strength::FULL, &board, rule, me, nodes(200_000), 1);
        let searched = |c: &Choice| c.report.as_ref().map_or(0, |r| r.search.nodes);
        assert!(searched(&unbounded) > 100_000, "{unbounded:?}");
        for n in [0, 25] {
            let c = play(strength(n), &board, rule, me, nodes(200_000), 1);
            let budget = strength(n).skill().node_budget().unwrap();
            assert!(searched(&c) <= budget + 64, "{} > {budget}", searched(&c));
        }
    }

    #[test]
    fn the_pick_is_repeatable_by_seed_varied_by_seeds_and_among_the_best_few() {
        let (board, rule, me) = (quiet(), Rule::Freestyle, Color::Black);
        let s = Strength::MIN;
        // The pools the pick must stay in, computed as the level does: on the board and on
        // each glance at it that overlooks one or both newest stones.
        let limits = s.bound(Limits::default());
        let newest = [at(8, 8), at(6, 6)]; // black's and white's last in the history
        let mut pool = Vec::new();
        for hidden in [&[][..], &newest[..1], &newest[1..], &newest[..]] {
            let mut view = board.clone();
            for &p in hidden {
                view.remove(p).unwrap();
            }
            // A fresh table, as each of the level's searches below starts with.
            let mut searcher = Searcher::new(1 << 20);
            let request = Request::new(&view, rule, me, limits);
            let result = searcher.search(Request::new(&view, rule, me, limits));
            let pool_size = s.skill().pool();
            let mut values =
                searcher.root_values(&request, result.depth, 2 * pool_size, result.best);
            values.truncate(pool_size);
            // The node budget may end the list early, in play as here.
            assert!((1..=pool_size).contains(&values.len()), "{values:?}");
            pool.extend(
                values
                    .iter()
                    .map(|&(p, _)| p)
                    .filter(|&p| board.is_empty_at(p)),
            );
        }
        let mut seen = Vec::new();
        for seed in 0..24 {
            let c = play(s, &board, rule, me, Limits::default(), seed);
            assert!(pool.contains(&c.pos), "{} not in {pool:?}", c.pos);
            assert_eq!(
                play(s, &board, rule, me, Limits::default(), seed).pos,
                c.pos
            );
            if !seen.contains(&c.pos) {
                seen.push(c.pos);
            }
        }
        assert!(seen.len() >= 2, "always {seen:?}");
    }

    #[test]
    fn the_pick_never_takes_a_much_worse_move() {
        let values = [(at(1, 1), 100), (at(2, 2), 60), (at(3, 3), -2_000)];
        let mut rng = Rng::new(9);
        let mut picked = [0; 2];
        for _ in 0..500 {
            let p = pick(&values, Skill(0.0).weakness(), &mut rng).unwrap();
            assert_ne!(p, at(3, 3));
            picked[usize::from(p == at(2, 2))] += 1;
        }
        // Both plausible moves come up: the noise is real.
        assert!(picked.iter().all(|&n| n > 0), "{picked:?}");
        assert_eq!(pick(&[], 900, &mut rng), None);
    }

    #[test]
    fn every_strength_answers_a_legal_empty_cell() {
        let rules = [Rule::Freestyle, Rule::Renju, Rule::Standard, Rule::Caro];
        let mut rng = Rng::new(0x57_2E46);
        for i in 0..12 {
            let rule = rules[i % rules.len()];
            let stones = rng.below(40);
            let (board, me) = random_position(&mut rng, 15, stones, rule);
            for n in [0, 40, 80] {
                let p = play(strength(n), &board, rule, me, nodes(20_000), i as u64).pos;
                assert!(rule.is_legal(&board, p, me), "{n} {rule} {p}\n{board}");
            }
        }
    }

    #[test]
    fn weak_strengths_still_complete_their_five_and_block_the_opponents() {
        // Black's open four on row 3 (its last stone made it) beside a white four on row 4.
        let win = Board::with_stones(
            15,
            15,
            &[(3, 3), (4, 3), (5, 3), (6, 3)],
            &[(3, 4), (4, 4), (5, 4), (6, 4)],
        )
        .unwrap();
        // Black's four on row 3, blocked at (2, 3): white must take (7, 3).
        let block = Board::with_stones(
            15,
            15,
            &[(3, 3), (4, 3), (5, 3), (6, 3), (12, 12)],
            &[(2, 3), (9, 9), (9, 10), (0, 14)],
        )
        .unwrap();
        let rule = Rule::Freestyle;
        for n in [0, 30, 60, 90] {
            for seed in 0..6 {
                let p = play(strength(n), &win, rule, Color::Black, nodes(20_000), seed).pos;
                assert!([at(2, 3), at(7, 3)].contains(&p), "{n} {p}");
                let p = play(strength(n), &block, rule, Color::White, nodes(20_000), seed).pos;
                assert_eq!(p, at(7, 3), "{n}");
            }
        }
    }

    #[test]
    fn the_weakest_sometimes_overlooks_an_open_three_full_master_never() {
        // White's last stone (7, 7) made an open three on row 7; black has nothing to attack.
        let mut board = Board::new(15, 15).unwrap();
        for (x, y, c) in [
            (9, 9, Color::Black),
            (5, 7, Color::White),
            (2, 12, Color::Black),
            (6, 7, Color::White),
            (12, 3, Color::Black),
            (7, 7, Color::White),
        ] {
            board.place(at(x, y), c).unwrap();
        }
        let defences = [at(3, 7), at(4, 7), at(8, 7), at(9, 7)];
        let (rule, me, limits) = (Rule::Freestyle, Color::Black, nodes(20_000));
        let full = play(Strength::FULL, &board, rule, me, limits, 0).pos;
        assert!(defences.contains(&full), "{full}");
        let missed = (0..40)
            .filter(|&seed| {
                !defences.contains(&play(Strength::MIN, &board, rule, me, limits, seed).pos)
            })
            .count();
        // Each newest stone is overlooked half the time at strength 0: about 20 misses.
        assert!((5..35).contains(&missed), "{missed} of 40 missed");
    }

    #[test]
    fn when_renju_forbids_the_block_the_weakest_still_answers_a_legal_move() {
        // White's four on the anti-diagonal ends at (7, 7), a double three for black.
        let board = Board::with_stones(
            15,
            15,
            &[(5, 7), (6, 7), (7, 5), (7, 6), (12, 2)],
            &[(8, 6), (9, 5), (10, 4), (11, 3), (0, 14)],
        )
        .unwrap();
        assert!(!Rule::Renju.is_legal(&board, at(7, 7), Color::Black));
        for seed in 0..4 {
            let p = play(
                Strength::MIN,
                &board,
                Rule::Renju,
                Color::Black,
                nodes(20_000),
                seed,
            )
            .pos;
            assert!(Rule::Renju.is_legal(&board, p, Color::Black), "{p}");
        }
    }
}
