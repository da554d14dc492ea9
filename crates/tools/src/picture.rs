//! The board as people read it in a terminal: columns lettered and rows numbered as in
//! [`hoshi::notation`] (`a1` top left), both on every side.
//!
//! `X` is black, `O` white, `.` empty, `#` a blocked cell and `!` a point forbidden to
//! black (renju). The last stone is shown in parentheses, `(X)`, as GNU Go shows it; the
//! stones of a winning five are written in lower case (`x`, `o`). With colours the same
//! characters are painted (the five on green, the last stone in reverse video), so a
//! copied screen reads the same without them.

use std::io::IsTerminal;

use clap::ValueEnum;

use crate::game::{Game, Outcome};
use hoshi::board::{Cell, Color, Pos};
use hoshi::notation;

/// Whether to paint the picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colours when stdout is a terminal, `NO_COLOR` is unset and `TERM` is not `dumb`.
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether to paint what goes to stdout.
    #[must_use]
    pub fn paint(self) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                let set = |var| std::env::var_os(var).is_some_and(|v| !v.is_empty());
                std::io::stdout().is_terminal()
                    && !set("NO_COLOR")
                    && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
            }
        }
    }
}

/// ANSI select-graphic-rendition codes.
const BLACK_STONE: &str = "1;31";
const WHITE_STONE: &str = "1;36";
const FIVE: &str = "30;42";
const LAST: &str = "7";
const FORBIDDEN: &str = "35";
const FAINT: &str = "2";

/// The picture of `game`, one line per row plus the column letters above and below, each
/// line ending in `\n`; painted with ANSI colours when `paint` is set.
#[must_use]
pub fn draw(game: &Game, paint: bool) -> String {
    let board = game.board();
    let last = board.last_move().map(|(p, _)| p);
    let five: &[Pos] = match game.outcome() {
        Some(Outcome::Five { line, .. }) => line,
        _ => &[],
    };
    let forbidden = game.forbidden_points();
    let label_width = board.height().to_string().len();
    let columns = column_labels(board.width(), label_width);
    let mut out = columns.clone();
    for y in 0..board.height() {
        let label = u32::from(y) + 1;
        out.push_str(&format!("{label:>label_width$}"));
        let mut after_last = false;
        for x in 0..board.width() {
            let p = Pos::new(x, y);
            let is_last = last == Some(p);
            out.push(if is_last {
                '('
            } else if after_last {
                ')'
            } else {
                ' '
            });
            after_last = is_last;
            let in_five = five.contains(&p);
            let (glyph, mut codes) = match board.get(p) {
                Cell::Stone(Color::Black) => ('X', vec![BLACK_STONE]),
                Cell::Stone(Color::White) => ('O', vec![WHITE_STONE]),
                Cell::Blocked => ('#', vec![FAINT]),
                Cell::Empty if forbidden.contains(&p) => ('!', vec![FORBIDDEN]),
                Cell::Empty => ('.', vec![FAINT]),
            };
            if in_five {
                codes.push(FIVE);
            }
            if is_last {
                codes.push(LAST);
            }
            let glyph = if in_five && !paint {
                glyph.to_ascii_lowercase()
            } else {
                glyph
            };
            if paint {
                out.push_str(&format!("\x1b[{}m{glyph}\x1b[0m", codes.join(";")));
            } else {
                out.push(glyph);
            }
        }
        out.push(if after_last { ')' } else { ' ' });
        out.push_str(&format!("{label}\n"));
    }
    out.push_str(&columns);
    out
}

/// The column letters over the cells, after `indent` columns of row numbers: one line, or
/// two when some name has two letters (boards wider than 26), the second letter below.
fn column_labels(width: u8, indent: usize) -> String {
    let names: Vec<String> = (0..width).map(notation::column_name).collect();
    let rows = names.iter().map(String::len).max().unwrap_or(1);
    let mut out = String::new();
    for row in 0..rows {
        let mut line = " ".repeat(indent);
        for name in &names {
            // Right-aligned: one-letter names sit on the last line.
            let pad = rows - name.len();
            let c = if row < pad {
                ' '
            } else {
                char::from(name.as_bytes()[row - pad])
            };
            line.push(' ');
            line.push(c);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use hoshi::board::Board;
    use hoshi::rules::Rule;

    fn game(rule: Rule, size: i64, moves: &[(u8, u8)]) -> Game {
        let moves: Vec<Pos> = moves.iter().map(|&(x, y)| Pos::new(x, y)).collect();
        Game::replay(Board::new(size, size).unwrap(), rule, &moves).unwrap()
    }

    #[test]
    fn the_plain_picture_letters_columns_numbers_rows_and_brackets_the_last_stone() {
        let g = game(Rule::Freestyle, 5, &[(2, 2), (3, 2)]);
        let want = [
            "  a b c d e",
            "1 . . . . . 1",
            "2 . . . . . 2",
            "3 . . X(O). 3",
            "4 . . . . . 4",
            "5 . . . . . 5",
            "  a b c d e",
        ];
        assert_eq!(draw(&g, false), want.map(|l| format!("{l}\n")).concat());
    }

    #[test]
    fn a_five_is_lower_case_and_forbidden_points_are_marked_while_play_goes_on() {
        // Black's five on the top row of a 9x9, white below it.
        let moves = [
            (0, 0),
            (0, 1),
            (1, 0),
            (1, 1),
            (2, 0),
            (2, 1),
            (3, 0),
            (3, 1),
            (4, 0),
        ];
        let text = draw(&game(Rule::Freestyle, 9, &moves), false);
        assert!(text.contains("\n1 x x x x(x). . . . 1\n"), "{text}");
        assert!(text.contains("\n2 O O O O . . . . . 2\n"), "{text}");
        // The rule tester's renju position: g9 is a double three for black.
        let renju = [
            (7, 7),
            (7, 8),
            (8, 6),
            (8, 8),
            (7, 9),
            (8, 5),
            (8, 10),
            (8, 11),
        ];
        let text = draw(&game(Rule::Renju, 15, &renju), false);
        let row9 = text.lines().find(|l| l.starts_with(" 9")).unwrap();
        assert_eq!(row9, " 9 . . . . . . ! O O . . . . . . 9");
    }

    #[test]
    fn paint_adds_colour_codes_around_the_same_characters() {
        let g = game(Rule::Freestyle, 5, &[(2, 2)]);
        let painted = draw(&g, true);
        assert!(painted.contains("(\x1b[1;31;7mX\x1b[0m)"), "{painted:?}");
        let stripped: String = {
            let mut s = String::new();
            let mut in_code = false;
            for c in painted.chars() {
                match c {
                    '\x1b' => in_code = true,
                    'm' if in_code => in_code = false,
                    _ if !in_code => s.push(c),
                    _ => {}
                }
            }
            s
        };
        assert_eq!(stripped, draw(&g, false));
    }

    #[test]
    fn wide_boards_write_two_letter_columns_on_two_lines() {
        let labels = column_labels(28, 2);
        let lines: Vec<&str> = labels.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(lines[0].ends_with("a a"), "{labels}");
        assert!(lines[1].ends_with("x y z a b"), "{labels}");
        assert_eq!(column_labels(15, 2), "   a b c d e f g h i j k l m n o\n");
    }
}
