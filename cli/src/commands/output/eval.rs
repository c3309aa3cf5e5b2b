//! Printing what `eval` measured.

use serde_json::{Value, json};

use super::{Output, emit, print_json};
use crate::eval::{EvalReport, Scores};

impl Output {
    pub fn eval(&self, r: &EvalReport) {
        let scores = |s: &Scores| {
            json!({
                "questions": s.questions,
                "hit": {"1": s.hit[0], "5": s.hit[1], "10": s.hit[2]},
                "recall": {"1": s.recall[0], "5": s.recall[1], "10": s.recall[2]},
                "mrr": s.mrr,
                "shown": s.shown,
            })
        };
        if self.json {
            let categories: serde_json::Map<String, Value> =
                r.categories.iter().map(|(c, s)| (c.clone(), scores(s))).collect();
            return print_json(&json!({
                "memories": r.memories, "refused": r.refused,
                "overall": scores(&r.overall), "categories": categories,
            }));
        }
        say!("{} memories stored ({} refused)", r.memories, r.refused);
        say!(
            "{:<16} {:>9} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6}",
            "",
            "questions",
            "hit@1",
            "hit@5",
            "hit@10",
            "R@1",
            "R@5",
            "R@10",
            "MRR",
            "shown"
        );
        let row = |name: &str, s: &Scores| {
            say!(
                "{:<16} {:>9} {:>6.3} {:>6.3} {:>6.3} {:>6.3} {:>6.3} {:>6.3} {:>6.3} {:>6.2}",
                name,
                s.questions,
                s.hit[0],
                s.hit[1],
                s.hit[2],
                s.recall[0],
                s.recall[1],
                s.recall[2],
                s.mrr,
                s.shown
            );
        };
        row("all", &r.overall);
        for (c, s) in &r.categories {
            row(c, s);
        }
    }
}
