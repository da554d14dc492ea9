//! Yixin-Board's requests beside the game: `YXNBEST`'s analysis, and its questions about
//! the position (`YXSHOWFORBID`) and the engine (`YXSHOWINFO`).

use std::io::Write;

use crate::error::SessionError;
use crate::reply::Reply;
use crate::thinking::Pending;
use hoshi::board::Board;
use hoshi::levels::{Choice, Report};
use hoshi::rules::renju;
use hoshi::search;

/// `YXNBEST n`: master's full search of the `n` best moves, each line reported, and the
/// best played. That is analysis: the level plays no part. Refused on a full board.
pub fn nbest<W: Write>(mut request: Pending<'_, W>, n: usize) -> Result<Reply, SessionError> {
    if request.game.board.empty_cells().next().is_none() {
        return Err(SessionError::BoardFull);
    }
    let mut t = request.think();
    let request = search::Request::new(&t.game.board, t.settings.rule, t.me, t.limits)
        .stop(t.stop)
        .lines(n);
    let result = t
        .searcher
        .search(request.observe(&mut |progress| t.detail.show(progress)));
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

    /// What `nbest` wrote before its answer, with `INFO show_detail 2`.
    fn analysed(mut parts: Parts, n: usize) -> Vec<String> {
        parts.settings.analysis = true;
        assert!(matches!(nbest(parts.request(1), n), Ok(Reply::Move { .. })));
        String::from_utf8(parts.out.output().clone())
            .expect("replies are ASCII")
            .lines()
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn nbest_writes_an_analysis_block_per_line_and_depth() {
        let mut parts = Parts::with_stones(&[(7, 7), (8, 8)]);
        parts.settings.max_depth = Some(3);
        let lines = analysed(parts, 2);
        // Three depths, two lines each, twelve lines a block.
        assert_eq!(lines.len(), 3 * 2 * 12, "{lines:?}");
        for (k, block) in lines.chunks(12).enumerate() {
            assert_eq!(block[0], format!("INFO PV {}", k % 2), "{block:?}");
            assert_eq!(block[1], "INFO NUMPV 2");
            assert_eq!(block[2], format!("INFO DEPTH {}", k / 2 + 1));
            assert_eq!(block[11], "INFO PV DONE");
            let nodes = |i: usize, key: &str| -> u64 {
                let n = block[i].strip_prefix(key).and_then(|n| n.parse().ok());
                n.unwrap_or_else(|| panic!("{key}: {block:?}"))
            };
            assert!(nodes(3, "INFO SELDEPTH ") >= 1, "{block:?}");
            assert!(nodes(4, "INFO NODES ") <= nodes(5, "INFO TOTALNODES "));
        }
    }

    #[test]
    fn a_loss_the_search_proves_is_minus_m_with_a_win_rate_of_0() {
        // White to move against two open threes: it blocks one, the other becomes an
        // open four.
        let parts = Parts::with_stones(&[
            (5, 7),
            (0, 0),
            (6, 7),
            (14, 0),
            (7, 7),
            (0, 14),
            (10, 3),
            (14, 14),
            (10, 4),
            (12, 12),
            (10, 5),
        ]);
        let mut parts = parts;
        parts.settings.max_depth = Some(2);
        let lines = analysed(parts, 1);
        assert_eq!(lines.len(), 2 * 12, "{lines:?}");
        assert_eq!(lines[20..22], ["INFO EVAL -M4", "INFO WINRATE 0"]);
    }

    #[test]
    fn a_win_found_before_searching_gets_one_block() {
        // Black to move with an open three: the root's VCF wins in three plies.
        let parts = Parts::with_stones(&[(5, 7), (0, 0), (6, 7), (14, 0), (7, 7), (0, 14)]);
        let lines = analysed(parts, 1);
        assert_eq!(lines.len(), 12, "{lines:?}");
        assert_eq!(lines[2..4], ["INFO DEPTH 3", "INFO SELDEPTH 0"]);
        assert_eq!(
            lines[4..8],
            [
                "INFO NODES 0",
                "INFO TOTALNODES 0",
                "INFO TOTALTIME 0",
                "INFO SPEED 0"
            ]
        );
        assert_eq!(lines[8..10], ["INFO EVAL +M3", "INFO WINRATE 1"]);
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
