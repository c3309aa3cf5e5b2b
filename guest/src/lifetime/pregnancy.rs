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

/// What one expects when expecting a child.
const BABY: &[&str] = &[
    "baby", "twins", "triplets", "first", "second", "third", "child", "boy", "girl",
];

#[cfg(test)]
mod tests {
    use super::told_as_now;
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
}
