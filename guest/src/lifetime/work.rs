//! One's work told: "I work as an air traffic controller", "I work at the airport", "I'm a
//! driving instructor", "my job is in air traffic control". A word that tells a passing
//! state elsewhere ("traffic", "airport", "driving", "waiting") names the work here, and
//! work lasts.

use crate::judgment::is_occupation;

/// Whether the words tell where or as what the teller works: "I work as / at / in / for
/// ...", "my job is ...", or "I'm a" with an occupation within the next few words.
pub(super) fn told(w: &[String]) -> bool {
    let works = w.windows(3).any(|p| {
        matches!(p[0].as_str(), "i" | "we")
            && p[1] == "work"
            && matches!(p[2].as_str(), "as" | "at" | "in" | "for" | "on")
    });
    let job = w.windows(3).any(|p| {
        p[0] == "my" && matches!(p[1].as_str(), "job" | "job's" | "work's") && (p[1] != "job" || p[2] == "is")
    });
    let role = w.windows(2).enumerate().any(|(i, p)| {
        matches!(p[0].as_str(), "i'm" | "im" | "am")
            && matches!(p[1].as_str(), "a" | "an")
            && w[i + 2..(i + 6).min(w.len())].iter().any(|x| is_occupation(x))
    });
    works || job || role
}

#[cfg(test)]
mod tests {
    use super::told;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn work_is_told_where_and_as_what_one_works() {
        for text in [
            "i work as an air traffic controller at heathrow",
            "i work at the airport",
            "i'm a driving instructor",
            "my job is in air traffic control",
            "we work for a waiting list charity",
        ] {
            assert!(told(&words(text)), "{text}");
        }
        for text in [
            "stuck in traffic on the way to work",
            "i'm a bit tired",
            "at the airport, flight delayed",
        ] {
            assert!(!told(&words(text)), "{text}");
        }
    }
}
