//! News of a lasting change, told with the day it happened: "started my new job at KPMG
//! this week", "got engaged at the weekend", "3 months sober today". The day names when
//! the change began, not when it ends; a plan ("starting on Monday") is read elsewhere.
//! Also lasting, though told as news: a test passed ("finally passed my driving test!!")
//! and the name one asks to be called ("just call me Kate").

use super::phrase;

/// Whether the words name a moment of now or just past, and none ahead: "today", "this
/// week", "at the weekend", "this morning".
pub(super) fn told_of_now(w: &[String]) -> bool {
    let has = |x: &str| w.iter().any(|v| v == x);
    let now = has("today")
        || phrase(w, &["this", "week"])
        || phrase(w, &["this", "weekend"])
        || phrase(w, &["the", "weekend"])
        || phrase(w, &["this", "morning"]);
    let ahead = [
        "tomorrow", "next", "will", "i'll", "we'll", "going", "gonna", "planning", "hoping", "tonight",
    ]
    .iter()
    .any(|x| has(x));
    now && !ahead
}

/// Whether the words tell a test or exam passed, or a licence got: a qualification, which
/// lasts ("my RN license came in the mail today!!").
pub(super) fn passed_a_test(w: &[String]) -> bool {
    let licence = |x: &str| matches!(x, "license" | "licence" | "certificate" | "certification" | "diploma");
    // "got my licence suspended", "my licence came up for renewal".
    let lost = |i: usize| {
        w[i + 1..(i + 5).min(w.len())].iter().any(|n| {
            matches!(
                n.as_str(),
                "suspended" | "revoked" | "taken" | "endorsed" | "up" | "renewal" | "renewed" | "expired"
            )
        })
    };
    w.iter().enumerate().any(|(i, x)| {
        x == "passed"
            && w[i + 1..(i + 5).min(w.len())]
                .iter()
                .any(|n| matches!(n.as_str(), "test" | "exam" | "exams" | "finals" | "boards" | "viva"))
            || licence(x)
                && w[i + 1..(i + 3).min(w.len())]
                    .iter()
                    .any(|n| matches!(n.as_str(), "came" | "arrived" | "finally"))
                && !lost(i)
            || matches!(x.as_str(), "got" | "received")
                && w.get(i + 1).is_some_and(|m| m == "my")
                && w.get(i + 2).is_some_and(|l| licence(l))
                && !lost(i)
    })
}

/// Whether the content asks to be called by a name: "just call me Kate, everyone does"
/// ("call me back" and "call me crazy" name no one).
pub(super) fn name_to_call(content: &str) -> bool {
    let words: Vec<&str> = content.split_whitespace().collect();
    words.windows(3).any(|p| {
        p[0].eq_ignore_ascii_case("call")
            && p[1].trim_end_matches(',') == "me"
            && p[2].chars().next().is_some_and(char::is_uppercase)
            && p[2].trim_matches(|c: char| !c.is_alphabetic()) != "I"
    })
}

/// Whether the words tell a change of life whose outcome lasts, whatever day it is told
/// with: a birth ("baby arrived on tuesday!"), a death ("we had to put Max down
/// yesterday", "Grandad passed away"), a job got ("got the job at Deloitte!! start in two
/// weeks"). Not a hope or a question ("fingers crossed I get the job").
pub(super) fn life_event(w: &[String], content: &str) -> bool {
    const HOPES: &[&str] = &[
        "hope",
        "hoping",
        "hopefully",
        "if",
        "might",
        "want",
        "wish",
        "fingers",
        "would",
        "could",
        "should",
        "may",
    ];
    if content.contains('?') || w.iter().any(|x| HOPES.contains(&x.as_str())) {
        return false;
    }
    let born = [
        &["baby", "arrived"][..],
        &["had", "the", "baby"],
        &["had", "our", "baby"],
        &["had", "a", "baby"],
        &["had", "our", "first"],
        &["had", "our", "second"],
        &["gave", "birth"],
    ]
    .iter()
    .any(|p| phrase(w, p));
    // "we had to have biscuit put to sleep on tuesday"; not "the baby's finally put to
    // sleep".
    let died = phrase(w, &["passed", "away"])
        || phrase(w, &["put", "to", "sleep"]) && (phrase(w, &["had", "to"]) || has_name_or_pet(content))
        || w.windows(3)
            .any(|p| p[0] == "put" && (p[2] == "down" || p[2] == "to") && p[1] != "it")
            && has_name_or_pet(content)
        || w.iter().enumerate().any(|(i, x)| {
            x == "died" && i > 0 && (PETS_AND_KIN.contains(&w[i - 1].as_str()) || named_before(content, "died"))
        });
    // "I've got a job interview on Monday" is a day's.
    let sought = w.iter().any(|x| {
        matches!(
            x.as_str(),
            "interview" | "interviews" | "application" | "applying" | "fair"
        )
    });
    // "got the job", "landed a new role", "accepted the position", "accepted an offer".
    let job = !sought
        && w.iter().enumerate().any(|(i, x)| {
            let before = |k: usize| i.checked_sub(k).map(|j| w[j].as_str());
            let article = if before(1) == Some("new") { 2 } else { 1 };
            matches!(x.as_str(), "job" | "role" | "position" | "offer")
                && matches!(before(article), Some("a" | "an" | "the"))
                && matches!(before(article + 1), Some("got" | "landed" | "accepted"))
        });
    born || died || job
}

/// Pets and family, whose death is a change of life.
const PETS_AND_KIN: &[&str] = &[
    "dog", "cat", "rabbit", "hamster", "horse", "mum", "mom", "dad", "gran", "grandma", "grandad", "grandpa", "nan",
    "uncle", "aunt", "auntie", "friend", "brother", "sister", "husband", "wife",
];

/// Whether the content names someone (a capital past its first word) or a pet.
fn has_name_or_pet(content: &str) -> bool {
    content
        .split_whitespace()
        .skip(1)
        .any(|t| t.chars().next().is_some_and(char::is_uppercase) && t != "I")
        || content
            .split(|c: char| !c.is_alphabetic())
            .any(|t| PETS_AND_KIN.contains(&t.to_lowercase().as_str()))
}

/// Whether a capitalised name comes just before `verb`: "Luna died on Sunday".
fn named_before(content: &str, verb: &str) -> bool {
    let tokens: Vec<&str> = content.split_whitespace().collect();
    tokens.windows(2).any(|p| {
        p[1].to_lowercase().starts_with(verb) && p[0].chars().next().is_some_and(char::is_uppercase) && p[0] != "I"
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lifetime::words as w;

    #[test]
    fn a_change_of_life_lasts_and_a_hope_of_one_does_not() {
        let event = |t: &str| life_event(&w(t), t);
        assert!(event("baby arrived on tuesday! little girl called Ava"));
        assert!(event("we had to put Max down yesterday, absolutely gutted"));
        assert!(event("got the job at Deloitte!! start in two weeks"));
        assert!(event("I've got a new job at a clinic in Carlton, start Monday"));
        assert!(event(
            "just accepted an offer at Datadog, my last day at stripe was friday"
        ));
        assert!(event(
            "we had to have biscuit put to sleep on tuesday. the house is so quiet"
        ));
        assert!(!event("the baby's finally put to sleep, wine time"));
        assert!(!event("fingers crossed I get the job"));
        assert!(!event("I've got a job interview on Monday"));
        assert!(!event("my phone died on the train"));
        assert!(!event("put it down on the table"));
    }

    #[test]
    fn news_of_a_change_names_when_it_began() {
        assert!(told_of_now(&w("started my new job at KPMG this week")));
        assert!(told_of_now(&w("I got engaged to Marco at the weekend!!")));
        assert!(!told_of_now(&w("I'm starting a new job next week")));
        assert!(!told_of_now(&w("we're getting engaged tomorrow")));
        assert!(passed_a_test(&w("finally passed my driving test!!")));
        assert!(passed_a_test(&w("my RN license came in the mail today!!")));
        assert!(passed_a_test(&w("got my licence back after the ban")));
        assert!(!passed_a_test(&w("renewing my licence online today")));
        assert!(!passed_a_test(&w("got my licence suspended for speeding")));
        assert!(!passed_a_test(&w("my licence came up for renewal")));
        assert!(!passed_a_test(&w("she passed me the salt")));
        assert!(name_to_call("actually just call me Kate, everyone does"));
        assert!(!name_to_call("call me back when you can"));
        assert!(!name_to_call("Call me crazy but I like Mondays"));
    }
}
