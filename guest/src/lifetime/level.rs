//! A new level of a standing amount, told as news: "weighed in this morning, I'm down to
//! 82.4kg now", "my hourly rate went up to $32.50 this week", "interest on my savings just
//! dropped to 3.1%". The day it is told with is when the level was read or changed; it
//! holds until the next one. A one-off amount ("left a $20 tip", "spent £80 at Tesco
//! today") and a level of the moment ("battery's down to 5%", "it dropped to 2 degrees
//! overnight") pass.

/// Verbs and words that move a level to a figure: "went up to", "dropped to", "down to".
const MOVED: &[&str] = &[
    "up",
    "down",
    "dropped",
    "drops",
    "dropping",
    "fell",
    "falls",
    "fallen",
    "rose",
    "rises",
    "risen",
    "increased",
    "increases",
    "decreased",
    "reduced",
    "lowered",
    "raised",
    "upped",
    "cut",
];

/// Amounts of one occasion or of the moment, whatever moves them.
const ONE_OFF: &[&str] = &[
    "tip",
    "ticket",
    "tickets",
    "won",
    "charged",
    "paid",
    "spent",
    "bought",
    "bill",
    "fare",
    "sale",
    "offer",
    "quiz",
    "battery",
    "degrees",
    "temperature",
    "temp",
    "fever",
    "signal",
    "queue",
    "wait",
    "traffic",
    "price",
    "prices",
    "till",
    "until",
];

/// Standing amounts: "resting heart rate's 54 these days", "nursery fees are £1,480 a
/// month now", "my 10k PB is now 49:32".
const STANDING: &[&str] = &[
    "rent",
    "rate",
    "fees",
    "fee",
    "salary",
    "wage",
    "wages",
    "weight",
    "pressure",
    "mortgage",
    "premium",
    "payment",
    "payments",
    "pension",
    "dose",
    "pb",
    "allowance",
    "income",
];

/// Whether the words tell a standing amount's new level.
pub(super) fn a_new_level(w: &[String]) -> bool {
    if w.iter().any(|x| ONE_OFF.contains(&x.trim_end_matches("'s"))) {
        return false;
    }
    let figure = |x: Option<&String>| x.is_some_and(|x| x.starts_with(|c: char| c.is_ascii_digit()));
    // "weighed in at 88.5", "weighed myself this morning, 76.2kg", "hit 182 lbs on the
    // scale".
    // Not "I weighed my suitcase", nor "scared to get on the scales" without a figure.
    let own_weigh = w
        .windows(2)
        .any(|p| p[0] == "weighed" && matches!(p[1].as_str(), "in" | "myself"))
        || w.windows(3)
            .any(|p| p[0] == "on" && p[1] == "the" && matches!(p[2].as_str(), "scale" | "scales"));
    let weighed = own_weigh && w.iter().any(|x| figure(Some(x)));
    let present = w.iter().any(|x| x == "now") || super::habit::told_as_present(w);
    // "I'm 84kg at the moment": one's weight, told as now.
    let weight = w.iter().enumerate().any(|(i, x)| {
        let unit = x.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        figure(Some(x))
            && (matches!(unit, "kg" | "kgs" | "lbs" | "lb" | "st")
                || unit.is_empty()
                    && w.get(i + 1)
                        .is_some_and(|u| matches!(u.as_str(), "kg" | "kgs" | "kilos" | "lbs" | "stone" | "pounds")))
    }) && w.iter().any(|x| matches!(x.as_str(), "i'm" | "im" | "am" | "weigh"));
    let standing = present
        && w.iter().any(|x| figure(Some(x)))
        && (weight || w.iter().any(|x| STANDING.contains(&x.trim_end_matches("'s"))));
    // "went up to 32", "down to 82.4kg", "dropped to 3.1"; not a time or a span ("stayed
    // up to 3am", "delayed up to 40 minutes").
    let level_at = |k: usize| {
        figure(w.get(k))
            && !w[k].ends_with("am")
            && !w[k].ends_with("pm")
            && !w.get(k + 1).is_some_and(|u| {
                matches!(
                    u.as_str(),
                    "min" | "mins" | "minutes" | "hour" | "hours" | "hrs" | "am" | "pm" | "seconds" | "secs"
                )
            })
    };
    let moved = w.iter().enumerate().any(|(i, x)| {
        MOVED.contains(&x.as_str())
            && (w.get(i + 1).is_some_and(|n| n == "to") && level_at(i + 2)
                || w.get(i + 1).is_some_and(|n| n == "down" || n == "up")
                    && w.get(i + 2).is_some_and(|n| n == "to")
                    && level_at(i + 3))
    });
    // "my blood pressure is sitting at 145/95 now".
    let now_at = w.windows(3).any(|p| {
        matches!(p[0].as_str(), "sitting" | "steady" | "stable" | "holding") && p[1] == "at" && figure(Some(&p[2]))
    });
    weighed || moved || now_at || standing
}

#[cfg(test)]
mod tests {
    use super::a_new_level;
    use crate::lifetime::words as w;

    #[test]
    fn a_new_level_lasts_and_an_amount_of_once_does_not() {
        for lasting in [
            "weighed in at 88.5 this morning",
            "my hourly rate at the warehouse went up to $32.50 this week",
            "interest rate on my savings account just dropped to 3.1%",
            "rent's gone up to £1,020 pcm this month, gutted",
            "GP says my blood pressure is sitting at 145/95 now",
            "weighed myself this morning, 76.2kg, down 3 since January",
            "resting heart rate's 54 these days thanks to all the cycling",
            "nursery fees are £1,480 a month now for 4 days",
        ] {
            assert!(a_new_level(&w(lasting)), "{lasting}");
        }
        for passing in [
            "spent £80 at Tesco today",
            "phone battery's down to 5%",
            "it dropped to 2 degrees overnight",
            "left a $20 tip at brunch",
            "the jacket I want is down to £45 till Sunday",
            "the queue's down to 20 minutes now",
            "I weighed my suitcase, 23kg",
            "scared to get on the scales after Christmas",
            "trains delayed up to 40 minutes this morning",
            "stayed up to 3am finishing the deck",
            "ran 5k in 28 minutes this morning",
        ] {
            assert!(!a_new_level(&w(passing)), "{passing}");
        }
    }
}
