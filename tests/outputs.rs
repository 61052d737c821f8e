//! Outputs that never clobber (#23 §1): `-o` onto a device node, a FIFO, a symlink, a
//! read-only file, a directory; temporary files removed on SIGINT/SIGTERM/SIGHUP and after a
//! SIGKILL by the next run; several files all or none; a closed standard output or standard
//! error. Device nodes are made in temporary folders (`mknod`, as root): no test aims at the
//! machine's own `/dev/null`.

mod common;

use std::path::Path;
use std::process::Stdio;

use common::{Case, temp_files};

const CLOUDSHOP: &str = "workloads/cloudshop.yaml";

fn estimate_to(path: &Path) -> common::Outcome {
    Case::new()
        .args([
            "estimate",
            CLOUDSHOP,
            "--format",
            "csv",
            "--output",
            path.to_str().unwrap(),
        ])
        .run()
}

/// The CSV estimate of CloudShop, as standard output gives it.
fn cloudshop_csv() -> String {
    Case::new()
        .args(["estimate", CLOUDSHOP, "--format", "csv"])
        .run()
        .success()
        .stdout
}

#[cfg(unix)]
fn mknod(path: &Path, major: u32, minor: u32) {
    let status = common::command("mknod")
        .arg(path)
        .args(["c", &major.to_string(), &minor.to_string()])
        .status()
        .expect("mknod");
    assert!(
        status.success(),
        "mknod needs root (these tests run as root, as the project's machines do)"
    );
}

#[cfg(unix)]
#[test]
fn output_onto_a_device_node_writes_through_it_and_keeps_the_node() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let null = dir.path().join("null");
    mknod(&null, 1, 3);
    estimate_to(&null).success();
    assert!(
        std::fs::metadata(&null)
            .unwrap()
            .file_type()
            .is_char_device()
    );
    // /dev/full refuses every byte: an error naming the file, the node intact.
    let full = dir.path().join("full");
    mknod(&full, 1, 7);
    estimate_to(&full)
        .code(1)
        .stderr_has("cannot write")
        .stderr_has("No space left on device");
    assert!(
        std::fs::metadata(&full)
            .unwrap()
            .file_type()
            .is_char_device()
    );
    assert!(temp_files(dir.path()).is_empty());
}

#[cfg(unix)]
#[test]
fn output_onto_a_fifo_writes_into_it_and_keeps_the_fifo() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("report.fifo");
    assert!(
        common::command("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    estimate_to(&fifo).success();
    assert_eq!(reader.join().unwrap(), cloudshop_csv());
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert!(temp_files(dir.path()).is_empty());
}

#[cfg(unix)]
#[test]
fn output_through_a_symlink_replaces_its_target_and_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let real_dir = dir.path().join("reports");
    std::fs::create_dir(&real_dir).unwrap();
    let real = real_dir.join("real.csv");
    std::fs::write(&real, "old").unwrap();
    let link = dir.path().join("link.csv");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    estimate_to(&link).success();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read_to_string(&real).unwrap(), cloudshop_csv());
    // The temporary file was made in the target's real folder, and is gone.
    assert!(temp_files(dir.path()).is_empty() && temp_files(&real_dir).is_empty());
    // A dangling link: the file it names is created, the link then reaches it.
    let dangling = dir.path().join("dangling.csv");
    std::os::unix::fs::symlink("reports/new.csv", &dangling).unwrap();
    estimate_to(&dangling).success();
    assert_eq!(
        std::fs::read_to_string(real_dir.join("new.csv")).unwrap(),
        cloudshop_csv()
    );
    // A loop of links is refused, nothing written.
    let a = dir.path().join("a.csv");
    let b = dir.path().join("b.csv");
    std::os::unix::fs::symlink(&b, &a).unwrap();
    std::os::unix::fs::symlink(&a, &b).unwrap();
    estimate_to(&a).code(1).stderr_has("cannot write");
}

#[cfg(unix)]
#[test]
fn output_to_a_link_to_standard_output_writes_to_standard_output() {
    // `/dev/stdout` is a link to /proc/self/fd/1, itself a link to a pipe with no path: the
    // same shape, made here, so the machine's own /dev is never a target.
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("stdout");
    std::os::unix::fs::symlink("/proc/self/fd/1", &link).unwrap();
    let out = Case::new()
        .args(["estimate", CLOUDSHOP, "--format", "csv", "-o"])
        .args([link.to_str().unwrap()])
        .run()
        .success();
    assert_eq!(out.stdout, cloudshop_csv());
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[cfg(unix)]
#[test]
fn output_onto_a_read_only_file_is_refused_and_the_file_kept() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("kept.csv");
    std::fs::write(&file, "mine").unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).unwrap();
    estimate_to(&file)
        .code(1)
        .stderr_has("read-only (mode 444)")
        .stderr_has("chmod u+w");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");
    // A writable file keeps its mode when replaced.
    let shared = dir.path().join("shared.csv");
    std::fs::write(&shared, "old").unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o664)).unwrap();
    estimate_to(&shared).success();
    let mode = std::fs::metadata(&shared).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o664);
    // As root (these tests run as root), a replaced file keeps its owner too.
    use std::os::unix::fs::MetadataExt;
    std::os::unix::fs::chown(&shared, Some(4321), Some(4321)).unwrap();
    estimate_to(&shared).success();
    let meta = std::fs::metadata(&shared).unwrap();
    assert_eq!((meta.uid(), meta.gid()), (4321, 4321));
    assert!(temp_files(dir.path()).is_empty());
}

#[test]
fn output_onto_a_directory_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    estimate_to(dir.path())
        .code(1)
        .stderr_has("it is a directory");
    estimate_to(&dir.path().join("missing/report.csv"))
        .code(1)
        .stderr_has("does not exist");
}

#[cfg(unix)]
#[test]
fn init_does_not_replace_a_dangling_symlink_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("workload.yaml");
    std::os::unix::fs::symlink("elsewhere.yaml", &link).unwrap();
    Case::new()
        .args(["init", "--output", link.to_str().unwrap()])
        .run()
        .code(2)
        .stderr_has("exists");
    assert!(!dir.path().join("elsewhere.yaml").exists());
    Case::new()
        .args(["init", "--force", "--output", link.to_str().unwrap()])
        .run()
        .success();
    // With --force the link is written through, not replaced.
    assert!(dir.path().join("elsewhere.yaml").is_file());
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

/// An export of `lines` items with distinct keys, for long-running writes.
fn big_export(dir: &Path, lines: usize) -> String {
    use std::io::Write;
    let path = dir.join("items.json");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    for i in 0..lines {
        writeln!(
            out,
            r#"{{"pk":{{"S":"customer#{i:09}"}},"n":{{"N":"{i}"}}}}"#
        )
        .unwrap();
    }
    out.flush().unwrap();
    path.to_string_lossy().into_owned()
}

/// Starts `size --per-item` into `report.csv` and waits until its temporary file exists.
fn start_long_write(dir: &Path, input: &str) -> std::process::Child {
    let child = common::ddbcost()
        .args(["size", input, "--per-item", "-o"])
        .arg(dir.join("report.csv"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut child = child;
    for _ in 0..2000 {
        if !temp_files(dir).is_empty() {
            return child;
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!("size ended before it was interrupted: {status:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    panic!("the temporary file never appeared");
}

#[cfg(unix)]
#[test]
fn an_interrupted_write_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let input = big_export(dir.path(), 3_000_000);
    for (signal, name) in [(2, "INT"), (15, "TERM"), (1, "HUP")] {
        let mut child = start_long_write(dir.path(), &input);
        assert!(
            common::command("kill")
                .args([format!("-{name}"), child.id().to_string()])
                .status()
                .unwrap()
                .success()
        );
        let status = child.wait().unwrap();
        use std::os::unix::process::ExitStatusExt;
        // Ended by the signal itself, as the shell reports (128 + signal).
        assert_eq!(status.signal(), Some(signal), "{name}: {status:?}");
        assert!(temp_files(dir.path()).is_empty(), "{name} left a file");
        assert!(!dir.path().join("report.csv").exists(), "{name}");
    }
    // SIGKILL cannot be caught: the next run into that folder removes the stale file.
    let mut child = start_long_write(dir.path(), &input);
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(temp_files(dir.path()).len(), 1);
    estimate_to(&dir.path().join("estimate.csv")).success();
    assert!(temp_files(dir.path()).is_empty());
}

#[cfg(unix)]
#[test]
fn man_dir_writes_every_page_or_none() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let blocked = dir.path().join("ddbcost-size.1");
    std::fs::write(&blocked, "mine").unwrap();
    std::fs::set_permissions(&blocked, std::fs::Permissions::from_mode(0o444)).unwrap();
    Case::new()
        .args(["man", "--dir", dir.path().to_str().unwrap()])
        .run()
        .code(1)
        .stderr_has("read-only");
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        ["ddbcost-size.1"],
        "only the protected page is there"
    );
}

#[cfg(unix)]
#[test]
fn prices_import_writes_every_region_or_none() {
    let dir = tempfile::tempdir().unwrap();
    // us-west-1's table cannot be written (a folder has its name): no region is written.
    std::fs::create_dir(dir.path().join("aws-us-west-1.yaml")).unwrap();
    Case::new()
        .args([
            "prices",
            "import",
            "tests/fixtures/pricelist/offer-index.json",
            "--output-dir",
            dir.path().to_str().unwrap(),
        ])
        .run()
        .code(1)
        .stderr_has("it is a directory");
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["aws-us-west-1.yaml"]);
}

/// Runs ddbcost with standard output (or error) a pipe whose reader is already gone.
fn with_closed(args: &[&str], close_stdout: bool) -> std::process::Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let mut cmd = common::ddbcost();
    cmd.args(args);
    if close_stdout {
        cmd.stdout(writer).stderr(Stdio::piped());
    } else {
        cmd.stderr(writer).stdout(Stdio::piped());
    }
    cmd.output().unwrap()
}

#[test]
fn a_closed_standard_output_ends_every_command_quietly_with_141() {
    let dir = tempfile::tempdir().unwrap();
    let items = big_export(dir.path(), 50_000);
    let commands: [&[&str]; 8] = [
        &["estimate", CLOUDSHOP],
        &["compare", CLOUDSHOP, "--format", "json"],
        &["forecast", CLOUDSHOP, "--months", "12"],
        &["advise", CLOUDSHOP],
        &["size", &items, "--per-item"],
        &["keys", &items, "--key", "pk", "--format", "json"],
        &["schema"],
        &["man"],
    ];
    for args in commands {
        let out = with_closed(args, true);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(141), "{args:?}: {stderr}");
        assert!(
            !stderr.contains("Broken pipe") && !stderr.contains("panicked"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn a_closed_standard_error_never_stops_a_command() {
    // CloudShop's estimate warns (its price table is old): the warning goes nowhere, the
    // report is whole.
    let out = with_closed(&["estimate", CLOUDSHOP, "--format", "csv"], false);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), cloudshop_csv());
    // An error still sets the status when it cannot be printed.
    let out = with_closed(&["estimate", "workloads/missing.yaml"], false);
    assert_eq!(out.status.code(), Some(1));
}
