//! Printing results: aligned text for people, one JSON document for programs. JSON
//! field names are the JSONL field names. This file holds the output and how text is
//! added to it; each submodule prints the results of a group of commands.

use std::cell::RefCell;
use std::io::Write as _;

use serde_json::Value;

thread_local! {
    /// What the command prints, written to stdout once at the end, so that a closed or
    /// broken stdout is one clean error after the work is done, never a panic half way.
    static OUT: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Adds text to the output. Stored text is shown to people, never obeyed by their
/// terminal: control characters (escape sequences) and bidirectional overrides are
/// printed as visible escapes. JSON output needs none of this: serde escapes controls.
fn emit(text: &str) {
    OUT.with(|out| {
        let mut out = out.borrow_mut();
        for c in text.chars() {
            let hidden =
                (c.is_control() && c != '\n') || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
            if hidden {
                out.push_str(&c.escape_unicode().to_string());
            } else {
                out.push(c);
            }
        }
    });
}

/// Adds what `ash-memory-render` made of a result in the server's shape: the same text
/// `ash-sb` prints for it, already made visible.
fn emit_rendered(rendered: Result<String, ash_memory_render::ShapeError>) {
    let text = rendered.expect("the wire module writes the shapes the renderer reads");
    OUT.with(|out| out.borrow_mut().push_str(&text));
}

macro_rules! say {
    ($($arg:tt)*) => {{
        let mut line = format!($($arg)*);
        line.push('\n');
        emit(&line);
    }};
}

/// Writes what the command printed to stdout.
pub fn flush() -> std::io::Result<()> {
    let text = OUT.with(|out| std::mem::take(&mut *out.borrow_mut()));
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()
}

pub struct Output {
    pub json: bool,
}

// After `say!`, so that the submodules see it.
mod conversations;
mod eval;
mod home;
mod memories;
mod people;
mod tokens;
mod transfer;

fn print_json(v: &Value) {
    say!("{}", serde_json::to_string_pretty(v).expect("JSON values serialize"));
}
