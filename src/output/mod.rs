//! Writing what commands produce, and nothing else (with `Diagnostics`, what a run says on
//! standard error, each note once): reports to standard output, to a regular
//! file atomically (a temporary file in the file's real directory, renamed over it, so a
//! failed or interrupted run leaves neither a half-written report nor a temporary file), or in
//! place to what must never be replaced (a device, a FIFO, `/dev/stdout`); several files all
//! or none (`Batch`); warnings to standard error, never failing when it is closed. A closed
//! standard output ends a command the same quiet way everywhere (`Error::closed_pipe`).

mod diagnostics;
mod target;
mod temp;

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::Error;
pub(crate) use diagnostics::Diagnostics;
pub(crate) use target::{Target, resolve};
#[cfg(not(target_arch = "wasm32"))]
pub(crate) use temp::contained;
pub(crate) use temp::install_cleanup;

/// A line on standard error. A closed or full standard error must not end the command (the
/// report on standard output still matters), so a failure to write it is ignored.
pub(crate) fn warn(line: &str) {
    crate::streams::error_line(line);
}

fn io_fail(path: &str, e: &std::io::Error) -> Error {
    Error::io(
        format!("cannot write `{path}`: {e}"),
        std::io::Error::new(e.kind(), e.to_string()),
    )
    .file(path)
    .help("Consider an existing, writable directory for --output.")
}

/// Writes `contents` to `path` (see `stream_to`).
///
/// # Errors
/// As `stream_to`.
pub(crate) fn write_atomic(path: &str, contents: &[u8]) -> Result<(), Error> {
    stream_to(path, &mut |w| {
        w.write_all(contents)
            .map_err(|e| Error::writing(&format!("`{path}`"), &e))
    })
}

/// Streams what `write` produces to `path`: `-` is standard output, a regular file is
/// replaced atomically, a device or FIFO is written in place.
///
/// # Errors
/// The target is refused (`target::resolve`), the directory is not writable, the disk is
/// full, or `write` fails.
pub(crate) fn stream_to(
    path: &str,
    write: &mut dyn FnMut(&mut dyn Write) -> Result<(), Error>,
) -> Result<(), Error> {
    match resolve(path)? {
        Target::Stdout => to_stdout(write),
        Target::InPlace(file) => in_place(path, &file, write),
        Target::File { file, existing } => {
            let temp = staged(path, &file, existing.as_ref(), write)?;
            commit(path, temp, &file)
        }
    }
}

/// Streams what `write` produces to `output` if given, else to standard output.
///
/// # Errors
/// As `stream_to`; a closed standard output is `Error::closed_pipe`.
pub(crate) fn stream(
    output: Option<&str>,
    write: &mut dyn FnMut(&mut dyn Write) -> Result<(), Error>,
) -> Result<(), Error> {
    stream_to(output.unwrap_or("-"), write)
}

/// Writes `contents` to `output` if given (`-` is standard output), else to standard output.
///
/// # Errors
/// As `stream_to`.
pub(crate) fn emit(output: Option<&str>, contents: &str) -> Result<(), Error> {
    write_atomic(output.unwrap_or("-"), contents.as_bytes())
}

fn to_stdout(write: &mut dyn FnMut(&mut dyn Write) -> Result<(), Error>) -> Result<(), Error> {
    crate::streams::to_stdout(write, |e| Error::writing("to standard output", e))
}

fn in_place(
    path: &str,
    file: &Path,
    write: &mut dyn FnMut(&mut dyn Write) -> Result<(), Error>,
) -> Result<(), Error> {
    // No truncation and no creation: what is there (a device, a FIFO's reader) stays.
    let handle = std::fs::OpenOptions::new()
        .write(true)
        .open(file)
        .map_err(|e| io_fail(path, &e))?;
    let mut out = std::io::BufWriter::new(handle);
    write(&mut out)?;
    out.flush()
        .map_err(|e| Error::writing(&format!("`{path}`"), &e))
}

/// Writes into a temporary file beside `file`, with the mode (and, as root, the owner) of
/// the file it replaces.
fn staged(
    path: &str,
    file: &Path,
    existing: Option<&std::fs::Metadata>,
    write: &mut dyn FnMut(&mut dyn Write) -> Result<(), Error>,
) -> Result<temp::Temp, Error> {
    let mut temp = temp::Temp::create_in(target::parent(file)).map_err(|e| io_fail(path, &e))?;
    {
        let mut buffered = std::io::BufWriter::new(&mut temp);
        write(&mut buffered)?;
        buffered
            .flush()
            .map_err(|e| Error::writing(&format!("`{path}`"), &e))?;
    }
    keep_attributes(temp.file(), existing).map_err(|e| io_fail(path, &e))?;
    temp.file().sync_all().map_err(|e| io_fail(path, &e))?;
    Ok(temp)
}

/// A temporary file is private (0600); a report is not: keep the replaced file's mode, or
/// use the usual 0644.
fn keep_attributes(
    file: &std::fs::File,
    existing: Option<&std::fs::Metadata>,
) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let mode = existing.map_or(0o644, |m| m.permissions().mode() & 0o7777);
        file.set_permissions(std::fs::Permissions::from_mode(mode))?;
        if let Some(m) = existing {
            // Only root can give a file away; for anyone else the owner is already theirs.
            let _ = std::os::unix::fs::fchown(file, Some(m.uid()), Some(m.gid()));
        }
    }
    #[cfg(not(unix))]
    let _ = (file, existing);
    Ok(())
}

fn commit(path: &str, temp: temp::Temp, file: &Path) -> Result<(), Error> {
    temp.persist(file).map_err(|e| io_fail(path, &e))
}

/// Several files written all or none: each is staged (resolved and written to its temporary
/// file) as it is added; `commit` renames them all only once every one is staged. Dropping a
/// batch, or an error while staging, removes what was staged and touches no target.
#[derive(Default)]
pub(crate) struct Batch {
    staged: Vec<Staged>,
}

enum Staged {
    File {
        path: String,
        file: PathBuf,
        temp: temp::Temp,
    },
    /// Standard output, a device or a FIFO: written at commit, as nothing can be staged.
    Later { path: String, contents: Vec<u8> },
}

impl Batch {
    #[must_use]
    pub(crate) fn new() -> Self {
        Batch::default()
    }

    /// Stages `contents` for `path`.
    ///
    /// # Errors
    /// As `stream_to`; the same real file twice in one batch is refused.
    pub(crate) fn add(&mut self, path: &str, contents: &[u8]) -> Result<(), Error> {
        match resolve(path)? {
            Target::File { file, existing } => {
                if self
                    .staged
                    .iter()
                    .any(|s| matches!(s, Staged::File { file: f, .. } if *f == file))
                {
                    return Err(Error::input(format!(
                        "`{path}` would be written twice by one command"
                    ))
                    .help("Consider separate output paths."));
                }
                let temp = staged(path, &file, existing.as_ref(), &mut |w| {
                    w.write_all(contents)
                        .map_err(|e| Error::writing(&format!("`{path}`"), &e))
                })?;
                self.staged.push(Staged::File {
                    path: path.to_string(),
                    file,
                    temp,
                });
            }
            Target::Stdout | Target::InPlace(_) => self.staged.push(Staged::Later {
                path: path.to_string(),
                contents: contents.to_vec(),
            }),
        }
        Ok(())
    }

    /// Renames every staged file over its target, then writes the in-place ones.
    ///
    /// # Errors
    /// A rename or an in-place write fails (after every file was staged: the disk was not
    /// full and every directory writable, so this is rare; the files renamed before it stay).
    pub(crate) fn commit(self) -> Result<(), Error> {
        let mut later = Vec::new();
        for staged in self.staged {
            match staged {
                Staged::File { path, file, temp } => commit(&path, temp, &file)?,
                Staged::Later { path, contents } => later.push((path, contents)),
            }
        }
        for (path, contents) in later {
            write_atomic(&path, &contents)?;
        }
        Ok(())
    }
}
