//! Fits the move prior ([`Policy`](hoshi::eval::Policy)) to the moves the self-play
//! searches chose.
//!
//! At every quiet position of a game (neither side has a five or open-four point, the
//! opponent no open three to answer: where the search orders every candidate by the prior),
//! the candidates' priors are read as logits, `prior / S`, of a softmax over the candidate
//! cells, and the tables are fitted by Adam to the cross-entropy of the cell the search
//! played, with an L2 pull towards the starting tables. The temperature `S` is first fitted
//! to the starting (hand-set) prior on the same positions, so the learned tables keep its
//! units, and with them their balance against the killer and history bonuses.

use super::fit::{FitConfig, best_scale, descend};
use hoshi::board::{Color, Pos};
use hoshi::eval::policy::PolicyTable;
use hoshi::pattern::{PCODE_COUNT, PatternBoard, Threat};

/// Candidate cells of training positions, flat: position `i`'s candidates are
/// `cells[start[i]..start[i + 1]]`, each the parameter indices of its two terms.
#[derive(Clone, Debug, Default)]
pub struct Choices {
    start: Vec<usize>,
    cells: Vec<[u32; 2]>,
    /// The index (within its position) of the candidate the search played.
    chosen: Vec<u32>,
    /// Held out for validation.
    held_out: Vec<bool>,
}

/// Where each table entry sits in the parameter vector: `[table][pcode][role]`.
fn param(table: usize, pcode: usize, role: usize) -> usize {
    (table * PCODE_COUNT + pcode) * 2 + role
}

/// The parameters of `tables` (one shared, or black's and white's).
#[must_use]
pub fn params(tables: &[PolicyTable]) -> Vec<f64> {
    tables
        .iter()
        .flat_map(|t| t.iter().flat_map(|v| v.map(f64::from)))
        .collect()
}

/// The tables of parameters `theta`, rounded.
#[must_use]
pub fn tables(theta: &[f64], count: usize) -> Vec<PolicyTable> {
    (0..count)
        .map(|t| {
            (0..PCODE_COUNT)
                .map(|p| [0, 1].map(|role| theta[param(t, p, role)].round() as i32))
                .collect()
        })
        .collect()
}

impl Choices {
    #[must_use]
    pub fn len(&self) -> usize {
        self.chosen.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.chosen.is_empty()
    }

    /// Adds the position of `pb` with `side` to move, where the search played `played`, if
    /// it is quiet and the move one of its candidates. `tables` is 1 (the colours share a
    /// table) or 2.
    pub fn push(
        &mut self,
        pb: &PatternBoard,
        side: Color,
        played: Pos,
        tables: usize,
        held_out: bool,
    ) {
        if Color::BOTH
            .iter()
            .any(|&c| pb.threat_count_at_least(c, Threat::Flex4) > 0)
        {
            return;
        }
        let (me, opp) = (side as usize, side.opponent() as usize);
        if self.start.is_empty() {
            self.start.push(0);
        }
        let table = |c: usize| if tables == 1 { 0 } else { c };
        let first = self.cells.len();
        let mut chosen = None;
        for i in pb.all_cells() {
            if !(pb.is_candidate(i) && pb.is_legal(i, side)) {
                continue;
            }
            if pb.pos(i) == played {
                chosen = Some(self.cells.len() - first);
            }
            let info = pb.info(i);
            self.cells.push([
                param(table(me), usize::from(info.pcode[me]), 0) as u32,
                param(table(opp), usize::from(info.pcode[opp]), 1) as u32,
            ]);
        }
        match chosen {
            Some(c) if self.cells.len() - first > 1 => {
                self.start.push(self.cells.len());
                self.chosen.push(c as u32);
                self.held_out.push(held_out);
            }
            // Outside the candidates, or the only one: nothing to learn.
            _ => self.cells.truncate(first),
        }
    }

    /// Adds every position of `other`.
    pub fn append(&mut self, other: Choices) {
        if other.is_empty() {
            return;
        }
        if self.start.is_empty() {
            self.start.push(0);
        }
        let base = self.cells.len();
        self.start
            .extend(other.start[1..].iter().map(|&s| s + base));
        self.cells.extend(other.cells);
        self.chosen.extend(other.chosen);
        self.held_out.extend(other.held_out);
    }

    fn range(&self, i: usize) -> std::ops::Range<usize> {
        self.start[i]..self.start[i + 1]
    }

    /// Position `i`'s softmax over its candidates at temperature `s`, into `out`; returns
    /// the cross-entropy of the chosen one.
    fn softmax(&self, i: usize, theta: &[f64], s: f64, out: &mut Vec<f64>) -> f64 {
        out.clear();
        out.extend(
            self.cells[self.range(i)]
                .iter()
                .map(|&[a, b]| (theta[a as usize] + theta[b as usize]) / s),
        );
        let max = out.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut sum = 0.0;
        for x in out.iter_mut() {
            *x = (*x - max).exp();
            sum += *x;
        }
        for x in out.iter_mut() {
            *x /= sum;
        }
        -out[self.chosen[i] as usize].max(1e-300).ln()
    }

    /// Mean cross-entropy over the training and the held-out positions.
    #[must_use]
    pub fn losses(&self, theta: &[f64], s: f64) -> (f64, f64) {
        let mut sum = [0.0f64; 2];
        let mut n = [0usize; 2];
        let mut p = Vec::new();
        for i in 0..self.len() {
            let set = usize::from(self.held_out[i]);
            sum[set] += self.softmax(i, theta, s, &mut p);
            n[set] += 1;
        }
        (sum[0] / n[0].max(1) as f64, sum[1] / n[1].max(1) as f64)
    }

    /// How often the chosen move is the candidate of the highest prior (ties by order).
    #[must_use]
    pub fn top1(&self, theta: &[f64], held_out: bool) -> f64 {
        let (mut hit, mut n) = (0usize, 0usize);
        for i in (0..self.len()).filter(|&i| self.held_out[i] == held_out) {
            let cells = &self.cells[self.range(i)];
            let prior = |c: &[u32; 2]| theta[c[0] as usize] + theta[c[1] as usize];
            let best = (0..cells.len())
                .max_by(|&a, &b| {
                    prior(&cells[a])
                        .total_cmp(&prior(&cells[b]))
                        .then(b.cmp(&a))
                })
                .unwrap_or(0);
            hit += usize::from(best == self.chosen[i] as usize);
            n += 1;
        }
        hit as f64 / n.max(1) as f64
    }

    /// The temperature minimising the training loss of `theta`, over 1..10000.
    #[must_use]
    pub fn fit_temperature(&self, theta: &[f64]) -> f64 {
        best_scale(1.0, 10_000.0, 40, |s| self.losses(theta, s).0)
    }
}

/// Fits the parameters from `init` (also the L2 prior); calls `on_epoch(epoch, train, val)`
/// after each pass (0: the start) and returns the parameters of the best held-out loss.
pub fn fit(
    c: &Choices,
    init: &[f64],
    cfg: &FitConfig,
    on_epoch: impl FnMut(usize, f64, f64),
) -> Vec<f64> {
    let s = cfg.scale;
    let mut p = Vec::new();
    let add_grad = |batch: &[usize], theta: &[f64], grad: &mut [f64]| {
        let scale = 1.0 / (batch.len() as f64 * s);
        for &i in batch {
            c.softmax(i, theta, s, &mut p);
            // d(cross-entropy)/d(logit_j) = p_j - [j chosen].
            p[c.chosen[i] as usize] -= 1.0;
            for (&[a, b], &d) in c.cells[c.range(i)].iter().zip(&p) {
                grad[a as usize] += d * scale;
                grad[b as usize] += d * scale;
            }
        }
    };
    descend(
        init,
        &c.held_out,
        &cfg.descent(),
        add_grad,
        |theta| c.losses(theta, s),
        on_epoch,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use hoshi::board::Board;
    use hoshi::rng::Rng;
    use hoshi::rules::Rule;

    /// Choices drawn from a softmax over known priors: the fit finds the priors again, up
    /// to the constant per role that a softmax cannot see.
    #[test]
    fn the_fit_recovers_known_priors_from_synthetic_choices() {
        let (pcodes, s) = (12usize, 100.0);
        let mut rng = Rng::new(7);
        let mut truth = vec![0.0; param(0, PCODE_COUNT - 1, 1) + 1];
        for p in 0..pcodes {
            for role in 0..2 {
                truth[param(0, p, role)] = rng.below(601) as f64 - 300.0;
            }
        }
        let mut c = Choices::default();
        c.start.push(0);
        for n in 0..6000 {
            let cells: Vec<[u32; 2]> = (0..8)
                .map(|_| {
                    [
                        param(0, rng.below(pcodes), 0) as u32,
                        param(0, rng.below(pcodes), 1) as u32,
                    ]
                })
                .collect();
            let w: Vec<f64> = cells
                .iter()
                .map(|&[a, b]| ((truth[a as usize] + truth[b as usize]) / s).exp())
                .collect();
            let mut x = (rng.below(1_000_000) as f64) / 1e6 * w.iter().sum::<f64>();
            let chosen = w.iter().position(|&wi| {
                x -= wi;
                x < 0.0
            });
            c.cells.extend(&cells);
            c.start.push(c.cells.len());
            c.chosen.push(chosen.unwrap_or(7) as u32);
            c.held_out.push(n % 10 == 0);
        }
        let cfg = FitConfig {
            scale: s,
            lr: 8.0,
            l2: 0.0,
            epochs: 40,
            batch: 64,
            seed: 1,
        };
        let init = vec![0.0; truth.len()];
        let mut curve = Vec::new();
        let theta = fit(&c, &init, &cfg, |_, _, val| curve.push(val));
        assert!(curve.last().unwrap() < &curve[0]);
        for role in 0..2 {
            let rel = |t: &[f64], p: usize| t[param(0, p, role)] - t[param(0, 0, role)];
            for p in 1..pcodes {
                let (want, got) = (rel(&truth, p), rel(&theta, p));
                assert!(
                    (want - got).abs() < 40.0,
                    "role {role} pcode {p}: {want} vs {got}"
                );
            }
        }
        assert!(c.top1(&theta, true) > c.top1(&init, true));
    }

    /// A quiet position gives one choice over every legal candidate, the played cell among
    /// them; a position with an open three to answer, or a move off the candidates, none.
    #[test]
    fn only_quiet_positions_with_a_candidate_move_are_kept() {
        let quiet = Board::with_stones(15, 15, &[(7, 7), (8, 8)], &[(7, 8)]).unwrap();
        let pb = PatternBoard::new(&quiet, Rule::Freestyle);
        let mut c = Choices::default();
        c.push(&pb, Color::White, Pos::new(9, 9), 1, false);
        assert_eq!(c.len(), 1);
        let candidates = pb.all_cells().filter(|&i| pb.is_candidate(i)).count();
        assert_eq!(c.range(0).len(), candidates);
        let [a, b] = c.cells[c.range(0)][c.chosen[0] as usize];
        let info = pb.info(pb.idx(Pos::new(9, 9)));
        assert_eq!(a as usize, param(0, usize::from(info.pcode[1]), 0));
        assert_eq!(b as usize, param(0, usize::from(info.pcode[0]), 1));
        c.push(&pb, Color::White, Pos::new(0, 14), 1, false);
        assert_eq!(c.len(), 1, "a move far from every stone is no candidate");

        let three =
            Board::with_stones(15, 15, &[(6, 7), (7, 7), (8, 7)], &[(7, 8), (8, 8)]).unwrap();
        let pb = PatternBoard::new(&three, Rule::Freestyle);
        c.push(&pb, Color::White, Pos::new(5, 7), 1, false);
        assert_eq!(c.len(), 1, "an open three to answer is no quiet position");
    }
}
