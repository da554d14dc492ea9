//! The games of self-play files as training data, read the same way by `train` (which fits
//! the tables) and `features` (which exports positions for the network trainer): which
//! games are held out, how a game is replayed into its positions, and what its result is
//! for the mover. One owner, so that both see exactly the same positions, targets and
//! split, and a loss reported by one compares with a loss reported by the other.

use std::path::PathBuf;

use hoshi::board::{Board, Color, Pos};
use hoshi::pattern::PatternBoard;
use hoshi::rng::Rng;
use hoshi::rules::{Rule, Verdict};

use super::selfplay::{self, Header, Score, SelfPlayGame};

/// One game of the input files, with where it comes from.
pub struct InputGame<'a> {
    /// What made the games of its file (rule, board side).
    pub header: &'a Header,
    /// The file's index among the inputs.
    pub file: usize,
    /// The game's index within its file.
    pub index: usize,
    /// Held out for validation: no position of it is trained on.
    pub held_out: bool,
    pub game: &'a SelfPlayGame,
}

/// Whether game `index` of input file `file` is held out, for a held-out `fraction` and
/// the run's `seed`: a draw per game, never per position, so no game's neighbouring
/// positions sit on both sides of the split.
#[must_use]
pub fn is_held_out(seed: u64, file: usize, index: usize, fraction: f64) -> bool {
    let mut rng = Rng::new(seed ^ ((file as u64) << 40) ^ index as u64);
    rng.next_u64();
    (rng.next_u64() % 1_000_000) as f64 / 1e6 < fraction
}

/// Why a visitor of [`for_each_game`] did not take a game.
#[derive(Debug)]
pub enum Refusal<E> {
    /// The game is impossible (the reason): it is reported and skipped, the run goes on.
    Skip(String),
    /// The run stops with this error (the visitor could not write, say).
    Stop(E),
}

/// An input game file that cannot be read: the reason, with the file's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnreadableInput(pub String);

impl std::fmt::Display for UnreadableInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UnreadableInput {}

/// `train`'s errors are messages.
impl From<UnreadableInput> for String {
    fn from(e: UnreadableInput) -> String {
        e.0
    }
}

/// Reads every input file in order and calls `visit` with each of its games. A torn last
/// record is reported and left out; a game `visit` skips is reported on stderr; a summary
/// line per file goes to stdout. Fails when a file cannot be read or `visit` stops.
pub fn for_each_game<E: From<UnreadableInput>>(
    inputs: &[PathBuf],
    seed: u64,
    held_out_fraction: f64,
    mut visit: impl FnMut(&InputGame) -> Result<(), Refusal<E>>,
) -> Result<(), E> {
    for (file, path) in inputs.iter().enumerate() {
        let contents = selfplay::read(path).map_err(UnreadableInput)?;
        let h = contents.header;
        if contents.torn > 0 {
            eprintln!(
                "{}: ignoring a torn last record ({} bytes)",
                path.display(),
                contents.torn
            );
        }
        let mut bad = 0;
        for (index, game) in contents.games.iter().enumerate() {
            let g = InputGame {
                header: &h,
                file,
                index,
                held_out: is_held_out(seed, file, index, held_out_fraction),
                game,
            };
            match visit(&g) {
                Ok(()) => {}
                Err(Refusal::Skip(why)) => {
                    bad += 1;
                    eprintln!("{} game {}: {why}; skipped", path.display(), index + 1);
                }
                Err(Refusal::Stop(e)) => return Err(e),
            }
        }
        println!(
            "{}: {} {} {}x{} games at {} nodes ({bad} skipped)",
            path.display(),
            contents.games.len(),
            h.rule,
            h.size,
            h.size,
            h.nodes,
        );
    }
    Ok(())
}

/// The game's result for `side`: 1 won, 0.5 drawn, 0 lost.
#[must_use]
pub fn result_for(game: &SelfPlayGame, side: Color) -> f64 {
    match game.winner {
        None => 0.5,
        Some(w) if w == side => 1.0,
        Some(_) => 0.0,
    }
}

/// Replays a game, checked move by move against the rule, calling `visit` with every
/// searched position (the board, the side to move, the move it played and its score)
/// before the move is made.
pub fn replay(
    rule: Rule,
    size: u8,
    game: &SelfPlayGame,
    mut visit: impl FnMut(&PatternBoard, Color, Pos, Score),
) -> Result<(), String> {
    let side = i64::from(size);
    let mut board = Board::new(side, side).map_err(|e| e.to_string())?;
    for &p in &game.opening {
        let color = board.to_move();
        if !board.is_empty_at(p) || rule.judge(&board, p, color) != Verdict::Continue {
            return Err(format!("opening stone {p} is impossible"));
        }
        board.place(p, color).map_err(|e| e.to_string())?;
    }
    let mut pb = PatternBoard::new(&board, rule);
    for (n, &(p, score)) in game.moves.iter().enumerate() {
        let me = board.to_move();
        if !board.is_empty_at(p) {
            return Err(format!("move {} on {p} is impossible", n + 1));
        }
        visit(&pb, me, p, score);
        let last = n + 1 == game.moves.len();
        match rule.judge(&board, p, me) {
            Verdict::Continue => {}
            _ if last => break,
            _ => return Err(format!("the game was over before move {}", n + 2)),
        }
        board.place(p, me).map_err(|e| e.to_string())?;
        pb.make(pb.idx(p), me);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &[(u8, u8)], winner: Option<Color>) -> SelfPlayGame {
        SelfPlayGame {
            opening: vec![Pos::new(7, 7)],
            moves: moves
                .iter()
                .map(|&(x, y)| (Pos::new(x, y), Score::Eval(i32::from(x))))
                .collect(),
            winner,
        }
    }

    /// Every searched position is visited before its move, with the right side to move;
    /// a move on an occupied cell makes the game impossible.
    #[test]
    fn replay_visits_each_searched_position_before_its_move() {
        let g = game(&[(8, 8), (6, 6), (9, 9)], Some(Color::White));
        let mut seen = Vec::new();
        replay(Rule::Freestyle, 15, &g, |pb, me, p, s| {
            seen.push((pb.ply(), me, p, s));
            assert!(pb.is_empty(pb.idx(p)));
        })
        .unwrap();
        assert_eq!(
            seen,
            vec![
                (0, Color::White, Pos::new(8, 8), Score::Eval(8)),
                (1, Color::Black, Pos::new(6, 6), Score::Eval(6)),
                (2, Color::White, Pos::new(9, 9), Score::Eval(9)),
            ]
        );
        let bad = game(&[(8, 8), (7, 7)], None);
        assert!(replay(Rule::Freestyle, 15, &bad, |_, _, _, _| {}).is_err());
        assert_eq!(result_for(&g, Color::White), 1.0);
        assert_eq!(result_for(&g, Color::Black), 0.0);
        assert_eq!(result_for(&bad, Color::Black), 0.5);
    }

    /// The split is by game, repeatable, moved by the seed, and near the fraction asked.
    #[test]
    fn the_held_out_games_are_a_seeded_fraction() {
        let held = |seed| {
            (0..4000)
                .filter(|&g| is_held_out(seed, 0, g, 0.1))
                .collect::<Vec<_>>()
        };
        let (a, b) = (held(0), held(1));
        assert_eq!(a, held(0));
        assert_ne!(a, b);
        assert!((300..500).contains(&a.len()), "{}", a.len());
        assert!(!(0..100).any(|g| is_held_out(3, 1, g, 0.0)));
    }
}
