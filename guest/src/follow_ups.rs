//! The lines said after the best hits, in a transcript stored without contexts.
//!
//! A conversation stored line by line ("Marcus: ...", "Gwen: ...") without a context keeps
//! nothing of what a line answers or carries on: "What is the rescue dog frightened of?"
//! finds "Marcus: The rescue dog is a sweetheart, but she's frightened of one thing in the
//! house." and not, two lines on, "Marcus: The hoover. She hides under the bed", which
//! shares no word with the question.
//! The index knows what was stored next after what (`made-after` in `wit/index.wit`: the
//! same scope, within a window), so the two lines stored after each of the best three hits
//! gain a share of that hit's score, and join the hits if nothing else found them.
//!
//! Only a transcript's lines lend and gain: a hit and the lines after it each open with a
//! speaker ([`crate::speaker`]) and have no context. Facts told one after another ("I live
//! in Porto", then an allergy) lend nothing, and a line stored with its context holds the
//! line before it already. A question's reply is `replies`' rule, which holds for any
//! memory that asks. Chosen on LoCoMo's development half and the one-topic conversations,
//! each half checked on the other (figures: docs/judgment.md, "The lines after the best
//! hits").

/// How many of the best hits lend to the lines after them.
pub const ANCHORS: usize = 3;

/// How many lines after a best hit gain: its reply and the line after that, often the
/// same speaker going on.
pub const LINES: usize = 2;

/// The share of a best hit's fused score each line after it gains. Tuned on conversations
/// 0-2 and the one-topic conversations A and B it is 0.3; on 3-4, C and D, 0.2
/// (docs/judgment.md).
pub const FOLLOW_SHARE: f32 = 0.3;

/// The best [`ANCHORS`] of `fused` (best first) that are lines of a transcript stored
/// without contexts (`is_line`), with their scores.
pub fn anchors(fused: &[(String, f32)], is_line: impl Fn(&str) -> bool) -> Vec<(String, f32)> {
    fused
        .iter()
        .take(ANCHORS)
        .filter(|(id, _)| is_line(id))
        .cloned()
        .collect()
}

/// Adds to each line of `after[i]` (the lines stored after `anchors[i]`, nearest first)
/// [`FOLLOW_SHARE`] of the anchor's score, up to the anchor's score: a line found through
/// another does not pass it (one that ranked above it by itself keeps its place). A line
/// not in `fused` joins it with the share alone. Returns the lines that joined, in order.
/// The caller sorts again; a sort that keeps the order of equals keeps a line capped at its
/// anchor's score below the anchor.
pub fn credit(fused: &mut Vec<(String, f32)>, anchors: &[(String, f32)], after: &[Vec<String>]) -> Vec<String> {
    let mut joined = Vec::new();
    for ((_, score), lines) in anchors.iter().zip(after) {
        for line in lines.iter().take(LINES) {
            let share = FOLLOW_SHARE * score;
            match fused.iter_mut().find(|(id, _)| id == line) {
                Some((_, s)) => *s = (*s + share).min(*score).max(*s),
                None => {
                    fused.push((line.clone(), share));
                    joined.push(line.clone());
                }
            }
        }
    }
    joined
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scored(items: &[(&str, f32)]) -> Vec<(String, f32)> {
        items.iter().map(|(id, s)| ((*id).to_owned(), *s)).collect()
    }

    fn lines(ids: &[&str]) -> Vec<String> {
        ids.iter().map(|id| (*id).to_owned()).collect()
    }

    #[test]
    fn the_lines_after_a_best_hit_gain_a_share_of_its_score() {
        let mut fused = scored(&[("l1", 1.0), ("fact", 0.8), ("fact2", 0.6), ("l2", 0.5), ("l1+1", 0.1)]);
        let best = anchors(&fused, |id| id.starts_with('l'));
        assert_eq!(best, scored(&[("l1", 1.0)]), "the best three, lines only");
        let joined = credit(&mut fused, &best, &[lines(&["l1+1", "l1+2", "l1+3"])]);
        assert_eq!(joined, ["l1+2"], "found by nothing else");
        let score = |id: &str| fused.iter().find(|(i, _)| i == id).map(|(_, s)| *s);
        assert!((score("l1+1").unwrap() - (0.1 + FOLLOW_SHARE)).abs() < 1e-6);
        assert!((score("l1+2").unwrap() - FOLLOW_SHARE).abs() < 1e-6);
        assert_eq!(score("l1+3"), None, "two lines at most");
        assert_eq!(score("fact"), Some(0.8));
        assert_eq!(score("l1"), Some(1.0), "a hit does not gain from itself");
    }

    #[test]
    fn a_line_after_two_best_hits_gains_from_both() {
        let mut fused = scored(&[("a", 1.0), ("b", 0.5), ("c", 0.2)]);
        let best = anchors(&fused, |_| true);
        assert_eq!(best.len(), ANCHORS);
        // b was stored after a; both lead to x.
        credit(&mut fused, &best, &[lines(&["b", "x"]), lines(&["x"]), vec![]]);
        let score = |id: &str| fused.iter().find(|(i, _)| i == id).map(|(_, s)| *s).unwrap();
        assert!((score("b") - (0.5 + FOLLOW_SHARE)).abs() < 1e-6);
        assert!((score("x") - FOLLOW_SHARE * 1.5).abs() < 1e-6);
        assert_eq!(fused.len(), 4, "x is listed once");
    }

    #[test]
    fn a_line_does_not_pass_the_hit_it_was_lent_from() {
        let mut fused = scored(&[("a", 1.0), ("b", 0.9), ("c", 1.2)]);
        let best = scored(&[("a", 1.0)]);
        credit(&mut fused, &best, &[lines(&["b", "c"])]);
        let score = |id: &str| fused.iter().find(|(i, _)| i == id).map(|(_, s)| *s).unwrap();
        assert_eq!(score("b"), 1.0, "up to its anchor's score");
        assert_eq!(score("c"), 1.2, "above it by itself: kept");
        fused.sort_by(|x, y| y.1.total_cmp(&x.1));
        let order: Vec<&str> = fused.iter().map(|(id, _)| id.as_str()).collect();
        assert_eq!(order, ["c", "a", "b"]);
    }
}
