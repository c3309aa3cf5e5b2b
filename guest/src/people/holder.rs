//! Who holds a relation that one person holds at a time (a partner, a parent, a boss, a
//! landlord), as a memory tells it. "My manager is Karen" and then "Karen left, my new boss
//! is Dev" name two holders of one relation: the second replaces the first, though their
//! words share nothing but a name.

use super::{introduced, is_capitalized, kinship};

/// A holder of a one-holder relation, as one memory tells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holder {
    pub name: String,
    pub relation: String,
    /// Told as an introduction: "My wife is called Anna", "Anna is my wife".
    pub introduced: bool,
    /// Told as a change: "my new boss is Dev", "my manager is now Dev".
    pub changed: bool,
}

/// The holder a memory names, if it names one: an introduction, or "my [new] <relation>
/// is [now] <Name>" in any clause ("Karen left, my new boss is Dev").
pub fn holder(content: &str) -> Option<Holder> {
    if let Some((name, relation)) = introduced(content)
        && kinship::one_holder(&relation, &relation)
    {
        return Some(Holder {
            name,
            relation,
            introduced: true,
            changed: false,
        });
    }
    let text = content.replace('\u{2019}', "'");
    let words: Vec<&str> = text.split_whitespace().collect();
    let bare = |w: &str| w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
    for i in 0..words.len() {
        if !matches!(bare(words[i]).as_str(), "my" | "our") {
            continue;
        }
        let mut at = i + 1;
        let new = words.get(at).is_some_and(|w| bare(w) == "new");
        at += usize::from(new);
        // "my swim coach": a word of what kind before the relation.
        let holds = |k: usize| {
            words.get(k).is_some_and(|w| {
                let word = bare(w);
                kinship::one_holder(&word, &word)
            })
        };
        // Not "my sister's coach", someone else's.
        if !holds(at) && holds(at + 1) && !words[at].ends_with("'s") {
            at += 1;
        }
        let Some(relation) = words.get(at).map(|w| bare(w)) else {
            continue;
        };
        if !kinship::one_holder(&relation, &relation) {
            continue;
        }
        at += 1;
        // "my manager at work is ...": a place of the relation before its verb.
        if words
            .get(at)
            .is_some_and(|w| matches!(bare(w).as_str(), "at" | "in" | "from"))
        {
            let Some(is) = (at + 1..words.len().min(at + 4)).find(|&k| bare(words[k]) == "is") else {
                continue;
            };
            at = is;
        }
        if words.get(at).is_none_or(|w| bare(w) != "is") {
            continue;
        }
        at += 1;
        let now = words.get(at).is_some_and(|w| bare(w) == "now");
        at += usize::from(now);
        // "a guy called Dev", "a company called Grainger".
        let someone = words.get(at).is_some_and(|w| matches!(bare(w).as_str(), "a" | "an"))
            && words
                .get(at + 2)
                .is_some_and(|w| matches!(bare(w).as_str(), "called" | "named"));
        at += if someone { 2 } else { 0 };
        let called = words
            .get(at)
            .is_some_and(|w| matches!(bare(w).as_str(), "called" | "named"));
        at += usize::from(called);
        // One name, or a first and a last: "Dev", "Dev Patel". A word after it that is not
        // the clause's end ("My boss is French and ...") still leaves the name as told.
        let name: Vec<String> = words[at.min(words.len())..]
            .iter()
            .take(2)
            .map_while(|w| {
                let clean = w.trim_matches(|c: char| !c.is_alphabetic());
                (is_capitalized(clean) && clean.chars().all(char::is_alphabetic) && clean != "I")
                    .then(|| clean.to_owned())
            })
            .collect();
        if name.is_empty() {
            continue;
        }
        // "our landlord is Harbour Lettings now", "my coach is Mike from the pool now": in
        // the name's clause.
        let now_after = words[(at + name.len()).min(words.len())..]
            .iter()
            .take(6)
            .scan(false, |ended, w| {
                let this = (!*ended).then(|| bare(w) == "now");
                *ended |= w.ends_with([',', '.', ';', '!', '?']);
                this
            })
            .any(|now| now);
        return Some(Holder {
            name: name.join(" "),
            relation,
            introduced: called,
            changed: new || now || now_after,
        });
    }
    None
}

/// Whether `new` names another holder of the relation `old` names. A plain "my mum is
/// <Word>" may give no name ("My mum is English"), so two such tellings replace each
/// other only when both introduce, or when the newer says the holder changed.
pub fn replaces(old: &Holder, new: &Holder) -> bool {
    kinship::one_holder(&old.relation, &new.relation)
        && !old.name.eq_ignore_ascii_case(&new.name)
        && ((old.introduced && new.introduced) || new.changed)
}

#[cfg(test)]
mod tests {
    use super::{holder, replaces};

    fn replaced(old: &str, new: &str) -> bool {
        match (holder(old), holder(new)) {
            (Some(o), Some(n)) => replaces(&o, &n),
            _ => false,
        }
    }

    #[test]
    fn a_new_holder_told_as_a_change_replaces_the_old_one() {
        for (old, new) in [
            ("My manager is Karen", "Karen left, my new boss is Dev"),
            ("My boss is Karen Lee", "my boss is now Dev"),
            (
                "My landlord is Mr Patel",
                "we've got a new landlord, our new landlord is Tom",
            ),
            ("My wife is called Priya", "My wife is called Anna"),
            ("My girlfriend is Sofia", "my new girlfriend is Maya"),
            (
                "My manager at work is called Steve",
                "Steve left the company, my new manager is Rachel",
            ),
            (
                "my manager is Karen Doyle",
                "Karen left the company, my new boss is a guy called Dev",
            ),
            (
                "my landlord is a guy called Terry Walsh",
                "terry sold the building so our landlord is Harbour Lettings now",
            ),
            (
                "my swim coach is Lauren",
                "lauren moved to perth so my coach is Mike from the aquatic centre now",
            ),
        ] {
            assert!(replaced(old, new), "{old} / {new}");
        }
    }

    #[test]
    fn a_word_after_is_is_not_always_a_name() {
        for (old, new) in [
            // Not told as a change: "English" may be no holder at all.
            ("My mum is English", "My mum is Sarah"),
            ("My boss is Karen", "My boss is Canadian"),
            // The same holder.
            ("My manager is Karen", "my new manager is Karen"),
            // Many hold a brother's place.
            ("My brother is called Sam", "my new brother is Tom"),
            // Not capitalised: no name.
            ("My boss is Karen", "my new boss is great"),
            // Someone else's coach.
            ("my swim coach is Lauren", "my sister's coach is Mike now"),
        ] {
            assert!(!replaced(old, new), "{old} / {new}");
        }
        assert_eq!(
            holder("My boss is now Dev Patel").map(|h| h.name),
            Some("Dev Patel".to_owned())
        );
        assert_eq!(holder("my boss is a nightmare"), None);
    }
}
