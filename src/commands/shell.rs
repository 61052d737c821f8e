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
        return output::emit(None, &page(cmd)?);
    };
    if !std::path::Path::new(dir).is_dir() {
        return Err(Error::usage(format!("--dir `{dir}` is not a folder"))
            .help("Consider creating it first (`mkdir -p man/man1`)."));
    }
    // Every page or none: a failure leaves the folder as it was.
    let mut batch = output::Batch::new();
    batch.add(&format!("{dir}/ddbcost.1"), page(cmd.clone())?.as_bytes())?;
    for sub in cmd.get_subcommands() {
        let name = format!("ddbcost-{}", sub.get_name());
        let sub = sub.clone().name(name.clone());
        batch.add(&format!("{dir}/{name}.1"), page(sub)?.as_bytes())?;
    }
    batch.commit()
}
