//! `reflect` (seed 004's weekly reflection): the language model sums up what a user told
//! their agent in the past week, stored as a `reflection` memory that the context shows.
//! It runs at most once per 6 days and only with at least 3 new facts; it fails closed.

use chrono::{DateTime, TimeDelta, Utc};

use super::MemoryService;
use super::validation::check_content;
use crate::api::{Error, Memory, NewMemory};
use crate::memory_type::MemoryType;
use crate::ports::{LlmRequest, Ports};
use crate::record::{MemoryRecord, format_time, parse_time};
use crate::scope::Caller;

/// The past a reflection covers.
const WINDOW_DAYS: i64 = 7;
/// The least time between two reflections.
const MIN_GAP_DAYS: i64 = 6;
/// The fewest new facts worth a reflection.
const MIN_FACTS: usize = 3;
/// The most facts sent to the model, the newest kept.
const MAX_FACTS: usize = 200;
/// The longest reflection kept, in characters: a few sentences.
const MAX_CHARS: usize = 1200;

/// What `reflect` did.
#[derive(Debug, Clone, PartialEq)]
pub enum Reflection {
    Written(Box<Memory>),
    Skipped(String),
}

const SYSTEM: &str = "You write a short reflection on what a user told their assistant during the past week. \
Write two to four sentences in the third person (\"The user ...\"), using only the facts given: no advice, no \
guesses, no passwords or other secrets. Answer with the reflection alone.";

impl<P: Ports> MemoryService<P> {
    /// See `reflect` in `wit/memories.wit`.
    pub fn reflect(&mut self, caller: &Caller) -> Result<Reflection, Error> {
        let user = caller
            .user_id
            .clone()
            .ok_or_else(|| Error::InvalidInput("reflections belong to a user, and the caller has none".into()))?;
        let personal = Caller::new(Some(&user), None);
        self.load()?;
        let now = self.now()?;
        if let Some(skipped) = self.too_soon(&user, now) {
            return Ok(skipped);
        }
        let facts = self.week_of_facts(&user, now);
        if facts.len() < MIN_FACTS {
            return Ok(Reflection::Skipped(format!(
                "{} new fact(s) in the past {WINDOW_DAYS} days; a reflection needs at least {MIN_FACTS}",
                facts.len()
            )));
        }
        let prompt: Vec<String> = facts.iter().map(|(at, text)| format!("- ({at}) {text}")).collect();
        let request = LlmRequest {
            system: SYSTEM.to_owned(),
            prompt: format!("Facts from the past week, oldest first:\n{}", prompt.join("\n")),
            max_tokens: 300,
        };
        let answer = match self.ports.complete(&request) {
            Ok(answer) => answer,
            Err(e) => return Ok(Reflection::Skipped(format!("no language model answered: {}", e.0))),
        };
        let text = answer.split_whitespace().collect::<Vec<_>>().join(" ");
        if text.chars().count() > MAX_CHARS {
            return Ok(Reflection::Skipped(format!(
                "the language model's answer is longer than {MAX_CHARS} characters; nothing was written"
            )));
        }
        if let Err(e) = check_content(&text) {
            return Ok(Reflection::Skipped(format!(
                "the language model's answer was not kept: {e}"
            )));
        }
        let item = NewMemory {
            memory_type: Some(MemoryType::Reflection),
            source: Some("reflection".into()),
            ..NewMemory::text(&text)
        };
        // The language model and the embedder may have been asked without the home's lock,
        // while another call wrote this week's reflection: checked again before the write.
        let wanted = |s: &mut Self| {
            s.load()?;
            Ok(s.too_soon(&user, s.now()?).is_none())
        };
        match self.add_batch_if(&personal, vec![item], wanted)? {
            Some(mut added) => Ok(Reflection::Written(Box::new(added.memories.remove(0)))),
            None => Ok(self
                .too_soon(&user, self.now()?)
                .unwrap_or_else(|| Reflection::Skipped("another reflection was written meanwhile".into()))),
        }
    }

    /// Why no reflection is due at `now`, if one was written too recently.
    fn too_soon(&self, user: &str, now: DateTime<Utc>) -> Option<Reflection> {
        let last = self.last_reflection(user)?;
        (now - last < TimeDelta::days(MIN_GAP_DAYS)).then(|| {
            Reflection::Skipped(format!(
                "a reflection was written on {}; the next is due from {}",
                format_time(last),
                format_time(last + TimeDelta::days(MIN_GAP_DAYS))
            ))
        })
    }

    /// When the user's newest reflection (live or replaced, not archived) was written.
    fn last_reflection(&self, user: &str) -> Option<DateTime<Utc>> {
        self.memories
            .iter()
            .filter(|r| r.memory_type == MemoryType::Reflection && r.owner_user_id.as_deref() == Some(user))
            .filter_map(|r| parse_time(&r.created_at).ok())
            .max()
    }

    /// The user's personal facts added in the window, oldest first, as (day, text).
    fn week_of_facts(&self, user: &str, now: DateTime<Utc>) -> Vec<(String, String)> {
        let since = now - TimeDelta::days(WINDOW_DAYS);
        let mut facts: Vec<(DateTime<Utc>, &MemoryRecord)> = self
            .memories
            .iter()
            .filter(|r| r.owner_user_id.as_deref() == Some(user) && r.chat_id.is_none())
            .filter(|r| r.memory_type != MemoryType::Reflection && r.superseded_at.is_none())
            .filter_map(|r| parse_time(&r.created_at).ok().map(|t| (t, r)))
            .filter(|(t, _)| *t > since && *t <= now)
            .collect();
        facts.sort_by_key(|(t, _)| *t);
        let skip = facts.len().saturating_sub(MAX_FACTS);
        facts
            .into_iter()
            .skip(skip)
            .map(|(t, r)| (t.format("%Y-%m-%d").to_string(), r.content.clone()))
            .collect()
    }
}
