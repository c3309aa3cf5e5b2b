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
