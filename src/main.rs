//! The `ddbcost` binary: parse the command line, run it, print the error and exit with its
//! code (0 success, 1 bad input, 2 command-line usage, 3 a budget gate, 141 a closed
//! standard output). Everything else is in the library.

fn main() {
    // Temporary files of atomic writes are removed on SIGINT, SIGTERM, SIGHUP and panics.
    ddbcost::output::install_cleanup();
    let cli = match ddbcost::cli::Cli::try_parse_ordered_from(std::env::args_os()) {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version print and exit 0; real usage errors exit 2.
            let _ = e.print();
            std::process::exit(if e.use_stderr() {
                ddbcost::error::exit::USAGE
            } else {
                0
            });
        }
    };
    if let Err(e) = ddbcost::commands::run(cli) {
        // A closed standard output is the reader's choice (`| head`): end quietly.
        if e.kind != ddbcost::error::ErrorKind::ClosedPipe {
            ddbcost::output::warn(&e.to_string());
        }
        std::process::exit(e.exit_code());
    }
}
