//! A run's configuration, resolved once from the outside world: the terminal's layout, the
//! day it runs on, the price folders of `DDBCOST_PRICES`, and the run's diagnostics and
//! sample cache. This is
//! the only place below `main` that reads an environment variable, the terminal or the
//! clock; every command, the pricing service and the renderers get these as values.

use std::io::IsTerminal;

use crate::model::period::Period;
use crate::output::Diagnostics;
use crate::report::layout::Layout;
use crate::size::samples::SampleCache;

/// What a run knows of the world it runs in.
#[derive(Debug, Default)]
pub(crate) struct Run {
    /// How terminal tables fit: `--width`, else `COLUMNS`, else the terminal's width.
    pub layout: Layout,
    /// The day the run started, in days since 1970-01-01 (UTC).
    pub today: i64,
    /// `DDBCOST_PRICES`: folders of price tables, searched after `--prices-dir`.
    pub env_price_dirs: Vec<String>,
    /// Notes and warnings said on standard error, each once.
    pub diagnostics: Diagnostics,
    /// Standard input is a terminal (`init` asks its questions).
    pub stdin_terminal: bool,
    /// Standard error is a terminal (`size` and `keys` show their progress).
    pub stderr_terminal: bool,
    /// Standard output is a terminal too: a table's footer and standard error share a screen.
    pub stdout_terminal: bool,
    /// The item samples workloads name, each measured once.
    pub samples: SampleCache,
    /// The folder this run may read (`--root`, `--no-files`), opened once as a handle;
    /// `confine::within` puts it in scope for the run's reads.
    pub root: Option<std::sync::Arc<crate::confine::Root>>,
    /// `--root` could not be opened, for `mcp` (which starts anyway and refuses each call
    /// with it); every other command stops at it.
    pub root_error: Option<crate::error::Error>,
}

impl Run {
    /// Reads the environment, the terminal and the clock.
    #[must_use]
    pub(crate) fn from_environment(width: Option<u16>) -> Run {
        let seconds = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Run {
            layout: terminal_layout(width),
            today: i64::try_from(seconds / 86_400).unwrap_or(0),
            env_price_dirs: std::env::var("DDBCOST_PRICES")
                .unwrap_or_default()
                .split(':')
                .filter(|d| !d.trim().is_empty())
                .map(str::to_string)
                .collect(),
            diagnostics: Diagnostics::default(),
            stdin_terminal: std::io::stdin().is_terminal(),
            stderr_terminal: std::io::stderr().is_terminal(),
            stdout_terminal: std::io::stdout().is_terminal(),
            root_error: None,
            samples: SampleCache::default(),
            root: None,
        }
    }

    /// The calendar month the run falls in: the default `--period` and `--start`.
    #[must_use]
    pub(crate) fn this_month(&self) -> Period {
        Period::containing(
            u64::try_from(self.today)
                .unwrap_or(0)
                .saturating_mul(86_400),
        )
    }
}

/// The terminal's shape: `--width`, else `COLUMNS`, else the terminal's width when standard
/// output is one; colour only on a terminal, and never with `NO_COLOR` (set and not empty)
/// or `TERM=dumb`.
fn terminal_layout(width: Option<u16>) -> Layout {
    let terminal = std::io::stdout().is_terminal();
    let columns = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|c| *c >= 20);
    let width = width.map(usize::from).or(columns).or_else(|| {
        terminal
            .then(|| console::Term::stdout().size_checked())
            .flatten()
            .map(|(_, w)| usize::from(w))
    });
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let dumb = std::env::var("TERM").is_ok_and(|t| t == "dumb");
    Layout {
        width,
        color: terminal && !no_color && !dumb,
    }
}
