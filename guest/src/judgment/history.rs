//! A fact told as long past: "I got divorced from my first husband back in 2010", "I got
//! fired from my first ever job years ago", "I broke up with Emma years ago". It tells
//! history, which ends nothing the user holds now ("I'm married", "I'm a software
//! engineer"), unless it also says what holds now ("I left the church years ago, I'm not
//! religious anymore").

use super::fact::Fact;
use super::words::CHANGE_MARKERS;

/// Whether `f` places what it tells long ago: "years ago", "decades ago", "as a kid",
/// "when I was 12", "back in 2010" (a year; "back in January" may be weeks ago), and says
/// nothing of now, in its words or in the tense of its first clause.
pub(super) fn long_ago(f: &Fact) -> bool {
    let lows: Vec<&str> = f.words.iter().map(|w| w.low.as_str()).collect();
    let now = lows
        .iter()
        .any(|w| CHANGE_MARKERS.contains(w) || matches!(*w, "longer" | "anymore" | "nowadays"));
    let dated = lows.windows(2).any(|p| match p {
        [ago_of, "ago"] => matches!(*ago_of, "years" | "decades" | "yrs"),
        ["as", kid] | ["when", kid] => matches!(*kid, "kid" | "child" | "teenager" | "teen" | "student"),
        // "in my twenties", "in my 20s".
        ["my", decade] => {
            matches!(
                *decade,
                "teens" | "twenties" | "thirties" | "forties" | "fifties" | "20s" | "30s" | "40s" | "50s"
            )
        }
        _ => false,
    }) || lows.windows(3).any(|p| match p {
        ["when", "i", "was"] => true,
        ["back", "in", year] => year.len() == 4 && year.chars().all(|c| c.is_ascii_digit()),
        _ => false,
    });
    dated && !now && !told_in_the_present(f)
}

/// Whether the first clause says what is: "I have type 1 diabetes, diagnosed when I was
/// 12" tells the diabetes, which holds.
fn told_in_the_present(f: &Fact) -> bool {
    f.words[f.body.min(f.words.len())..]
        .iter()
        .take_while(|w| !w.stop)
        .any(|w| matches!(w.low.as_str(), "am" | "is" | "are" | "have" | "has" | "do" | "does"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::supersession::RuleContext;

    fn long_ago_read(text: &str) -> bool {
        long_ago(&Fact::read(text, &RuleContext::default()))
    }

    #[test]
    fn history_is_told_with_a_time_long_past() {
        assert!(long_ago_read("I got divorced from my first husband back in 2010"));
        assert!(long_ago_read("I got fired from my first ever job years ago"));
        assert!(long_ago_read("our old dog passed away when I was 12"));
        assert!(!long_ago_read(
            "I stopped volunteering at the food bank back in January"
        ));
        assert!(!long_ago_read("I'm not religious anymore, I left the church years ago"));
        assert!(!long_ago_read("we broke up last week"));
        assert!(!long_ago_read("I have type 1 diabetes, diagnosed when I was 12"));
    }
}
