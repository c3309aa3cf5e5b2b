//! A thing of the old fact told off or over, the thing read as the new fact's subject
//! ("portugal's off" reads "portugal's" as "Portugal is"): "pottery's finished, I do a life
//! drawing class on thursday nights now" after "I do a pottery class on Thursday nights",
//! "portugal's off, we're doing Cornwall instead" after "we're going to Portugal for our
//! summer holiday". Someone told of ("Tom's off work") is no thing of the old fact's words.

use super::fact::{Fact, Subject};
use super::plans;
use super::words::stem;

/// Whether `n` opens with a thing `o` holds and tells it off, over or given up.
pub(super) fn thing_over(o: &Fact, n: &Fact) -> bool {
    let Subject::Person(thing) = &n.subject else {
        return false;
    };
    let told_by_teller = matches!(o.subject, Subject::User | Subject::We);
    if thing.name.is_some()
        || !told_by_teller
        || o.denied
        || o.past
        || o.former
        || !o.content.contains(&stem(&thing.key))
    {
        return false;
    }
    // "spin's cancelled this week, instructor's sick": one occasion, not the class.
    let lows: Vec<&str> = n.words.iter().map(|w| w.low.as_str()).collect();
    let once = lows.iter().any(|w| matches!(*w, "today" | "tonight" | "tomorrow"))
        || lows.windows(2).any(|p| {
            matches!(p[0], "this" | "next")
                && matches!(
                    p[1],
                    "week" | "weekend" | "morning" | "afternoon" | "evening" | "time" | "month"
                )
        });
    if once || n.words.iter().any(|w| w.asks) {
        return false;
    }
    // The words right after the thing: "'s finished", "is over", "got cancelled".
    let after: Vec<&str> = n.words[n.body.min(n.words.len())..]
        .iter()
        .take(3)
        .map(|w| w.low.as_str())
        .collect();
    let over = |w: &str| {
        matches!(
            w,
            "over" | "finished" | "done" | "cancelled" | "canceled" | "ended" | "closed"
        )
    };
    let ended = match after.as_slice() {
        [first, ..] if over(first) => true,
        ["is" | "are" | "was" | "got" | "has" | "have", second, ..] if over(second) || *second == "off" => true,
        ["has" | "have", "been", third, ..] => over(third),
        // "Wolfsbane broke up last month": a band or a group split. (A name of one word:
        // "The Loose Ends" is no thing of the old fact's here.)
        ["has" | "have" | "are" | "is", "broken" | "split", "up", ..] | ["broke" | "split", "up", ..] => {
            // Of a band the old fact names as one, not of someone ("Kofi broke up with ...").
            o.words
                .iter()
                .any(|w| matches!(w.low.as_str(), "band" | "group" | "duo" | "choir" | "trio"))
        }
        _ => false,
    };
    ended || plans::settled(o, n)
}

/// Whether `o` opens with a thing of the teller's ("Netflix is the only streaming thing I
/// pay for", "Spotify is what I use for music") and `n`, the teller's, ends that thing
/// ("cancelled netflix"). Someone ("Sam is my flatmate") is told by a relation, and the
/// teller must hold the thing in the old fact's own words ("I pay for", "I use").
pub(super) fn opening_thing_ended(o: &Fact, n: &Fact) -> bool {
    let Subject::Person(thing) = &o.subject else {
        return false;
    };
    if thing.name.is_some() || !matches!(n.subject, Subject::User | Subject::We) || o.denied || o.past || o.former {
        return false;
    }
    let lows: Vec<&str> = o.words.iter().map(|w| w.low.as_str()).collect();
    let held = lows.windows(2).any(|p| {
        matches!(p[0], "i" | "we")
            && matches!(
                p[1],
                "pay" | "use" | "have" | "own" | "watch" | "subscribe" | "listen" | "drive" | "bank"
            )
    });
    let relation = lows.iter().any(|w| super::someone::is_relation(w));
    let key = stem(&thing.key);
    held && !relation
        && super::ending::ended_things(n)
            .iter()
            .any(|t| t.len() == 1 && t[0] == key)
}

#[cfg(test)]
mod tests {
    use super::thing_over;
    use crate::judgment::fact::Fact;
    use crate::supersession::RuleContext;

    fn read(text: &str) -> Fact {
        Fact::read(text, &RuleContext::default())
    }

    #[test]
    fn a_thing_told_over_ends_the_fact_that_holds_it() {
        for (old, new) in [
            (
                "I do a pottery class on Thursday nights",
                "pottery's finished, I do a life drawing class on thursday nights now",
            ),
            (
                "we're going to Portugal for our summer holiday this year",
                "portugal's off, flights were too expensive",
            ),
        ] {
            assert!(thing_over(&read(old), &read(new)), "{old} / {new}");
        }
        for (old, new) in [
            ("I work with Tom", "Tom's off work this week"),
            (
                "I do a pottery class on Thursday nights",
                "pottery's my favourite thing",
            ),
            ("I do a pottery class on Thursday nights", "is pottery over?"),
            ("my mum's birthday is in June", "june's over already"),
            (
                "My spin class is Tuesdays at 6pm.",
                "spin's cancelled this week, instructor's sick",
            ),
        ] {
            assert!(!thing_over(&read(old), &read(new)), "{old} / {new}");
        }
    }
}
