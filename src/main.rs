//! The `ddbcost` binary: parse the command line, run it, print the error and exit with its
//! code (0 success, 1 bad input, 2 command-line usage). Everything else is in the library.

fn main() {
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
        eprintln!("{e}");
        std::process::exit(e.exit_code());
    }
}
