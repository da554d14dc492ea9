//! `pbrain-hoshi train`: fits the evaluation's tables to self-play games (Texel tuning).
//!
//! Every searched position of every game is replayed into its [`Features`]; positions the
//! search decides itself ([`is_quiet`] is false) are left out. The evaluation is linear in
//! the features, so the model is a logistic regression: win probability
//! `sigmoid(eval / K)`, fitted by Adam on the cross-entropy to the target
//! `lambda * result + (1 - lambda) * sigmoid(score / K)` (the game's result for the mover,
//! and the mover's search score; a mate score gives no score term, only the result), with
//! an L2 pull towards the starting tables. `K` is first fitted to the hand-set evaluation
//! on the same games (or given), so the learned tables keep the hand-set units, and with
//! them the meaning of the search's margins. A tenth of the games (whole games, never
//! single positions) is held out; the tables with the best held-out loss are written.

use std::path::{Path, PathBuf};

use clap::Args;

use hoshi::board::Color;
use hoshi::eval::features::{Features, is_quiet};
use hoshi::eval::policy::PolicyTable;
use hoshi::eval::{
    EVAL_LIMIT, Model, Policy, RuleTables, THREAT_MASKS, VALUE_SCALE, Weights, builtin_model,
    handset_model,
};
use hoshi::pattern::PCODE_COUNT;
use hoshi::rules::Rule;

use super::dataset::{self, Refusal};
use super::fit::{FitConfig, best_scale, cross_entropy, descend, sigmoid};
use super::policy_fit::{self, Choices};
use super::selfplay::{Score, SelfPlayGame};

/// Options of `pbrain-hoshi train` (the global --seed seeds the split and the order).
#[derive(Debug, Args)]
pub struct TrainArgs {
    /// Game files written by `datagen`; every rule found in them is trained.
    #[arg(value_name = "GAMES")]
    pub inputs: Vec<PathBuf>,
    /// The weights file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// The tables training starts from and is pulled towards, and which untrained rules
    /// keep: `handset`, `builtin`, or a weights file.
    #[arg(long, value_name = "WEIGHTS", default_value = "handset")]
    pub init: String,
    /// Passes over the training positions (0 writes the starting tables).
    #[arg(long, value_name = "N", default_value_t = 30)]
    pub epochs: usize,
    /// Weight of the game result in the target; the rest is the search score.
    #[arg(long, value_name = "0-1", default_value_t = 0.5)]
    pub lambda: f64,
    /// The logistic scale K (win probability = sigmoid(eval / K)); fitted to the hand-set
    /// evaluation on these games when absent.
    #[arg(long, value_name = "K")]
    pub k: Option<f64>,
    /// Adam's step, in evaluation units (decays linearly to a tenth).
    #[arg(long, value_name = "LR", default_value_t = 1.0)]
    pub lr: f64,
    /// L2 pull towards the starting tables, per squared logit unit.
    #[arg(long, value_name = "L2", default_value_t = 1e-4)]
    pub l2: f64,
    /// Fraction of the games held out for validation.
    #[arg(long, value_name = "FRACTION", default_value_t = 0.1)]
    pub val: f64,
    /// Positions per Adam step.
    #[arg(long, value_name = "N", default_value_t = 1024)]
    pub batch: usize,
    /// Passes over the training positions for the move prior (0 keeps the starting one).
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub policy_epochs: usize,
    /// Adam's step for the move prior, in its units (decays linearly to a tenth).
    #[arg(long, value_name = "LR", default_value_t = 1.0)]
    pub policy_lr: f64,
}

/// Where each table entry sits in the parameter vector of one rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// 1 (both colours share) or 2 (black's, white's).
    pub tables: usize,
}

impl Layout {
    /// Renju's colours play different games; the other rules' do not.
    #[must_use]
    pub fn of(rule: Rule) -> Layout {
        Layout {
            tables: if rule == Rule::Renju { 2 } else { 1 },
        }
    }

    fn table(self, c: Color) -> usize {
        if self.tables == 1 { 0 } else { c as usize }
    }

    fn pcode(self, t: usize, pcode: usize, role: usize) -> usize {
        (t * PCODE_COUNT + pcode) * 2 + role
    }

    fn threat(self, t: usize, mask: usize) -> usize {
        self.tables * PCODE_COUNT * 2 + t * THREAT_MASKS + mask
    }

    #[must_use]
    pub fn size(self) -> usize {
        self.tables * (PCODE_COUNT * 2 + THREAT_MASKS)
    }

    /// The parameters of `tables` in evaluation units (a shared table serves both colours).
    #[must_use]
    pub fn params(self, tables: &RuleTables) -> Vec<f64> {
        let mut theta = vec![0.0; self.size()];
        for t in 0..self.tables {
            let src = t.min(tables.pcode.len() - 1);
            for (p, v) in tables.pcode[src].iter().enumerate() {
                for role in 0..2 {
                    theta[self.pcode(t, p, role)] = f64::from(v[role]) / f64::from(VALUE_SCALE);
                }
            }
            for (m, &v) in tables.threat[src].iter().enumerate() {
                theta[self.threat(t, m)] = f64::from(v);
            }
        }
        theta
    }

    /// The tables of parameters `theta`, rounded to the file's units.
    #[must_use]
    pub fn tables(self, theta: &[f64]) -> RuleTables {
        let mut out = RuleTables::zero(self.tables == 2);
        let limit = f64::from(hoshi::eval::model::MAX_PCODE_VALUE);
        for t in 0..self.tables {
            for (p, v) in out.pcode[t].iter_mut().enumerate() {
                for (role, x) in v.iter_mut().enumerate() {
                    let scaled = theta[self.pcode(t, p, role)] * f64::from(VALUE_SCALE);
                    *x = scaled.round().clamp(-limit, limit) as i32;
                }
            }
            for (m, x) in out.threat[t].iter_mut().enumerate() {
                let limit = f64::from(EVAL_LIMIT);
                *x = theta[self.threat(t, m)].round().clamp(-limit, limit) as i32;
            }
        }
        out
    }

    /// The sparse linear form of `f`: `eval = sum(coef * theta[index])`.
    fn terms(self, f: &Features, out: &mut Vec<(u32, f32)>) {
        let (me, opp) = (f.side, f.side.opponent());
        for (c, role, sign) in [(me, 0, 1.0), (opp, 1, -1.0)] {
            let t = self.table(c);
            for &(p, n) in &f.counts[c as usize] {
                out.push((
                    self.pcode(t, usize::from(p), role) as u32,
                    sign * f32::from(n),
                ));
            }
        }
        out.push((self.threat(self.table(me), f.mask) as u32, 1.0));
    }
}

/// Training positions of one rule, flat: position `i`'s terms are
/// `idx[start[i]..start[i + 1]]` with `coef` alike.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    start: Vec<usize>,
    idx: Vec<u32>,
    coef: Vec<f32>,
    /// The training target, a probability for the side to move.
    pub target: Vec<f32>,
    /// Held out for validation.
    pub held_out: Vec<bool>,
}

impl Samples {
    /// Adds a position given by its terms.
    pub fn push(&mut self, terms: &[(u32, f32)], target: f32, held_out: bool) {
        if self.start.is_empty() {
            self.start.push(0);
        }
        for &(i, c) in terms {
            self.idx.push(i);
            self.coef.push(c);
        }
        self.start.push(self.idx.len());
        self.target.push(target);
        self.held_out.push(held_out);
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.target.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.target.is_empty()
    }

    fn range(&self, i: usize) -> std::ops::Range<usize> {
        self.start[i]..self.start[i + 1]
    }

    /// Position `i`'s evaluation under `theta`.
    fn eval(&self, i: usize, theta: &[f64]) -> f64 {
        self.range(i)
            .map(|j| f64::from(self.coef[j]) * theta[self.idx[j] as usize])
            .sum()
    }
}

/// The K minimising the cross-entropy of `sigmoid(eval / K)` to `results` (Texel's scale),
/// over 10..100000.
#[must_use]
pub fn fit_k(evals: &[f64], results: &[f64]) -> f64 {
    best_scale(10.0, 100_000.0, 100, |k| {
        evals
            .iter()
            .zip(results)
            .map(|(&e, &r)| cross_entropy(sigmoid(e / k), r))
            .sum::<f64>()
    })
}

/// Mean losses after an epoch (epoch 0: the starting tables).
#[derive(Clone, Copy, Debug)]
pub struct Epoch {
    pub epoch: usize,
    pub train: f64,
    pub val: f64,
}

/// Mean cross-entropy over the training and the held-out positions.
fn losses(s: &Samples, theta: &[f64], k: f64) -> (f64, f64) {
    let mut sum = [0.0f64; 2];
    let mut n = [0usize; 2];
    for i in 0..s.len() {
        let p = sigmoid(s.eval(i, theta) / k);
        let set = usize::from(s.held_out[i]);
        sum[set] += cross_entropy(p, f64::from(s.target[i]));
        n[set] += 1;
    }
    (sum[0] / n[0].max(1) as f64, sum[1] / n[1].max(1) as f64)
}

/// Fits the parameters to the samples from `init` (also the L2 prior); calls `on_epoch`
/// after each pass and returns the parameters of the best held-out loss (the training loss
/// when nothing is held out).
pub fn fit(
    s: &Samples,
    init: &[f64],
    cfg: &FitConfig,
    mut on_epoch: impl FnMut(&Epoch),
) -> Vec<f64> {
    let k = cfg.scale;
    let add_grad = |batch: &[usize], theta: &[f64], grad: &mut [f64]| {
        let scale = 1.0 / (batch.len() as f64 * k);
        for &i in batch {
            // d(cross-entropy)/d(eval) = (p - y) / K.
            let d = (sigmoid(s.eval(i, theta) / k) - f64::from(s.target[i])) * scale;
            for j in s.range(i) {
                grad[s.idx[j] as usize] += d * f64::from(s.coef[j]);
            }
        }
    };
    descend(
        init,
        &s.held_out,
        &cfg.descent(),
        add_grad,
        |theta| losses(s, theta, k),
        |epoch, train, val| on_epoch(&Epoch { epoch, train, val }),
    )
}

/// One searched position that [`is_quiet`] keeps, with its labels.
struct QuietPosition {
    features: Features,
    score: Score,
    /// The game's result for the side to move: 1, 0.5, 0.
    result: f64,
}

/// A game's quiet searched positions (for the evaluation) and its choices (for the move
/// prior), or why the game is impossible.
fn positions(
    rule: Rule,
    size: u8,
    game: &SelfPlayGame,
    held_out: bool,
) -> Result<(Vec<QuietPosition>, Choices), String> {
    let mut out = Vec::new();
    let mut choices = Choices::default();
    let tables = Layout::of(rule).tables;
    dataset::replay(rule, size, game, |pb, me, played, score| {
        if is_quiet(pb, me) {
            out.push(QuietPosition {
                features: Features::of(pb, me),
                score,
                result: dataset::result_for(game, me),
            });
        }
        choices.push(pb, me, played, tables, held_out);
    })?;
    Ok((out, choices))
}

/// Fits `rule`'s move prior to `choices` from the `start` tables (a shared table serves
/// both colours), in the units of the hand-set prior: its temperature is fitted first.
fn fit_policy(
    args: &TrainArgs,
    seed: u64,
    rule: Rule,
    choices: &Choices,
    start: &[PolicyTable],
) -> Vec<PolicyTable> {
    let count = Layout::of(rule).tables;
    let start: Vec<PolicyTable> = (0..count)
        .map(|t| start[t.min(start.len() - 1)].clone())
        .collect();
    let s = choices.fit_temperature(&policy_fit::params(&vec![Policy::handset_table(); count]));
    let init = policy_fit::params(&start);
    let cfg = FitConfig {
        scale: s,
        lr: args.policy_lr,
        l2: args.l2,
        epochs: args.policy_epochs,
        batch: args.batch,
        seed,
    };
    println!(
        "{rule}: {} positions for the move prior; hand-set temperature S = {s:.1}",
        choices.len()
    );
    println!("| {rule} prior epoch | train loss | validation loss |");
    println!("|---:|---:|---:|");
    let theta = policy_fit::fit(choices, &init, &cfg, |e, train, val| {
        println!("| {e} | {train:.5} | {val:.5} |");
    });
    let learned = policy_fit::tables(&theta, count);
    println!(
        "{rule}: the searched move is the prior's first on {:.1} % of the held-out positions \
         ({:.1} % with the starting prior)",
        100.0 * choices.top1(&policy_fit::params(&learned), true),
        100.0 * choices.top1(&init, true)
    );
    learned
}

/// One rule's training data.
struct RuleData {
    rule: Rule,
    /// The quiet positions, each with whether its game is held out.
    positions: Vec<(QuietPosition, bool)>,
    choices: Choices,
}

/// The starting model named by `--init`.
pub fn init_model(name: &str) -> Result<Model, String> {
    match name {
        "handset" => Ok(handset_model(&Weights::default())),
        "builtin" => Ok(builtin_model()),
        path => Model::load(Path::new(path)).map_err(|e| format!("--init {path}: {e}")),
    }
}

/// Runs `train`.
pub fn run(args: &TrainArgs, seed: u64) -> Result<(), String> {
    if !(0.0..=1.0).contains(&args.lambda) || !(0.0..1.0).contains(&args.val) {
        return Err("--lambda must be within 0..1 and --val within 0..1 (excluded)".into());
    }
    let mut model = init_model(&args.init)?;
    let handset = handset_model(&Weights::default());
    let mut by_rule: Vec<RuleData> = Vec::new();
    dataset::for_each_game::<String>(&args.inputs, seed, args.val, |g| {
        let rule = g.header.rule;
        let (ps, choices) =
            positions(rule, g.header.size, g.game, g.held_out).map_err(Refusal::Skip)?;
        let slot = match by_rule.iter().position(|d| d.rule == rule) {
            Some(i) => i,
            None => {
                by_rule.push(RuleData {
                    rule,
                    positions: Vec::new(),
                    choices: Choices::default(),
                });
                by_rule.len() - 1
            }
        };
        let data = &mut by_rule[slot];
        data.positions
            .extend(ps.into_iter().map(|p| (p, g.held_out)));
        data.choices.append(choices);
        Ok(())
    })?;
    for RuleData {
        rule,
        positions,
        choices,
    } in &by_rule
    {
        let layout = Layout::of(*rule);
        let hand = handset.tables(*rule);
        let evals: Vec<f64> = positions
            .iter()
            .map(|(p, _)| f64::from(p.features.value(hand)))
            .collect();
        let results: Vec<f64> = positions.iter().map(|(p, _)| p.result).collect();
        let fitted = fit_k(&evals, &results);
        let k = args.k.unwrap_or(fitted);
        println!(
            "{rule}: {} quiet positions; hand-set K = {fitted:.1}; training with K = {k:.1}",
            positions.len()
        );
        let mut samples = Samples::default();
        let mut terms = Vec::new();
        for (p, held_out) in positions {
            terms.clear();
            layout.terms(&p.features, &mut terms);
            let target = match p.score {
                Score::Eval(s) => {
                    args.lambda * p.result + (1.0 - args.lambda) * sigmoid(f64::from(s) / k)
                }
                Score::Win(_) | Score::Loss(_) => p.result,
            };
            samples.push(&terms, target as f32, *held_out);
        }
        let init = layout.params(model.tables(*rule));
        let cfg = FitConfig {
            scale: k,
            lr: args.lr,
            l2: args.l2,
            epochs: args.epochs,
            batch: args.batch,
            seed,
        };
        println!("| {rule} epoch | train loss | validation loss |");
        println!("|---:|---:|---:|");
        let theta = fit(&samples, &init, &cfg, |e| {
            println!("| {} | {:.5} | {:.5} |", e.epoch, e.train, e.val);
        });
        let mut tables = layout.tables(&theta);
        let (train, val) = losses(&samples, &layout.params(&tables), k);
        println!("{rule}: written tables (rounded): train {train:.5}, validation {val:.5}");
        tables.policy = fit_policy(args, seed, *rule, choices, &model.tables(*rule).policy);
        model = model
            .with_section(*rule, tables)
            .map_err(|e| e.to_string())?;
    }
    model
        .save(&args.out)
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    println!(
        "wrote {} ({} bytes; sections: {})",
        args.out.display(),
        model.to_bytes().len(),
        model
            .rules()
            .map(|r| r.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use hoshi::board::Board;
    use hoshi::pattern::PatternBoard;
    use hoshi::rng::Rng;

    /// Positions of random sparse features labelled by known weights: the fit finds them.
    #[test]
    fn the_trainer_recovers_known_weights_from_synthetic_data() {
        let truth: Vec<f64> = (0..12)
            .map(|i| f64::from(i * 37 % 23) * 10.0 - 110.0)
            .collect();
        let k = 150.0;
        let mut rng = Rng::new(3);
        let mut s = Samples::default();
        for n in 0..6000 {
            let mut terms: Vec<(u32, f32)> = Vec::new();
            for j in 0..truth.len() as u32 {
                if rng.below(3) == 0 {
                    terms.push((j, (rng.below(7) as f32) - 3.0));
                }
            }
            let eval: f64 = terms
                .iter()
                .map(|&(j, c)| f64::from(c) * truth[j as usize])
                .sum();
            s.push(&terms, sigmoid(eval / k) as f32, n % 10 == 0);
        }
        let cfg = FitConfig {
            scale: k,
            lr: 4.0,
            l2: 0.0,
            epochs: 60,
            batch: 64,
            seed: 1,
        };
        let mut curve = Vec::new();
        let theta = fit(&s, &vec![0.0; truth.len()], &cfg, |e| curve.push(e.val));
        for (j, (&t, &x)) in truth.iter().zip(&theta).enumerate() {
            assert!((t - x).abs() < 4.0, "weight {j}: true {t}, fitted {x}");
        }
        assert!(curve.last().unwrap() < &curve[0]);
    }

    #[test]
    fn k_is_found_again_from_results_drawn_with_it() {
        let mut rng = Rng::new(5);
        let (mut evals, mut results) = (Vec::new(), Vec::new());
        for _ in 0..40_000 {
            let e = (rng.below(2001) as f64) - 1000.0;
            let won = (rng.below(1_000_000) as f64) / 1e6 < sigmoid(e / 250.0);
            evals.push(e);
            results.push(if won { 1.0 } else { 0.0 });
        }
        let k = fit_k(&evals, &results);
        assert!((k - 250.0).abs() < 20.0, "{k}");
    }

    /// Table entries go to their own parameters and back, and a position's linear form is
    /// the evaluation the tables give it.
    #[test]
    fn layout_round_trips_tables_and_terms_give_the_features_value() {
        let mut t = RuleTables::zero(true);
        t.pcode[1][17] = [24, -16];
        t.threat[0][5] = 33;
        let layout = Layout::of(Rule::Renju);
        assert_eq!(layout.tables(&layout.params(&t)), t);
        let b = Board::with_stones(15, 15, &[(7, 7), (8, 8), (6, 6)], &[(8, 7), (9, 7)]).unwrap();
        let pb = PatternBoard::new(&b, Rule::Renju);
        let mut rng = Rng::new(9);
        let theta: Vec<f64> = (0..layout.size())
            .map(|_| (rng.below(64) as f64) - 32.0)
            .collect();
        let tables = layout.tables(&theta);
        for side in Color::BOTH {
            let f = Features::of(&pb, side);
            let mut terms = Vec::new();
            layout.terms(&f, &mut terms);
            let mut s = Samples::default();
            s.push(&terms, 0.5, false);
            assert_eq!(s.eval(0, &theta), f64::from(f.value(&tables)));
        }
    }
}
