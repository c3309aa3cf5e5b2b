//! The pieces the pages are built of: a memory table, one memory's facts and the forms
//! that correct it, and the short texts they show (where a memory came from, its scope,
//! its standing). Every text is escaped here, as in the pages.

use std::collections::HashMap;
use std::fmt::Write as _;

use ash_memory::{Caller, Error, Memory, MemoryStore, MemoryType, Person, SessionMessage, Standing};

use super::html::{Frame, esc, url_part, when};

pub(super) fn by_id(standings: Vec<Standing>) -> HashMap<String, Standing> {
    standings.into_iter().map(|s| (s.id.clone(), s)).collect()
}

/// The contents of the memories extraction took from these messages, archived included:
/// a live one by id, an archived one from its history (which reads the archive, so once
/// for each chain).
pub(super) fn extracted_contents(
    s: &mut MemoryStore,
    caller: &Caller,
    messages: &[SessionMessage],
) -> Result<HashMap<String, String>, Error> {
    let mut contents = HashMap::new();
    for id in messages.iter().flat_map(|m| &m.extracted) {
        if contents.contains_key(id) {
            continue;
        }
        match s.get(caller, id) {
            Ok(m) if m.id == *id => {
                contents.insert(m.id, m.content);
            }
            _ => {
                for m in s.history(caller, id).unwrap_or_default() {
                    contents.insert(m.id, m.content);
                }
            }
        }
    }
    Ok(contents)
}

pub(super) fn type_counts(counts: impl Iterator<Item = (MemoryType, u64)>) -> String {
    let mut out =
        String::from(r#"<table><thead><tr><th scope="col">Type</th><th scope="col">Live</th></tr></thead><tbody>"#);
    for (t, n) in counts {
        let _ = write!(out, "<tr><td>{}</td><td>{n}</td></tr>", t.as_str());
    }
    out.push_str("</tbody></table>");
    out
}

/// Where a memory came from, as a person reads it.
fn origin(memory: &Memory, standing: Option<&Standing>) -> String {
    match standing.and_then(|s| s.session.as_ref().map(|n| (n, s))) {
        Some((name, s)) => {
            let anchor = s
                .message
                .as_deref()
                .map(|m| format!("#m-{}", url_part(m)))
                .unwrap_or_default();
            let sure = s
                .extraction_confidence
                .map(|c| format!(" (sure {:.0}%)", c * 100.0))
                .unwrap_or_default();
            let turn = s.turn.map(|t| format!(", turn {t}")).unwrap_or_default();
            format!(
                r#"extracted from <a href="/conversation?name={}{anchor}">{}{turn}</a>{sure}"#,
                url_part(name),
                esc(name)
            )
        }
        None if memory.source == "extraction" => "extracted from a conversation".into(),
        None if memory.source == "correction" => "a correction".into(),
        None => format!("told ({})", esc(&memory.source)),
    }
}

fn scope(memory: &Memory) -> String {
    match &memory.chat_id {
        Some(chat) => format!("shared in {}", esc(chat)),
        None => "personal".into(),
    }
}

fn standing_text(standing: Option<&Standing>) -> String {
    let Some(s) = standing else { return String::new() };
    let mut out = format!("{:.0}%", s.confidence * 100.0);
    if s.confirmed_at.is_some() {
        out.push_str(", confirmed");
    } else if s.fading {
        out.push_str(", fades if unrecalled");
    }
    out
}

/// The memories as a table, each row with its Delete button; `found` adds search's why.
pub(super) fn memory_table(
    memories: &[Memory],
    standings: &HashMap<String, Standing>,
    found: Option<&HashMap<String, String>>,
) -> String {
    if memories.is_empty() {
        return String::new();
    }
    let mut out = String::from(r#"<table class="memories"><thead><tr><th scope="col">Memory</th>"#);
    if found.is_some() {
        out.push_str(r#"<th scope="col">Found</th>"#);
    }
    out.push_str(r#"<th scope="col">Type</th><th scope="col">About</th><th scope="col">Observed</th><th scope="col">Expires</th><th scope="col">Confidence</th><th scope="col">From</th><th scope="col">Scope</th><th scope="col"><span class="hidden">Actions</span></th></tr></thead><tbody>"#);
    for m in memories {
        let s = standings.get(&m.id);
        let about = s.map(|s| s.subjects.join(", ")).unwrap_or_default();
        let state = if m.archive_reason.is_some() || m.superseded_at.is_some() {
            r#" <span class="tag">replaced</span>"#
        } else {
            ""
        };
        let _ = write!(
            out,
            r#"<tr data-id="{}"><td><a href="/memory/{}">{}</a>{state}</td>"#,
            esc(&m.id),
            url_part(&m.id),
            esc(&m.content)
        );
        if let Some(found) = found {
            let _ = write!(out, "<td>{}</td>", esc(found.get(&m.id).map_or("", String::as_str)));
        }
        let delete = if m.superseded_at.is_none() {
            format!(
                r#"<form method="get" action="/memory/{}/delete" class="inline"><button type="submit">Delete</button></form>"#,
                url_part(&m.id)
            )
        } else {
            String::new()
        };
        let _ = write!(
            out,
            "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{delete}</td></tr>",
            m.memory_type.as_str(),
            esc(&about),
            esc(&m.observed_at.as_deref().map(when).unwrap_or_default()),
            esc(&m.expires_at.as_deref().map(when).unwrap_or_else(|| "never".into())),
            standing_text(s),
            origin(m, s),
            scope(m)
        );
    }
    out.push_str("</tbody></table>");
    out
}

/// One memory's facts.
pub(super) fn details(memory: &Memory, standing: Option<&Standing>, people: &[Person]) -> String {
    let about: Vec<String> = memory
        .subject_person_ids
        .iter()
        .map(|id| match people.iter().find(|p| &p.id == id) {
            Some(p) => format!(r#"<a href="/person/{}">{}</a>"#, url_part(&p.id), esc(&p.name)),
            None => esc(id),
        })
        .collect();
    format!(
        "<dl><dt>Type</dt><dd>{}</dd><dt>About</dt><dd>{}</dd><dt>Stored</dt><dd>{}</dd><dt>Observed</dt><dd>{}</dd><dt>Expires</dt><dd>{}</dd><dt>Confidence</dt><dd>{}</dd><dt>From</dt><dd>{}</dd><dt>Scope</dt><dd>{}</dd><dt>State</dt><dd>{}</dd></dl>",
        memory.memory_type.as_str(),
        if about.is_empty() {
            "no one".into()
        } else {
            about.join(", ")
        },
        when(&memory.created_at),
        esc(&memory
            .observed_at
            .as_deref()
            .map(when)
            .unwrap_or_else(|| "not known".into())),
        esc(&memory.expires_at.as_deref().map(when).unwrap_or_else(|| "never".into())),
        standing_text(standing),
        origin(memory, standing),
        scope(memory),
        match (memory.archive_reason, &memory.superseded_at) {
            (Some(reason), _) => format!("archived: {}", reason.as_str().replace('_', " ")),
            (None, Some(_)) => "replaced".into(),
            (None, None) => "live".into(),
        }
    )
}

/// The forms that correct a live memory.
pub(super) fn corrections(frame: &Frame<'_>, memory: &Memory) -> String {
    let here = format!("/memory/{}", url_part(&memory.id));
    let types: String = MemoryType::ALL
        .iter()
        .map(|t| {
            let chosen = if *t == memory.memory_type { " selected" } else { "" };
            format!(r#"<option value="{0}"{chosen}>{0}</option>"#, t.as_str())
        })
        .collect();
    let mut out = String::from("<h2>Correct</h2>");
    out.push_str(&frame.post_button(
        &format!("{here}/correct"),
        "Save text",
        &format!(
            r#"<label for="content">Text</label> <textarea id="content" name="content" rows="3" required>{}</textarea> "#,
            esc(&memory.content)
        ),
    ));
    out.push_str(&frame.post_button(
        &format!("{here}/correct"),
        "Save type",
        &format!(
            r#"<input type="hidden" name="content" value="{}"><label>Type <select name="type">{types}</select></label> "#,
            esc(&memory.content)
        ),
    ));
    out.push_str(&frame.post_button(
        &format!("{here}/correct"),
        "Save expiry",
        &format!(
            r#"<input type="hidden" name="content" value="{}"><label>Expires in days <input name="expires_days" type="number" min="1" max="36500" required></label> "#,
            esc(&memory.content)
        ),
    ));
    out.push_str(&frame.post_button(&format!("{here}/confirm"), "Confirm", ""));
    let _ = write!(
        out,
        r#"<form method="get" action="{here}/delete" class="inline"><button type="submit">Delete</button></form>"#
    );
    out
}
