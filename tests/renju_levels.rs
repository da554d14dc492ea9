//! Every level under real renju rules: games played out never contain a black foul, and a
//! black side whose only defences are forbidden still answers a legal move.

use std::sync::atomic::AtomicBool;

use hoshi::board::{Board, Color, Pos};
use hoshi::levels::{Context, Level, Strength};
use hoshi::rng::Rng;
use hoshi::rules::{Rule, Verdict};
use hoshi::search::Searcher;
use hoshi::time::Limits;

fn choose(level: Level, board: &mut Board, me: Color, rng: &mut Rng) -> Pos {
    let stop = AtomicBool::new(false);
    // Master needs a bound; the classic levels ignore it.
    let limits = Limits {
        max_nodes: Some(20_000),
        ..Limits::default()
    };
    let mut ctx = Context {
        rule: Rule::Renju,
        me,
        limits,
        stop: &stop,
        rng,
        searcher: &mut Searcher::new(1 << 20),
        strength: Strength::FULL,
        observe: None,
    };
    level.choose(board, &mut ctx).pos
}

/// Plays one game from `opening` (black first) to its end; returns the number of moves
/// played after the opening.
fn play_out(level: Level, opening: &[(u8, u8)], seed: u64) -> usize {
    let mut board = Board::new(15, 15).unwrap();
    for (i, &(x, y)) in opening.iter().enumerate() {
        let color = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        board.place(Pos::new(x, y), color).unwrap();
    }
    let mut rng = Rng::new(seed);
    let mut played = 0;
    while !board.is_full() {
        let me = board.to_move();
        let p = choose(level, &mut board, me, &mut rng);
        assert!(board.is_empty_at(p), "{level} answered the occupied {p}");
        let any_legal = board
            .empty_cells()
            .any(|q| Rule::Renju.is_legal(&board, q, me));
        match Rule::Renju.judge(&board, p, me) {
            Verdict::Foul(foul) => {
                assert!(
                    !any_legal,
                    "{level} played the forbidden {p} ({foul:?}) as {me:?}\n{board}"
                );
                return played;
            }
            Verdict::Win => return played + 1,
            Verdict::Continue => {}
        }
        board.place(p, me).unwrap();
        played += 1;
    }
    played
}

#[test]
fn renju_games_by_every_level_contain_no_black_foul() {
    // Openings with black stones crowding the centre, where double threes come up early.
    let openings: [&[(u8, u8)]; 3] = [
        &[(7, 7), (8, 8), (9, 7)],
        &[(7, 7), (7, 8), (8, 6), (9, 9), (6, 6)],
        &[(7, 7), (8, 7), (7, 9), (10, 10), (9, 9), (11, 11), (5, 5)],
    ];
    let mut total = 0;
    for level in Level::ALL {
        for (i, opening) in openings.iter().enumerate() {
            total += play_out(level, opening, i as u64);
        }
    }
    assert!(
        total > 20,
        "the games were too short to mean anything ({total} moves)"
    );
}

#[test]
fn black_with_only_forbidden_defences_still_answers_a_legal_move() {
    // White's closed four on row 0 (x = 1..4, black at 0) is completed at (5, 0). Black
    // stones make (5, 0) a double four: vertically (5, 1..3) and diagonally (6, 1), (7, 2),
    // (8, 3). So black's only block is forbidden.
    let mut board = Board::new(15, 15).unwrap();
    let black = [(0, 0), (5, 1), (5, 2), (5, 3), (6, 1), (7, 2), (8, 3)];
    let white = [(1, 0), (2, 0), (3, 0), (4, 0), (12, 12), (13, 12), (12, 13)];
    for &(x, y) in &black {
        board.place(Pos::new(x, y), Color::Black).unwrap();
    }
    for &(x, y) in &white {
        board.place(Pos::new(x, y), Color::White).unwrap();
    }
    let block = Pos::new(5, 0);
    assert!(Rule::Renju.foul(&board, block, Color::Black).is_some());
    for level in Level::ALL {
        let p = choose(level, &mut board, Color::Black, &mut Rng::new(1));
        assert!(
            Rule::Renju.is_legal(&board, p, Color::Black),
            "{level} answered {p}, which black may not play"
        );
    }
}
