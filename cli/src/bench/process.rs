//! `bench`'s whole-process figures: this binary run as one CLI call against the bench's
//! home, its wall time and its peak resident memory.
//!
//! The peak is not read from the bench's own `wait4`: Linux folds the memory a process held
//! before `exec` into the peak it reports for it (`exec_mmap` records the old mm's
//! high-water mark), and a child spawned by the bench starts from the bench's memory, which
//! holds a whole home (hundreds of MB at 100,000 memories). So each call goes through a
//! runner, a fresh process of this binary (`ash-memory bench-run -- ARGS`) that holds next
//! to nothing: it spawns the call, times it, and prints the call's time and peak for the
//! bench to read.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail};

use super::policy::BENCH_USER;
use super::timing::stats;

/// This binary run as a whole process against the bench's home, as `bench` user.
pub(super) struct CliRuns<'a> {
    pub(super) home: &'a Path,
    pub(super) cache: &'a Path,
}

impl CliRuns<'_> {
    /// Runs `n` calls (after one untimed, which fills the compile cache) and returns the
    /// median wall time and the largest peak RSS (KiB) among them.
    pub(super) fn median(&self, n: usize, args: impl Fn(usize) -> Vec<String>) -> Result<(Duration, u64)> {
        let n = n.max(1);
        self.run(&args(n))?;
        let mut times = Vec::with_capacity(n);
        let mut rss = 0;
        for k in 0..n {
            let (time, peak) = self.run(&args(k))?;
            times.push(time);
            rss = rss.max(peak);
        }
        Ok((stats(times).median, rss))
    }

    /// One call through the runner: its wall time and peak RSS in KiB.
    fn run(&self, args: &[String]) -> Result<(Duration, u64)> {
        let exe = std::env::current_exe()?;
        let out = Command::new(&exe)
            .args(["bench-run", "--"])
            .arg(&exe)
            .arg("--home")
            .arg(self.home)
            .args(["--user", BENCH_USER])
            .args(args)
            .env("ASH_CACHE_DIR", self.cache)
            .env_remove("ASH_COMPONENT")
            .stdin(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .context("starting the bench's runner")?;
        if !out.status.success() {
            bail!(
                "ash-memory {} failed: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr).trim()
            );
        }
        parse_report(&String::from_utf8_lossy(&out.stdout))
            .with_context(|| format!("the runner's report {:?}", String::from_utf8_lossy(&out.stdout)))
    }
}

/// `ash-memory bench-run -- PROGRAM ARGS`: runs PROGRAM once with its output discarded
/// and its error output passed on, and prints `NANOSECONDS PEAK_KIB`; fails if it fails.
pub fn run_one(command: &[String]) -> Result<()> {
    let (program, args) = command.split_first().context("bench-run needs a program to run")?;
    let mut child = Command::new(program);
    child.args(args).stdin(Stdio::null()).stdout(Stdio::null());
    let t = Instant::now();
    let spawned = child.spawn().with_context(|| format!("starting {program}"))?;
    let pid = spawned.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: all-zero is a valid rusage (plain integers).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our child and is reaped only here (`wait` is never called on it,
    // and dropping a Child does not wait).
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let elapsed = t.elapsed();
    drop(spawned);
    if reaped != pid {
        bail!("waiting for {program}: {}", std::io::Error::last_os_error());
    }
    if !(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0) {
        bail!("{program} failed ({status:#x})");
    }
    println!("{} {}", elapsed.as_nanos(), usage.ru_maxrss);
    Ok(())
}

/// Reads `run_one`'s report.
fn parse_report(report: &str) -> Result<(Duration, u64)> {
    let mut fields = report.split_whitespace();
    let (Some(nanos), Some(peak), None) = (fields.next(), fields.next(), fields.next()) else {
        bail!("expected two numbers");
    };
    Ok((Duration::from_nanos(nanos.parse()?), peak.parse()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_is_two_numbers() {
        assert_eq!(
            parse_report("1500000 2048\n").unwrap(),
            (Duration::from_micros(1500), 2048)
        );
        assert!(parse_report("1500000").is_err());
        assert!(parse_report("1 2 3").is_err());
        assert!(parse_report("x 2").is_err());
    }
}
