//! `YXBALANCEONE` and `YXBALANCETWO`: stones that leave the position balanced, judged by
//! the search ([`hoshi::judge`]).

use std::io::Write;

use super::place_alternately;
use crate::error::SessionError;
use crate::reply::Reply;
use crate::thinking::Pending;
use hoshi::judge::Judge;

/// The stone for the side to move (and, with `two`, the opponent's reply) that leaves the
/// side that placed last the value nearest `bias`; the stones are placed and answered on
/// one line, and we play the side that was to move.
pub fn balance<W: Write>(
    mut request: Pending<'_, W>,
    two: bool,
    bias: i32,
) -> Result<Reply, SessionError> {
    let stones = if two { 2 } else { 1 };
    let t = request.think();
    let mut judge = Judge {
        searcher: &mut *t.searcher,
        rule: t.settings.rule,
        limits: t.limits,
        stop: t.stop,
    };
    let found = if two {
        judge.balance_two(&t.game.board, t.me, bias)
    } else {
        judge.balance_one(&t.game.board, t.me, bias)
    }
    .filter(|b| b.stones.len() == stones)
    .ok_or(SessionError::NothingToBalance { stones })?;
    let mut board = t.game.board.clone();
    place_alternately(&mut board, &found.stones, t.me)?;
    t.game.board = board;
    t.game.me = Some(t.me);
    t.done();
    log::info!(
        "balanced by {:?}: value {} at depth {}",
        found.stones,
        found.value,
        found.depth
    );
    Ok(Reply::Stones(found.stones))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::thinking::fixture::Parts;
    use hoshi::board::Color;

    #[test]
    fn balancing_places_one_or_two_stones_and_answers_them_together() {
        let mut parts = Parts::with_stones(&[(7, 7), (8, 8)]);
        parts.settings.max_depth = Some(2);
        let reply = balance(parts.request(1), false, 0);
        let Ok(Reply::Stones(one)) = reply else {
            panic!("{reply:?}")
        };
        assert_eq!(one.len(), 1);
        assert_eq!(parts.game.board.history().len(), 3);
        let mut parts = Parts::with_stones(&[(7, 7), (8, 8)]);
        parts.settings.max_depth = Some(2);
        let reply = balance(parts.request(1), true, 50);
        let Ok(Reply::Stones(two)) = reply else {
            panic!("{reply:?}")
        };
        let history = parts.game.board.history();
        assert_eq!(history.len(), 4);
        // Black (to move) placed first, white second, and we play black.
        assert_eq!(history[2], (two[0], Color::Black));
        assert_eq!(history[3], (two[1], Color::White));
        assert_eq!(parts.game.me, Some(Color::Black));
    }
}
