//! What `train` fits the evaluation with and `policy_fit` the move prior: Adam's descent
//! on mini-batches with an L2 pull towards the start, keeping the parameters of the best
//! held-out loss, and the golden-section search that fits a logistic scale. Each caller
//! brings its own model as a gradient and a loss; nothing here knows the tables.

use hoshi::rng::Rng;

/// The logistic function.
#[must_use]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of predicting `p` for a target `y`, safe at 0 and 1.
#[must_use]
pub fn cross_entropy(p: f64, y: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// The scale in `lo..hi` minimising `loss` (one minimum assumed), by golden-section search
/// on its logarithm, `iterations` steps.
#[must_use]
pub fn best_scale(lo: f64, hi: f64, iterations: usize, loss: impl Fn(f64) -> f64) -> f64 {
    let (mut a, mut b) = (lo.ln(), hi.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..iterations {
        let (c, d) = (b - g * (b - a), a + g * (b - a));
        if loss(c.exp()) < loss(d.exp()) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp()
}

/// How to fit.
#[derive(Clone, Copy, Debug)]
pub struct FitConfig {
    /// The logistic scale: `K` for the evaluation (win probability `sigmoid(eval / K)`),
    /// the temperature `S` for the move prior (logit `prior / S`).
    pub scale: f64,
    pub lr: f64,
    pub l2: f64,
    pub epochs: usize,
    pub batch: usize,
    pub seed: u64,
}

impl FitConfig {
    /// Adam's descent of this fit: the L2 pull is per squared logit unit.
    #[must_use]
    pub fn descent(&self) -> Descent {
        Descent {
            lr: self.lr,
            epochs: self.epochs,
            batch: self.batch,
            seed: self.seed,
            reg: 2.0 * self.l2 / (self.scale * self.scale),
        }
    }
}

/// How Adam descends: the step (decaying linearly to a tenth over the epochs), the passes,
/// the batch size, the shuffling seed, and the L2 pull towards the starting parameters
/// (`reg * (theta - init)` added to every batch's gradient).
#[derive(Clone, Copy, Debug)]
pub struct Descent {
    pub lr: f64,
    pub epochs: usize,
    pub batch: usize,
    pub seed: u64,
    pub reg: f64,
}

/// Minimises a loss over samples by Adam on mini-batches of the samples not `held_out`,
/// from `init`. `add_grad(batch, theta, grad)` adds the batch's mean gradient to `grad`;
/// `losses(theta)` gives the training and held-out losses, passed to `on_epoch` after every
/// pass (epoch 0: the start). Returns the parameters of the best held-out loss (the
/// training loss when nothing is held out).
pub fn descend(
    init: &[f64],
    held_out: &[bool],
    d: &Descent,
    mut add_grad: impl FnMut(&[usize], &[f64], &mut [f64]),
    mut losses: impl FnMut(&[f64]) -> (f64, f64),
    mut on_epoch: impl FnMut(usize, f64, f64),
) -> Vec<f64> {
    let mut train: Vec<usize> = (0..held_out.len()).filter(|&i| !held_out[i]).collect();
    let has_val = train.len() < held_out.len();
    let mut theta = init.to_vec();
    let (train0, val0) = losses(&theta);
    on_epoch(0, train0, val0);
    let mut best = (if has_val { val0 } else { train0 }, theta.clone());
    let n = theta.len();
    let (mut m, mut v, mut grad) = (vec![0.0f64; n], vec![0.0f64; n], vec![0.0f64; n]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let mut step = 0i32;
    let mut rng = Rng::new(d.seed);
    for epoch in 1..=d.epochs {
        for i in (1..train.len()).rev() {
            train.swap(i, rng.below(i + 1));
        }
        let lr = d.lr * (1.0 - 0.9 * (epoch - 1) as f64 / d.epochs.max(1) as f64);
        for batch in train.chunks(d.batch.max(1)) {
            for (g, (t, t0)) in grad.iter_mut().zip(theta.iter().zip(init)) {
                *g = d.reg * (t - t0);
            }
            add_grad(batch, &theta, &mut grad);
            step += 1;
            let (c1, c2) = (1.0 - b1.powi(step), 1.0 - b2.powi(step));
            for j in 0..n {
                m[j] = b1 * m[j] + (1.0 - b1) * grad[j];
                v[j] = b2 * v[j] + (1.0 - b2) * grad[j] * grad[j];
                theta[j] -= lr * (m[j] / c1) / ((v[j] / c2).sqrt() + eps);
            }
        }
        let (train_loss, val) = losses(&theta);
        on_epoch(epoch, train_loss, val);
        let score = if has_val { val } else { train_loss };
        if score < best.0 {
            best = (score, theta.clone());
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_scale_is_the_minimum_of_a_one_dip_loss() {
        let k = best_scale(1.0, 1_000.0, 60, |x| (x.ln() - 42f64.ln()).powi(2));
        assert!((k - 42.0).abs() < 1e-3, "{k}");
    }

    /// A quadratic bowl around known parameters, every sample giving the same gradient:
    /// the descent reaches it, and with nothing held out keeps the best training loss.
    #[test]
    fn descent_reaches_the_minimum_of_a_bowl_and_keeps_the_best_epoch() {
        let target = [3.0, -2.0];
        let loss = |t: &[f64]| {
            t.iter()
                .zip(&target)
                .map(|(a, b)| (a - b).powi(2))
                .sum::<f64>()
        };
        let d = Descent {
            lr: 0.5,
            epochs: 200,
            batch: 4,
            seed: 1,
            reg: 0.0,
        };
        let mut seen = Vec::new();
        let theta = descend(
            &[0.0, 0.0],
            &[false; 8],
            &d,
            |_, theta, grad| {
                for (g, (t, b)) in grad.iter_mut().zip(theta.iter().zip(&target)) {
                    *g += 2.0 * (t - b);
                }
            },
            |theta| (loss(theta), 0.0),
            |epoch, train, _| seen.push((epoch, train)),
        );
        assert_eq!(seen.len(), 201);
        assert!(loss(&theta) < 1e-3, "{theta:?}");
        let best = seen.iter().map(|&(_, l)| l).fold(f64::INFINITY, f64::min);
        assert!((loss(&theta) - best).abs() < 1e-12);
    }
}
