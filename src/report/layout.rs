//! How terminal tables fit the screen: the width they wrap within and whether they are
//! coloured. A `Layout` is a value the caller passes to each table renderer: the command
//! line resolves it once per run (`--width`, else `COLUMNS`, else the terminal's width when
//! standard output is one; colour only when standard output is a terminal, never with
//! `NO_COLOR` or `TERM=dumb`, see `commands::config`). The default — a library call, output
//! piped to a file — keeps tables at their natural width with no colour. Long labels wrap
//! inside their column (the widest columns give way first; words and amounts are never split).

use rust_decimal::Decimal;
use tabled::Table;
use tabled::grid::records::vec_records::Cell;
use tabled::settings::Format;
use tabled::settings::object::Columns;

/// The terminal's shape, as far as tables care.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Layout {
    /// Columns to fit within (`None`: the table's natural width).
    pub width: Option<usize>,
    /// ANSI colour and bold.
    pub color: bool,
}

impl Layout {
    /// Whether `table` is wider than the layout allows.
    #[must_use]
    pub(crate) fn too_wide(self, table: &Table) -> bool {
        self.width.is_some_and(|w| table.total_width() > w)
    }

    /// Narrows `table` to the layout's width by wrapping its widest columns first, each no
    /// narrower than its floor: the longest word of its text cells, the whole of its figures
    /// (a cell holding digits and no letters), so that words and amounts are never split. A
    /// table whose floors alone are wider than the width stays at its floors.
    pub(crate) fn fit(self, table: &mut Table) {
        let Some(w) = self.width else { return };
        let total = table.total_width();
        if total <= w {
            return;
        }
        let columns = table.count_columns();
        let mut widths = vec![0usize; columns];
        let mut floors = vec![0usize; columns];
        for row in table.get_records().iter() {
            for (c, cell) in row.iter().enumerate().take(columns) {
                let text = cell.text();
                let width = text
                    .lines()
                    .map(console::measure_text_width)
                    .max()
                    .unwrap_or(0);
                let figure = text.chars().any(|ch| ch.is_ascii_digit())
                    && !text.chars().any(char::is_alphabetic);
                let floor = if figure {
                    width
                } else {
                    text.split_whitespace()
                        .map(console::measure_text_width)
                        .max()
                        .unwrap_or(0)
                };
                widths[c] = widths[c].max(width);
                floors[c] = floors[c].max(floor);
            }
        }
        let mut excess = total.saturating_sub(w);
        let before = widths.clone();
        while excess > 0 {
            // The widest column that can still give way gives one column of text.
            let Some(c) = (0..columns)
                .filter(|&c| widths[c] > floors[c])
                .max_by_key(|&c| (widths[c], c))
            else {
                break;
            };
            widths[c] = widths[c].saturating_sub(1);
            excess = excess.saturating_sub(1);
        }
        for c in 0..columns {
            if widths[c] < before[c] {
                let width = widths[c];
                table.modify(
                    Columns::one(c),
                    Format::content(move |text| wrap(text, width)),
                );
            }
        }
    }
}

/// `text` with its words on lines of at most `width` columns (a word longer than that on a
/// line of its own); figures are kept whole.
fn wrap(text: &str, width: usize) -> String {
    let figure = text.chars().any(|c| c.is_ascii_digit()) && !text.chars().any(char::is_alphabetic);
    if figure || console::measure_text_width(text) <= width {
        return text.to_string();
    }
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line)
                if console::measure_text_width(line)
                    .saturating_add(1)
                    .saturating_add(console::measure_text_width(word))
                    <= width =>
            {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines.join("\n")
}

impl Layout {
    /// `text` in bold, when colour is on.
    #[must_use]
    pub(crate) fn bold(self, text: &str) -> String {
        if self.color {
            console::style(text).bold().force_styling(true).to_string()
        } else {
            text.to_string()
        }
    }

    /// A cost delta's text, red when it costs more and green when it saves, when colour is on.
    #[must_use]
    pub(crate) fn delta(self, text: String, delta: Decimal) -> String {
        if !self.color || delta.is_zero() {
            return text;
        }
        let styled = console::style(text).force_styling(true);
        if delta > Decimal::ZERO {
            styled.red().to_string()
        } else {
            styled.green().to_string()
        }
    }
}
