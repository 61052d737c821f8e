//! The `ddbcost` binary: run the command line and exit with its code (0 success, 1 bad
//! input, 2 command-line usage, 3 a budget gate, 141 a closed standard output). Everything
//! else is in the library, behind `ddbcost::api`.

fn main() {
    // A tool call of `ddbcost mcp` ends with its server, however the server ends.
    if let Some(parent) = std::env::var_os("DDBCOST_MCP_PARENT") {
        ddbcost::api::die_with_parent(&parent.to_string_lossy());
    }
    // Temporary files of atomic writes are removed on SIGINT, SIGTERM, SIGHUP and panics.
    ddbcost::api::install_cleanup();
    std::process::exit(ddbcost::api::run(std::env::args_os()));
}
