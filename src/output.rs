//! Writing reports: to standard output, or to a file atomically (a temporary file in the
//! same directory, renamed over the target), so a failed run never leaves a half-written
//! report and an existing one is replaced in one step.

use std::io::Write;
use std::path::Path;

use crate::error::Error;

/// Writes `contents` to `path` atomically.
///
/// # Errors
/// The directory does not exist or is not writable, or the disk is full.
pub fn write_atomic(path: &str, contents: &[u8]) -> Result<(), Error> {
    stream_atomic(path, &mut |w| {
        w.write_all(contents)
            .map_err(|e| Error::input(format!("cannot write `{path}`: {e}")))
    })
}

/// Streams what `write` produces into `path` atomically: into a temporary file beside it,
/// renamed over the target only when `write` succeeds (a failed run leaves nothing behind).
///
/// # Errors
/// The directory does not exist or is not writable, the disk is full, or `write` fails.
pub fn stream_atomic(
    path: &str,
    write: &mut dyn FnMut(&mut dyn Write) -> Result<(), Error>,
) -> Result<(), Error> {
    let target = Path::new(path);
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let fail = |why: String| {
        Error::input(format!("cannot write `{path}`: {why}"))
            .file(path)
            .help("Consider an existing, writable directory for --output.")
    };
    if !dir.is_dir() {
        return Err(fail(format!(
            "directory `{}` does not exist",
            dir.display()
        )));
    }
    if target.is_dir() {
        return Err(fail("it is a directory".into()));
    }
    let tmp = tempfile::Builder::new()
        .prefix(".ddbcost-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| fail(e.to_string()))?;
    let mut buffered = std::io::BufWriter::new(tmp);
    write(&mut buffered)?;
    let tmp = buffered
        .into_inner()
        .map_err(|e| fail(e.error().to_string()))?;
    // A temporary file is private (0600); a report is not: keep the replaced file's mode, or
    // use the usual 0644.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(target).map_or(0o644, |m| m.permissions().mode() & 0o777);
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(mode))
            .map_err(|e| fail(e.to_string()))?;
    }
    tmp.as_file().sync_all().map_err(|e| fail(e.to_string()))?;
    tmp.persist(target).map_err(|e| fail(e.error.to_string()))?;
    Ok(())
}

/// Streams what `write` produces to `output` (atomically) if given and not `-`, else to
/// standard output.
///
/// # Errors
/// As `stream_atomic`, or standard output is closed.
pub fn stream(
    output: Option<&str>,
    write: &mut dyn FnMut(&mut dyn Write) -> Result<(), Error>,
) -> Result<(), Error> {
    match output {
        Some(path) if path != "-" => stream_atomic(path, write),
        _ => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            write(&mut out)?;
            match out.flush() {
                Ok(()) => Ok(()),
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                Err(e) => Err(Error::input(format!(
                    "cannot write to standard output: {e}"
                ))),
            }
        }
    }
}

/// Writes to `output` if given (and not `-`), else to standard output.
///
/// # Errors
/// As `write_atomic`, or standard output is closed.
pub fn emit(output: Option<&str>, contents: &str) -> Result<(), Error> {
    match output {
        // `-o -` is standard output, as the shell convention has it (not a file named `-`).
        Some(path) if path != "-" => write_atomic(path, contents.as_bytes()),
        _ => {
            let mut out = std::io::stdout().lock();
            match out
                .write_all(contents.as_bytes())
                .and_then(|()| out.flush())
            {
                Ok(()) => Ok(()),
                // A closed pipe (`| head`) is not an error worth reporting.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                Err(e) => Err(Error::input(format!(
                    "cannot write to standard output: {e}"
                ))),
            }
        }
    }
}
