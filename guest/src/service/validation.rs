//! Building the record for a new memory, and every rule that can refuse one: empty or
//! invisible content, oversized content, secrets (in the content, the source or a
//! subject), a caller with no scope to write to, an expiry or a time out of range.

use chrono::{DateTime, Datelike, TimeDelta, Utc};

use super::{MAX_CONTENT_BYTES, MAX_EXPIRES_DAYS, MemoryService};
use crate::api::{Error, NewMemory};
use crate::lifetime::{self, Lifetime};
use crate::memory_type::MemoryType;
use crate::ports::Ports;
use crate::record::{MemoryRecord, RECORD_VERSION, format_time, parse_time};
use crate::scope::{Caller, Scope};
use crate::secrets;

/// The years a timestamp may fall in: records must stay readable by RFC 3339 parsers.
const YEARS: std::ops::RangeInclusive<i32> = 1970..=9999;

impl<P: Ports> MemoryService<P> {
    /// Builds a record for a new memory, applying every rule that can refuse it.
    pub(super) fn new_record(
        &self,
        caller: &Caller,
        item: NewMemory,
        now: DateTime<Utc>,
    ) -> Result<MemoryRecord, Error> {
        let content = item.content.trim().to_owned();
        check_content(&content)?;
        let context = check_context(item.context.as_deref())?;
        let source = item.source.map(|s| s.trim().to_owned()).filter(|s| !s.is_empty());
        if let Some(source) = &source {
            refuse_nul("the source", source)?;
        }
        if let Some(kind) = source.as_deref().and_then(secrets::detect) {
            return Err(Error::SecretRefused(format!(
                "the source looks like {}; secrets are never stored in memory",
                kind.describe()
            )));
        }
        let scope = caller.scope_for_new(item.shared).map_err(Error::InvalidInput)?;
        if let Some(days) = item.expires_in_days
            && !(1..=MAX_EXPIRES_DAYS).contains(&days)
        {
            return Err(Error::InvalidInput(format!(
                "expires-in-days is {days}; it must be from 1 to {MAX_EXPIRES_DAYS} (a hundred years)"
            )));
        }
        let observed = match item.observed_at {
            Some(text) => {
                let t = parse_time(&text).map_err(|_| {
                    Error::InvalidInput(format!(
                        "observed-at {text:?} is not a time: give it in RFC 3339, such as \
                         2024-05-01T09:30:00Z, in the years {} to {}",
                        YEARS.start(),
                        YEARS.end()
                    ))
                })?;
                check_year("observed-at", t)?;
                Some(t)
            }
            None => None,
        };
        let observed_at = observed.map(format_time);
        let (memory_type, expires_at) = lifetime_at(item.memory_type, item.expires_in_days, &content, observed, now);
        let (owner_user_id, chat_id) = match scope {
            Scope::Personal { owner_user_id } => (Some(owner_user_id), None),
            Scope::Group { chat_id } => (None, Some(chat_id)),
        };
        Ok(MemoryRecord {
            id: self.ports.new_id(),
            version: RECORD_VERSION,
            memory_type,
            content,
            embedding: None,
            created_at: format_time(now),
            observed_at,
            owner_user_id,
            chat_id,
            subject_person_ids: Vec::new(),
            source: source.unwrap_or_else(|| "user".to_owned()),
            source_session_id: item.provenance.as_ref().map(|p| p.session_id.clone()),
            source_message_id: item.provenance.as_ref().map(|p| p.message_id.clone()),
            extraction_confidence: item.provenance.as_ref().map(|p| p.confidence),
            expires_at,
            superseded_at: None,
            superseded_by_id: None,
            archived_at: None,
            archive_reason: None,
            metadata: None,
            embedding_model: None,
            entities: None,
            last_accessed_at: None,
            confirmed_at: None,
            context,
            extra: Default::default(),
        })
    }
}

impl<P: Ports> MemoryService<P> {
    /// Reads the clock again for records built at `then`, and stamps them with it: the
    /// home's lock may have been let go while they were embedded, and a memory must not
    /// be older than what another process wrote meanwhile (a fact replaced before it was
    /// made, in `history`). Their ids, texts and vectors stay; what the new time moves
    /// (when they were made, an expiry counted from it, a type read from a moment) is built
    /// by the same rules. Call it before a record's type or lifetime is taken from another
    /// memory (`keep_lifetime`).
    pub(super) fn stamp_again(
        &self,
        items: &[NewMemory],
        records: &mut [MemoryRecord],
        then: DateTime<Utc>,
    ) -> Result<DateTime<Utc>, Error> {
        let now = self.now()?;
        if now == then {
            return Ok(now);
        }
        for (record, item) in records.iter_mut().zip(items) {
            let observed = record.observed_at.as_deref().and_then(|t| parse_time(t).ok());
            let (memory_type, expires_at) =
                lifetime_at(item.memory_type, item.expires_in_days, &record.content, observed, now);
            record.created_at = format_time(now);
            // A moment read from the words ("tomorrow") may have become another type.
            record.memory_type = memory_type;
            record.expires_at = expires_at;
        }
        Ok(now)
    }
}

/// The type and expiry of a memory told at `now` (the days asked for checked): the days
/// asked for, counted from now; untyped, the type its words say, and the moment they name,
/// counted from when the fact was said.
fn lifetime_at(
    memory_type: Option<MemoryType>,
    expires_in_days: Option<u32>,
    content: &str,
    observed: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> (MemoryType, Option<String>) {
    let asked = expires_in_days.map(|days| format_time(now + TimeDelta::days(i64::from(days))));
    let lifetime = match memory_type {
        Some(memory_type) => Lifetime {
            memory_type,
            expires_at: None,
        },
        None => lifetime::infer(content, observed.unwrap_or(now)),
    };
    (
        lifetime.memory_type,
        asked.or_else(|| lifetime.expires_at.map(format_time)),
    )
}

/// What any stored memory's content must be: not empty or invisible, not oversized,
/// not a secret.
pub(super) fn check_content(content: &str) -> Result<(), Error> {
    if content.chars().all(is_invisible) {
        return Err(Error::InvalidInput(if content.is_empty() {
            "content is empty".into()
        } else {
            "content is empty: it holds only invisible or control characters".into()
        }));
    }
    refuse_nul("content", content)?;
    if content.len() > MAX_CONTENT_BYTES {
        return Err(Error::InvalidInput(format!(
            "content is {} bytes; a memory holds at most {MAX_CONTENT_BYTES}",
            content.len()
        )));
    }
    if let Some(kind) = secrets::detect(content) {
        return Err(Error::SecretRefused(format!(
            "this looks like {}; secrets are never stored in memory",
            kind.describe()
        )));
    }
    Ok(())
}

/// A memory's context, trimmed; `None` when it shows nothing. It is searched as the
/// content is, so it is held to the same size and refused for the same secrets.
pub(super) fn check_context(context: Option<&str>) -> Result<Option<String>, Error> {
    let Some(context) = context.map(str::trim).filter(|c| !c.chars().all(is_invisible)) else {
        return Ok(None);
    };
    refuse_nul("the context", context)?;
    if context.len() > MAX_CONTENT_BYTES {
        return Err(Error::InvalidInput(format!(
            "the context is {} bytes; it holds at most {MAX_CONTENT_BYTES}",
            context.len()
        )));
    }
    if let Some(kind) = secrets::detect(context) {
        return Err(Error::SecretRefused(format!(
            "the context looks like {}; secrets are never stored in memory",
            kind.describe()
        )));
    }
    Ok(Some(context.to_owned()))
}

/// Refuses text holding a NUL character: no one types one, it comes from binary data
/// read as text, and C tools reading the files would cut the text short at it.
pub(super) fn refuse_nul(what: &str, text: &str) -> Result<(), Error> {
    if text.contains('\0') {
        return Err(Error::InvalidInput(format!(
            "{what} holds a NUL character (\\0); remove it and send the text again"
        )));
    }
    Ok(())
}

/// A limit the caller gave. Zero is refused: `list` read it as "nothing" and `search` as
/// "one", and a caller who asks for nothing has made a mistake worth telling.
pub(super) fn check_limit(limit: Option<u32>, without: &str) -> Result<(), Error> {
    if limit == Some(0) {
        return Err(Error::InvalidInput(format!(
            "the limit is 0; give 1 or more, or no limit for {without}"
        )));
    }
    Ok(())
}

/// Subject references are user text like any other: a secret in one is refused.
pub(super) fn check_subjects(refs: &[String]) -> Result<(), Error> {
    for r in refs {
        if let Some(kind) = secrets::detect(r) {
            return Err(Error::SecretRefused(format!(
                "a subject looks like {}; secrets are never stored in memory",
                kind.describe()
            )));
        }
    }
    Ok(())
}

/// Whether a character shows nothing: controls, zero-width and formatting characters,
/// variation selectors. Content made only of these (and spaces) is empty.
fn is_invisible(c: char) -> bool {
    c.is_whitespace()
        || c.is_control()
        || matches!(c,
            '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
            | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}'
            | '\u{E0000}'..='\u{E007F}' | '\u{E0100}'..='\u{E01EF}')
}

/// A timestamp's year must stay within what RFC 3339 can write and read back.
fn check_year(name: &str, t: DateTime<Utc>) -> Result<(), Error> {
    if YEARS.contains(&t.year()) {
        Ok(())
    } else {
        Err(Error::InvalidInput(format!(
            "{name} {} is outside the years {} to {}",
            format_time(t),
            YEARS.start(),
            YEARS.end()
        )))
    }
}
