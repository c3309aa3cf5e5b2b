//! The rule extractor's precision and recall on the hand-labelled set
//! `tests/e2e/data/extraction-turns.jsonl`.

use std::collections::HashMap;

use serde_json::Value;

use ash_memory::{Caller, MemoryStore, Turn};

use super::NOW;
use crate::support::ctx::Ctx;

/// One labelled turn of `tests/e2e/data/extraction-turns.jsonl`.
struct Labelled {
    id: String,
    user: String,
    assistant: String,
    /// Each fact: its keywords, and whether it is negative (a dislike, a negated fact).
    facts: Vec<(Vec<String>, bool)>,
}

/// Whether a memory says something negative: a negation, a dislike, or a habit left
/// ("I quit smoking").
fn negative(content: &str) -> bool {
    const CUES: &[&str] = &[
        "not", "no", "never", "cannot", "nobody", "nothing", "hate", "hates", "dislike", "dislikes", "quit", "former",
        "sober",
    ];
    let lower = content.to_lowercase().replace('\u{2019}', "'");
    ["gave up", "given up", "stopped"].iter().any(|c| lower.contains(c))
        || lower
            .split(|c: char| !(c.is_alphanumeric() || c == '\''))
            .any(|w| CUES.contains(&w) || w.ends_with("n't"))
}

/// Whether a stored memory is a right reading of a labelled fact: every keyword, said the
/// same way round ("I love cilantro" is not "I hate cilantro").
fn states(content: &str, (keywords, negative_fact): &(Vec<String>, bool)) -> bool {
    let lower = content.to_lowercase();
    keywords.iter().all(|k| lower.contains(k.as_str())) && same_way_round(content, *negative_fact)
}

/// Whether a memory says a fact the way round its label does. A word that is a lack and a
/// state at once ("sober", "a former smoker") reads either way: the sets' authors labelled
/// "I've been sober for 6 years" positive in one set and negative in another.
fn same_way_round(content: &str, negative_fact: bool) -> bool {
    let lower = content.to_lowercase();
    negative(content) == negative_fact || ["sober", "former"].iter().any(|w| lower.contains(w))
}

/// Whether a memory is a right but cut-short reading of a labelled fact: it holds some of
/// its keywords, the same way round, and the rest come later in the turn, after the words
/// it kept ("I'm a student" of "I'm a student, second year of a law degree"). Neither
/// wrong nor found.
fn cut_short(content: &str, turn: &str, (keywords, negative_fact): &(Vec<String>, bool)) -> bool {
    let (lower, turn) = (content.to_lowercase(), turn.to_lowercase().replace('\u{2019}', "'"));
    // Where the memory's words end in the turn: by its last two words, as a word of time
    // or focus after the subject is not kept ("I'm still a student at ..." is stored as
    // "I'm a student at ...").
    let words: Vec<&str> = lower.split_whitespace().collect();
    let tail = words[words.len().saturating_sub(2)..].join(" ");
    let Some(end) = turn.find(tail.as_str()).map(|at| at + tail.len()) else {
        return false;
    };
    let (held, lacking): (Vec<&String>, Vec<&String>) = keywords.iter().partition(|k| lower.contains(k.as_str()));
    !held.is_empty()
        && !lacking.is_empty()
        && lacking.iter().all(|k| turn[end..].contains(k.as_str()))
        && same_way_round(content, *negative_fact)
}

fn labelled() -> Vec<Labelled> {
    read_labelled(include_str!("../data/extraction-turns.jsonl"))
}

fn read_labelled(text: &str) -> Vec<Labelled> {
    text.lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            Labelled {
                id: v["id"].as_str().unwrap().to_owned(),
                user: v["user"].as_str().unwrap().to_owned(),
                assistant: v["assistant"].as_str().unwrap().to_owned(),
                facts: v["facts"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|f| {
                        let keywords = f["keywords"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|k| k.as_str().unwrap().to_owned())
                            .collect();
                        let negative = match f["polarity"].as_str() {
                            None | Some("positive") => false,
                            Some("negative") => true,
                            Some(other) => panic!("{}: polarity {other:?}", v["id"]),
                        };
                        (keywords, negative)
                    })
                    .collect(),
            }
        })
        .collect()
}

/// The offline extractor on the hand-labelled set, through the component: every turn in a
/// session of its own, extracted, each stored fact matched to its turn's labels. A fact is
/// right when it holds every keyword of one of its turn's labelled facts and says it the
/// same way round ([`states`]). The bounds are what the rules achieve (docs/performance.md: 54 of the
/// 83 facts found, nothing wrong stored): a wrong fact, or one fewer found, fails.
#[test]
fn offline_extraction_precision_on_the_labelled_set() {
    if crate::support::ctx::files_only("opens the library in this process, whose environment has no ASH_PG_URL") {
        return;
    }
    let set = labelled();
    assert!(set.len() >= 100, "at least 100 labelled turns");
    let (found, wrong) = extracted(&set, "");
    assert!(wrong.is_empty(), "the rules store wrong facts: {wrong:#?}");
    assert!(found >= 54, "the rules find fewer facts than they did: {found}");
}

/// Messages that tell two or more facts in one sentence, beside ones where only one clause
/// lasts, or none does (`tests/e2e/data/extraction-compound-turns.jsonl`), and facts about
/// the people in the user's life beside moods, opinions, plans and others' words about
/// them (`extraction-people-turns.jsonl`), and what a household has and how it lives beside
/// passing things told in the same words (`extraction-household-{dev,held-out}.jsonl`: the
/// rules were written on the first and measured on the second), and everyday requests to an
/// assistant, a third of them telling a fact in passing (`extraction-everyday-requests.jsonl`),
/// and facts told with a word of time or focus after the subject beside look-alikes told
/// with the same words (`extraction-adverbs-{dev,held-out}.jsonl`, the same way round),
/// and standing amounts told in passing beside numbers that tell none
/// (`extraction-amounts-{dev,held-out}.jsonl`);
/// all written by authors who had not seen the rules. Nothing wrong is stored, and no fewer facts are found than were
/// (docs/performance.md).
#[test]
fn offline_extraction_of_blind_sets_stores_nothing_wrong() {
    if crate::support::ctx::files_only("opens the library in this process, whose environment has no ASH_PG_URL") {
        return;
    }
    let mut failures = Vec::new();
    for (text, title, floor) in [
        (
            include_str!("../data/extraction-compound-turns.jsonl"),
            " of compound sentences",
            58,
        ),
        (
            include_str!("../data/extraction-people-turns.jsonl"),
            " about people",
            23,
        ),
        (
            include_str!("../data/extraction-household-dev.jsonl"),
            " of households (development)",
            47,
        ),
        (
            include_str!("../data/extraction-household-held-out.jsonl"),
            " of households (held out)",
            30,
        ),
        (
            include_str!("../data/extraction-everyday-requests.jsonl"),
            " of everyday requests",
            44,
        ),
        (
            include_str!("../data/extraction-adverbs-dev.jsonl"),
            " with a word after the subject (development)",
            42,
        ),
        (
            include_str!("../data/extraction-adverbs-held-out.jsonl"),
            " with a word after the subject (held out)",
            // 19 counted "My dad's name is Scottish" as found (docs/performance.md).
            20,
        ),
        (
            include_str!("../data/extraction-amounts-dev.jsonl"),
            " with an amount (development)",
            45,
        ),
        (
            include_str!("../data/extraction-amounts-held-out.jsonl"),
            " with an amount (held out)",
            25,
        ),
    ] {
        let set = read_labelled(text);
        assert!(set.len() >= 90, "at least 90 labelled turns");
        let (found, wrong) = extracted(&set, title);
        if !wrong.is_empty() {
            failures.push(format!("the rules store wrong facts{title}: {wrong:#?}"));
        }
        if found < floor {
            failures.push(format!("the rules find fewer facts{title} than they did: {found}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Standing facts told in everyday forms the plain openers miss ("we're in Brighton now",
/// "I teach maths at a secondary in Glasgow", "not a morning person at all", "No markdown
/// please"), beside look-alikes (`extraction-selftold-*.jsonl`, two helper sessions that
/// had not read the rules; the held-out half was measured once blind, docs/performance.md).
/// Both sets label facts about the teller alone: "My boss is left-handed" (development) and
/// "My sister's vegan", "My flatmate is left-handed" (held out) are stored by the older
/// rules about people and counted wrong, as are "My name is Batman" of "I'm Batman" and "I'm
/// Muslim" where the set labels only "halal".
#[test]
fn offline_extraction_of_standing_facts_told_in_passing() {
    if crate::support::ctx::files_only("opens the library in this process, whose environment has no ASH_PG_URL") {
        return;
    }
    let mut failures = Vec::new();
    for (text, title, floor, most_wrong) in [
        (
            include_str!("../data/extraction-selftold-dev.jsonl"),
            " told in passing (development)",
            46,
            2,
        ),
        (
            include_str!("../data/extraction-selftold-held-out.jsonl"),
            " told in passing (held out)",
            35,
            3,
        ),
    ] {
        let set = read_labelled(text);
        assert!(set.len() >= 100, "at least 100 labelled turns");
        let (found, wrong) = extracted(&set, title);
        if wrong.len() > most_wrong {
            failures.push(format!("the rules store wrong facts{title}: {wrong:#?}"));
        }
        if found < floor {
            failures.push(format!("the rules find fewer facts{title} than they did: {found}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The match of a memory to a labelled fact respects its polarity.
#[test]
fn a_labelled_fact_is_matched_the_same_way_round() {
    let hate = (vec!["cilantro".to_owned()], true);
    let love = (vec!["sushi".to_owned()], false);
    assert!(states("I hate cilantro", &hate));
    assert!(states("I really don\u{2019}t like cilantro", &hate));
    assert!(!states("I love cilantro", &hate));
    assert!(states("I love sushi", &love));
    assert!(!states("I don't like sushi", &love));
    assert!(!states("I never eat sushi", &love));
    let smoking = (vec!["smoking".to_owned()], true);
    assert!(states("I quit smoking 9 years ago", &smoking), "a habit left");
    assert!(states("I gave up smoking", &smoking));
    let sober = |negative| (vec!["sober".to_owned()], negative);
    assert!(
        states("I've been sober for 6 years", &sober(true)) && states("I've been sober for 6 years", &sober(false))
    );
    assert!(!states("I love sashimi", &love), "every keyword");
    let law = (vec!["student".to_owned(), "law".to_owned()], false);
    let turn = "I'm a student, second year of a law degree";
    assert!(cut_short("I'm a student", turn, &law));
    assert!(
        !cut_short("I'm a student", "I study law, I'm a student", &law),
        "the rest comes later"
    );
    assert!(
        !cut_short("I'm not a student", "I'm not a student of law", &law),
        "the same way round"
    );
    let negatives = labelled().iter().flat_map(|t| &t.facts).filter(|f| f.1).count();
    assert_eq!(negatives, 6, "the labelled set's negative facts");
}

/// Every turn of `set` stored in a session of its own and extracted offline, each stored
/// fact matched to its turn's labels; prints the figures under `title` and the wrong facts,
/// and returns how many labelled facts were found and the wrong facts stored.
fn extracted(set: &[Labelled], title: &str) -> (usize, Vec<String>) {
    let ctx = Ctx::new().env("ASH_NOW", NOW);
    let mut store = MemoryStore::builder(ctx.home()).open().unwrap();
    let me = Caller::user("labeller");
    let mut sessions = HashMap::new();
    for t in set {
        let mut turn = Turn::new(&t.id, &t.user);
        if !t.assistant.is_empty() {
            turn = turn.answer(&t.assistant);
        }
        let stored = store.persist_turn(&me, &turn).unwrap();
        sessions.insert(stored.session_id, t);
    }
    let mut read = 0;
    loop {
        let report = store.extract(&me, None).unwrap();
        assert!(report.offline || report.turns == 0);
        if report.turns == 0 {
            break;
        }
        read += report.turns;
    }
    assert_eq!(read as usize, set.len());
    drop(store);

    let (mut right, mut wrong, mut short, mut found) = (0, Vec::new(), Vec::new(), 0);
    let mut matched: HashMap<(String, usize), bool> = HashMap::new();
    for m in ctx.memory_lines() {
        let t = sessions[m["source_session_id"].as_str().unwrap()];
        let content = m["content"].as_str().unwrap();
        match t.facts.iter().position(|fact| states(content, fact)) {
            Some(i) => {
                right += 1;
                matched.insert((t.id.clone(), i), true);
            }
            None if t.facts.iter().any(|fact| cut_short(content, &t.user, fact)) => {
                short.push(format!("{}: {content}", t.id))
            }
            None => wrong.push(format!("{}: {content}", t.id)),
        }
    }
    let labelled_facts: usize = set.iter().map(|t| t.facts.len()).sum();
    found += matched.len();
    let precision = right as f64 / (right + wrong.len()).max(1) as f64;
    let recall = found as f64 / labelled_facts as f64;
    println!(
        "offline extraction on {} labelled turns{title} ({labelled_facts} facts): stored {}, right {right}, \
         cut short {}, precision {precision:.3}, recall {recall:.3}",
        set.len(),
        right + wrong.len() + short.len(),
        short.len()
    );
    for s in &short {
        println!("  cut short: {s}");
    }
    for w in &wrong {
        println!("  wrong: {w}");
    }
    (found, wrong)
}
