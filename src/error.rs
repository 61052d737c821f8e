//! The one error type users see. It names the file, the path inside it
//! (`tables.orders.patterns.get-order.rate`), the line and column where known, what was
//! expected, and ends with a suggestion. Its kind says what went wrong (a caller matches on
//! it, not on the message) and decides the exit code; an I/O failure or an engine refusal
//! keeps its cause, reachable through `std::error::Error::source`.

use std::fmt;
use std::sync::Arc;

/// Exit codes, documented in docs/commands/exit-codes.md.
pub(crate) mod exit {
    /// The command line itself is wrong (clap's own errors use 2 as well).
    pub(crate) const USAGE: i32 = 2;
    /// Bad input files, missing prices, I/O failures.
    pub(crate) const INPUT: i32 = 1;
    /// A budget gate of `ddbcost diff` was crossed (the report is still printed).
    pub(crate) const BUDGET: i32 = 3;
    /// Standard output was closed before everything was written (a reader such as `head`
    /// stopped early): 128 + SIGPIPE, the status a shell shows for a process ended by that
    /// signal. Nothing is printed.
    pub(crate) const CLOSED_PIPE: i32 = 141;
}

/// What went wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The command line (exit 2).
    Usage,
    /// An input file: malformed, unknown fields, out of range, unsupported (exit 1).
    Input,
    /// A file could not be read or written; `source()` is the `std::io::Error` (exit 1).
    Io,
    /// The engine could not price the workload (a price the table lacks, a figure too large):
    /// `source()` is the `engine::EngineError`, whose variant says which (exit 1).
    Engine,
    /// A budget gate of `diff` was crossed (exit 3).
    Budget,
    /// Standard output went away (a closed pipe): the command ends quietly.
    ClosedPipe,
}

/// The cause an error keeps: an I/O error or an engine error (boxed twice so that an
/// `Error` stays small: a thin pointer).
pub(crate) type Cause = Arc<Box<dyn std::error::Error + Send + Sync + 'static>>;

#[derive(Debug, Clone)]
pub struct Error {
    pub kind: ErrorKind,
    pub message: Box<str>,
    // Boxed strings keep `Result<_, Error>` small on the happy path.
    pub file: Option<Box<str>>,
    pub path: Option<Box<str>>,
    /// 1-based line and column.
    pub position: Option<(u64, u64)>,
    /// The offending line of the input, quoted under the position.
    pub source_line: Option<Box<str>>,
    pub help: Option<Box<str>>,
    /// What caused it, for `Io` and `Engine` errors.
    pub cause: Option<Cause>,
}

/// Two errors are equal when they say the same thing (their causes compared as text).
impl PartialEq for Error {
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind
            && self.message == other.message
            && self.file == other.file
            && self.path == other.path
            && self.position == other.position
            && self.source_line == other.source_line
            && self.help == other.help
            && self.cause.as_ref().map(ToString::to_string)
                == other.cause.as_ref().map(ToString::to_string)
    }
}

impl Eq for Error {}

impl Error {
    pub fn input(message: impl Into<String>) -> Self {
        Error {
            kind: ErrorKind::Input,
            message: message.into().into_boxed_str(),
            file: None,
            path: None,
            position: None,
            source_line: None,
            help: None,
            cause: None,
        }
    }

    /// `message` about a file that could not be read or written, caused by `e`.
    pub fn io(message: impl Into<String>, e: std::io::Error) -> Self {
        Error {
            kind: ErrorKind::Io,
            cause: Some(Arc::new(Box::new(e))),
            ..Error::input(message)
        }
    }

    pub fn budget(message: impl Into<String>) -> Self {
        Error {
            kind: ErrorKind::Budget,
            ..Error::input(message)
        }
    }

    /// Standard output was closed by its reader: not the user's mistake, nothing to say.
    #[must_use]
    pub fn closed_pipe() -> Self {
        Error {
            kind: ErrorKind::ClosedPipe,
            ..Error::input("standard output was closed")
        }
    }

    /// An I/O error while writing `what`: a closed pipe becomes `closed_pipe`, so every command
    /// ends the same quiet way when its reader stops early.
    #[must_use]
    pub fn writing(what: &str, e: &std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            Error::closed_pipe()
        } else {
            Error::io(
                format!("cannot write {what}: {e}"),
                std::io::Error::new(e.kind(), e.to_string()),
            )
        }
    }

    pub fn usage(message: impl Into<String>) -> Self {
        Error {
            kind: ErrorKind::Usage,
            ..Error::input(message)
        }
    }

    #[must_use]
    pub fn file(mut self, file: impl Into<String>) -> Self {
        self.file = Some(file.into().into_boxed_str());
        self
    }

    #[must_use]
    pub fn path(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into().into_boxed_str());
        self
    }

    #[must_use]
    pub fn at(mut self, position: Option<(u64, u64)>) -> Self {
        self.position = position.filter(|(line, _)| *line > 0);
        self
    }

    /// Quotes the line at the error's position from `text`.
    #[must_use]
    pub fn quoting(mut self, text: &str) -> Self {
        if let Some((line, _)) = self.position {
            self.source_line = usize::try_from(line)
                .ok()
                .and_then(|l| text.lines().nth(l.saturating_sub(1)))
                .map(|l| l.chars().take(200).collect::<String>().into_boxed_str());
        }
        self
    }

    #[must_use]
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into().into_boxed_str());
        self
    }

    #[must_use]
    pub fn exit_code(&self) -> i32 {
        match self.kind {
            ErrorKind::Usage => exit::USAGE,
            ErrorKind::Input | ErrorKind::Io | ErrorKind::Engine => exit::INPUT,
            ErrorKind::Budget => exit::BUDGET,
            ErrorKind::ClosedPipe => exit::CLOSED_PIPE,
        }
    }
}

impl fmt::Display for Error {
    /// The error as a terminal shows it. What it quotes from the input (a name in the
    /// message, the path, the line) is written with its control characters and
    /// bidirectional overrides escaped (`\u{1b}`, see `crate::text`): a hostile file cannot
    /// act on the terminal through its own refusal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::text::{one_line, shown};
        write!(f, "error: {}", shown(&self.message))?;
        if let Some(file) = &self.file {
            write!(f, "\n  --> {}", one_line(file))?;
            if let Some((line, column)) = self.position {
                write!(f, ":{line}:{column}")?;
            }
        }
        if let Some(path) = &self.path {
            write!(f, "\n   at {}", one_line(path))?;
        }
        if let (Some(line), Some((number, column))) = (&self.source_line, self.position) {
            let gutter = number.to_string();
            let pad = " ".repeat(gutter.len());
            // The caret stands under the column: each character before it that is written
            // as its escape takes the escape's width.
            let before = usize::try_from(column.saturating_sub(1)).unwrap_or(0);
            let width: usize = line
                .chars()
                .take(before)
                .map(|c| one_line(c.encode_utf8(&mut [0; 4])).chars().count())
                .sum::<usize>()
                .saturating_add(before.saturating_sub(line.chars().count()));
            let caret = " ".repeat(width.min(400));
            write!(
                f,
                "\n {pad} |\n {gutter} | {}\n {pad} | {caret}^",
                one_line(line)
            )?;
        }
        if let Some(help) = &self.help {
            write!(f, "\n  = help: {}", shown(help))?;
        }
        Ok(())
    }
}

impl Error {
    /// The error as one JSON object (`--error-format json`, and `ddbcost mcp`'s tool errors):
    /// schema `ddbcost.error/v1`, with `null` for what is not known.
    #[must_use]
    pub fn to_json(&self) -> serde_json::Value {
        let kind = match self.kind {
            ErrorKind::Usage => "usage",
            ErrorKind::Input => "input",
            ErrorKind::Io => "io",
            ErrorKind::Engine => "engine",
            ErrorKind::Budget => "budget",
            ErrorKind::ClosedPipe => "closed_pipe",
        };
        serde_json::json!({
            "schema": "ddbcost.error/v1",
            "kind": kind,
            "exit_code": self.exit_code(),
            "message": &*self.message,
            "file": self.file.as_deref(),
            "path": self.path.as_deref(),
            "line": self.position.map(|p| p.0),
            "column": self.position.map(|p| p.1),
            "source_line": self.source_line.as_deref(),
            "help": self.help.as_deref(),
            // What the input should have been, where the message says (`…, expected …`).
            "expected": self.message.split_once("expected ").map(|(_, e)| e),
            "text": self.to_string(),
        })
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.cause
            .as_deref()
            .map(|c| &**c as &(dyn std::error::Error + 'static))
    }
}

impl From<crate::model::index_spec::SpecError> for Error {
    fn from(e: crate::model::index_spec::SpecError) -> Self {
        Error::usage(e.message).help(e.help)
    }
}

impl From<crate::engine::EngineError> for Error {
    fn from(e: crate::engine::EngineError) -> Self {
        let help = e.suggestion();
        Error {
            kind: ErrorKind::Engine,
            cause: Some(Arc::new(Box::new(e.clone()))),
            ..Error::input(e.to_string())
        }
        .help(help)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_an_error_quotes_from_a_file_cannot_act_on_the_terminal() {
        // A line of a hostile file, quoted under its position: the escape sequence is shown
        // as `\u{1b}` (6 characters for 1), and the caret still stands under column 8.
        let text = "tables:\n  a\u{1b}[2Jz: x\n";
        let e = Error::input("unexpected character `\u{1b}`")
            .file("w\u{1b}]0;title\u{7}.yaml")
            .path("tables.a\u{1b}[2Jz")
            .at(Some((2, 8)))
            .quoting(text)
            .help("remove \u{202E}it");
        let shown = e.to_string();
        assert!(!shown.chars().any(crate::text::acts), "{shown:?}");
        assert!(
            shown.contains("error: unexpected character `\\u{1b}`"),
            "{shown}"
        );
        assert!(
            shown.contains("--> w\\u{1b}]0;title\\u{7}.yaml:2:8"),
            "{shown}"
        );
        assert!(shown.contains("at tables.a\\u{1b}[2Jz"), "{shown}");
        assert!(shown.contains("remove \\u{202e}it"), "{shown}");
        let lines: Vec<&str> = shown.lines().collect();
        let quoted = lines.iter().find(|l| l.starts_with(" 2 | ")).unwrap();
        let caret = lines.iter().find(|l| l.ends_with('^')).unwrap();
        // `  a\u{1b}[2Jz`: columns 1–7 are `  a`, ESC, `[2J`, so the 8th character, `z`,
        // sits after 3 + 6 + 3 = 12 shown characters.
        assert_eq!(quoted.find('z').unwrap(), caret.find('^').unwrap());
        // The JSON form keeps the text (JSON escapes control characters itself).
        assert_eq!(e.to_json()["path"], "tables.a\u{1b}[2Jz");
    }
}
