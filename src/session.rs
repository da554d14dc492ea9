//! The session: the game. Settings, the game in progress, master's search, and one reply
//! per request.
//!
//! Settings (rule, clock, level, bounds, memory) live for the whole process; `START`,
//! `RECTSTART` and `RESTART` replace only the game. The session plays the game itself
//! (`BEGIN`, `TURN`, `BOARD`, `PLAY`, `TAKEBACK`, `INFO`) and routes the dialogues (swap2,
//! balancing, Yixin-Board's analysis and questions) to the `dialogue` modules, handing them
//! its parts as a `Pending` request. A command the game cannot take (off the board, an occupied
//! cell, no game started) is answered `ERROR <why>` and changes nothing: every check runs
//! before the first change.

use std::io::Write;
use std::sync::Arc;
use std::sync::mpsc::Receiver;
use std::time::Instant;

use crate::dialogue::{balance, swap2, yixin};
use crate::error::SessionError;
use crate::reader::{Message, StopControl};
use crate::reply::{Replies, Reply};
use crate::state::{LiveGame, Settings, empty_cell};
use crate::thinking::Pending;
use hoshi::board::{Board, BoardError, Color};
use hoshi::eval::Evaluator;
use hoshi::levels::{Context, Level, Strength};
use hoshi::rng::Rng;
use hoshi::search::Searcher;
use hoshi_protocol::{Command, Coord, Field, Info};

/// Start-up settings for a protocol session.
#[derive(Clone, Debug)]
pub struct Options {
    /// The level played until `INFO level` changes it.
    pub level: Level,
    /// Master's strength until `INFO strength` changes it.
    pub strength: Strength,
    /// Seed for the random generator, used afresh for every game; a fresh one per game
    /// when `None`.
    pub seed: Option<u64>,
    /// Master's evaluation at full strength until `INFO weights` changes it.
    pub evaluator: Evaluator,
}

/// The protocol state machine; writes every reply through its [`Replies`].
pub struct Session<W: Write> {
    out: Replies<W>,
    settings: Settings,
    game: Option<LiveGame>,
    stop: Arc<StopControl>,
    /// Master's search: its tables live as long as the process, sized by `max_memory`.
    searcher: Searcher,
    /// Master's evaluation at full strength; the searcher's is the one for the strength.
    evaluator: Evaluator,
    /// A problem to tell the user with the next move (INFO itself is never answered).
    notice: Option<String>,
}

impl<W: Write> Session<W> {
    pub fn new(options: Options, stop: Arc<StopControl>, out: W) -> Session<W> {
        let settings = Settings::new(options.level, options.strength, options.seed);
        let searcher = Searcher::new(settings.table_bytes());
        let mut session = Session {
            out: Replies::new(out),
            settings,
            game: None,
            stop,
            searcher,
            evaluator: options.evaluator,
            notice: None,
        };
        session.evaluate_at_strength();
        session
    }

    /// Answers messages until the reader hangs up.
    pub fn serve(&mut self, rx: &Receiver<Message>) {
        for message in rx {
            self.handle(message);
        }
    }

    /// Applies one message and writes its reply, if it has one.
    pub fn handle(&mut self, message: Message) {
        let ended_before = self.stop.ended();
        let seq = message.seq;
        let reply = message
            .command
            .map_err(SessionError::Parse)
            .and_then(|command| self.apply(command, message.seq, message.received))
            .unwrap_or_else(|e| Some(Reply::Error(e)));
        match reply {
            // END arrived, in a later burst, while this was answered: nobody waits for it.
            Some(reply) if !ended_before && self.stop.abandons(seq) => {
                log::info!("abandoned after END: {reply:?}");
            }
            Some(reply) => self.out.send(&reply),
            None => {}
        }
    }

    fn apply(
        &mut self,
        command: Command,
        seq: u64,
        received: Instant,
    ) -> Result<Option<Reply>, SessionError> {
        match command {
            Command::Start { width, height } => {
                let board = Board::new(width, height)?;
                self.new_game(board, received);
                Ok(Some(Reply::Ok))
            }
            Command::Restart => {
                let old = &self.game()?.board;
                let board = Board::new(old.width().into(), old.height().into())?;
                self.new_game(board, received);
                Ok(Some(Reply::Ok))
            }
            Command::Info(info) => {
                self.set(info);
                Ok(None)
            }
            Command::Begin => {
                let game = self.game_mut()?;
                if !game.board.has_no_stones() {
                    return Err(SessionError::BeginOnStones);
                }
                game.me = Some(Color::Black);
                self.play(seq, received).map(Some)
            }
            Command::Turn(c) => {
                let game = self.game_mut()?;
                let p = empty_cell(&game.board, c)?;
                if game.board.empty_cells().nth(1).is_none() {
                    return Err(SessionError::TurnFillsBoard(p));
                }
                let opponent = game
                    .me
                    .map_or_else(|| game.board.to_move(), Color::opponent);
                game.board.place(p, opponent)?;
                game.me = Some(opponent.opponent());
                self.play(seq, received).map(Some)
            }
            Command::Board { stones, answer } => {
                let game = self.game_mut()?;
                let (board, me) = position(&game.board, &stones)?;
                if answer && board.empty_cells().next().is_none() {
                    return Err(SessionError::BoardLeavesNoSquare);
                }
                game.board = board;
                game.me = Some(me);
                if answer {
                    self.play(seq, received).map(Some)
                } else {
                    Ok(None)
                }
            }
            Command::Takeback(c) => {
                let game = self.game_mut()?;
                let p = game.board.checked_pos(c.x, c.y)?;
                game.board.remove(p)?;
                Ok(Some(Reply::Ok))
            }
            Command::Play(c) => {
                let game = self.game_mut()?;
                let p = empty_cell(&game.board, c)?;
                let me = game.our_colour();
                game.board.place(p, me)?;
                game.me = Some(me);
                Ok(Some(Reply::Move {
                    pos: p,
                    notice: None,
                    report: None,
                }))
            }
            Command::About => Ok(Some(Reply::About)),
            Command::HashClear => {
                self.searcher.clear();
                Ok(None)
            }
            Command::Swap2Board(stones) => {
                swap2::board(&mut self.request(seq, received)?, &stones).map(Some)
            }
            Command::YixinSwap2(step) => {
                swap2::yixin_step(self.request(seq, received)?, step).map(Some)
            }
            Command::Balance { two, bias } => {
                balance::balance(self.request(seq, received)?, two, bias).map(Some)
            }
            Command::NBest(n) => yixin::nbest(self.request(seq, received)?, n).map(Some),
            Command::ShowForbid => Ok(Some(yixin::forbidden(&self.game()?.board))),
            Command::ShowInfo => Ok(Some(yixin::engine_limits())),
            // The reader acts on these itself; they only arrive here from tests.
            Command::End | Command::Stop => Ok(None),
            Command::Unknown(word) => Ok(Some(Reply::Unknown(format!(
                "command {word} is not supported"
            )))),
        }
    }

    fn game(&self) -> Result<&LiveGame, SessionError> {
        self.game.as_ref().ok_or(SessionError::NoGame)
    }

    fn game_mut(&mut self) -> Result<&mut LiveGame, SessionError> {
        self.game.as_mut().ok_or(SessionError::NoGame)
    }

    /// Request `seq`, read at `received`, on the game: refused before any `START`.
    fn request(&mut self, seq: u64, received: Instant) -> Result<Pending<'_, W>, SessionError> {
        let Session {
            out,
            settings,
            game,
            stop,
            searcher,
            notice,
            ..
        } = self;
        Ok(Pending {
            settings,
            game: game.as_mut().ok_or(SessionError::NoGame)?,
            searcher,
            notice,
            out,
            stop,
            seq,
            received,
        })
    }

    fn new_game(&mut self, board: Board, received: Instant) {
        let seed = self.settings.seed.unwrap_or_else(Rng::fresh_seed);
        let s = &self.settings;
        log::info!(
            "new {}x{} game: {} rule, {} level, strength {}, seed {seed}, max_memory {} bytes, \
             budget {:?}",
            board.width(),
            board.height(),
            s.rule,
            s.level,
            s.strength,
            s.max_memory,
            s.time.budget()
        );
        self.settings.time.new_game();
        self.searcher.clear();
        self.searcher.prepare(self.settings.rule);
        self.game = Some(LiveGame {
            board,
            me: None,
            rng: Rng::new(seed),
            start: Some(received),
        });
    }

    fn set(&mut self, info: Info) {
        let s = &mut self.settings;
        match info {
            Info::TimeoutTurn(ms) => s.time.set_timeout_turn(ms),
            Info::TimeoutMatch(ms) => s.time.set_timeout_match(ms),
            Info::TimeLeft(ms) => s.time.set_time_left(ms),
            Info::MaxMemory(bytes) => {
                let before = s.table_bytes();
                s.max_memory = bytes;
                self.resize_table(before);
            }
            Info::HashSize(kib) => {
                let before = s.table_bytes();
                s.hash_bytes = kib.saturating_mul(1024);
                self.resize_table(before);
            }
            Info::Threads(n) => self.searcher.set_threads(n),
            Info::ShowDetail { realtime, analysis } => {
                s.realtime = realtime;
                s.analysis = analysis;
            }
            Info::Rule(rule) => {
                s.rule = rule;
                // The rule's tables are built now rather than on the move's clock.
                self.searcher.prepare(rule);
            }
            Info::Level(level) => s.level = level,
            Info::Strength(strength) => self.set_strength(strength),
            Info::Elo(elo) => self.set_strength(Strength::for_elo(elo)),
            Info::MaxDepth(depth) => s.max_depth = depth,
            Info::MaxNode(nodes) => s.max_nodes = nodes,
            Info::Weights(path) => match Evaluator::load(&path) {
                Ok(e) => {
                    log::info!("INFO weights {}: loaded", path.display());
                    self.evaluator = e;
                    self.evaluate_at_strength();
                }
                Err(e) => {
                    let why = format!("INFO weights {}: {e}; the old weights stay", path.display());
                    log::warn!("{why}");
                    self.notice = Some(why);
                }
            },
            Info::Accepted { key, value } => log::debug!("INFO {key} '{value}' has no effect"),
            Info::Ignored { key, reason } => log::warn!("INFO {key} ignored: {reason}"),
        }
    }

    /// Master's strength from now on, and the evaluation it plays with.
    fn set_strength(&mut self, strength: Strength) {
        self.settings.strength = strength;
        self.evaluate_at_strength();
    }

    /// The searcher plays with master's evaluation as its strength has it.
    fn evaluate_at_strength(&mut self) {
        let eval = self.settings.strength.evaluator(&self.evaluator);
        self.searcher.set_evaluator(eval);
    }

    /// A new table when the settings now give it another size than `before` (INFO comes
    /// between searches, so no search holds the old one).
    fn resize_table(&mut self, before: usize) {
        let bytes = self.settings.table_bytes();
        if bytes != before {
            log::info!("table resized to {bytes} bytes");
            self.searcher.resize(bytes);
        }
    }

    /// Our move: the level chooses it, and it is played and answered. Refused without a
    /// game or an empty square.
    fn play(&mut self, seq: u64, received: Instant) -> Result<Reply, SessionError> {
        let mut request = self.request(seq, received)?;
        if request.game.board.empty_cells().next().is_none() {
            return Err(SessionError::BoardFull);
        }
        let mut t = request.think();
        let mut observe = |progress: &_| t.detail.show(progress);
        let mut ctx = Context {
            rule: t.settings.rule,
            me: t.me,
            limits: t.limits,
            stop: t.stop,
            rng: &mut t.game.rng,
            searcher: &mut *t.searcher,
            strength: t.settings.strength,
            observe: Some(&mut observe),
        };
        let choice = t.settings.level.choose(&mut t.game.board, &mut ctx);
        t.play(choice)
    }
}

/// The board a `BOARD` block describes (on an empty board the size of `like`, stones in
/// the order listed), and the colour we play. With as many own stones as the opponent's we
/// are black; with one fewer, white; otherwise the first listed stone is taken as black.
fn position(like: &Board, stones: &[(Coord, Field)]) -> Result<(Board, Color), BoardError> {
    let mut board = Board::new(like.width().into(), like.height().into())?;
    let count = |field| stones.iter().filter(|(_, f)| *f == field).count();
    let (own, opp) = (count(Field::Own), count(Field::Opponent));
    let me = if own == opp {
        Color::Black
    } else if opp == own + 1 {
        Color::White
    } else {
        match stones.iter().find(|(_, f)| *f != Field::Blocked) {
            Some((_, Field::Opponent)) => Color::White,
            _ => Color::Black,
        }
    };
    for &(c, field) in stones {
        let p = empty_cell(&board, c)?;
        let placed = match field {
            Field::Own => board.place(p, me),
            Field::Opponent => board.place(p, me.opponent()),
            Field::Blocked => board.block(p),
        };
        placed?;
    }
    Ok((board, me))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hoshi::board::{Cell, Pos};
    use hoshi::rules::Rule;
    use hoshi::search;

    /// The classic hard level: instant, silent, and enough to exercise the protocol.
    fn session() -> Session<Vec<u8>> {
        let options = Options {
            level: Level::Hard,
            strength: Strength::FULL,
            seed: Some(1),
            evaluator: Evaluator::builtin(),
        };
        Session::new(options, Arc::new(StopControl::default()), Vec::new())
    }

    /// Feeds one text line (or block) per entry and returns the output.
    fn run(lines: &[&str]) -> (Session<Vec<u8>>, String) {
        let mut s = session();
        for (i, text) in lines.iter().enumerate() {
            let mut parts = text.split('\n');
            let head = parts.next().unwrap_or_default();
            let body: Vec<String> = parts.map(str::to_string).collect();
            let command = Command::parse_block(head, &body);
            let seq = u64::try_from(i).unwrap() + 1;
            s.handle(Message {
                seq,
                received: Instant::now(),
                command,
            });
        }
        let out = String::from_utf8(s.out.output().clone()).unwrap();
        (s, out)
    }

    fn board(s: &Session<Vec<u8>>) -> &Board {
        &s.game.as_ref().expect("a game").board
    }

    #[test]
    fn board_infers_our_colour_from_the_counts() {
        let like = Board::new(15, 15).unwrap();
        let c = |x, y| Coord { x, y };
        let equal = [(c(1, 1), Field::Own), (c(2, 2), Field::Opponent)];
        assert_eq!(position(&like, &equal).unwrap().1, Color::Black);
        let behind = [
            (c(1, 1), Field::Opponent),
            (c(2, 2), Field::Own),
            (c(3, 3), Field::Opponent),
        ];
        let (b, me) = position(&like, &behind).unwrap();
        assert_eq!(me, Color::White);
        assert_eq!(b.get(Pos::new(1, 1)), Cell::Stone(Color::Black));
        // Two own stones and none of the opponent's: the first listed is black.
        let odd = [
            (c(1, 1), Field::Own),
            (c(2, 2), Field::Own),
            (c(4, 4), Field::Blocked),
        ];
        let (b, me) = position(&like, &odd).unwrap();
        assert_eq!(me, Color::Black);
        assert_eq!(b.get(Pos::new(4, 4)), Cell::Blocked);
        assert!(position(&like, &[(c(1, 1), Field::Own), (c(1, 1), Field::Own)]).is_err());
        assert!(position(&like, &[(c(15, 0), Field::Own)]).is_err());
    }

    #[test]
    fn rejected_commands_change_nothing() {
        let (s, out) = run(&[
            "START 15",
            "TURN 7,7",
            "TURN 7,7",
            "TURN -1,0",
            "BOARD\n1,1,1\n1,1,2",
        ]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "OK");
        assert!(
            lines[2].starts_with("ERROR ") && lines[3].starts_with("ERROR "),
            "{out}"
        );
        assert!(lines[4].starts_with("ERROR "), "{out}");
        assert_eq!(lines.len(), 5);
        // The opponent's stone and our reply are the only stones.
        assert_eq!(board(&s).history().len(), 2);
    }

    #[test]
    fn refusals_are_typed_and_change_nothing() {
        let mut s = session();
        let now = Instant::now();
        let c = |x, y| Coord { x, y };
        assert_eq!(s.apply(Command::Begin, 1, now), Err(SessionError::NoGame));
        let start = Command::Start {
            width: 15,
            height: 15,
        };
        assert_eq!(s.apply(start, 2, now), Ok(Some(Reply::Ok)));
        assert_eq!(
            s.apply(Command::Turn(c(15, 0)), 3, now),
            Err(SessionError::Board(BoardError::OutOfRange { x: 15, y: 0 }))
        );
        assert_eq!(
            s.apply(Command::Swap2Board(vec![c(1, 1)]), 4, now),
            Err(SessionError::Swap2Stones(1))
        );
        assert!(s.apply(Command::Play(c(3, 3)), 5, now).is_ok());
        assert_eq!(
            s.apply(Command::Play(c(3, 3)), 6, now),
            Err(SessionError::Board(BoardError::Occupied(Pos::new(3, 3))))
        );
        assert_eq!(
            s.apply(Command::Begin, 7, now),
            Err(SessionError::BeginOnStones)
        );
        assert_eq!(board(&s).history(), &[(Pos::new(3, 3), Color::Black)]);
    }

    #[test]
    fn game_commands_before_start_are_errors_and_info_is_silent() {
        let (s, out) = run(&["BEGIN", "TURN 1,1", "INFO rule 4", "YXSHOWFORBID", "ABOUT"]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4, "{out}");
        assert!(lines[..3].iter().all(|l| l.starts_with("ERROR ")));
        assert!(lines[3].starts_with("name=\"Hoshi\""));
        assert_eq!(s.settings.rule, Rule::Renju);
    }

    #[test]
    fn info_weights_loads_a_good_file_and_names_a_bad_one_with_the_next_move() {
        let good =
            std::env::temp_dir().join(format!("hoshi-session-{}.weights", std::process::id()));
        hoshi::eval::builtin_model().save(&good).unwrap();
        let load = format!("INFO weights {}", good.display());
        let (s, out) = run(&[&load, "START 15", "BEGIN"]);
        assert!(s.notice.is_none());
        assert_eq!(out.lines().count(), 2, "{out}");
        let _ = std::fs::remove_file(good);
        let (s, out) = run(&["INFO weights /nonexistent/x.weights", "START 15", "BEGIN"]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{out}");
        assert!(lines[1].starts_with("MESSAGE INFO weights /nonexistent/x.weights: cannot read"));
        assert!(lines[1].contains("the old weights stay"));
        assert!(s.notice.is_none(), "told once");
    }

    /// Below full strength master plays with the tables alone, the evaluation the dial's
    /// scale was measured with; at full strength with its own again, the built-in network
    /// or the one `INFO weights` gave.
    #[test]
    fn the_strength_dial_plays_with_the_tables() {
        let id = |s: &Session<Vec<u8>>| s.searcher.evaluator().id();
        let (builtin, tables) = (Evaluator::builtin().id(), Evaluator::default().id());
        assert_ne!(builtin, tables);
        let (s, _) = run(&[]);
        assert_eq!(id(&s), builtin);
        let (s, _) = run(&["INFO strength 99"]);
        assert_eq!(id(&s), tables);
        let (s, _) = run(&["INFO elo -99999", "INFO elo 99999"]);
        assert_eq!(id(&s), builtin);
        let file = std::env::temp_dir().join(format!("hoshi-dial-{}.weights", std::process::id()));
        hoshi::eval::builtin_model().save(&file).unwrap();
        let load = format!("INFO weights {}", file.display());
        let (s, _) = run(&["INFO strength 50", &load, "INFO strength 100"]);
        let _ = std::fs::remove_file(file);
        assert_eq!(
            id(&s),
            tables,
            "the file's tables, without the built-in network"
        );
    }

    #[test]
    fn settings_survive_start_and_restart_but_the_board_does_not() {
        let (s, out) = run(&[
            "INFO rule 1",
            "INFO level easy",
            "INFO strength 30",
            "START 15",
            "TURN 7,7",
            "INFO strength 130",
            "RESTART",
            "START 20",
        ]);
        assert_eq!(out.lines().filter(|l| *l == "OK").count(), 3, "{out}");
        assert_eq!(
            (s.settings.rule, s.settings.level, s.settings.strength),
            (Rule::Standard, Level::Easy, Strength::new(30).unwrap())
        );
        assert!(board(&s).has_no_stones());
        assert_eq!(board(&s).width(), 20);
    }

    #[test]
    fn info_elo_sets_the_nearest_strength_and_strength_overrides_it() {
        let weakest = Strength::MIN.elo();
        let (s, _) = run(&[&format!("INFO elo {weakest}")]);
        assert_eq!(s.settings.strength, Strength::MIN);
        let (s, _) = run(&["INFO elo 99999"]);
        assert_eq!(s.settings.strength, Strength::FULL);
        let (s, _) = run(&["INFO elo -99999", "INFO strength 70"]);
        assert_eq!(s.settings.strength, Strength::new(70).unwrap());
        let (s, _) = run(&["INFO strength 70", "INFO elo x"]);
        assert_eq!(s.settings.strength, Strength::new(70).unwrap());
    }

    #[test]
    fn takeback_removes_the_named_stone_and_play_places_ours() {
        let (s, out) = run(&[
            "START 15",
            "PLAY 3,4",
            "TAKEBACK 3,4",
            "TAKEBACK 3,4",
            "PLAY 5,5",
        ]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(&lines[..3], ["OK", "3,4", "OK"]);
        assert!(lines[3].starts_with("ERROR "));
        assert_eq!(lines[4], "5,5");
        assert_eq!(board(&s).history(), &[(Pos::new(5, 5), Color::Black)]);
    }

    #[test]
    fn yxboard_sets_up_silently_and_showforbid_answers_one_line() {
        let (s, out) = run(&["START 15", "YXBOARD\n7,7,2\n8,8,1", "YXSHOWFORBID"]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{out}");
        assert!(lines[1].starts_with("FORBID ") && lines[1].ends_with('.'));
        assert_eq!(board(&s).history().len(), 2);
    }

    #[test]
    fn the_dialogues_are_answered_through_the_session() {
        let (s, out) = run(&[
            "START 15",
            "INFO max_depth 3",
            "YXBOARD\n7,7,2\n8,8,1",
            "YXNBEST 2",
            "YXBALANCEONE",
            "yxswap2step2",
            "SWAP2BOARD\n7,7\n0,14\n8,7",
            "YXBALANCEONE x",
        ]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 9, "{out}");
        assert!(lines[1].starts_with("MESSAGE depth 3 "), "{out}");
        assert!(lines[2].starts_with("MESSAGE (1) eval "), "{out}");
        assert!(lines[3].starts_with("MESSAGE (2) eval "), "{out}");
        assert_eq!(lines[4].split(',').count(), 2, "{out}");
        assert_eq!(lines[5].split(' ').count(), 1, "{out}");
        assert_eq!(
            lines[6],
            "ERROR YXSWAP2STEP2 needs 3 stones on the board (set by YXBOARD), got 4"
        );
        assert!(
            lines[8].starts_with("ERROR YXBALANCEONE expects a number"),
            "{out}"
        );
        assert_eq!(s.game.as_ref().map(|g| g.start), Some(None));
    }

    #[test]
    fn after_swap2_a_refused_request_leaves_the_game_and_a_later_board_goes_on() {
        // After five stones black has an open three: take black (SWAP). A second SWAP2BOARD
        // with two stones is refused, and the manager's BOARD then sets the game as usual.
        let (s, out) = run(&[
            "START 15",
            "SWAP2BOARD\n7,7\n0,14\n8,7\n14,0\n9,7",
            "SWAP2BOARD\n7,7\n8,7",
            "BOARD\n7,7,1\n0,14,2\n8,7,1\n14,0,2\n9,7,1\n6,7,2",
        ]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[1], "SWAP", "{out}");
        assert!(lines[2].starts_with("ERROR "), "{out}");
        assert_eq!(lines.len(), 4, "{out}");
        assert_eq!(board(&s).history().len(), 7);
    }

    #[test]
    fn yixin_settings_size_the_table_and_set_the_threads_and_showinfo_tells_their_limits() {
        let (s, out) = run(&[
            "YXSHOWINFO",
            "INFO hash_size 1024",
            "INFO thread_num 3",
            "INFO show_detail 1",
            "INFO caution_factor 4",
        ]);
        assert_eq!(
            out,
            "MESSAGE INFO MAX_THREAD_NUM 64\nMESSAGE INFO MAX_HASH_SIZE 22\n"
        );
        assert!(s.searcher.tt_bytes() <= 1 << 20 && s.searcher.tt_bytes() > 1 << 19);
        assert_eq!(s.searcher.threads(), 3);
        assert!(s.settings.realtime && !s.settings.analysis);
        let (s, _) = run(&["INFO show_detail 2"]);
        assert!(!s.settings.realtime && s.settings.analysis);
        // A memory limit below the wish wins; a hash size of 0 gives the limit's size back.
        let (s, _) = run(&["INFO hash_size 1048576", "INFO max_memory 100000000"]);
        assert_eq!(
            s.settings.table_bytes(),
            search::table_bytes(100_000_000, 0)
        );
        let (s, _) = run(&[
            "INFO hash_size 1024",
            "INFO hash_size 0",
            "INFO show_detail 9",
        ]);
        assert_eq!(s.settings.table_bytes(), search::DEFAULT_TT_BYTES);
        assert!(!s.settings.realtime && !s.settings.analysis);
    }

    #[test]
    fn a_turn_that_would_fill_the_board_is_refused() {
        let mut lines = vec!["START 5".to_string()];
        let mut body = String::from("BOARD");
        // Fill all but two cells, alternating owners, leaving (3,4) and (4,4).
        for i in 0..23 {
            body.push_str(&format!("\n{},{},{}", i % 5, i / 5, 1 + i % 2));
        }
        lines.push(body);
        lines.push("TURN 4,4".into());
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        let (s, out) = run(&refs);
        let replies: Vec<&str> = out.lines().collect();
        assert_eq!(replies[0], "OK");
        // The BOARD answer took one of the two last cells; TURN takes the other... and
        // none is left for us, so it is refused.
        assert!(replies[2].starts_with("ERROR "), "{out}");
        assert_eq!(board(&s).empty_cells().count(), 1);
    }
}
