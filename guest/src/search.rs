//! Search fusion: which words go to full-text search, and how ranked lists become one.

use std::collections::{HashMap, HashSet};

/// The constant in Reciprocal Rank Fusion, 1 / (k + rank). The usual 60 damps a top rank in
/// any one list; a small k lets the best of each list through instead of what the weaker
/// lists agree on. The figures for each value tried are in docs/judgment.md.
pub const RRF_K: f32 = 5.0;

/// The fewest candidates the vector and full-text lists each bring to the fusion. A
/// memory one list ranks just past its end loses that list's whole share, however high
/// the other ranks it; at 40 (four times the default limit, as before) that cut still
/// decided top tens (LoCoMo R@10 with context 0.796 -> 0.805; each depth tried:
/// docs/judgment.md).
pub const LIST_DEPTH: u32 = 80;

/// Vector hits below this cosine similarity are not evidence of relevance: with the
/// static embedder, unrelated sentences score around 0.1 and related ones 0.3 and up.
/// Without a floor, every query returns every memory (figures: docs/judgment.md).
pub const MIN_VECTOR_SIMILARITY: f32 = 0.15;

/// How far below the best hit's cosine similarity a hit found by meaning alone (by no
/// word, entity or person of the query) may fall and still be shown, so that "Where do I
/// live?" shows "I live in Porto" without the allergy and the standup under it. Not
/// applied to hits found by a word: a rare shared word is evidence (figures:
/// docs/judgment.md).
pub const SIMILARITY_MARGIN: f32 = 0.2;

/// What a memory that only asks weighs in the fused ranking. A question is rarely the
/// answer to one: in a stored conversation "What's your best camping memory?" is closer to
/// "Where has Melanie camped?" than the turns that tell where, and pushed them out of the
/// top ten. Chosen on LoCoMo's development half, each half of it tuned and checked on the
/// other (figures: docs/judgment.md).
pub const QUESTION_WEIGHT: f32 = 0.65;

/// What a memory of the time the query names weighs in the fused ranking, against 1 for
/// the others ([`crate::period`]). Chosen on LoCoMo's development half, each half of it
/// tuned and checked on the other (figures: docs/judgment.md).
pub const TIME_WEIGHT: f32 = 3.0;

/// Whether `text` ends by asking: its last sentence is a question, after any bracketed
/// aside ("[shares an image: ...]") and closing quotes.
pub fn asks(text: &str) -> bool {
    let mut rest = text.trim_end();
    loop {
        rest = rest.trim_end_matches(['"', '\'', '\u{201d}', '\u{2019}', ' ']);
        let Some(open) = rest.ends_with([']', ')']).then(|| rest.rfind(['[', '('])).flatten() else {
            break;
        };
        rest = &rest[..open];
    }
    rest.ends_with('?')
}

// Below the embedder's weak similarity (`settings.weak-similarity`) the best hit is weak:
// when even the closest memory is that far from the query and no hit shares a word,
// entity or person with it, what meaning alone found is noise, and search shows nothing.
// The embedded models' values are measured in docs/judgment.md.

/// What search leaves out as noise.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Floor {
    /// The least cosine similarity for a hit of the vector list.
    pub min_similarity: f32,
    /// How far below the best similarity a hit found by meaning alone may be.
    pub margin: f32,
    /// The least similarity the best hit needs for hits found by meaning alone to be shown.
    pub weak_best: f32,
}

impl Floor {
    /// What `search` shows, with the embedder's weak similarity.
    pub fn search(weak_similarity: f32) -> Floor {
        Floor {
            min_similarity: MIN_VECTOR_SIMILARITY,
            margin: SIMILARITY_MARGIN,
            weak_best: weak_similarity,
        }
    }
    /// Everything ranked: the context block fills its top N even from weak matches (a
    /// small store's best memories are worth showing).
    pub const NONE: Floor = Floor {
        min_similarity: f32::NEG_INFINITY,
        margin: f32::INFINITY,
        weak_best: f32::NEG_INFINITY,
    };

    /// Drops from `fused` the hits found by meaning alone (not in `worded`, the ids a word,
    /// entity or person of the query found) whose cosine similarity to the query is more
    /// than the margin below the best, or every one of them when the best is weaker than
    /// `weak_best` and no hit was found by a word. `similarity` holds what the vector search measured:
    /// every hit found by meaning alone is in it, and so is the closest hit of all, since
    /// a closer one would have been among the nearest.
    pub fn drop_noise(
        &self,
        fused: &mut Vec<(String, f32)>,
        worded: &HashSet<String>,
        similarity: &HashMap<String, f32>,
    ) {
        let best = similarity.values().fold(f32::NEG_INFINITY, |a, &b| a.max(b));
        // Nothing shares a word with the query and even the closest is far: noise.
        let nothing_worded = !fused.iter().any(|(id, _)| worded.contains(id));
        let floor = if best < self.weak_best && nothing_worded {
            f32::INFINITY
        } else {
            best - self.margin
        };
        fused.retain(|(id, _)| worded.contains(id) || similarity.get(id).is_none_or(|&s| s >= floor));
    }
}

/// Words too common to tell memories apart. Without this, "What should I avoid eating?"
/// full-text-matches every memory containing "I" or "should".
const STOPWORDS: &[&str] = &[
    "a", "about", "am", "an", "and", "any", "are", "as", "at", "be", "been", "but", "by", "can", "could", "did", "do",
    "does", "for", "from", "had", "has", "have", "he", "her", "him", "his", "how", "i", "i'm", "if", "in", "is", "it",
    "its", "me", "my", "of", "on", "or", "our", "she", "should", "so", "that", "the", "their", "them", "there", "they",
    "this", "to", "was", "we", "were", "what", "when", "where", "which", "who", "why", "will", "with", "would", "you",
    "your", "user", "user's",
];

/// The distinct, lowercased, meaningful words of a query, in order.
pub fn query_terms(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let mut terms: Vec<String> = Vec::new();
    for word in lower.split(|c: char| !(c.is_alphanumeric() || c == '\'')) {
        let word = word.trim_matches('\'');
        if word.chars().count() < 2 || STOPWORDS.contains(&word) {
            continue;
        }
        if !terms.iter().any(|t| t == word) {
            terms.push(word.to_owned());
        }
    }
    // "What does she do for a living?" asks for a job, and its "living" would find where
    // one lives ("live" by the stemmer).
    if lower.contains("for a living") {
        terms.retain(|t| t != "living");
        for word in ["work", "job"] {
            if !terms.iter().any(|t| t == word) {
                terms.push(word.to_owned());
            }
        }
    }
    terms
}

/// Whether `text` holds `term` (a lowercased query word) or a word of the same stem, as
/// full-text search's Porter stemmer would match it ("lives" for "live", "camping" for
/// "camp"): both share their first four letters or more, and each has at most three
/// after what they share.
pub fn mentions(text: &str, term: &str) -> bool {
    let term: Vec<char> = term.chars().collect();
    text.to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .any(|word| {
            let word: Vec<char> = word.chars().collect();
            let shared = word.iter().zip(&term).take_while(|(a, b)| a == b).count();
            word == term || (shared >= 4 && word.len() - shared <= 3 && term.len() - shared <= 3)
        })
}

/// Fuses ranked lists of ids (best first) by Reciprocal Rank Fusion: each id scores the
/// sum over lists of 1 / (RRF_K + rank), rank counted from 1. Best first; ties keep the
/// order in which ids were first seen, so the earlier list breaks them.
pub fn fuse(lists: &[Vec<String>]) -> Vec<(String, f32)> {
    let mut scores: HashMap<&str, (f32, usize)> = HashMap::new();
    let mut order = 0;
    for list in lists {
        for (rank, id) in list.iter().enumerate() {
            let entry = scores.entry(id.as_str()).or_insert_with(|| {
                order += 1;
                (0.0, order)
            });
            entry.0 += 1.0 / (RRF_K + rank as f32 + 1.0);
        }
    }
    let mut fused: Vec<(String, f32, usize)> = scores
        .into_iter()
        .map(|(id, (score, seen))| (id.to_owned(), score, seen))
        .collect();
    fused.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.2.cmp(&b.2)));
    fused.into_iter().map(|(id, score, _)| (id, score)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_weak_best_hit_found_by_meaning_alone_is_noise() {
        let fused = || vec![("thai".to_owned(), 0.2), ("worded".to_owned(), 0.1)];
        let worded = HashSet::from(["worded".to_owned()]);
        let similarity = HashMap::from([("thai".to_owned(), 0.25)]);
        let mut alone = vec![("thai".to_owned(), 0.2)];
        Floor::search(0.3).drop_noise(&mut alone, &worded, &similarity);
        assert!(alone.is_empty(), "nothing rather than noise");
        let mut weak = fused();
        Floor::search(0.3).drop_noise(&mut weak, &worded, &similarity);
        assert_eq!(weak, fused(), "beside a hit a word found, the margin decides");
        let mut strong = fused();
        let similarity = HashMap::from([("thai".to_owned(), 0.35)]);
        Floor::search(0.3).drop_noise(&mut strong, &worded, &similarity);
        assert_eq!(strong, fused());
        let mut everything = fused();
        Floor::NONE.drop_noise(
            &mut everything,
            &HashSet::new(),
            &HashMap::from([("thai".to_owned(), 0.01)]),
        );
        assert_eq!(everything, fused(), "the context block ranks without a floor");
    }

    #[test]
    fn a_living_done_for_is_work() {
        assert_eq!(query_terms("What does she do for a living?"), ["work", "job"]);
        assert_eq!(query_terms("Where is she living now?"), ["living", "now"]);
    }

    #[test]
    fn a_memory_asks_when_its_last_sentence_is_a_question() {
        for text in [
            "Wow, Mel, that's awesome! What's your best camping memory?",
            "Did you see that band? [shares an image: a photo of a stage]",
            "She asked: \"where is it?\"",
            "Is it Tuesday? (I forget)",
        ] {
            assert!(asks(text), "{text}");
        }
        for text in [
            "What a day. I finally finished my screenplay!",
            "I went camping at the beach [shares an image: a tent?]",
            "Who knows? I live in Porto now.",
            "",
            "(no question)",
        ] {
            assert!(!asks(text), "{text}");
        }
    }

    #[test]
    fn terms_drop_stopwords_and_duplicates() {
        assert_eq!(query_terms("What should I avoid eating?"), vec!["avoid", "eating"]);
        assert_eq!(query_terms("Dark mode, dark MODE!"), vec!["dark", "mode"]);
        assert!(query_terms("what is it").is_empty());
    }

    #[test]
    fn mentions_matches_words_of_the_same_stem_only() {
        assert!(mentions("I live in Lisbon", "lives"));
        assert!(mentions("We went camping.", "camp"));
        assert!(mentions("Ben's trip to Japan", "japanese"));
        assert!(!mentions("Yes, twice", "japan"));
        assert!(!mentions("a catalogue", "cat"));
    }

    #[test]
    fn noise_is_what_meaning_alone_found_far_below_the_best() {
        let ids = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let fused = |v: &[&str]| ids(v).into_iter().map(|id| (id, 0.1)).collect::<Vec<_>>();
        let similarity: HashMap<String, f32> = [("porto", 0.46), ("allergy", 0.17), ("standup", 0.16), ("word", 0.05)]
            .map(|(id, s)| (id.to_owned(), s))
            .into();
        let worded: HashSet<String> = ids(&["word"]).into_iter().collect();
        let mut hits = fused(&["porto", "allergy", "standup", "word", "no-vector"]);
        Floor::search(0.3).drop_noise(&mut hits, &worded, &similarity);
        let kept: Vec<&str> = hits.iter().map(|h| h.0.as_str()).collect();
        // A word of the query is evidence however far its meaning; without a vector there
        // is nothing to measure, so nothing is dropped.
        assert_eq!(kept, ["porto", "word", "no-vector"]);
        let mut all = fused(&["porto", "allergy", "standup"]);
        Floor::NONE.drop_noise(&mut all, &HashSet::new(), &similarity);
        assert_eq!(all.len(), 3);
    }

    #[test]
    fn rrf_rewards_agreement() {
        let v = vec!["a".to_string(), "b".into(), "c".into()];
        let t = vec!["c".to_string(), "b".into()];
        let fused = fuse(&[v, t]);
        let ids: Vec<&str> = fused.iter().map(|(id, _)| id.as_str()).collect();
        // c: 1/6 + 1/8 = 0.292 beats b: 2/7 = 0.286; a: 1/6 alone.
        assert_eq!(ids, ["c", "b", "a"]);
        assert!((fused[2].1 - 1.0 / 6.0).abs() < 1e-6);
    }
}
