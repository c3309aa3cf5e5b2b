//! `ash-memory`: the command line over the [`ash_memory`] library.

mod bench;
mod commands;
mod eval;
mod server;
mod wire;

use std::io::Write as _;
use std::process::ExitCode;

fn main() -> ExitCode {
    // (A closed stdout needs no care here: Rust's runtime opens /dev/null on it before
    // main, so no file the command opens can take its descriptor.)
    let result = commands::run();
    // The output is written after the work: a reader that went away (`| head`) is no
    // error; a stdout that cannot be written is reported once, cleanly.
    let flushed = commands::flush_output();
    let mut stderr = std::io::stderr();
    match (result, flushed) {
        (Err(e), _) => {
            let _ = writeln!(stderr, "error: {e:#}");
            ExitCode::FAILURE
        }
        (Ok(()), Err(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        (Ok(()), Err(e)) => {
            let _ = writeln!(
                stderr,
                "error: the command completed, but its output could not be written: {e}"
            );
            ExitCode::FAILURE
        }
        (Ok(()), Ok(())) => ExitCode::SUCCESS,
    }
}
