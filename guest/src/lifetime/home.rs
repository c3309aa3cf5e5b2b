//! Where one lives told with a word of a passing state: "I live in a windy city", "we live
//! in a freezing old farmhouse", "I live near a busy road, the traffic is constant". The
//! word tells what the home is like, and the home lasts.

/// Whether the words tell where the teller lives: "I live in / on / at / near ...", "we
/// live in ...", "I've lived in ...".
pub(super) fn told(w: &[String]) -> bool {
    w.windows(3).any(|p| {
        matches!(p[0].as_str(), "i" | "we" | "i've" | "we've")
            && matches!(p[1].as_str(), "live" | "lived")
            && (p[1] == "live" || p[0].ends_with("'ve"))
            && matches!(p[2].as_str(), "in" | "on" | "at" | "near" | "by" | "next")
    })
}

#[cfg(test)]
mod tests {
    use super::told;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn a_home_is_told_where_one_lives() {
        for text in [
            "i live in a windy city",
            "we live in a freezing old farmhouse",
            "i've lived near the airport",
        ] {
            assert!(told(&words(text)), "{text}");
        }
        for text in [
            "i'm living in a hostel at the moment",
            "i lived in paris",
            "we're staying in a hotel",
        ] {
            assert!(!told(&words(text)), "{text}");
        }
    }
}
