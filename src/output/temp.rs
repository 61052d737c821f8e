//! Temporary files of atomic writes, and their removal on every way out but SIGKILL: each is
//! named `.ddbcost-<pid>-<random>.tmp` and listed while it lives; SIGINT, SIGTERM and SIGHUP
//! remove every listed file before the process ends by that signal, a panic removes them
//! before the panic is reported, and a write into a directory first removes the temporary
//! files that dead ddbcost processes left there (a SIGKILL, a power cut).
//!
//! This is the one process-wide state of the output layer: a signal handler cannot be handed
//! the list any other way.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, Once};

use tempfile::NamedTempFile;

static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
static INSTALL: Once = Once::new();
static SIGNALS: Once = Once::new();
/// `install_cleanup` was called: the first temporary file starts the signal listener.
static WANT_SIGNALS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

thread_local! {
    /// This thread runs code whose panic is caught and turned into an error (`contained`):
    /// the hook says nothing and removes nothing, since the process goes on.
    static CONTAINED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f`, turning a panic inside it into `Err` without a word on standard error: for a
/// third-party decoder handed hostile bytes (a Parquet file), whose panic is a refusal of
/// the file, not a crash of ddbcost.
pub(crate) fn contained<T>(f: impl FnOnce() -> T) -> Result<T, ()> {
    let before = CONTAINED.with(|c| c.replace(true));
    let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    CONTAINED.with(|c| c.set(before));
    out.map_err(|_| ())
}

/// Name parts of our temporary files, so the next run recognises them.
pub(super) const PREFIX: &str = ".ddbcost-";
pub(super) const SUFFIX: &str = ".tmp";

/// A temporary file without a pid in its name (written by ddbcost before it named them so)
/// is removed once it is this old: nothing writes for an hour.
const UNNAMED_STALE_SECS: u64 = 3600;

fn live() -> MutexGuard<'static, Vec<PathBuf>> {
    // A panic while the list was held left it as it was: still the right list.
    LIVE.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Removes every temporary file still listed (each removal is best effort: the process is
/// ending).
pub(super) fn remove_all() {
    for path in live().drain(..) {
        let _ = std::fs::remove_file(path);
    }
}

/// Installs the panic handler, once per process, and asks for the signal handlers: those
/// start with the first temporary file (a thread listening for signals costs a run that
/// writes no file a millisecond or more of its start, for nothing to remove). The binary
/// calls it first; a library user who never does still gets removal on errors and panics
/// that unwind.
pub(crate) fn install_cleanup() {
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if CONTAINED.with(std::cell::Cell::get) {
                return;
            }
            remove_all();
            previous(info);
        }));
        WANT_SIGNALS.store(true, std::sync::atomic::Ordering::SeqCst);
    });
}

/// Starts the thread that removes the listed files on SIGINT, SIGTERM and SIGHUP, once per
/// process, if `install_cleanup` asked for it: called before a temporary file is created, so
/// no file lives unguarded.
fn listen_for_signals() {
    if !WANT_SIGNALS.load(std::sync::atomic::Ordering::SeqCst) {
        return;
    }
    SIGNALS.call_once(|| {
        #[cfg(unix)]
        {
            use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
            if let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
            {
                let _ = std::thread::Builder::new()
                    .name("ddbcost-signals".into())
                    .spawn(move || {
                        if let Some(signal) = signals.forever().next() {
                            remove_all();
                            // End as the signal would have ended us (status 128 + signal).
                            let _ = signal_hook::low_level::emulate_default_handler(signal);
                            std::process::exit(128_i32.saturating_add(signal));
                        }
                    });
            }
        }
    });
}

/// A temporary file being written; removed when dropped unless `persist` renamed it.
pub(super) struct Temp {
    file: Option<NamedTempFile>,
    path: PathBuf,
}

impl Temp {
    /// Creates one in `dir`, after removing the stale ones dead runs left there.
    ///
    /// # Errors
    /// The directory is not writable.
    pub(super) fn create_in(dir: &Path) -> std::io::Result<Temp> {
        remove_stale(dir);
        listen_for_signals();
        let mut list = live();
        let file = tempfile::Builder::new()
            .prefix(&format!("{PREFIX}{}-", std::process::id()))
            .suffix(SUFFIX)
            .tempfile_in(dir)?;
        let path = file.path().to_path_buf();
        list.push(path.clone());
        Ok(Temp {
            file: Some(file),
            path,
        })
    }

    pub(super) fn file(&self) -> &std::fs::File {
        self.file.as_ref().expect("a live temporary file").as_file()
    }

    /// Renames it over `target`.
    ///
    /// # Errors
    /// The rename fails (another file system, permissions).
    pub(super) fn persist(mut self, target: &Path) -> std::io::Result<()> {
        let file = self.file.take().expect("a live temporary file");
        let outcome = file.persist(target).map(drop).map_err(|e| e.error);
        // Either way the temporary path is gone (renamed, or removed with the returned file).
        forget(&self.path);
        outcome
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            forget(&self.path);
        }
    }
}

fn forget(path: &Path) {
    live().retain(|p| p != path);
}

impl std::io::Write for Temp {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file
            .as_mut()
            .expect("a live temporary file")
            .write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.as_mut().expect("a live temporary file").flush()
    }
}

/// Removes `.ddbcost-<pid>-*.tmp` files in `dir` whose process is gone. Best effort: a file
/// that cannot be read or removed is left.
fn remove_stale(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if is_stale(name, &entry) == Some(true) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// `None` when the name is not one of ours.
fn is_stale(name: &str, entry: &std::fs::DirEntry) -> Option<bool> {
    let middle = name.strip_prefix(PREFIX)?.strip_suffix(SUFFIX)?;
    if !entry.file_type().ok()?.is_file() {
        return None;
    }
    match middle.split_once('-') {
        Some((pid, _)) if !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()) => {
            let pid: u32 = pid.parse().ok()?;
            Some(pid != std::process::id() && !alive(pid))
        }
        _ => {
            let age = entry.metadata().ok()?.modified().ok()?.elapsed().ok()?;
            Some(age.as_secs() > UNNAMED_STALE_SECS)
        }
    }
}

/// Whether a process with this id runs now (Linux: `/proc`; elsewhere assumed alive, so a
/// file is never removed under a running writer).
fn alive(pid: u32) -> bool {
    if Path::new("/proc/self").exists() {
        Path::new(&format!("/proc/{pid}")).exists()
    } else {
        true
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    fn ours(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(PREFIX))
            .collect()
    }

    #[test]
    fn a_panic_while_writing_removes_the_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let result = std::panic::catch_unwind(|| {
            let mut temp = Temp::create_in(dir.path()).unwrap();
            temp.write_all(b"half a report").unwrap();
            assert_eq!(ours(dir.path()).len(), 1);
            panic!("while writing");
        });
        assert!(result.is_err());
        assert!(ours(dir.path()).is_empty());
        assert!(!live().iter().any(|p| p.starts_with(dir.path())));
    }

    #[test]
    fn temporary_files_of_dead_processes_are_removed_and_live_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        // A pid above Linux's maximum (2^22) runs nowhere; ours runs; an unrelated file stays.
        let dead = dir.path().join(format!("{PREFIX}4294967295-abc{SUFFIX}"));
        let mine = dir
            .path()
            .join(format!("{PREFIX}{}-abc{SUFFIX}", std::process::id()));
        let other = dir.path().join(".ddbcost-notes.txt");
        for f in [&dead, &mine, &other] {
            std::fs::write(f, "x").unwrap();
        }
        let temp = Temp::create_in(dir.path()).unwrap();
        assert!(!dead.exists());
        assert!(mine.exists() && other.exists());
        drop(temp);
        assert_eq!(ours(dir.path()).len(), 2);
    }
}
