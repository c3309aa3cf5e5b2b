//! A lasting state that begins on a day to come: "I start my new job at Deloitte on
//! Monday", "we're moving into our new place on Harcourt Road on 1 April", "getting
//! married on 20 June", "my promotion kicks in from 1 April". The day names when it
//! begins, not when it ends: after it the fact still holds. What starts on a day and ends
//! soon after ("exams start monday", "I start physio on Monday", "moving house next month,
//! boxes everywhere") keeps its moment.

/// Words that make a beginning a hope or a question: "if I get the job I'd start in May".
const HOPES: &[&str] = &[
    "if",
    "might",
    "hope",
    "hoping",
    "hopefully",
    "maybe",
    "wish",
    "would",
    "could",
    "should",
    "thinking",
    "considering",
    "want",
    "wants",
    "fingers",
    "probably",
];

/// What one starts that lasts: a job, a course of years, a medicine.
const STARTED: &[&str] = &[
    "job",
    "role",
    "position",
    "career",
    "degree",
    "apprenticeship",
    "uni",
    "university",
    "college",
    "school",
    "residency",
    "tenancy",
    "lease",
    "contract",
    "pension",
    "hrt",
    "insulin",
    "medication",
    "meds",
    "treatment",
];

/// What one joins for good: "I join the fire service on 23 March".
const JOINED: &[&str] = &[
    "army",
    "navy",
    "raf",
    "marines",
    "police",
    "force",
    "service",
    "firm",
    "company",
    "practice",
    "board",
    "nhs",
    "team",
    "staff",
    "faculty",
    "partnership",
];

/// Verbs of an arrangement that a moment begins: "going freelance from April", "my
/// promotion kicks in from 1 April".
const TAKING_EFFECT: &[&str] = &[
    "dropping",
    "switching",
    "becoming",
    "officially",
    "starts",
    "start",
    "kicks",
    "changes",
    "changing",
];

/// Whether the words tell a lasting state that begins on a day to come, or now.
pub(super) fn a_lasting_state(w: &[String], content: &str) -> bool {
    // A hope in the beginning's own clause doubts it; one after it does not ("Starting my
    // new job on Monday, hope they're nice").
    let first = content
        .split([',', ';', '.', '!'])
        .next()
        .unwrap_or_default()
        .to_lowercase();
    let hoped = first
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .any(|x| HOPES.contains(&x));
    if content.contains('?') || hoped {
        return false;
    }
    // A span that ends it: "moving in with my sister for two weeks", "starting antibiotics
    // tomorrow, 500mg three times a day for a week".
    let spanned = w.windows(3).any(|p| {
        p[0] == "for"
            && (matches!(
                p[1].as_str(),
                "a" | "an" | "the" | "two" | "three" | "four" | "few" | "couple"
            ) || p[1].parse::<u32>().is_ok())
            && matches!(
                p[2].as_str(),
                "day" | "days" | "week" | "weeks" | "fortnight" | "night" | "nights" | "weekend" | "couple" | "few"
            )
    });
    // An appointment for a job or school is none: "my job interview starts at 10".
    let sought = w.iter().any(|x| {
        matches!(
            x.as_str(),
            "interview" | "interviews" | "application" | "trial" | "taster"
        )
    });
    if spanned || sought {
        return false;
    }
    let has = |x: &str| w.iter().any(|v| v == x);
    let pair = |a: &str, b: &str| w.windows(2).any(|p| p[0] == a && p[1] == b);
    // "getting married", "tying the knot": the user's own, not a sister's wedding.
    let married = w.iter().enumerate().any(|(i, x)| {
        let verb = match x.as_str() {
            "married" if i > 0 && matches!(w[i - 1].as_str(), "getting" | "get" | "be") => Some(i - 1),
            "knot" if i >= 2 && matches!(w[i - 2].as_str(), "tying" | "tie") => Some(i - 2),
            "marrying" => Some(i),
            _ => None,
        };
        verb.is_some_and(|v| own(&w[..v]))
    });
    // "I start my new job", "starting me on metformin", "start date is 16 March", "I
    // start at Google as a product manager", "starting sertraline tomorrow, 50mg", "new
    // contract starts Monday".
    // "Kids start school again tomorrow" is a term's, not a beginning.
    let started = w.iter().enumerate().any(|(i, x)| {
        matches!(
            x.as_str(),
            "start" | "starts" | "starting" | "begin" | "begins" | "beginning"
        ) && !w[i + 1..(i + 4).min(w.len())].iter().any(|n| n == "again")
            && (w[i + 1..(i + 5).min(w.len())]
                .iter()
                .any(|n| STARTED.contains(&n.as_str()) || dose(n))
                || w.get(i + 1).is_some_and(|n| n == "me") && w.get(i + 2).is_some_and(|n| n == "on")
                || w.get(i + 1).is_some_and(|n| n == "date")
                || w.get(i + 1).is_some_and(|n| n == "at") && capital_after(content, x)
                || w.get(i + 1).is_some_and(|n| n == "as") && w.get(i + 2).is_some_and(|n| n == "a" || n == "an")
                || w[i.saturating_sub(6)..i].iter().any(|b| {
                    matches!(
                        b.as_str(),
                        "job" | "role" | "contract" | "tenancy" | "lease" | "apprenticeship"
                    )
                }))
    });
    let joined = w.iter().enumerate().any(|(i, x)| {
        // Not "join the team call at 3".
        let joined_for_now = w[i + 1..(i + 5).min(w.len())]
            .iter()
            .any(|n| matches!(n.as_str(), "call" | "meeting" | "zoom" | "chat" | "standup" | "huddle"));
        matches!(x.as_str(), "join" | "joins" | "joining")
            && !joined_for_now
            && w[i + 1..(i + 4).min(w.len())]
                .iter()
                .any(|n| JOINED.contains(&n.as_str()))
    });
    // "I'm retiring on 31 March", "we're adopting a rescue greyhound", "we complete on
    // the house in Norwich on Friday".
    let retires = w
        .iter()
        .any(|x| matches!(x.as_str(), "retire" | "retires" | "retiring" | "adopting"));
    let completes = w.windows(4).any(|p| {
        matches!(p[0].as_str(), "complete" | "completing" | "completion")
            && p[1] == "on"
            && matches!(
                p[3].as_str(),
                "house" | "flat" | "home" | "place" | "apartment" | "purchase"
            )
    });
    // "moving into our new place", "moving to Leeds", "moving in with me", "we get the
    // keys": a home taken up. "Moving house" names none.
    let moves = w.iter().enumerate().any(|(i, x)| {
        matches!(x.as_str(), "moving" | "move" | "moves" | "relocating" | "emigrating")
            && w.get(i + 1).is_some_and(|n| match n.as_str() {
                "in" | "into" => true,
                "to" => capital_after(content, x),
                _ => false,
            })
    }) || w.windows(3).any(|p| {
        matches!(p[0].as_str(), "get" | "got" | "getting" | "collect" | "collecting") && p[1] == "the" && p[2] == "keys"
    });
    // "kicks in from 1 April", "takes effect next month", "going freelance from April".
    let from_a_moment = w.windows(2).any(|p| {
        p[0] == "from"
            && (matches!(
                p[1].as_str(),
                "next" | "this" | "tomorrow" | "monday" | "tuesday" | "wednesday"
            ) || matches!(p[1].as_str(), "thursday" | "friday" | "saturday" | "sunday")
                || crate::entities::MONTHS.contains(&p[1].as_str())
                || p[1].parse::<u32>().is_ok_and(|d| (1..=31).contains(&d)))
    }) && (w.iter().any(|x| TAKING_EFFECT.contains(&x.as_str()))
        // "I'll be team lead from 1 April", not "I'll be in Rome from Saturday".
        || w.windows(2).any(|p| {
            p[0] == "be"
                && !p[1].ends_with("ing")
                && !matches!(
                    p[1].as_str(),
                    "in" | "at" | "on" | "away" | "off" | "out" | "back" | "home" | "there" | "here" | "with" | "busy"
                        | "free" | "around" | "staying" | "travelling" | "traveling" | "working" | "visiting" | "closed"
                        | "shut" | "open" | "unavailable" | "gone"
                )
        })
        || w.windows(2).any(|p| {
            p[0] == "going"
                && matches!(
                    p[1].as_str(),
                    "freelance" | "part-time" | "full-time" | "self-employed" | "solo" | "vegan" | "vegetarian"
                )
        }))
        && !has("until")
        && !has("till");
    let in_effect = pair("kicks", "in") || pair("takes", "effect") || pair("into", "effect");
    let for_good = pair("for", "good");
    married || started || joined || retires || completes || moves || from_a_moment || in_effect || for_good
}

/// Whether the words before a verb leave the user its subject: none ("getting married on
/// Saturday"), or "I" or "we" among them ("Tom and I are getting married").
fn own(before: &[String]) -> bool {
    before.is_empty()
        || before.iter().any(|b| {
            matches!(
                b.as_str(),
                "i" | "i'm" | "im" | "we" | "we're" | "me" | "us" | "i'll" | "we'll"
            )
        })
}

/// Whether a capitalised word follows `verb` and "to": "moving to Leeds", not "moving to
/// the left".
fn capital_after(content: &str, verb: &str) -> bool {
    let tokens: Vec<&str> = content.split_whitespace().collect();
    tokens.windows(3).any(|p| {
        p[0].eq_ignore_ascii_case(verb)
            && matches!(p[1].to_lowercase().as_str(), "to" | "at")
            && p[2].chars().next().is_some_and(char::is_uppercase)
    })
}

/// Whether a word is a dose: "50mg", "2.5mg".
fn dose(word: &str) -> bool {
    ["mg", "mcg", "ml"].iter().any(|unit| {
        word.strip_suffix(unit)
            .is_some_and(|n| !n.is_empty() && n.parse::<f64>().is_ok())
    })
}

#[cfg(test)]
mod tests {
    use super::a_lasting_state;
    use crate::lifetime::words as w;

    #[test]
    fn a_lasting_state_to_come_is_read_and_a_passing_one_is_not() {
        let begins = |t: &str| a_lasting_state(&w(t), t);
        for lasting in [
            "I start my new job at Deloitte on Monday",
            "We're moving into our new place in Hove on Saturday",
            "Getting married to Tom next Saturday!",
            "getting married on 20 June!!",
            "doctor's starting me on metformin from tomorrow",
            "I'm going freelance from April",
            "my promotion to head of department kicks in from 1 April",
            "my girlfriend is moving in with me for good on the 15th",
            "we're emigrating to Canada in June",
            "I start at Google as a product manager on the 16th!!",
            "starting sertraline tomorrow, 50mg once a day",
            "new contract with the NHS trust starts Monday",
            "Got promoted!! I'll be team lead from 1 April",
            "we're adopting a rescue greyhound, picking him up on saturday",
            "We complete on the house in Norwich on Friday",
            "Starting my new job at Deloitte on Monday, hope they're nice",
            "we get the keys to our first house on Friday",
        ] {
            assert!(begins(lasting), "{lasting}");
        }
        for passing in [
            "exams start monday, revising like mad",
            "I start physio on Monday",
            "moving house next month, boxes everywhere",
            "my sister's getting married on Saturday",
            "if I get the job I'd start in May",
            "join the call at 3",
            "I'm in London from Monday",
            "I'm going to Spain from Monday",
            "Lost the keys, locked out",
            "My job interview starts at 10 tomorrow",
            "Kids start school again tomorrow after half term",
            "Need to join the team call at 3 tomorrow",
            "I'll be camping from Friday",
            "Moving in with my sister for two weeks while the flat's fumigated",
            "I'll start as soon as the kids are in bed",
            "Starting antibiotics tomorrow, 500mg three times a day for a week",
            "I'll be in Rome from Saturday",
            "school starts again on Monday",
            "I start at 9 tomorrow",
            "I start my annual leave tomorrow",
        ] {
            assert!(!begins(passing), "{passing}");
        }
    }
}
