//! The context's "Relevant past messages": what was said in the caller's other sessions,
//! found by the rules `search` finds memories by. A conversation stored through
//! `persist-turn` is evidence as memories are: by meaning and by words, fused by rank; a
//! message that only asks weighed down and its reply credited with it (`replies`); a name
//! most messages hold left out of the query.
//!
//! By meaning alone, the past messages held the evidence of a fifth to a third of LoCoMo's
//! questions where the same turns stored as memories gave two thirds: the message that
//! names the rare word of a question ("pottery", "Perseid") is rarely the closest by
//! meaning (figures: docs/performance.md#past-messages).

use std::collections::HashMap;

use chrono::{DateTime, Utc};

use super::MemoryService;
use super::searching::QueryVectors;
use crate::api::{Error, PastMessage};
use crate::collection::Records;
use crate::conversation::records::session_scope;
use crate::conversation::{MessageRecord, Role, SessionRecord};
use crate::entities;
use crate::ports::{EntryKind, Ports, ScopeFilter};
use crate::record::parse_time;
use crate::replies;
use crate::scope::Caller;
use crate::search::{QUESTION_WEIGHT, asks, fuse, query_terms};
use crate::vectors::cosine;

/// How many candidates each list brings: more than search's [`crate::search::LIST_DEPTH`], since the
/// current session's messages, often the nearest, are left out only after.
const PAST_DEPTH: u32 = 256;
/// The most past messages the context shows (seed 003).
pub const MAX_PAST_MESSAGES: usize = 5;
/// The least similarity a message found by meaning alone needs (seed 003); one that
/// holds a word of the query is shown however far its meaning.
pub const MIN_PAST_SIMILARITY: f32 = 0.3;

impl<P: Ports> MemoryService<P> {
    /// The caller's past messages most relevant to `text`, from sessions other than the
    /// one named, best first. Call after the memories are loaded (the context's search
    /// does it).
    pub(crate) fn past_messages(
        &mut self,
        caller: &Caller,
        text: &str,
        vectors: &QueryVectors,
        current_session: Option<&str>,
    ) -> Result<Vec<PastMessage>, Error> {
        let Some((user_id, chat_id)) = session_scope(caller) else {
            return Ok(Vec::new());
        };
        self.refresh_conversations()?;
        let sessions: HashMap<&str, &SessionRecord> = self
            .sessions
            .iter()
            .filter(|s| s.visible_to(caller))
            .map(|s| (s.id.as_str(), s))
            .collect();
        let scope = ScopeFilter {
            kind: EntryKind::Message,
            user_id,
            chat_id,
        };
        // A name most of the messages hold pulls the query toward all of them, as it does
        // among memories (`searching::all_common`).
        let (searched, query) = match &vectors.unnamed {
            Some(u) if all_common(&self.messages, &sessions, &u.names) => (u.text.as_str(), Some(&u.vector)),
            _ => (text, vectors.whole.as_ref()),
        };
        let mut similarity: HashMap<String, f32> = HashMap::new();
        let meaning: Vec<String> = match query {
            Some(v) => self
                .ports
                .index_knn(v, PAST_DEPTH, &scope)?
                .into_iter()
                .filter(|h| h.score >= MIN_PAST_SIMILARITY)
                .map(|h| {
                    similarity.insert(h.id.clone(), h.score);
                    h.id
                })
                .collect(),
            None => Vec::new(),
        };
        let words: Vec<String> = self
            .ports
            .index_text_search(&query_terms(searched), PAST_DEPTH, &scope)?
            .into_iter()
            .map(|h| h.id)
            .collect();

        let shown = |m: &MessageRecord| {
            sessions
                .get(m.session_id.as_str())
                .is_some_and(|s| Some(s.name.as_str()) != current_session)
        };
        let mut fused = fuse(&[meaning, words]);
        fused.retain(|(id, _)| self.messages.get(id).is_some_and(shown));
        for (id, score) in &mut fused {
            if self.messages.get(id).is_some_and(|m| asks(&m.content)) {
                *score *= QUESTION_WEIGHT;
            }
        }
        fused.sort_by(|a, b| b.1.total_cmp(&a.1));
        let questions = replies::questions(&fused, |id| self.messages.get(id).is_some_and(|m| asks(&m.content)));
        let answers: Vec<Option<String>> = questions
            .iter()
            .map(|(id, _)| reply_to(&self.messages, id).map(|m| m.id.clone()))
            .collect();
        replies::credit(&mut fused, &questions, &answers, |id| {
            self.messages.get(id).is_some_and(shown)
        });
        fused.sort_by(|a, b| b.1.total_cmp(&a.1));

        let whole = vectors.whole.as_deref();
        Ok(fused
            .iter()
            .take(MAX_PAST_MESSAGES)
            .filter_map(|(id, _)| {
                let m = self.messages.get(id)?;
                // Cosine to the whole query, as before: measured where the vector list did
                // not (a message found by its words or as a reply).
                let score = similarity
                    .get(id)
                    .copied()
                    .filter(|_| query.map(Vec::as_slice) == whole)
                    .or_else(|| whole.zip(m.vector()).map(|(q, v)| cosine(q, &v)))
                    .unwrap_or(0.0);
                Some(PastMessage {
                    id: m.id.clone(),
                    session: sessions.get(m.session_id.as_str())?.name.clone(),
                    role: m.role,
                    content: m.content.clone(),
                    created_at: m.created_at.clone(),
                    score,
                })
            })
            .collect())
    }
}

/// Whether each of `names` is held by too many of the messages of `sessions` to tell them
/// apart ([`entities::is_common`]): a stored conversation names its speakers in every
/// other line.
fn all_common(messages: &Records<MessageRecord>, sessions: &HashMap<&str, &SessionRecord>, names: &[String]) -> bool {
    if names.is_empty() {
        return false;
    }
    let mut visible = 0;
    let mut holders = vec![0; names.len()];
    for m in messages.iter().filter(|m| sessions.contains_key(m.session_id.as_str())) {
        visible += 1;
        for (held, name) in holders.iter_mut().zip(names) {
            if says_name(&m.content, name) {
                *held += 1;
            }
        }
    }
    holders.iter().all(|&n| entities::is_common(n, visible))
}

/// Whether `text` has `name` (lowercased) as a word of its own or with a possessive
/// ("Caroline's"), in any case; without allocating, since it reads every message.
fn says_name(text: &str, name: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '\u{2019}'))
        .map(|word| {
            word.strip_suffix("'s")
                .or_else(|| word.strip_suffix("\u{2019}s"))
                .unwrap_or(word)
        })
        .any(|word| word.chars().flat_map(char::to_lowercase).eq(name.chars()))
}

/// The reply to the message `id` of a conversation: the agent's answer in the same turn
/// to what the user said, else the first message of the session's next turn, stored
/// within [`replies::WINDOW_MICROS`] of it.
fn reply_to<'a>(messages: &'a Records<MessageRecord>, id: &str) -> Option<&'a MessageRecord> {
    let position = messages.position(id)?;
    let asked = messages.at(position)?;
    let at = |m: &MessageRecord| parse_time(&m.created_at).ok();
    let since = at(asked)?;
    let window = chrono::Duration::microseconds(replies::WINDOW_MICROS);
    // Messages are appended as they are said: the reply comes after, and other sessions'
    // messages may come between.
    messages
        .after(position)
        .take_while(|m| at(m).is_none_or(|t: DateTime<Utc>| t - since <= window))
        .find(|m| {
            m.session_id == asked.session_id
                && ((m.turn == asked.turn && asked.role == Role::User && m.role == Role::Assistant)
                    || m.turn == asked.turn + 1)
        })
}

#[cfg(test)]
mod tests {
    use super::says_name;

    #[test]
    fn a_name_is_said_as_a_word_of_its_own_or_with_a_possessive() {
        for text in [
            "Caroline: hi",
            "I met CAROLINE today",
            "Caroline's sister",
            "Caroline\u{2019}s cat",
            "(Caroline)",
        ] {
            assert!(says_name(text, "caroline"), "{text}");
        }
        for text in ["Carolines", "Carol", "caro line", "I met Carolina"] {
            assert!(!says_name(text, "caroline"), "{text}");
        }
        assert!(says_name("Ólafur: hæ", "ólafur"));
    }
}
