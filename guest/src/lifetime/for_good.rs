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
/// not an outburst ("I can't take it anymore", "can't do this any more").
fn no_more(w: &[String]) -> bool {
    let negated = |upto: usize| {
        w[upto.saturating_sub(6)..upto]
            .iter()
            .any(|x| x.ends_with("n't") || matches!(x.as_str(), "not" | "never" | "cannot" | "cant" | "dont"))
    };
    w.iter().enumerate().any(|(i, x)| {
        let of_it = |at: usize| at > 0 && matches!(w[at - 1].as_str(), "it" | "this" | "that");
        (x == "anymore" && negated(i) && !of_it(i))
            || (x == "more" && i > 0 && w[i - 1] == "any" && negated(i - 1) && !of_it(i - 1))
            || (x == "no" && w.get(i + 1).is_some_and(|m| m == "more") && w.get(i + 2).is_some())
    })
}

/// "tonight", "this week", "for now", "till Friday": the change is a break. ("As of this
/// month" is when it began.)
fn for_a_while(w: &[String]) -> bool {
    w.iter().any(|x| {
        matches!(
            x.as_str(),
            "tonight" | "today" | "tomorrow" | "till" | "until" | "til" | "while" | "yet"
        )
    }) || phrase(w, &["for", "now"])
        || phrase(w, &["for", "a", "bit"])
        || phrase(w, &["for", "a", "while"])
        || w.windows(2).enumerate().any(|(i, p)| {
            let begun = i > 0 && matches!(w[i - 1].as_str(), "of" | "from" | "since" | "starting");
            matches!(p[0].as_str(), "this" | "for" | "rest")
                && matches!(p[1].as_str(), "week" | "weekend" | "month" | "january" | "lent")
                && !begun
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
        ] {
            assert!(!told(&w(a_break)), "{a_break}");
        }
    }
}
