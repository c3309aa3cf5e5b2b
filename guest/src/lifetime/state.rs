//! A state of months told with words of the present: "I'm unemployed at the moment", "rn
//! im on 50mg of sertraline", "i'm caring for my dad full time atm", "currently i'm the
//! treasurer of our running club". The present words are a passing context's cues, but
//! what they qualify lasts until the user says otherwise; "at the moment I'm in the queue
//! at the post office" and "reading Dune at the moment" still pass (`habit`, `doing`).

use super::{is_number, phrase};

/// States that take months to change, after "I'm" or another being.
const STATES: &[&str] = &[
    "unemployed",
    "single",
    "retired",
    "self-employed",
    "freelance",
    "jobless",
    "furloughed",
    "redundant",
    "sober",
    "engaged",
    "separated",
    "homeless",
    "housebound",
    "widowed",
    "remission",
    "long-distance",
    "celibate",
    "teetotal",
];

/// Words between a being and its state: "I'm currently single", "we're still long distance".
const BETWEEN: &[&str] = &[
    "currently",
    "still",
    "now",
    "officially",
    "technically",
    "basically",
    "happily",
    "totally",
    "completely",
    "fully",
    "a",
    "an",
];

/// What one is on for months: a leave, a dose, a benefit, a shift pattern.
const ON: &[&str] = &[
    "benefits",
    "furlough",
    "probation",
    "nights",
    "lates",
    "earlies",
    "placement",
    "hrt",
    "insulin",
    "antidepressants",
    "statins",
    "dialysis",
    "chemo",
    "chemotherapy",
    "methadone",
];

/// Courses one is doing for months: "doing a part-time MSc", "doing an apprenticeship".
const COURSES: &[&str] = &[
    "degree",
    "masters",
    "master's",
    "msc",
    "mba",
    "phd",
    "apprenticeship",
    "diploma",
    "pgce",
    "doctorate",
    "a-levels",
    "gcses",
    "nvq",
    "btec",
    "traineeship",
    "residency",
    "internship",
];

/// Kin one cares for, full time.
const KIN: &[&str] = &[
    "mum", "mom", "dad", "mother", "father", "parents", "gran", "nan", "grandma", "grandad", "grandpa", "husband",
    "wife", "partner", "son", "daughter",
];

/// Nouns after "I'm the" that name no role: "I'm the only one here", "the last person in".
const NO_ROLE: &[&str] = &[
    "one", "person", "people", "first", "last", "only", "guy", "girl", "worst", "best", "same",
];

/// Whether the words tell a state of months (the present words are read by the caller).
pub(super) fn of_months(w: &[String]) -> bool {
    let being = |x: &str| {
        matches!(
            x,
            "i'm" | "im" | "am" | "we're" | "are" | "is" | "he's" | "she's" | "they're" | "been"
        )
    };
    // "I'm unemployed", "we're currently long distance".
    let state = w.iter().enumerate().any(|(i, x)| {
        let two_words = |a: &str, b: &str| x == a && w.get(i + 1).is_some_and(|n| n == b);
        let named = STATES.contains(&x.as_str()) || two_words("long", "distance") || two_words("self", "employed");
        // "single atm and honestly loving it": the being left out.
        named && i == 0
            || named
                && w[..i].iter().rev().take(3).any(|b| being(b))
                && w[..i]
                    .iter()
                    .rev()
                    .take_while(|b| !being(b))
                    .all(|b| BETWEEN.contains(&b.as_str()))
    });
    let on = w.iter().enumerate().any(|(i, x)| {
        x == "on" && {
            let next = |k: usize| w.get(i + k).map(String::as_str);
            // "on maternity leave", "on 50mg of sertraline", "on 20 units", "on nights".
            // Not "on annual leave", a holiday.
            (1..=4).any(|k| matches!(next(k), Some("leave" | "diet"))) && next(1) != Some("annual")
                || next(1).is_some_and(|n| ON.contains(&n))
                || next(1).is_some_and(|n| n.ends_with("mg") && n.len() > 2 && n[..n.len() - 2].parse::<f64>().is_ok())
                || (next(1).is_some_and(is_number)
                    && next(2).is_some_and(|u| matches!(u, "mg" | "mcg" | "units" | "ml")))
        }
    });
    let course = w.iter().enumerate().any(|(i, x)| {
        matches!(x.as_str(), "doing" | "studying" | "completing")
            && w[i + 1..(i + 7).min(w.len())]
                .iter()
                .any(|n| COURSES.contains(&n.as_str()))
    });
    // "caring for my dad full time", "looking after my mum".
    let caring = w
        .windows(2)
        .any(|p| p[0] == "caring" && p[1] == "for" || p[0] == "looking" && p[1] == "after")
        && w.iter().any(|x| KIN.contains(&x.as_str()));
    // "our eldest is in year 9", "in remission", "working from home".
    let placed = w.windows(2).any(|p| {
        p[0] == "in" && matches!(p[1].as_str(), "remission" | "recovery" | "rehab" | "reception")
            || matches!(p[0].as_str(), "year" | "grade") && is_number(&p[1]) && w.iter().any(|x| x == "in")
    }) || phrase(w, &["working", "from", "home"])
        || phrase(w, &["in", "a", "relationship"])
        || w.windows(3).any(|p| {
            p[0] == "seeing"
                && (matches!(p[1].as_str(), "someone" | "somebody")
                    || p[1] == "a" && matches!(p[2].as_str(), "guy" | "girl" | "man" | "woman" | "lad" | "bloke"))
        })
        || phrase(w, &["between", "jobs"]);
    // "I'm the treasurer of our running club", "i'm the only backend dev on the team".
    let role = w.iter().enumerate().any(|(i, x)| {
        matches!(x.as_str(), "i'm" | "im")
            && w.get(i + 1).is_some_and(|n| n == "the")
            && {
                let named: Vec<&String> = w[i + 2..(i + 6).min(w.len())]
                    .iter()
                    .take_while(|n| !matches!(n.as_str(), "of" | "on" | "at" | "for"))
                    .collect();
                named.last().is_some_and(|n| !NO_ROLE.contains(&n.as_str()))
                    && named.iter().all(|n| !n.ends_with("ing"))
            }
            && w[i + 3..(i + 6).min(w.len())]
                .iter()
                .any(|n| matches!(n.as_str(), "of" | "on" | "at" | "for"))
    });
    state || on || course || caring || placed || role
}

#[cfg(test)]
mod tests {
    use super::of_months;
    use crate::lifetime::words as w;

    #[test]
    fn a_state_of_months_is_read_and_a_doing_of_now_is_not() {
        for lasting in [
            "I'm unemployed at the moment",
            "I'm single at the moment",
            "I'm on maternity leave at the moment, back at work in January",
            "I'm currently doing a part-time MSc in data science",
            "rn im on 50mg of sertraline",
            "i'm caring for my dad full time atm",
            "our eldest is in year 9 at St Mary's atm",
            "currently i'm the treasurer of our running club",
            "currently i'm the only backend dev on the team",
            "me and my partner are long distance at the moment",
            "single atm and honestly loving it",
            "these days im self employed",
            "I'm seeing a guy called Sam at the moment",
            "on a low carb diet these days",
            "im doing a level 3 plumbing apprenticeship currently",
        ] {
            assert!(of_months(&w(lasting)), "{lasting}");
        }
        for passing in [
            "rn i'm in the queue at the post office",
            "I'm the only one at the gym right now",
            "reading Dune at the moment",
            "looking after my sister's dog this week",
            "I'm single-handedly running the shop today",
            "I'm seeing a physio at the moment for my knee",
            "On annual leave atm",
            "I'm in a single room at the Premier Inn at the moment",
        ] {
            assert!(!of_months(&w(passing)), "{passing}");
        }
    }
}
