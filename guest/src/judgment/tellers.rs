//! The teller's own clauses after someone else's news: "Jess stopped but I still hit the
//! gym before work", "becky's ankle meant the team folded so no netball for me anymore",
//! "my wife went android, I'm still on my iPhone 13". Read whole, such a fact is about
//! someone else; its later clauses of the teller say what became of the old fact.

use super::NewFact;
use super::fact::{Fact, Subject, tells_of_the_teller};
use super::others::someone_elses;
use crate::supersession::RuleContext;

/// A new fact's clauses after its first, read once for all of its candidates (see
/// [`NewFact`]): the teller's own, each with whether it sets itself against the news
/// before it (told after "but" or with "still": "Ana quit but I'm going", "dad moved, I'm
/// still here").
#[derive(Debug, Clone)]
pub(super) struct Clauses<'a> {
    /// The first clause, whose subject says whether the rest follow someone else's news.
    opening: Fact,
    told: Vec<(NewFact<'a>, bool)>,
    /// Whether the whole fact lasts: a change told for a day or a week ends nothing.
    pub(super) lasts: bool,
}

impl<'a> Clauses<'a> {
    /// Reads the clauses of `new` after its first that the teller tells of themself in so
    /// many words ("I", "me", "my", "we"...); `None` when there are none.
    pub(super) fn read(new: &'a str, ctx: &RuleContext) -> Option<Self> {
        let clauses = clauses(new);
        let (first, rest) = clauses.split_first()?;
        let told: Vec<(NewFact<'a>, bool)> = rest
            .iter()
            .filter_map(|&(text, after_but)| {
                let clause = NewFact::read(text, ctx);
                let f = &clause.fact;
                let mine = matches!(f.subject, Subject::User | Subject::We) && tells_of_the_teller(&f.words);
                let kept = after_but || f.words.iter().any(|w| w.low == "still");
                mine.then_some((clause, kept))
            })
            .collect();
        if told.is_empty() {
            return None;
        }
        let lasts = crate::lifetime::infer(new, chrono::DateTime::UNIX_EPOCH)
            .expires_at
            .is_none()
            && !for_a_stretch(new);
        Some(Clauses {
            opening: Fact::read(first.0, ctx),
            told,
            lasts,
        })
    }

    /// The teller's clauses, when the first tells of someone else than `o` does (by name,
    /// relation or pronoun); none otherwise.
    pub(super) fn after_news(&self, o: &Fact) -> &[(NewFact<'a>, bool)] {
        if matches!(self.opening.subject, Subject::Person(_)) || someone_elses(o, &self.opening) {
            &self.told
        } else {
            &[]
        }
    }
}

/// Whether `text` tells of a stretch that passes: "all week", "all weekend", "all day"
/// ("Pool's closed for maintenance all week so no swims for me").
fn for_a_stretch(text: &str) -> bool {
    ["all week", "all weekend", "all day"]
        .iter()
        .any(|s| find_ascii(text, s).is_some())
}

/// `text` cut at punctuation that ends a clause, at " but ", and at " so " before a
/// clause of its own ("so I", "so no more"; not "so far"); each clause with whether it
/// follows "but".
fn clauses(text: &str) -> Vec<(&str, bool)> {
    const JOINS: &[&str] = &[
        " but ", " so i ", " so i'", " so we", " so my ", " so no ", " so that", " so it", " so now ",
    ];
    let mut out = Vec::new();
    for part in text.split([',', ';', '.', '!', '?']) {
        let mut rest = part;
        let mut after_but = false;
        // " but " and " so " are cut away; what follows "so" is kept.
        while let Some((at, len)) = JOINS
            .iter()
            .filter_map(|j| find_ascii(rest, j).map(|at| (at, if j.starts_with(" so") { 4 } else { j.len() })))
            .min()
        {
            out.push((rest[..at].trim(), after_but));
            after_but = len == " but ".len();
            rest = &rest[at + len..];
        }
        out.push((rest.trim(), after_but));
    }
    out.retain(|(c, _)| !c.is_empty());
    out
}

/// Where `needle` (ASCII, lower case) first occurs in `hay`, ASCII case ignored: a byte
/// offset on a character boundary, since no byte of a longer character is ASCII.
fn find_ascii(hay: &str, needle: &str) -> Option<usize> {
    hay.as_bytes()
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::clauses;

    #[test]
    fn a_fact_is_cut_at_its_clauses() {
        assert_eq!(
            clauses("Jess stopped but I still go, twice a week so far. Ana quit so I'm alone now"),
            vec![
                ("Jess stopped", false),
                ("I still go", true),
                ("twice a week so far", false),
                ("Ana quit", false),
                ("I'm alone now", false)
            ]
        );
    }
}
