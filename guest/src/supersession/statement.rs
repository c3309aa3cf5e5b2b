//! A fact read as "subject's attribute is value": what the parser makes and the rule
//! compares. Plain data; reading and comparing live above it (`parse`, `rule`).

/// Whether the fact holds, no longer holds, or held once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Polarity {
    Positive,
    /// "I don't live in Lisbon", "My favorite color is no longer red".
    Negative,
    /// "I used to live in Lisbon": true once, not now.
    Former,
}

/// The kind of value, so that a time never replaces a place and a name never replaces a
/// description ("My boss is Mike" and "My boss is strict" are both true).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Shape {
    Time,
    Number,
    /// Starts with a capital: "Lisbon", "Acme".
    Proper,
    /// "a Honda", "an apartment".
    Indefinite,
    /// "the suburbs".
    Definite,
    /// "my parents' house".
    Possessive,
    Plain,
}

/// How many values an attribute holds at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Valued {
    /// One at a time: where one lives, a favorite color.
    Single,
    /// One person at a time, named: "My boss is Mike". Descriptions are many.
    Named,
    /// Many at a time: likes, languages, places visited. Only a flip of the same value
    /// ("I like dogs", then "I don't like dogs") replaces.
    Multi,
    /// Preferences replace only within one kind of thing: "window seats" and "aisle seats".
    Prefer,
    /// Possessions: many, but a new count of the same thing replaces ("2 kids", "3 kids").
    Count,
    /// One field of work ("finance", "marketing"); a capitalized value may as well be a
    /// place, and one works in a field and in a city at once.
    Field,
}

/// A fact read as "subject's attribute is value".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    /// "user", "we", a subject's name, or the thing talked about.
    pub subject: String,
    /// "favorite color", "lives in", "likes", "standup at".
    pub attribute: String,
    /// The value, lowercased, without articles: "blue", "porto", "9am".
    pub value: String,
    /// What limits the fact: "in the summer", "at the hospital". Facts with different
    /// qualifiers can both be true.
    pub(super) qualifier: String,
    pub(super) polarity: Polarity,
    pub(super) shape: Shape,
    pub(super) valued: Valued,
    /// The pronoun the subject was given as, if any: "she" and "he" are never one person.
    pub(super) pronoun: Option<&'static str>,
}

/// Who a fact is about, before the context says who that is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Who {
    User,
    We,
    Pronoun(&'static str),
    Other(String),
}
