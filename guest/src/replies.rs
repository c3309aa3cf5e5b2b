//! A stored question's reply: found with the question.
//!
//! A memory's context is what was said around it (a conversation's date, the turn before),
//! embedded and searched with it. An agent that stores a conversation turn by turn without
//! one loses that: "Where has Melanie camped?" finds Caroline's question "What's the best
//! camping trip you've taken?", and not Melanie's reply "Assateague, the kids loved the wild
//! ponies", which shares no word with it. The index knows what was stored next after what
//! (`made-after` in `wit/index.wit`: the same scope, within a window), so when search finds
//! a memory that asks, the memory stored next after it is taken as its reply and gains the
//! question's score, found by nothing else or not. A reply stored with its context (which
//! holds the question) gains too: the question, without the reply's words to dilute it,
//! ranks higher than the reply does.
//!
//! Only a question lends: a run of facts stored one after another (a preference, then an
//! allergy) lends nothing, so "Where do I live?" does not bring the allergy along. Chosen
//! on LoCoMo's development half, with and without contexts, each half of it tuned and
//! checked on the other (figures: docs/judgment.md).

/// The share of a question's fused score its reply gains. Tuned on either half of LoCoMo's
/// development set, turns with and without contexts together, it is 0.6 to 0.85; recall at
/// ten moves by about a point between 0.5 and 1 (docs/judgment.md).
pub const REPLY_SHARE: f32 = 0.7;

/// How many of the best hits are looked at for questions: a reply gaining the score of a
/// question ranked lower would not reach the top ten.
pub const QUESTIONS_LOOKED_AT: usize = 20;

/// How long after a question a memory may have been stored and still be its reply: a
/// conversation's next turn, not the next day's first memory. Ten minutes, in microseconds.
pub const WINDOW_MICROS: i64 = 10 * 60 * 1_000_000;

/// The questions among the first [`QUESTIONS_LOOKED_AT`] of `fused` (best first), with
/// their scores, in order.
pub fn questions(fused: &[(String, f32)], asks: impl Fn(&str) -> bool) -> Vec<(String, f32)> {
    fused
        .iter()
        .take(QUESTIONS_LOOKED_AT)
        .filter(|(id, _)| asks(id))
        .cloned()
        .collect()
}

/// The replies that gained a share, in the order of their questions.
#[derive(Debug, Default, PartialEq)]
pub struct Credited {
    /// Every reply that gained.
    pub gained: Vec<String>,
    /// Those of them that were not among the hits: found through their question alone.
    pub joined: Vec<String>,
}

/// Adds to each reply (`replies[i]`, stored after `questions[i]`) that `takes` (a live
/// memory the caller sees) the share of its question's score; a reply not in `fused` (one
/// no list found, or one left out as noise) joins it with the share alone. The caller
/// sorts again.
pub fn credit(
    fused: &mut Vec<(String, f32)>,
    questions: &[(String, f32)],
    replies: &[Option<String>],
    takes: impl Fn(&str) -> bool,
) -> Credited {
    let mut credited = Credited::default();
    for ((_, score), reply) in questions.iter().zip(replies) {
        let Some(reply) = reply.as_deref().filter(|r| takes(r)) else {
            continue;
        };
        let share = REPLY_SHARE * score;
        match fused.iter_mut().find(|(id, _)| id == reply) {
            Some((_, s)) => *s += share,
            None => {
                fused.push((reply.to_owned(), share));
                credited.joined.push(reply.to_owned());
            }
        }
        if !credited.gained.iter().any(|g| g == reply) {
            credited.gained.push(reply.to_owned());
        }
    }
    credited
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scored(items: &[(&str, f32)]) -> Vec<(String, f32)> {
        items.iter().map(|(id, s)| (id.to_string(), *s)).collect()
    }

    #[test]
    fn a_question_found_lends_its_score_to_the_reply_stored_after_it() {
        let mut fused = scored(&[
            ("q1?", 0.30),
            ("fact", 0.20),
            ("a1", 0.12),
            ("q2?", 0.10),
            ("q3?", 0.05),
        ]);
        let asked = questions(&fused, |id| id.ends_with('?'));
        assert_eq!(asked, scored(&[("q1?", 0.30), ("q2?", 0.10), ("q3?", 0.05)]));
        // q1's reply was found; q2's was not; q3's is not the caller's to see.
        let replies = [Some("a1".to_owned()), Some("a2".to_owned()), Some("hidden".to_owned())];
        let credited = credit(&mut fused, &asked, &replies, |id| id != "hidden");
        assert_eq!(credited.gained, ["a1", "a2"]);
        assert_eq!(credited.joined, ["a2"]);
        let score = |id: &str| fused.iter().find(|(i, _)| i == id).map(|(_, s)| *s);
        assert!(
            (score("a1").unwrap() - (0.12 + REPLY_SHARE * 0.30)).abs() < 1e-6,
            "its own and q1's"
        );
        assert!(
            (score("a2").unwrap() - REPLY_SHARE * 0.10).abs() < 1e-6,
            "through its question alone"
        );
        assert_eq!(score("hidden"), None);
        assert_eq!(score("fact"), Some(0.20), "a fact lends nothing and gains nothing");
        assert_eq!(fused.len(), 6);
    }

    #[test]
    fn a_reply_of_two_questions_gains_both_and_is_listed_once() {
        let mut fused = scored(&[("q1?", 0.3), ("q2?", 0.2)]);
        let asked = questions(&fused, |_| true);
        // q2 was stored after q1, and the reply after both (two questions in a row).
        let credited = credit(&mut fused, &asked, &[Some("q2?".into()), Some("r".into())], |_| true);
        assert_eq!(credited.gained, ["q2?", "r"]);
        assert_eq!(credited.joined, ["r"]);
        let want = [("q1?", 0.3), ("q2?", 0.2 + REPLY_SHARE * 0.3), ("r", REPLY_SHARE * 0.2)];
        for ((id, score), (want_id, want_score)) in fused.iter().zip(want) {
            assert_eq!(id, want_id);
            assert!(
                (score - want_score).abs() < 1e-6,
                "each share from the score before: {fused:?}"
            );
        }
    }

    #[test]
    fn only_the_first_hits_are_looked_at() {
        let fused: Vec<(String, f32)> = (0..QUESTIONS_LOOKED_AT + 5).map(|i| (format!("q{i}"), 1.0)).collect();
        assert_eq!(questions(&fused, |_| true).len(), QUESTIONS_LOOKED_AT);
    }
}
