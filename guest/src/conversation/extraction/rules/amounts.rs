//! The teller's standing amounts, told in passing: "I'm 84kg at the moment", "I weigh
//! about 13 stone", "I'm 34", "I earn 65k", "I'm on £42k", "my rent is $1,400 a month", "I'm
//! on 50mg of sertraline", "I take 20 units of Lantus at night", "I get up at 5:30", and
//! their news ("I'm down to 79kg now", "weighed in at 88.5 this morning"). Each form opens
//! the clause and names its figure within a few words, so that a price asked about ("how
//! much is 2kg of rice"), a sum to work out or a goal ("I want to get to 75kg", stopped as
//! a plan before this) tells nothing.

use super::fact_of;
use super::sentences::{capitalise, clause};
use crate::conversation::extraction::Fact;
use crate::entities::WEEKDAYS;
use crate::memory_type::MemoryType;

/// What an opener's figure must be.
#[derive(Clone, Copy, PartialEq)]
enum Needs {
    /// Any figure: "I weigh about 13 stone", "my commute is 45 minutes".
    Figure,
    /// Money: "I earn 65k", not "I make 12 cupcakes".
    Money,
    /// A dose: "I take 50mg of sertraline", not "I take 2 sugars".
    Dose,
    /// Money that recurs: "I pay 1,200 in rent", not "I pay 12 for parking".
    Recurring,
}

/// Openers whose figure is the teller's own standing amount, what the figure must be,
/// and the type of its memory.
const OPENERS: &[(&str, Needs, MemoryType)] = &[
    ("i weigh ", Needs::Figure, MemoryType::Identity),
    ("i earn ", Needs::Money, MemoryType::Identity),
    ("i make ", Needs::Money, MemoryType::Identity),
    ("my salary is ", Needs::Figure, MemoryType::Identity),
    ("my salary's ", Needs::Figure, MemoryType::Identity),
    ("my pay is ", Needs::Money, MemoryType::Identity),
    ("my rent is ", Needs::Figure, MemoryType::Knowledge),
    ("my rent's ", Needs::Figure, MemoryType::Knowledge),
    ("our rent is ", Needs::Figure, MemoryType::Knowledge),
    ("our rent's ", Needs::Figure, MemoryType::Knowledge),
    // The rent without "my" only as news of it: "rent's gone up to £1,020", not "rent's up
    // to £1,800 for a two-bed round here".
    ("rent's gone ", Needs::Figure, MemoryType::Knowledge),
    ("rent's going ", Needs::Figure, MemoryType::Knowledge),
    ("rent went ", Needs::Figure, MemoryType::Knowledge),
    ("rent is going ", Needs::Figure, MemoryType::Knowledge),
    ("my mortgage is ", Needs::Figure, MemoryType::Knowledge),
    ("our mortgage is ", Needs::Figure, MemoryType::Knowledge),
    ("my mortgage rate is ", Needs::Figure, MemoryType::Knowledge),
    ("our mortgage rate is ", Needs::Figure, MemoryType::Knowledge),
    ("i pay ", Needs::Recurring, MemoryType::Knowledge),
    ("we pay ", Needs::Recurring, MemoryType::Knowledge),
    // Before "i take ": "I take home about £2,300 a month" is pay, no dose.
    ("i take home ", Needs::Money, MemoryType::Identity),
    ("i take ", Needs::Dose, MemoryType::Identity),
    ("i get up at ", Needs::Figure, MemoryType::Knowledge),
    ("i wake up at ", Needs::Figure, MemoryType::Knowledge),
    ("my commute is ", Needs::Figure, MemoryType::Knowledge),
    ("i've saved ", Needs::Money, MemoryType::Knowledge),
    ("i have saved ", Needs::Money, MemoryType::Knowledge),
    ("i owe ", Needs::Money, MemoryType::Knowledge),
    ("weighed in at ", Needs::Figure, MemoryType::Identity),
    ("i weighed in at ", Needs::Figure, MemoryType::Identity),
    ("my take-home is ", Needs::Money, MemoryType::Identity),
    ("my take home is ", Needs::Money, MemoryType::Identity),
    ("my bedtime is ", Needs::Figure, MemoryType::Knowledge),
    ("my bedtime's ", Needs::Figure, MemoryType::Knowledge),
    ("my resting heart rate is ", Needs::Figure, MemoryType::Identity),
    ("my resting heart rate's ", Needs::Figure, MemoryType::Identity),
    ("my blood pressure is ", Needs::Figure, MemoryType::Identity),
    ("my bp is ", Needs::Figure, MemoryType::Identity),
    ("my bmi is ", Needs::Figure, MemoryType::Identity),
    ("my handicap is ", Needs::Figure, MemoryType::Identity),
    ("my golf handicap is ", Needs::Figure, MemoryType::Identity),
    ("paying ", Needs::Recurring, MemoryType::Knowledge),
    ("i'm paying ", Needs::Recurring, MemoryType::Knowledge),
    ("we're paying ", Needs::Recurring, MemoryType::Knowledge),
    ("i've been paying ", Needs::Recurring, MemoryType::Knowledge),
    ("i just turned ", Needs::Figure, MemoryType::Identity),
    ("just turned ", Needs::Figure, MemoryType::Identity),
    ("i turned ", Needs::Figure, MemoryType::Identity),
];

/// Verbs before "my <thing> to <dose>" that tell a dose changed: "they upped my
/// sertraline to 100mg", "doc's dropped my levothyroxine to 75mcg".
const DOSE_CHANGES: &[&str] = &[
    "upped",
    "increased",
    "raised",
    "lowered",
    "dropped",
    "reduced",
    "doubled",
    "halved",
    "changed",
    "put",
];

/// Adverbs between the teller and a verb of habit: "I usually do about 10k steps a day".
const HABIT_ADVERBS: &[&str] = &[
    "usually",
    "normally",
    "generally",
    "typically",
    "always",
    "mostly",
    "often",
];

/// Verbs that are no habit of the teller's: "I need 3 eggs a day", "I think 2 a week".
const NOT_HABITS: &[&str] = &[
    "need", "want", "think", "guess", "feel", "hope", "wish", "paid", "spent", "had", "did", "was", "got", "bought",
    "can", "could", "should", "would", "might", "will", "have", "am", "mean",
];

/// What a routine is counted in, after "a", "per", "each" or "every": "3 times a week",
/// "10k steps a day", and a weekday ("2km every Tuesday").
const PERIODS: &[&str] = &[
    "day",
    "night",
    "week",
    "month",
    "year",
    "weekday",
    "weekend",
    "morning",
    "evening",
    "way",
    "fortnight",
];

/// Units of weight written after a figure.
const WEIGHT_UNITS: &[&str] = &["kg", "kgs", "kilos", "kilo", "lbs", "lb", "stone", "st", "pounds"];

/// Units of a dose written after a figure.
const DOSE_UNITS: &[&str] = &["mg", "mcg", "ml", "iu", "units", "unit"];

/// Words before "at" and a figure that make a level of the teller's: "I'm down to 79kg",
/// "I'm sitting at 68kg".
const LEVELS: &[&str] = &["down to ", "up to ", "sitting at ", "at "];

/// A fact of the teller's own amount, if the clause opens with one.
pub(super) fn amount(text: &str, lower: &str) -> Option<Fact> {
    // A comparison is no level: "I weigh 3kg more today than last week".
    let own = clause_of(lower);
    if own.contains(" than ") || own.contains(" more ") || own.contains(" less ") {
        return None;
    }
    let fact = || capitalise(&own_conjunct(&clause_of(text)));
    for (opener, needs, t) in OPENERS {
        // What is paid may come after what it is for: "paying off the car at $389 a month".
        let reach = if *needs == Needs::Recurring { 6 } else { 3 };
        if let Some(rest) = lower.strip_prefix(opener)
            && figure_within(rest, reach)
        {
            let fits = match needs {
                Needs::Figure => true,
                Needs::Money => money_within(rest, 3),
                Needs::Dose => dose_within(rest, 3),
                Needs::Recurring => money_within(rest, reach) && recurs(rest),
            };
            return fits.then(|| fact_of(fact(), *t, Vec::new()));
        }
    }
    // News told without its subject, as chat drops it: "down to 79kg!!! 5 kilos gone", "got
    // a raise!! on 72k now".
    if let Some(level) = lower.strip_prefix("down to ").or_else(|| lower.strip_prefix("up to "))
        && weight_at(level)
    {
        return Some(fact_of(fact(), MemoryType::Identity, Vec::new()));
    }
    if let Some(pay) = lower.strip_prefix("on ")
        && money_at(pay)
        && words(pay).get(1).is_some_and(|n| matches!(*n, "now" | "a" | "per"))
    {
        return Some(fact_of(fact(), MemoryType::Identity, Vec::new()));
    }
    // "they upped my sertraline to 100mg last week".
    // The clause's words, read once by the forms below.
    let clause_words = words(&own);
    if dose_changed(&clause_words) {
        return Some(fact_of(fact(), MemoryType::Identity, Vec::new()));
    }
    // "I run 3 times a week", "i work 50 hours a week", "I swim 2km every Tuesday".
    if routine(&clause_words) {
        return Some(fact_of(fact(), MemoryType::Knowledge, Vec::new()));
    }
    // "I've got about 8k in savings".
    if ["i've got ", "i have ", "we've got ", "we have "]
        .iter()
        .find_map(|h| lower.strip_prefix(h))
        .is_some_and(|rest| {
            money_within(rest, 2)
                && [
                    "savings",
                    "saved",
                    "the bank",
                    "debt",
                    "credit card",
                    "loan",
                    "isa",
                    "pension",
                ]
                .iter()
                .any(|s| clause_of(rest).contains(s))
        })
    {
        return Some(fact_of(fact(), MemoryType::Knowledge, Vec::new()));
    }
    // "my PB for 5k is 21:47", "my deadlift PB is 180kg".
    if lower.starts_with("my ") && personal_best(&clause_words) {
        return Some(fact_of(fact(), MemoryType::Identity, Vec::new()));
    }
    let rest = ["i'm ", "i am ", "im "].iter().find_map(|b| lower.strip_prefix(b))?;
    // "I'm in year 12", "I'm in grade 9".
    if let Some(year) = rest.strip_prefix("in year ").or_else(|| rest.strip_prefix("in grade "))
        && figure_within(year, 0)
    {
        return Some(fact_of(fact(), MemoryType::Identity, Vec::new()));
    }
    // "I'm a UK size 14 in dresses", "I'm a size 10".
    if let Some(size) = rest.strip_prefix("a ").or_else(|| rest.strip_prefix("an ")) {
        let size = ["uk ", "us ", "eu "]
            .iter()
            .find_map(|r| size.strip_prefix(r))
            .unwrap_or(size);
        if size.strip_prefix("size ").is_some_and(|n| figure_within(n, 0)) {
            return Some(fact_of(fact(), MemoryType::Identity, Vec::new()));
        }
    }
    // "I'm 29 weeks pregnant".
    let w = words(rest);
    if w.len() >= 3 && is_figure(w[0]) && w[1] == "weeks" && w[2] == "pregnant" {
        return Some(fact_of(fact(), MemoryType::Identity, Vec::new()));
    }
    // "I'm on 50mg of sertraline", "I'm on £42k", "I'm on 20 units of insulin".
    if let Some(on) = rest.strip_prefix("on ")
        && (dose_within(on, 1) || money_at(on))
    {
        return Some(fact_of(fact(), MemoryType::Identity, Vec::new()));
    }
    // "I'm down to 79kg now", "I'm 84kg at the moment", "I'm 13 stone".
    let level = LEVELS.iter().find_map(|l| rest.strip_prefix(l)).unwrap_or(rest);
    if weight_at(level) {
        return Some(fact_of(fact(), MemoryType::Identity, Vec::new()));
    }
    // "I'm 34", "I'm 34 years old", "I'm 6'2".
    if age_at(rest) || height_at(rest) {
        return Some(fact_of(fact(), MemoryType::Identity, Vec::new()));
    }
    None
}

/// The fact's clause, a comma between digits kept: "my rent is $1,400 a month".
fn clause_of(text: &str) -> String {
    const KEPT: char = '\u{E000}';
    let chars: Vec<char> = text.chars().collect();
    let protected: String = chars
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let between = i > 0 && chars[i - 1].is_ascii_digit() && chars.get(i + 1).is_some_and(char::is_ascii_digit);
            if c == ',' && between { KEPT } else { c }
        })
        .collect();
    clause(&protected).replace(KEPT, ",")
}

/// The clause up to a conjunct that is not another amount: "I'm 6'2 with a 36 inch inside
/// leg" of "... and can never find trousers long enough", but "I'm 5ft 4 and 62 kilos".
fn own_conjunct(clause: &str) -> String {
    let lower = clause.to_ascii_lowercase();
    let end = [" and ", " but ", " so "]
        .iter()
        .flat_map(|j| lower.match_indices(j).map(move |(i, _)| (i, i + j.len())))
        .filter(|&(_, after)| {
            let next = lower[after..].split_whitespace().next().unwrap_or("");
            let next = if matches!(next, "about" | "around" | "roughly" | "nearly" | "almost") {
                lower[after..].split_whitespace().nth(1).unwrap_or("")
            } else {
                next
            };
            !is_figure(next)
        })
        .map(|(i, _)| i)
        .min()
        .unwrap_or(clause.len());
    clause[..end].to_owned()
}

/// The words of `text`, split at spaces, without the punctuation that closes them.
fn words(text: &str) -> Vec<&str> {
    text.split_whitespace()
        .map(|w| w.trim_end_matches([',', '.', '!', ';', ':', ')']))
        .collect()
}

/// Whether a word is a figure: digits, after a currency sign or "about"-like word.
fn is_figure(word: &str) -> bool {
    word.trim_start_matches(['£', '$', '€', '~'])
        .starts_with(|c: char| c.is_ascii_digit())
}

/// Whether a figure comes within the first `n` words: "about 13 stone", "roughly £40k".
fn figure_within(text: &str, n: usize) -> bool {
    let n = n + 1;
    words(text).iter().take(n).any(|w| is_figure(w))
}

/// Whether a dose comes within the first `n` words: "50mg", "20 units", "100 mcg".
fn dose_within(text: &str, n: usize) -> bool {
    let w = words(text);
    (0..n.min(w.len())).any(|i| {
        let unit = w[i].trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        is_figure(w[i])
            && (DOSE_UNITS.contains(&unit) || w.get(i + 1).is_some_and(|u| DOSE_UNITS.contains(u) && unit.is_empty()))
    })
}

/// Whether the text opens with money: "£42k", "65k", "$80,000", "40 grand".
fn money_at(text: &str) -> bool {
    let w = words(text);
    let Some(first) = w.first().copied() else {
        return false;
    };
    let currency = first.starts_with(['£', '$', '€']);
    let named = w
        .get(1)
        .is_some_and(|u| matches!(*u, "grand" | "quid" | "bucks" | "dollars" | "pounds" | "euros" | "k"));
    is_figure(first) && (currency || first.ends_with('k') || first.ends_with('K') || named)
}

/// Whether money comes within the first `n` words: "about £40k", "roughly 65k a year".
fn money_within(text: &str, n: usize) -> bool {
    let w: Vec<&str> = text.split_whitespace().collect();
    (0..n.min(w.len())).any(|i| money_at(&w[i..].join(" ")))
}

/// Whether the text opens with a weight: "84kg", "84 kg", "13 stone", "210 lbs".
fn weight_at(text: &str) -> bool {
    let w = words(text);
    let Some(first) = w.first().copied().filter(|f| is_figure(f)) else {
        return false;
    };
    let unit = first.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    WEIGHT_UNITS.contains(&unit) || (unit.is_empty() && w.get(1).is_some_and(|u| WEIGHT_UNITS.contains(u)))
}

/// Whether the text opens with an age and nothing else in its clause: "34", "34, software
/// dev", "34 years old", "34 and"; not "34 weeks pregnant" or "2 hours late".
fn age_at(text: &str) -> bool {
    let raw: Vec<&str> = text.split_whitespace().collect();
    let Some(first) = raw.first() else {
        return false;
    };
    let digits = first.trim_end_matches([',', '.', '!', ';']);
    let Ok(age) = digits.parse::<u32>() else {
        return false;
    };
    let closed = first.len() != digits.len() || raw.len() == 1;
    let next = raw.get(1).copied().unwrap_or("");
    (13..=110).contains(&age)
        && (closed
            || next == "and"
            || (next.starts_with("year") && raw.get(2).is_some_and(|o| o.starts_with("old")))
            || next == "yo")
}

/// Whether the text opens with a height: "6'2", "5ft 4", "180cm", "5 foot 10".
fn height_at(text: &str) -> bool {
    let w = words(text);
    let Some(first) = w.first().copied().filter(|f| is_figure(f)) else {
        return false;
    };
    let unit = first.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    unit.starts_with('\'')
        || unit.starts_with('\u{2019}')
        || matches!(unit, "ft" | "cm" | "m")
        || (unit.is_empty() && w.get(1).is_some_and(|u| matches!(*u, "foot" | "ft" | "feet" | "cm")))
}

/// Whether what is paid recurs: "a month", "pcm", "in rent", "for rent", "a week".
fn recurs(text: &str) -> bool {
    let c = clause_of(text);
    [
        "a month",
        "per month",
        "every month",
        "pcm",
        "a week",
        "per week",
        "every week",
        "a year",
        "rent",
        "mortgage",
        "monthly",
        "weekly",
        "an hour",
    ]
    .iter()
    .any(|r| c.contains(r))
}

/// Whether the clause tells a dose changed: "they upped my sertraline to 100mg".
fn dose_changed(w: &[&str]) -> bool {
    w.iter().enumerate().any(|(i, x)| {
        DOSE_CHANGES.contains(x)
            && w.get(i + 1) == Some(&"my")
            && w[i + 2..].iter().take(4).position(|t| *t == "to").is_some_and(|at| {
                let after = &w[i + 2 + at + 1..];
                dose_within(&after.join(" "), 2)
            })
    })
}

/// Whether the clause tells a routine of the teller's, counted: "I run 3 times a week",
/// "i sleep about 5 hrs a night", "I cycle 12 miles each way".
fn routine(w: &[&str]) -> bool {
    let Some(rest) = w.strip_prefix(&["i"]).or_else(|| w.strip_prefix(&["we"])) else {
        return false;
    };
    let rest: Vec<&str> = rest.iter().copied().skip_while(|x| HABIT_ADVERBS.contains(x)).collect();
    let Some(verb) = rest.first() else {
        return false;
    };
    let plain = verb.chars().all(|c| c.is_ascii_alphabetic())
        && !verb.ends_with("ed")
        && !verb.ends_with("ing")
        && !NOT_HABITS.contains(verb);
    // "I go like 3 times a week" says not where: a going needs its place first ("I go to
    // the gym 4 times a week").
    let placed = |i: usize| *verb != "go" || rest[1..i].contains(&"to");
    let counted = (1..rest.len()).any(|i| {
        is_figure(rest[i])
            && placed(i)
            && rest[i + 1..].windows(2).take(4).any(|p| {
                matches!(p[0], "a" | "an" | "per" | "each" | "every") && {
                    let period = p[1].trim_end_matches('s');
                    PERIODS.contains(&period) || WEEKDAYS.contains(&period)
                }
            })
    });
    plain && counted
}

/// Whether a "my ..." clause tells a personal best: "my PB for 5k is 21:47".
fn personal_best(w: &[&str]) -> bool {
    // "my personal best", "my best time for"; not "my best friend is 34".
    let best = w.iter().take(5).enumerate().position(|(i, x)| {
        matches!(*x, "pb" | "pr" | "record")
            || *x == "best"
                && (i > 0 && w[i - 1] == "personal"
                    || w.get(i + 1).is_some_and(|n| matches!(*n, "time" | "for" | "is")))
    });
    best.is_some_and(|at| {
        w[at + 1..]
            .iter()
            .position(|x| matches!(*x, "is" | "'s"))
            .is_some_and(|is| w[at + 1 + is + 1..].first().is_some_and(|f| is_figure(f)))
    })
}

#[cfg(test)]
mod tests {
    use super::amount;

    fn read(text: &str) -> Option<String> {
        amount(text, &text.to_ascii_lowercase()).map(|f| f.content)
    }

    #[test]
    fn a_standing_amount_of_the_teller_is_read() {
        for (text, want) in [
            ("I'm 84kg at the moment", "I'm 84kg at the moment"),
            ("I weigh about 13 stone", "I weigh about 13 stone"),
            ("I'm 34, software dev based in Manchester", "I'm 34"),
            ("I earn 65k a year", "I earn 65k a year"),
            ("I'm on £42k at the council", "I'm on £42k at the council"),
            ("my rent is $1,400 a month", "My rent is $1,400 a month"),
            (
                "I'm on 50mg of sertraline for anxiety",
                "I'm on 50mg of sertraline for anxiety",
            ),
            (
                "I take 20 units of Lantus at night",
                "I take 20 units of Lantus at night",
            ),
            ("I'm down to 79kg now", "I'm down to 79kg now"),
            ("I'm 6'2", "I'm 6'2"),
            ("I pay £1,200 a month in rent", "I pay £1,200 a month in rent"),
            (
                "they upped my sertraline to 100mg last week",
                "They upped my sertraline to 100mg last week",
            ),
            ("I run 3 times a week", "I run 3 times a week"),
            (
                "i usually do about 10k steps a day",
                "I usually do about 10k steps a day",
            ),
            ("I've got about 8k in savings", "I've got about 8k in savings"),
            ("my PB for 5k is 21:47", "My PB for 5k is 21:47"),
            ("I'm in year 12", "I'm in year 12"),
            ("I'm 29 weeks pregnant", "I'm 29 weeks pregnant"),
            ("I'm 6'2 and can never find trousers", "I'm 6'2"),
            ("I'm 5ft 4 and 62 kilos", "I'm 5ft 4 and 62 kilos"),
            ("down to 79kg", "Down to 79kg"),
            ("on 72k now", "On 72k now"),
            ("I'm a UK size 14 in dresses", "I'm a UK size 14 in dresses"),
            (
                "rent's gone up to £1,020 from next month",
                "Rent's gone up to £1,020 from next month",
            ),
        ] {
            assert_eq!(read(text).as_deref(), Some(want), "{text}");
        }
        for none in [
            "I'm 2 hours late",
            "I take 2 sugars in my tea",
            "I pay £12 for parking",
            "I'm on 3 hours of sleep",
            "I make 12 cupcakes for the sale",
            "I've saved 3 files to the drive",
            "I'm at 5% battery",
            "I weigh 3kg more today than last week",
            "Rent's up to £1,800 for a two-bed round here now, mad",
            "I need 3 eggs a day for this",
            "I go like 3 times a week",
            "down to £5 in the sale",
            "on 3 hours sleep",
            "I spent 80 quid a week on takeaways last year",
            "I've got 2 minutes",
            "my best friend is 34",
        ] {
            assert_eq!(read(none), None, "{none}");
        }
    }
}
