//! The pages that show: the memories, a search, one memory with its history, the people,
//! the conversations, and the home's figures. Each asks the store for the session's caller
//! only, through the readers, and escapes every text it shows.

use std::collections::HashMap;
use std::fmt::Write as _;

use ash_memory::{Error, ListOptions, Memory, MemoryStore, MemoryType, SearchQuery};

use super::Ui;
use super::html::{Frame, esc, url_part, when};
use super::parts::{by_id, corrections, details, extracted_contents, memory_table, type_counts};

/// A page: its title and body, or what went wrong.
pub type Page = Result<(String, String), Error>;

/// The most memories the list shows.
const LIST_LIMIT: u32 = 500;

impl Ui {
    /// Runs `f` for the caller on a reader.
    pub(super) async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut MemoryStore) -> Result<T, Error> + Send + 'static,
    ) -> Result<T, Error> {
        self.shared.worker.read(f).await
    }

    /// `/`: the caller's memories, newest first.
    pub(super) async fn memories(&self, frame: &Frame<'_>, show_all: bool) -> Page {
        let caller = frame.caller.clone();
        let (memories, standings) = self
            .read(move |s| {
                let options = ListOptions {
                    limit: Some(LIST_LIMIT),
                    memory_type: None,
                    include_expired: show_all,
                    include_superseded: show_all,
                };
                let memories = s.list(&caller, &options)?;
                let ids: Vec<String> = memories.iter().map(|m| m.id.clone()).collect();
                let standings = s.standings(&caller, &ids)?;
                Ok((memories, standings))
            })
            .await?;
        let mut body = String::new();
        let _ = write!(
            body,
            r#"<p>{} {}. <a href="{}">{}</a></p>"#,
            memories.len(),
            if memories.len() == 1 { "memory" } else { "memories" },
            if show_all { "/" } else { "/?all=1" },
            if show_all {
                "Show only live memories"
            } else {
                "Also show replaced and expired ones"
            }
        );
        body.push_str(&memory_table(&memories, &by_id(standings), None));
        Ok(("Memories".into(), body))
    }

    /// `/search?q=`: the caller's search, with why each memory was found.
    pub(super) async fn search(&self, frame: &Frame<'_>, query: &str) -> Page {
        if query.trim().is_empty() {
            return Ok((
                "Search".into(),
                "<p>Type what you are looking for in the search box.</p>".into(),
            ));
        }
        let caller = frame.caller.clone();
        let text = query.to_owned();
        let (results, standings) = self
            .read(move |s| {
                let results = s.search(&caller, &SearchQuery::new(text).limit(20))?;
                let ids: Vec<String> = results.hits.iter().map(|h| h.memory.id.clone()).collect();
                let standings = s.standings(&caller, &ids)?;
                Ok((results, standings))
            })
            .await?;
        let mut body = String::new();
        for notice in &results.notices {
            let _ = write!(body, r#"<p class="notice">{}</p>"#, esc(notice));
        }
        if results.hits.is_empty() {
            body.push_str("<p>Nothing found.</p>");
        }
        let memories: Vec<Memory> = results.hits.iter().map(|h| h.memory.clone()).collect();
        let found: HashMap<String, String> = results
            .hits
            .iter()
            .map(|h| {
                let reasons: Vec<&str> = h.reasons.iter().map(|r| r.as_str()).collect();
                let mut why = format!("{:.3}", h.score);
                if !reasons.is_empty() {
                    let _ = write!(why, " by {}", reasons.join(", "));
                }
                if let Some(sim) = h.similarity {
                    let _ = write!(why, " (similarity {sim:.2})");
                }
                (h.memory.id.clone(), why)
            })
            .collect();
        body.push_str(&memory_table(&memories, &by_id(standings), Some(&found)));
        Ok((format!("Search: {query}"), body))
    }

    /// `/memory/ID`: one memory, its history chain, and the corrections.
    pub(super) async fn memory(&self, frame: &Frame<'_>, id: &str) -> Page {
        let caller = frame.caller.clone();
        let wanted = id.to_owned();
        let (chain, standings, people) = self
            .read(move |s| {
                let chain = s.history(&caller, &wanted)?;
                let ids: Vec<String> = chain.iter().map(|m| m.id.clone()).collect();
                let standings = s.standings(&caller, &ids)?;
                let people = if caller.user_id.is_some() {
                    s.people_list(&caller)?
                } else {
                    Vec::new()
                };
                Ok((chain, standings, people))
            })
            .await?;
        let standings = by_id(standings);
        let Some(memory) = chain.iter().find(|m| m.id == id || m.id.starts_with(id)) else {
            return Err(Error::MemoryNotFound(id.to_owned()));
        };
        let mut body = String::new();
        let _ = write!(
            body,
            r#"<blockquote class="content">{}</blockquote>"#,
            esc(&memory.content)
        );
        body.push_str(&details(memory, standings.get(&memory.id), &people));
        let live = memory.archived_at.is_none() && memory.superseded_at.is_none();
        if live {
            body.push_str(&corrections(frame, memory));
        }
        body.push_str("<h2>History</h2>");
        if chain.len() == 1 {
            body.push_str("<p>Nothing replaced it, and it replaced nothing.</p>");
        }
        body.push_str(r#"<ol class="history">"#);
        for m in &chain {
            let mut state = match (&m.superseded_by_id, m.archive_reason) {
                (Some(by), _) => {
                    let next = chain.iter().find(|n| &n.id == by);
                    format!(
                        r#"replaced by <a href="/memory/{}">{}</a>"#,
                        url_part(by),
                        esc(next.map_or(by.as_str(), |n| n.content.as_str()))
                    )
                }
                (None, Some(reason)) => format!("archived ({})", reason.as_str().replace('_', " ")),
                (None, None) if m.superseded_at.is_some() => "replaced".into(),
                (None, None) => "live".into(),
            };
            if m.superseded_by_id.is_some()
                && let Some(reason) = m.archive_reason.filter(|r| r.as_str() != "superseded")
            {
                let _ = write!(state, ", then archived ({})", reason.as_str().replace('_', " "));
            }
            let current = if m.id == memory.id {
                r#" aria-current="true""#
            } else {
                ""
            };
            let _ = write!(
                body,
                r#"<li{current}><a href="/memory/{}">{}</a> <span class="meta">stored {}; {state}</span></li>"#,
                url_part(&m.id),
                esc(&m.content),
                when(&m.created_at),
            );
        }
        body.push_str("</ol>");
        Ok(("Memory".into(), body))
    }

    /// `/memory/ID/delete`: asks before deleting.
    pub(super) async fn confirm_delete(&self, frame: &Frame<'_>, id: &str) -> Page {
        let caller = frame.caller.clone();
        let wanted = id.to_owned();
        let memory = self.read(move |s| s.get(&caller, &wanted)).await?;
        let body = format!(
            r#"<p>Delete this memory? The agent will no longer recall it; its history keeps it as deleted.</p><blockquote class="content">{}</blockquote>{} <a href="/memory/{}">Cancel</a>"#,
            esc(&memory.content),
            frame.post_button(&format!("/memory/{}/delete", url_part(&memory.id)), "Delete", ""),
            url_part(&memory.id)
        );
        Ok(("Delete a memory".into(), body))
    }

    /// `/people`: the caller's people.
    pub(super) async fn people(&self, frame: &Frame<'_>) -> Page {
        let caller = frame.caller.clone();
        if caller.user_id.is_none() {
            return Ok((
                "People".into(),
                "<p>People belong to a user; this session has none.</p>".into(),
            ));
        }
        let (people, memories) = self
            .read(move |s| Ok((s.people_list(&caller)?, s.list(&caller, &ListOptions::new())?)))
            .await?;
        let mut body = String::new();
        if people.is_empty() {
            body.push_str("<p>No people yet. They appear when memories name them.</p>");
        } else {
            body.push_str(
                r#"<table><thead><tr><th scope="col">Name</th><th scope="col">Relation</th><th scope="col">Also called</th><th scope="col">Memories</th></tr></thead><tbody>"#,
            );
            for p in &people {
                let count = memories.iter().filter(|m| m.subject_person_ids.contains(&p.id)).count();
                let _ = write!(
                    body,
                    r#"<tr><td><a href="/person/{}">{}</a></td><td>{}</td><td>{}</td><td>{count}</td></tr>"#,
                    url_part(&p.id),
                    esc(&p.name),
                    esc(p.relation.as_deref().unwrap_or("")),
                    esc(&p.aliases.join(", "))
                );
            }
            body.push_str("</tbody></table>");
        }
        Ok(("People".into(), body))
    }

    /// `/person/ID`: one person, what is remembered about them, who is one hop away, and
    /// the changes (alias, merge, forget).
    pub(super) async fn person(&self, frame: &Frame<'_>, id: &str) -> Page {
        let caller = frame.caller.clone();
        let wanted = id.to_owned();
        let (person, people, memories) = self
            .read(move |s| {
                let person = s.people_show(&caller, &wanted)?;
                Ok((person, s.people_list(&caller)?, s.list(&caller, &ListOptions::new())?))
            })
            .await?;
        let name_of = |pid: &str| people.iter().find(|p| p.id == pid).map(|p| p.name.clone());
        let mut body = String::new();
        let _ = write!(
            body,
            r#"<dl><dt>Relation</dt><dd>{}</dd><dt>Also called</dt><dd>{}</dd><dt>First recorded</dt><dd>{}</dd></dl>"#,
            esc(person.relation.as_deref().unwrap_or("not known")),
            esc(&if person.aliases.is_empty() {
                "no other names".to_owned()
            } else {
                person.aliases.join(", ")
            }),
            when(&person.created_at)
        );
        let about: Vec<&Memory> = memories
            .iter()
            .filter(|m| m.subject_person_ids.contains(&person.id))
            .collect();
        let _ = write!(body, "<h2>Memories about {}</h2>", esc(&person.name));
        if about.is_empty() {
            body.push_str("<p>None.</p>");
        } else {
            body.push_str("<ul>");
            for m in &about {
                let _ = write!(
                    body,
                    r#"<li><a href="/memory/{}">{}</a></li>"#,
                    url_part(&m.id),
                    esc(&m.content)
                );
            }
            body.push_str("</ul>");
        }
        // One hop: the person's own edges, and the people named beside them.
        let mut near: Vec<(String, String)> = person
            .relationships
            .iter()
            .filter_map(|(pid, what)| name_of(pid).map(|n| (pid.clone(), format!("{n} ({what})"))))
            .collect();
        for m in &about {
            for pid in &m.subject_person_ids {
                if pid != &person.id
                    && !near.iter().any(|(id, _)| id == pid)
                    && let Some(n) = name_of(pid)
                {
                    near.push((pid.clone(), format!("{n} (named with them)")));
                }
            }
        }
        body.push_str("<h2>One hop away</h2>");
        if near.is_empty() {
            body.push_str("<p>No one.</p>");
        } else {
            body.push_str("<ul>");
            for (pid, label) in &near {
                let _ = write!(
                    body,
                    r#"<li><a href="/person/{}">{}</a></li>"#,
                    url_part(pid),
                    esc(label)
                );
            }
            body.push_str("</ul>");
        }
        let here = format!("/person/{}", url_part(&person.id));
        body.push_str("<h2>Change</h2>");
        body.push_str(&frame.post_button(
            &format!("{here}/alias"),
            "Add alias",
            r#"<label>Alias <input name="alias" required></label> "#,
        ));
        let others: String = people
            .iter()
            .filter(|p| p.id != person.id)
            .map(|p| format!(r#"<option value="{}">{}</option>"#, esc(&p.id), esc(&p.name)))
            .collect();
        if !others.is_empty() {
            body.push_str(&frame.post_button(
                &format!("{here}/merge"),
                "Merge",
                &format!(
                    r#"<label>Merge into {} <select name="other">{others}</select></label> "#,
                    esc(&person.name)
                ),
            ));
        }
        let _ = write!(
            body,
            r#"<form method="get" action="{here}/forget" class="inline"><button type="submit">Forget</button></form>"#
        );
        Ok((person.name.clone(), body))
    }

    /// `/person/ID/forget`: asks before forgetting.
    pub(super) async fn confirm_forget(&self, frame: &Frame<'_>, id: &str) -> Page {
        let caller = frame.caller.clone();
        let wanted = id.to_owned();
        let person = self.read(move |s| s.people_show(&caller, &wanted)).await?;
        let body = format!(
            r#"<p>Forget {}? They leave your people; memories about them alone are archived, and others stop naming them.</p>{} <a href="/person/{}">Cancel</a>"#,
            esc(&person.name),
            frame.post_button(&format!("/person/{}/forget", url_part(&person.id)), "Forget", ""),
            url_part(&person.id)
        );
        Ok((format!("Forget {}", person.name), body))
    }

    /// `/conversations`: the caller's sessions.
    pub(super) async fn conversations(&self, frame: &Frame<'_>) -> Page {
        let caller = frame.caller.clone();
        let sessions = self.read(move |s| s.sessions(&caller)).await?;
        let mut body = String::new();
        if sessions.is_empty() {
            body.push_str("<p>No conversations stored.</p>");
        } else {
            body.push_str(r#"<table><thead><tr><th scope="col">Session</th><th scope="col">Where</th><th scope="col">Turns</th><th scope="col">Read for facts</th><th scope="col">Last turn</th></tr></thead><tbody>"#);
            for s in &sessions {
                let _ = write!(
                    body,
                    r#"<tr><td><a href="/conversation?name={}">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>"#,
                    url_part(&s.name),
                    esc(&s.name),
                    esc(&s.provider),
                    s.turns,
                    s.extracted_turns,
                    when(&s.updated_at)
                );
            }
            body.push_str("</tbody></table>");
        }
        Ok(("Conversations".into(), body))
    }

    /// `/conversation?name=`: one session's messages and what extraction took from each.
    pub(super) async fn conversation(&self, frame: &Frame<'_>, name: &str) -> Page {
        let caller = frame.caller.clone();
        let wanted = name.to_owned();
        let (messages, contents) = self
            .read(move |s| {
                let messages = s.session_messages(&caller, &wanted)?;
                let contents = extracted_contents(s, &caller, &messages)?;
                Ok((messages, contents))
            })
            .await?;
        let mut body = String::from(r#"<ol class="messages">"#);
        for m in &messages {
            let role = match m.role {
                ash_memory::Role::User => "user",
                ash_memory::Role::Assistant => "assistant",
            };
            let _ = write!(
                body,
                r#"<li id="m-{}"><span class="meta">turn {}, {role}, {}</span><p>{}</p>"#,
                esc(&m.id),
                m.turn,
                when(&m.created_at),
                esc(&m.content)
            );
            if !m.extracted.is_empty() {
                body.push_str(r#"<p class="meta">Facts taken from it:</p><ul class="facts">"#);
                for id in &m.extracted {
                    let text = contents.get(id).map_or("(no longer visible)", String::as_str);
                    let _ = write!(body, r#"<li><a href="/memory/{}">{}</a></li>"#, url_part(id), esc(text));
                }
                body.push_str("</ul>");
            }
            body.push_str("</li>");
        }
        body.push_str("</ol>");
        Ok((format!("Conversation {name}"), body))
    }

    /// `/stats`: for the owner, the home's figures and `doctor`'s findings; for a token's
    /// session, the counts of its own memories only.
    pub(super) async fn stats(&self, frame: &Frame<'_>) -> Page {
        let mut body = String::new();
        if frame.owner {
            let (stats, findings) = self.read(|s| Ok((s.stats()?, s.doctor(false)?))).await?;
            let h = &stats.home;
            let _ = write!(
                body,
                r#"<h2>The home</h2><dl><dt>Live memories</dt><dd>{}</dd><dt>Personal</dt><dd>{}</dd><dt>Shared in chats</dt><dd>{}</dd><dt>People</dt><dd>{}</dd><dt>Users</dt><dd>{}</dd><dt>Chats</dt><dd>{}</dd><dt>Fading</dt><dd>{}</dd><dt>Waiting for an embedding</dt><dd>{}</dd><dt>Set-aside lines</dt><dd>{}</dd></dl>"#,
                h.memories, h.personal, h.group, h.people, h.users, h.chats, h.fading, h.pending, stats.quarantined
            );
            body.push_str(&type_counts(h.by_type.iter().map(|(t, n)| (*t, *n))));
            body.push_str(r#"<h2>Doctor</h2><ul class="findings">"#);
            for f in &findings {
                let _ = write!(
                    body,
                    r#"<li class="{}">{}: {}</li>"#,
                    if f.ok { "ok" } else { "problem" },
                    esc(&f.check),
                    esc(&f.detail)
                );
            }
            body.push_str("</ul>");
        } else {
            let caller = frame.caller.clone();
            let memories = self.read(move |s| s.list(&caller, &ListOptions::new())).await?;
            let _ = write!(body, "<h2>Your memories</h2><p>{} live memories.</p>", memories.len());
            body.push_str(&type_counts(
                MemoryType::ALL
                    .iter()
                    .map(|t| (*t, memories.iter().filter(|m| m.memory_type == *t).count() as u64)),
            ));
        }
        Ok(("Stats".into(), body))
    }
}
