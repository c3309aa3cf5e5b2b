//! The context's "Relevant past messages": what was said in the caller's other sessions,
//! found by the rules `search` finds memories by. A conversation stored through
//! `persist-turn` is evidence as memories are: by meaning and by words, fused by rank; a
//! message that only asks weighed down and its reply credited with it (`replies`); a name
//! so many of the messages hold that it tells them apart no better than a stop word
//! ([`entities::is_common`]) left out of the query.
//!
//! By meaning alone, the past messages held the evidence of a third of LoCoMo's questions
//! where the same turns stored as memories gave two thirds: the message that names the
//! rare word of a question ("pottery", "Perseid") is rarely the closest by meaning
//! (figures: docs/performance.md#past-messages).

use std::collections::HashMap;

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
use crate::vectors::{self, cosine};

/// How many candidates each list brings: more than search's [`crate::search::LIST_DEPTH`],
/// since the current session's messages, often the nearest, are left out of them.
const PAST_DEPTH: u32 = 256;
/// The most past messages the context shows (seed 003).
pub const MAX_PAST_MESSAGES: usize = 5;
/// The least similarity a message found by meaning alone needs (seed 003); one that
/// holds a word of the query may be shown however far its meaning.
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
        // The sessions whose messages may be shown: the caller's, but the current one.
        let sessions: HashMap<&str, &SessionRecord> = self
            .sessions
            .iter()
            .filter(|s| s.visible_to(caller) && Some(s.name.as_str()) != current_session)
            .map(|s| (s.id.as_str(), s))
            .collect();
        let shown = |id: &str| {
            self.messages
                .get(id)
                .is_some_and(|m| sessions.contains_key(m.session_id.as_str()))
        };
        let scope = ScopeFilter {
            kind: EntryKind::Message,
            user_id,
            chat_id,
        };
        // A name most of the messages hold pulls the query toward all of them, as it does
        // among memories (`searching::common_names`).
        let unnamed = vectors.without_common(|names| common_names(&self.messages, &sessions, names));
        let (searched, query) = match unnamed {
            Some(u) => (u.text.as_str(), Some(&u.vector)),
            None => (text, vectors.whole.as_ref()),
        };
        let mut similarity: HashMap<String, f32> = HashMap::new();
        // Each list holds only what may be shown before it is fused, as search's do: a
        // current session's message ranked first would cut every other's share.
        let meaning: Vec<String> = match query {
            Some(v) => self
                .ports
                .index_knn(v, PAST_DEPTH, &scope)?
                .into_iter()
                .filter(|h| h.score >= MIN_PAST_SIMILARITY && shown(&h.id))
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
            .filter(|id| shown(id))
            .collect();

        let mut fused = fuse(&[meaning, words]);
        for (id, score) in &mut fused {
            if self.messages.get(id).is_some_and(|m| asks(&m.content)) {
                *score *= QUESTION_WEIGHT;
            }
        }
        fused.sort_by(|a, b| b.1.total_cmp(&a.1));
        let questions = replies::questions(&fused, |id| self.messages.get(id).is_some_and(|m| asks(&m.content)));
        let answers = replies_to(&self.messages, &questions);
        replies::credit(&mut fused, &questions, &answers, shown);
        fused.sort_by(|a, b| b.1.total_cmp(&a.1));

        // The score is the cosine to the whole query, as before: what the vector list
        // measured when it was asked with it, else measured here, against a vector of the
        // embedder that made the query's.
        let whole = vectors.whole.as_deref();
        let measured = query.map(Vec::as_slice) == whole;
        let model = self.ports.embedder_model();
        let dimension = self.ports.embedder_dimension();
        Ok(fused
            .iter()
            .take(MAX_PAST_MESSAGES)
            .filter_map(|(id, _)| {
                let m = self.messages.get(id)?;
                let stored = || {
                    let v = m
                        .vector()
                        .filter(|_| m.embedding_model.as_deref() == Some(model.as_str()))?;
                    vectors::usable(v, dimension)
                };
                let score = similarity
                    .get(id)
                    .copied()
                    .filter(|_| measured)
                    .or_else(|| whole.zip(stored()).map(|(q, v)| cosine(q, &v)))
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

/// Those of `names` held by too many of the messages of `sessions` to tell them apart
/// ([`entities::is_common`]): a stored conversation names its speakers in every other
/// line. One pass over the home's messages.
fn common_names(
    messages: &Records<MessageRecord>,
    sessions: &HashMap<&str, &SessionRecord>,
    names: &[String],
) -> Vec<String> {
    if names.is_empty() {
        return Vec::new();
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
    names
        .iter()
        .zip(holders)
        .filter(|(_, n)| entities::is_common(*n, visible))
        .map(|(name, _)| name.clone())
        .collect()
}

/// Whether `text` has `name` (lowercased) as a word of its own or with a possessive
/// ("Caroline's"), in any case; without allocating, since it reads every message. A
/// hyphen joins a word, as it joins a name ("Jean-Luc") in `entities::recognise`.
fn says_name(text: &str, name: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || matches!(c, '\'' | '\u{2019}' | '-')))
        .map(|word| {
            let word = word.trim_matches('-');
            word.strip_suffix("'s")
                .or_else(|| word.strip_suffix("\u{2019}s"))
                .unwrap_or(word)
        })
        .any(|word| word.chars().flat_map(char::to_lowercase).eq(name.chars()))
}

/// The reply to each of `questions` (message ids), in order: the agent's answer in the
/// same turn to what the user asked, else the first message of the session's next turn,
/// if it was stored within [`replies::WINDOW_MICROS`] of the question. One walk along
/// the messages stored after the first of them, which ends once each is settled.
fn replies_to(messages: &Records<MessageRecord>, questions: &[(String, f32)]) -> Vec<Option<String>> {
    let asked: Vec<Option<(usize, &MessageRecord)>> = questions
        .iter()
        .map(|(id, _)| messages.position(id).zip(messages.get(id)))
        .collect();
    let mut replies: Vec<Option<String>> = vec![None; questions.len()];
    let mut open: Vec<usize> = (0..asked.len()).filter(|&i| asked[i].is_some()).collect();
    let Some(first) = open.iter().filter_map(|&i| asked[i].map(|(p, _)| p)).min() else {
        return replies;
    };
    // Messages are appended as they are said: a reply comes after its question, and
    // other sessions' messages may come between.
    for (position, m) in messages.after(first) {
        open.retain(|&i| {
            let Some((at, q)) = asked[i] else { return false };
            if position <= at || m.session_id != q.session_id {
                return true;
            }
            let answers =
                (m.turn == q.turn && q.role == Role::User && m.role == Role::Assistant) || m.turn == q.turn + 1;
            if answers && within_window(q, m) {
                replies[i] = Some(m.id.clone());
            }
            // The session's next message settles it: the reply, or none.
            !(answers || m.turn > q.turn)
        });
        if open.is_empty() {
            break;
        }
    }
    replies
}

/// Whether `reply` was stored within [`replies::WINDOW_MICROS`] of `question`.
fn within_window(question: &MessageRecord, reply: &MessageRecord) -> bool {
    match (parse_time(&question.created_at), parse_time(&reply.created_at)) {
        (Ok(asked), Ok(said)) => (said - asked)
            .num_microseconds()
            .is_some_and(|d| d <= replies::WINDOW_MICROS),
        _ => false,
    }
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
        for text in ["Jean-Luc: bonjour", "ask Jean-Luc's sister", "-Jean-Luc-"] {
            assert!(says_name(text, "jean-luc"), "{text}");
        }
        assert!(!says_name("Jean: hi, Luc", "jean-luc"));
        assert!(says_name("Caroline - hi", "caroline"));
        assert!(
            !says_name("Caroline-style", "caroline"),
            "a word of its own, as entities read it"
        );
    }
}
