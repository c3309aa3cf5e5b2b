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

/// Whether the words tell a test or exam passed: a qualification, which lasts.
pub(super) fn passed_a_test(w: &[String]) -> bool {
    w.iter().enumerate().any(|(i, x)| {
        x == "passed"
            && w[i + 1..(i + 5).min(w.len())]
                .iter()
                .any(|n| matches!(n.as_str(), "test" | "exam" | "exams" | "finals" | "boards" | "viva"))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lifetime::words as w;

    #[test]
    fn news_of_a_change_names_when_it_began() {
        assert!(told_of_now(&w("started my new job at KPMG this week")));
        assert!(told_of_now(&w("I got engaged to Marco at the weekend!!")));
        assert!(!told_of_now(&w("I'm starting a new job next week")));
        assert!(!told_of_now(&w("we're getting engaged tomorrow")));
        assert!(passed_a_test(&w("finally passed my driving test!!")));
        assert!(!passed_a_test(&w("she passed me the salt")));
        assert!(name_to_call("actually just call me Kate, everyone does"));
        assert!(!name_to_call("call me back when you can"));
        assert!(!name_to_call("Call me crazy but I like Mondays"));
    }
}
