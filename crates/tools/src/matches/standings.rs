//! The standings of a tournament, from its games alone: the crosstable, the rating list
//! over every game ([`rating`]) and, for two engines, the pentanomial counts and the SPRT.
//!
//! They depend only on the games' identities and results, taken in schedule order, so a
//! run, its resumption and the merge of its shards print the same bytes.

use std::fmt;

use super::rating::{self, Anchor, Fit, Rating};
use super::schedule::GameId;
use super::stats::{GameResult, Penta, Sprt, SprtTrace, Wdl};

/// A finished game: its identity and the result for the pairing's first engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub id: GameId,
    pub result: GameResult,
}

/// The standings of a tournament: what its summary prints ([`fmt::Display`]) and its
/// report draws, computed once.
#[derive(Clone, Debug)]
pub struct Standings {
    pub names: Vec<String>,
    /// The games counted.
    pub games: usize,
    /// `points[i][j]`: what engine `i` scored against `j`, in `played[i][j]` games.
    pub points: Vec<Vec<f64>>,
    pub played: Vec<Vec<u32>>,
    /// Each engine's results over all its games.
    pub wdl: Vec<Wdl>,
    pub fit: Fit,
    /// The engines, best rating first; equal ratings keep the engines' order.
    pub order: Vec<usize>,
    /// Two engines' pair counts and SPRT.
    pub duel: Option<Duel>,
}

/// What the standings of two engines add, from the first engine's side.
#[derive(Clone, Debug)]
pub struct Duel {
    /// The pentanomial counts, when every game is one of a pair (`--repeat`).
    pub penta: Option<Penta>,
    /// The SPRT over the games in schedule order, when one was asked for and a game played.
    pub sprt: Option<SprtTrace>,
}

impl Standings {
    /// The standings of `names` after `outcomes` (in any order: they are counted in
    /// schedule order).
    #[must_use]
    pub fn new(
        names: &[String],
        outcomes: &[Outcome],
        anchor: Anchor,
        sprt: Option<Sprt>,
    ) -> Standings {
        let mut outcomes = outcomes.to_vec();
        outcomes.sort_by_key(|o| o.id.number);
        let n = names.len();
        let mut points = vec![vec![0.0; n]; n];
        let mut played = vec![vec![0u32; n]; n];
        let mut wdl = vec![Wdl::default(); n];
        for o in &outcomes {
            let [a, b] = o.id.pairing;
            if a >= n || b >= n {
                continue;
            }
            points[a][b] += o.result.points();
            points[b][a] += o.result.flipped().points();
            played[a][b] += 1;
            played[b][a] += 1;
            wdl[a].add(o.result);
            wdl[b].add(o.result.flipped());
        }
        let fit = rating::fit(&points, &played, anchor);
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| sort_key(fit.ratings[b]).total_cmp(&sort_key(fit.ratings[a])));
        Standings {
            names: names.to_vec(),
            games: outcomes.len(),
            points,
            played,
            wdl,
            fit,
            order,
            duel: (n == 2).then(|| duel(&outcomes, sprt)),
        }
    }

    /// The crosstable's cell of `i` against `j`: `-` on the diagonal, `.` for no game, else
    /// the points out of the games (`1.5/2`).
    #[must_use]
    pub fn cell(&self, i: usize, j: usize) -> String {
        match (i == j, self.played[i][j]) {
            (true, _) => "-".to_owned(),
            (false, 0) => ".".to_owned(),
            (false, g) => format!("{:.1}/{g}", self.points[i][j]),
        }
    }

    /// Engine `i`'s points over all its games.
    #[must_use]
    pub fn total_points(&self, i: usize) -> f64 {
        let w = &self.wdl[i];
        f64::from(w.wins) + f64::from(w.draws) / 2.0
    }

    /// Engine `i`'s rating and interval as the list prints them: `+190.8` and `±393.2`,
    /// `anchor`, `+inf` and `-`, or `?` when the fit failed.
    #[must_use]
    pub fn rating_text(&self, i: usize) -> (String, String) {
        match self.fit.ratings[i] {
            _ if !self.fit.converged => ("?".to_owned(), String::new()),
            Rating::Finite { elo, margin } => (
                format!("{:+.1}", elo + 0.0),
                if margin > 0.0 {
                    format!("±{margin:.1}")
                } else {
                    "anchor".to_owned()
                },
            ),
            Rating::Infinite(true) => ("+inf".to_owned(), "-".to_owned()),
            Rating::Infinite(false) => ("-inf".to_owned(), "-".to_owned()),
            Rating::Unrated => ("-".to_owned(), "-".to_owned()),
        }
    }

    /// Where the ratings' zero is: `hard = 0`.
    #[must_use]
    pub fn zero(&self) -> String {
        match self.fit.anchor {
            Anchor::Engine(a) => format!("{} = 0", self.names[a]),
            Anchor::Mean => "the mean of the rated engines = 0".to_owned(),
        }
    }

    /// The crosstable's heading.
    #[must_use]
    pub fn crosstable_heading(&self) -> String {
        format!(
            "Crosstable ({} games; a row's points against each column, out of the games played)",
            self.games
        )
    }

    /// The rating list's heading.
    #[must_use]
    pub fn ratings_heading(&self) -> String {
        format!(
            "Ratings (logistic Elo, maximum likelihood over all games, draws half a point; {}; \
             95% intervals)",
            self.zero()
        )
    }

    /// Why there are no ratings, when the fit failed.
    #[must_use]
    pub fn no_fit(&self) -> Option<&'static str> {
        (!self.fit.converged).then_some(
            "no finite fit: some group of engines scored everything or nothing against the \
             rest, or the games do not connect every engine",
        )
    }
}

impl fmt::Display for Standings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.names.len();
        let width = self
            .names
            .iter()
            .map(|s| s.chars().count())
            .max()
            .unwrap_or(0)
            .max(6);
        let number_width = n.to_string().len();
        let mut line = |l: String| writeln!(f, "{}", l.trim_end());
        let cells: Vec<Vec<String>> = (0..n)
            .map(|i| (0..n).map(|j| self.cell(i, j)).collect())
            .collect();
        let cell_width = cells
            .iter()
            .flatten()
            .map(String::len)
            .max()
            .unwrap_or(1)
            .max(3);
        line(format!("{}:", self.crosstable_heading()))?;
        let mut head = format!("  {:>number_width$}  {:<width$}", "#", "engine");
        for j in 0..n {
            head.push_str(&format!("  {:>cell_width$}", j + 1));
        }
        head.push_str("  points  games   score");
        line(head)?;
        for (i, row_cells) in cells.iter().enumerate() {
            let mut row = format!("  {:>number_width$}  {:<width$}", i + 1, self.names[i]);
            for cell in row_cells {
                row.push_str(&format!("  {cell:>cell_width$}"));
            }
            row.push_str(&format!(
                "  {:>6.1}  {:>5}  {:>6}",
                self.total_points(i),
                self.wdl[i].games(),
                self.wdl[i].percent()
            ));
            line(row)?;
        }
        line(format!("{}:", self.ratings_heading()))?;
        line(format!(
            "  {:>4}  {:<width$}  {:>7}  {:>7}  points  games   score",
            "rank", "engine", "Elo", "95%"
        ))?;
        for (rank, &i) in self.order.iter().enumerate() {
            let (elo, margin) = self.rating_text(i);
            line(format!(
                "  {:>4}  {:<width$}  {elo:>7}  {margin:>7}  {:>6.1}  {:>5}  {:>6}",
                rank + 1,
                self.names[i],
                self.total_points(i),
                self.wdl[i].games(),
                self.wdl[i].percent()
            ))?;
        }
        if let Some(why) = self.no_fit() {
            line(format!("  ({why})"))?;
        }
        if let Some(duel) = &self.duel {
            if let Some(penta) = duel.penta {
                line(penta.line())?;
            }
            if let Some(trace) = &duel.sprt {
                line(trace.report())?;
            }
        }
        Ok(())
    }
}

/// The first engine's pentanomial counts (when every game is one of a pair) and SPRT.
fn duel(outcomes: &[Outcome], sprt: Option<Sprt>) -> Duel {
    let repeat = !outcomes.is_empty() && outcomes.iter().all(|o| o.id.repeat);
    let mut total = Wdl::default();
    let mut penta = Penta::default();
    let mut trace = sprt.filter(|_| !outcomes.is_empty()).map(SprtTrace::new);
    let mut waiting: Vec<(usize, GameResult)> = Vec::new();
    for o in outcomes {
        total.add(o.result);
        if let Some((_, pair)) = o.id.pair() {
            match waiting.iter().position(|&(p, _)| p == pair) {
                Some(k) => penta.add(waiting.remove(k).1, o.result),
                None => waiting.push((pair, o.result)),
            }
        }
        if let Some(trace) = &mut trace {
            trace.push(total, repeat.then_some(penta));
        }
    }
    Duel {
        penta: repeat.then_some(penta),
        sprt: trace,
    }
}

/// Orders ratings: +inf, the finite ones, -inf, unrated.
fn sort_key(r: Rating) -> f64 {
    match r {
        Rating::Finite { elo, .. } => elo,
        Rating::Infinite(true) => f64::INFINITY,
        Rating::Infinite(false) => f64::MIN,
        Rating::Unrated => f64::NEG_INFINITY,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::schedule::{Format, build};

    #[test]
    fn a_round_robin_prints_its_crosstable_and_ranks_best_first() {
        let names = ["a", "b", "c"].map(String::from).to_vec();
        let schedule = build(3, Format::RoundRobin, 2, 1, true, 0);
        // a beats b and c once each and draws the rest; b and c split.
        let results = [
            GameResult::Win,
            GameResult::Draw,
            GameResult::Win,
            GameResult::Draw,
            GameResult::Win,
            GameResult::Loss,
        ];
        let outcomes: Vec<Outcome> = schedule
            .iter()
            .zip(results)
            .rev()
            .map(|(&id, result)| Outcome { id, result })
            .collect();
        let text = Standings::new(&names, &outcomes, Anchor::Engine(1), None).to_string();
        assert!(text.starts_with("Crosstable (6 games;"), "{text}");
        assert!(
            text.contains("\n  1  a           -  1.5/2  1.5/2     3.0      4   75.0%\n"),
            "{text}"
        );
        assert!(text.contains("b = 0"), "{text}");
        let ranks: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.starts_with("  rank"))
            .skip(1)
            .map(|l| l.split_whitespace().nth(1).unwrap())
            .collect();
        // b and c tie; b comes first, being listed first.
        assert_eq!(ranks, ["a", "b", "c"]);
        assert!(text.contains("anchor"), "{text}");
    }
}
