//! Fitting the user's shell: completion scripts (clap_complete) and man pages (clap_mangen),
//! both generated from the same command-line definition the parser uses, so they cannot
//! drift from it.

use clap::CommandFactory;

use crate::cli::{Cli, CompletionsArgs, ManArgs};
use crate::error::Error;
use crate::output;

pub(super) fn completions(args: &CompletionsArgs) -> Result<(), Error> {
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "ddbcost", &mut out);
    output::emit(None, &String::from_utf8_lossy(&out))
}

/// `cmd` named `name`, and each of its commands named `name-sub`, all without clap's `help`
/// command.
fn every_page(cmd: clap::Command, name: &str, out: &mut Vec<(String, clap::Command)>) {
    let cmd = cmd.name(name.to_string()).disable_help_subcommand(true);
    for sub in cmd.get_subcommands() {
        every_page(sub.clone(), &format!("{name}-{}", sub.get_name()), out);
    }
    out.push((name.to_string(), cmd));
}

/// The roff of one command's page.
fn page(cmd: clap::Command) -> Result<String, Error> {
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd)
        .render(&mut out)
        .map_err(|e| Error::input(format!("cannot render the man page: {e}")))?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}

pub(super) fn man(args: &ManArgs) -> Result<(), Error> {
    let cmd = Cli::command();
    let Some(dir) = &args.dir else {
        return output::emit(None, &page(cmd.disable_help_subcommand(true))?);
    };
    if !std::path::Path::new(dir).is_dir() {
        return Err(Error::usage(format!("--dir `{dir}` is not a folder"))
            .help("Consider creating it first (`mkdir -p man/man1`)."));
    }
    // Every page or none: a failure leaves the folder as it was. A page for each command and
    // each of theirs (`ddbcost-prices-show.1`), as each page's SEE ALSO names them; no
    // `help` command, which has no page.
    let mut all = Vec::new();
    every_page(cmd, "ddbcost", &mut all);
    let mut batch = output::Batch::new();
    for (name, cmd) in all {
        batch.add(&format!("{dir}/{name}.1"), page(cmd)?.as_bytes())?;
    }
    batch.commit()
}
