//! The one folder a run may read from (`--root DIR`), and the opener every reader uses.
//!
//! Without `--root` a path is opened as the operating system opens it. With it, the folder
//! is opened once as a handle (`Root`) when the run starts, and every input file a command
//! reads (workloads, price tables and folders, usage files, item samples and exports, key
//! logs, templates, bills, CloudWatch files) is opened *beneath that handle*, one component
//! at a time, by `cap-std` (`openat2` with `RESOLVE_BENEATH` where the kernel has it, a
//! checked walk elsewhere): an absolute path elsewhere, a `..` that climbs out or a symlink
//! that points out fails at the open itself, so a path swapped for a symlink between a check
//! and the read cannot lead out. Symlinks that stay inside are followed. Under a root, only
//! regular files are opened (a FIFO or device swapped in is refused, never waited on).
//!
//! `--no-files` (what `ddbcost mcp` gives its children when it has no root) reads nothing
//! at all: every path is refused. Standard input (`-`) is always allowed, and so are files
//! the run made itself (`own`: the private copy of standard input that `size` and `keys`
//! read like a file).
//!
//! The root is a value of the run (`Run::root`), put in scope for the run's own thread (and
//! the worker threads it starts) by `within`, and gone when the run ends: a later run in
//! the same process reads as its own command line says.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::sync::{Arc, PoisonError, RwLock};

use crate::error::Error;

/// A run's confinement: the folder it may read (a handle opened once), or nothing at all.
#[derive(Debug)]
pub(crate) struct Root {
    /// The folder as resolved when it was opened (`None`: `--no-files`).
    path: Option<PathBuf>,
    /// The folder as given, made absolute (a path written through a symlinked parent).
    given: PathBuf,
    /// The working directory when the run started.
    cwd: PathBuf,
    #[cfg(not(target_arch = "wasm32"))]
    dir: Option<cap_std::fs::Dir>,
}

impl Root {
    /// Opens `dir` as the folder a run may read.
    ///
    /// # Errors
    /// `dir` does not exist or is not a folder.
    pub(crate) fn open(dir: &str) -> Result<Root, Error> {
        let canon = Path::new(dir).canonicalize().map_err(|e| {
            // A relative root is read from the folder the command was started in, which for
            // a server an agent starts is the agent's, not the user's.
            let from = if Path::new(dir).is_relative() {
                std::env::current_dir().map_or_else(
                    |_| " (relative to a working folder that cannot be read)".to_string(),
                    |d| format!(" (relative to `{}`, the folder it was started in)", d.display()),
                )
            } else {
                String::new()
            };
            Error::usage(format!("--root `{dir}` cannot be used{from}: {e}"))
                .help("Consider an existing folder, by its absolute path (an agent may start `ddbcost mcp` from any folder).")
        })?;
        if !canon.is_dir() {
            return Err(Error::usage(format!("--root `{dir}` is not a folder"))
                .help("Consider the folder the files to read are in."));
        }
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
        #[cfg(not(target_arch = "wasm32"))]
        let handle = cap_std::fs::Dir::open_ambient_dir(&canon, cap_std::ambient_authority())
            .map_err(|e| {
                Error::usage(format!("--root `{dir}` cannot be opened ({e})"))
                    .help("Consider a folder this user may read.")
            })?;
        Ok(Root {
            given: cwd.join(dir),
            cwd,
            path: Some(canon),
            #[cfg(not(target_arch = "wasm32"))]
            dir: Some(handle),
        })
    }

    /// The confinement that reads no file at all (`--no-files`).
    pub(crate) fn nothing() -> Root {
        Root {
            path: None,
            given: PathBuf::new(),
            cwd: PathBuf::new(),
            #[cfg(not(target_arch = "wasm32"))]
            dir: None,
        }
    }

    /// The folder (`None`: no file may be read).
    pub(crate) fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// `path` relative to the root, if it is written (or, where it exists, resolves) inside.
    /// Only where to look: the open beneath the handle is what keeps a read inside.
    fn beneath(&self, path: &Path) -> Option<PathBuf> {
        let root = self.path.as_ref()?;
        let abs = if path.is_absolute() {
            path.to_path_buf()
        } else {
            self.cwd.join(path)
        };
        let dot = |p: &Path| {
            if p.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                p.to_path_buf()
            }
        };
        for base in [root, &self.given] {
            if let Ok(rest) = abs.strip_prefix(base) {
                return Some(dot(rest));
            }
        }
        // Written some other way (a symlinked working directory): where its deepest
        // existing part resolves, and the rest as written.
        let mut existing = abs.as_path();
        let mut tail = Vec::new();
        loop {
            if let Ok(real) = existing.canonicalize() {
                let mut rel = real.strip_prefix(root).ok()?.to_path_buf();
                for part in tail.iter().rev() {
                    rel.push(part);
                }
                return Some(dot(&rel));
            }
            tail.push(existing.file_name()?.to_os_string());
            existing = existing.parent()?;
        }
    }

    fn outside(&self, path: &Path) -> std::io::Error {
        std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            Outside(match &self.path {
                Some(root) => format!(
                    "`{}` is outside the folder this run may read (--root `{}`)",
                    path.display(),
                    root.display()
                ),
                None => "this run reads no file (--no-files)".to_string(),
            }),
        )
    }
}

/// A read refused by the confinement (carried inside an `io::Error`).
#[derive(Debug)]
struct Outside(String);

impl std::fmt::Display for Outside {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Outside {}

/// The user's error for an `io::Error` that is a read refused by the root, else `None`.
pub(crate) fn refusal(e: &std::io::Error, file: &str) -> Option<Error> {
    let outside = e.get_ref()?.downcast_ref::<Outside>()?;
    Some(Error::input(outside.0.clone()).file(file).help(HELP))
}

const HELP: &str = "Consider a path inside that folder (no absolute path elsewhere, no `..` out, no symlink out), or pass the document's text itself.";

thread_local! {
    /// The confinement of the run on this thread (`within`).
    static CURRENT: RefCell<Option<Arc<Root>>> = const { RefCell::new(None) };
}

/// Files of the run's own making that it may read wherever they are.
static OWN: RwLock<Vec<PathBuf>> = RwLock::new(Vec::new());

/// Runs `f` with `root` as the confinement of this thread's reads; the one before is put
/// back after, even when `f` panics.
pub(crate) fn within<R>(root: Option<Arc<Root>>, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<Arc<Root>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let outer = self.0.take();
            CURRENT.with(|c| *c.borrow_mut() = outer);
        }
    }
    let outer = CURRENT.with(|c| c.replace(root));
    let _restore = Restore(outer);
    f()
}

/// The confinement in scope on this thread (to hand to worker threads).
pub(crate) fn current() -> Option<Arc<Root>> {
    CURRENT.with(|c| c.borrow().clone())
}

/// Lets this run read `path`, a file it made itself, wherever the root is.
pub(crate) fn own(path: &Path) {
    if let Ok(real) = path.canonicalize() {
        OWN.write()
            .unwrap_or_else(PoisonError::into_inner)
            .push(real);
    }
}

fn is_own(path: &Path) -> bool {
    let own = OWN.read().unwrap_or_else(PoisonError::into_inner);
    !own.is_empty() && path.canonicalize().is_ok_and(|real| own.contains(&real))
}

/// Refuses `path`, with the message users read, when a root is in scope and `path` is not
/// inside it. An early, friendly refusal only: the open (`open`, `metadata`, `read_dir`) is
/// what enforces the root.
///
/// # Errors
/// The path is outside the root.
pub(crate) fn check(path: &Path) -> Result<(), Error> {
    let Some(root) = current() else {
        return Ok(());
    };
    if path.as_os_str() == crate::load::STDIN || is_own(path) {
        return Ok(());
    }
    if root
        .beneath(path)
        .is_some_and(|rel| !escapes(&rel) && resolves_inside(&root, path))
    {
        return Ok(());
    }
    let shown = path.display().to_string();
    Err(Error::input(root.outside(path).to_string())
        .file(shown)
        .help(HELP))
}

/// Whether a relative path climbs above its start at some point.
fn escapes(rel: &Path) -> bool {
    let mut depth: usize = 0;
    for c in rel.components() {
        match c {
            std::path::Component::ParentDir => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return true,
            },
            std::path::Component::Normal(_) => depth = depth.saturating_add(1),
            std::path::Component::CurDir => {}
            _ => return true,
        }
    }
    false
}

/// Whether what `path` resolves to today (if it exists) is inside the root.
fn resolves_inside(root: &Root, path: &Path) -> bool {
    match (path.canonicalize(), root.path()) {
        (Ok(real), Some(r)) => real.starts_with(r),
        (Err(_), Some(_)) => true,
        (_, None) => false,
    }
}

/// What a path is, followed through symlinks (beneath the root when there is one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Meta {
    pub is_file: bool,
    pub is_dir: bool,
    pub len: u64,
    /// Device and inode: a folder met twice through symlinks is walked once, a file named
    /// twice is read once.
    pub id: (u64, u64),
    /// When it was last written, where the system says.
    pub modified: Option<std::time::SystemTime>,
}

/// Whether `path` is a folder that may be read (beneath the root with one).
pub(crate) fn is_dir(path: &Path) -> bool {
    metadata(path).is_ok_and(|m| m.is_dir)
}

/// Whether `path` is a regular file that may be read (beneath the root with one).
pub(crate) fn is_file(path: &Path) -> bool {
    metadata(path).is_ok_and(|m| m.is_file)
}

/// One entry of a folder: its path (the folder's path joined with its name) and what it
/// is, symlinks followed (an entry whose target cannot be read is left out).
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub path: PathBuf,
    pub meta: Meta,
}

#[cfg(not(target_arch = "wasm32"))]
mod open {
    use std::fs::File;
    use std::io;
    use std::os::unix::fs::MetadataExt;
    use std::path::Path;

    use cap_std::fs::OpenOptionsExt;

    use super::{Entry, Meta, current, is_own};

    fn meta_of_std(m: &std::fs::Metadata) -> Meta {
        Meta {
            is_file: m.is_file(),
            is_dir: m.is_dir(),
            len: m.len(),
            id: (m.dev(), m.ino()),
            modified: m.modified().ok(),
        }
    }

    fn meta_of_cap(m: &cap_std::fs::Metadata) -> Meta {
        use cap_std::fs::MetadataExt as _;
        Meta {
            is_file: m.is_file(),
            is_dir: m.is_dir(),
            len: m.len(),
            id: (m.dev(), m.ino()),
            modified: m.modified().ok().map(cap_std::time::SystemTime::into_std),
        }
    }

    /// Opens `path` for reading: as the system does without a root; beneath the root's
    /// handle with one (a regular file only, never blocking on a FIFO).
    pub(crate) fn open(path: &Path) -> io::Result<File> {
        let Some(root) = current() else {
            return File::open(path);
        };
        if is_own(path) {
            return File::open(path);
        }
        let (Some(dir), Some(rel)) = (root.dir.as_ref(), root.beneath(path)) else {
            return Err(root.outside(path));
        };
        let mut options = cap_std::fs::OpenOptions::new();
        options.read(true);
        options.custom_flags(rustix::fs::OFlags::NONBLOCK.bits().cast_signed());
        let file = dir
            .open_with(&rel, &options)
            .map_err(|e| escape(&root, path, e))?
            .into_std();
        if !file.metadata()?.is_file() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "not a regular file",
            ));
        }
        // Reads block as a regular file's always do.
        rustix::fs::fcntl_setfl(&file, rustix::fs::OFlags::empty())?;
        Ok(file)
    }

    /// What `path` is, symlinks followed (beneath the root with one).
    pub(crate) fn metadata(path: &Path) -> io::Result<Meta> {
        let Some(root) = current() else {
            return std::fs::metadata(path).map(|m| meta_of_std(&m));
        };
        if is_own(path) {
            return std::fs::metadata(path).map(|m| meta_of_std(&m));
        }
        let (Some(dir), Some(rel)) = (root.dir.as_ref(), root.beneath(path)) else {
            return Err(root.outside(path));
        };
        dir.metadata(&rel)
            .map(|m| meta_of_cap(&m))
            .map_err(|e| escape(&root, path, e))
    }

    /// The entries of the folder `path`, sorted by name, symlinks followed (beneath the
    /// root with one).
    pub(crate) fn read_dir(path: &Path) -> io::Result<Vec<Entry>> {
        let mut out = Vec::new();
        match current() {
            None => {
                for entry in std::fs::read_dir(path)? {
                    let entry = entry?;
                    let p = entry.path();
                    if let Ok(m) = std::fs::metadata(&p) {
                        out.push(Entry {
                            path: p,
                            meta: meta_of_std(&m),
                        });
                    }
                }
            }
            Some(root) => {
                let (Some(dir), Some(rel)) = (root.dir.as_ref(), root.beneath(path)) else {
                    return Err(root.outside(path));
                };
                let listing = dir.read_dir(&rel).map_err(|e| escape(&root, path, e))?;
                for entry in listing {
                    let entry = entry?;
                    let name = entry.file_name();
                    if let Ok(m) = dir.metadata(rel.join(&name)) {
                        out.push(Entry {
                            path: path.join(&name),
                            meta: meta_of_cap(&m),
                        });
                    }
                }
            }
        }
        out.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(out)
    }

    /// cap-std's refusal of a path that leads out, said in the run's words.
    fn escape(root: &super::Root, path: &Path, e: io::Error) -> io::Error {
        if e.kind() == io::ErrorKind::PermissionDenied && e.to_string().contains("outside") {
            root.outside(path)
        } else {
            e
        }
    }
}

/// The WebAssembly build has no file system: `--root` has nothing to confine there.
#[cfg(target_arch = "wasm32")]
mod open {
    use std::io;
    use std::path::Path;

    use super::{Entry, Meta};

    fn meta(m: &std::fs::Metadata) -> Meta {
        Meta {
            is_file: m.is_file(),
            is_dir: m.is_dir(),
            len: m.len(),
            id: (0, 0),
            modified: m.modified().ok(),
        }
    }

    pub(crate) fn open(path: &Path) -> io::Result<std::fs::File> {
        std::fs::File::open(path)
    }

    pub(crate) fn metadata(path: &Path) -> io::Result<Meta> {
        std::fs::metadata(path).map(|m| meta(&m))
    }

    pub(crate) fn read_dir(path: &Path) -> io::Result<Vec<Entry>> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir(path)? {
            let p = entry?.path();
            if let Ok(m) = std::fs::metadata(&p) {
                out.push(Entry {
                    path: p,
                    meta: meta(&m),
                });
            }
        }
        out.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(out)
    }
}

pub(crate) use open::{metadata, open, read_dir};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_placed_beneath_the_root_before_they_are_opened() {
        let dir = tempfile::tempdir().unwrap();
        let root_path = dir.path().canonicalize().unwrap();
        std::fs::create_dir(root_path.join("in")).unwrap();
        std::fs::write(root_path.join("in/w.yaml"), "x").unwrap();
        std::os::unix::fs::symlink("/etc", root_path.join("in/out")).unwrap();
        let root = Root::open(root_path.to_str().unwrap()).unwrap();
        assert_eq!(
            root.beneath(&root_path.join("in/w.yaml")),
            Some(PathBuf::from("in/w.yaml"))
        );
        assert_eq!(root.beneath(&root_path), Some(PathBuf::from(".")));
        assert!(escapes(Path::new("in/../../x")));
        assert!(!escapes(Path::new("in/../x")));
        within(Some(Arc::new(root)), || {
            assert!(open(&root_path.join("in/w.yaml")).is_ok());
            assert!(check(&root_path.join("in/new.yaml")).is_ok());
            assert!(check(Path::new("/etc/passwd")).is_err());
            assert!(open(Path::new("/etc/passwd")).is_err());
            // Written inside, resolved outside: the open itself refuses.
            let e = open(&root_path.join("in/out/passwd")).unwrap_err();
            assert!(e.to_string().contains("outside the folder"), "{e}");
            assert!(check(&root_path.join("in/out/passwd")).is_err());
            assert!(open(&root_path.join("in/../../etc/passwd")).is_err());
        });
        // Out of scope again: nothing confined.
        assert!(current().is_none());
    }

    #[test]
    fn no_files_reads_nothing() {
        within(Some(Arc::new(Root::nothing())), || {
            assert!(open(Path::new("Cargo.toml")).is_err());
            assert!(check(Path::new("Cargo.toml")).is_err());
            assert!(check(Path::new("-")).is_ok());
        });
    }
}
