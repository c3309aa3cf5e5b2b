//! The small switches of daily life, told in passing: "back in the office 3 days a week
//! now" after "I work from home full time", "moved out at last!!! got a tiny studio" after
//! "I live with my parents", "on the vape now instead of cigs" after "I smoke". Each
//! [`Frame`] is one way of living that holds one way at a time (how one gets to work, who
//! one lives with, what one smokes); a new fact that tells another of its ways, as news
//! and of the teller, replaces the old one.
//!
//! What keeps both: a way told beside the old one ("I cycle, or get the bus when it
//! rains"), a one-off ("working from home today"), a plan ("might get the train instead"),
//! a question, someone else's way ("The kids have gone vegetarian", "got my son a pixel"),
//! a thing bought that is no way of living ("bought a new car" after "I cycle to work"),
//! and, where one may have many of a kind (consoles, headphones, teas), one more told
//! without a switch.

mod frames;
mod holders;
mod often;

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};

use super::fact::{Fact, Subject};
use super::slots::slot_of;
use super::someone::is_relation;
use super::words::{Word, words};
use frames::{BRANDS, FRAMES, Frame};
pub(super) use holders::{is_role, new_favourite, new_holder};
pub(super) use often::new_rate;

/// "been in bed by 10 every night lately" after "I go to bed around midnight": a routine's
/// time told anew, in the perfect as often as not.
pub(super) fn retimed(o: &Fact, n: &Fact) -> bool {
    let teller = |f: &Fact| matches!(f.subject, Subject::User | Subject::We);
    // A figure is its value, whatever word it was read beside: "in 2019" and "2019 was".
    fn values(f: &Fact) -> BTreeSet<&str> {
        f.content
            .iter()
            .filter_map(|w| {
                w.split_once('#')
                    .map(|(_, v)| v)
                    .or_else(|| w.contains(|c: char| c.is_ascii_digit()).then_some(w.as_str()))
            })
            .collect()
    }
    // A time of the clock or a day, not a count: "one of my flatmates is thinking of moving
    // out" tells no time of "I live with two flatmates".
    fn clock(f: &Fact) -> bool {
        let lows = f.body_lows();
        lows.iter().enumerate().any(|(i, w)| {
            crate::entities::WEEKDAYS.iter().any(|d| w.trim_end_matches('s') == *d)
                || matches!(*w, "midnight" | "midday" | "noon")
                || (w.ends_with("am") || w.ends_with("pm")) && w[..w.len() - 2].parse::<u32>().is_ok()
                || w.parse::<f32>().is_ok()
                    && i > 0
                    && matches!(
                        lows[i - 1],
                        "at" | "by" | "til" | "till" | "until" | "around" | "from" | "to" | "before" | "after"
                    )
        })
    }
    // "the toddler's bedtime is 7 now": someone else's routine.
    let theirs = n.body_lows().iter().any(|w| is_relation(w.trim_end_matches("'s")));
    teller(o)
        && teller(n)
        && !o.wish
        && !o.past
        && !o.former
        && !n.former
        && !theirs
        && clock(o)
        && clock(n)
        && !PLANS.iter().any(|p| has(&n.body_lows(), p))
        && values(o) != values(n)
        && super::ending::rescheduled(o, n)
}

/// "yoga's moved to thursdays" after "My yoga class is on Monday evenings": the "'s" of a
/// thing the old fact names read the thing as someone; it is the old fact's, moved.
pub(super) fn moved_thing(o: &Fact, n: &Fact) -> bool {
    let Subject::Person(thing) = &n.subject else {
        return false;
    };
    // "they pushed spanish back to 8": the class's teachers. Not "my dentist moved to Leeds".
    let told_with_s = n.words[..n.body.min(n.words.len())].iter().any(|w| {
        let bare = w.low.trim_end_matches("'s");
        w.low.ends_with("'s") && (bare == thing.key || super::words::stem(bare) == thing.key)
    });
    let theirs = thing.key == "they" || told_with_s && o.content.contains(&super::words::stem(&thing.key));
    thing.name.is_none()
        && theirs
        && !o.wish
        && matches!(o.subject, Subject::User | Subject::We)
        && super::ending::rescheduled_in(o, n, &n.all)
}

/// Words to find the old way by when `f` tells a way of a frame: what the frame is about
/// and its other ways, as users write them ("finally switched to octopus" looks for
/// "energy", "supplier", "gas"; "I'm on Vodafone" is found by its brand).
pub(super) fn candidate_terms(f: &Fact) -> Vec<String> {
    let words = &f.words[f.body.min(f.words.len())..];
    let mut terms: Vec<String> = Vec::new();
    for frame in FRAMES.iter().chain(BRANDS) {
        let (told, ended) = ways(frame, words);
        if told.is_empty() && ended.is_empty() {
            continue;
        }
        let others = frame
            .ways
            .iter()
            .filter(|(way, _)| !told.contains(way))
            .flat_map(|(_, phrases)| phrases.iter());
        for phrase in frame.about.iter().chain(others) {
            for word in phrase.split(' ') {
                let plain = word.chars().all(|c| c.is_alphanumeric());
                if plain && word.len() > 2 && !terms.iter().any(|t| t == word) {
                    terms.push(word.to_owned());
                }
            }
        }
    }
    terms.retain(|t| !matches!(t.as_str(), "the" | "with" | "from" | "into" | "and" | "for"));
    terms.truncate(12);
    terms
}

/// Whether `n` tells another way of one of the frames `o` tells.
pub(super) fn switched_way(o: &Fact, n: &Fact) -> bool {
    let new = n.body_lows();
    let teller = |f: &Fact| matches!(f.subject, Subject::User | Subject::We);
    if !teller(o) || !(teller(n) || workplace_did(n, &new)) || o.past || o.former || n.former || o.wish {
        return false;
    }
    if n.words.iter().any(|w| w.asks) || PLANS.iter().any(|p| has(&new, p)) {
        return false;
    }

    // "The kids have gone vegetarian": someone else's way, though no subject was read.
    let led_by_kin = new.iter().take(2).any(|w| {
        let w = w.trim_end_matches("'s");
        is_relation(w) || matches!(w, "kid" | "kids" | "boys" | "girls" | "children")
    });
    // An allergy is no way of eating ("I'm allergic to dairy" before "switched to oat
    // milk"), and a job no way of living ("I work at Tesco" before "we shop at Lidl now").
    let old_lows = o.body_lows();
    let allergy = old_lows.iter().any(|w| {
        matches!(
            *w,
            "allergic" | "allergy" | "intolerant" | "intolerance" | "coeliac" | "celiac"
        )
    });
    // Read only for a frame not of work: the slots are the dearer reading.
    let job = std::cell::OnceCell::new();
    let job = || *job.get_or_init(|| slot_of(o).is_some_and(|s| matches!(s.name.as_str(), "employer" | "role")));
    if led_by_kin || allergy {
        return false;
    }
    // A thing got for someone else is theirs: "got my son a pixel".
    let for_someone = new.iter().any(|w| is_relation(w.trim_end_matches("'s")));
    // "went into the office last Thursday" is a day's doing; "been getting the train since
    // we moved" a way that holds, and "went back full time last month" news of one.
    let once_done = n.past && !HOLDS_NOW.iter().any(|p| has(&new, p));
    let of = |frame: &&Frame| (frame.of_work || !job()) && !(frame.doings && once_done);
    let (o, n) = (
        &o.words[o.body.min(o.words.len())..],
        &n.words[n.body.min(n.words.len())..],
    );
    FRAMES.iter().filter(of).any(|frame| switched_in(frame, o, n))
        || !for_someone && BRANDS.iter().filter(of).any(|frame| switched_in(frame, o, n))
}

/// Words that tell a way told in the past as holding now.
const HOLDS_NOW: &[&str] = &[
    "now",
    "these days",
    "lately",
    "since",
    "anymore",
    "instead",
    "no more",
    "nowadays",
];

/// "they're making us go back in 3 days a week", "work gave me a ThinkPad and I sold the
/// mac": the teller's workplace, school or club, told as "they" or by name of what it is,
/// did it to the teller. A person ("Sarah went vegan and I'm so impressed") did not.
fn workplace_did(n: &Fact, new: &[&str]) -> bool {
    matches!(&n.subject, Subject::Person(p) if INSTITUTIONS.contains(&p.key.as_str()))
        && new.iter().any(|w| matches!(*w, "us" | "me" | "my" | "our"))
}

/// What acts on the teller without being a person of their life.
pub(super) const INSTITUTIONS: &[&str] = &[
    "they",
    "work",
    "company",
    "boss",
    "office",
    "hr",
    "management",
    "school",
    "uni",
    "university",
    "gym",
    "club",
];

fn switched_in(frame: &Frame, o: &[Word], n: &[Word]) -> bool {
    let old: Vec<&str> = o.iter().map(|w| w.low.as_str()).collect();
    let new: Vec<&str> = n.iter().map(|w| w.low.as_str()).collect();
    let (old, new) = (old.as_slice(), new.as_slice());
    // What the old fact is about, read first: most frames are no fact's.
    let about = frame.about.iter().any(|a| has(old, a));
    if !about && !frame.named {
        return false;
    }
    let (was, was_not) = ways(frame, o);
    // A brand of another kind of thing: "My TV is a Samsung" names no phone.
    let other_kind = OTHER_KINDS
        .iter()
        .any(|k| old.contains(k) && !frame.about.iter().any(|a| read(a, |a| a.iter().any(|x| x == k))));
    let named = frame.named && !was.is_empty() && !other_kind;
    if !(about || named) {
        return false;
    }
    if frame.about_in_new && !frame.about.iter().any(|a| has(new, a)) && !NEW_HOME.iter().any(|a| has(new, a)) {
        return false;
    }
    let (is, ended) = ways(frame, n);
    // "having the odd glass of wine again" after "I don't drink alcohol": a way denied,
    // now told.
    let taken_up = was.is_empty() && !was_not.is_disjoint(&is);
    if !taken_up && (was.is_empty() || is.is_empty() || !was.is_disjoint(&is)) {
        return false;
    }
    // "working from home today": a doing of one day is no new way of doing it.
    let once = ONE_OFFS.iter().any(|p| has(new, p)) || (frame.doings && DAYS_OF_DOING.iter().any(|p| has(new, p)));
    if once {
        return false;
    }
    // A thing got is no way of living unless the new fact says it is one: "got an
    // e-scooter so no more waiting for the 42", not "bought a new car".
    // "I've got a carbon road bike" tells what one has; "got a galaxy s24" what one got.
    let got = new
        .iter()
        .enumerate()
        .any(|(i, w)| *w == "got" && (i == 0 || !matches!(new[i - 1], "have" | "has")));
    let news = NEWS.iter().any(|p| has(new, p)) || got || !ended.is_disjoint(&was);
    let lived = !frame.things || frame.about.iter().any(|a| has(new, a)) || LIVED.iter().any(|p| has(new, p));
    // One may have many of a kind (consoles, headphones, teas): only a switch told as one
    // ends the old ("switched to", "instead", the old one sold or dead).
    // A way denied and now told, or given up for none, is a switch by itself.
    let switched = frame.exclusive
        || taken_up
        || is.contains("none")
        || SWITCHES.iter().any(|p| has(new, p))
        || !ended.is_disjoint(&was);
    // "I work out 5 days a week" tells no work.
    let exercise = |l: &[&str]| has(l, "work out") || has(l, "working out") || l.contains(&"workout");
    let exercise = frame.of_work && (exercise(old) || exercise(new));
    news && lived && switched && !exercise && !(frame.excludes)(n)
}

/// Words of a thing swapped for another.
const SWITCHES: &[&str] = &[
    "switched",
    "swapped",
    "instead",
    "replaced",
    "traded",
    "upgraded",
    "moved to",
    "moved over",
    "went over",
    "no more",
    "anymore",
    "ditched",
    "gave up",
    "given up",
    "off the",
    "went with",
    "this time",
    "for everything",
    "mostly",
    "only",
];

/// Kinds of thing whose brand may be a frame's way: named beside it, the brand is theirs.
const OTHER_KINDS: &[&str] = &[
    "tv",
    "television",
    "telly",
    "monitor",
    "fridge",
    "freezer",
    "tablet",
    "ipad",
    "watch",
    "headphones",
    "earbuds",
    "speaker",
    "camera",
    "printer",
    "console",
    "laptop",
    "phone",
    "car",
    "bike",
    "vacuum",
    "oven",
    "microwave",
    "dishwasher",
    "kettle",
    "shoes",
    "trainers",
    "jacket",
];

/// Words of a new home, which tell whom one lives with and whether one owns it.
const NEW_HOME: &[&str] = &[
    "moved",
    "moving",
    "keys",
    "place",
    "apartment",
    "house",
    "townhouse",
    "home",
    "ours",
    "condo",
    "settlement",
    "mortgage",
];

/// The ways a text tells, and the ways it tells as ended ("instead of cigs", "the civic
/// finally died", "the veggie thing didn't stick"). A way told in a longer phrase of
/// another is that other's: "on my own" is alone, not "my own" place.
fn ways(frame: &Frame, words: &[Word]) -> (BTreeSet<&'static str>, BTreeSet<&'static str>) {
    let lows: Vec<&str> = words.iter().map(|w| w.low.as_str()).collect();
    let lows = lows.as_slice();
    // Each word's clause: punctuation or a joiner ends one ("a thinkpad, the mac died").
    let mut clause = Vec::with_capacity(words.len());
    let mut at = 0;
    for w in words {
        if matches!(w.low.as_str(), "and" | "but" | "so" | "then" | "because" | "while") {
            at += 1;
        }
        clause.push(at);
        if w.stop {
            at += 1;
        }
    }
    let mut found: Vec<(usize, usize, &'static str)> = Vec::new();
    for (way, phrases) in frame.ways {
        for p in *phrases {
            read(p, |p| found.extend(at_each(lows, p).map(|at| (at, at + p.len(), *way))));
        }
    }
    let kept: Vec<_> = found
        .iter()
        .filter(|(s, e, _)| {
            !found
                .iter()
                .any(|(s2, e2, _)| s2 <= s && e <= e2 && (e2 - s2) > (e - s))
        })
        .collect();
    let (mut told, mut ended) = (BTreeSet::new(), BTreeSet::new());
    for (s, e, way) in kept {
        // Within the way's clause: "a thinkpad and i sold the mac" ends the mac alone.
        let first = (s.saturating_sub(4)..*s)
            .find(|&k| clause[k] == clause[*s])
            .unwrap_or(*s);
        let last = (*e..lows.len().min(e + 3))
            .take_while(|&k| clause[k] == clause[e - 1])
            .last()
            .map_or(*e, |k| k + 1);
        let (before, after) = (&lows[first..*s], &lows[*e..last]);
        // "from Barclays to Monzo": the way left.
        let left = before.last() == Some(&"from") && after.first() == Some(&"to");
        let gone = left
            || ENDED_BEFORE.iter().any(|p| has(before, p))
            || has(before, "instead of")
            || ENDED_AFTER.iter().any(|p| has(after, p));
        if gone {
            ended.insert(*way);
        } else {
            told.insert(*way);
        }
    }
    (told, ended)
}

/// Words just before a way that end it: "no more buses", "sold the car".
const ENDED_BEFORE: &[&str] = &[
    "no",
    "not",
    "never",
    "stopped",
    "quit",
    "sold",
    "without",
    "ditched",
    "ex",
    "former",
    "old",
    "scrapped",
    "too",
    "recovery",
    "recovering",
    "lost",
    "barely",
    "hardly",
    "rarely",
    "none",
    "nobody",
    // "closed the Barclays one", "cancelled my Sky", "goodbye iPhone".
    "closed",
    "goodbye",
    "bye",
    "cancelled",
    "canceled",
];

/// Words just after a way that end it: "the civic finally died", "veggie thing didn't stick".
const ENDED_AFTER: &[&str] = &[
    "died", "dead", "gone", "sold", "stolen", "nicked", "scrapped", "did not", "ended", "over", "broke", "packed",
    "written", "useless", "rubbish", "rip", "awful", "terrible", "kept",
];

/// Words that tell the new fact as news of a change.
const NEWS: &[&str] = &[
    "now",
    "anymore",
    "instead",
    "since",
    "lately",
    "nowadays",
    "these days",
    "finally",
    "at last",
    "moved",
    "switched",
    "swapped",
    "changed",
    "gone",
    "went",
    "back",
    "new",
    "no more",
    "officially",
    "started",
    "from monday",
    "from next",
    "from this",
    "every day",
    "bought",
    "upgraded",
    "made",
    "making",
    "became",
    "turned",
    "cut",
    "dropped",
    "quit",
    "stopped",
    "today",
    "ported",
    "again",
];

/// Words that tell a doing as one's way of getting in, beside a thing got or a verb of
/// another errand ("walk the dog"): "cycling in every day now", "no more waiting for the 42".
const LIVED: &[&str] = &[
    "since",
    "been getting",
    "been driving",
    "been cycling",
    "been walking",
    "been taking",
    "every day now",
    "each day now",
    "instead",
    "anymore",
    "no more",
    "cycle in",
    "cycling in",
    "bike in",
    "drive in",
    "driving in",
    "walk in",
    "walking in",
    "train in",
    "bus in",
    "get in",
];

/// A plan or a doubt is no switch yet.
const PLANS: &[&str] = &[
    "thinking",
    "might",
    "maybe",
    "considering",
    "planning",
    "want",
    "should",
    "could",
    "would",
    "hoping",
    "hope",
    "will",
    "going to",
    "learning",
    "someday",
    "dream",
    "tempted",
    "wondering",
    "if",
    "when",
    "whenever",
    "unless",
];

/// A one-off or a stand-in: "in the office this week for onboarding", "covering for her
/// till she's back".
const ONE_OFFS: &[&str] = &[
    "tonight",
    "tomorrow",
    "yesterday",
    "this week",
    "all week",
    "next week",
    "this weekend",
    "for a week",
    "sometimes",
    "occasionally",
    "some days",
    "once a month",
    "except",
    "covering",
    "cover",
    "temporarily",
    "temporary",
    "for now",
    "till",
    "til",
    "until",
    "while",
    "strike",
    "holiday",
    "trial",
    "as well",
    "also",
    "second",
    "spare",
    "backup",
    "for the",
    "for work",
    "for running",
    "for travel",
    "for my",
    "dry january",
    "sober october",
    "for lent",
    "for a month",
];

/// Days on which a doing is one-off, for frames of doings: "working from home today".
const DAYS_OF_DOING: &[&str] = &[
    "today",
    "on monday",
    "on tuesday",
    "on wednesday",
    "on thursday",
    "on friday",
    "last week",
    "last night",
    "last weekend",
    "last monday",
    "last tuesday",
    "last wednesday",
    "last thursday",
    "last friday",
];

fn has(lows: &[&str], phrase: &'static str) -> bool {
    read(phrase, |p| phrase_in(lows, p))
}

/// `phrase` as the judgment reads words (contractions opened, spellings folded: "flat" is
/// "apartment", "don't" is "do not"), read once and kept.
fn read<T>(phrase: &'static str, then: impl FnOnce(&[String]) -> T) -> T {
    thread_local! {
        static READ: RefCell<HashMap<&'static str, Vec<String>>> = RefCell::new(HashMap::new());
    }
    READ.with(|cache| {
        let mut cache = cache.borrow_mut();
        let lows = cache
            .entry(phrase)
            .or_insert_with(|| words(phrase).into_iter().map(|w| w.low).collect());
        then(lows)
    })
}

/// Where `p` stands in `lows`, word for word.
fn at_each(lows: &[&str], p: &[String]) -> impl Iterator<Item = usize> {
    let n = p.len().max(1);
    lows.windows(n)
        .enumerate()
        .filter(move |(_, w)| !p.is_empty() && w.iter().zip(p).all(|(a, b)| *a == b))
        .map(|(at, _)| at)
}

fn phrase_in(lows: &[&str], p: &[String]) -> bool {
    at_each(lows, p).next().is_some()
}

#[cfg(test)]
mod tests;
