//! The library's progress reports drawn as a bar on stderr, when stderr is a terminal.

use std::io::IsTerminal as _;
use std::sync::Mutex;

use ash_memory::{MemoryStoreBuilder, Progress};
use indicatif::{ProgressBar, ProgressStyle};

/// `builder` with a bar for its long calls on a terminal, and unchanged otherwise (a pipe
/// or a log file gets no bar).
pub fn on_stderr(builder: MemoryStoreBuilder) -> MemoryStoreBuilder {
    if !std::io::stderr().is_terminal() {
        return builder;
    }
    let bar: Mutex<Option<ProgressBar>> = Mutex::new(None);
    builder.progress(move |p: Progress<'_>| {
        let mut bar = bar.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let shown = bar.get_or_insert_with(|| {
            let new = ProgressBar::new(p.total);
            new.set_style(
                ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} ({eta})")
                    .expect("a valid template")
                    .progress_chars("=> "),
            );
            new
        });
        shown.set_message(p.task.to_owned());
        shown.set_length(p.total);
        shown.set_position(p.done);
        if p.done >= p.total {
            shown.finish_and_clear();
            *bar = None;
        }
    })
}
