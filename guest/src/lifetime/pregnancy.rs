//! A pregnancy told as now ("I'm pregnant", "my wife's pregnant with our second", "we're
//! expecting a baby") ends within forty weeks of being told, however early it was told:
//! kept past that, it says a baby is still on the way. A due date told with it ("due in
//! August") ends it sooner, by the rule of moments.

/// Days a pregnancy told as now lasts at most: forty weeks, as one told in its first
/// weeks would.
pub(super) const DAYS: i64 = 280;

/// Whether the words tell a pregnancy that holds now. "I was pregnant with Tom in 2019" is
/// history, and "if I get pregnant" a supposition.
pub(super) fn told_as_now(w: &[String]) -> bool {
    let at = w.iter().position(|x| x == "pregnant").or_else(|| {
        w.windows(2)
            .position(|p| p[0] == "expecting" && BABY.contains(&p[1].as_str()))
            .or_else(|| {
                w.windows(3).position(|p| {
                    p[0] == "expecting"
                        && matches!(p[1].as_str(), "a" | "our" | "my" | "their" | "her" | "another")
                        && BABY.contains(&p[2].as_str())
                })
            })
    });
    let Some(at) = at else {
        return false;
    };
    let before = &w[at.saturating_sub(3)..at];
    let now = before.iter().any(|x| {
        matches!(
            x.as_str(),
            "i'm" | "im" | "am" | "is" | "are" | "she's" | "we're" | "wife's" | "partner's" | "girlfriend's"
        )
    });
    let then = w[..at].iter().any(|x| {
        matches!(
            x.as_str(),
            "was" | "were" | "if" | "when" | "while" | "before" | "trying" | "hope" | "hoping"
        )
    });
    now && !then
}

/// Days a pregnancy told as now has left: forty weeks less the weeks or months it is told
/// to have run ("I'm 6 months pregnant", "she's 20 weeks pregnant", "7 months gone"), and
/// two weeks more, as babies come late. Told without them, all of [`DAYS`].
pub(super) fn days_left(w: &[String]) -> i64 {
    let run = w.windows(3).find_map(|p| {
        let n = count(&p[0])?;
        let unit = match p[1].as_str() {
            "week" | "weeks" | "wks" | "wk" => 7,
            "month" | "months" => 30,
            _ => return None,
        };
        // Forty-odd weeks at most: a larger count is no pregnancy's.
        (matches!(p[2].as_str(), "pregnant" | "gone" | "along" | "in") && (1..=45).contains(&n)).then_some(n * unit)
    });
    match run {
        Some(days) if days < DAYS => DAYS - days + 14,
        _ => DAYS,
    }
}

/// A count in figures or, as months are told, in words.
fn count(x: &str) -> Option<i64> {
    const WORDS: &[&str] = &["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
    x.parse::<u8>()
        .ok()
        .map(i64::from)
        .or_else(|| WORDS.iter().position(|n| *n == x).map(|i| i as i64 + 1))
}

/// What one expects when expecting a child.
const BABY: &[&str] = &[
    "baby", "twins", "triplets", "first", "second", "third", "child", "boy", "girl",
];

#[cfg(test)]
mod tests {
    use super::{days_left, told_as_now};
    use crate::lifetime::words as w;

    #[test]
    fn a_pregnancy_told_as_now_passes_and_one_told_as_history_stays() {
        for now in [
            "I'm pregnant!",
            "my wife's pregnant with our second",
            "We're expecting a baby",
            "we're expecting twins!!",
            "Sarah is pregnant again",
        ] {
            assert!(told_as_now(&w(now)), "{now}");
        }
        for not in [
            "I was pregnant with Tom in 2019",
            "We're trying to get pregnant",
            "if I get pregnant I'll stop",
            "I'm expecting a parcel today",
            "I love pregnant-belly photos",
        ] {
            assert!(!told_as_now(&w(not)), "{not}");
        }
    }

    #[test]
    fn a_pregnancy_told_with_its_months_has_the_rest_of_its_weeks_left() {
        assert_eq!(days_left(&w("I'm 6 months pregnant")), 280 - 180 + 14);
        assert_eq!(days_left(&w("she's 20 weeks pregnant with twins")), 280 - 140 + 14);
        assert_eq!(days_left(&w("I'm pregnant!")), 280);
        assert_eq!(
            days_left(&w("pregnant for 3 months now")),
            280,
            "no run told before the word"
        );
        assert_eq!(
            days_left(&w("I'm 11 months pregnant lol")),
            280,
            "no pregnancy runs past its weeks"
        );
        assert_eq!(days_left(&w("I'm -20000000 weeks pregnant")), 280);
        assert_eq!(days_left(&w("I'm 2000000000000000000 weeks pregnant")), 280);
    }
}
