//! What the rule knows about a memory beyond its text.

/// What the rule knows about the memory beyond its text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RuleContext {
    /// The memory lives in a group chat's scope: "we" and "our" are the group, and "I"
    /// could be any member, so first-person singular facts are never compared there.
    pub group: bool,
    /// Names of the people the memory is about: "she", "his", "their", "Sarah" and
    /// "Sarah's" refer to them.
    pub subject_names: Vec<String>,
}
