//! What the files crate reports through `tracing` (a rollback made, lines quarantined),
//! passed on to the host's `ash:memory/log`.

use std::fmt::Write as _;

use tracing::field::{Field, Visit};
use tracing::{Event, Level, Metadata, span};

use crate::ash::memory::log;

/// Installs the forwarding subscriber, once per instance.
pub(crate) fn install() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // Only fails when a subscriber is already set, which nothing else here does.
        let _ = tracing::subscriber::set_global_default(ToHost);
    });
}

/// A subscriber that sends each event at info or above to the host as one line.
struct ToHost;

impl tracing::Subscriber for ToHost {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        *metadata.level() <= Level::INFO
    }
    fn new_span(&self, _: &span::Attributes<'_>) -> span::Id {
        span::Id::from_u64(1)
    }
    fn record(&self, _: &span::Id, _: &span::Record<'_>) {}
    fn record_follows_from(&self, _: &span::Id, _: &span::Id) {}
    fn event(&self, event: &Event<'_>) {
        let mut text = Text(String::new());
        event.record(&mut text);
        let level = match *event.metadata().level() {
            Level::ERROR => log::Level::Error,
            Level::WARN => log::Level::Warn,
            Level::INFO => log::Level::Info,
            _ => log::Level::Debug,
        };
        log::log(level, &text.0);
    }
    fn enter(&self, _: &span::Id) {}
    fn exit(&self, _: &span::Id) {}
}

/// An event's message, then its other fields as `name=value`.
struct Text(String);

impl Visit for Text {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        let sep = if self.0.is_empty() { "" } else { " " };
        let _ = if field.name() == "message" {
            write!(self.0, "{sep}{value:?}")
        } else {
            write!(self.0, "{sep}{}={value:?}", field.name())
        };
    }
}
