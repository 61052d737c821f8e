//! The one folder a run may read from (`--root DIR`): when it is set, every input file a
//! command opens (workloads, price tables and price folders, usage files, item samples and
//! exports, key logs, templates, bills, CloudWatch files) must resolve, symlinks followed,
//! to a path inside it; an absolute path elsewhere, a `..` that climbs out or a symlink that
//! points out is refused before anything is read. `ddbcost mcp` runs every tool under it.
//! Without `--root` nothing is confined. Standard input (`-`) is always allowed.
//!
//! The check resolves the path when it is made: a file swapped for a symlink between the
//! check and the open is not caught (the folder is the user's own, not an attacker's).

use std::path::{Component, Path, PathBuf};
use std::sync::{PoisonError, RwLock};

use crate::error::Error;

static ROOT: RwLock<Option<PathBuf>> = RwLock::new(None);

/// Files of the run's own making that it may read wherever they are (the private copy of
/// standard input that `size` and `keys` read like a file).
static OWN: RwLock<Vec<PathBuf>> = RwLock::new(Vec::new());

/// Lets this run read `path`, a file it made itself, wherever the root is.
pub(crate) fn own(path: &Path) {
    if let Ok(real) = path.canonicalize() {
        OWN.write()
            .unwrap_or_else(PoisonError::into_inner)
            .push(real);
    }
}

/// Confines this process's reads to `dir` (`None`: no confinement), until set again.
///
/// # Errors
/// `dir` does not exist or is not a folder.
pub(crate) fn set(dir: Option<&str>) -> Result<(), Error> {
    let root = match dir {
        None => None,
        Some(d) => {
            let canon = Path::new(d).canonicalize().map_err(|e| {
                Error::usage(format!("--root `{d}` cannot be used ({e})"))
                    .help("Consider an existing folder.")
            })?;
            if !canon.is_dir() {
                return Err(Error::usage(format!("--root `{d}` is not a folder"))
                    .help("Consider the folder the files to read are in."));
            }
            Some(canon)
        }
    };
    *ROOT.write().unwrap_or_else(PoisonError::into_inner) = root;
    Ok(())
}

/// The folder this run may read, resolved (`None`: no confinement).
pub(crate) fn root() -> Option<PathBuf> {
    ROOT.read().unwrap_or_else(PoisonError::into_inner).clone()
}

/// Refuses `path` when a root is set and `path` is not inside it.
///
/// # Errors
/// The path resolves outside the root.
pub(crate) fn check(path: &Path) -> Result<(), Error> {
    let guard = ROOT.read().unwrap_or_else(PoisonError::into_inner);
    let Some(root) = guard.as_ref() else {
        return Ok(());
    };
    if path.as_os_str() == crate::load::STDIN {
        return Ok(());
    }
    if inside(root, path) {
        return Ok(());
    }
    let own = OWN.read().unwrap_or_else(PoisonError::into_inner);
    if path.canonicalize().is_ok_and(|real| own.contains(&real)) {
        return Ok(());
    }
    let shown = path.display().to_string();
    Err(Error::input(format!(
        "`{shown}` is outside the folder this run may read (--root `{}`)",
        root.display()
    ))
    .file(shown)
    .help("Consider a path inside that folder (no absolute path elsewhere, no `..` out, no symlink out), or pass the document's text itself."))
}

/// Whether `path` (relative to the working directory) resolves inside `root`.
fn inside(root: &Path, path: &Path) -> bool {
    if let Ok(real) = path.canonicalize() {
        return real.starts_with(root);
    }
    // It does not exist (yet): the deepest part that exists must resolve inside, and the
    // rest may not climb.
    let mut existing = path;
    let mut rest: Vec<Component<'_>> = Vec::new();
    loop {
        let Some(parent) = existing.parent() else {
            return false;
        };
        if let Some(name) = existing.components().next_back() {
            rest.push(name);
        }
        existing = if parent.as_os_str().is_empty() {
            Path::new(".")
        } else {
            parent
        };
        if let Ok(real) = existing.canonicalize() {
            return real.starts_with(root)
                && rest.iter().all(|c| matches!(c, Component::Normal(_)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_resolve_before_they_are_judged() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir(root.join("in")).unwrap();
        std::fs::write(root.join("in/w.yaml"), "x").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink("/etc", root.join("in/out")).unwrap();
        assert!(inside(&root, &root.join("in/w.yaml")));
        assert!(inside(&root, &root.join("in/new.yaml")));
        assert!(!inside(&root, &root.join("in/../../x")));
        assert!(!inside(&root, Path::new("/etc/passwd")));
        #[cfg(unix)]
        assert!(!inside(&root, &root.join("in/out/passwd")));
        #[cfg(unix)]
        assert!(!inside(&root, &root.join("in/out/nothing-here")));
    }
}
