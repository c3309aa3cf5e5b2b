//! `ash-memory`: the command line over the [`ash_memory`] library.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::init_logging();
    match cli::run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
