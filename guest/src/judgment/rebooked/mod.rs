//! A booking or a regular session moved or corrected: "the clinic rang and moved me to
//! thursday, same time" after "Hospital appointment on Tuesday at 9:30", "sorry it's
//! actually wednesday for the bins" after "Bin day is Tuesday", "yoga's relocated to the
//! studio above the bakery, still monday nights" after "Yoga class is Monday 7pm at the
//! community hall".
//!
//! The thing is named in both facts (its name is what finds the old one), the new fact
//! says it was moved or corrected, and it gives another time of the same kind (another
//! weekday, day of the month, month or hour) or, moved, another place. A second booking
//! ("also got a hygienist appt on the 28th"), one session missed or moved ("no tennis
//! this week"), someone else's ("my daughter's swimming lessons are wednesdays") and a
//! plan keep the old one. Told without a word of moving ("bins go out on wednesday"), the
//! two may be two bookings: the rules leave them both.

use std::collections::BTreeSet;

#[cfg(test)]
mod tests;
mod times;

use super::fact::Fact;
use super::switches::is_role;
use super::words::is_generic;
use times::{When, month, tokens, told, weekday, whens};

/// Words that say a booking was moved, given another time or corrected.
const MOVED: &[&str] = &[
    "moved",
    "move",
    "rebooked",
    "rescheduled",
    "postponed",
    "pushed",
    "preponed",
    "brought",
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
    "forward",
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

/// Words that say the place moved, not only the time.
const MOVED_PLACE: &[&str] = &[
    "relocated",
    "transferred",
    "instead",
    "online",
    "moved",
    "switched",
    "changed",
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
];

/// The words of a booking that name no thing of its own: "booked", "appointment".
const BOOKING: &[&str] = &[
    "appointment",
    "appt",
    "booking",
    "booked",
    "book",
    "session",
    "slot",
    "time",
    "day",
    "date",
    "week",
    "month",
    "every",
    "weekly",
    "today",
    "tomorrow",
    "morning",
    "night",
    "evening",
    "afternoon",
    "am",
    "pm",
    "same",
    "still",
];

/// Whether `new` moves or corrects the booking `old` tells.
pub(super) fn rebooked(old: &str, o: &Fact, new: &str, n: &Fact) -> bool {
    if o.past || o.former || o.wish || o.denied || n.wish || n.former || n.words.iter().any(|w| w.asks) {
        return false;
    }
    let (ot, nt) = (tokens(old), tokens(new));
    let nl: Vec<&str> = nt.iter().map(String::as_str).collect();
    let put_back = nl
        .windows(3)
        .any(|w| w[0] == "put" && (w[1] == "back" || w[2] == "back"));
    if !MOVED.iter().chain(MOVED_PLACE).any(|m| nl.contains(m)) && !put_back && !corrects(&ot, &nt) {
        return false;
    }
    // "Tom's shift starts at 10am instead of 8": a name the old fact does not hold.
    let named_first = n.words.first().is_some_and(|w| {
        w.upper
            && w.low.ends_with("'s")
            && !ot
                .iter()
                .any(|t| t.trim_end_matches("'s") == w.low.trim_end_matches("'s"))
    });
    // Nor does a move of the thing replace one session of it told before ("yoga's off
    // this monday"), or a move of the one it is with ("my dentist moved to Leeds").
    let ol: Vec<&str> = ot.iter().map(String::as_str).collect();
    if BESIDE.iter().any(|b| nl.contains(b))
        || one_off(&nl)
        || one_off(&ol)
        || theirs(&ot, &nl)
        || named_first
        || person_moved(&ol)
    {
        return false;
    }
    // The thing: a telling word both hold that is no time and no word of booking.
    let thing = |f: &Fact| -> BTreeSet<String> {
        f.all
            .iter()
            .filter(|w| !w.contains('#') && !w.chars().any(|c| c.is_ascii_digit()))
            .filter(|w| !BOOKING.contains(&w.as_str()) && !MOVED.contains(&w.as_str()) && !is_generic(w))
            // A weekday in full: "wed" is also the stem of "wedding".
            .filter(|w| !(w.ends_with("day") && weekday(w).is_some()) && month(w).is_none())
            .cloned()
            .collect()
    };
    let (a, b) = (thing(o), thing(n));
    // "ortho" is the orthodontist, "conf" the conference.
    let named = |x: &str, y: &str| x == y || x.len() >= 4 && y.starts_with(x) || y.len() >= 4 && x.starts_with(y);
    let shared: Vec<&String> = a
        .iter()
        .filter(|x| b.iter().any(|y| named(x, y)) && one_kind(x, &ot, &nt))
        .collect();
    if shared.is_empty() {
        return false;
    }
    // A name alone is whom it was told with, not the thing: "Talked to Caroline: ...". (An
    // initialism is a thing: "GP", "MOT".)
    let names = |text: &str| -> Vec<String> {
        text.split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.starts_with(char::is_uppercase) && w.chars().skip(1).any(char::is_lowercase))
            .map(str::to_lowercase)
            .collect()
    };
    let (on, nn) = (names(old), names(new));
    let a_name = |x: &str, all: &[String]| all.iter().any(|w| named(x, w));
    if shared.iter().all(|x| a_name(x, &on) && a_name(x, &nn)) {
        return false;
    }
    if person_moved(&nl) {
        return false;
    }
    let (was, is) = (whens(&ot), told(&nt));
    let of = |s: &BTreeSet<When>, k: u8| s.iter().filter(|w| w.kind() == k).copied().collect::<BTreeSet<_>>();
    let retimed = (0..4).any(|k| {
        let (x, y) = (of(&was, k), of(&is, k));
        !x.is_empty() && !y.is_empty() && x.is_disjoint(&y)
    }) || moved_to(&nt)
        .iter()
        .any(|t| !was.contains(t) && !of(&was, t.kind()).is_empty());
    // Moved to a time is no move of place: "moved it to Friday at 10am".
    retimed
        || moved_to(&nt).is_empty()
            && moved_elsewhere(&nl, &shared, &was, &is)
            && !b.iter().all(|w| a.contains(w) || MOVED_PLACE.contains(&w.as_str()))
}

/// Whether `thing` is of one kind in both: "the boiler service" is not "the car's annual
/// service", whatever time each is at.
fn one_kind(thing: &str, old: &[String], new: &[String]) -> bool {
    let kinds = |words: &[String]| -> BTreeSet<String> {
        words
            .windows(2)
            .filter(|w| w[1].starts_with(thing))
            .map(|w| w[0].trim_end_matches("'s").to_owned())
            .filter(|k| k.chars().all(char::is_alphabetic) && !is_generic(k) && !MOVED.contains(&k.as_str()))
            .filter(|k| {
                !matches!(
                    k.as_str(),
                    "the" | "a" | "an" | "my" | "our" | "your" | "his" | "her" | "their" | "this" | "next" | "every"
                )
            })
            .collect()
    };
    let (was, is) = (kinds(old), kinds(new));
    let holds = |kinds: &BTreeSet<String>, words: &[String]| {
        kinds
            .iter()
            .all(|k| words.iter().any(|w| w.trim_end_matches("'s") == k))
    };
    was.is_empty() || is.is_empty() || holds(&is, old) || holds(&was, new)
}

/// Whether the thing moved to another place at the time it had: a word of moving beside
/// the thing ("yoga's relocated to the studio", "switched coaches", "getting married at
/// Holloway Barn instead"), and no other time of a kind the old fact gives.
fn moved_elsewhere(nl: &[&str], shared: &[&String], was: &BTreeSet<When>, is: &BTreeSet<When>) -> bool {
    let near = |at: usize| {
        nl[at.saturating_sub(3)..(at + 4).min(nl.len())]
            .iter()
            .any(|w| shared.iter().any(|s| w.starts_with(s.as_str())))
    };
    let moved = nl.iter().enumerate().any(|(at, m)| {
        let next = nl.get(at + 1).copied();
        let before = at.checked_sub(1).map(|i| nl[i]);
        let moving = match *m {
            "instead" => next != Some("of"),
            "online" => matches!(before, Some("gone" | "went" | "moved" | "going")) || next == Some("now"),
            "switched" => !matches!(next, Some("off" | "on")),
            "moved" => !was.is_empty(),
            m => MOVED_PLACE.contains(&m),
        };
        moving && (near(at) || *m == "instead")
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
    })
}

/// The times a move names as where it went: "changed the delivery slot to sunday
/// mornings", "bumped to the 17th".
fn moved_to(words: &[String]) -> BTreeSet<When> {
    let mut out = BTreeSet::new();
    for (i, w) in words.iter().enumerate() {
        if MOVED.contains(&w.as_str()) && !matches!(w.as_str(), "now" | "sorry" | "actually" | "wrong" | "meant") {
            let end = (i + 8).min(words.len());
            if let Some(to) = (i + 1..end).find(|j| words[*j] == "to") {
                out.extend(whens(&words[to + 1..(to + 4).min(words.len())]));
            }
        }
    }
    out
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

/// One session of a regular thing: "no piano next tuesday", "this month's book club".
fn one_off(lows: &[&str]) -> bool {
    lows.windows(2).enumerate().any(|(i, w)| {
        let from = i > 0 && lows[i - 1] == "from";
        matches!(w[0], "this" | "next" | "just" | "only")
            && !from
            && (weekday(w[1]).is_some() || matches!(w[1], "week" | "weekend" | "month" | "once" | "time" | "one"))
    })
}

/// "my daughter's swimming lessons are wednesdays", "Dan's brother moved to Denver": kin
/// the old fact does not name, whose thing it is. ("manager's put me on lates" is the
/// manager's doing, and still the teller's shift.)
fn theirs(old: &[String], new: &[&str]) -> bool {
    let kin = |words: &[&str]| -> BTreeSet<String> {
        words
            .iter()
            .map(|w| w.trim_end_matches("'s"))
            .filter(|w| KIN.contains(w))
            .map(str::to_owned)
            .collect()
    };
    let old: Vec<&str> = old.iter().map(String::as_str).collect();
    let (was, is) = (kin(&old), kin(new));
    // "My daughter's dentist is Dr Khan", then "switched dentists, I go to Smile Clinic".
    let mine = new.iter().any(|w| matches!(*w, "i" | "my" | "me" | "i'm" | "i've"));
    !is.is_subset(&was) || !was.is_empty() && is.is_empty() && mine
}

/// The people whose bookings are theirs, not the teller's.
const KIN: &[&str] = &[
    "wife",
    "husband",
    "partner",
    "son",
    "daughter",
    "kid",
    "kids",
    "child",
    "children",
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
    "flatmate",
    "roommate",
    "baby",
    "boyfriend",
    "girlfriend",
    "fiance",
    "fiancee",
];
