//! Who holds a role in the teller's life, and what holds a first place: "switched GPs, I
//! see Dr Okafor now" after "My doctor is Dr Patel", "priya left, new boss is a guy called
//! dan" after "My manager is Priya", "sushi is my number one now, sorry pizza" after "My
//! favourite food is pizza". A stand-in ("Tom's covering while she's on leave"), someone
//! else's ("my sister's new boss") and a plan keep the old one.

use super::super::fact::{Fact, Subject};
use super::super::slots::slot_of;
use super::super::someone::is_relation;
use super::{ONE_OFFS, PLANS, has};

/// Roles one person holds at a time in one's life, by kind: the words of each name one
/// role.
const ROLES: &[&[&str]] = &[
    &["manager", "boss", "supervisor", "lead"],
    &["doctor", "gp", "gps", "doctors"],
    &["dentist", "dentists"],
    &["therapist", "therapists", "counsellor", "counselor", "psychologist"],
    &["vet", "vets"],
    &["hairdresser", "hairdressers", "barber", "barbers", "stylist"],
    &["physio", "physiotherapy", "physiotherapist"],
    &["coach", "pt"],
    &["tutor"],
    &["teacher", "instructor"],
    &["cleaner", "cleaners"],
    &["optician", "optometrist"],
    &["solicitor", "lawyer"],
    &["landlord", "landlady"],
    &["accountant"],
    &["childminder", "nanny"],
    &["mechanic"],
];

/// Whether `w` names a role one person holds in the teller's life: "dentist", "coach".
pub(in crate::judgment) fn is_role(w: &str) -> bool {
    ROLES.iter().any(|r| r.contains(&w))
}

/// A stand-in holds a role for a while: "Tom's covering", "acting manager", "a locum".
const STAND_INS: &[&str] = &[
    "covering",
    "cover",
    "acting",
    "interim",
    "locum",
    "leave",
    "maternity",
    "paternity",
    "holiday",
    "off",
];

/// Whether `n` tells that another now holds the role the old fact names the holder of.
pub(in crate::judgment) fn new_holder(o: &Fact, n: &Fact) -> bool {
    let (old, new) = (lows(o), lows(n));
    let Some(kind) =
        role_of_mine(&old).or_else(|| (has(&old, "report to") || has(&old, "report directly to")).then_some(0))
    else {
        return false;
    };
    if o.past || o.former || o.wish || n.former || n.wish || n.words.iter().any(|w| w.asks) || !mine(o, n, kind) {
        return false;
    }
    // "going to" here is mostly a place: "i'm going to a salon in town now".
    let plans = PLANS.iter().filter(|p| **p != "going to");
    if plans.chain(ONE_OFFS).chain(STAND_INS).any(|p| has(&new, p)) {
        return false;
    }
    // "the practice has a new GP": one of its holders, not the teller's ("we have a new
    // landlord" is ours).
    let ours = [
        "we have a new",
        "i have a new",
        "we have got a new",
        "i have got a new",
        "we got a new",
        "i got a new",
    ]
    .iter()
    .any(|p| has(&new, p));
    if !ours
        && [
            "has a new",
            "have a new",
            "hired a new",
            "is a new",
            "there is a new",
            "there's a new",
        ]
        .iter()
        .any(|p| has(&new, p))
    {
        return false;
    }
    let role = |w: &str| ROLES[kind].contains(&w) || w.strip_suffix('s').is_some_and(|w| ROLES[kind].contains(&w));
    // The teller's holder of the role: "my gp", "our new manager", "switched dentists";
    // not "I'm a manager now", "a new vacuum cleaner", "the new manager" one is.
    let owned = |i: usize| {
        let before: Vec<&str> = new[..i]
            .iter()
            .rev()
            .copied()
            .filter(|w| !matches!(*w, "line" | "team"))
            .take(3)
            .collect();
        let the_teller = before.windows(2).any(|p| p == ["am", "i"]);
        let by = |k: usize| before.get(k).copied();
        let new_one = matches!(by(0), Some("new" | "different" | "another"));
        !the_teller && (matches!(by(0), Some("my" | "our" | "switched" | "changed" | "swapped" | "moved")) || new_one)
    };
    // A lead is a team's: "my new lead is aisling", not the puppy's new lead.
    let led = |at: usize| {
        new[at] != "lead"
            || new[..at]
                .iter()
                .rev()
                .take(2)
                .any(|w| matches!(*w, "team" | "tech" | "my" | "our"))
    };
    let told = |at: usize| new.get(at).is_some_and(|w| role(w)) && !someone_elses(&new, at) && owned(at) && led(at);
    (0..new.len()).any(|i| {
        let fresh = i >= 1 && matches!(new[i - 1], "new" | "different" | "another");
        let switched = i >= 1 && matches!(new[i - 1], "switched" | "changed" | "swapped" | "moved");
        told(i)
            && (fresh
                || switched
                // "dr okafor is my gp now", "not my manager anymore", "my gp now is".
                || new[i + 1..].iter().take(3).any(|w| matches!(*w, "now" | "anymore")))
    }) || (kind == 0 && (has(&new, "report to") || has(&new, "reporting to")) && has(&new, "now"))
        || holder_gone(o, &new)
}

/// "dr murphy retired, i'm with dr walsh now", "sophie left so i'm going to a salon in
/// town now", "hughes sold up": the holder the old fact names has gone.
fn holder_gone(o: &Fact, new: &[&str]) -> bool {
    let name: Vec<&str> = o.words[o.body.min(o.words.len())..]
        .iter()
        .filter(|w| w.upper && !matches!(w.low.as_str(), "dr" | "mr" | "mrs" | "ms" | "miss"))
        .map(|w| w.low.as_str())
        .collect();
    new.iter().enumerate().any(|(i, w)| {
        let named = name.contains(&w.trim_end_matches("'s"));
        let next = |k: usize| new.get(i + k).copied();
        // "sarah's left": the "'s" is "has".
        let at = if next(1) == Some("has") || next(1) == Some("is") {
            i + 2
        } else {
            i + 1
        };
        // Gone from the role, not from a room: "Priya left the meeting in tears", "Priya
        // quit sugar".
        let closes = |x: &str| matches!(x, "so" | "and" | "last" | "recently" | "now" | "ages" | "in" | "a");
        let went = match new.get(at).copied() {
            Some("retired" | "resigned" | "died") => true,
            Some("quit") => new.get(at + 1).is_none_or(|x| closes(x)),
            Some("left") => new.get(at + 1).is_none_or(|x| {
                closes(x)
                    || *x == "the"
                        && new.get(at + 2).is_some_and(|y| {
                            matches!(
                                *y,
                                "company"
                                    | "practice"
                                    | "surgery"
                                    | "firm"
                                    | "team"
                                    | "job"
                                    | "school"
                                    | "salon"
                                    | "clinic"
                            )
                        })
            }),
            Some("sold") => new.get(at + 1) == Some(&"up"),
            Some("moved") => new.get(at + 1) == Some(&"on"),
            _ => false,
        };
        named && went
    })
}

/// The kind of role the old fact names a holder of: "My GP is Dr Wright", "my line
/// manager is Chloe".
fn role_of_mine(lows: &[&str]) -> Option<usize> {
    // "Cleaner is Magda", as a note holds it.
    if let Some(kind) = lows.first().and_then(|w| ROLES.iter().position(|r| r.contains(w)))
        && lows.get(1) == Some(&"is")
    {
        return Some(kind);
    }
    let at = lows.iter().position(|w| matches!(*w, "my" | "our"))?;
    let (k, kind) = lows[at + 1..]
        .iter()
        .take(3)
        .enumerate()
        .find_map(|(k, w)| ROLES.iter().position(|r| r.contains(w)).map(|kind| (k, kind)))?;
    // "My daughter's dentist is Dr Khan": her dentist.
    let between = &lows[at + 1..at + 1 + k];
    let theirs = between
        .iter()
        .any(|w| w.ends_with("'s") || is_relation(w.trim_end_matches("'s")));
    (!theirs).then_some(kind)
}

/// "my sister's new boss", "her GP": the role is someone else's.
fn someone_elses(lows: &[&str], at: usize) -> bool {
    let owner = lows[..at]
        .iter()
        .rev()
        .find(|w| !matches!(**w, "new" | "different" | "another" | "line" | "team" | "old"));
    owner.is_some_and(|w| {
        matches!(*w, "his" | "her" | "their")
            || (w.ends_with("'s") && !matches!(*w, "it's" | "that's" | "who's" | "what's" | "there's"))
    })
}

/// Whether the new fact may tell of the teller's role: "priya left, new boss is a guy
/// called dan" names the old holder, "they hired a VP" the workplace; "my daughter's
/// switched to a different dentist" and "Priya got a new manager" are someone else's.
fn mine(o: &Fact, n: &Fact, kind: usize) -> bool {
    let Subject::Person(p) = &n.subject else {
        return true;
    };
    let holder = o
        .words
        .iter()
        .any(|w| w.upper && (w.low == p.key || super::super::words::stem(&w.low) == p.key));
    ROLES[kind].contains(&p.key.as_str()) || super::INSTITUTIONS.contains(&p.key.as_str()) || holder
}

fn lows(f: &Fact) -> Vec<&str> {
    f.words.iter().map(|w| w.low.as_str()).collect()
}

/// Whether `n` puts another thing first where the old fact's favourite was: "the bear has
/// overtaken the office as my all time fave", "sushi is my number one now, sorry pizza".
pub(in crate::judgment) fn new_favourite(o: &Fact, n: &Fact) -> bool {
    let Some(slot) = slot_of(o).filter(|s| s.name.starts_with("favorite ")) else {
        return false;
    };
    if n.words.iter().any(|w| w.asks) || n.wish || o.past {
        return false;
    }
    // "Arrival has overtaken Alien as my favourite": the new favourite may be the subject;
    // the first place must be the teller's.
    let new: Vec<&str> = n.words.iter().map(|w| w.low.as_str()).collect();
    if !["my favorite", "my number 1", "my go to", "my all time favorite"]
        .iter()
        .any(|p| has(&new, p))
    {
        return false;
    }
    let stems: Vec<&str> = n.words.iter().map(|w| w.stem.as_str()).collect();
    let first = stems.contains(&"favorit") || has(&new, "number one") || has(&new, "number 1") || has(&new, "go to");
    let theirs = new
        .iter()
        .enumerate()
        .any(|(i, w)| *w == "favorite" && someone_elses(&new, i));
    if !first || theirs {
        return false;
    }
    // "fav show is succession now": the same kind, another value, told as now.
    if let Some(other) = slot_of(n).filter(|b| b.name == slot.name)
        && other.value.iter().all(|v| !slot.value.contains(v))
        && new.contains(&"now")
    {
        return true;
    }
    // The old favourite named as put aside, and something else beside it.
    let names_old = slot.value.iter().all(|v| stems.contains(&v.as_str()));
    let aside = [
        "overtaken",
        "overtook",
        "replaced",
        "sorry",
        "beats",
        "over",
        "than",
        "instead",
        "dethroned",
    ]
    .iter()
    .any(|w| new.contains(w));
    let other = n.content.iter().any(|c| {
        !slot.value.contains(c) && !matches!(c.as_str(), "favorit" | "number" | "number#1" | "tim" | "tbh" | "now")
    });
    names_old && aside && other
}
