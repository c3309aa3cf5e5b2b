//! `context`: the block an agent injects before each response, fitted to a token budget
//! by keeping what matters most to the message (`crate::context::budget` has the order).
//! What the block says and how it is rendered is `crate::context`'s.

use std::collections::HashMap;

use chrono::{DateTime, Utc};

use super::MemoryService;
use crate::api::{ContextBlock, Error, Memory, Person, SearchQuery};
use crate::api::{PastMessage, SearchHit};
use crate::context::budget::{self, Part};
use crate::context::{Blocks, DEFAULT_MAX_TOKENS, MAX_MEMORIES, MAX_PEOPLE, estimate_tokens, render};
use crate::index_time;
use crate::lifecycle;
use crate::memory_type::MemoryType;
use crate::ports::{Level, Ports};
use crate::record::parse_time;
use crate::scope::Caller;
use crate::search::Floor;

impl<P: Ports> MemoryService<P> {
    /// The context for a message; see `context` in `wit/recall.wit`.
    pub fn context(
        &mut self,
        caller: &Caller,
        message: &str,
        max_tokens: Option<u32>,
        session: Option<&str>,
    ) -> Result<ContextBlock, Error> {
        // A budget of nothing is a mistake: the block would say "nothing in memory".
        if max_tokens == Some(0) {
            return Err(Error::InvalidInput(format!(
                "max_tokens is 0; give 1 or more, or none for {DEFAULT_MAX_TOKENS}"
            )));
        }
        let budget = max_tokens.unwrap_or(DEFAULT_MAX_TOKENS);
        // One moment for every part, in whole microseconds as the index compares them.
        let now = index_time::whole_micros(self.now()?);
        let (mut memories, past_messages) = if message.trim().is_empty() {
            self.load_as_needed()?;
            self.begin_walk()?;
            (Vec::new(), Vec::new())
        } else {
            let query = SearchQuery {
                text: message.to_owned(),
                limit: Some(MAX_MEMORIES),
                about: None,
            };
            let (vectors, notices) = self.embed_query(message.trim());
            // The search reads the memories (from the index when it stands in for the
            // file); past messages then read only the conversation collections.
            let hits = self
                .search_embedded(caller, &query, Floor::NONE, vectors.clone(), notices)?
                .hits;
            let past = self.past_messages(caller, message.trim(), &vectors, session.map(str::trim))?;
            (hits, past)
        };
        // What the block walks besides the hits, fetched when the index stands in for the
        // file (`newest`).
        self.hold_newest_for_context(caller, now)?;
        let private = caller.chat_id.is_none();
        if private {
            self.hold_profile(caller, now)?;
        }
        let reflection = self.latest_reflection(caller, now);
        // Shown in its own section, not twice.
        if let Some(r) = &reflection {
            memories.retain(|h| h.memory.id != r.id);
        }
        // The profile holds private facts: it is not shown in a chat, where others read
        // what the agent is told.
        let profile = if private {
            self.profile_of(caller, now)
        } else {
            Default::default()
        };
        // A memory the profile shows is not shown again among the relevant ones.
        memories.retain(|h| !profile.memory_ids.contains(&h.memory.id));
        let profile = profile.notes;
        let people = self.recently_active_people(caller, now)?;
        let all = Blocks {
            profile: &profile,
            people: &people,
            memories: &memories,
            past_messages: &past_messages,
            reflection: reflection.as_ref(),
            today: Some(now.date_naive()),
        };
        let order = budget::keep_order(message, &all, self.ports.settings().weak_similarity);
        // Everything, if it fits; else each part in order, kept if the block still fits
        // with it, so that a long part high in the order does not shut out short ones.
        let mut kept: Vec<Part> = order.clone();
        if estimate_tokens(&render(&all)) > budget {
            kept.clear();
            for part in &order {
                kept.push(*part);
                let fitted = Fitted::keeping(&all, &kept);
                if estimate_tokens(&render(&fitted.blocks(&all))) > budget {
                    kept.pop();
                }
            }
        }
        let fitted = Fitted::keeping(&all, &kept);
        let markdown = if kept.is_empty() {
            String::new()
        } else {
            render(&fitted.blocks(&all))
        };
        let dropped = (order.len() - kept.len()) as u32;
        let memories = fitted.memories;
        let past_messages = fitted.past_messages;
        let profile = fitted.profile;
        let people = fitted.people;
        if self.memories.is_partial() {
            self.ports.log(
                Level::Debug,
                &format!(
                    "context: answered from the index, which reflects memories.jsonl up to byte {}",
                    self.memories.state().end
                ),
            );
        }
        Ok(ContextBlock {
            estimated_tokens: estimate_tokens(&markdown),
            people,
            memories,
            past_messages,
            profile,
            markdown,
            dropped,
        })
    }

    /// The newest live personal reflection of the caller's user, if any: by when it was
    /// observed, equal moments by id (the order of the index's `newest`).
    fn latest_reflection(&self, caller: &Caller, now: DateTime<Utc>) -> Option<Memory> {
        let user = caller.user_id.as_ref()?;
        // A partial cache holds, and a walk names, what `hold_newest_for_context` fetched.
        self.walked()
            .filter(|r| r.memory_type == MemoryType::Reflection && r.owner_user_id.as_ref() == Some(user))
            .filter(|r| r.chat_id.is_none() && lifecycle::is_live(r, now))
            .min_by(|a, b| {
                index_time::observed(b)
                    .cmp(&index_time::observed(a))
                    .then(a.id.cmp(&b.id))
            })
            .map(Memory::from)
    }

    /// The caller's people, most recently active first: by the latest of their creation,
    /// their last update, and when the newest live memory about them the caller can see
    /// was observed.
    fn recently_active_people(&self, caller: &Caller, now: DateTime<Utc>) -> Result<Vec<Person>, Error> {
        let time = |t: &str| parse_time(t).unwrap_or(DateTime::UNIX_EPOCH);
        let known = self.people_of(caller);
        // The newest memory about each person: by the index's marks when it stands in for
        // the file, else in one pass over the memories.
        let latest = match self.people_moments(caller, &known, now)? {
            Some(moments) => moments,
            None => {
                let mut latest: HashMap<String, i64> = HashMap::new();
                for m in self.walked() {
                    if m.subject_person_ids.is_empty() || !caller.can_see(m) || !lifecycle::is_live(m, now) {
                        continue;
                    }
                    let at = index_time::observed(m);
                    for id in &m.subject_person_ids {
                        let newest = latest.entry(id.clone()).or_insert(at);
                        *newest = (*newest).max(at);
                    }
                }
                latest
            }
        };
        let mut people: Vec<(i64, Person)> = known
            .into_iter()
            .map(|p| {
                let mut active = index_time::micros(time(&p.created_at));
                if let Some(updated) = p.updated_at.as_deref() {
                    active = active.max(index_time::micros(time(updated)));
                }
                if let Some(&at) = latest.get(p.id.as_str()) {
                    active = active.max(at);
                }
                (active, Person::from(p))
            })
            .collect();
        people.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.name.cmp(&b.1.name)));
        Ok(people.into_iter().take(MAX_PEOPLE).map(|(_, p)| p).collect())
    }
}

/// The parts of a block a budget keeps, each section in its own order.
struct Fitted {
    profile: Vec<String>,
    people: Vec<Person>,
    memories: Vec<SearchHit>,
    past_messages: Vec<PastMessage>,
    reflection: bool,
}

impl Fitted {
    fn keeping(all: &Blocks, parts: &[Part]) -> Fitted {
        fn pick<T: Clone>(items: &[T], kept: impl Fn(usize) -> bool) -> Vec<T> {
            items
                .iter()
                .enumerate()
                .filter(|(i, _)| kept(*i))
                .map(|(_, t)| t.clone())
                .collect()
        }
        Fitted {
            profile: pick(all.profile, |i| parts.contains(&Part::Profile(i))),
            people: pick(all.people, |i| parts.contains(&Part::Person(i))),
            memories: pick(all.memories, |i| parts.contains(&Part::Memory(i))),
            past_messages: pick(all.past_messages, |i| parts.contains(&Part::PastMessage(i))),
            reflection: parts.contains(&Part::Reflection),
        }
    }

    fn blocks<'a>(&'a self, all: &Blocks<'a>) -> Blocks<'a> {
        Blocks {
            profile: &self.profile,
            people: &self.people,
            memories: &self.memories,
            past_messages: &self.past_messages,
            reflection: all.reflection.filter(|_| self.reflection),
            today: all.today,
        }
    }
}
