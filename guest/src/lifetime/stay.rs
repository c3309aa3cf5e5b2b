//! A stay for a season: "I'm spending the summer in Berlin", "staying with my parents for
//! the winter". It passes when the season does; "I spend every summer in Cornwall" is a
//! habit, read before this is.

use chrono::{Datelike, NaiveDate};

/// Verbs of being somewhere for a while.
const STAYS: &[&str] = &[
    "spending",
    "staying",
    "working",
    "living",
    "travelling",
    "traveling",
    "based",
    "renting",
    "subletting",
];

/// Days from `today` until the season the words name as a stay's has passed (northern
/// seasons: summer ends with August), if they name one.
pub(super) fn season_left(w: &[String], today: NaiveDate) -> Option<i64> {
    if !w.iter().any(|x| STAYS.contains(&x.as_str())) || w.iter().any(|x| x == "every") {
        return None;
    }
    let season = w.windows(2).find_map(|p| {
        matches!(p[0].as_str(), "the" | "this")
            .then(|| match p[1].as_str() {
                "summer" => Some((8, 31)),
                "autumn" | "fall" => Some((11, 30)),
                "winter" => Some((2, 28)),
                "spring" => Some((5, 31)),
                _ => None,
            })
            .flatten()
    })?;
    let end = |year| NaiveDate::from_ymd_opt(year, season.0, season.1);
    let end = end(today.year())
        .filter(|e| *e >= today)
        .or_else(|| end(today.year() + 1))?;
    Some((end - today).num_days())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(text: &str) -> Vec<String> {
        text.to_lowercase().split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn a_stay_for_a_season_ends_with_it() {
        let march = NaiveDate::from_ymd_opt(2026, 3, 4).unwrap();
        assert_eq!(season_left(&w("i'm spending the summer in berlin"), march), Some(180));
        assert_eq!(
            season_left(&w("staying with my parents for the winter"), march),
            Some(361)
        );
        assert_eq!(season_left(&w("i spend every summer in cornwall"), march), None);
        assert_eq!(season_left(&w("the summer was lovely"), march), None);
    }
}
