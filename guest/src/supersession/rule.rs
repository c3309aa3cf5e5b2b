//! The conservative rule: whether a newer statement replaces an older one, and the block
//! that groups the statements that could.

use super::parse::parse_in;
use super::regions::is_region;
use super::rule_context::RuleContext;
use super::statement::{Polarity, Shape, Statement, Valued};
use super::values::{refines, singular};

impl Statement {
    /// Whether `self` (older) is replaced by `new`.
    pub(super) fn replaced_by(&self, new: &Statement) -> bool {
        if self.subject != new.subject
            || self.attribute != new.attribute
            || self.qualifier != new.qualifier
            || self.valued != new.valued
        {
            return false;
        }
        if let (Some(a), Some(b)) = (self.pronoun, new.pronoun)
            && a != b
        {
            return false;
        }
        if self.value == new.value {
            // The same value, now denied: the old fact is no longer true.
            return matches!(
                (self.polarity, new.polarity),
                (Polarity::Positive, Polarity::Negative)
                    | (Polarity::Negative, Polarity::Positive)
                    | (Polarity::Positive, Polarity::Former)
            );
        }
        // "I no longer live in Lisbon" and "I live in Porto" are both true.
        if self.polarity != Polarity::Positive || new.polarity != Polarity::Positive || self.shape != new.shape {
            return false;
        }
        // "Lisbon" after "Portugal", or "Portugal" after "Lisbon": both can be true.
        if refines(&self.value, &new.value) || is_region(&self.value) != is_region(&new.value) {
            return false;
        }
        match self.valued {
            Valued::Single => true,
            Valued::Named => self.shape == Shape::Proper,
            Valued::Field => self.shape == Shape::Plain,
            Valued::Multi => false,
            Valued::Prefer => {
                let (a, b): (Vec<&str>, Vec<&str>) = (self.value.split(' ').collect(), new.value.split(' ').collect());
                a.len() >= 2 && b.len() >= 2 && a.last() == b.last()
            }
            Valued::Count => {
                self.shape == Shape::Number && {
                    let noun = |v: &str| v.split_once(' ').map(|(_, n)| singular(n));
                    noun(&self.value).is_some() && noun(&self.value) == noun(&new.value)
                }
            }
        }
    }
}

impl Statement {
    /// The statement's block: two statements whose blocks differ never replace one
    /// another, so a bulk import compares a new fact only with the facts in its block.
    /// It is [`Statement::replaced_by`]'s equalities, plus the part of the value each kind
    /// of attribute compares: the whole value where only a flip of the same value
    /// replaces, the last word for preferences, the counted noun for possessions.
    pub fn block(&self) -> String {
        let value = match self.valued {
            Valued::Single | Valued::Named | Valued::Field => String::new(),
            Valued::Multi => self.value.clone(),
            Valued::Prefer => self.value.rsplit(' ').next().unwrap_or_default().to_owned(),
            Valued::Count => match self.value.split_once(' ') {
                Some((_, noun)) => singular(noun),
                None => self.value.clone(),
            },
        };
        // The unit separator cannot occur in a tokenized word.
        format!(
            "{}\u{1f}{}\u{1f}{}\u{1f}{:?}\u{1f}{value}",
            self.subject, self.attribute, self.qualifier, self.valued
        )
    }
}

/// The conservative rule, in context: replace only when both facts state the same
/// attribute of the same subject and the new one makes the old one untrue. When unsure,
/// keep both.
pub fn rule_replaces(old: &str, new: &str, ctx: &RuleContext) -> bool {
    match (parse_in(old, ctx), parse_in(new, ctx)) {
        (Some(a), Some(b)) => a.replaced_by(&b),
        _ => false,
    }
}

/// The block of a fact under the rule, in context: [`rule_replaces`] is false for two facts
/// whose blocks differ (or that have none), so candidates for the rule can be grouped by
/// it instead of searched for. `None` when the rule cannot read the fact.
pub fn rule_block(text: &str, ctx: &RuleContext) -> Option<String> {
    parse_in(text, ctx).map(|s| s.block())
}

/// The conservative rule without context: a personal memory about no one in particular.
pub fn rule_says_replaces(old: &str, new: &str) -> bool {
    rule_replaces(old, new, &RuleContext::default())
}
