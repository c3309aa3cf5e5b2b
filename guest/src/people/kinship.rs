//! Which relations can be one person's. A name is shared by many: "my brother Sam" and
//! "my son Sam" are two people, and so are "my wife Priya" and "my boss Priya". A
//! relation told in other words is the same one ("mum" and "mother"), and a partner's
//! changes with time ("girlfriend", then "wife"). Relations outside family, partners and
//! pets may meet in one person ("my colleague Sam" who is "my friend Sam").

/// Relations that one person holds at most one of, each with the words it is told by.
const KINDS: &[&[&str]] = &[
    &[
        "wife",
        "husband",
        "partner",
        "spouse",
        "girlfriend",
        "boyfriend",
        "fiance",
        "fiancee",
        "fiancé",
        "fiancée",
    ],
    &[
        "mum",
        "mom",
        "mother",
        "mommy",
        "mama",
        "ma",
        "stepmum",
        "stepmom",
        "stepmother",
    ],
    &["dad", "father", "daddy", "papa", "pa", "stepdad", "stepfather"],
    &["brother", "bro", "stepbrother", "half-brother"],
    &["sister", "sis", "stepsister", "half-sister"],
    &["son", "stepson"],
    &["daughter", "stepdaughter"],
    &["grandma", "grandmother", "granny", "gran", "nan", "nana", "nanna"],
    &["grandpa", "grandfather", "grandad", "granddad", "gramps"],
    &["grandson"],
    &["granddaughter"],
    &["aunt", "auntie", "aunty"],
    &["uncle"],
    &["cousin"],
    &["niece"],
    &["nephew"],
    &["mother-in-law"],
    &["father-in-law"],
    &["sister-in-law"],
    &["brother-in-law"],
    &["son-in-law"],
    &["daughter-in-law"],
    &["dog", "puppy"],
    &["cat", "kitten"],
    &["rabbit", "bunny"],
    &["horse", "pony"],
];

/// The kind a relation is of, by its last word ("older brother" is a brother's).
fn kind(relation: &str) -> Option<usize> {
    let head = relation.split_whitespace().last()?.to_lowercase();
    KINDS.iter().position(|words| words.contains(&head.as_str()))
}

/// Relations one person holds for a user at a time, by kind: a partner, a mother, a
/// father, a boss, a landlord. A new holder's name replaces the old one's.
const ONE_HOLDER: &[&[&str]] = &[
    KINDS[0],
    KINDS[1],
    KINDS[2],
    &["boss", "manager", "supervisor"],
    &["landlord", "landlady"],
    // Those who serve one: a user has one of each at a time.
    &["coach", "trainer"],
    &["dentist"],
    &["doctor", "gp"],
    &["vet"],
    &["therapist", "counsellor", "counselor"],
    &["accountant"],
    &["hairdresser", "barber"],
];

/// Whether two relations are one of a kind only one person holds at a time: "wife" and
/// "wife", "boss" and "manager"; not "brother" and "brother".
pub fn one_holder(a: &str, b: &str) -> bool {
    let head = |r: &str| r.split_whitespace().last().map(str::to_lowercase);
    let (Some(a), Some(b)) = (head(a), head(b)) else {
        return false;
    };
    ONE_HOLDER
        .iter()
        .any(|words| words.contains(&a.as_str()) && words.contains(&b.as_str()))
}

/// The words a one-holder relation is told by ("manager" for "boss"); none for another.
pub fn holder_words(relation: &str) -> &'static [&'static str] {
    let head = relation
        .split_whitespace()
        .last()
        .map(str::to_lowercase)
        .unwrap_or_default();
    ONE_HOLDER
        .iter()
        .find(|words| words.contains(&head.as_str()))
        .copied()
        .unwrap_or(&[])
}

/// Whether two relations cannot be one person's: both of family, partners or pets and of
/// two kinds, or one of those and the other anything else.
pub fn exclusive(a: &str, b: &str) -> bool {
    match (kind(a), kind(b)) {
        (Some(x), Some(y)) => x != y,
        (Some(_), None) | (None, Some(_)) => !a.eq_ignore_ascii_case(b),
        (None, None) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::exclusive;

    #[test]
    fn a_partner_or_a_boss_is_held_by_one_and_a_brother_by_many() {
        assert!(super::one_holder("wife", "wife"));
        assert!(super::one_holder("boss", "manager"));
        assert!(!super::one_holder("brother", "brother"));
        assert!(!super::one_holder("wife", "boss"));
    }

    #[test]
    fn two_kinds_of_kin_are_two_people_and_one_told_otherwise_is_one() {
        for (a, b) in [
            ("brother", "son"),
            ("wife", "boss"),
            ("wife", "dog"),
            ("son", "nephew"),
            ("wife", "sister"),
        ] {
            assert!(exclusive(a, b), "{a} / {b}");
        }
        for (a, b) in [
            ("mum", "mother"),
            ("girlfriend", "wife"),
            ("older brother", "brother"),
            ("colleague", "friend"),
            ("boss", "manager"),
        ] {
            assert!(!exclusive(a, b), "{a} / {b}");
        }
    }
}
