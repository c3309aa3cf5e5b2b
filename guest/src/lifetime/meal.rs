//! Meals and drinks told as habits: "I have porridge for breakfast", "these days I have my
//! tea black", "I have lunch at my desk most days", "lately I've been having oatmeal for
//! breakfast". A meal's words pass elsewhere ("having lunch", "just had breakfast"), and
//! "have" is a state of the moment as often as not ("I have a headache"), so such habits
//! were kept for three days to a week. Meals of the moment still pass: "having a salad for
//! lunch", "I have a muffin and a coffee here", "had eggs this morning".

use super::habit::ADVERBS;
use super::phrase;

/// Words of a meal or a drink.
const MEALS: &[&str] = &[
    "breakfast",
    "brekkie",
    "lunch",
    "lunchtime",
    "dinner",
    "supper",
    "brunch",
    "meal",
    "meals",
    "snack",
    "snacks",
    "dessert",
    "takeaway",
    "coffee",
    "coffees",
    "tea",
    "teas",
    "water",
    "juice",
    "milk",
    "smoothie",
    "beer",
    "wine",
];

/// Verbs of eating and drinking in the simple present.
const EATS: &[&str] = &[
    "have", "has", "eat", "eats", "drink", "drinks", "take", "takes", "skip", "skips",
];

/// Words between a subject and its verb that leave the verb a habit beside
/// [`ADVERBS`]: "I don't eat breakfast", "we only ever have soup".
const MORE_ADVERBS: &[&str] = &[
    "don't",
    "do",
    "never",
    "rarely",
    "seldom",
    "ever",
    "always",
    "sometimes",
];

/// How many words after the verb a meal may come: "I have two slices of toast for breakfast".
const REACH: usize = 7;

/// Words that place the meal in the moment: "I have a coffee here", "in my hand".
fn of_the_moment(w: &[String]) -> bool {
    w.iter().any(|x| {
        matches!(
            x.as_str(),
            "here" | "today" | "tonight" | "tomorrow" | "yesterday" | "treat" | "rn" | "atm"
        )
    }) || [
        &["right", "now"][..],
        &["this", "morning"],
        &["this", "evening"],
        &["in", "my", "hand"],
        &["on", "the", "way"],
    ]
    .iter()
    .any(|p| phrase(w, p))
}

/// Whether the words tell a meal or a drink as a habit: a subject and a verb of eating in
/// the simple present with a meal after it, or "been having" one told with words of the
/// present ("lately", "these days"), and no word of the moment.
pub(super) fn habit(w: &[String]) -> bool {
    if of_the_moment(w) {
        return false;
    }
    // The meal is what is had, or what it is had for: not the time of another thing ("I
    // have a meeting at lunch").
    let meal_within = |from: usize| {
        let reach = &w[from..(from + REACH).min(w.len())];
        reach.iter().position(|x| MEALS.contains(&x.as_str())).is_some_and(|k| {
            !reach[..k].iter().any(|x| {
                matches!(
                    x.as_str(),
                    "at" | "after" | "before" | "during" | "with" | "in" | "over"
                )
            })
        })
    };
    let simple = w.iter().enumerate().any(|(i, x)| {
        if !matches!(x.as_str(), "i" | "we" | "they" | "he" | "she") {
            return false;
        }
        let verb = w[i + 1..]
            .iter()
            .position(|v| !ADVERBS.contains(&v.as_str()) && !MORE_ADVERBS.contains(&v.as_str()))
            .map(|k| i + 1 + k);
        verb.is_some_and(|v| EATS.contains(&w[v].as_str()) && meal_within(v + 1))
    });
    let lately = super::habit::told_as_present(w) || w.iter().any(|x| x == "since");
    let lately_been = lately
        && w.windows(2).enumerate().any(|(i, p)| {
            p[0] == "been" && matches!(p[1].as_str(), "having" | "eating" | "drinking") && meal_within(i + 2)
        });
    simple || lately_been
}

#[cfg(test)]
mod tests {
    use super::habit;

    fn w(text: &str) -> Vec<String> {
        text.to_lowercase()
            .split(|c: char| !(c.is_alphanumeric() || c == '\''))
            .filter(|w| !w.is_empty())
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn a_meal_had_as_a_habit_is_one() {
        for told in [
            "I have porridge for breakfast",
            "these days I have my tea black",
            "We usually have a roast for Sunday dinner",
            "I don't eat breakfast",
            "lately I've been having yoghurt for lunch",
        ] {
            assert!(habit(&w(told)), "{told}");
        }
    }

    #[test]
    fn a_meal_of_the_moment_or_no_meal_is_none() {
        for told in [
            "having porridge for breakfast",
            "I have a coffee here, perfect start",
            "I'm having a salad for lunch today",
            "I have a headache",
            "I had eggs this morning",
            "I have a meeting at lunch",
        ] {
            assert!(!habit(&w(told)), "{told}");
        }
    }
}
