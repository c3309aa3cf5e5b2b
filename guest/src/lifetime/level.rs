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
    let weighed = w.iter().any(|x| x == "weighed") && w.iter().any(|x| figure(Some(x)))
        || w.windows(3)
            .any(|p| p[0] == "on" && p[1] == "the" && matches!(p[2].as_str(), "scale" | "scales"));
    let present = w
        .iter()
        .any(|x| matches!(x.as_str(), "now" | "currently" | "atm" | "nowadays"))
        || w.windows(2).any(|p| p[0] == "these" && p[1] == "days");
    let standing =
        present && w.iter().any(|x| figure(Some(x))) && w.iter().any(|x| STANDING.contains(&x.trim_end_matches("'s")));
    // "went up to 32", "down to 82.4kg", "dropped to 3.1".
    let moved = w.iter().enumerate().any(|(i, x)| {
        MOVED.contains(&x.as_str())
            && (w.get(i + 1).is_some_and(|n| n == "to") && figure(w.get(i + 2))
                || w.get(i + 1).is_some_and(|n| n == "down" || n == "up")
                    && w.get(i + 2).is_some_and(|n| n == "to")
                    && figure(w.get(i + 3)))
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
            "ran 5k in 28 minutes this morning",
        ] {
            assert!(!a_new_level(&w(passing)), "{passing}");
        }
    }
}
