//! What was stored around the best hits: told in one sitting, read together.
//!
//! A conversation stored turn by turn, like a user's facts told in one sitting, keeps what
//! belongs together one after another. When a question's best hits stand in one stretch of
//! what was stored, another memory search found in that stretch is more likely part of the
//! answer than one of the same score from elsewhere: "Where has Melanie camped?" finds her
//! camping trip's turns, and the turn of that talk that names the beach ranks above a
//! camping question of another day. The index knows what was stored around what
//! (`made-around` in `wit/index.wit`: the same scope, in the order made).
//!
//! Only what search found is reordered: nothing joins the hits for being stored near them,
//! and a hit near every best hit keeps its score, so that in a store smaller than the
//! stretch, where every memory is near every other, nothing changes. Chosen on LoCoMo's
//! development half, with and without contexts, each half checked against the other
//! (figures: docs/judgment.md).

use std::collections::{HashMap, HashSet};

/// How many of the best hits say where the answer was told.
pub const ANCHORS: usize = 5;

/// How many memories stored before and after a best hit are near it: a sitting's worth
/// (a LoCoMo session is 15 to 30 turns).
pub const PLACES: u32 = 20;

/// What a memory's score gains, as a share of it, for each of the best hits it was stored
/// near; a best hit is near itself.
pub const NEARBY_WEIGHT: f32 = 0.15;

/// The ids of the best [`ANCHORS`] of `fused` (best first).
pub fn anchors(fused: &[(String, f32)]) -> Vec<String> {
    fused.iter().take(ANCHORS).map(|(id, _)| id.clone()).collect()
}

/// Weighs each score of `fused` by 1 + [`NEARBY_WEIGHT`] for each of `anchors` that is it
/// or whose `around` holds it (`around[i]` is what was stored near `anchors[i]`), over the
/// same for a hit near all of them: such a hit keeps its score, and one near fewer loses.
/// A best hit counting itself keeps a small store as it was: there every memory is near
/// every best hit. The caller sorts again.
pub fn weigh(fused: &mut [(String, f32)], anchors: &[String], around: &[Vec<String>]) {
    // How many best hits each memory is near, counted once a best hit (a list may repeat).
    let mut near: HashMap<&str, u32> = HashMap::new();
    for (anchor, stored) in anchors.iter().zip(around) {
        let mut counted: HashSet<&str> = HashSet::new();
        for id in std::iter::once(anchor).chain(stored) {
            if counted.insert(id) {
                *near.entry(id).or_default() += 1;
            }
        }
    }
    let all = 1.0 + NEARBY_WEIGHT * anchors.len() as f32;
    for (id, score) in fused.iter_mut() {
        let n = near.get(id.as_str()).copied().unwrap_or(0);
        *score *= (1.0 + NEARBY_WEIGHT * n as f32) / all;
    }
}

/// Sorts `fused` (weighed) again, best first, but for its first memory, which stays first
/// with the highest score: the neighbourhood tells what else belongs to the answer, not
/// which memory answers best. On the paraphrase set, where one fact answers each question,
/// five questions lost their first answer to a fact stored near more of the best hits.
pub fn keep_best_first(fused: &mut [(String, f32)]) {
    let Some(((_, best), rest)) = fused.split_first_mut() else {
        return;
    };
    rest.sort_by(|a, b| b.1.total_cmp(&a.1));
    if let Some((_, next)) = rest.first() {
        *best = best.max(*next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scored(pairs: &[(&str, f32)]) -> Vec<(String, f32)> {
        pairs.iter().map(|(id, s)| ((*id).to_owned(), *s)).collect()
    }

    #[test]
    fn a_memory_gains_for_each_best_hit_it_was_stored_near_or_is() {
        let mut fused = scored(&[
            ("a", 1.0),
            ("b", 0.9),
            ("c", 0.8),
            ("d", 0.7),
            ("e", 0.6),
            ("near-two", 0.5),
            ("near-none", 0.5),
        ]);
        let anchors = anchors(&fused);
        assert_eq!(anchors, ["a", "b", "c", "d", "e"]);
        let around: Vec<Vec<String>> = [
            vec!["near-two", "b"],
            vec!["a", "near-two"],
            vec!["c"], // an anchor near itself counts once
            vec![],
            vec!["stored-near-but-not-found"],
        ]
        .into_iter()
        .map(|ids| ids.into_iter().map(str::to_owned).collect())
        .collect();
        weigh(&mut fused, &anchors, &around);
        let score = |id: &str| fused.iter().find(|(x, _)| x == id).unwrap().1;
        let w = NEARBY_WEIGHT;
        let all = 1.0 + 5.0 * w;
        assert!((score("a") - (1.0 + 2.0 * w) / all).abs() < 1e-6);
        assert!((score("b") - 0.9 * (1.0 + 2.0 * w) / all).abs() < 1e-6);
        assert!((score("c") - 0.8 * (1.0 + w) / all).abs() < 1e-6);
        assert!((score("d") - 0.7 * (1.0 + w) / all).abs() < 1e-6);
        assert!((score("near-two") - 0.5 * (1.0 + 2.0 * w) / all).abs() < 1e-6);
        assert!((score("near-none") - 0.5 / all).abs() < 1e-6);
        assert_eq!(fused.len(), 7, "nothing joins");
    }

    #[test]
    fn the_best_hit_stays_first_with_the_highest_score() {
        let mut fused = scored(&[("best", 1.0), ("c", 0.9), ("b", 1.3), ("a", 1.5)]);
        keep_best_first(&mut fused);
        assert_eq!(fused, scored(&[("best", 1.5), ("a", 1.5), ("b", 1.3), ("c", 0.9)]));
        let mut fused = scored(&[("best", 2.0), ("b", 1.0), ("a", 1.5)]);
        keep_best_first(&mut fused);
        assert_eq!(fused, scored(&[("best", 2.0), ("a", 1.5), ("b", 1.0)]));
        let mut empty: Vec<(String, f32)> = Vec::new();
        keep_best_first(&mut empty);
        let mut one = scored(&[("only", 1.0)]);
        keep_best_first(&mut one);
        assert_eq!(one, scored(&[("only", 1.0)]));
    }

    #[test]
    fn where_every_memory_is_near_every_best_hit_nothing_changes() {
        let mut fused = scored(&[("a", 1.0), ("b", 0.9), ("c", 0.8), ("d", 0.7), ("e", 0.6), ("f", 0.5)]);
        let anchors = anchors(&fused);
        let all = ["a", "b", "c", "d", "e", "f"];
        let around: Vec<Vec<String>> = anchors
            .iter()
            .map(|me| all.iter().filter(|x| *x != me).map(|x| (*x).to_owned()).collect())
            .collect();
        let before: Vec<f32> = fused.iter().map(|(_, s)| *s).collect();
        weigh(&mut fused, &anchors, &around);
        for ((_, after), before) in fused.iter().zip(before) {
            assert!((after - before).abs() < 1e-6);
        }
    }
}
