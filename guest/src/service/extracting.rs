//! `extract`: exchanges not read before, read for facts (`crate::conversation::extraction`)
//! and stored as memories through `add`, so that every rule of an add holds for them
//! (secrets, people, supersession), with their provenance.
//!
//! Fails closed: an answer that does not read stores nothing for its exchange, a fact the
//! user did not say is dropped, and when the language model cannot be reached the
//! conservative rules read the rest of the exchanges instead.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use super::MemoryService;
use crate::api::{Error, Extraction, Memory, NewMemory, Provenance};
use crate::conversation::extraction::{Fact, answer, dates, grounding, prompt, rules};
use crate::conversation::records::session_scope;
use crate::conversation::redaction::REDACTED;
use crate::conversation::{MessageRecord, Role, SessionRecord};
use crate::lifecycle;
use crate::lifetime;
use crate::ports::{Level, Ports};
use crate::record::parse_time;
use crate::scope::Caller;
use crate::secrets;

/// The most exchanges one call reads; the rest wait for the next call.
pub const MAX_EXCHANGES_PER_CALL: usize = 50;

/// One exchange: the user's message and the answer to it.
struct Exchange {
    turn: u64,
    user: MessageRecord,
    assistant: Option<MessageRecord>,
}

impl<P: Ports> MemoryService<P> {
    /// See `extract` in `wit/conversations.wit`.
    pub fn extract(&mut self, caller: &Caller, session: Option<&str>) -> Result<Extraction, Error> {
        if session_scope(caller).is_none() {
            return Err(Error::InvalidInput(
                "extraction needs a caller with a user or a chat, and this one has neither".into(),
            ));
        }
        let settings = self.ports.settings();
        let mut report = Extraction::default();
        if !settings.extraction_enabled {
            report
                .skipped
                .push("extraction is turned off (extraction_enabled = false)".into());
            return Ok(report);
        }
        self.load_conversations()?;
        let name = session.map(str::trim).filter(|s| !s.is_empty());
        let sessions: Vec<SessionRecord> = self
            .sessions
            .iter()
            .filter(|s| s.visible_to(caller) && name.is_none_or(|n| s.name == n))
            .cloned()
            .collect();
        if let Some(n) = name
            && sessions.is_empty()
        {
            return Err(Error::InvalidInput(format!("you have no session named {n:?}")));
        }
        let mut budget = MAX_EXCHANGES_PER_CALL;
        let mut use_llm = true;
        for session in sessions.into_iter().filter(|s| s.extracted_turns < s.turns) {
            let exchanges = self.unread_exchanges(&session, budget);
            if exchanges.is_empty() {
                continue;
            }
            budget -= exchanges.len();
            let mut last = session.extracted_turns;
            for exchange in exchanges {
                report.turns += 1;
                last = exchange.turn;
                // A fact is the personal memory of who said it: the session's user, or in
                // a chat the message's author (a group memory "I'm allergic to peanuts"
                // would read as anyone's).
                let author = match &session.chat_id {
                    None => session.owner_user_id.as_deref(),
                    Some(_) => exchange.user.author_user_id.as_deref(),
                };
                let Some(author) = author else {
                    report.skipped.push(format!(
                        "turn {}: said in a chat by no known user; not read",
                        exchange.turn
                    ));
                    continue;
                };
                let writer = Caller::new(Some(author), None);
                let facts = self.facts_of(&exchange, &mut use_llm, &mut report);
                self.store_facts(
                    &writer,
                    &session,
                    &exchange,
                    facts,
                    settings.extraction_confidence_threshold,
                    &mut report,
                );
            }
            self.mark_extracted(&session.id, last)?;
            if budget == 0 {
                break;
            }
        }
        report.offline = !use_llm;
        // The caller sees what is in their scope only: in a chat a fact is stored as its
        // speaker's personal memory, and one told again is reported as the memory that
        // already said it, which the chat never heard.
        let (shown, theirs): (Vec<Memory>, Vec<Memory>) = std::mem::take(&mut report.stored)
            .into_iter()
            .partition(|m| self.memories.get(&m.id).is_some_and(|r| caller.can_see(r)));
        report.stored = shown;
        report.skipped.extend(
            theirs
                .iter()
                .map(|_| "a fact stored as its speaker's own memory, theirs to see".to_owned()),
        );
        Ok(report)
    }

    /// The session's exchanges after those read, in order, at most `limit`.
    fn unread_exchanges(&self, session: &SessionRecord, limit: usize) -> Vec<Exchange> {
        let mut turns: BTreeMap<u64, (Option<MessageRecord>, Option<MessageRecord>)> = BTreeMap::new();
        for m in self
            .messages
            .iter()
            .filter(|m| m.session_id == session.id && m.turn > session.extracted_turns)
        {
            let slot = turns.entry(m.turn).or_default();
            match m.role {
                Role::User => slot.0 = Some(m.clone()),
                Role::Assistant => slot.1 = Some(m.clone()),
            }
        }
        turns
            .into_iter()
            .filter_map(|(turn, (user, assistant))| {
                Some(Exchange {
                    turn,
                    user: user?,
                    assistant,
                })
            })
            .take(limit)
            .collect()
    }

    /// The facts of one exchange: from the language model while it answers, else from
    /// the rules (and from the rules for every later exchange of this call).
    fn facts_of(&self, exchange: &Exchange, use_llm: &mut bool, report: &mut Extraction) -> Vec<Fact> {
        let at = parse_time(&exchange.user.created_at).unwrap_or(DateTime::UNIX_EPOCH);
        if *use_llm {
            let request = prompt::request(
                &exchange.user.content,
                exchange.assistant.as_ref().map(|a| a.content.as_str()),
                at,
            );
            match self.ports.complete(&request) {
                Ok(text) => {
                    report.llm_calls += 1;
                    return match answer::parse_facts(&text) {
                        Ok(facts) => facts,
                        Err(e) => {
                            report.skipped.push(format!(
                                "turn {}: the language model's answer was not read ({e}); nothing was stored from it",
                                exchange.turn
                            ));
                            Vec::new()
                        }
                    };
                }
                Err(e) => {
                    self.ports.log(
                        Level::Info,
                        &format!("no language model answered ({}); extracting by rules", e.0),
                    );
                    *use_llm = false;
                }
            }
        }
        rules::extract(&exchange.user.content)
    }

    /// Whether another call has read the exchange since this one began: a language model
    /// or an embedder is asked without the home's lock, and two calls may read one session
    /// side by side. What that call stored from it names the message (`own` are the
    /// memories this call stored from it); a call that wrote its facts and died before it
    /// marked the session read left them too.
    fn read_meanwhile(&mut self, session_id: &str, exchange: &Exchange, own: &[String]) -> Result<bool, Error> {
        self.load_conversations()?;
        let marked = self
            .sessions
            .get(session_id)
            .is_some_and(|s| s.extracted_turns >= exchange.turn);
        let message = Some(exchange.user.id.as_str());
        Ok(marked
            || self
                .memories
                .iter()
                .any(|m| m.source_message_id.as_deref() == message && !own.contains(&m.id)))
    }

    /// Stores the facts that pass every check, each through `add`.
    fn store_facts(
        &mut self,
        writer: &Caller,
        session: &SessionRecord,
        exchange: &Exchange,
        facts: Vec<Fact>,
        threshold: f32,
        report: &mut Extraction,
    ) {
        let at = parse_time(&exchange.user.created_at).unwrap_or(DateTime::UNIX_EPOCH);
        let turn = exchange.turn;
        let mut own: Vec<String> = Vec::new();
        for fact in facts
            .into_iter()
            .take(crate::conversation::extraction::MAX_FACTS_PER_EXCHANGE)
        {
            let content = dates::resolve(&fact.content, at);
            let skip = if fact.confidence < f64::from(threshold) {
                Some(format!("confidence {:.2} is below {threshold}", fact.confidence))
            } else if !grounding::grounded(&fact.content, &exchange.user.content) {
                Some("the user did not say it".to_owned())
            } else if content.contains(REDACTED) || secrets::detect(&content).is_some() {
                Some("it holds a secret".to_owned())
            } else if self.holds(writer, &content, at) {
                Some("it is already remembered".to_owned())
            } else {
                None
            };
            if let Some(why) = skip {
                report.skipped.push(format!("turn {turn}: {content:?}: {why}"));
                continue;
            }
            // A fact that names a moment ("my dentist appointment is tomorrow at 3pm") lives
            // until it, typed as the same words told to `add` are: the extractor's type
            // comes from the sentence's form ("remember that ..."), not from its lifetime.
            let names_a_moment = fact.expires_in_days.is_none() && lifetime::infer(&content, at).expires_at.is_some();
            let item = NewMemory {
                content: content.clone(),
                memory_type: (!names_a_moment).then_some(fact.memory_type),
                expires_in_days: fact.expires_in_days,
                subjects: fact.subjects,
                shared: false,
                source: Some("extraction".into()),
                observed_at: Some(exchange.user.created_at.clone()),
                context: None,
                provenance: Some(Provenance {
                    session_id: session.id.clone(),
                    message_id: exchange.user.id.clone(),
                    confidence: fact.confidence,
                }),
            };
            // Checked when the fact is about to be written: after the model and the embedder
            // were asked, perhaps without the lock.
            let stored = own.clone();
            let wanted = |s: &mut Self| s.read_meanwhile(&session.id, exchange, &stored).map(|read| !read);
            match self.add_batch_if(writer, vec![item], wanted) {
                Ok(Some(mut added)) => {
                    own.extend(added.memories.iter().map(|m| m.id.clone()));
                    report.stored.append(&mut added.memories);
                }
                Ok(None) => {
                    report.skipped.push(format!(
                        "turn {turn}: another call read it meanwhile; its facts are stored once"
                    ));
                    return;
                }
                Err(e) => report.skipped.push(format!("turn {turn}: {content:?}: {e}")),
            }
        }
    }

    /// Whether the writer's scope already holds this fact, live, in the same words (case,
    /// spacing and punctuation aside).
    fn holds(&self, writer: &Caller, content: &str, at: DateTime<Utc>) -> bool {
        let key = normalise(content);
        let now = self.now().unwrap_or(at);
        self.memories.iter().any(|r| {
            let same_scope = match &writer.chat_id {
                Some(chat) => r.chat_id.as_ref() == Some(chat),
                None => r.chat_id.is_none() && r.owner_user_id == writer.user_id,
            };
            same_scope && lifecycle::is_live(r, now) && normalise(&r.content) == key
        })
    }

    /// Records that the session's exchanges up to `turn` were read. The session is read
    /// again first: a language model is asked without the home's lock.
    fn mark_extracted(&mut self, session_id: &str, turn: u64) -> Result<(), Error> {
        self.sessions.refresh(&self.ports)?;
        let Some(mut session) = self.sessions.get(session_id).cloned() else {
            return Ok(());
        };
        if session.extracted_turns >= turn {
            return Ok(());
        }
        session.extracted_turns = turn;
        self.sessions.append(&self.ports, vec![session])?;
        Ok(())
    }
}

/// Lowercase words joined by single spaces.
fn normalise(text: &str) -> String {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}
