//! The conservative supersession rule on the labelled pairs: its precision, which must
//! stay at 1.0 (a wrong supersession hides a true fact), and its recall.

use super::labelled_pairs::{Ctx, PAIRS, SARAH};
use crate::supersession::parse::parse_in;
use crate::supersession::statement::Statement;
use crate::supersession::{RuleContext, rule_replaces, rule_says_replaces};
use Ctx::{Group, Personal};

#[test]
fn the_rule_is_precise_on_the_labelled_pairs() {
    let (mut tp, mut fp, mut fn_) = (0u32, 0u32, 0u32);
    let mut wrong = Vec::new();
    let mut missed = Vec::new();
    for (old, new, ctx, expected) in PAIRS {
        let got = rule_replaces(old, new, &ctx.rule());
        match (got, *expected) {
            (true, true) => tp += 1,
            (true, false) => {
                fp += 1;
                wrong.push(format!("{old:?} -> {new:?}"));
            }
            (false, true) => {
                fn_ += 1;
                missed.push(format!("{old:?} -> {new:?}"));
            }
            (false, false) => {}
        }
    }
    let precision = f64::from(tp) / f64::from((tp + fp).max(1));
    let recall = f64::from(tp) / f64::from((tp + fn_).max(1));
    let positives = PAIRS.iter().filter(|p| p.3).count();
    println!(
        "supersession rule on {} labelled pairs ({positives} replacements): precision {precision:.3}, recall {recall:.3} ({tp} found, {fn_} missed)",
        PAIRS.len()
    );
    for m in &missed {
        println!("  missed: {m}");
    }
    assert!(PAIRS.len() >= 100);
    assert!(wrong.is_empty(), "wrongly replaced: {wrong:#?}");
    assert_eq!(precision, 1.0);
    assert!(recall >= 0.8, "recall {recall:.3}; missed: {missed:#?}");
}

#[test]
fn facts_the_rule_replaces_share_a_block() {
    // Every labelled fact against every other fact labelled in the same context, both
    // ways round: whenever the rule replaces, the blocks are equal, so grouping facts by
    // block loses no replacement.
    let mut contexts: Vec<RuleContext> = Vec::new();
    for (_, _, ctx, _) in PAIRS {
        if !contexts.contains(&ctx.rule()) {
            contexts.push(ctx.rule());
        }
    }
    let mut replacing = 0;
    for ctx in &contexts {
        let parsed: Vec<(&str, Statement)> = PAIRS
            .iter()
            .filter(|p| p.2.rule() == *ctx)
            .flat_map(|p| [p.0, p.1])
            .filter_map(|t| parse_in(t, ctx).map(|s| (t, s)))
            .collect();
        for (a, x) in &parsed {
            for (b, y) in &parsed {
                if x.replaced_by(y) {
                    replacing += 1;
                    assert_eq!(x.block(), y.block(), "{a:?} -> {b:?}");
                }
            }
        }
    }
    assert!(replacing >= 50, "only {replacing} replacing pairs");
}

#[test]
fn the_context_free_rule_is_the_personal_rule() {
    for (old, new, ctx, _) in PAIRS {
        if matches!(ctx, Personal) {
            assert_eq!(
                rule_says_replaces(old, new),
                rule_replaces(old, new, &RuleContext::default()),
                "{old:?} -> {new:?}"
            );
        }
    }
}

/// Odd text neither panics the rule nor takes part in a verdict it should not: a fragment
/// with no value is unreadable (no block) and replaces nothing and is replaced by nothing,
/// and the two odd texts the rule can read take part only in the verdicts listed, against
/// the same attribute of the same subject.
#[test]
fn the_rule_never_panics_on_odd_text() {
    let fragments = [
        "",
        " ",
        "is",
        "my",
        "My is is is",
        "I",
        "I am",
        "I live in",
        "'s 's 's",
        "My favorite color is",
        "Our standup is at",
        "My ☃ is ☃",
        "I'm  ",
        "Sarah's's brother's",
    ];
    let readable = ["I have 99999999999999999999999 kids", "I live in Lisbon,,,, ,"];
    let facts = [
        "I live in Lisbon",
        "I live in Porto",
        "I have 2 kids",
        "My favorite color is red",
        "Sarah lives in Porto",
        "Our standup is at 9am",
    ];
    let all: Vec<&str> = fragments.iter().chain(&readable).chain(&facts).copied().collect();
    let mut verdicts = Vec::new();
    for (name, ctx) in [("personal", Personal), ("sarah", SARAH), ("group", Group)] {
        let ctx = ctx.rule();
        for fragment in fragments {
            assert_eq!(
                crate::supersession::rule_block(fragment, &ctx),
                None,
                "{name}: {fragment:?}"
            );
        }
        for a in &all {
            for b in &all {
                let odd = !facts.contains(a) || !facts.contains(b);
                if rule_replaces(a, b, &ctx) && odd {
                    verdicts.push(format!("{name}: {a} -> {b}"));
                }
            }
        }
    }
    let expected: Vec<String> = ["personal", "sarah"]
        .iter()
        .flat_map(|name| {
            [
                "I have 99999999999999999999999 kids -> I have 2 kids",
                "I have 2 kids -> I have 99999999999999999999999 kids",
                "I live in Lisbon,,,, , -> I live in Porto",
                "I live in Porto -> I live in Lisbon,,,, ,",
            ]
            .map(|v| format!("{name}: {v}"))
        })
        .collect();
    verdicts.sort();
    let mut expected = expected;
    expected.sort();
    assert_eq!(verdicts, expected);
}
