//! Why a line is not a well-formed command: the one error of parsing, whose message is what
//! the engine answers after `ERROR`.

use std::fmt;

/// Why a line (or block) is not a well-formed command. Its message is what `ERROR`
/// answers; quoted input is cut to 40 characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// A command that takes no arguments got some.
    UnexpectedArguments { command: String, got: String },
    /// Not the `count` comma-separated whole numbers `what` needs (`example` shows them).
    Numbers {
        what: String,
        count: usize,
        example: String,
        got: String,
    },
    /// A number too large to hold.
    OutOfRange { what: String, number: String },
    /// A `BOARD` stone line whose field is not 1, 2 or 3.
    Field { field: i64, line: String },
    /// A bad line in the body of the block command `command`.
    Body {
        command: String,
        line: Box<ParseError>,
    },
    /// The input ended inside the block command `command`, before its `DONE`.
    NoDone { command: String },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::UnexpectedArguments { command, got } => {
                write!(f, "{command} takes no arguments, got '{got}'")
            }
            ParseError::Numbers {
                what,
                count,
                example,
                got,
            } => {
                let numbers = if *count == 1 {
                    "a number"
                } else {
                    "numbers separated by commas"
                };
                write!(f, "{what} expects {numbers} (e.g. {example}), got '{got}'")
            }
            ParseError::OutOfRange { what, number } => {
                write!(f, "{what}: number '{number}' is out of range")
            }
            ParseError::Field { field, line } => {
                write!(f, "field {field} in '{line}' must be 1, 2 or 3")
            }
            ParseError::Body { command, line } => write!(f, "{command}: {line}"),
            ParseError::NoDone { command } => write!(f, "{command}: input ended before DONE"),
        }
    }
}

impl std::error::Error for ParseError {}
