//! What an `--output` path names, decided before anything is written: standard output (`-`),
//! a regular file (new or existing, reached directly or through symlinks) that is replaced
//! atomically, or something that is written in place because replacing it would destroy it
//! (a device such as `/dev/null`, a FIFO, `/dev/stdout`). A directory, a socket, a loop of
//! symlinks and a file without write permission are refused here, so nothing is touched.

use std::fs::Metadata;
use std::path::{Path, PathBuf};

use crate::error::Error;

/// Symlinks followed before a chain is called a loop (Linux's own limit is 40).
const MAX_LINKS: usize = 40;

#[derive(Debug)]
pub(crate) enum Target {
    /// `-`: standard output.
    Stdout,
    /// A regular file, replaced through a temporary file in its own directory. `file` is the
    /// real path (a symlink's final target), so the link itself survives.
    File {
        file: PathBuf,
        /// What the file is now, if it exists: its mode and owner are kept.
        existing: Option<Metadata>,
    },
    /// Opened for writing and written in place (no truncation, no rename).
    InPlace(PathBuf),
}

fn refuse(path: &str, why: impl std::fmt::Display, help: &str) -> Error {
    Error::input(format!("cannot write `{path}`: {why}"))
        .file(path)
        .help(help.to_string())
}

/// Decides what `path` is (see the module's note).
///
/// # Errors
/// A directory, a socket, a symlink loop, a missing directory, or a file without write
/// permission.
pub(crate) fn resolve(path: &str) -> Result<Target, Error> {
    if path == "-" {
        return Ok(Target::Stdout);
    }
    let given = Path::new(path);
    let file = match std::fs::symlink_metadata(given) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => given.to_path_buf(),
        Err(e) => {
            return Err(refuse(
                path,
                e,
                "Consider a path in a directory you can read.",
            ));
        }
        Ok(m) if m.file_type().is_symlink() => return through_link(path, given),
        Ok(_) => given.to_path_buf(),
    };
    classify(path, &file)
}

/// A symlink: what it points at decides. `/dev/stdout` and `/proc/self/fd/N` point at
/// pipes and terminals that have no path of their own, so they are written through the link.
fn through_link(path: &str, link: &Path) -> Result<Target, Error> {
    match std::fs::metadata(link) {
        Ok(m) if m.is_file() => {
            let real = std::fs::canonicalize(link)
                .map_err(|e| refuse(path, e, "Consider the link's target itself."))?;
            if real.starts_with("/proc") || real.starts_with("/dev") {
                return Ok(Target::InPlace(link.to_path_buf()));
            }
            classify(path, &real)
        }
        Ok(m) if m.is_dir() => Err(refuse(
            path,
            "it is a directory (through a symlink)",
            "Consider a file name inside it.",
        )),
        Ok(_) => classify(path, link),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // A dangling link: the file it names is created, and the link then reaches it.
            classify(path, &dangling_target(path, link)?)
        }
        Err(e) => Err(refuse(
            path,
            e,
            "Consider a symlink that ends at a file (this one may loop).",
        )),
    }
}

/// The path a dangling chain of symlinks ends at.
fn dangling_target(path: &str, link: &Path) -> Result<PathBuf, Error> {
    let mut current = link.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&current) {
            Ok(m) if m.file_type().is_symlink() => {
                let next = std::fs::read_link(&current)
                    .map_err(|e| refuse(path, e, "Consider the link's target itself."))?;
                current = if next.is_absolute() {
                    next
                } else {
                    current.parent().unwrap_or(Path::new(".")).join(next)
                };
            }
            _ => return Ok(current),
        }
    }
    Err(refuse(
        path,
        format!("more than {MAX_LINKS} symlinks in a row (a loop?)"),
        "Consider the final file's own path.",
    ))
}

fn classify(path: &str, file: &Path) -> Result<Target, Error> {
    match std::fs::metadata(file) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let dir = parent(file);
            if !dir.is_dir() {
                return Err(refuse(
                    path,
                    format!("directory `{}` does not exist", dir.display()),
                    "Consider an existing, writable directory for --output.",
                ));
            }
            Ok(Target::File {
                file: file.to_path_buf(),
                existing: None,
            })
        }
        Err(e) => Err(refuse(path, e, "Consider another --output.")),
        Ok(m) if m.is_dir() => Err(refuse(
            path,
            "it is a directory",
            "Consider a file name inside it.",
        )),
        Ok(m) if m.is_file() => {
            writable(path, file, &m)?;
            Ok(Target::File {
                file: file.to_path_buf(),
                existing: Some(m),
            })
        }
        Ok(m) => special(path, file, &m),
    }
}

/// Devices and FIFOs are written in place; a socket cannot be opened as a file.
#[cfg(unix)]
fn special(path: &str, file: &Path, m: &Metadata) -> Result<Target, Error> {
    use std::os::unix::fs::FileTypeExt;
    if m.file_type().is_socket() {
        return Err(refuse(
            path,
            "it is a socket",
            "Consider a regular file, a FIFO or `-` (standard output).",
        ));
    }
    Ok(Target::InPlace(file.to_path_buf()))
}

#[cfg(not(unix))]
fn special(_path: &str, file: &Path, _m: &Metadata) -> Result<Target, Error> {
    Ok(Target::InPlace(file.to_path_buf()))
}

/// A file whose owner took away write permission is protected on purpose: root could replace
/// it (permissions do not bind root), but a report must not. The open also asks the system,
/// which knows ACLs and read-only mounts.
fn writable(path: &str, file: &Path, m: &Metadata) -> Result<(), Error> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = m.permissions().mode();
        if mode & 0o222 == 0 {
            return Err(refuse(
                path,
                format!("it is read-only (mode {:o})", mode & 0o7777),
                "Consider another --output, or make the file writable first (`chmod u+w`).",
            ));
        }
    }
    #[cfg(not(unix))]
    if m.permissions().readonly() {
        return Err(refuse(
            path,
            "it is read-only",
            "Consider another --output, or make the file writable first.",
        ));
    }
    std::fs::OpenOptions::new()
        .write(true)
        .open(file)
        .map(drop)
        .map_err(|e| refuse(path, e, "Consider another --output."))
}

/// The directory a file lives in (`.` for a bare name).
pub(super) fn parent(file: &Path) -> &Path {
    match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}
