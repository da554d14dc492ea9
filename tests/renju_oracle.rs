//! The fast foul check against a slow one written straight from the definitions, on many
//! random dense positions of several board shapes (with blocked cells): this catches what
//! the 37 data positions cannot, such as a wrong diagonal step near an edge or a pre-filter
//! that drops a real foul.
//!
//! The slow check knows nothing of bit masks or the framed grid: it places stones on the
//! [`Board`] and measures runs with [`Board::run_through`].

use hoshi::board::{Board, Cell, Color, Dir, Pos};
use hoshi::rng::Rng;
use hoshi::rules::renju::{self, Foul, Grid};

const BLACK: Color = Color::Black;

/// The cell `k` steps from `p` along `dir`, if on the board and empty.
fn empty_step(b: &Board, p: Pos, dir: Dir, k: i32) -> Option<Pos> {
    b.step(p, dir, k).filter(|&q| b.is_empty_at(q))
}

/// Whether every cell strictly between `p` and `p + k * dir` holds a black stone.
fn black_between(b: &Board, p: Pos, dir: Dir, k: i32) -> bool {
    (1..k.abs()).all(|j| {
        b.step(p, dir, j * k.signum())
            .is_some_and(|q| b.get(q) == Cell::Stone(BLACK))
    })
}

/// The offsets along `dir` of the empty cells that complete exactly five through the black
/// stone on `p`.
fn five_offsets(b: &Board, p: Pos, dir: Dir) -> Vec<i32> {
    (-4..=4)
        .filter(|&k| {
            k != 0
                && empty_step(b, p, dir, k).is_some_and(|q| {
                    b.run_through(q, BLACK, dir).len == 5 && black_between(b, p, dir, k)
                })
        })
        .collect()
}

fn straight(offsets: &[i32]) -> Option<(i32, i32)> {
    offsets
        .iter()
        .find_map(|&a| offsets.contains(&(a + 5)).then_some((a, a + 5)))
}

fn fours(b: &Board, p: Pos, dir: Dir) -> usize {
    let offsets = five_offsets(b, p, dir);
    offsets.len() - usize::from(straight(&offsets).is_some())
}

/// The empty cells on `dir` that give the stone on `p` a straight four holding both.
fn straight_four_cells(b: &mut Board, p: Pos, dir: Dir) -> Vec<Pos> {
    let mut cells = Vec::new();
    for k in -4..=4 {
        let Some(q) = empty_step(b, p, dir, k).filter(|_| k != 0) else {
            continue;
        };
        b.place(q, BLACK).expect("empty");
        if straight(&five_offsets(b, p, dir)).is_some_and(|(lo, hi)| lo < k && k < hi) {
            cells.push(q);
        }
        b.remove(q).expect("placed");
    }
    cells
}

fn makes_five(b: &Board, p: Pos) -> bool {
    Dir::ALL
        .iter()
        .any(|&d| b.run_through(p, BLACK, d).len == 5)
}

fn overline(b: &Board, p: Pos) -> bool {
    Dir::ALL
        .iter()
        .any(|&d| b.run_through(p, BLACK, d).len >= 6)
}

/// The foul of a black stone just placed on `p` (five not yet ruled out).
fn slow_foul_placed(b: &mut Board, p: Pos) -> Option<Foul> {
    if Dir::ALL.iter().map(|&d| fours(b, p, d)).sum::<usize>() >= 2 {
        return Some(Foul::DoubleFour);
    }
    let mut real = 0;
    for d in Dir::ALL {
        let cells = straight_four_cells(b, p, d);
        if cells.into_iter().any(|q| !spoils(b, q)) {
            real += 1;
        }
    }
    if real >= 2 {
        Some(Foul::DoubleThree)
    } else if overline(b, p) {
        Some(Foul::Overline)
    } else {
        None
    }
}

/// Whether black may not use `q` to make a straight four: a five or a foul there.
fn spoils(b: &mut Board, q: Pos) -> bool {
    if makes_five(b, q) {
        return true;
    }
    b.place(q, BLACK).expect("empty");
    let foul = slow_foul_placed(b, q);
    b.remove(q).expect("placed");
    foul.is_some()
}

fn slow_foul(b: &mut Board, p: Pos) -> Option<Foul> {
    if makes_five(b, p) {
        return None;
    }
    b.place(p, BLACK).expect("empty");
    let foul = slow_foul_placed(b, p);
    b.remove(p).expect("placed");
    foul
}

/// A random position: stones crowded into a window so that lines meet often.
fn random_board(rng: &mut Rng) -> Board {
    const SHAPES: [(u8, u8); 5] = [(15, 15), (15, 15), (20, 20), (9, 12), (32, 7)];
    let (w, h) = SHAPES[rng.below(SHAPES.len())];
    let mut b = Board::new(i64::from(w), i64::from(h)).expect("valid size");
    let (ww, wh) = (w.min(9), h.min(9));
    let (x0, y0) = (
        rng.below(usize::from(w - ww + 1)),
        rng.below(usize::from(h - wh + 1)),
    );
    let stones = 14 + rng.below(30);
    for _ in 0..stones {
        let p = Pos::new(
            (x0 + rng.below(usize::from(ww))) as u8,
            (y0 + rng.below(usize::from(wh))) as u8,
        );
        if b.is_empty_at(p) {
            match rng.below(20) {
                0 => b.block(p).expect("empty"),
                1..=11 => b.place(p, Color::Black).expect("empty"),
                _ => b.place(p, Color::White).expect("empty"),
            }
        }
    }
    b
}

#[test]
fn fast_foul_check_agrees_with_the_definitions_on_random_positions() {
    let mut rng = Rng::new(0x5EED_2E4D);
    let mut counts = [0usize; 3];
    for n in 0..1500 {
        let mut b = random_board(&mut rng);
        let mut grid = Grid::new(&b);
        let map = renju::forbidden_points(&b);
        let cells: Vec<Pos> = b.empty_cells().collect();
        for p in cells {
            let want = slow_foul(&mut b, p);
            let fast = renju::foul(&b, p);
            let kept = grid.foul(p);
            let listed = map.iter().find(|(q, _)| *q == p).map(|(_, f)| *f);
            assert!(
                fast == want && kept == want && listed == want,
                "position {n}, {p}: definitions {want:?}, foul {fast:?}, grid {kept:?}, \
                 map {listed:?}\n{b}"
            );
            if let Some(f) = want {
                counts[f as usize] += 1;
            }
        }
    }
    // The positions must exercise every kind of foul, or the agreement means little.
    assert!(counts.iter().all(|&c| c >= 20), "fouls seen {counts:?}");
}
