//! One rating list over every game of a tournament: the maximum-likelihood fit of the
//! logistic (Elo) model, as Ordo and BayesElo fit it (without BayesElo's prior).
//!
//! Engine `i` scores against `j` with probability `p = 1 / (1 + 10^((rⱼ - rᵢ)/400))`; a
//! draw is half a point, so the log-likelihood is `Σ sᵢⱼ ln p + (nᵢⱼ - sᵢⱼ) ln (1 - p)`
//! over every pair. Newton's method maximises it with the reference engine held at 0; the
//! 95 % intervals are `±1.96 σ`, `σ²` the diagonal of the inverse of the negative Hessian
//! (the fit's covariance). Anchoring on the mean instead shifts the ratings and projects
//! that covariance (`P C P`, `P = I - 11ᵀ/m`).
//!
//! A finite fit needs every engine to have lost and won points among the engines being
//! fitted: an engine that scored everything (or nothing) is rated `+inf` (`-inf`) and left
//! out, repeatedly, and the rest are fitted; an engine left with no games has no rating.

/// `ln(10) / 400`: Elo units to natural logits.
const C: f64 = std::f64::consts::LN_10 / 400.0;

use super::stats::{Z95, score_from_elo};

/// Where the ratings' zero is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// This engine (by index) is rated 0.
    Engine(usize),
    /// The mean of the finitely rated engines is 0.
    Mean,
}

/// One engine's rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rating {
    /// A finite rating and the half-width of its 95 % interval (0 for the anchor).
    Finite { elo: f64, margin: f64 },
    /// Scored every point (`true`) or none (`false`) against the rest.
    Infinite(bool),
    /// No game against a finitely rated engine.
    Unrated,
}

/// The fit's result: a rating per engine and the anchor actually used.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    pub ratings: Vec<Rating>,
    /// `Mean` when the requested anchor engine could not be rated finitely.
    pub anchor: Anchor,
    /// Whether Newton's method converged (it fails only for a group of engines that scored
    /// everything against the rest without any single one of them doing so).
    pub converged: bool,
}

/// Fits ratings to `points[i][j]` (what `i` scored against `j`) out of `games[i][j]`.
#[must_use]
pub fn fit(points: &[Vec<f64>], games: &[Vec<u32>], anchor: Anchor) -> Fit {
    let n = games.len();
    let mut ratings = vec![Rating::Unrated; n];
    let mut active: Vec<bool> = vec![true; n];
    // Peel off the engines with an all-or-nothing score until every one left has both.
    loop {
        let mut changed = false;
        for i in 0..n {
            if !active[i] {
                continue;
            }
            let (s, g) = (0..n)
                .filter(|&j| active[j] && j != i)
                .fold((0.0, 0), |(s, g), j| (s + points[i][j], g + games[i][j]));
            let verdict = if g == 0 {
                Some(Rating::Unrated)
            } else if s <= 0.0 {
                Some(Rating::Infinite(false))
            } else if s >= f64::from(g) {
                Some(Rating::Infinite(true))
            } else {
                None
            };
            if let Some(r) = verdict {
                ratings[i] = r;
                active[i] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let fitted: Vec<usize> = (0..n).filter(|&i| active[i]).collect();
    let (anchor, reference) = match anchor {
        Anchor::Engine(a) if fitted.contains(&a) => (anchor, a),
        _ => (Anchor::Mean, fitted.first().copied().unwrap_or(0)),
    };
    if fitted.is_empty() {
        return Fit {
            ratings,
            anchor,
            converged: true,
        };
    }
    let free: Vec<usize> = fitted.iter().copied().filter(|&i| i != reference).collect();
    let mut x = vec![0.0; n];
    let mut converged = false;
    let mut covariance = None;
    for _ in 0..100 {
        let (gradient, hessian) = derivatives(points, games, &fitted, &x);
        let m = free.len();
        let neg_h: Vec<Vec<f64>> = free
            .iter()
            .map(|&i| free.iter().map(|&j| -hessian[i][j]).collect())
            .collect();
        let Some(inverse) = invert(neg_h) else {
            break;
        };
        let step: Vec<f64> = (0..m)
            .map(|a| (0..m).map(|b| inverse[a][b] * gradient[free[b]]).sum())
            .collect();
        for (a, &i) in free.iter().enumerate() {
            x[i] += step[a];
        }
        covariance = Some(inverse);
        if x.iter().any(|v| !v.is_finite() || v.abs() > 10_000.0) {
            covariance = None;
            break;
        }
        if step.iter().all(|s| s.abs() < 1e-9) {
            converged = true;
            break;
        }
    }
    let Some(cov_free) = covariance.filter(|_| converged) else {
        return Fit {
            ratings,
            anchor,
            converged: false,
        };
    };
    // The covariance over all fitted engines, the reference's row and column zero.
    let index = |i: usize| free.iter().position(|&f| f == i);
    let cov = |i: usize, j: usize| match (index(i), index(j)) {
        (Some(a), Some(b)) => cov_free[a][b],
        _ => 0.0,
    };
    let (shift, variance): (f64, Vec<f64>) = if anchor == Anchor::Mean {
        let m = fitted.len() as f64;
        let mean = fitted.iter().map(|&i| x[i]).sum::<f64>() / m;
        let total: f64 = fitted
            .iter()
            .map(|&i| fitted.iter().map(|&j| cov(i, j)).sum::<f64>())
            .sum();
        let var = (0..n)
            .map(|i| {
                let row: f64 = fitted.iter().map(|&j| cov(i, j)).sum();
                cov(i, i) - 2.0 * row / m + total / (m * m)
            })
            .collect();
        (mean, var)
    } else {
        (0.0, (0..n).map(|i| cov(i, i)).collect())
    };
    for &i in &fitted {
        ratings[i] = Rating::Finite {
            elo: x[i] - shift,
            margin: Z95 * variance[i].max(0.0).sqrt(),
        };
    }
    Fit {
        ratings,
        anchor,
        converged,
    }
}

/// The log-likelihood's gradient and Hessian in Elo units, over the `fitted` engines.
fn derivatives(
    points: &[Vec<f64>],
    games: &[Vec<u32>],
    fitted: &[usize],
    x: &[f64],
) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = x.len();
    let mut gradient = vec![0.0; n];
    let mut hessian = vec![vec![0.0; n]; n];
    for &i in fitted {
        for &j in fitted {
            if i == j || games[i][j] == 0 {
                continue;
            }
            let g = f64::from(games[i][j]);
            let p = score_from_elo(x[i] - x[j]);
            gradient[i] += C * (points[i][j] - g * p);
            let w = C * C * g * p * (1.0 - p);
            hessian[i][i] -= w;
            hessian[i][j] += w;
        }
    }
    (gradient, hessian)
}

/// The inverse of a symmetric positive definite matrix by Gauss–Jordan elimination with
/// partial pivoting; `None` when it is singular (the games do not connect the engines).
fn invert(mut a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let m = a.len();
    let mut inv: Vec<Vec<f64>> = (0..m)
        .map(|i| (0..m).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for col in 0..m {
        // Ties go to the first row, so the arithmetic is the same on every run.
        let pivot = (col..m).fold(col, |best, r| {
            if a[r][col].abs() > a[best][col].abs() {
                r
            } else {
                best
            }
        });
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let d = a[col][col];
        for k in 0..m {
            a[col][k] /= d;
            inv[col][k] /= d;
        }
        for r in 0..m {
            if r != col {
                let f = a[r][col];
                if f != 0.0 {
                    for k in 0..m {
                        a[r][k] -= f * a[col][k];
                        inv[r][k] -= f * inv[col][k];
                    }
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::stats::elo_from_score;

    fn table(rows: &[&[f64]]) -> Vec<Vec<f64>> {
        rows.iter().map(|r| r.to_vec()).collect()
    }

    fn elo(r: Rating) -> (f64, f64) {
        match r {
            Rating::Finite { elo, margin } => (elo, margin),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn two_engines_get_the_score_formula() {
        // 7 of 10: the likelihood's maximum is the logistic Elo of the score.
        let points = table(&[&[0.0, 7.0], &[3.0, 0.0]]);
        let games = vec![vec![0, 10], vec![10, 0]];
        let f = fit(&points, &games, Anchor::Engine(1));
        assert!(f.converged);
        let (a, margin) = elo(f.ratings[0]);
        assert!((a - elo_from_score(0.7)).abs() < 1e-6, "{a}");
        // σ² = 1 / (n c² p (1-p)).
        let sigma = 1.0 / (10.0 * C * C * 0.21_f64).sqrt();
        assert!((margin - Z95 * sigma).abs() < 1e-6, "{margin}");
        assert_eq!(elo(f.ratings[1]), (0.0, 0.0));
    }

    #[test]
    fn a_transitive_round_robin_is_fitted_and_the_mean_anchor_centres_it() {
        let points = table(&[&[0.0, 6.0, 8.0], &[4.0, 0.0, 6.0], &[2.0, 4.0, 0.0]]);
        let games = vec![vec![0, 10, 10], vec![10, 0, 10], vec![10, 10, 0]];
        let first = fit(&points, &games, Anchor::Engine(0));
        let mean = fit(&points, &games, Anchor::Mean);
        let r: Vec<f64> = first.ratings.iter().map(|&r| elo(r).0).collect();
        assert!(r[0] == 0.0 && r[1] < 0.0 && r[2] < r[1], "{r:?}");
        let m: Vec<f64> = mean.ratings.iter().map(|&r| elo(r).0).collect();
        assert!(m.iter().sum::<f64>().abs() < 1e-6);
        // The same differences, whatever the anchor.
        assert!(((m[0] - m[2]) - (r[0] - r[2])).abs() < 1e-6);
        // The symmetric middle engine sits at the mean.
        assert!(m[1].abs() < 1e-6, "{m:?}");
    }

    #[test]
    fn perfect_scores_are_infinite_and_the_rest_still_fitted() {
        let points = table(&[&[0.0, 4.0, 4.0], &[0.0, 0.0, 3.0], &[0.0, 1.0, 0.0]]);
        let games = vec![vec![0, 4, 4], vec![4, 0, 4], vec![4, 4, 0]];
        let f = fit(&points, &games, Anchor::Engine(0));
        assert_eq!(f.ratings[0], Rating::Infinite(true));
        assert_eq!(f.anchor, Anchor::Mean);
        let (b, _) = elo(f.ratings[1]);
        let (c, _) = elo(f.ratings[2]);
        assert!((b - c - elo_from_score(0.75)).abs() < 1e-6);
    }

    #[test]
    fn disconnected_engines_do_not_converge() {
        let points = table(&[
            &[0.0, 1.0, 0.0, 0.0],
            &[1.0, 0.0, 0.0, 0.0],
            &[0.0, 0.0, 0.0, 1.0],
            &[0.0, 0.0, 1.0, 0.0],
        ]);
        let mut games = vec![vec![0; 4]; 4];
        games[0][1] = 2;
        games[1][0] = 2;
        games[2][3] = 2;
        games[3][2] = 2;
        assert!(!fit(&points, &games, Anchor::Engine(0)).converged);
    }
}
