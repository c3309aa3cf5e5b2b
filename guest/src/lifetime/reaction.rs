//! How one's body takes a thing, told as a habit: "shellfish makes me really ill", "red
//! wine gives me a headache", "spicy food doesn't agree with me". The words of the state
//! ("ill", "headache") pass; told this way, the reaction lasts. Told of one time, it
//! passes: "the prawns last night made me ill", "this wine is giving me a headache".

/// Verbs in the simple present by which a thing acts on the teller.
const ACTS: &[&str] = &[
    "makes",
    "make",
    "gives",
    "give",
    "upsets",
    "triggers",
    "trigger",
    "sets",
    "set",
    "terrifies",
    "scares",
    "freaks",
    "freak",
];

/// Words before the verb that make the thing one of the moment: "this wine", "that
/// burger", "the curry from lunch is".
const THIS_ONE: &[&str] = &[
    "this", "that", "these", "those", "it", "it's", "is", "are", "was", "were", "just", "has", "have", "had",
];

/// Whether the words tell a reaction of the teller's body as a habit.
pub(super) fn told_as_habit(w: &[String]) -> bool {
    w.iter().enumerate().any(|(i, verb)| {
        if i == 0 {
            return false;
        }
        let before = &w[..i];
        let of_the_moment = before.iter().any(|b| THIS_ONE.contains(&b.as_str()) && b != "just")
            || matches!(w[i - 1].as_str(), "it" | "is" | "are" | "was" | "that" | "this");
        if of_the_moment {
            return false;
        }
        let next = w.get(i + 1).map(String::as_str);
        let of_a_day = w.iter().any(|x| {
            matches!(
                x.as_str(),
                "today" | "tomorrow" | "tonight" | "next" | "test" | "exam" | "interview"
            ) || crate::entities::WEEKDAYS.contains(&x.as_str())
        });
        let acts = ACTS.contains(&verb.as_str())
            && match verb.as_str() {
                // "sets off my migraines", "set off my asthma".
                "sets" | "set" => next == Some("off"),
                // "flying terrifies me", "spiders freak me out"; not "my driving test on
                // friday terrifies me", of one day.
                "terrifies" | "scares" | "freaks" | "freak" => next == Some("me") && !of_a_day,
                _ => matches!(next, Some("me" | "my")),
            };
        // "doesn't agree with me", "dairy never agrees with me".
        let disagrees = matches!(verb.as_str(), "agree" | "agrees")
            && matches!(w[i - 1].as_str(), "doesn't" | "don't" | "never" | "not")
            && w.get(i + 1).is_some_and(|n| n == "with")
            && w.get(i + 2).is_some_and(|n| n == "me");
        // A subject of one or two words before the verb, as a habit's: "cats make me",
        // "red wine gives me"; not "I" ("I make me..." is not one) nor a clause.
        let subject_is_a_thing = !matches!(w[i - 1].as_str(), "i" | "we" | "you" | "he" | "she" | "they");
        (acts || disagrees) && subject_is_a_thing
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(text: &str) -> Vec<String> {
        text.to_lowercase().split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn a_reaction_told_as_a_habit_and_one_told_of_a_time() {
        for habit in [
            "shellfish makes me really ill",
            "cats make me sneeze",
            "red wine gives me a headache",
            "spicy food just doesn't agree with me",
            "strobe lights set off my migraines",
        ] {
            assert!(told_as_habit(&w(habit)), "{habit}");
        }
        for once in [
            "the prawns last night made me ill",
            "this wine is giving me a headache",
            "that burger made me sick",
            "it makes me sad",
            "i make my own bread",
        ] {
            assert!(!told_as_habit(&w(once)), "{once}");
        }
    }
}
