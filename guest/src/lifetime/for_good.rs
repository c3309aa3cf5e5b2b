//! A change told as holding from now on: "from now on it's oat milk for me, dairy's been
//! upsetting my stomach", "transferred to the Bristol office permanently as of this
//! month", "our old boy can't manage walks anymore". Such news often carries the words of
//! a passing state (a stomach, a month, "just"), and was kept for days; what it tells
//! lasts. A break of a day or a month is still one: "I'm not drinking anymore tonight",
//! "no more wine for me this month".

use super::phrase;

/// Whether the words tell a change that holds from now on.
pub(super) fn told(w: &[String]) -> bool {
    let for_good = w.iter().any(|x| matches!(x.as_str(), "permanently" | "permanent"))
        || phrase(w, &["for", "good"])
        || phrase(w, &["from", "now", "on"])
        || phrase(w, &["going", "forward"])
        || phrase(w, &["from", "here", "on"])
        || phrase(w, &["no", "longer"])
        || no_more(w);
    for_good && !for_a_while(w)
}

/// "can't manage walks anymore", "we don't iron any more", "no more Sunday phone calls";
/// not an outburst ("I can't take it anymore", "can't cope with the commute anymore"; "can't
/// stand Coldplay anymore" is a taste turned), a thing that changed ("the gym isn't as
/// quiet anymore") or a thing run out ("we've got no more oat milk").
fn no_more(w: &[String]) -> bool {
    let negated = |upto: usize| {
        let span = &w[upto.saturating_sub(6)..upto];
        let denial = span.iter().any(|x| {
            (x.ends_with("n't") && !matches!(x.as_str(), "isn't" | "aren't" | "wasn't" | "weren't"))
                || matches!(x.as_str(), "not" | "never" | "cannot" | "cant" | "dont")
        });
        let feeling = span.iter().any(|x| {
            matches!(
                x.as_str(),
                "cope" | "handle" | "deal" | "tolerate" | "bothered" | "believe" | "fun"
            )
        });
        // "it's not as good anymore": a thing's state, not what one does.
        let a_things = span
            .windows(2)
            .any(|p| matches!(p[0].as_str(), "it's" | "that's" | "its" | "thats" | "is" | "are") && p[1] == "not");
        denial && !feeling && !a_things
    };
    w.iter().enumerate().any(|(i, x)| {
        let of_it = |at: usize| at > 0 && matches!(w[at - 1].as_str(), "it" | "this" | "that");
        let run_out = |at: usize| {
            at > 0 && matches!(w[at - 1].as_str(), "got" | "there's" | "theres" | "have" | "had" | "is")
                || w[at..(at + 5).min(w.len())].iter().any(|x| x == "left")
        };
        (x == "anymore" && negated(i) && !of_it(i))
            || (x == "more" && i > 0 && w[i - 1] == "any" && negated(i - 1) && !of_it(i - 1))
            || (x == "no" && w.get(i + 1).is_some_and(|m| m == "more") && w.get(i + 2).is_some() && !run_out(i))
    })
}

/// Counts of a stretch: "for a month", "for the next few weeks", "for two weeks".
const COUNTS: &[&str] = &[
    "a", "the", "next", "few", "couple", "one", "two", "three", "four", "six", "several",
];

/// "tonight", "this week", "for a month", "for now", "till Friday", "during Lent", "for
/// dry January": the change is a break. ("As of this month" is when it began.)
fn for_a_while(w: &[String]) -> bool {
    let stretch = |x: &str| {
        matches!(
            x,
            "day" | "days" | "week" | "weeks" | "weekend" | "month" | "months" | "fortnight" | "january" | "lent"
        )
    };
    w.iter().any(|x| {
        matches!(
            x.as_str(),
            "tonight" | "today" | "tomorrow" | "till" | "until" | "til" | "while" | "yet" | "during" | "ramadan"
        )
    }) || phrase(w, &["for", "now"])
        || phrase(w, &["for", "a", "bit"])
        || phrase(w, &["for", "a", "while"])
        || phrase(w, &["rest", "of", "the"])
        || w.windows(2).enumerate().any(|(i, p)| {
            let begun = i > 0 && matches!(w[i - 1].as_str(), "of" | "from" | "since" | "starting");
            matches!(p[0].as_str(), "this" | "next" | "for" | "rest" | "dry") && stretch(&p[1]) && !begun
        })
        // "for the next few weeks", "for two weeks".
        || w.iter().enumerate().any(|(i, x)| {
            x == "for"
                && w[i + 1..(i + 4).min(w.len())]
                    .iter()
                    .take_while(|c| COUNTS.contains(&c.as_str()) || c.parse::<u32>().is_ok())
                    .count()
                    > 0
                && w[i + 1..(i + 5).min(w.len())].iter().any(|c| stretch(c))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lifetime::words as w;

    #[test]
    fn a_change_for_good_and_a_break() {
        for lasting in [
            "from now on it's oat milk for me, dairy's been upsetting my stomach",
            "transferred to the bristol office permanently as of this month",
            "our old boy can't manage walks anymore, so it's just a little potter round the garden",
            "we just don't iron any more",
            "mum's moved in, so no more sunday phone calls",
        ] {
            assert!(told(&w(lasting)), "{lasting}");
        }
        for a_break in [
            "i'm not drinking anymore tonight",
            "i can't take it anymore",
            "no more wine for me this month",
            "no caffeine for now, from now on till the exam",
            "no more",
            "no more wine for a month, doctor's orders",
            "not drinking any more for the next few weeks",
            "no more chocolate during lent",
            "i can't cope with my commute anymore",
            "the gym isn't as quiet in the mornings anymore",
            "we've got no more oat milk, i'll grab some later",
        ] {
            assert!(!told(&w(a_break)), "{a_break}");
        }
    }
}
