//! Scoping and authorization (seed 000). A memory is personal (an owner, no chat) or group
//! (a chat, no owner). A caller sees their own personal memories and the group memories
//! of the chat they are in; nothing else, on any path.

use crate::ports::ScopeFilter;
use crate::record::MemoryRecord;

/// Who is asking.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Caller {
    pub user_id: Option<String>,
    pub chat_id: Option<String>,
}

/// Where a new memory goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    Personal { owner_user_id: String },
    Group { chat_id: String },
}

impl Caller {
    pub fn new(user_id: Option<&str>, chat_id: Option<&str>) -> Self {
        let clean = |v: Option<&str>| v.map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned);
        Caller {
            user_id: clean(user_id),
            chat_id: clean(chat_id),
        }
    }

    /// Whether this caller may see the record.
    pub fn can_see(&self, record: &MemoryRecord) -> bool {
        match (&record.chat_id, &record.owner_user_id) {
            // A chat id makes it a group memory (older data may also carry the adder).
            (Some(chat), _) => self.chat_id.as_ref() == Some(chat),
            (None, Some(owner)) => self.user_id.as_ref() == Some(owner),
            (None, None) => false,
        }
    }

    /// Whether this caller may delete the record: the owner of a personal memory, or a
    /// user in the chat of a group memory. Call only for records the caller can see.
    pub fn can_delete(&self, record: &MemoryRecord) -> bool {
        self.can_see(record) && self.user_id.is_some()
    }

    /// Where a new memory from this caller goes.
    pub fn scope_for_new(&self, shared: bool) -> Result<Scope, String> {
        if shared {
            match &self.chat_id {
                Some(chat_id) => Ok(Scope::Group {
                    chat_id: chat_id.clone(),
                }),
                None => Err("a shared memory needs a chat, and the caller has none".into()),
            }
        } else {
            match &self.user_id {
                Some(user) => Ok(Scope::Personal {
                    owner_user_id: user.clone(),
                }),
                None => Err("a personal memory needs a user, and the caller has none".into()),
            }
        }
    }

    /// The index filter that matches `can_see`.
    pub fn filter(&self) -> ScopeFilter {
        ScopeFilter {
            kind: crate::ports::EntryKind::Memory,
            user_id: self.user_id.clone(),
            chat_id: self.chat_id.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(owner: Option<&str>, chat: Option<&str>) -> MemoryRecord {
        let line = serde_json::json!({
            "id": "m", "version": 1, "content": "x", "memory_type": "knowledge",
            "embedding": null, "created_at": "2026-01-01T00:00:00+00:00",
            "owner_user_id": owner, "chat_id": chat,
        });
        MemoryRecord::parse(&line.to_string()).unwrap()
    }

    #[test]
    fn personal_is_owner_only_and_group_is_chat_only() {
        let alice_in_a = Caller::new(Some("alice"), Some("a"));
        let bob_in_a = Caller::new(Some("bob"), Some("a"));
        let alice_in_b = Caller::new(Some("alice"), Some("b"));
        let personal = record(Some("alice"), None);
        let group = record(None, Some("a"));
        assert!(alice_in_a.can_see(&personal) && alice_in_b.can_see(&personal));
        assert!(!bob_in_a.can_see(&personal));
        assert!(alice_in_a.can_see(&group) && bob_in_a.can_see(&group));
        assert!(!alice_in_b.can_see(&group));
        assert!(!Caller::default().can_see(&record(None, None)));
        assert!(bob_in_a.can_delete(&group));
        assert!(!Caller::new(None, Some("a")).can_delete(&group));
    }

    #[test]
    fn new_memories_need_the_right_identity() {
        assert!(Caller::new(None, Some("a")).scope_for_new(false).is_err());
        assert!(Caller::new(Some("u"), None).scope_for_new(true).is_err());
        assert_eq!(
            Caller::new(Some(" u "), Some("")).scope_for_new(false),
            Ok(Scope::Personal {
                owner_user_id: "u".into()
            })
        );
    }
}
