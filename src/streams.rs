//! A run's standard streams: the process's, or — for a run in memory (`api::run_in_memory`:
//! the WebAssembly page, tests) — a text given as standard input and the two output
//! streams captured as text. The one place below `api` that touches the process's standard
//! streams for reports, warnings and `-` inputs; the redirection is per thread and lasts
//! one run, so a run in memory never reads or writes the process's streams.

use std::cell::RefCell;
use std::io::{Read, Write};

/// What a run in memory was given and what it wrote.
#[derive(Debug, Default)]
pub(crate) struct Captured {
    stdin: std::io::Cursor<Vec<u8>>,
    pub(crate) stdout: Vec<u8>,
    pub(crate) stderr: Vec<u8>,
}

thread_local! {
    static MEMORY: RefCell<Option<Captured>> = const { RefCell::new(None) };
}

/// Runs `f` with `stdin` as its standard input and its standard output and error captured;
/// the streams of the process are restored after, even when `f` panics.
pub(crate) fn in_memory<R>(stdin: &str, f: impl FnOnce() -> R) -> (R, Captured) {
    struct Restore(Option<Captured>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let outer = self.0.take();
            MEMORY.with(|m| *m.borrow_mut() = outer);
        }
    }
    let fresh = Captured {
        stdin: std::io::Cursor::new(stdin.as_bytes().to_vec()),
        ..Captured::default()
    };
    let outer = MEMORY.with(|m| m.borrow_mut().replace(fresh));
    let restore = Restore(outer);
    let result = f();
    let captured = MEMORY.with(|m| m.borrow_mut().take()).unwrap_or_default();
    drop(restore);
    (result, captured)
}

/// Whether this thread's run is in memory.
pub(crate) fn is_in_memory() -> bool {
    MEMORY.with(|m| m.borrow().is_some())
}

/// Up to `max` bytes of standard input (the given text, in memory).
///
/// # Errors
/// Standard input cannot be read.
pub(crate) fn read_stdin(max: u64) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let in_memory = MEMORY.with(|m| {
        m.borrow_mut()
            .as_mut()
            .map(|c| (&mut c.stdin).take(max).read_to_end(&mut bytes))
    });
    match in_memory {
        Some(read) => read.map(|_| bytes),
        None => {
            std::io::stdin().lock().take(max).read_to_end(&mut bytes)?;
            Ok(bytes)
        }
    }
}

/// Standard input as a reader: the process's, or the rest of the given text.
pub(crate) fn stdin() -> Box<dyn Read> {
    let rest = MEMORY.with(|m| {
        m.borrow_mut().as_mut().map(|c| {
            let mut rest = Vec::new();
            // Reading a cursor cannot fail.
            let _ = c.stdin.read_to_end(&mut rest);
            rest
        })
    });
    match rest {
        Some(bytes) => Box::new(std::io::Cursor::new(bytes)),
        None => Box::new(std::io::stdin().lock()),
    }
}

/// Writes what `write` produces to standard output (captured, in memory).
///
/// # Errors
/// What `write` returns; a failed flush of the process's standard output.
pub(crate) fn to_stdout<E>(
    write: &mut dyn FnMut(&mut dyn Write) -> Result<(), E>,
    flush_failed: impl FnOnce(&std::io::Error) -> E,
) -> Result<(), E> {
    let captured = MEMORY.with(|m| {
        m.borrow_mut().as_mut().map(|_| {
            let mut out = Vec::new();
            write(&mut out).map(|()| out)
        })
    });
    match captured {
        Some(out) => {
            let out = out?;
            MEMORY.with(|m| {
                if let Some(c) = m.borrow_mut().as_mut() {
                    c.stdout.extend_from_slice(&out);
                }
            });
            Ok(())
        }
        None => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            write(&mut out)?;
            out.flush().map_err(|e| flush_failed(&e))
        }
    }
}

/// A line on standard error (captured, in memory); a failure to write it is ignored.
pub(crate) fn error_line(line: &str) {
    let in_memory = MEMORY.with(|m| {
        m.borrow_mut().as_mut().map(|c| {
            c.stderr.extend_from_slice(line.as_bytes());
            c.stderr.push(b'\n');
        })
    });
    if in_memory.is_none() {
        let mut err = std::io::stderr().lock();
        let _ = writeln!(err, "{line}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_in_memory_reads_and_writes_only_its_own_streams() {
        let ((), captured) = in_memory("tables: {}\n", || {
            assert!(is_in_memory());
            assert_eq!(read_stdin(5).unwrap(), b"table");
            let mut rest = String::new();
            stdin().read_to_string(&mut rest).unwrap();
            assert_eq!(rest, "s: {}\n");
            to_stdout::<std::io::Error>(&mut |w| w.write_all(b"report"), |e| {
                std::io::Error::new(e.kind(), e.to_string())
            })
            .unwrap();
            error_line("warning: w");
        });
        assert!(!is_in_memory());
        assert_eq!(captured.stdout, b"report");
        assert_eq!(captured.stderr, b"warning: w\n");
    }

    #[test]
    fn runs_in_memory_nest_and_restore() {
        let ((), outer) = in_memory("", || {
            let ((), inner) = in_memory("", || error_line("inner"));
            assert_eq!(inner.stderr, b"inner\n");
            error_line("outer");
        });
        assert_eq!(outer.stderr, b"outer\n");
    }
}
