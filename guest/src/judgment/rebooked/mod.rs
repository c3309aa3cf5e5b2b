//! A booking or a regular session moved or corrected: "the clinic rang and moved my
//! physio to thursday" after "Physio on Tuesday at 9:30", "sorry it's actually wednesday
//! for the bins" after "Bin day is Tuesday", "yoga's relocated to the studio above the
//! bakery, still monday nights" after "Yoga class is Monday 7pm at the community hall".
//!
//! The new fact names the old one's thing (every telling word of what the old fact is
//! about: "flight" and "lisbon" of "Flight to Lisbon on 13 June"), and gives it another
//! time of a kind the old one gives (weekday, day of the month, month or hour) where it
//! tells the thing's time: after a word of moving ("pushed to the 15th"), right after the
//! thing ("the boiler service is on the 9th now"), after "it's" ("sorry it's actually
//! wednesday for the bins") or before a "not" that denies the old time. Or, moved, another
//! place ("yoga's relocated to the studio"). A time told of something else in the same
//! breath ("need to leave for the airport at 3 for the lisbon flight", "doors open at
//! 6:45"), a second booking, one session, someone else's booking, an attempt, a plan, a
//! question and history keep the old one; so do two bookings told without a word of
//! moving ("bins go out on wednesday"): the rules leave them both.

#[cfg(test)]
mod tests;
mod times;

use std::collections::BTreeSet;

use super::fact::Fact;
use super::switches::is_role;
use super::words::is_generic;
use times::{MOVES, When, tokens, told, whens};

/// Words that say a booking was moved, given another time or corrected.
const MOVED: &[&str] = &[
    "moved",
    "move",
    "rebooked",
    "rescheduled",
    "postponed",
    "pushed",
    "preponed",
    "forward",
    "bumped",
    "changed",
    "switched",
    "shifted",
    "swapped",
    "relocated",
    "transferred",
    "now",
    "instead",
    "onwards",
    "permanently",
    "anymore",
    "sorry",
    "typo",
    "meant",
    "misread",
    "oops",
    "correction",
    "wrong",
    "actually",
    "mixed",
];

/// A second booking, one session, or a stand-in: the old booking still holds.
const BESIDE: &[&str] = &[
    "also",
    "too",
    "extra",
    "another",
    "second",
    "added",
    "adding",
    "covering",
    "skipping",
    "skip",
    "alone",
    "plus",
    "separate",
    "separately",
    "holiday",
    "easter",
    "matinee",
];

/// Days a new fact tells of one session: "tomorrow's yoga is at 6".
const ONE_DAY: &[&str] = &["tomorrow", "tomorrow's", "tonight", "tonight's", "today", "today's"];

/// An attempt, a wish, a question or history: nothing was moved yet, or it was long ago.
/// (Not "may", which is as often the month.)
const NOT_DONE: &[&str] = &[
    "tried",
    "trying",
    "try",
    "wanted",
    "want",
    "asked",
    "asking",
    "hopefully",
    "hope",
    "hoping",
    "can",
    "could",
    "will",
    "they'll",
    "i'll",
    "we'll",
    "might",
    "if",
    "refused",
    "waiting",
    "should",
    "would",
    "lockdown",
    "used",
    "ago",
    "when",
];

/// Words of a booking that name no thing of their own: "booked", "appointment".
const BOOKING: &[&str] = &[
    "appointment",
    "appointments",
    "appt",
    "booking",
    "booked",
    "book",
    "session",
    "sessions",
    "class",
    "classes",
    "lesson",
    "lessons",
    "slot",
    "time",
    "day",
    "date",
    "my",
    "our",
    "the",
    "a",
    "an",
    "with",
    "to",
    "for",
    "of",
    "in",
    "and",
    "i",
    "we",
    "i've",
    "we've",
    "ive",
    "weve",
    "have",
    "got",
    "do",
    "go",
    "usually",
    "always",
];

/// Words that end what a fact is about, where its time or place begins: "Flight to Lisbon
/// | on 13 June", "Bin day | is Tuesday".
const ABOUT_ENDS: &[&str] = &[
    "is",
    "are",
    "was",
    "on",
    "at",
    "every",
    "each",
    "booked",
    "starts",
    "start",
    "leaves",
    "leave",
    "meets",
    "meet",
    "goes",
    "runs",
    "from",
    "till",
    "until",
    "by",
    "this",
    "next",
    "weekly",
    "daily",
    "fortnightly",
    "monthly",
];

/// Whether `new` moves or corrects the booking `old` tells.
pub(super) fn rebooked(old: &str, o: &Fact, new: &str, n: &Fact) -> bool {
    if o.past || o.former || o.wish || o.denied || n.wish || n.former || n.words.iter().any(|w| w.asks) {
        return false;
    }
    let (ot, nt) = (tokens(old), tokens(new));
    let (ol, nl): (Vec<&str>, Vec<&str>) = (
        ot.iter().map(String::as_str).collect(),
        nt.iter().map(String::as_str).collect(),
    );
    let put_back = nl
        .windows(3)
        .any(|w| w[0] == "put" && (w[1] == "back" || w[2] == "back"));
    if !MOVED.iter().any(|m| nl.contains(m)) && !put_back && !corrects(&ot, &nt) {
        return false;
    }
    let besides = |l: &[&str]| BESIDE.iter().any(|b| l.contains(b)) || one_off(l);
    if besides(&nl)
        || besides(&ol)
        || ONE_DAY.iter().any(|d| nl.contains(d))
        || has(&nl, &["back", "from"])
        || not_done_in(&nl)
        || for_an_occasion(&ol, &nl)
        || theirs(&ol, &nl)
        || person_moved(&ol)
        || person_moved(&nl)
    {
        return false;
    }
    // What the old fact is about: its names all named in the new one ("Lisbon" of "Flight
    // to Lisbon", "Priya" of "Lunch with Priya"), and one of its other words.
    let about = about(old, &ol);
    let (names, things): (Vec<&About>, Vec<&About>) = about.iter().partition(|a| a.name);
    let present = |a: &&About| nl.iter().any(|t| named(&a.word, t));
    if things.is_empty() || !names.iter().all(present) || !things.iter().any(present) {
        return false;
    }
    // Where the new fact tells the thing as what it is about, not as a place or a part of
    // another ("a blood test at the hospital", "physio for my tennis elbow"), and the
    // words of booking that stand for it ("ortho called, appt is now 30 jan").
    let told_of = |i: usize| about.iter().any(|a| named(&a.word, nl[i]));
    let subject = |i: usize| {
        let before = nl[..i]
            .iter()
            .rev()
            .find(|w| !matches!(**w, "the" | "my" | "our" | "a" | "an"));
        !before.is_some_and(|b| {
            matches!(
                *b,
                "at" | "in" | "to" | "from" | "for" | "with" | "of" | "into" | "onto" | "by"
            )
        })
    };
    let named_at: Vec<usize> = (0..nl.len()).filter(|i| told_of(*i)).collect();
    if named_at.is_empty() || !one_kind(&named_at, &ol, &nl, &about) || someone_elses(&named_at, &ol, &nl) {
        return false;
    }
    let mut at: Vec<usize> = named_at.iter().copied().filter(|i| subject(*i)).collect();
    at.extend((0..nl.len()).filter(|i| STANDS_FOR.contains(&nl[*i])));
    let (was, is) = (whens(&ot), told(&nt));
    let tied = tied_times(&nt, &at, &named_at);
    let of = |s: &BTreeSet<When>, k: u8| s.iter().filter(|w| w.kind() == k).copied().collect::<BTreeSet<_>>();
    // Another time of a kind the old one gives, where the new fact tells the thing's time.
    let told_times: BTreeSet<When> = tied.intersection(&is).copied().collect();
    let retimed = (0..4).any(|k| {
        let (x, y) = (of(&was, k), of(&told_times, k));
        !x.is_empty() && !y.is_empty() && x.is_disjoint(&y)
    });
    retimed || moved_elsewhere(&nl, &at, &was, &is)
}

/// Whether the word `y` of the new fact names `x` of the old: the same word, its plural,
/// its "'s", or a short name for it ("ortho", "conf", "physio", "xmas").
fn named(x: &str, y: &str) -> bool {
    let y = y.trim_end_matches("'s").trim_end_matches('\'');
    let short = |s: &str, long: &str| ABBREVIATIONS.iter().any(|(a, l)| *a == s && long.starts_with(l));
    x == y
        || y.strip_suffix('s')
            .is_some_and(|y| y == x || y.strip_suffix('e') == Some(x))
        || x.strip_suffix('s').is_some_and(|x| x == y)
        || short(y, x)
        || short(x, y)
}

/// Short names people give a booking's thing, and the start of the long one.
const ABBREVIATIONS: &[(&str, &str)] = &[
    ("ortho", "orthodont"),
    ("conf", "conference"),
    ("physio", "physiotherap"),
    ("xmas", "christmas"),
    ("appt", "appointment"),
    ("bday", "birthday"),
    ("gp", "doctor"),
];

/// Words of a booking that stand for its thing in the new fact: "appt is now 30 jan".
const STANDS_FOR: &[&str] = &["appointment", "appt", "booking", "session", "slot", "lesson", "class"];

/// A word of what a fact is about, and whether it is a name (capitalised inside the
/// sentence: "Lisbon", "Priya").
#[derive(Debug)]
struct About {
    word: String,
    name: bool,
}

/// Whether the new fact tells an attempt, a plan, history or one session, whatever its
/// times: "tried to move the dentist to friday", "last year they moved my dentist to
/// friday twice", "bank holiday so the bins are moved to wednesday". The older rules of a
/// time told anew ([`super::switches::retimed`], [`super::ending::rescheduled`]) ask it.
pub(super) fn not_done(new: &str) -> bool {
    let nt = tokens(new);
    not_done_in(&nt.iter().map(String::as_str).collect::<Vec<_>>())
}

fn not_done_in(nl: &[&str]) -> bool {
    NOT_DONE.iter().any(|w| nl.contains(w))
        || has(nl, &["said", "no"])
        || has(nl, &["last", "year"])
        || has(nl, &["back", "in"])
        || has(nl, &["half", "term"])
        || has(nl, &["bank", "holiday"])
}

/// The telling words of what a fact is about: those before its time or place ("Flight to
/// Lisbon on 13 June" is about "flight" and "lisbon"), at most four.
fn about(text: &str, lows: &[&str]) -> Vec<About> {
    let cased: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
    // Capitalised inside the sentence, as written.
    let name = |w: &str| {
        cased.iter().skip(1).any(|c| {
            c.starts_with(char::is_uppercase)
                && c.chars().skip(1).any(char::is_lowercase)
                && c.to_lowercase().trim_matches(|ch: char| !ch.is_alphanumeric()) == w
        })
    };
    lows.iter()
        .copied()
        .take_while(|w| !ABOUT_ENDS.contains(w) && *w != "," && !w.chars().any(|c| c.is_ascii_digit()))
        .filter(|w| times::weekday(w).is_none() && times::month(w).is_none())
        .map(|w| w.trim_end_matches("'s"))
        .filter(|w| !BOOKING.contains(w) && w.len() > 1)
        .take(4)
        .map(|w| About {
            word: w.to_owned(),
            name: name(w),
        })
        .collect()
}

/// Whether the new fact tells the thing of one kind with the old: a word right before it
/// that the old fact does not hold tells another ("the work yoga session", "the garden
/// waste bin"), and so does a noun right after it ("my tennis elbow", "car insurance").
fn one_kind(at: &[usize], old: &[&str], new: &[&str], about: &[About]) -> bool {
    let held = |w: &str| {
        let bare = w.trim_end_matches("'s").trim_end_matches('\'');
        old.iter().any(|o| o.trim_end_matches("'s") == bare) || about.iter().any(|a| named(&a.word, w))
    };
    let plain = |w: &str| {
        matches!(
            w,
            "the"
                | "my"
                | "our"
                | "a"
                | "an"
                | "this"
                | "that"
                | "your"
                | "his"
                | "her"
                | "their"
                | "and"
                | "so"
                | "but"
                | ","
        ) || !w.chars().all(|c| c.is_alphabetic() || c == '\'')
            || MOVED.contains(&w)
            || tells_no_kind(w)
            || times::weekday(w).is_some()
            || times::month(w).is_some()
    };
    at.iter().all(|&i| {
        let before = i.checked_sub(1).map(|j| new[j]);
        let after = new.get(i + 1).copied();
        let kind_before = before.is_none_or(|b| held(b) || plain(b));
        // "yoga's relocated": the "'s" is "has"; what follows is no kind of it.
        let kind_after = new[i].ends_with("'s")
            || after.is_none_or(|a| {
                held(a)
                    || plain(a)
                    || is_generic(a)
                    || BOOKING.contains(&a)
                    || STANDS_FOR.contains(&a)
                    || ABOUT_ENDS.contains(&a)
                    || times::weekday(a).is_some()
                    || times::month(a).is_some()
                    || matches!(
                        a,
                        "got" | "has" | "have" | "had" | "was" | "been" | "is" | "are" | "go" | "goes" | "will"
                    )
            });
        kind_before && kind_after
    })
}

/// "tom's shift got moved to 10am", "my boss's flight", "the in-laws' flight": someone's
/// "'s" right before the thing, whom the old fact does not name.
fn someone_elses(at: &[usize], old: &[&str], new: &[&str]) -> bool {
    at.iter().any(|&i| {
        i.checked_sub(1).is_some_and(|j| {
            let w = new[j];
            let whose = w
                .strip_suffix("'s")
                .or_else(|| w.strip_suffix("s'"))
                .or_else(|| w.strip_suffix('\''));
            whose.is_some_and(|who| !old.iter().any(|o| o.trim_end_matches("'s") == who))
        })
    })
}

/// Words that stand before a thing without telling a kind of it: "rang", "called",
/// "got", "sorted".
fn tells_no_kind(w: &str) -> bool {
    w.ends_with("ed")
        || matches!(
            w,
            "got" | "had" | "rang" | "is" | "it's" | "its" | "has" | "have" | "for" | "to" | "with"
        )
}

/// The times the new fact tells of its thing: after a word of moving and its "to" or
/// "for" ("bumped to the 17th", "rebooked for the 9th"), within a few words after the
/// thing in its clause ("the boiler service is on the 9th now"), after "it's" in a clause
/// naming the thing ("sorry it's actually wednesday for the bins"), and a time corrected
/// ("11:40 not 11:10").
fn tied_times(words: &[String], at: &[usize], named_at: &[usize]) -> BTreeSet<When> {
    // Read once, so that a long fact costs a pass: the clause of each word, the words of
    // moving before each, and the first word naming the thing in each clause.
    let (mut clause, mut moves_before) = (Vec::with_capacity(words.len()), Vec::with_capacity(words.len()));
    let (mut c, mut m) = (0, 0);
    for w in words {
        clause.push(c);
        moves_before.push(m);
        c += usize::from(w == ",");
        m += usize::from(MOVES.contains(&w.as_str()) || w == "forward");
    }
    let mut first_named = std::collections::BTreeMap::new();
    for &a in named_at {
        first_named.entry(clause[a]).or_insert(a);
    }
    let mut is_at = vec![false; words.len()];
    for &a in at {
        is_at[a] = true;
    }
    let mut out = BTreeSet::new();
    let mut take = |from: usize, n: usize| {
        let end = (from + n).min(words.len());
        let stop = words[from..end].iter().position(|w| w == ",").map_or(end, |k| from + k);
        out.extend(whens(&words[from..stop]));
    };
    for (i, w) in words.iter().enumerate() {
        if (MOVES.contains(&w.as_str()) || w == "forward" || w == "back")
            && let Some(to) = (i + 1..(i + 5).min(words.len()))
                .take_while(|j| words[*j] != ",")
                .find(|j| matches!(words[*j].as_str(), "to" | "for" | "till" | "until" | "onto"))
        {
            take(to + 1, 6);
        }
        if is_at[i] {
            take(i + 1, 5);
        }
        // In the thing's clause, or right after the clause that moved it: "we brought the
        // wedding forward, it's 20 March 2027 now".
        let in_its_clause = first_named.contains_key(&clause[i]);
        let after_the_move = clause[i]
            .checked_sub(1)
            .and_then(|before| first_named.get(&before))
            .is_some_and(|&a| moves_before[i] > moves_before[a]);
        if matches!(w.as_str(), "it's" | "its") && (in_its_clause || after_the_move) {
            take(i + 1, 4);
        }
        if w == "not" && i > 0 {
            take(i.saturating_sub(2), 2);
        }
        // "I meant 4pm for the accountant", "new date is 8 march".
        if w == "meant" || matches!(w.as_str(), "date" | "time") && words.get(i + 1).is_some_and(|x| x == "is") {
            take(i + 1, 4);
        }
    }
    out
}

/// Whether the thing moved to another place at the time it had: "yoga's relocated to the
/// studio above the bakery", "spanish has gone online", "switched coaches", "getting
/// married at Holloway Barn instead". Not "moved on to sci-fi", "moved me onto the higher
/// dose", "switched to the winter setting".
fn moved_elsewhere(nl: &[&str], at: &[usize], was: &BTreeSet<When>, is: &BTreeSet<When>) -> bool {
    let near = |i: usize| at.iter().any(|a| a.abs_diff(i) <= 3);
    // "moved to the studio", "transferred my dermatology appt to Guy's".
    let to_within = |i: usize| {
        nl[i + 1..(i + 5).min(nl.len())]
            .iter()
            .take_while(|w| **w != ",")
            .any(|w| matches!(*w, "to" | "over" | "across"))
    };
    let moved = nl.iter().enumerate().any(|(i, m)| {
        let next = nl.get(i + 1).copied();
        match *m {
            "relocated" | "transferred" => near(i) && to_within(i),
            "moved" => near(i) && to_within(i) && !was.is_empty(),
            "online" => {
                near(i)
                    && matches!(
                        i.checked_sub(1).map(|j| nl[j]),
                        Some("gone" | "went" | "moved" | "going")
                    )
            }
            // "switched coaches", "changed dentists": the thing, in the plural.
            "switched" | "changed" => at.contains(&(i + 1)) && next.is_some_and(|x| x.ends_with('s')),
            // "at Holloway Barn instead": a place said in its clause.
            "instead" => {
                let start = nl[..i].iter().rposition(|w| *w == ",").map_or(0, |k| k + 1);
                nl[start..i]
                    .windows(2)
                    .any(|w| matches!(w[0], "at" | "in") && !at.iter().any(|a| nl.get(*a) == Some(&w[1])))
                    && at.iter().any(|a| (start..i).contains(a))
            }
            _ => false,
        }
    });
    moved
        && is
            .iter()
            .all(|w| was.contains(w) || !was.iter().any(|v| v.kind() == w.kind()))
}

/// "my dentist moved to Leeds", "tom moved to bristol": the one the thing is with moved,
/// not the thing.
fn person_moved(nl: &[&str]) -> bool {
    nl.windows(3).any(|w| {
        let who = w[0].trim_end_matches("'s");
        (KIN.contains(&who) || is_role(who))
            && w[1] == "moved"
            && matches!(w[2], "to" | "away" | "out" | "abroad" | "house" | "back")
    }) || has(nl, &["moved", "on"])
}

fn has(words: &[&str], phrase: &[&str]) -> bool {
    words.windows(phrase.len()).any(|w| w == phrase)
}

/// "it's 11:40 not 11:10": the new fact denies a time the old one gives.
fn corrects(old: &[String], new: &[String]) -> bool {
    let was = whens(old);
    new.iter().enumerate().any(|(i, w)| {
        w == "not"
            && (i + 1..(i + 3).min(new.len()))
                .any(|j| whens(&new[j..(j + 2).min(new.len())]).iter().any(|t| was.contains(t)))
    })
}

/// One session of a regular thing: "no piano next tuesday", "this month's book club",
/// "moved to thursday for half term", "on bank holiday monday".
fn one_off(lows: &[&str]) -> bool {
    let session = lows.windows(2).enumerate().any(|(i, w)| {
        let from = i > 0 && lows[i - 1] == "from";
        matches!(w[0], "this" | "next" | "just" | "only")
            && !from
            && (times::weekday(w[1]).is_some()
                || matches!(w[1], "week" | "weekend" | "month" | "once" | "time" | "one"))
    });
    session || has(lows, &["half", "term"]) || has(lows, &["bank", "holiday"])
}

/// "choir moved to the church hall on the 14th for the concert rehearsal": moved for an
/// occasion the old fact does not name (not "for the bins", not "for the 9th").
fn for_an_occasion(old: &[&str], new: &[&str]) -> bool {
    new.windows(3).any(|w| {
        w[0] == "for"
            && matches!(w[1], "the" | "a")
            && w[2].chars().all(char::is_alphabetic)
            && times::weekday(w[2]).is_none()
            && times::month(w[2]).is_none()
            && !old.iter().any(|o| named(o, w[2]))
            && !matches!(w[2], "same" | "rest" | "foreseeable")
    })
}

/// "my daughter's swimming lessons are wednesdays", "Dan's brother moved to Denver": kin
/// the old fact does not name, whose thing it is.
/// ("manager's put me on lates" is the manager's doing, and still the teller's shift.)
fn theirs(old: &[&str], new: &[&str]) -> bool {
    let kin = |words: &[&str]| -> BTreeSet<String> {
        words
            .iter()
            .map(|w| w.trim_end_matches("'s").trim_end_matches('\''))
            .filter(|w| KIN.contains(w))
            .map(str::to_owned)
            .collect()
    };
    let (was, is) = (kin(old), kin(new));
    // "My daughter's dentist is Dr Khan", then "switched dentists, I go to Smile Clinic".
    let mine = new.iter().any(|w| matches!(*w, "i" | "my" | "me" | "i'm" | "i've"));
    !is.is_subset(&was) || !was.is_empty() && is.is_empty() && mine
}

/// The people whose bookings are theirs, not the teller's.
const KIN: &[&str] = &[
    "wife",
    "husband",
    "hubby",
    "partner",
    "son",
    "daughter",
    "kid",
    "kids",
    "child",
    "children",
    "eldest",
    "youngest",
    "boy",
    "girl",
    "mum",
    "mom",
    "mother",
    "dad",
    "father",
    "brother",
    "sister",
    "cousin",
    "aunt",
    "uncle",
    "nan",
    "gran",
    "grandma",
    "grandpa",
    "nephew",
    "niece",
    "friend",
    "mate",
    "flatmate",
    "housemate",
    "roommate",
    "baby",
    "boyfriend",
    "girlfriend",
    "fiance",
    "fiancee",
    "boss",
    "in-laws",
    "inlaws",
    "godson",
    "goddaughter",
];
