//! The standings of a tournament, from its games alone: the crosstable, the rating list
//! over every game ([`rating`]) and, for two engines, the pentanomial counts and the SPRT.
//!
//! They depend only on the games' identities and results, taken in schedule order, so a
//! run, its resumption and the merge of its shards print the same bytes.

use super::rating::{self, Anchor, Rating};
use super::schedule::GameId;
use super::stats::{GameResult, Penta, Sprt, Wdl};

/// A finished game: its identity and the result for the pairing's first engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub id: GameId,
    pub result: GameResult,
}

/// The standings of `names` after `outcomes` (in any order).
#[must_use]
pub fn standings(
    names: &[String],
    outcomes: &[Outcome],
    anchor: Anchor,
    sprt: Option<Sprt>,
) -> String {
    let mut outcomes = outcomes.to_vec();
    outcomes.sort_by_key(|o| o.id.number);
    let n = names.len();
    let mut points = vec![vec![0.0; n]; n];
    let mut games = vec![vec![0u32; n]; n];
    let mut wdl = vec![Wdl::default(); n];
    for o in &outcomes {
        let [a, b] = o.id.pairing;
        if a >= n || b >= n {
            continue;
        }
        points[a][b] += o.result.points();
        points[b][a] += o.result.flipped().points();
        games[a][b] += 1;
        games[b][a] += 1;
        wdl[a].add(o.result);
        wdl[b].add(o.result.flipped());
    }
    let width = names
        .iter()
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    let number_width = n.to_string().len();
    let mut out = String::new();
    let mut line = |l: String| {
        out.push_str(l.trim_end());
        out.push('\n');
    };
    let cells: Vec<Vec<String>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| match (i == j, games[i][j]) {
                    (true, _) => "-".to_owned(),
                    (false, 0) => ".".to_owned(),
                    (false, g) => format!("{:.1}/{g}", points[i][j]),
                })
                .collect()
        })
        .collect();
    let cell_width = cells
        .iter()
        .flatten()
        .map(String::len)
        .max()
        .unwrap_or(1)
        .max(3);
    line(format!(
        "Crosstable ({} games; a row's points against each column, out of the games played):",
        outcomes.len()
    ));
    let mut head = format!("  {:>number_width$}  {:<width$}", "#", "engine");
    for j in 0..n {
        head.push_str(&format!("  {:>cell_width$}", j + 1));
    }
    head.push_str("  points  games   score");
    line(head);
    for i in 0..n {
        let mut row = format!("  {:>number_width$}  {:<width$}", i + 1, names[i]);
        for cell in &cells[i] {
            row.push_str(&format!("  {cell:>cell_width$}"));
        }
        row.push_str(&format!(
            "  {:>6.1}  {:>5}  {:>6}",
            total_points(&wdl[i]),
            wdl[i].games(),
            percent(&wdl[i])
        ));
        line(row);
    }

    let fit = rating::fit(&points, &games, anchor);
    let zero = match fit.anchor {
        Anchor::Engine(a) => format!("{} = 0", names[a]),
        Anchor::Mean => "the mean of the rated engines = 0".to_owned(),
    };
    line(format!(
        "Ratings (logistic Elo, maximum likelihood over all games, draws half a point; {zero}; \
         95% intervals):"
    ));
    let mut order: Vec<usize> = (0..n).collect();
    // Best first; equal ratings keep the engines' order.
    order.sort_by(|&a, &b| sort_key(fit.ratings[b]).total_cmp(&sort_key(fit.ratings[a])));
    line(format!(
        "  {:>4}  {:<width$}  {:>7}  {:>7}  points  games   score",
        "rank", "engine", "Elo", "95%"
    ));
    for (rank, &i) in order.iter().enumerate() {
        let (elo, margin) = match fit.ratings[i] {
            _ if !fit.converged => ("?".to_owned(), String::new()),
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
        };
        line(format!(
            "  {:>4}  {:<width$}  {elo:>7}  {margin:>7}  {:>6.1}  {:>5}  {:>6}",
            rank + 1,
            names[i],
            total_points(&wdl[i]),
            wdl[i].games(),
            percent(&wdl[i])
        ));
    }
    if !fit.converged {
        line(
            "  (no finite fit: some group of engines scored everything or nothing against \
             the rest, or the games do not connect every engine)"
                .to_owned(),
        );
    }
    if n == 2 {
        two_engines(&outcomes, sprt, &mut line);
    }
    out
}

/// The pentanomial counts (with `repeat`) and the SPRT of the first engine.
fn two_engines(outcomes: &[Outcome], sprt: Option<Sprt>, line: &mut impl FnMut(String)) {
    let repeat = !outcomes.is_empty() && outcomes.iter().all(|o| o.id.repeat);
    let mut total = Wdl::default();
    let mut penta = Penta::default();
    let mut waiting: Vec<(usize, GameResult)> = Vec::new();
    for o in outcomes {
        total.add(o.result);
        if let Some((_, pair)) = o.id.pair() {
            match waiting.iter().position(|&(p, _)| p == pair) {
                Some(k) => penta.add(waiting.remove(k).1, o.result),
                None => waiting.push((pair, o.result)),
            }
        }
    }
    if repeat {
        line(format!(
            "Pentanomial [0, 0.5, 1, 1.5, 2]: {penta} ({} pairs)",
            penta.pairs()
        ));
    }
    if let Some(sprt) = sprt
        && !outcomes.is_empty()
    {
        let llr = if repeat {
            sprt.llr_pentanomial(penta)
        } else {
            sprt.llr_trinomial(total)
        };
        line(sprt.report(llr));
    }
}

fn total_points(w: &Wdl) -> f64 {
    f64::from(w.wins) + f64::from(w.draws) / 2.0
}

fn percent(w: &Wdl) -> String {
    w.score()
        .map_or("-".to_owned(), |s| format!("{:.1}%", 100.0 * s))
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
        let text = standings(&names, &outcomes, Anchor::Engine(1), None);
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
