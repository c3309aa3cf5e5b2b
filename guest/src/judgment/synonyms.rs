//! Everyday synonyms, read as one wording so that a fact told again in other words is the
//! same fact: "I bike to work" / "I cycle to work", "I don't eat meat" / "I'm vegetarian".
//! Each entry means the same in every sentence it can stand in; a word that means
//! something else in some ("fan", "polish") or a state narrower than the other ("I don't
//! eat red meat") has no entry. A wrong entry would drop a true fact as told already.

/// A word and the word it is read as.
pub(super) fn word(word: &str) -> Option<&'static str> {
    Some(match word {
        "veggie" => "vegetarian",
        "missus" | "missis" | "wifey" => "wife",
        "grandkids" => "grandchildren",
        "grandkid" => "grandchild",
        "doctorate" => "phd",
        "physio" => "physiotherapist",
        "physios" => "physiotherapists",
        "soccer" => "football",
        "hitched" => "married",
        "scared" | "frightened" | "terrified" | "petrified" => "afraid",
        "normally" => "usually",
        "brief" | "concise" => "short",
        "replies" | "responses" => "answers",
        "reply" | "response" => "answer",
        "feet" => "foot",
        "bike" => "cycle",
        "bikes" => "cycles",
        "biking" => "cycling",
        "study" => "learn",
        "studies" => "learns",
        "studying" => "learning",
        _ => return None,
    })
}

/// Phrases read as the words they mean, whole words only. A denial that names a state is
/// read as the state, with a verb for its subject ("doesn't" is said of one other).
pub(super) const PHRASES: &[(&str, &str)] = &[
    ("have a fear of", "am afraid of"),
    ("has a fear of", "is afraid of"),
    ("can't stand", "hate"),
    ("cannot stand", "hate"),
    ("can not stand", "hate"),
    ("can't bear", "hate"),
    ("can't get enough of", "love"),
    ("massive fan of", "love"),
    ("huge fan of", "love"),
    ("big fan of", "love"),
    ("don't eat meat", "am vegetarian"),
    ("dont eat meat", "am vegetarian"),
    ("do not eat meat", "am vegetarian"),
    ("doesn't eat meat", "is vegetarian"),
    ("does not eat meat", "is vegetarian"),
    ("don't drink alcohol", "am teetotal"),
    ("dont drink alcohol", "am teetotal"),
    ("do not drink alcohol", "am teetotal"),
    ("doesn't drink alcohol", "is teetotal"),
    ("does not drink alcohol", "is teetotal"),
    ("don't believe in god", "am an atheist"),
    ("do not believe in god", "am an atheist"),
    ("doesn't believe in god", "is an atheist"),
    ("have no siblings", "am an only child"),
    ("don't have any siblings", "am an only child"),
    ("have no brothers or sisters", "am an only child"),
    ("don't have any brothers or sisters", "am an only child"),
    ("work for myself", "am self-employed"),
    ("not in a relationship", "single"),
    ("expecting a baby", "pregnant"),
    ("hit the gym", "go to the gym"),
    // "flying terrifies me" is "I'm afraid of flying"; the words' order is no content.
    ("terrifies me", "afraid"),
    ("scares me", "afraid"),
    ("doesn't agree with me", "disagrees with me"),
    ("does not agree with me", "disagrees with me"),
    ("home for me is", "home is in"),
    ("turn in at", "go to bed at"),
    ("get up at", "wake up at"),
    ("putting money aside", "saving"),
    ("putting money away", "saving"),
    ("saving up", "saving"),
    ("don't know how to", "can't"),
    ("nearsighted", "short-sighted"),
    ("near-sighted", "short-sighted"),
    ("farsighted", "long-sighted"),
    ("far-sighted", "long-sighted"),
    ("colourblind", "colour blind"),
    ("colorblind", "color blind"),
    ("lefty", "left-handed"),
    ("leftie", "left-handed"),
    ("daily", "every day"),
    ("my boy", "my son"),
    ("my lad", "my son"),
    // One who plays an instrument is its player: "I'm a drummer" / "I play the drums".
    ("i'm a drummer", "i play the drums"),
    ("i am a drummer", "i play the drums"),
    ("i'm a guitarist", "i play the guitar"),
    ("i am a guitarist", "i play the guitar"),
    ("i'm a pianist", "i play the piano"),
    ("i am a pianist", "i play the piano"),
    ("i'm a violinist", "i play the violin"),
    ("i am a violinist", "i play the violin"),
    ("i'm a cellist", "i play the cello"),
    ("i am a cellist", "i play the cello"),
    ("night person", "night owl"),
    ("terrify me", "afraid"),
    ("scare me", "afraid"),
    ("can't hear out of", "am deaf in"),
    ("cannot hear out of", "am deaf in"),
    ("my office is in", "i work in"),
];

/// Phrases read so only where a clause ends: "I don't drink." is teetotal, "I don't drink
/// coffee" is not.
/// Asides that say a fact is told again, read as nothing: "like I mentioned, I'm a nurse
/// at St Thomas'", "mum's in Swansea, as I think I said".
pub(super) const TOLD_AGAIN: &[(&str, &str)] = &[
    ("like i mentioned", ""),
    ("as i mentioned", ""),
    ("like i said", ""),
    ("as i said", ""),
    ("as i think i said", ""),
    ("i think i said", ""),
    ("as i told you", ""),
    ("like i told you", ""),
    ("as mentioned", ""),
    ("just so you know", ""),
    ("just so u know", ""),
    ("for the record", ""),
];

pub(super) const CLOSING: &[(&str, &str)] = &[
    ("don't drink", "am teetotal"),
    ("dont drink", "am teetotal"),
    ("do not drink", "am teetotal"),
    ("doesn't drink", "is teetotal"),
    ("does not drink", "is teetotal"),
];

#[cfg(test)]
mod tests {
    use crate::judgment::{Verdict, judge};
    use crate::supersession::RuleContext;

    #[test]
    fn a_synonym_told_again_is_the_same_fact() {
        let me = RuleContext::default();
        for (old, new) in [
            ("I'm vegetarian", "I don't eat meat"),
            ("Jamie doesn't drink", "Jamie is teetotal"),
            ("I'm short-sighted", "I'm nearsighted"),
            ("I cycle to work", "I bike to work"),
            ("I'm an only child", "I have no siblings"),
            ("I'm afraid of flying", "flying terrifies me"),
            ("I take my coffee black", "I drink my coffee black"),
        ] {
            assert_eq!(judge(old, new, &me), Verdict::Same, "{old:?} / {new:?}");
        }
    }

    #[test]
    fn a_narrower_wording_stays_another_fact() {
        let me = RuleContext::default();
        for (old, new) in [
            ("I'm vegetarian", "I don't eat red meat"),
            ("I'm teetotal", "I don't drink coffee"),
            ("I don't eat meat", "I don't eat gluten"),
        ] {
            let v = judge(old, new, &me);
            assert!(
                !matches!(v, Verdict::Same | Verdict::Refinement | Verdict::Change),
                "{old:?} / {new:?}: {v:?}"
            );
        }
    }
}
