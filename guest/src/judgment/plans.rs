//! A plan that came about, or was given up, ends the plan: "we got the dog! a golden
//! retriever called Biscuit" and "decided against the dog, the flat's too small" after
//! "we're thinking about getting a dog". Progress toward it ("viewed three flats in
//! Bristol"), something else done with the same word ("got a new bed for my mum's dog"),
//! someone else's doing, a question and the past leave the plan as it is.

use std::collections::BTreeSet;

use super::fact::Fact;
use super::slots::is_time;
use super::someone::is_relation;
use super::words::{Word, is_frame, is_generic};
use crate::entities::MONTHS;

/// Whether `n` tells that the plan `o` tells came about or was given up.
pub(super) fn settled(o: &Fact, n: &Fact) -> bool {
    // A line of a conversation ("Caroline: I'm planning to go camping") records what was
    // said then, which a later line does not make untrue: questions ask after the plan.
    if o.speaker.is_some() || n.speaker.is_some() {
        return false;
    }
    if !pending(o) || o.denied || o.past || o.former {
        return false;
    }
    let told = &n.words[n.body.min(n.words.len())..];
    if told.is_empty() || told.iter().any(|w| w.asks) {
        return false;
    }
    // What was planned: the plan's telling words but those of planning itself, and not
    // its day ("football on saturday got cancelled" cancels no trip on Saturday).
    let times: BTreeSet<&str> = o
        .words
        .iter()
        .filter(|w| is_time(&w.low))
        .map(|w| w.stem.as_str())
        .collect();
    let planned: BTreeSet<&str> = o
        .content
        .iter()
        .map(String::as_str)
        .filter(|s| !is_generic(s) && !PLAN_WORDS.contains(s) && !times.contains(s))
        .collect();
    if planned.is_empty() {
        return false;
    }
    let named = |w: &Word| planned.contains(w.stem.as_str());
    let lows: Vec<&str> = told.iter().map(|w| w.low.as_str()).collect();
    // "we went to New York for our honeymoon back in 2012": before the plan was told; "if
    // I gave up on Spanish I'd try Italian": only supposed; "our neighbours decided
    // against a puppy": someone else's.
    let supposed = lows
        .iter()
        .any(|w| matches!(*w, "if" | "unless" | "whether" | "suppose" | "imagine"));
    let others = n.words.iter().take(3).any(|w| {
        let who = w.low.trim_end_matches("'s").trim_end_matches('\'');
        OTHERS.contains(&who)
    });
    if long_past(&lows) || supposed || others {
        return false;
    }
    // Given up, whatever is planned instead: "decided against the dog", "scrapped the gym
    // idea, I'm just going to run outside".
    // Not "I'm not gonna give up on my dreams", which keeps at them.
    // "Dinner party's off", "the trip is off", "portugal's off" (read as about Portugal:
    // its words are the subject's, so the fact's are read from the start).
    let whole = &n.words[n.lead.min(n.words.len())..];
    let all_lows: Vec<&str> = whole.iter().map(|w| w.low.as_str()).collect();
    let off = all_lows
        .windows(2)
        .any(|w| (w[0].ends_with("'s") || matches!(w[0], "is" | "are")) && w[1] == "off")
        && !all_lows.windows(2).any(|w| w == ["off", "to"]);
    if off {
        let stem_of = |w: &Word| super::words::stem(w.low.trim_end_matches("'s"));
        return whole.iter().any(|w| planned.contains(stem_of(w).as_str()));
    }
    let given_up = GIVEN_UP.iter().any(|p| {
        lows.windows(p.len() + 1)
            .any(|w| w[..p.len()] == **p && !matches!(w[p.len()], "give" | "quit" | "stop" | "drop" | "abandon"))
            || lows.ends_with(p)
    });
    if given_up {
        return told.iter().any(named);
    }
    // Come about, told as what holds: "we haven't got the dog yet" has not.
    !n.wish && !lows.contains(&"yet") && (done_to(told, &named) || arrived(told, &named))
}

/// Whether the fact tells a plan: a wish or a plan as the judgment reads them ("I'm
/// thinking about getting a dog", "we're going to adopt a cat"), or words of one that tell
/// nothing else ("I've been meaning to join a gym", "saving up for a wedding").
fn pending(f: &Fact) -> bool {
    if f.wish {
        return true;
    }
    let told = &f.words[f.body.min(f.words.len())..];
    let lows: Vec<&str> = told.iter().map(|w| w.low.as_str()).collect();
    if PENDING_PHRASES.iter().any(|p| lows.windows(p.len()).any(|w| w == *p)) {
        return true;
    }
    // "my goal this year is to ...", not "plays goal attack".
    let goal = told
        .windows(2)
        .any(|p| p[0].low == "goal" && matches!(p[1].low.as_str(), "is" | "this" | "for"));
    goal || told.iter().any(|w| PENDING.contains(&w.low.as_str())) || trip_ahead(&lows)
}

/// A journey or a gathering told with its day ahead: "Flying to New York on 3 June",
/// "heading to Rome next Friday", "I'm hosting a dinner party this Saturday".
fn trip_ahead(lows: &[&str]) -> bool {
    let going = lows.windows(2).take(3).any(|p| {
        matches!(
            p[0],
            "flying" | "travelling" | "traveling" | "heading" | "driving" | "sailing"
        ) && p[1] == "to"
    }) || lows
        .iter()
        .take(3)
        .any(|w| matches!(*w, "hosting" | "throwing" | "organising" | "organizing"));
    let day = lows.iter().enumerate().any(|(i, w)| {
        MONTHS.iter().any(|m| m.eq_ignore_ascii_case(w))
            || crate::entities::WEEKDAYS.iter().any(|d| d.eq_ignore_ascii_case(w))
            || matches!(*w, "tomorrow" | "tonight")
            || *w == "next" && lows.get(i + 1).is_some_and(|x| matches!(*x, "week" | "month" | "year"))
    });
    // "Travelling to Manchester every Tuesday" is a habit.
    going && day && !lows.contains(&"every")
}

/// Whether a verb of getting or doing has the planned thing as what it got or did: "we got
/// the dog", "finally joined the gym", "went to my first ever yoga class". Not "got a new
/// bed for my mum's dog", whose first thing is the bed.
fn done_to(told: &[Word], named: &dyn Fn(&Word) -> bool) -> bool {
    told.iter().enumerate().any(|(i, w)| {
        // "just back from Japan".
        let back = w.low == "from" && i > 0 && told[i - 1].low == "back";
        if !DONE.contains(&w.low.as_str()) && !back {
            return false;
        }
        // "my brother's landed a marketing role": someone else did it.
        let before = &told[i.saturating_sub(3)..i];
        let by_another = before.iter().any(|x| {
            let who = x.low.trim_end_matches("'s");
            is_relation(who) || OTHERS.contains(&who) || x.low.ends_with("'s") && x.cap
        });
        // "we never got the dog": not done.
        let denied = before.iter().any(|x| matches!(x.low.as_str(), "not" | "never" | "no"));
        !by_another
            && !denied
            && told[i + 1..]
                .iter()
                .take(6)
                .find(|x| {
                    !is_frame(&x.low)
                        && !is_time(&x.low)
                        && !MODIFIERS.contains(&x.low.as_str())
                        && !x.low.starts_with(char::is_numeric)
                })
                .is_some_and(named)
    })
}

/// Whether the words place what they tell before any plan of now: "last year", "last
/// May", "in 2018", "years ago", "back in", "when I was".
fn long_past(lows: &[&str]) -> bool {
    lows.windows(2).any(|p| match p {
        ["last", when] => {
            matches!(*when, "year" | "summer" | "winter" | "spring" | "autumn")
                || MONTHS.iter().any(|m| m.eq_ignore_ascii_case(when))
        }
        ["in", year] => year.len() == 4 && year.starts_with(['1', '2']) && year.chars().all(|c| c.is_ascii_digit()),
        [_, "ago"] | ["back", "in"] | ["growing", "up"] => true,
        _ => false,
    }) || lows
        .windows(3)
        .any(|p| p == ["when", "i", "was"] || p == ["as", "a", "kid"])
}

/// Whether the planned thing is told as arrived, done or granted: "the digital piano
/// arrived", "loft's done!", "mortgage offer came through".
fn arrived(told: &[Word], named: &dyn Fn(&Word) -> bool) -> bool {
    told.iter().enumerate().any(|(i, w)| {
        // "came through", "came home": arrived.
        let came = i > 0
            && matches!(told[i - 1].low.as_str(), "came" | "come")
            && matches!(w.low.as_str(), "through" | "home");
        // "approved as foster carers": granted, and then what.
        let granted = matches!(w.low.as_str(), "approved" | "granted" | "accepted");
        let after = if granted {
            &told[i + 1..(i + 4).min(told.len())]
        } else {
            &[]
        };
        (ARRIVED.contains(&w.low.as_str()) || came)
            && (told[i.saturating_sub(4)..i].iter().any(named) || after.iter().any(named))
    })
}

/// Words that make a fact a plan beside the judgment's wishes.
const PENDING: &[&str] = &[
    "intend",
    "intending",
    "meaning",
    "gonna",
    "aim",
    "aiming",
    "saving",
    "waiting",
    "tempted",
    "weighing",
    "eyeing",
    "debating",
    "toying",
    "fancy",
    "resolution",
    "bucket",
    "wishlist",
    "hopefully",
    "discussing",
];

/// Phrases that make a fact a plan: "we've been talking about a hot tub", "a piano has
/// been on my mind", "I need to renew my passport".
const PENDING_PHRASES: &[&[&str]] = &[
    &["talking", "about"],
    &["on", "my", "mind"],
    &["the", "plan", "is"],
    &["is", "the", "plan"],
    &["off", "to"],
    &["need", "to"],
    &["trying", "to"],
    &["looking", "into"],
    &["putting", "off"],
    &["to-do"],
];

/// People a relation does not name, before what they did: "our eldest went veggie".
const OTHERS: &[&str] = &[
    "neighbours",
    "neighbors",
    "friends",
    "friend",
    "colleagues",
    "mates",
    "parents",
    "eldest",
    "youngest",
    "oldest",
    "middle",
    "kid",
    "kids",
    "colleague",
    "neighbour",
    "neighbor",
    "mate",
    "boss",
];

/// Words of planning, which are not what is planned.
const PLAN_WORDS: &[&str] = &[
    "plan",
    "idea",
    "list",
    "goal",
    "dream",
    "wishlist",
    "bucket",
    "resolution",
    "mind",
    "ages",
    "soon",
    "next",
    "intend",
    "meaning",
    "gonna",
    "aim",
    "saving",
    "sav",
    "waiting",
    "wait",
    "tempted",
    "tempt",
    "weighing",
    "eyeing",
    "debating",
    "toying",
    "fancy",
    "seriously",
    "something",
    "hopefully",
    "sometime",
];

/// Verbs of getting or doing, in the past: what follows them is what was got or done.
const DONE: &[&str] = &[
    "got",
    "bought",
    "adopted",
    "booked",
    "joined",
    "signed",
    "enrolled",
    "started",
    "moved",
    "picked",
    "collected",
    "passed",
    "accepted",
    "married",
    "finished",
    "completed",
    "did",
    "fitted",
    "installed",
    "ordered",
    "purchased",
    "rescued",
    "welcomed",
    "landed",
    "hired",
    "upgraded",
    "opened",
    "launched",
    "sold",
    "cleared",
    "renewed",
    "had",
    "went",
    "brought",
];

/// Words that tell a thing arrived, was done or was granted, after it.
const ARRIVED: &[&str] = &[
    "arrived",
    "done",
    "gone",
    "granted",
    "fitted",
    "installed",
    "cleared",
    "approved",
    "official",
    "officially",
    "sorted",
    "live",
    "signed",
    "accepted",
];

/// Words between a verb and what it got that say nothing of what it is: "got my first
/// ever", "bought a brand new".
const MODIFIERS: &[&str] = &[
    "new",
    "first",
    "ever",
    "brand",
    "own",
    "little",
    "second",
    "hand",
    "used",
    "old",
    "big",
    "small",
    "whole",
    "proper",
    "actual",
    "very",
    "finally",
    "officially",
    "ourselves",
    "myself",
    "today",
    "yesterday",
];

/// Phrases that give a plan up.
const GIVEN_UP: &[&[&str]] = &[
    &["decided", "against"],
    &["decided", "not"],
    &["not", "doing"],
    &["not", "bothering"],
    &["not", "going", "to"],
    &["not", "getting"],
    &["given", "up", "on"],
    &["gave", "up", "on"],
    &["giving", "up", "on"],
    &["off", "the", "table"],
    &["scrapped"],
    &["shelved"],
    &["on", "hold"],
    &["cancelled"],
    &["canceled"],
    &["called", "off"],
    &["pulled", "out"],
    &["pull", "out"],
    &["fell", "through"],
    &["fallen", "through"],
    &["dead", "in", "the", "water"],
    &["talked", "myself", "out"],
    &["talked", "ourselves", "out"],
    &["changed", "my", "mind"],
    &["changed", "our", "minds"],
    &["not", "for", "me"],
    &["not", "worth"],
    &["ditched"],
    &["can", "not", "afford"],
    &["rejected"],
    &["did", "not", "get"],
    &["admitting", "defeat"],
    &["stay", "put"],
    &["backed", "out"],
    &["abandoned"],
    &["not", "happening"],
    &["turned", "down"],
];

#[cfg(test)]
mod tests {
    use super::settled;
    use crate::judgment::fact::Fact;
    use crate::supersession::RuleContext;

    fn ends(old: &str, new: &str) -> bool {
        let me = RuleContext::default();
        settled(&Fact::read(old, &me), &Fact::read(new, &me))
    }

    #[test]
    fn a_plan_come_about_or_given_up_ends_it() {
        for (old, new) in [
            (
                "we're thinking about getting a dog",
                "we got the dog! a golden retriever called Biscuit",
            ),
            (
                "we're thinking about getting a dog",
                "decided against the dog, the flat's too small",
            ),
            (
                "I've been meaning to join a gym",
                "finally joined the gym down the road",
            ),
            (
                "Buying a piano has been on my mind for ages",
                "the digital piano arrived, a Yamaha",
            ),
            (
                "I'm applying for a mortgage",
                "mortgage offer came through this morning!!!",
            ),
            (
                "Hoping to get a puppy this summer",
                "we've decided against a puppy, it wouldn't be fair on it",
            ),
            (
                "we've applied to become foster carers",
                "we were approved as foster carers yesterday!",
            ),
            ("Off to Japan in the spring", "just back from Japan, Kyoto was unreal"),
        ] {
            assert!(ends(old, new), "{old} / {new}");
        }
    }

    #[test]
    fn progress_another_thing_or_a_question_leaves_the_plan() {
        for (old, new) in [
            ("we're thinking about getting a dog", "got a new bed for my mum's dog"),
            (
                "I'm hoping to move to Bristol next year",
                "viewed three flats in Bristol this weekend",
            ),
            (
                "we're thinking about getting a dog",
                "what breeds are ok for a small flat?",
            ),
            (
                "I want to learn Spanish",
                "did my first Duolingo Spanish lesson on the train",
            ),
            (
                "I've put in an application for a job at Amazon",
                "got invited to a second interview with Amazon",
            ),
            (
                "I'm going to Japan in April",
                "we went to Japan for our honeymoon back in 2012",
            ),
            (
                "I'm weighing up buying a Tesla Model Y",
                "took a Model Y out for a test drive yesterday",
            ),
            ("I want to go vegetarian", "our eldest went veggie last month"),
            ("we're thinking about getting a dog", "we haven't got the dog yet"),
            ("I'm gonna keep chasing my dreams", "I'm not gonna give up on my dreams"),
            (
                "We're thinking about getting a puppy",
                "Our neighbours decided against a puppy",
            ),
            (
                "I'm planning to learn Spanish this year",
                "If I gave up on Spanish I'd probably try Italian",
            ),
            (
                "Caroline: we're thinking about getting a dog",
                "Caroline: we got the dog!",
            ),
        ] {
            assert!(!ends(old, new), "{old} / {new}");
        }
    }
}
