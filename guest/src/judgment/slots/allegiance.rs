//! Allegiances that hold one at a time: the team one supports ("I support Arsenal", "I'm
//! an Arsenal fan", "lifelong Celtic supporter") and the party one votes for ("I'm a Labour
//! voter", "I vote Green"). The value is the name told, so it must be written with a
//! capital: "I support my sister's decision" and "I'm a big fan of long walks" tell none.

use super::Slot;
use crate::judgment::words::Word;

/// The team or party a fact names, as a slot: `team` or `vote`.
pub(super) fn allegiance(words: &[Word]) -> Option<Slot> {
    let name_word = |w: &Word| w.low.chars().all(|c| c.is_alphabetic() || c == '\'');
    // A capital at a sentence's start is no name, unless it is the word told as one:
    // "Arsenal fan here", not "Lifelong" in "Lifelong Celtic supporter".
    let named = |w: &Word| w.cap && name_word(w);
    for (i, w) in words.iter().enumerate() {
        let name = match w.low.as_str() {
            "support" | "supports" | "follow" | "follows" => "team",
            "vote" | "votes" | "voting" | "voted" => "vote",
            "fan" | "supporter" => "team",
            "voter" => "vote",
            _ => continue,
        };
        let after = matches!(
            w.low.as_str(),
            "support" | "supports" | "follow" | "follows" | "vote" | "votes" | "voting" | "voted"
        );
        let value: Vec<String> = if after {
            // "I vote for the Greens", "support Spurs".
            let from = words[i + 1..]
                .iter()
                .position(|w| !matches!(w.low.as_str(), "for" | "the"))
                .map_or(words.len(), |k| i + 1 + k);
            words[from..]
                .iter()
                .take_while(|w| named(w))
                .map(|w| w.low.trim_end_matches("'s").to_owned())
                .collect()
        } else {
            // "an Arsenal fan", "a lifelong Labour voter".
            let mut v: Vec<String> = words[..i]
                .iter()
                .rev()
                .enumerate()
                .take_while(|(k, w)| named(w) || *k == 0 && w.upper && name_word(w))
                .map(|(_, w)| w)
                .map(|w| w.low.trim_end_matches("'s").to_owned())
                .collect();
            v.reverse();
            v
        };
        // "I" is a capital too: "I follow" after a name is no team.
        if value.is_empty() || value.iter().any(|v| v == "i") {
            continue;
        }
        return Some(Slot {
            name: name.to_owned(),
            value,
            proper: true,
        });
    }
    None
}

/// Whether a new allegiance is told as a change rather than one more: "I support Spurs
/// now", "voting Green from now on", or the old one named beside it ("I'm done with
/// Chelsea, I follow Spurs now"). Only supporting and voting hold one at a time: "I'm a
/// Taylor Swift fan now" or "I follow Joe Wicks now" drops no team.
pub(super) fn told_as_changed(words: &[Word], old_named: bool) -> bool {
    let one_at_a_time = words.iter().any(|w| {
        matches!(
            w.low.as_str(),
            "support" | "supports" | "supporting" | "supporter" | "vote" | "votes" | "voting" | "voter"
        )
    });
    let changed = words.iter().any(|w| {
        matches!(
            w.low.as_str(),
            "now" | "instead" | "switched" | "nowadays" | "converted" | "defected"
        )
    });
    (one_at_a_time || old_named) && changed
}

#[cfg(test)]
mod tests {
    use super::allegiance;
    use crate::judgment::words::words;

    fn read(text: &str) -> Option<(String, Vec<String>)> {
        allegiance(&words(text)).map(|s| (s.name, s.value))
    }

    #[test]
    fn a_team_or_a_party_is_read_and_a_thing_supported_is_not() {
        let team = |v: &str| Some(("team".to_owned(), v.split(' ').map(str::to_owned).collect::<Vec<_>>()));
        assert_eq!(read("I support Arsenal"), team("arsenal"));
        assert_eq!(read("I'm an Arsenal fan"), team("arsenal"));
        assert_eq!(read("lifelong Man United supporter here"), team("man united"));
        assert_eq!(read("Lifelong Celtic supporter"), team("celtic"));
        assert_eq!(read("Arsenal fan here"), team("arsenal"));
        assert_eq!(read("I support Spurs now, long story"), team("spurs"));
        assert_eq!(
            read("I'm a Labour voter"),
            Some(("vote".to_owned(), vec!["labour".to_owned()]))
        );
        assert_eq!(
            read("I'm voting Green from now on"),
            Some(("vote".to_owned(), vec!["green".to_owned()]))
        );
        assert_eq!(read("I support my sister's decision"), None);
        assert_eq!(read("I'm a big fan of long walks"), None);
        assert_eq!(read("I follow a plant-based diet"), None);
        assert_eq!(read("I'm not a fan"), None);
    }
}
