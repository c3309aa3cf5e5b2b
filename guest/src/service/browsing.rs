//! `browse`: what the memory browser shows beyond the memory calls. Each memory's
//! standing (confidence, whom it is about, the conversation it came from), and the
//! caller's conversations with the facts extraction took from each turn. Nothing here
//! writes, and nothing outside the caller's scope is shown or counted.

use std::collections::{HashMap, HashSet};

use super::MemoryService;
use crate::api::{Error, SessionMessage, SessionSummary, Standing};
use crate::decay;
use crate::ports::{Collection, Ports};
use crate::record::{MemoryRecord, parse_time};
use crate::scope::Caller;

/// The most memories one `standings` call describes: a page of the browser, with room.
pub const MAX_STANDINGS: usize = 1000;

impl<P: Ports> MemoryService<P> {
    /// See `standings` in `wit/browse.wit`.
    pub fn standings(&mut self, caller: &Caller, ids: &[String]) -> Result<Vec<Standing>, Error> {
        if ids.len() > MAX_STANDINGS {
            return Err(Error::InvalidInput(format!(
                "{} ids asked for; ask for at most {MAX_STANDINGS} at a time",
                ids.len()
            )));
        }
        self.load_conversations()?;
        let now = self.now()?;
        let told = self.ports.settings().decay_told_facts;
        let mut archived: HashMap<String, MemoryRecord> = HashMap::new();
        if ids.iter().any(|id| self.memories.get(id).is_none()) {
            let wanted: HashSet<&str> = ids.iter().map(String::as_str).collect();
            let chunk = self.ports.read(Collection::Archive, 0, None)?;
            for line in chunk.data.lines() {
                if let Ok(r) = MemoryRecord::parse(line)
                    && wanted.contains(r.id.as_str())
                {
                    archived.insert(r.id.clone(), r);
                }
            }
        }
        let mut out = Vec::new();
        for id in ids {
            let Some(r) = self.memories.get(id).or_else(|| archived.get(id)) else {
                continue;
            };
            if !caller.can_see(r) {
                continue;
            }
            // A session, and its message, are named only to those who may see the session:
            // a fact shared into a chat from a private session does not reveal it.
            let session = r
                .source_session_id
                .as_deref()
                .and_then(|s| self.sessions.get(s))
                .filter(|s| s.visible_to(caller));
            let message = session
                .and(r.source_message_id.as_deref())
                .and_then(|m| self.messages.get(m));
            out.push(Standing {
                id: r.id.clone(),
                subjects: self.names(caller, &r.subject_person_ids),
                confidence: decay::confidence(r, now) as f32,
                confirmed_at: r.confirmed_at.clone(),
                fading: r.archived_at.is_none() && decay::may_fade_away(r, told),
                session: session.map(|s| s.name.clone()),
                message: message.map(|m| m.id.clone()),
                turn: message.map(|m| u32::try_from(m.turn).unwrap_or(u32::MAX)),
                extraction_confidence: r.extraction_confidence.map(|c| c as f32),
            });
        }
        Ok(out)
    }

    /// See `sessions` in `wit/browse.wit`.
    pub fn sessions(&mut self, caller: &Caller) -> Result<Vec<SessionSummary>, Error> {
        self.load_conversations()?;
        let mut found: Vec<SessionSummary> = self
            .sessions
            .iter()
            .filter(|s| s.visible_to(caller))
            .map(|s| SessionSummary {
                name: s.name.clone(),
                provider: s.provider.clone(),
                turns: u32::try_from(s.turns).unwrap_or(u32::MAX),
                extracted_turns: u32::try_from(s.extracted_turns).unwrap_or(u32::MAX),
                created_at: s.created_at.clone(),
                updated_at: s.updated_at.clone(),
            })
            .collect();
        let time = |t: &str| parse_time(t).ok();
        found.sort_by(|a, b| {
            time(&b.updated_at)
                .cmp(&time(&a.updated_at))
                .then_with(|| a.name.cmp(&b.name))
        });
        Ok(found)
    }

    /// See `messages` in `wit/browse.wit`.
    pub fn session_messages(&mut self, caller: &Caller, name: &str) -> Result<Vec<SessionMessage>, Error> {
        if name.trim().is_empty() {
            return Err(Error::InvalidInput("no session name given".into()));
        }
        self.load_conversations()?;
        let ids: HashSet<&str> = self
            .sessions
            .iter()
            .filter(|s| s.name == name && s.visible_to(caller))
            .map(|s| s.id.as_str())
            .collect();
        if ids.is_empty() {
            return Err(Error::NotFound(name.to_owned()));
        }
        // What extraction took from each message, archived facts included: a fact
        // replaced since still came from that turn.
        let mut extracted: HashMap<String, Vec<String>> = HashMap::new();
        let mut note = |r: &MemoryRecord| {
            if let (Some(session), Some(message)) = (&r.source_session_id, &r.source_message_id)
                && ids.contains(session.as_str())
                && caller.can_see(r)
            {
                let list = extracted.entry(message.clone()).or_default();
                if !list.contains(&r.id) {
                    list.push(r.id.clone());
                }
            }
        };
        for r in self.memories.iter() {
            note(r);
        }
        let chunk = self.ports.read(Collection::Archive, 0, None)?;
        for line in chunk.data.lines() {
            if let Ok(r) = MemoryRecord::parse(line) {
                note(&r);
            }
        }
        let mut messages: Vec<SessionMessage> = self
            .messages
            .iter()
            .filter(|m| ids.contains(m.session_id.as_str()))
            .map(|m| SessionMessage {
                id: m.id.clone(),
                turn: u32::try_from(m.turn).unwrap_or(u32::MAX),
                role: m.role,
                content: m.content.clone(),
                created_at: m.created_at.clone(),
                extracted: extracted.remove(&m.id).unwrap_or_default(),
            })
            .collect();
        let time = |t: &str| parse_time(t).ok();
        // Stable: a turn's user message stays before its answer.
        messages.sort_by_key(|m| time(&m.created_at));
        Ok(messages)
    }
}
