//! The games of a match or tournament, in a fixed order, each with its identity.
//!
//! Pairings are every pair `(i, j)`, `i < j`, in that order (round robin) or the first
//! engine against each other one (gauntlet). Each round plays `games` games of every
//! pairing in turn. A pairing's game `k` (from 0) gives its first engine black when `k` is
//! even and uses opening `k / 2` (with `repeat`: each opening twice, colours swapped) or
//! `k`, modulo the openings. Two engines make one pairing, so game `i` of a two-engine
//! match is the pairing's game `i`: the same schedule the match always had.
//!
//! The identity (number, round, pairing, pairing game, opening) goes into each game's PGN
//! tags; resuming and merging read it back, so it never depends on the order games finish.

use std::fmt;
use std::str::FromStr;

use clap::ValueEnum;

/// How engines are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameId {
    /// Its place in the schedule, from 1 (PGN's `Round`).
    pub number: usize,
    /// The tournament round, from 1.
    pub round: usize,
    /// The engines (indices from 0); the first has black in the pairing's even games.
    pub pairing: [usize; 2],
    /// The pairing's game, from 1.
    pub pairing_game: usize,
    /// Index into the ordered openings (`None`: an empty board).
    pub opening: Option<usize>,
    /// Whether games `2m`, `2m + 1` of the pairing share an opening and form a pair.
    pub repeat: bool,
}

impl GameId {
    /// Whether the pairing's first engine has black.
    #[must_use]
    pub fn first_black(&self) -> bool {
        (self.pairing_game - 1).is_multiple_of(2)
    }

    /// The engines with black and with white.
    #[must_use]
    pub fn colours(&self) -> [usize; 2] {
        let [a, b] = self.pairing;
        if self.first_black() { [a, b] } else { [b, a] }
    }

    /// The pentanomial pair this game belongs to (pairing, pair number), with `repeat`.
    #[must_use]
    pub fn pair(&self) -> Option<([usize; 2], usize)> {
        self.repeat
            .then_some((self.pairing, (self.pairing_game - 1) / 2))
    }
}

/// Builds the schedule; `openings` is how many openings there are (0: none).
#[must_use]
pub fn build(
    engines: usize,
    format: Format,
    games: usize,
    rounds: usize,
    repeat: bool,
    openings: usize,
) -> Vec<GameId> {
    let pairings: Vec<[usize; 2]> = match format {
        Format::RoundRobin => (0..engines)
            .flat_map(|i| (i + 1..engines).map(move |j| [i, j]))
            .collect(),
        Format::Gauntlet => (1..engines).map(|j| [0, j]).collect(),
    };
    let mut schedule = Vec::with_capacity(pairings.len() * games * rounds);
    for round in 0..rounds {
        for &pairing in &pairings {
            for g in 0..games {
                let k = round * games + g;
                let slot = if repeat { k / 2 } else { k };
                schedule.push(GameId {
                    number: schedule.len() + 1,
                    round: round + 1,
                    pairing,
                    pairing_game: k + 1,
                    opening: (openings > 0).then(|| slot % openings),
                    repeat,
                });
            }
        }
    }
    schedule
}

/// `--shard K/N`: the `K`th of `N` disjoint slices of the schedule (from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub k: usize,
    pub n: usize,
}

impl Shard {
    /// Whether the shard plays `game`. Units are dealt round-robin: a unit is a game, or
    /// with `repeat` a pair, so both games of a pair land in one shard.
    #[must_use]
    pub fn holds(&self, game: &GameId) -> bool {
        let unit = if game.repeat {
            (game.number - 1) / 2
        } else {
            game.number - 1
        };
        unit % self.n == self.k - 1
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("--shard {s:?} is not K/N with 1 <= K <= N (e.g. 2/3)");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let k: usize = k.trim().parse().map_err(|_| bad())?;
        let n: usize = n.trim().parse().map_err(|_| bad())?;
        if k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_engines_keep_the_match_order() {
        let s = build(2, Format::RoundRobin, 3, 2, true, 2);
        assert_eq!(s.len(), 6);
        let black_first: Vec<bool> = s.iter().map(GameId::first_black).collect();
        assert_eq!(black_first, [true, false, true, false, true, false]);
        let openings: Vec<Option<usize>> = s.iter().map(|g| g.opening).collect();
        assert_eq!(
            openings,
            [Some(0), Some(0), Some(1), Some(1), Some(0), Some(0)]
        );
        assert_eq!(s[3].round, 2);
    }

    #[test]
    fn round_robin_and_gauntlet_pair_as_documented() {
        let rr = build(4, Format::RoundRobin, 2, 1, false, 0);
        let pairs: Vec<[usize; 2]> = rr.iter().step_by(2).map(|g| g.pairing).collect();
        assert_eq!(pairs, [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]);
        let g = build(4, Format::Gauntlet, 2, 2, false, 0);
        assert_eq!(g.len(), 12);
        assert_eq!(g[6].pairing, [0, 1]);
        assert_eq!(g[6].pairing_game, 3);
        assert_eq!(g[1].colours(), [1, 0]);
    }

    #[test]
    fn shards_split_the_schedule_into_disjoint_slices_that_keep_pairs() {
        let s = build(3, Format::RoundRobin, 4, 1, true, 0);
        let shards: Vec<Shard> = (1..=3).map(|k| Shard { k, n: 3 }).collect();
        for game in &s {
            assert_eq!(shards.iter().filter(|sh| sh.holds(game)).count(), 1);
            let partner = s.iter().find(|o| o.pair() == game.pair() && o != &game);
            let partner = partner.unwrap();
            assert!(shards.iter().all(|sh| sh.holds(game) == sh.holds(partner)));
        }
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { k: 2, n: 3 }));
        assert!("0/3".parse::<Shard>().is_err());
        assert!("4/3".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
    }
}
