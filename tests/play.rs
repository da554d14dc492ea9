//! `pbrain-hoshi play` driven through its stdin, as a person at a terminal would drive it:
//! whole games of every rule at every level, bad and illegal moves, undo, hint, swap, and
//! games saved and loaded again. The person's side of a whole game is played by the
//! library's normal level, and the library's referee keeps a copy of the game to check
//! every screen against.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::Duration;

use hoshi::board::{Board, Color, Pos};
use hoshi::levels::{Context, Level, Strength};
use hoshi::notation;
use hoshi::rng::Rng;
use hoshi::rules::Rule;
use hoshi::search::Searcher;
use hoshi::time::Limits;
use hoshi_tools::game::Game;
use hoshi_tools::picture;
use hoshi_tools::record;

/// Longest wait for one screen: a master move under a node limit takes far less.
const SCREEN_WAIT: Duration = Duration::from_secs(120);

/// A running `pbrain-hoshi play`.
struct Sitting {
    child: Child,
    stdin: Option<ChildStdin>,
    chunks: Receiver<Vec<u8>>,
    /// Everything printed so far.
    transcript: String,
    /// How much of the transcript earlier screens took.
    seen: usize,
}

impl Sitting {
    fn start(args: &[&str]) -> Sitting {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-hoshi"))
            .arg("play")
            .args(["--color", "never"])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("cannot start pbrain-hoshi play");
        let mut stdout = child.stdout.take().expect("stdout");
        let (tx, chunks) = mpsc::channel();
        thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Sitting {
            child,
            stdin,
            chunks,
            transcript: String::new(),
            seen: 0,
        }
    }

    /// What was printed up to the next prompt (`black> `, `white> ` or `> `).
    fn screen(&mut self) -> String {
        while !self.transcript.ends_with("> ") {
            match self.chunks.recv_timeout(SCREEN_WAIT) {
                Ok(bytes) => self.transcript.push_str(&String::from_utf8_lossy(&bytes)),
                Err(_) => panic!("no prompt; so far:\n{}", self.transcript),
            }
        }
        let screen = self.transcript[self.seen..].to_string();
        self.seen = self.transcript.len();
        // The prompt itself is the start of the next screen's input line, not this one.
        self.transcript.push('\n');
        self.seen += 1;
        screen
    }

    /// Types one line and returns the screen it brings.
    fn say(&mut self, line: &str) -> String {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to play");
        stdin.flush().expect("flush");
        self.screen()
    }

    /// Types `quit` and checks the program leaves cleanly with nothing on stderr.
    fn quit(mut self) -> String {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "quit").expect("write to play");
        drop(self.stdin.take());
        let status = self.child.wait().expect("wait");
        let mut err = String::new();
        self.child
            .stderr
            .take()
            .expect("stderr")
            .read_to_string(&mut err)
            .expect("stderr");
        assert!(status.success(), "{status}\n{}", self.transcript);
        assert_eq!(err, "", "stderr");
        // Whatever was printed after the last screen.
        while let Ok(bytes) = self.chunks.recv_timeout(Duration::from_secs(5)) {
            self.transcript.push_str(&String::from_utf8_lossy(&bytes));
        }
        self.transcript
    }
}

/// The point named in `Hoshi plays h8.`, if the screen has one.
fn hoshi_move(screen: &str, board: &Board) -> Option<Pos> {
    let at = screen.find("Hoshi plays ")? + "Hoshi plays ".len();
    let name = &screen[at..at + screen[at..].find('.')?];
    Some(notation::parse_point(name, board).expect("Hoshi names a point"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hoshi-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The person's side: the library's normal level.
struct Person {
    searcher: Searcher,
    rng: Rng,
}

impl Person {
    fn choose(&mut self, game: &Game, me: Color) -> Pos {
        let stop = AtomicBool::new(false);
        let mut board = game.board().clone();
        let mut ctx = Context {
            rule: game.rule(),
            me,
            limits: Limits::default(),
            stop: &stop,
            rng: &mut self.rng,
            searcher: &mut self.searcher,
            strength: Strength::FULL,
            observe: None,
        };
        Level::Normal.choose(&mut board, &mut ctx).pos
    }
}

/// Plays one whole game and returns how the screen called its end.
fn whole_game(rule: Rule, level: Level, person_first: bool) -> &'static str {
    let first = if person_first { "you" } else { "hoshi" };
    let me = if person_first {
        Color::Black
    } else {
        Color::White
    };
    let mut sitting = Sitting::start(&[
        "--rule",
        &rule.to_string(),
        "--level",
        level.name(),
        "--first",
        first,
        "--seed",
        "5",
        "--nodes",
        "3000",
    ]);
    let mut game = Game::new(Board::new(15, 15).unwrap(), rule);
    let mut person = Person {
        searcher: Searcher::new(1 << 16),
        rng: Rng::new(11),
    };
    let mut screen = sitting.screen();
    for turn in 0.. {
        assert!(turn < 400, "the game never ended");
        if let Some(p) = hoshi_move(&screen, game.board()) {
            assert!(
                game.rule().is_legal(game.board(), p, game.to_move()),
                "Hoshi's {p} is illegal\n{screen}"
            );
            game.play(p).unwrap();
        }
        // Every screen shows the referee's board.
        assert!(
            screen.contains(&picture::draw(&game, false)),
            "{rule} {level}: the screen is not the game\n{screen}\n{}",
            picture::draw(&game, false)
        );
        if game.outcome().is_some() {
            break;
        }
        assert_eq!(game.to_move(), me, "{screen}");
        let p = person.choose(&game, me);
        // Half the moves typed in each notation.
        let typed = if turn % 2 == 0 {
            notation::name(p)
        } else {
            p.to_string()
        };
        screen = sitting.say(&typed);
        assert!(
            screen.contains(&format!("You play {}.", notation::name(p))),
            "{screen}"
        );
        game.play(p).unwrap();
    }
    let outcome = game.outcome().unwrap();
    let verdict = match outcome.winner() {
        None => "Draw",
        Some(c) if c == me => "You win",
        Some(_) => "Hoshi wins",
    };
    assert!(
        screen.contains(&format!("{verdict}: {outcome}.")),
        "{rule} {level}: expected {verdict}: {outcome}\n{screen}"
    );
    // After the end a move is refused and the game stays as it was.
    let after = sitting.say("a1");
    assert!(after.contains("The game is over"), "{after}");
    sitting.quit();
    verdict
}

#[test]
fn a_whole_game_of_every_rule_at_every_level_ends_as_the_referee_judges() {
    let mut verdicts = Vec::new();
    for (i, rule) in Rule::ALL.into_iter().enumerate() {
        for (j, level) in Level::ALL.into_iter().enumerate() {
            verdicts.push(whole_game(rule, level, (i + j) % 2 == 0));
        }
    }
    // The classic levels' games alone (they never change) end in each of the three ways.
    for verdict in ["You win", "Hoshi wins", "Draw"] {
        assert!(verdicts.contains(&verdict), "{verdict}: {verdicts:?}");
    }
}

#[test]
fn bad_and_illegal_moves_are_explained_and_change_nothing() {
    // The Gomocup rule tester's renju position: black to move, g9 a double three.
    let file = scratch("renju.pos");
    std::fs::write(&file, "h8h9i7i9h10i6i11i12\n").unwrap();
    let mut s = Sitting::start(&[
        "--rule",
        "renju",
        "--level",
        "hard",
        "--load",
        file.to_str().unwrap(),
    ]);
    let start = s.screen();
    assert!(start.contains(" 9 . . . . . . ! O O"), "{start}");
    assert!(start.contains("! marks the points forbidden for black."));
    for (typed, answer) in [
        (
            "g9",
            "g9 is forbidden for black in renju (double three): choose another point.",
        ),
        ("6,8", "g9 is forbidden for black in renju (double three)"),
        ("h8", "h8 is already taken."),
        (
            "p1",
            "p1 is off the 15x15 board (columns a to o, rows 1 to 15).",
        ),
        ("15,3", "15,3 is off the 15x15 board"),
        ("hello", "I do not know \"hello\""),
        ("7,", "I do not know \"7,\""),
        ("save", "save needs a file name"),
        ("load /no/such/file.psq", "Cannot load /no/such/file.psq"),
    ] {
        let screen = s.say(typed);
        assert!(screen.contains(answer), "{typed}: {screen}");
        assert!(!screen.contains("Hoshi plays"), "{typed}: {screen}");
    }
    let saved = scratch("renju-after.pos");
    s.say(&format!("save {}", saved.display()));
    assert_eq!(
        std::fs::read_to_string(&saved).unwrap(),
        "h8h9i7i9h10i6i11i12\n"
    );
    s.quit();
}

#[test]
fn undo_takes_back_a_move_and_its_answer_and_hint_finds_the_win() {
    let mut s = Sitting::start(&["--level", "normal"]);
    s.screen();
    let answer = s.say("h8");
    let board = Board::new(15, 15).unwrap();
    let reply = hoshi_move(&answer, &board).expect("Hoshi answers");
    let undone = s.say("undo");
    assert!(
        undone.contains(&format!("Taken back: h8 {}.", notation::name(reply))),
        "{undone}"
    );
    assert!(undone.contains("Move 1: black (you) to play."), "{undone}");
    assert!(
        s.say("undo")
            .contains("There is no move of yours to take back.")
    );
    s.quit();

    // Black h8 i8 j8 k8 against white's h9 i9 j9 k10: g8 and l8 make five.
    let file = scratch("four.pos");
    std::fs::write(&file, "h8h9i8i9j8j9k8k10").unwrap();
    let mut s = Sitting::start(&["--level", "normal", "--load", file.to_str().unwrap()]);
    s.screen();
    let hint = s.say("hint");
    assert!(
        hint.starts_with("Hint: g8 (win in 1 for you") || hint.starts_with("Hint: l8 (win in 1"),
        "{hint}"
    );
    let won = s.say(&hint[6..8]);
    assert!(won.contains("You win: black wins with "), "{won}");
    // Undo after the end takes back the winning move only.
    let back = s.say("undo");
    assert!(back.contains("Move 9: black (you) to play."), "{back}");
    s.quit();
}

#[test]
fn a_saved_game_loads_again_in_both_formats() {
    let mut s = Sitting::start(&["--level", "hard", "--rule", "standard", "--size", "20x15"]);
    s.screen();
    // Three moves of ours, each on the first free point of a diagonal.
    let mut game = Game::new(Board::new(20, 15).unwrap(), Rule::Standard);
    for _ in 0..3 {
        let p = (5..15u8)
            .map(|i| Pos::new(i + 4, i))
            .find(|&p| game.board().is_empty_at(p))
            .unwrap();
        game.play(p).unwrap();
        let screen = s.say(&notation::name(p));
        game.play(hoshi_move(&screen, game.board()).expect("an answer"))
            .unwrap();
    }
    let (psq, pos) = (scratch("saved.psq"), scratch("saved.txt"));
    assert!(
        s.say(&format!("save {}", psq.display()))
            .contains("Saved 6 moves")
    );
    assert!(s.say(&format!("save {}", pos.display())).contains("(pos)"));
    let last = s.say("board");
    s.quit();

    let psq_text = std::fs::read_to_string(&psq).unwrap();
    assert!(psq_text.starts_with("Piskvorky 20x15, "), "{psq_text}");
    let pos_text = std::fs::read_to_string(&pos).unwrap();
    // Both name the same game, which shows on the same board when loaded again.
    let board = Board::new(20, 15).unwrap();
    let a = record::parse(&psq_text, board.clone(), Rule::Standard).unwrap();
    let b = record::parse(&pos_text, board, Rule::Standard).unwrap();
    assert_eq!(a.board(), b.board());
    assert_eq!(a.board(), game.board());
    assert_eq!(a.board().history().len(), 6);
    for (file, size) in [(&psq, "15"), (&pos, "20x15")] {
        let mut again = Sitting::start(&[
            "--level",
            "hard",
            "--rule",
            "standard",
            "--size",
            size,
            "--load",
            file.to_str().unwrap(),
        ]);
        let screen = again.screen();
        let picture = picture::draw(&a, false);
        assert!(screen.contains(&picture), "{screen}");
        assert!(last.contains(&picture), "{last}");
        // The `load` command reads the other file into the running game.
        let other = if *file == psq { &pos } else { &psq };
        let loaded = again.say(&format!("load {}", other.display()));
        assert!(loaded.contains("Loaded 6 moves"), "{loaded}");
        assert!(loaded.contains(&picture), "{loaded}");
        again.quit();
    }
}

#[test]
fn swap_gives_hoshi_the_side_to_move_and_the_end_of_input_leaves() {
    let mut s = Sitting::start(&["--level", "easy", "--seed", "3", "--size", "9"]);
    s.screen();
    let swapped = s.say("swap");
    assert!(swapped.contains("You now play white; Hoshi plays black."));
    assert!(swapped.contains("Hoshi plays e5."), "{swapped}");
    assert!(
        swapped.contains("Move 2: white (you) to play."),
        "{swapped}"
    );
    // Closing stdin is a quit too.
    drop(s.stdin.take());
    assert!(s.child.wait().unwrap().success());
}
