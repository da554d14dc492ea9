//! `pbrain-hoshi play`: a person against Hoshi in a terminal.
//!
//! Each line typed is a move (`h8`, or `7,7` from 0: [`hoshi::notation`]) or a command:
//! `undo`, `hint`, `swap`, `save FILE`, `load FILE`, `new`, `board`, `help`, `quit`.
//! Hoshi answers at the chosen level through [`Level::choose`], exactly as the protocol
//! session asks it, with the same clock rules. Nothing typed can end the program but
//! `quit` or the end of input: a bad or illegal move is explained and the game goes on.
//! The screen is [`picture::draw`]'s, painted when the terminal allows.

use std::io::{self, BufRead, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;

use clap::{Args, ValueEnum};

use super::analyse::describe_score;
use super::game::{Game, MoveError, color_name, foul_name};
use super::picture::{self, ColorChoice};
use super::record::{self, RecordError};
use super::{Size, ThinkArgs};
use hoshi::board::{Board, Color, Pos};
use hoshi::eval::Evaluator;
use hoshi::levels::{Context, Level, Strength};
use hoshi::notation::{self, NotationError};
use hoshi::rng::Rng;
use hoshi::rules::Rule;
use hoshi::search::{self, Request, Searcher};

/// Who plays black, the first stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum First {
    You,
    Hoshi,
}

/// `pbrain-hoshi play`'s arguments (the level, strength and seed are the global options).
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The rule: freestyle, standard, renju, caro or caro-exact (or a protocol code).
    #[arg(long, default_value = "freestyle")]
    pub rule: Rule,
    /// Board size: 15, or WIDTHxHEIGHT (each side 5 to 32).
    #[arg(long, default_value = "15")]
    pub size: Size,
    /// Who plays black and moves first.
    #[arg(long, value_enum, default_value_t = First::You)]
    pub first: First,
    #[command(flatten)]
    pub budget: ThinkArgs,
    /// Start from the position in a PSQ or pos file (its moves alternate from black).
    #[arg(long, value_name = "FILE")]
    pub load: Option<String>,
    /// Colours: auto (when stdout is a terminal), always or never.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

/// Who Hoshi is and how it thinks.
#[derive(Clone, Copy, Debug)]
pub struct Opponent {
    pub level: Level,
    /// Master's strength (the classic levels ignore it).
    pub strength: Strength,
    /// The seed of its random choices; a fresh one when `None`.
    pub seed: Option<u64>,
}

impl Opponent {
    /// "hard", or "master at strength 40".
    fn describe(&self) -> String {
        if self.level == Level::Master && self.strength < Strength::FULL {
            format!("master at strength {}", self.strength)
        } else {
            self.level.to_string()
        }
    }
}

const HELP: &str = "\
Moves: a column letter and a row number, h8 (a1 is the top left corner), or x,y
counted from 0, 7,7. Commands:
  undo       take back your last move and Hoshi's answer
  hint       Hoshi's best move for you, with its evaluation
  swap       change sides: Hoshi takes your colour (and moves if it is its turn)
  save FILE  save the game: PSQ if FILE ends in .psq, else one line such as h8i9j10
  load FILE  continue from a PSQ or pos file
  new        a new game with the same settings
  board      show the board again
  help       this text
  quit       leave (so does the end of input)";

/// Plays on stdin and stdout until `quit` or the end of input.
pub fn run(args: &PlayArgs, opponent: Opponent) -> Result<(), RecordError> {
    let game = match &args.load {
        Some(source) => record::load(source, args.size.board(), args.rule)?,
        None => Game::new(args.size.board(), args.rule),
    };
    let human = match args.first {
        First::You => Color::Black,
        First::Hoshi => Color::White,
    };
    let stdout = io::stdout();
    let mut play = Play::new(game, human, opponent, args, stdout.lock());
    // Output failures (a closed terminal) end the game; nobody is left to tell.
    let _ = play.serve(io::stdin().lock());
    Ok(())
}

/// What a line asks for, once read.
enum Flow {
    Go,
    Quit,
}

/// One sitting at the board: the game, the sides, and Hoshi's machinery.
struct Play<W: Write> {
    out: W,
    paint: bool,
    game: Game,
    human: Color,
    opponent: Opponent,
    budget: ThinkArgs,
    rng: Rng,
    searcher: Searcher,
    stop: AtomicBool,
}

impl<W: Write> Play<W> {
    fn new(game: Game, human: Color, opponent: Opponent, args: &PlayArgs, out: W) -> Play<W> {
        let mut searcher = Searcher::new(search::DEFAULT_TT_BYTES);
        searcher.set_evaluator(opponent.strength.evaluator(&Evaluator::builtin()));
        searcher.prepare(game.rule());
        Play {
            out,
            paint: args.color.paint(),
            game,
            human,
            opponent,
            budget: args.budget,
            rng: Rng::new(opponent.seed.unwrap_or_else(Rng::fresh_seed)),
            searcher,
            stop: AtomicBool::new(false),
        }
    }

    fn serve(&mut self, mut input: impl BufRead) -> io::Result<()> {
        let board = self.game.board();
        writeln!(
            self.out,
            "Hoshi ({}) plays {}, you play {}: {}, {}x{}, {} a move.",
            self.opponent.describe(),
            color_name(self.human.opponent()),
            color_name(self.human),
            self.game.rule(),
            board.width(),
            board.height(),
            self.budget.describe()
        )?;
        writeln!(
            self.out,
            "Type a move such as h8 (or 7,7), or help for the commands."
        )?;
        self.show()?;
        self.hoshi_if_its_turn()?;
        loop {
            self.prompt()?;
            let mut line = Vec::new();
            if input.read_until(b'\n', &mut line)? == 0 {
                writeln!(self.out)?;
                return Ok(());
            }
            let line = String::from_utf8_lossy(&line);
            if let Flow::Quit = self.handle(line.trim())? {
                return Ok(());
            }
        }
    }

    fn prompt(&mut self) -> io::Result<()> {
        if self.game.outcome().is_some() {
            write!(self.out, "> ")?;
        } else {
            write!(self.out, "{}> ", color_name(self.human))?;
        }
        self.out.flush()
    }

    fn handle(&mut self, line: &str) -> io::Result<Flow> {
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match word.to_ascii_lowercase().as_str() {
            "" => {}
            "quit" | "exit" => return Ok(Flow::Quit),
            "help" | "?" => writeln!(self.out, "{HELP}")?,
            "board" => self.show()?,
            "undo" => self.undo()?,
            "hint" => self.hint()?,
            "swap" => {
                self.human = self.human.opponent();
                writeln!(
                    self.out,
                    "You now play {}; Hoshi plays {}.",
                    color_name(self.human),
                    color_name(self.human.opponent())
                )?;
                if !self.hoshi_if_its_turn()? {
                    self.show()?;
                }
            }
            "save" | "load" if rest.is_empty() => {
                writeln!(self.out, "{word} needs a file name: {word} FILE")?;
            }
            "save" => self.save(rest)?,
            "load" => self.load(rest)?,
            "new" => {
                self.game = Game::new(self.empty_board(), self.game.rule());
                self.searcher.clear();
                writeln!(self.out, "New game: you play {}.", color_name(self.human))?;
                if !self.hoshi_if_its_turn()? {
                    self.show()?;
                }
            }
            _ => self.human_move(line)?,
        }
        Ok(Flow::Go)
    }

    /// Plays the human's move, then Hoshi's answer.
    fn human_move(&mut self, text: &str) -> io::Result<()> {
        let pos = match notation::parse_point(text, self.game.board()) {
            Ok(p) => p,
            Err(NotationError::BadPoint(_)) => {
                return writeln!(
                    self.out,
                    "I do not know {text:?}: type a move such as h8 or 7,7, or help."
                );
            }
            Err(e) => return writeln!(self.out, "{e}."),
        };
        if let Some(outcome) = self.game.outcome() {
            return writeln!(
                self.out,
                "The game is over ({outcome}): type new, undo or quit."
            );
        }
        if self.game.board().is_empty_at(pos)
            && let Some(foul) = self.game.foul(pos)
        {
            return writeln!(
                self.out,
                "{} is forbidden for black in renju ({}): choose another point.",
                notation::name(pos),
                foul_name(foul)
            );
        }
        match self.game.play(pos) {
            Err(MoveError::Occupied(_)) => {
                writeln!(self.out, "{} is already taken.", notation::name(pos))
            }
            Err(e) => writeln!(self.out, "{e}."),
            Ok(outcome) => {
                let over = outcome.is_some();
                writeln!(self.out, "You play {}.", notation::name(pos))?;
                if over {
                    self.show()
                } else {
                    self.hoshi_if_its_turn().map(|_| ())
                }
            }
        }
    }

    /// Lets Hoshi move if the game goes on and it is its turn; shows the board if it did.
    fn hoshi_if_its_turn(&mut self) -> io::Result<bool> {
        if self.game.outcome().is_some() || self.game.to_move() == self.human {
            return Ok(false);
        }
        let me = self.human.opponent();
        if self.opponent.level == Level::Master {
            write!(self.out, "Hoshi thinks... ")?;
            self.out.flush()?;
        }
        let mut board = self.game.board().clone();
        let mut ctx = Context {
            rule: self.game.rule(),
            me,
            limits: self.budget.limits(),
            stop: &self.stop,
            rng: &mut self.rng,
            searcher: &mut self.searcher,
            strength: self.opponent.strength,
            observe: None,
        };
        let choice = self.opponent.level.choose(&mut board, &mut ctx);
        // The level answers an empty cell; should it ever not, the first empty one.
        let pos = Some(choice.pos)
            .filter(|&p| board.is_empty_at(p))
            .or_else(|| board.empty_cells().next());
        let Some(pos) = pos else {
            return Ok(false);
        };
        if self.game.play(pos).is_err() {
            return Ok(false);
        }
        writeln!(self.out, "Hoshi plays {}.", notation::name(pos))?;
        self.show()?;
        Ok(true)
    }

    /// The board, whose turn it is, and the result once there is one.
    fn show(&mut self) -> io::Result<()> {
        write!(self.out, "{}", picture::draw(&self.game, self.paint))?;
        if !self.game.forbidden_points().is_empty() {
            writeln!(self.out, "! marks the points forbidden for black.")?;
        }
        match self.game.outcome() {
            Some(outcome) => {
                let verdict = match outcome.winner() {
                    Some(c) if c == self.human => "You win",
                    Some(_) => "Hoshi wins",
                    None => "Draw",
                };
                writeln!(self.out, "{verdict}: {outcome}.")?;
                writeln!(
                    self.out,
                    "Type new for another game, undo to take back, save FILE, or quit."
                )
            }
            None => {
                let mover = self.game.to_move();
                let who = if mover == self.human { "you" } else { "Hoshi" };
                writeln!(
                    self.out,
                    "Move {}: {} ({who}) to play.",
                    self.game.board().history().len() + 1,
                    color_name(mover)
                )
            }
        }
    }

    /// Takes back Hoshi's last stone and the human's before it, so the human moves again.
    fn undo(&mut self) -> io::Result<()> {
        let history = self.game.board().history();
        let Some(k) = history.iter().rposition(|&(_, c)| c == self.human) else {
            return writeln!(self.out, "There is no move of yours to take back.");
        };
        let taken: Vec<Pos> = history[k..].iter().map(|&(p, _)| p).collect();
        for _ in &taken {
            self.game.undo();
        }
        writeln!(
            self.out,
            "Taken back: {}.",
            taken
                .iter()
                .map(|&p| notation::name(p))
                .collect::<Vec<_>>()
                .join(" ")
        )?;
        self.show()
    }

    /// Hoshi's best move for the human: the unweakened search, with the evaluation of
    /// Hoshi's strength, within the same budget.
    fn hint(&mut self) -> io::Result<()> {
        if let Some(outcome) = self.game.outcome() {
            return writeln!(self.out, "The game is over ({outcome}).");
        }
        let (board, rule) = (self.game.board(), self.game.rule());
        let request = Request::new(board, rule, self.human, self.budget.limits());
        let result = self.searcher.search(request.stop(&self.stop));
        let pv: Vec<String> = result.pv.iter().map(|&p| notation::name(p)).collect();
        writeln!(
            self.out,
            "Hint: {} ({} for you, depth {}).\nExpected line: {}",
            notation::name(result.best),
            describe_score(result.score),
            result.depth,
            pv.join(" ")
        )
    }

    fn save(&mut self, file: &str) -> io::Result<()> {
        let hoshi = format!("Hoshi {}", self.opponent.describe());
        let names = match self.human {
            Color::Black => ["You", hoshi.as_str()],
            Color::White => [hoshi.as_str(), "You"],
        };
        let path = Path::new(file);
        match record::save(path, &self.game, names) {
            Ok(format) => writeln!(
                self.out,
                "Saved {} moves to {file} ({}).",
                self.game.board().history().len(),
                match format {
                    record::Format::Psq => "PSQ",
                    record::Format::Pos => "pos",
                }
            ),
            Err(e) => writeln!(self.out, "Cannot save to {file}: {e}."),
        }
    }

    /// An empty board the size of the game's.
    fn empty_board(&self) -> Board {
        let b = self.game.board();
        Board::new(b.width().into(), b.height().into()).expect("the size of a board that exists")
    }

    fn load(&mut self, file: &str) -> io::Result<()> {
        match record::load(file, self.empty_board(), self.game.rule()) {
            Ok(game) => {
                self.game = game;
                self.searcher.clear();
                writeln!(
                    self.out,
                    "Loaded {} moves from {file}.",
                    self.game.board().history().len()
                )?;
                if !self.hoshi_if_its_turn()? {
                    self.show()?;
                }
                Ok(())
            }
            Err(e) => writeln!(self.out, "Cannot load {file}: {e}."),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sitting(first: First, level: Level) -> Play<Vec<u8>> {
        let args = PlayArgs {
            rule: Rule::Freestyle,
            size: "9".parse().unwrap(),
            first,
            budget: ThinkArgs::default(),
            load: None,
            color: ColorChoice::Never,
        };
        let opponent = Opponent {
            level,
            strength: Strength::FULL,
            seed: Some(1),
        };
        let human = match first {
            First::You => Color::Black,
            First::Hoshi => Color::White,
        };
        Play::new(
            Game::new(args.size.board(), args.rule),
            human,
            opponent,
            &args,
            Vec::new(),
        )
    }

    fn output(play: &Play<Vec<u8>>) -> String {
        String::from_utf8(play.out.clone()).unwrap()
    }

    #[test]
    fn undo_takes_back_the_pair_and_never_leaves_hoshi_to_move() {
        let mut play = sitting(First::Hoshi, Level::Normal);
        play.serve(&b"undo\nc3\nundo\n"[..]).unwrap();
        let out = output(&play);
        assert!(
            out.contains("There is no move of yours to take back."),
            "{out}"
        );
        // Hoshi's opening stone stays; the human's c3 and Hoshi's answer go.
        assert_eq!(play.game.board().history().len(), 1, "{out}");
        assert_eq!(play.game.to_move(), Color::White);
    }

    #[test]
    fn swap_hands_hoshi_the_side_to_move() {
        let mut play = sitting(First::You, Level::Hard);
        play.serve(&b"swap\n"[..]).unwrap();
        assert_eq!(play.human, Color::White);
        assert_eq!(play.game.board().history().len(), 1);
        assert!(output(&play).contains("You now play white; Hoshi plays black."));
    }
}
