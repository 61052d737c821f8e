//! Reading items from files, for `ddbcost size` and `ddbcost keys` alike: files and
//! directories (export-to-S3 folders), gzip-compressed or not, one item per line (the export
//! format, JSON Lines) or a single (pretty-printed) item per file. Memory stays constant:
//! lines are read into one reused buffer and handed to a sink (`ItemSink`) that keeps only
//! what it measures. Large uncompressed files are split into line-aligned chunks and, like
//! separate files, read on all cores, one sink per worker; the sinks are then merged.
//!
//! This module reads files; what is measured from an item is the sink's business.

use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use super::item::{Shape, detect_shape};
use super::rules::MAX_ITEM_BYTES;
use crate::error::Error;

/// `inputs` with `-` (standard input) replaced by a private temporary copy of it, so that it
/// is read like any other file (chunked, in constant memory); the copy lives as long as the
/// returned guard.
///
/// # Errors
/// Standard input cannot be copied.
pub(crate) fn buffer_stdin(
    inputs: &[String],
) -> Result<(Option<tempfile::NamedTempFile>, Vec<String>), Error> {
    let stdin_copy = if inputs.iter().any(|i| i == crate::load::STDIN) {
        let mut tmp = tempfile::NamedTempFile::new()
            .map_err(|e| Error::input(format!("cannot buffer standard input: {e}")))?;
        std::io::copy(&mut crate::streams::stdin(), &mut tmp)
            .map_err(|e| Error::input(format!("cannot read standard input: {e}")))?;
        crate::confine::own(tmp.path());
        Some(tmp)
    } else {
        None
    };
    let inputs = inputs
        .iter()
        .map(|i| match (&stdin_copy, i.as_str()) {
            (Some(tmp), crate::load::STDIN) => tmp.path().display().to_string(),
            _ => i.clone(),
        })
        .collect();
    Ok((stdin_copy, inputs))
}

/// Chunks of an uncompressed file handed to one thread.
const CHUNK_BYTES: u64 = 32 * 1024 * 1024;

/// Examples of bad items kept per unit.
const EXAMPLES: usize = 20;

/// How items are read.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReadOptions {
    /// Force a shape instead of detecting it per file.
    pub shape: Option<Shape>,
    /// Stop at the first malformed item instead of counting it.
    pub strict: bool,
    /// Worker threads (0 = all cores).
    pub jobs: usize,
    /// Bytes per chunk a large uncompressed file is split into (`None`: 32 MiB).
    pub chunk_bytes: Option<u64>,
    /// Show a progress bar on standard error (the command sets it when that is a terminal).
    pub progress: bool,
}

/// A progress bar over the input bytes, with the items read so far.
struct Progress {
    bar: indicatif::ProgressBar,
    items: AtomicU64,
}

impl Progress {
    fn new(total: u64) -> Self {
        let bar = indicatif::ProgressBar::new(total);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:30} {binary_bytes}/{binary_total_bytes} {binary_bytes_per_sec} {msg} (eta {eta})",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        Progress {
            bar,
            items: AtomicU64::new(0),
        }
    }

    /// One more item; the message (items, items a second) is refreshed every 4,096.
    fn item(&self) {
        let n = self.items.fetch_add(1, Ordering::Relaxed).saturating_add(1);
        if n.trailing_zeros() >= 12 {
            let secs = self.bar.elapsed().as_secs().max(1);
            self.bar.set_message(format!(
                "{n} items, {} items/s",
                n.checked_div(secs).unwrap_or(n)
            ));
        }
    }
}

/// A reader that counts the bytes it hands out into the progress bar.
struct Counting<'p, R> {
    inner: R,
    progress: Option<&'p Progress>,
}

impl<R: Read> Read for Counting<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if let Some(p) = self.progress {
            p.bar.inc(n as u64);
        }
        Ok(n)
    }
}

/// Something wrong with one item, reported by a sink.
#[derive(Debug, Clone)]
pub(crate) struct Problem {
    /// The line within the unit (a pretty-printed document's own lines count).
    pub line: u64,
    pub message: String,
    /// Malformed (stops a strict read) rather than merely noted (an oversized item).
    pub malformed: bool,
}

/// What the reader hands each item to.
pub(crate) trait ItemSink {
    /// Input bytes a unit covers.
    fn input_bytes(&mut self, bytes: u64);
    /// A whole document longer than `bound` bytes: its item cannot be within 400 KB.
    fn oversized_document(&mut self, bound: u64) -> Problem;
    /// A line of `bytes` past `MAX_LINE_BYTES` at `line`, skipped unread: an item over 400 KB.
    fn oversized_line(&mut self, bytes: u64, line: u64) -> Problem;
    /// One item's JSON text found at `line` (within the unit).
    ///
    /// # Errors
    /// What the sink itself cannot do (it fails the read).
    fn item(&mut self, text: &[u8], line: u64, shape: Shape) -> Result<Option<Problem>, Error>;
}

/// What a read found besides what its sinks hold.
pub(crate) struct ReadDone<S> {
    /// One sink per worker, to be merged.
    pub sinks: Vec<S>,
    /// `file:line: message`, in file order, at most 20 per unit.
    pub examples: Vec<String>,
}

/// The files named by `inputs`: files as given, directories walked (sorted) for `.json`,
/// `.jsonl`, `.ndjson` and `.gz` files, skipping export manifests.
///
/// # Errors
/// A path that does not exist or cannot be read.
pub(crate) fn expand(inputs: &[String]) -> Result<Vec<PathBuf>, Error> {
    let mut out = Vec::new();
    for input in inputs {
        let path = Path::new(input);
        crate::confine::check(path)?;
        let meta = crate::confine::metadata(path).map_err(|e| {
            Error::input(format!("`{input}` cannot be read ({e})"))
                .file(input.as_str())
                .help("Consider checking the path.")
        })?;
        if meta.is_dir {
            walk(path, &mut out, &mut std::collections::HashSet::new()).map_err(|e| {
                Error::input(format!("cannot list `{input}`: {e}")).file(input.as_str())
            })?;
        } else if meta.is_file {
            out.push(path.to_path_buf());
        } else {
            return Err(
                Error::input(format!("`{input}` is not a regular file or directory"))
                    .file(input.as_str()),
            );
        }
    }
    if out.is_empty() {
        return Err(Error::input("no item files found")
            .help("Consider a file of items, or an export folder with .json or .json.gz files."));
    }
    Ok(out)
}

/// The item files under `dir`, symlinks followed (beneath the root with one), each folder
/// walked once however many links lead to it.
fn walk(
    dir: &Path,
    out: &mut Vec<PathBuf>,
    seen: &mut std::collections::HashSet<(u64, u64)>,
) -> std::io::Result<()> {
    for entry in crate::confine::read_dir(dir)? {
        let p = entry.path;
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if entry.meta.is_dir {
            if seen.insert(entry.meta.id) {
                walk(&p, out, seen)?;
            }
        } else if entry.meta.is_file
            && !name.starts_with("manifest-")
            && [".json", ".jsonl", ".ndjson", ".gz"]
                .iter()
                .any(|s| name.ends_with(s))
        {
            out.push(p);
        }
    }
    Ok(())
}

/// A piece of work: a whole file (compressed, small, or not line-delimited) or a byte range
/// of a large uncompressed one.
#[derive(Debug, Clone)]
struct Unit {
    file: usize,
    start: u64,
    end: u64,
    whole: bool,
}

/// What a unit reports besides what its items add to its worker's sink: lines read, the
/// first malformed item (strict mode), and examples of bad items, by line within the unit.
struct UnitDone {
    lines: u64,
    failure: Option<(u64, String)>,
    examples: Vec<(u64, String)>,
}

fn is_gzip(path: &Path) -> std::io::Result<bool> {
    let mut magic = [0u8; 2];
    let n = crate::confine::open(path)?.read(&mut magic)?;
    Ok(n == 2 && magic == [0x1f, 0x8b])
}

/// Whether a file holds one JSON document per line (its first line is a whole document).
/// Whether a file holds one item per line (an export's `.json.gz`, JSON Lines) rather than
/// one pretty-printed document. Decided from the name and a bounded look at the opening
/// bytes, never from whether the first line parses: one malformed or over-long first line
/// must not turn a million items into one bad document.
fn line_delimited(path: &Path) -> std::io::Result<bool> {
    if is_gzip(path)? {
        return Ok(true);
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    if name.ends_with(".jsonl") || name.ends_with(".ndjson") {
        return Ok(true);
    }
    let mut head = Vec::new();
    crate::confine::open(path)?
        .take(1 << 20)
        .read_to_end(&mut head)?;
    Ok(looks_line_delimited(&head))
}

/// The opening bytes of a file are items on lines when a line of them, at its first column,
/// opens and closes an object (`{"pk":{"S":"a"}}`): a pretty-printed document has only its
/// outer braces at the first column, alone on their lines. A first line longer than the
/// look (no newline in it) is an item on a line too: pretty-printed lines are short.
fn looks_line_delimited(head: &[u8]) -> bool {
    let mut lines = head.split(|b| *b == b'\n').peekable();
    if !head.contains(&b'\n') {
        let t = trim(head);
        // One line: an item alone (or an over-long one), read the same either way.
        return t.is_empty() || t.starts_with(b"{") || head.len() >= 1 << 20;
    }
    let mut complete_line = false;
    while let Some(line) = lines.next() {
        // The last piece may be cut by the look: judge only whole lines.
        if lines.peek().is_none() {
            break;
        }
        let end = trim(line);
        if line.first() == Some(&b'{') && end.len() > 1 && end.ends_with(b"}") {
            complete_line = true;
            break;
        }
    }
    complete_line
}

fn trim(line: &[u8]) -> &[u8] {
    let start = line
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(line.len());
    let end = line
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(start, |e| e.saturating_add(1));
    &line[start..end]
}

fn io_error(path: &Path, e: &std::io::Error) -> Error {
    if let Some(refused) = crate::bounded::refusal(e) {
        return refused;
    }
    let name = path.display().to_string();
    Error::io(
        format!("`{name}` cannot be read ({e})"),
        std::io::Error::new(e.kind(), e.to_string()),
    )
    .file(name)
}

/// The units of work `files` split into: each file whole, or a large uncompressed one in
/// line-aligned chunks of `chunk_bytes`.
fn units_of(files: &[PathBuf], options: &ReadOptions) -> Result<Vec<Unit>, Error> {
    let mut units = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let len = crate::confine::metadata(f)
            .map_err(|e| io_error(f, &e))?
            .len;
        let chunk = options.chunk_bytes.unwrap_or(CHUNK_BYTES).max(1);
        let splittable = len > chunk
            && !is_gzip(f).map_err(|e| io_error(f, &e))?
            && line_delimited(f).map_err(|e| io_error(f, &e))?;
        if splittable {
            let mut start = 0;
            while start < len {
                let end = start.saturating_add(chunk).min(len);
                units.push(Unit {
                    file: i,
                    start,
                    end,
                    whole: false,
                });
                start = end;
            }
        } else {
            units.push(Unit {
                file: i,
                start: 0,
                end: len,
                whole: true,
            });
        }
    }
    Ok(units)
}

/// Reads every item in `files` on `options.jobs` threads, each into its own sink from `make`.
///
/// # Errors
/// An unreadable file, what a sink returns; with `strict`, the first malformed item (file and
/// line).
pub(crate) fn read_parallel<S, F>(
    files: &[PathBuf],
    options: &ReadOptions,
    make: F,
) -> Result<ReadDone<S>, Error>
where
    S: ItemSink + Send,
    F: Fn() -> S + Sync,
{
    let units = units_of(files, options)?;
    let jobs = if options.jobs == 0 {
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
    } else {
        options.jobs
    };
    let progress = options.progress.then(|| {
        Progress::new(
            units
                .iter()
                .map(|u| u.end.saturating_sub(u.start))
                .fold(0, u64::saturating_add),
        )
    });
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let results: Mutex<Vec<Option<Result<UnitDone, Error>>>> =
        Mutex::new((0..units.len()).map(|_| None).collect());
    // Each worker reads under the run's confinement.
    let root = crate::confine::current();
    let limits = crate::bounded::limits();
    let workers: Vec<Option<S>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..jobs.clamp(1, units.len().max(1)))
            .map(|_| {
                let root = root.clone();
                s.spawn(|| {
                    crate::bounded::within(limits, || {
                        crate::confine::within(root, || {
                            let mut sink = make();
                            loop {
                                let i = next.fetch_add(1, Ordering::Relaxed);
                                if i >= units.len() || stop.load(Ordering::Relaxed) {
                                    break;
                                }
                                let unit = &units[i];
                                let done = run_unit(
                                    &files[unit.file],
                                    unit,
                                    options,
                                    &stop,
                                    &mut sink,
                                    progress.as_ref(),
                                );
                                if options.strict && matches!(&done, Ok(d) if d.failure.is_some()) {
                                    stop.store(true, Ordering::Relaxed);
                                }
                                // A poisoned lock means another worker panicked: the run fails below.
                                if let Ok(mut r) = results.lock() {
                                    r[i] = Some(done);
                                }
                            }
                            sink
                        })
                    })
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().ok()).collect()
    });
    // A worker that panicked took its items with it: fail the run rather than report a
    // summary that silently misses them.
    let worker_failed = || {
        Error::input("a worker thread failed while reading items; no summary is reported")
            .help("Consider `--jobs 1`, and report the input that caused it.")
    };
    if let Some(p) = &progress {
        p.bar.finish_and_clear();
    }
    let sinks: Vec<S> = workers
        .into_iter()
        .collect::<Option<_>>()
        .ok_or_else(worker_failed)?;
    let results = results.into_inner().map_err(|_| worker_failed())?;
    // Lines are counted per unit; a chunk's line numbers start after the chunks before it.
    let mut line_offset = vec![0u64; files.len()];
    let stopped = stop.load(Ordering::Relaxed);
    let mut examples = Vec::new();
    for (unit, done) in units.iter().zip(results) {
        let Some(done) = done else {
            if stopped {
                continue; // not run after a strict stop
            }
            return Err(worker_failed());
        };
        let done = done?;
        let name = files[unit.file].display().to_string();
        let offset = line_offset[unit.file];
        if let Some((line, message)) = done.failure {
            return Err(strict_error(message, name, offset.saturating_add(line)));
        }
        for (line, message) in done.examples {
            examples.push(format!("{name}:{}: {message}", offset.saturating_add(line)));
        }
        line_offset[unit.file] = line_offset[unit.file].saturating_add(done.lines);
    }
    Ok(ReadDone { sinks, examples })
}

fn strict_error(message: String, file: String, line: u64) -> Error {
    Error::input(message).file(file).at(Some((line, 1))).help(
        "Consider fixing the item, or running without --strict to count malformed items and go on.",
    )
}

/// Reads every item in `files`, in file order, on this thread, into `sink`; returns the
/// examples of bad items.
///
/// # Errors
/// As `read_parallel`.
pub(crate) fn read_sequential<S: ItemSink>(
    files: &[PathBuf],
    options: &ReadOptions,
    sink: &mut S,
) -> Result<Vec<String>, Error> {
    let stop = AtomicBool::new(false);
    let mut examples = Vec::new();
    let progress = if options.progress {
        let mut total = 0u64;
        for f in files {
            total = total.saturating_add(
                crate::confine::metadata(f)
                    .map_err(|e| io_error(f, &e))?
                    .len,
            );
        }
        Some(Progress::new(total))
    } else {
        None
    };
    for (i, path) in files.iter().enumerate() {
        let name = path.display().to_string();
        let len = crate::confine::metadata(path)
            .map_err(|e| io_error(path, &e))?
            .len;
        let unit = Unit {
            file: i,
            start: 0,
            end: len,
            whole: true,
        };
        let done = run_unit(path, &unit, options, &stop, sink, progress.as_ref())?;
        if let Some((line, message)) = done.failure {
            return Err(strict_error(message, name, line));
        }
        for (line, message) in done.examples {
            examples.push(format!("{name}:{line}: {message}"));
        }
    }
    if let Some(p) = &progress {
        p.bar.finish_and_clear();
    }
    Ok(examples)
}

/// Reads one unit, handing its items to `sink`.
fn run_unit<S: ItemSink + ?Sized>(
    path: &Path,
    unit: &Unit,
    options: &ReadOptions,
    stop: &AtomicBool,
    sink: &mut S,
    progress: Option<&Progress>,
) -> Result<UnitDone, Error> {
    let io = |e: std::io::Error| io_error(path, &e);
    let file = crate::confine::open(path).map_err(io)?;
    sink.input_bytes(unit.end.saturating_sub(unit.start));
    let mut done = UnitDone {
        lines: 0,
        failure: None,
        examples: Vec::new(),
    };
    let gzip = is_gzip(path).map_err(io)?;
    let reader: Box<dyn Read> = if gzip {
        Box::new(crate::bounded::Bounded::whole_file(
            flate2::read::MultiGzDecoder::new(BufReader::new(Counting {
                inner: file,
                progress,
            })),
            &path.display().to_string(),
        ))
    } else {
        let mut f = file;
        f.seek(SeekFrom::Start(unit.start)).map_err(io)?;
        Box::new(Counting { inner: f, progress })
    };
    if unit.whole && !line_delimited(path).map_err(io)? {
        // One (pretty-printed) document per file: read it whole, within a bound. A document
        // past the bound cannot hold an item of at most 400 KB.
        let bound = MAX_ITEM_BYTES * 16;
        let mut text = Vec::new();
        reader.take(bound + 1).read_to_end(&mut text).map_err(io)?;
        done.lines = 1;
        if text.len() as u64 > bound {
            let p = sink.oversized_document(bound);
            done.examples.push((p.line, p.message));
            return Ok(done);
        }
        let text = trim(&text);
        let shape = options.shape.unwrap_or_else(|| detect_shape(text));
        let problem = sink.item(text, 1, shape)?;
        if let Some(p) = progress {
            p.item();
        }
        note(problem, options, &mut done);
        return Ok(done);
    }
    let mut pos = unit.start;
    let mut lines = Lines::new(reader);
    if !unit.whole && unit.start > 0 {
        // A line straddling the chunk's start belongs to the chunk before.
        let mut byte = [0u8; 1];
        let mut before = crate::confine::open(path).map_err(io)?;
        before
            .seek(SeekFrom::Start(unit.start.saturating_sub(1)))
            .map_err(io)?;
        before.read_exact(&mut byte).map_err(io)?;
        if byte[0] != b'\n' {
            let skipped = match lines.next().map_err(io)? {
                None => 0,
                Some(Line::Text(line)) => line.len() as u64,
                Some(Line::Oversized(bytes)) => bytes,
            };
            pos = pos.saturating_add(skipped);
        }
    }
    let mut shape = options.shape;
    loop {
        if !unit.whole && pos >= unit.end {
            break;
        }
        let line = match lines.next().map_err(io)? {
            None => break,
            Some(Line::Text(line)) => line,
            Some(Line::Oversized(bytes)) => {
                pos = pos.saturating_add(bytes);
                done.lines = done.lines.saturating_add(1);
                let p = sink.oversized_line(bytes, done.lines);
                if !note(Some(p), options, &mut done) {
                    break;
                }
                continue;
            }
        };
        pos = pos.saturating_add(line.len() as u64);
        done.lines = done.lines.saturating_add(1);
        let text = trim(line);
        if text.is_empty() {
            continue;
        }
        // The first item that parses decides the shape; a malformed line before it does not.
        let s = match shape {
            Some(s) => s,
            None => match crate::size::item::try_detect_shape(text) {
                Some(s) => *shape.insert(s),
                None => Shape::Plain,
            },
        };
        let problem = sink.item(text, done.lines, s)?;
        if let Some(p) = progress {
            p.item();
        }
        if !note(problem, options, &mut done) || (options.strict && stop.load(Ordering::Relaxed)) {
            break;
        }
    }
    Ok(done)
}

/// The longest line kept: far above what a 400 KB item takes in DynamoDB JSON (type
/// wrappers and escapes at most quadruple it), far below what would exhaust memory.
pub(crate) const MAX_LINE_BYTES: usize = 16 << 20;

/// A line, or the length of one past `MAX_LINE_BYTES` that was skipped unread.
enum Line<'a> {
    Text(&'a [u8]),
    Oversized(u64),
}

/// Lines split in place over large reads: each line is handed out as a slice of the read
/// buffer (with its `\n`, if any), never copied; a partial line at the end of the buffer is
/// moved to its front before the next read, and the buffer doubles for a line longer than it,
/// up to `MAX_LINE_BYTES`: past it the rest of the line is read and dropped.
struct Lines<R> {
    reader: R,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    eof: bool,
}

impl<R: Read> Lines<R> {
    fn new(reader: R) -> Self {
        Lines {
            reader,
            buf: vec![0; 1 << 20],
            start: 0,
            end: 0,
            eof: false,
        }
    }

    fn next(&mut self) -> std::io::Result<Option<Line<'_>>> {
        loop {
            let pending = self.buf.get(self.start..self.end).unwrap_or_default();
            let cut = match memchr::memchr(b'\n', pending) {
                Some(nl) => Some(nl.saturating_add(1)),
                None if self.eof && !pending.is_empty() => Some(pending.len()),
                None if self.eof => return Ok(None),
                None => None,
            };
            if let Some(len) = cut {
                let from = self.start;
                self.start = from.saturating_add(len);
                return Ok(self.buf.get(from..self.start).map(Line::Text));
            }
            if pending.len() >= MAX_LINE_BYTES {
                return self.skip_line().map(|bytes| Some(Line::Oversized(bytes)));
            }
            self.buf.copy_within(self.start..self.end, 0);
            self.end = self.end.saturating_sub(self.start);
            self.start = 0;
            if self.end == self.buf.len() {
                let bigger = self.buf.len().saturating_mul(2).min(MAX_LINE_BYTES);
                self.buf.resize(bigger, 0);
            }
            self.fill()?;
        }
    }

    /// Reads more into the free end of the buffer.
    fn fill(&mut self) -> std::io::Result<()> {
        let Some(free) = self.buf.get_mut(self.end..) else {
            return Ok(());
        };
        match self.reader.read(free) {
            Ok(0) => self.eof = true,
            Ok(n) => self.end = self.end.saturating_add(n),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
        Ok(())
    }

    /// Drops the rest of an over-long line (through its `\n`); its length in bytes.
    fn skip_line(&mut self) -> std::io::Result<u64> {
        let mut skipped = 0u64;
        loop {
            let pending = self.buf.get(self.start..self.end).unwrap_or_default();
            if let Some(nl) = memchr::memchr(b'\n', pending) {
                let len = nl.saturating_add(1);
                self.start = self.start.saturating_add(len);
                return Ok(skipped.saturating_add(len as u64));
            }
            skipped = skipped.saturating_add(pending.len() as u64);
            self.start = 0;
            self.end = 0;
            if self.eof {
                return Ok(skipped);
            }
            self.fill()?;
        }
    }
}

/// Records a sink's problem; `false` when a strict read must stop.
fn note(problem: Option<Problem>, options: &ReadOptions, done: &mut UnitDone) -> bool {
    let Some(p) = problem else { return true };
    if p.malformed && options.strict {
        done.failure = Some((p.line, p.message));
        return false;
    }
    if done.examples.len() < EXAMPLES {
        done.examples.push((p.line, p.message));
    }
    true
}

/// A serde_json error on an item starting at `line`, as a problem. serde_json counts lines
/// within the document: for one item per line that is the column; for a pretty-printed
/// file, the line.
#[must_use]
pub(crate) fn malformed(e: &serde_json::Error, line: u64) -> Problem {
    let inner = e.to_string();
    let why = inner
        .rsplit_once(" at line ")
        .map_or(inner.as_str(), |(w, _)| w);
    Problem {
        line: line.saturating_add(e.line().saturating_sub(1) as u64),
        message: format!("malformed item: {why} (column {})", e.column()),
        malformed: true,
    }
}
