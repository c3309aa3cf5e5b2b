use super::*;

mod labelled_pairs;
mod pairs;

#[test]
fn the_rule_replaces_changed_values_of_one_attribute() {
    assert!(rule_says_replaces(
        "My favorite color is red",
        "My favorite color is blue"
    ));
    assert!(rule_says_replaces(
        "My favorite color is red.",
        "My favorite color is now blue"
    ));
    assert!(rule_says_replaces(
        "User's favorite color is red",
        "My favorite color is blue"
    ));
    assert!(rule_says_replaces("I live in Lisbon", "I live in Porto"));
    assert!(rule_says_replaces("I live in Lisbon", "I moved to Porto"));
    assert!(rule_says_replaces("I work at Acme", "I work for Globex"));
    assert!(rule_says_replaces(
        "Sarah's birthday is March 3",
        "Sarah's birthday is March 4"
    ));
}

#[test]
fn the_rule_keeps_both_when_in_doubt() {
    assert!(!rule_says_replaces("I like dogs", "I like cats"));
    assert!(!rule_says_replaces(
        "My favorite color is blue",
        "My favorite color is blue"
    ));
    assert!(!rule_says_replaces(
        "My favorite color is red",
        "My favorite food is pizza"
    ));
    assert!(!rule_says_replaces(
        "My favorite color is red",
        "Sarah's favorite color is blue"
    ));
    assert!(!rule_says_replaces("I live in Lisbon", "My favorite city is Porto"));
    assert!(!rule_says_replaces(
        "I'm allergic to peanuts",
        "I'm allergic to shellfish"
    ));
}

#[test]
fn only_a_clear_yes_counts() {
    assert_eq!(parse_verdict("yes"), Some(true));
    assert_eq!(parse_verdict(" Yes.\n"), Some(true));
    assert_eq!(parse_verdict("no"), Some(false));
    for unclear in ["", "maybe", "yes, probably", "Yes and no", "y", "{\"answer\": \"yes\"}"] {
        assert_eq!(parse_verdict(unclear), None, "{unclear:?}");
    }
}
