//! Roles: what people do for a living, as "I'm a nurse" or "my dad's a plumber" tells it,
//! and the words that say a job has ended or that one is out of work.

use super::{BREAKS, Slot, is_time};
use crate::judgment::fact::Fact;
use crate::judgment::words::{FILLER, FUNCTION, Word, stem};

/// What people do for a living, as "I'm a nurse" or "my dad is a plumber" tells it: a
/// role, which one value holds at a time. A word not here ("I'm a morning person", "I'm
/// a big Arsenal fan", "I'm a mum of two") states no role.
const OCCUPATIONS: &[&str] = &[
    "accountant",
    "actor",
    "actress",
    "administrator",
    "analyst",
    "apprentice",
    "architect",
    "artist",
    "assistant",
    "attorney",
    "baker",
    "banker",
    "barber",
    "barista",
    "barrister",
    "bartender",
    "builder",
    "butcher",
    "carpenter",
    "cashier",
    "chef",
    "chemist",
    "cleaner",
    "clerk",
    "coach",
    "consultant",
    "controller",
    "counsellor",
    "counselor",
    "courier",
    "dancer",
    "dentist",
    "designer",
    "detective",
    "developer",
    "director",
    "doctor",
    "driver",
    "economist",
    "editor",
    "electrician",
    "engineer",
    "entrepreneur",
    "examiner",
    "farmer",
    "firefighter",
    "gardener",
    "gp",
    "hairdresser",
    "headteacher",
    "instructor",
    "journalist",
    "judge",
    "labourer",
    "laborer",
    "lawyer",
    "lecturer",
    "librarian",
    "lifeguard",
    "manager",
    "mechanic",
    "midwife",
    "miner",
    "musician",
    "nanny",
    "nurse",
    "officer",
    "optician",
    "painter",
    "paralegal",
    "paramedic",
    "pharmacist",
    "photographer",
    "physicist",
    "physio",
    "physiotherapist",
    "pilot",
    "plumber",
    "policeman",
    "policewoman",
    "postman",
    "postwoman",
    "producer",
    "professor",
    "programmer",
    "psychologist",
    "receptionist",
    "researcher",
    "salesman",
    "saleswoman",
    "scientist",
    "secretary",
    "soldier",
    "solicitor",
    "student",
    "surgeon",
    "surveyor",
    "tailor",
    "teacher",
    "technician",
    "therapist",
    "translator",
    "tutor",
    "vet",
    "veterinarian",
    "waiter",
    "waitress",
    "warden",
    "welder",
    "writer",
];

/// Whether `word` (lowercased) names an occupation of [`OCCUPATIONS`].
pub(crate) fn is_occupation(word: &str) -> bool {
    OCCUPATIONS.contains(&word)
}

/// The occupation a role's value ends on, its head: "nurse" of "a vet nurse", "vet" of "a
/// vet". Two roles with other heads are other jobs, whatever words they share.
pub(in crate::judgment) fn role_head(value: &[String]) -> Option<&String> {
    value.iter().rev().find(|v| OCCUPATIONS.iter().any(|o| stem(o) == **v))
}

/// Words that make a role said with "a" no job held in place of another: a second role
/// ("a volunteer firefighter", "a part-time tutor"), a hobby or a hope.
const NOT_THE_JOB: &[&str] = &[
    "volunteer",
    "keen",
    "amateur",
    "aspiring",
    "wannabe",
    "would",
    // "part-time", which the words split at its hyphen.
    "part",
    "weekend",
    "weekends",
    "hobby",
    "trainee",
    "student",
    "former",
    "ex",
];

/// "I'm a nurse", "my dad's a plumber", "Tom is a bus driver now": a role told with "a"
/// after the copula, one of [`OCCUPATIONS`] within its first words.
pub(super) fn occupation(words: &[Word], lows: &[&str]) -> Option<Slot> {
    let at = match lows {
        ["am" | "is" | "are", "a" | "an", ..] => 2,
        ["a" | "an", ..] => 1,
        _ => return None,
    };
    let said = role_words(&words[at..]);
    // "a student" is a role of its own; after another word ("a nursing student") it is
    // one being learned.
    if said
        .iter()
        .enumerate()
        .any(|(k, w)| NOT_THE_JOB.contains(&w.low.as_str()) && !(w.low == "student" && k == 0))
    {
        return None;
    }
    let job = said
        .iter()
        .take(4)
        .any(|w| OCCUPATIONS.contains(&w.low.trim_end_matches('s')));
    let value = role_value(said);
    // A second role at once: "I'm a tutor at the weekends", "on Saturdays".
    if lows
        .iter()
        .any(|w| matches!(*w, "weekends" | "weekend" | "saturdays" | "sundays" | "evenings"))
    {
        return None;
    }
    (job && !value.is_empty()).then(|| Slot {
        name: "role".to_owned(),
        value,
        proper: false,
    })
}

/// The words of a role told after "a", up to the end of its clause or a word that ends a
/// value: "retired teacher" of "a retired teacher, since May".
pub(super) fn role_words(words: &[Word]) -> &[Word] {
    let end = words
        .iter()
        .position(|w| BREAKS.contains(&w.low.as_str()))
        .unwrap_or(words.len());
    let words = &words[..end];
    words.iter().position(|w| w.stop).map_or(words, |stop| &words[..=stop])
}

/// The stems of a role's words that tell it, without time words, filler or function
/// words.
pub(super) fn role_value(words: &[Word]) -> Vec<String> {
    words
        .iter()
        .filter(|w| !is_time(&w.low) && !FILLER.contains(&w.low.as_str()) && !FUNCTION.contains(&w.low.as_str()))
        .map(|w| w.stem.clone())
        .collect()
}

/// The employment states that are said of an occupation: "a retired teacher".
pub(super) const STANDINGS: &[&str] = &["retired", "freelance", "self-employed", "unemployed"];

/// Words that say a job has ended: "I retired last year", "I got laid off".
pub(in crate::judgment) fn ends_employment(fact: &Fact) -> bool {
    let lows = fact.body_lows();
    let has = |w: &str| lows.contains(&w);
    has("retired")
        || has("unemployed")
        || has("redundant")
        || (has("laid") && has("off"))
        || has("fired")
        || has("resigned")
        || ((has("quit") || has("left") || has("lost")) && (has("job") || has("work")))
        || (has("between") && has("jobs"))
        // "my last day at stripe was friday".
        || lows.windows(3).any(|p| p == ["last", "day", "at"])
}

/// "quit the cafe job!! starting as a bank teller on monday" after "I work as a barista":
/// the teller quit or left a job, or retired, and the old fact is their job. Not "left work
/// early today", "nearly quit my job", "quit my weekend job", "I didn't quit my job", nor a
/// student's job beside the studies.
pub(in crate::judgment) fn job_quit(o: &Fact, n: &Fact) -> bool {
    let lows = n.body_lows();
    let quit = lows.iter().enumerate().any(|(i, w)| {
        let object = &lows[i + 1..(i + 5).min(lows.len())];
        matches!(*w, "quit" | "quitting" | "left" | "leaving" | "resigned")
            && !(i > 0
                && matches!(
                    lows[i - 1],
                    "nearly" | "almost" | "might" | "may" | "could" | "should" | "would" | "to"
                ))
            && object.contains(&"job")
            && !object.iter().any(|x| {
                matches!(
                    *x,
                    "second" | "part" | "side" | "weekend" | "evening" | "summer" | "saturday" | "holiday"
                )
            })
    });
    (quit || lows.contains(&"retired"))
        && !lows.iter().any(|w| matches!(*w, "not" | "never"))
        && super::slot_of(o).is_some_and(|s| {
            matches!(s.name.as_str(), "employer" | "role") && !s.value.iter().any(|v| v.starts_with("student"))
        })
}

/// Words that say one is out of work, which a job found ends: "I'm unemployed at the
/// moment", "between jobs", "got laid off in May". Retirement is not ended by a job.
pub(in crate::judgment) fn out_of_work(fact: &Fact) -> bool {
    let lows = fact.body_lows();
    let has = |w: &str| lows.contains(&w);
    let phrase = |p: &[&str]| lows.windows(p.len()).any(|w| w == p);
    has("unemployed")
        || has("jobless")
        || has("redundant")
        || phrase(&["laid", "off"])
        || phrase(&["between", "jobs"])
        || phrase(&["out", "of", "work"])
        || phrase(&["looking", "for", "work"])
        || phrase(&["looking", "for", "a", "job"])
}
