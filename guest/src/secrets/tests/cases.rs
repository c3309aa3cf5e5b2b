//! The labelled catalogue in `eval/secrets/`, written apart from the rules: secrets that must
//! be refused and ordinary text that must be kept. The development half is what the rules
//! were developed on; the held-out half is only measured. `docs/secrets.md` has the figures.

use crate::secrets::detect;

pub(super) const DEV: &str = include_str!("../../../../eval/secrets/cases-dev.tsv");
pub(super) const HELD_OUT: &str = include_str!("../../../../eval/secrets/cases-held-out.tsv");

/// (is a secret, text) for each case; "%%" splits fake tokens for secret scanners.
pub(super) fn cases(tsv: &str) -> Vec<(bool, String)> {
    tsv.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (label, text) = l.split_once('\t').unwrap_or_else(|| panic!("no tab: {l:?}"));
            let secret = match label {
                "secret" => true,
                "keep" => false,
                other => panic!("label {other:?} in {l:?}"),
            };
            (secret, text.replace("%%", ""))
        })
        .collect()
}

/// The secrets let through and the ordinary texts refused, and how many of each there were.
struct Outcome {
    secrets: usize,
    keeps: usize,
    missed: Vec<String>,
    refused: Vec<String>,
}

fn measure(tsv: &str) -> Outcome {
    let cases = cases(tsv);
    let (secrets, keeps): (Vec<_>, Vec<_>) = cases.into_iter().partition(|(secret, _)| *secret);
    Outcome {
        secrets: secrets.len(),
        keeps: keeps.len(),
        missed: secrets
            .into_iter()
            .filter(|(_, t)| detect(t).is_none())
            .map(|(_, t)| t)
            .collect(),
        refused: keeps
            .into_iter()
            .filter(|(_, t)| detect(t).is_some())
            .map(|(_, t)| t)
            .collect(),
    }
}

#[test]
fn every_catalogued_secret_is_refused_and_ordinary_text_kept() {
    // Ordinary texts refused, at most: as measured (0 of 179 and 0 of 112), so that any
    // new refusal of one fails.
    for (name, tsv, most_refused) in [("dev", DEV, 0), ("held-out", HELD_OUT, 0)] {
        let o = measure(tsv);
        assert!(
            o.secrets >= 70 && o.keeps >= 100,
            "{name}: {} secrets, {} keeps",
            o.secrets,
            o.keeps
        );
        assert!(
            o.missed.is_empty(),
            "{name}: {} of {} secrets stored: {:#?}",
            o.missed.len(),
            o.secrets,
            o.missed
        );
        assert!(
            o.refused.len() <= most_refused,
            "{name}: {} of {} ordinary texts refused: {:#?}",
            o.refused.len(),
            o.keeps,
            o.refused
        );
    }
}

/// Prints each half's figures and the texts it gets wrong:
/// `cargo test -p ash-memory-guest --lib secrets::tests::cases::figures -- --ignored --nocapture`.
#[test]
#[ignore = "prints the figures for docs/secrets.md"]
fn figures() {
    for (name, tsv) in [("dev", DEV), ("held-out", HELD_OUT)] {
        let o = measure(tsv);
        let pct = |n: usize, of: usize| 100.0 * n as f64 / of.max(1) as f64;
        println!(
            "{name}: {} of {} secrets stored ({:.1}%), {} of {} ordinary texts refused ({:.1}%)",
            o.missed.len(),
            o.secrets,
            pct(o.missed.len(), o.secrets),
            o.refused.len(),
            o.keeps,
            pct(o.refused.len(), o.keeps)
        );
        for text in &o.missed {
            println!("  stored: {text}");
        }
        for text in &o.refused {
            println!("  refused: {text}");
        }
    }
}
