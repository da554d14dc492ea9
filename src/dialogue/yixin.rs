//! Yixin-Board's requests beside the game: `YXNBEST`'s analysis, and its questions about
//! the position (`YXSHOWFORBID`) and the engine (`YXSHOWINFO`).

use std::io::Write;

use crate::error::SessionError;
use crate::reply::Reply;
use crate::thinking::Request;
use hoshi::board::Board;
use hoshi::levels::{Choice, Report};
use hoshi::rules::renju;
use hoshi::search;

/// `YXNBEST n`: master's full search of the `n` best moves, each line reported, and the
/// best played. That is analysis: the level plays no part. Refused on a full board.
pub fn nbest<W: Write>(mut request: Request<'_, W>, n: usize) -> Result<Reply, SessionError> {
    if request.game.board.empty_cells().next().is_none() {
        return Err(SessionError::BoardFull);
    }
    let mut t = request.think();
    let request = search::Request::new(&t.game.board, t.settings.rule, t.me, t.limits)
        .stop(t.stop)
        .lines(n);
    let result = t
        .searcher
        .search(request.observe(&mut |progress| t.realtime.show(progress)));
    t.play(Choice {
        pos: result.best,
        report: Some(Report {
            search: result,
            strength: None,
            pick: None,
        }),
    })
}

/// `YXSHOWFORBID`: black's forbidden points on `board`.
pub fn forbidden(board: &Board) -> Reply {
    Reply::Forbid(
        renju::forbidden_points(board)
            .into_iter()
            .map(|(p, _)| p)
            .collect(),
    )
}

/// `YXSHOWINFO`: the most threads, and log2 of the largest table in KiB.
pub fn engine_limits() -> Reply {
    Reply::ShowInfo {
        max_threads: search::MAX_THREADS,
        max_hash_log2: (search::MAX_TT_BYTES >> 10).ilog2(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::thinking::fixture::Parts;

    #[test]
    fn nbest_reports_each_line_and_plays_the_best() {
        let mut parts = Parts::with_stones(&[(7, 7), (8, 8)]);
        parts.settings.max_depth = Some(3);
        let reply = nbest(parts.request(1), 3);
        let Ok(Reply::Move {
            pos,
            report: Some(report),
            ..
        }) = reply
        else {
            panic!("{reply:?}")
        };
        assert_eq!((report.search.depth, report.search.lines.len()), (3, 3));
        assert_eq!(pos, report.search.best);
        assert_eq!(report.strength, None);
        assert_eq!(
            parts.game.board.last_move(),
            Some((pos, parts.game.board.to_move().opponent()))
        );
        assert_eq!(parts.game.board.history().len(), 3);
    }

    #[test]
    fn nbest_on_a_full_board_is_refused() {
        let mut board = Board::new(5, 5).expect("5 is a board size");
        for p in board.empty_cells().collect::<Vec<_>>() {
            board.block(p).expect("the cell is empty");
        }
        let mut parts = Parts::new(board);
        assert_eq!(nbest(parts.request(1), 2), Err(SessionError::BoardFull));
        assert!(parts.game.start.is_some(), "the clock was not started");
    }

    #[test]
    fn showinfo_tells_the_threads_and_the_table_yixin_board_may_ask_for() {
        assert_eq!(
            engine_limits(),
            Reply::ShowInfo {
                max_threads: 64,
                max_hash_log2: 22
            }
        );
    }
}
