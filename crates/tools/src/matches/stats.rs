//! Match statistics: scores, the Elo difference with its 95 % interval, the likelihood of
//! superiority, pentanomial counts over game pairs and the SPRT log-likelihood ratio.
//!
//! The formulas are the ones engine testers use (cutechess-cli, fastchess, fishtest):
//!
//! * score `s = (W + D/2) / N`, Elo `= -400 log10(1/s - 1)` (logistic Elo);
//! * interval: the per-game score variance `σ² = Σ pᵢ (xᵢ - s)²` gives the standard error
//!   `√(σ²/N)`; `s ± 1.96·se` is mapped through the same Elo formula (cutechess-cli);
//! * LOS `= Φ((W - L) / √(W + L)) = ½ (1 + erf((W - L) / √(2 (W + L))))` (draws carry no
//!   information about who is stronger);
//! * SPRT: the generalised SPRT for logistic Elo bounds as fishtest and fastchess compute it
//!   (`LLR_logistic`, `SPRT::getLLR_logistic`): the log-likelihood ratio of the most likely
//!   outcome distributions whose mean scores are `s₀` and `s₁` (the scores of `elo0` and
//!   `elo1`), see `most_likely_with_mean`. A sample is a game (trinomial: 0, ½, 1) or a
//!   pair of games with the same opening and swapped colours (pentanomial: 0, ¼, ½, ¾, 1).
//!   Empty outcome classes count 0.001 (their `regularize`). Bounds `ln(β/(1-α))` and
//!   `ln((1-β)/α)`.
//!
//! The normal quantile 1.96 is a constant and `erf` a classic rational approximation, so no
//! statistics crate is needed.

use std::fmt;

/// The distribution of largest likelihood for the empirical `(score, probability)` pairs
/// among those with mean `s` (M. Van den Bergh, "Comments on Normalized Elo",
/// proposition 1.1): `pᵢ = p̂ᵢ / (1 + θ(aᵢ - s))` where `θ` solves
/// `Σ p̂ᵢ (aᵢ - s) / (1 + θ(aᵢ - s)) = 0`. The left side falls strictly from +∞ to -∞ on
/// the interval where every denominator is positive, so bisection finds `θ`. Needs
/// `min aᵢ < s < max aᵢ` and every `p̂ᵢ > 0`.
fn most_likely_with_mean(empirical: &[(f64, f64)], s: f64) -> Vec<f64> {
    let hi_score = empirical
        .iter()
        .map(|&(a, _)| a)
        .fold(f64::NEG_INFINITY, f64::max);
    let lo_score = empirical
        .iter()
        .map(|&(a, _)| a)
        .fold(f64::INFINITY, f64::min);
    let f = |theta: f64| -> f64 {
        empirical
            .iter()
            .map(|&(a, p)| p * (a - s) / (1.0 + theta * (a - s)))
            .sum()
    };
    let (mut lo, mut hi) = (-1.0 / (hi_score - s), 1.0 / (s - lo_score));
    // 200 halvings take any interval of doubles down to adjacent values.
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 { lo = mid } else { hi = mid }
    }
    let theta = 0.5 * (lo + hi);
    empirical
        .iter()
        .map(|&(a, p)| p / (1.0 + theta * (a - s)))
        .collect()
}

/// The count that stands in for an empty outcome class in the LLR (fishtest's
/// `regularize`).
const EPSILON: f64 = 1e-3;

/// Φ⁻¹(0.975): the two-sided 95 % normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A game's result from one side's point of view (not how it ended on the board, which
/// is [`crate::game::Outcome`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Win,
    Draw,
    Loss,
}

impl GameResult {
    /// Points: 1, ½ or 0.
    #[must_use]
    pub fn points(self) -> f64 {
        match self {
            GameResult::Win => 1.0,
            GameResult::Draw => 0.5,
            GameResult::Loss => 0.0,
        }
    }

    /// The same game seen from the other side.
    #[must_use]
    pub fn flipped(self) -> GameResult {
        match self {
            GameResult::Win => GameResult::Loss,
            GameResult::Draw => GameResult::Draw,
            GameResult::Loss => GameResult::Win,
        }
    }
}

/// Wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    pub fn add(&mut self, result: GameResult) {
        match result {
            GameResult::Win => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => self.losses += 1,
        }
    }

    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The mean score, when at least one game was played.
    #[must_use]
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(n))
    }

    /// The score as a percentage (`87.5%`), `-` before any game.
    #[must_use]
    pub fn percent(&self) -> String {
        self.score()
            .map_or("-".to_owned(), |s| format!("{:.1}%", 100.0 * s))
    }

    /// The same results from the opponent's side.
    #[must_use]
    pub fn flipped(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// Mean and variance of the per-game score.
    fn moments(&self) -> Option<(f64, f64, f64)> {
        let n = f64::from(self.games());
        let s = self.score()?;
        let var = (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n;
        Some((n, s, var))
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "+{} ={} -{}", self.wins, self.draws, self.losses)
    }
}

/// The logistic Elo difference that gives the expected score `s` (±∞ at 1 and 0).
#[must_use]
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The expected score of a side `elo` points stronger.
#[must_use]
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference and its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

/// The Elo difference of the side whose results are `wdl`, with its 95 % interval.
#[must_use]
pub fn elo(wdl: Wdl) -> Option<EloEstimate> {
    let (n, s, var) = wdl.moments()?;
    let margin = Z95 * (var / n).sqrt();
    Some(EloEstimate {
        elo: elo_from_score(s),
        low: elo_from_score(s - margin),
        high: elo_from_score(s + margin),
    })
}

/// Likelihood of superiority: the probability that the side with `wdl` is the stronger.
#[must_use]
pub fn los(wdl: Wdl) -> Option<f64> {
    let decisive = f64::from(wdl.wins + wdl.losses);
    (decisive > 0.0).then(|| {
        0.5 * (1.0 + erf((f64::from(wdl.wins) - f64::from(wdl.losses)) / (2.0 * decisive).sqrt()))
    })
}

/// The error function, from the Chebyshev fit of `erfc` in Numerical Recipes (§6.2),
/// fractional error below 1.2e-7 everywhere: ample for a percentage.
#[must_use]
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 { 1.0 - erfc } else { erfc - 1.0 }
}

/// Game pairs (same opening, colours swapped) counted by the pair's total score for one
/// side: index 0 = 0 points (two losses), 1 = ½, 2 = 1 (two draws or a win and a loss),
/// 3 = 1½, 4 = 2 (two wins).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta(pub [u32; 5]);

impl Penta {
    /// Counts the pair with these two results (for the same side).
    pub fn add(&mut self, first: GameResult, second: GameResult) {
        // Twice the points is an exact half-point count in 0..=4.
        let half_points = (2.0 * (first.points() + second.points())) as usize;
        if let Some(c) = self.0.get_mut(half_points) {
            *c += 1;
        }
    }

    #[must_use]
    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// The summary's line: `Pentanomial [0, 0.5, 1, 1.5, 2]: [0, 1, 4, 2, 1] (8 pairs)`.
    #[must_use]
    pub fn line(&self) -> String {
        format!(
            "Pentanomial [0, 0.5, 1, 1.5, 2]: {self} ({} pairs)",
            self.pairs()
        )
    }
}

impl fmt::Display for Penta {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c, d, e] = self.0;
        write!(f, "[{a}, {b}, {c}, {d}, {e}]")
    }
}

/// The parameters of a sequential probability ratio test (logistic Elo).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What an SPRT concluded so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    /// H1 (`elo >= elo1`) accepted.
    H1,
    /// H0 (`elo <= elo0`) accepted.
    H0,
    Continue,
}

impl fmt::Display for SprtState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtState::H1 => "H1 accepted",
            SprtState::H0 => "H0 accepted",
            SprtState::Continue => "continue",
        })
    }
}

impl Sprt {
    /// Checks the parameters: `elo0 < elo1`, `alpha` and `beta` strictly between 0 and 1.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        let unit = |p: f64| p > 0.0 && p < 1.0;
        let ordered = elo0 < elo1 && elo0.is_finite() && elo1.is_finite();
        if !ordered || !unit(alpha) || !unit(beta) {
            return Err(format!(
                "--sprt needs ELO0 < ELO1 and 0 < ALPHA, BETA < 1 (got {elo0} {elo1} {alpha} {beta})"
            ));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The summary's line for `llr`: the test's parameters, the LLR with its bounds, and
    /// the verdict so far.
    #[must_use]
    pub fn report(&self, llr: f64) -> String {
        let (lo, hi) = self.bounds();
        format!(
            "SPRT elo0 {} elo1 {} alpha {} beta {}: LLR {llr:.2} ({lo:.2}, {hi:.2}) {}",
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta,
            self.state(llr)
        )
    }

    /// The lower (accept H0) and upper (accept H1) LLR bounds.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The LLR over single games.
    #[must_use]
    pub fn llr_trinomial(&self, wdl: Wdl) -> f64 {
        let counts = [wdl.losses, wdl.draws, wdl.wins];
        self.llr(&[(0.0, counts[0]), (0.5, counts[1]), (1.0, counts[2])])
    }

    /// The LLR over game pairs.
    #[must_use]
    pub fn llr_pentanomial(&self, penta: Penta) -> f64 {
        let samples: Vec<(f64, u32)> = (0..5u32)
            .zip(penta.0)
            .map(|(i, n)| (f64::from(i) / 4.0, n))
            .collect();
        self.llr(&samples)
    }

    /// The generalised LLR (fishtest, fastchess `getLLR_logistic`): `samples` are
    /// (score in 0..=1, count); empty counts are raised to [`EPSILON`]. With `p̂` the
    /// empirical distribution and `pₛ` the most likely distribution of mean `s`,
    /// `LLR = N Σ p̂ᵢ ln(p_{s₁,i} / p_{s₀,i})`.
    fn llr(&self, samples: &[(f64, u32)]) -> f64 {
        if samples.iter().all(|&(_, c)| c == 0) {
            return 0.0;
        }
        let n: f64 = samples
            .iter()
            .map(|&(_, c)| f64::from(c).max(EPSILON))
            .sum();
        let empirical: Vec<(f64, f64)> = samples
            .iter()
            .map(|&(x, c)| (x, f64::from(c).max(EPSILON) / n))
            .collect();
        let p0 = most_likely_with_mean(&empirical, score_from_elo(self.elo0));
        let p1 = most_likely_with_mean(&empirical, score_from_elo(self.elo1));
        n * empirical
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(&(_, p), (&q0, &q1))| p * (q1 / q0).ln())
            .sum::<f64>()
    }

    #[must_use]
    pub fn state(&self, llr: f64) -> SprtState {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtState::H1
        } else if llr <= lower {
            SprtState::H0
        } else {
            SprtState::Continue
        }
    }
}

/// An SPRT with its LLR after every game: the last value is the verdict's, the whole path
/// is what the report draws.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtTrace {
    pub sprt: Sprt,
    /// `llr[k]`: the LLR after `k` games; `llr[0]` is 0 (no sample yet).
    pub llr: Vec<f64>,
}

impl SprtTrace {
    #[must_use]
    pub fn new(sprt: Sprt) -> SprtTrace {
        SprtTrace {
            sprt,
            llr: vec![0.0],
        }
    }

    /// Adds the LLR after one more game: over the pairs `penta` counts when the games come
    /// in pairs (`--repeat`), else over the games `total` counts. Half a pair adds no
    /// sample, so it repeats the last value.
    pub fn push(&mut self, total: Wdl, penta: Option<Penta>) {
        let llr = match penta {
            Some(penta) => self.sprt.llr_pentanomial(penta),
            None => self.sprt.llr_trinomial(total),
        };
        self.llr.push(llr);
    }

    /// The LLR after the last game.
    #[must_use]
    pub fn last(&self) -> f64 {
        self.llr.last().copied().unwrap_or(0.0)
    }

    /// The games counted.
    #[must_use]
    pub fn games(&self) -> usize {
        self.llr.len() - 1
    }

    #[must_use]
    pub fn state(&self) -> SprtState {
        self.sprt.state(self.last())
    }

    /// The summary's SPRT line ([`Sprt::report`]) for the last LLR.
    #[must_use]
    pub fn report(&self) -> String {
        self.sprt.report(self.last())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    // W 30, D 50, L 20, N 100: s = (30 + 25)/100 = 0.55; Elo = -400·log10(1/0.55 - 1)
    // = -400·log10(0.818182) = -400·(-0.0871502) = 34.860.
    // σ² = (30·0.45² + 50·0.05² + 20·0.55²)/100 = (6.075 + 0.125 + 6.05)/100 = 0.1225;
    // se = √(0.1225/100) = 0.035; 1.96·se = 0.068599; s ± → 0.481401, 0.618599;
    // Elo(0.481401) = -400·log10(1.077275) = -12.930; Elo(0.618599) = -400·log10(0.616556)
    // = 84.011.
    const SAMPLE: Wdl = Wdl {
        wins: 30,
        draws: 50,
        losses: 20,
    };

    #[test]
    fn elo_and_interval_match_the_hand_computation() {
        let e = elo(SAMPLE).unwrap();
        assert!(close(e.elo, 34.860, 1e-3), "{e:?}");
        assert!(close(e.low, -12.930, 1e-3), "{e:?}");
        assert!(close(e.high, 84.011, 1e-3), "{e:?}");
        let f = elo(SAMPLE.flipped()).unwrap();
        assert!(close(f.elo, -34.860, 1e-3) && close(f.low, -84.011, 1e-3));
        assert_eq!(elo(Wdl::default()), None);
    }

    #[test]
    fn a_clean_sweep_is_infinite_not_nan() {
        let e = elo(Wdl {
            wins: 4,
            draws: 0,
            losses: 0,
        })
        .unwrap();
        assert_eq!(e.elo, f64::INFINITY);
        // σ² = 0: the interval collapses onto the point.
        assert_eq!(e.low, f64::INFINITY);
    }

    #[test]
    fn los_matches_the_hand_computation() {
        // (W - L)/√(2(W + L)) = 10/√100 = 1; ½(1 + erf 1) = ½(1 + 0.8427008) = 0.9213504.
        assert!(close(los(SAMPLE).unwrap(), 0.921_350_4, 1e-6));
        // Even decisive results: exactly ½. Only draws: undefined.
        assert!(close(
            los(Wdl {
                wins: 3,
                draws: 1,
                losses: 3
            })
            .unwrap(),
            0.5,
            1e-6
        ));
        assert_eq!(
            los(Wdl {
                wins: 0,
                draws: 5,
                losses: 0
            }),
            None
        );
    }

    #[test]
    fn erf_agrees_with_tabulated_values() {
        // Abramowitz & Stegun table 7.1: erf 0.5 = 0.5204999, erf 1 = 0.8427008,
        // erf 2 = 0.9953223; erf is odd.
        for (x, v) in [
            (0.0, 0.0),
            (0.5, 0.520_499_9),
            (1.0, 0.842_700_8),
            (2.0, 0.995_322_3),
        ] {
            assert!(close(erf(x), v, 2e-7), "erf({x}) = {}", erf(x));
            assert!(close(erf(-x), -v, 2e-7));
        }
    }

    #[test]
    fn sprt_bounds_and_trinomial_llr_match_the_hand_computation() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        // ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = 2.944439.
        let (lo, hi) = sprt.bounds();
        assert!(close(lo, -2.944_439, 1e-6) && close(hi, 2.944_439, 1e-6));
        // p̂ = (L 0.2, D 0.5, W 0.3). For s₀ = 0.5, θ = 0.4 solves
        // 0.2·(-0.5)/(1 - 0.2) + 0 + 0.3·0.5/(1 + 0.2) = -0.125 + 0.125 = 0, so
        // p₀ = (0.2/0.8, 0.5, 0.3/1.2) = (0.25, 0.5, 0.25).
        let sample = [(0.0, 0.2), (0.5, 0.5), (1.0, 0.3)];
        let p0 = most_likely_with_mean(&sample, 0.5);
        assert!(
            p0.iter()
                .zip([0.25, 0.5, 0.25])
                .all(|(&a, b)| close(a, b, 1e-9)),
            "{p0:?}"
        );
        // For s₁ = 1/(1 + 10^(-10/400)) = 0.5143872, θ = 0.286563 gives
        // p₁ = (0.234578, 0.502070, 0.263352) (sum 1, mean s₁); then
        // LLR = 100·(0.2·ln(0.234578/0.25) + 0.5·ln(0.502070/0.5) + 0.3·ln(0.263352/0.25))
        //     = 100·(0.2·(-0.063673) + 0.5·0.004131 + 0.3·0.052031) = 0.494041.
        let p1 = most_likely_with_mean(&sample, score_from_elo(10.0));
        let mean: f64 = sample.iter().zip(&p1).map(|(&(a, _), p)| a * p).sum();
        assert!(close(mean, 0.514_387_2, 1e-7) && close(p1.iter().sum(), 1.0, 1e-9));
        assert!(
            close(p1[0], 0.234_578, 1e-6) && close(p1[2], 0.263_352, 1e-6),
            "{p1:?}"
        );
        let llr = sprt.llr_trinomial(SAMPLE);
        assert!(close(llr, 0.494_041, 1e-5), "{llr}");
        // The normal approximation (s₁ - s₀)(2μ - s₀ - s₁)/(2σ²/N) = 0.0143872·0.0856128/
        // 0.00245 = 0.502746 agrees to within 2 %, as it should for 100 games.
        assert!((llr - 0.502_746).abs() / 0.502_746 < 0.02);
        assert_eq!(sprt.state(0.5), SprtState::Continue);
        assert_eq!(sprt.state(3.0), SprtState::H1);
        assert_eq!(sprt.state(-3.0), SprtState::H0);
    }

    #[test]
    fn pentanomial_counts_and_llr_match_the_hand_computation() {
        let mut p = Penta::default();
        p.add(GameResult::Win, GameResult::Loss);
        p.add(GameResult::Draw, GameResult::Draw);
        p.add(GameResult::Win, GameResult::Draw);
        p.add(GameResult::Loss, GameResult::Loss);
        assert_eq!(p, Penta([1, 0, 2, 1, 0]));
        // Counts [1, 3, 10, 8, 3], 25 pairs, p̂ = (0.04, 0.12, 0.4, 0.32, 0.12) on scores
        // 0, ¼, ½, ¾, 1. θ₀ = 1.258180 gives p₀ = (0.107843, 0.175066, 0.4, 0.243430,
        // 0.073661) (mean 0.5); θ₁ = 1.098819 gives p₁ = (0.092, 0.169136, 0.406425,
        // 0.254191, 0.078247) (mean 0.5143872); LLR = 25·Σ p̂ᵢ ln(p₁ᵢ/p₀ᵢ)
        // = 25·(0.04·(-0.158888) + 0.12·(-0.034460) + 0.4·0.015935 + 0.32·0.043257
        // + 0.12·0.060397) = 0.424347 (0.42432 from the rounded p).
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let llr = sprt.llr_pentanomial(Penta([1, 3, 10, 8, 3]));
        assert!(close(llr, 0.424_347, 1e-5), "{llr}");
        // Only draws: the data fit elo0 better than elo1.
        assert!(sprt.llr_pentanomial(Penta([0, 0, 4, 0, 0])) < 0.0);
        assert_eq!(sprt.llr_pentanomial(Penta::default()), 0.0);
    }

    #[test]
    fn a_sweep_still_has_an_llr_thanks_to_the_regularisation() {
        // Counts [ε, ε, ε, ε, 2], ε = 0.001, N = 2.004: θ₀ = 1.998000,
        // p₀ = (0.498920, 0.000997, 0.000499, 0.000333, 0.499252); θ₁ = 1.942059,
        // p₁ = (0.484501, 0.001026, 0.000513, 0.000342, 0.513617); the WW term dominates:
        // LLR = 2.004·Σ p̂ᵢ ln(p₁ᵢ/p₀ᵢ) = 0.056792, positive and growing with every sweep.
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let two = sprt.llr_pentanomial(Penta([0, 0, 0, 0, 2]));
        assert!(close(two, 0.056_792, 1e-5), "{two}");
        assert!(sprt.llr_pentanomial(Penta([0, 0, 0, 0, 20])) > two);
    }

    #[test]
    fn sprt_parameters_are_checked() {
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.05, 1.0).is_err());
    }

    #[test]
    fn a_trace_keeps_the_llr_of_every_game_and_pairs_count_when_complete() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let mut trinomial = SprtTrace::new(sprt);
        let mut pairs = SprtTrace::new(sprt);
        let mut total = Wdl::default();
        let mut penta = Penta::default();
        for (k, result) in [GameResult::Win, GameResult::Draw, GameResult::Win]
            .into_iter()
            .enumerate()
        {
            total.add(result);
            if k == 1 {
                penta.add(GameResult::Win, GameResult::Draw);
            }
            trinomial.push(total, None);
            pairs.push(total, Some(penta));
        }
        assert_eq!(trinomial.games(), 3);
        assert_eq!(trinomial.llr[0], 0.0);
        assert_eq!(trinomial.last(), sprt.llr_trinomial(total));
        // The first game is half a pair: no sample yet; the third starts another.
        assert_eq!(pairs.llr[1], 0.0);
        assert_eq!(pairs.llr[2], sprt.llr_pentanomial(penta));
        assert_eq!(pairs.llr[3], pairs.llr[2]);
        assert_eq!(pairs.report(), sprt.report(pairs.llr[2]));
    }
}
