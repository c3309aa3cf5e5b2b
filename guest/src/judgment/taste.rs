//! A taste that flipped: "weirdly I actually like coriander now" after "I hate coriander",
//! "I can't stand running these days" after "I love running". Both tell the teller's taste
//! for one thing, one for and one against it, and the new one says it is new ("now",
//! "actually", "these days", "grown to"). Told without such a word, the two may be of other
//! sides of a thing ("I love dogs" / "I hate dogs that bark all night"), and both stay.

use super::fact::{Fact, Subject};
use super::words::CHANGE_MARKERS;

/// For or against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    For,
    Against,
}

/// Words of a taste, as the judgment reads them ("can't stand" is read as "hate").
fn side(low: &str) -> Option<Side> {
    match low {
        "like" | "likes" | "love" | "loves" | "enjoy" | "enjoys" | "adore" | "adores" => Some(Side::For),
        "hate" | "hates" | "dislike" | "dislikes" | "detest" | "detests" | "loathe" | "loathes" => Some(Side::Against),
        _ => None,
    }
}

/// Words that tell a taste as new ("these days" is read as a phrase).
const NEW_TASTE: &[&str] = &["actually", "grown", "changed", "turns", "turned", "converted"];

/// The side a fact takes and the stems of what it is about, when it tells one taste of
/// the teller.
fn taste(f: &Fact) -> Option<(Side, Vec<&str>)> {
    if f.denied || f.former || f.past || f.wish || f.words.iter().any(|w| w.asks) {
        return None;
    }
    if !matches!(f.subject, Subject::User | Subject::We) {
        return None;
    }
    let words = &f.words[f.body.min(f.words.len())..];
    // "like" after a verb of being or before an article compares: "the tube's like a sauna".
    let compares = |k: usize| {
        let before = k.checked_sub(1).map(|b| words[b].low.as_str());
        words[k].low == "like"
            && (before.is_some_and(|b| {
                matches!(b, "is" | "was" | "feels" | "looks" | "sounds" | "just") || b.ends_with("'s")
            }) || words
                .get(k + 1)
                .is_some_and(|n| matches!(n.low.as_str(), "a" | "an" | "the")))
    };
    // "I've come round to coffee", "grown to like it": a taste for, told as come to.
    let come_round = |k: usize| {
        matches!(words[k].low.as_str(), "come" | "came")
            && words
                .get(k + 1)
                .is_some_and(|w| matches!(w.low.as_str(), "round" | "around"))
            && words.get(k + 2).is_some_and(|w| w.low == "to")
    };
    let side_at = |k: usize| {
        if come_round(k) {
            Some(Side::For)
        } else {
            side(&words[k].low)
        }
    };
    let tasted_at: Vec<usize> = (0..words.len())
        .filter(|&k| side_at(k).is_some() && !compares(k))
        .collect();
    // The teller says so: the subject read was "I" or "we", a word of the teller's comes
    // before the taste ("weirdly I actually like ..."), or the taste opens the fact ("loving
    // coriander now"); "jess loves coriander now" is read as no one's but hers.
    let first_person = |k: usize| {
        k == 0
            || f.body > 0
            || words[..k]
                .iter()
                .any(|w| matches!(w.low.as_str(), "i" | "i'm" | "im" | "we" | "me" | "my"))
    };
    if !tasted_at.first().is_some_and(|&k| first_person(k)) {
        return None;
    }
    let mut sides = tasted_at.iter().filter_map(|&k| side_at(k));
    let first = sides.next()?;
    // "I love it but hate the smell": two sides of one thing.
    if sides.any(|s| s != first) {
        return None;
    }
    let tasted: Vec<&str> = tasted_at.iter().map(|&k| words[k].stem.as_str()).collect();
    let about = f
        .content
        .iter()
        .map(String::as_str)
        .filter(|s| !tasted.contains(s) && !CHANGE_MARKERS.contains(s))
        .collect();
    Some((first, about))
}

/// Whether `n` tells the teller's taste for what `o` is about turned the other way.
pub(super) fn flipped(o: &Fact, n: &Fact) -> bool {
    let (Some((was, of)), Some((is, _))) = (taste(o), taste(n)) else {
        return false;
    };
    let lows = n.body_lows();
    // "hate my job right now, worst week ever" is the moment's; "I hate running in these
    // shoes" is of the shoes.
    let right_now = lows.windows(2).any(|p| p == ["right", "now"]);
    let told_as_new = lows.iter().any(|w| NEW_TASTE.contains(w) || *w == "nowadays")
        || lows.contains(&"now") && !right_now
        || lows.windows(2).any(|p| p == ["these", "days"]);
    was != is && told_as_new && !of.is_empty() && of.iter().all(|s| n.content.contains(*s))
}

#[cfg(test)]
mod tests {
    use super::flipped;
    use crate::judgment::fact::Fact;
    use crate::supersession::RuleContext;

    fn flips(old: &str, new: &str) -> bool {
        let ctx = RuleContext::default();
        flipped(&Fact::read(old, &ctx), &Fact::read(new, &ctx))
    }

    #[test]
    fn a_taste_turned_the_other_way_and_told_as_new_flips() {
        assert!(flips(
            "I hate coriander",
            "weirdly I actually like coriander now, my tastes have changed"
        ));
        assert!(flips("I love running", "I can't stand running these days"));
        assert!(flips(
            "I hate coffee",
            "Weirdly I've come round to coffee, I have a flat white every morning now"
        ));
        assert!(flips("I really like my job", "honestly I hate my job now"));
        // Told without a word of something new: another side of the thing.
        assert!(!flips("I love dogs", "I hate dogs that bark all night"));
        // Someone else's taste, a question, a wish, the same side.
        assert!(!flips("I hate coriander", "my wife loves coriander now"));
        assert!(!flips("I hate coriander", "do you actually like coriander now?"));
        assert!(!flips("I love running", "I love running even more now"));
        // Another thing.
        assert!(!flips("I hate coriander", "I actually like parsley now"));
        // A one-off, a comparison, someone named in lower case.
        assert!(!flips("I love running", "I hate running in these shoes"));
        assert!(!flips("I really like my job", "hate my job right now, worst week ever"));
        assert!(!flips("I hate the tube", "the tube's like a sauna now"));
        assert!(!flips("I hate coriander", "jess loves coriander now lol"));
    }
}
