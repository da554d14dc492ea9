//! `pbrain-hoshi rescore`: a game file's positions searched again, by this build's search
//! and evaluation at a node budget of one's choice (issue 34: another player's games with
//! labels our own search gives, or our own games with deeper labels).
//!
//! Every game keeps its opening, moves and result; each searched position gets the score of
//! a new search of `--nodes` nodes by the side to move, as `datagen` would have scored it:
//! two searchers a game (black's and white's), cleared when the game starts and kept across
//! its moves. A game of the input is a function of itself and the options alone, so the
//! output does not depend on `--threads`.
//!
//! The output's header takes the input's rule, board and seed, and names the nodes and the
//! evaluation of the new scores. A run on an existing output continues it after checking
//! that the games already there are the input's, in order; an input game that cannot be
//! replayed under its rule is reported and left out (before any search, so a resumed run
//! leaves out the same ones).

use std::path::PathBuf;

use clap::Args;

use hoshi::eval::Evaluator;
use hoshi::search::Searcher;

use super::datagen::{self, SearchedGames};
use super::dataset;
use super::selfplay::{self, Header, SelfPlayGame};

/// Options of `pbrain-hoshi rescore` (--weights evaluates).
#[derive(Debug, Args)]
pub struct RescoreArgs {
    /// The game file whose positions are searched again (`datagen`'s or `import`'s).
    #[arg(value_name = "GAMES")]
    pub input: PathBuf,
    #[command(flatten)]
    pub output: SearchedGames,
}

/// Runs `rescore`: searches the games the output lacks and appends them.
pub fn run(args: &RescoreArgs, eval: &Evaluator) -> Result<(), String> {
    let output = &args.output;
    if args.input == output.out {
        return Err("--out must be another file than the input".into());
    }
    let input = selfplay::read(&args.input)?;
    let h = input.header;
    let mut games = Vec::with_capacity(input.games.len());
    for (i, game) in input.games.into_iter().enumerate() {
        match dataset::replay(h.rule, h.size, &game, |_, _, _, _| {}) {
            Ok(()) => games.push(game),
            Err(why) => eprintln!("{} game {}: {why}; left out", args.input.display(), i + 1),
        }
    }
    let header = Header {
        nodes: output.nodes,
        weights: eval.id(),
        ..h
    };
    let written = output.open(&header)?;
    let done = written.len();
    if let Some(i) = (0..done).find(|&i| !same_play(&written[i], games.get(i))) {
        return Err(format!(
            "{} game {} is not game {} of {} (with impossible games left out): continue a \
             run from the same input, or write another file",
            output.out.display(),
            i + 1,
            i + 1,
            args.input.display()
        ));
    }
    let appended = output.append(done, games.len(), eval, |i, players| {
        rescore(&header, &games[i], players)
    })?;
    if appended.is_some() {
        eprintln!(
            "{}: {} games ({} searched again at {} nodes a move)",
            output.out.display(),
            games.len(),
            games.len() - done,
            output.nodes
        );
    }
    Ok(())
}

/// Whether `a` is `b` played again: the same opening, moves and result.
fn same_play(a: &SelfPlayGame, b: Option<&SelfPlayGame>) -> bool {
    let moves = |g: &SelfPlayGame| g.moves.iter().map(|&(p, _)| p).collect::<Vec<_>>();
    b.is_some_and(|b| a.opening == b.opening && a.winner == b.winner && moves(a) == moves(b))
}

/// `game` with every searched position scored by a new search of `header.nodes` nodes.
fn rescore(header: &Header, game: &SelfPlayGame, players: &mut [Searcher; 2]) -> SelfPlayGame {
    for p in players.iter_mut() {
        p.clear();
    }
    let mut moves = Vec::with_capacity(game.moves.len());
    let replayed = dataset::replay(header.rule, header.size, game, |pb, me, p, _| {
        let r = datagen::search(
            &mut players[me as usize],
            pb.board(),
            header.rule,
            header.nodes,
        );
        moves.push((p, datagen::score_of(&r)));
    });
    debug_assert!(replayed.is_ok(), "run keeps the games that replay");
    SelfPlayGame {
        opening: game.opening.clone(),
        moves,
        winner: game.winner,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::DatagenArgs;
    use hoshi::rules::Rule;
    use selfplay::Score;

    fn args(input: PathBuf, out: PathBuf, nodes: u64, threads: usize) -> RescoreArgs {
        RescoreArgs {
            input,
            output: SearchedGames {
                nodes,
                threads,
                out,
            },
        }
    }

    /// Rescoring at the nodes the games were played with gives their scores back (the same
    /// searches in the same order); other nodes keep the play and change scores; a resume
    /// and the threads change nothing; an impossible game is left out.
    #[test]
    fn rescoring_keeps_the_play_and_gives_the_search_scores() {
        let dir = std::env::temp_dir().join(format!("hoshi-rescore-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let eval = Evaluator::handset();
        let games = dir.join("self.games");
        let made = DatagenArgs {
            rule: Rule::Renju,
            size: 9,
            games: 3,
            output: SearchedGames {
                nodes: 300,
                threads: 1,
                out: games.clone(),
            },
        };
        datagen::run(&made, 5, &eval).unwrap();
        let original = selfplay::read(&games).unwrap();

        let same = dir.join("same.games");
        run(&args(games.clone(), same.clone(), 300, 1), &eval).unwrap();
        let again = selfplay::read(&same).unwrap();
        assert_eq!(again.games, original.games);
        assert_eq!(again.header, original.header);

        let deeper = dir.join("deeper.games");
        run(&args(games.clone(), deeper.clone(), 900, 1), &eval).unwrap();
        let d = selfplay::read(&deeper).unwrap();
        assert_eq!(d.header.nodes, 900);
        assert_eq!(d.games.len(), 3);
        assert!(
            d.games
                .iter()
                .zip(&original.games)
                .all(|(a, b)| same_play(a, Some(b)))
        );
        assert_ne!(
            d.games, original.games,
            "deeper searches score some position otherwise"
        );

        // Torn after its first game and continued on one thread: the same file.
        let bytes = std::fs::read(&deeper).unwrap();
        let first = selfplay::HEADER_BYTES + d.games[0].to_bytes().len();
        let resumed = dir.join("resumed.games");
        std::fs::write(&resumed, &bytes[..first + 5]).unwrap();
        run(&args(games.clone(), resumed.clone(), 900, 1), &eval).unwrap();
        assert_eq!(std::fs::read(&resumed).unwrap(), bytes);

        // Another input's games are not continued; an impossible game is left out.
        let mut other = original.games.clone();
        other.swap(0, 1);
        // A move on a cell the game has played: impossible.
        let extra = (other[2].moves[0].0, Score::Eval(1));
        other[2].moves.push(extra);
        let mut file = original.header.to_bytes().to_vec();
        for g in &other {
            file.extend(g.to_bytes());
        }
        let input = dir.join("other.games");
        std::fs::write(&input, file).unwrap();
        let err = run(&args(input.clone(), deeper.clone(), 900, 1), &eval).unwrap_err();
        assert!(err.contains("is not game 1"), "{err}");
        let two = dir.join("two.games");
        run(&args(input.clone(), two.clone(), 300, 1), &eval).unwrap();
        assert_eq!(
            selfplay::read(&two).unwrap().games,
            original.games[..2]
                .iter()
                .rev()
                .cloned()
                .collect::<Vec<_>>()
        );

        assert!(run(&args(games.clone(), games.clone(), 300, 1), &eval).is_err());
        assert!(run(&args(games.clone(), dir.join("x.games"), 0, 1), &eval).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
