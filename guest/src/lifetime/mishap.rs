//! The small mishaps and arrivals of a day, which pass: "can't find my keys", "left my
//! umbrella on the train", "cracked my phone screen", "phone's on 5%", "just got back
//! from the shops", "hurt my hand at the gym". A habit of them lasts ("I always lose my
//! keys"), and that is read before these are.

/// Things one carries about and so mislays, drops or breaks.
const BELONGINGS: &[&str] = &[
    "keys",
    "key",
    "phone",
    "wallet",
    "purse",
    "bag",
    "umbrella",
    "laptop",
    "charger",
    "coat",
    "jacket",
    "glasses",
    "sunglasses",
    "headphones",
    "earbuds",
    "airpods",
    "card",
    "lunch",
    "passport",
    "scarf",
    "hat",
    "gloves",
    "book",
    "notebook",
    "bottle",
    "mug",
    "cup",
    "ticket",
    "tickets",
    "screen",
];

/// Verbs of a mishap to a belonging: "left my umbrella", "dropped my phone".
const MISHAPS: &[&str] = &[
    "left",
    "forgot",
    "lost",
    "dropped",
    "cracked",
    "smashed",
    "broke",
    "spilled",
    "spilt",
    "misplaced",
    "mislaid",
];

/// Whether the words tell a mishap of the day or an arrival just now.
pub(super) fn of_the_day(w: &[String], raw: &str) -> bool {
    mislaid(w) || cannot_find(w) || battery(w, raw) || hurt(w) || arrived(w) || meal(w) || here_and_now(w)
}

/// A meal or a break just had or being had, and nothing more: "just had lunch", "grabbing
/// a coffee", "having a nap". Not "I have porridge for breakfast", a habit told with
/// "have", nor "had coffee with Sam and he proposed!!", news told over one.
pub(super) fn meal(w: &[String]) -> bool {
    if w.len() > 6 {
        return false;
    }
    w.iter().enumerate().any(|(i, verb)| {
        matches!(
            verb.as_str(),
            "had" | "having" | "grabbing" | "grabbed" | "ate" | "eating" | "making" | "made"
        ) && w[i + 1..(i + 3).min(w.len())].iter().any(|x| {
            matches!(
                x.as_str(),
                "lunch" | "breakfast" | "dinner" | "brunch" | "coffee" | "snack" | "sandwich" | "nap" | "shower"
            )
        })
    })
}

/// "the wifi in this cafe is terrible": what is said of the place one is in now. Not "I own
/// this cafe" or "I've worked at this hotel for 5 years".
fn here_and_now(w: &[String]) -> bool {
    let lasting = w.iter().any(|x| {
        matches!(
            x.as_str(),
            "own"
                | "owns"
                | "run"
                | "runs"
                | "work"
                | "works"
                | "worked"
                | "working"
                | "manage"
                | "manages"
                | "since"
                | "years"
        )
    });
    !lasting
        && w.windows(3).any(|p| {
            matches!(p[0].as_str(), "in" | "at")
                && p[1] == "this"
                && matches!(
                    p[2].as_str(),
                    "cafe"
                        | "café"
                        | "hotel"
                        | "restaurant"
                        | "train"
                        | "bus"
                        | "airport"
                        | "pub"
                        | "bar"
                        | "queue"
                        | "airbnb"
                )
        })
}

/// "left my umbrella on the train", "cracked my phone screen": a mishap's verb, then one's
/// belonging within the next three words.
fn mislaid(w: &[String]) -> bool {
    w.iter().enumerate().any(|(i, x)| {
        MISHAPS.contains(&x.as_str())
            && w.get(i + 1)
                .is_some_and(|d| matches!(d.as_str(), "my" | "our" | "the" | "his" | "her"))
            && w[i + 2..(i + 5).min(w.len())].iter().enumerate().any(|(k, t)| {
                // "left the book club", "left my card group": a group left, not a thing.
                BELONGINGS.contains(&t.as_str())
                    && !w
                        .get(i + 3 + k)
                        .is_some_and(|n| matches!(n.as_str(), "club" | "group" | "circle" | "team"))
            })
    })
}

/// "can't find my keys", "cannot find our passports": one's own thing, not "I can't find
/// size 12 shoes anywhere where I live".
fn cannot_find(w: &[String]) -> bool {
    w.windows(3).any(|p| {
        matches!(p[0].as_str(), "can't" | "cannot" | "cant")
            && p[1] == "find"
            && matches!(p[2].as_str(), "my" | "our" | "the")
    })
}

/// "phone's on 5%", "battery at 10%"; not "my savings are at 5%".
fn battery(w: &[String], raw: &str) -> bool {
    if !w.iter().any(|x| {
        matches!(
            x.as_str(),
            "phone" | "phone's" | "battery" | "laptop" | "laptop's" | "charge"
        )
    }) {
        return false;
    }
    let low = raw.to_lowercase();
    ["on ", "at "].iter().any(|before| {
        low.match_indices(before).any(|(at, _)| {
            let rest = &low[at + before.len()..];
            let digits = rest.chars().take_while(char::is_ascii_digit).count();
            digits > 0 && digits <= 3 && rest[digits..].starts_with('%')
        })
    })
}

/// "hurt my left hand", "pulled a muscle", "twisted my ankle".
fn hurt(w: &[String]) -> bool {
    w.windows(2).any(|p| {
        matches!(
            p[0].as_str(),
            "hurt" | "twisted" | "pulled" | "bruised" | "stubbed" | "banged" | "cut" | "burnt" | "burned"
        ) && matches!(p[1].as_str(), "my" | "a")
    }) && !w.iter().any(|x| matches!(x.as_str(), "ago" | "years" | "since"))
}

/// "just got back from the shops", "got home from work": an arrival, not a beginning
/// ("I got back into running" is one).
fn arrived(w: &[String]) -> bool {
    w.windows(2).enumerate().any(|(i, p)| {
        matches!(p[0].as_str(), "got" | "get" | "getting")
            && match p[1].as_str() {
                "home" | "here" | "there" | "in" => true,
                "back" => w
                    .get(i + 2)
                    .is_none_or(|n| !matches!(n.as_str(), "into" | "together" | "to" | "with" | "on")),
                _ => false,
            }
    })
}

/// Whether `got` at `i` begins a lasting thing: "got a dog", "got into climbing", not
/// "got stung by a wasp", "got home" or a trip ("got a lift in with my neighbour today").
pub(super) fn got_something(w: &[String], i: usize) -> bool {
    let trip = w[i + 1..(i + 3).min(w.len())]
        .iter()
        .any(|x| matches!(x.as_str(), "lift" | "ride" | "taxi" | "cab" | "uber"));
    !trip
        && w.get(i + 1).is_some_and(|n| {
            matches!(
                n.as_str(),
                "a" | "an"
                    | "the"
                    | "my"
                    | "our"
                    | "into"
                    | "some"
                    | "two"
                    | "three"
                    | "back"
                    | "rid"
                    | "engaged"
                    | "married"
            )
        })
        && !arrived(&w[i..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(text: &str) -> Vec<String> {
        text.to_lowercase().split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn a_mishap_or_an_arrival_of_the_day() {
        for day in [
            "can't find my keys anywhere",
            "i left my umbrella on the train this morning",
            "cracked my phone screen",
            "phone's on 5% so i might drop off",
            "hurt my hand at the gym",
            "just got back from the shops",
            "just got home from work",
        ] {
            assert!(of_the_day(&w(day), day), "{day}");
        }
        for not in [
            "i can't find size 12 shoes anywhere",
            "i got back into running last year",
            "i left my job at the bank",
            "i lost my sense of smell after covid",
            "we saved 5% on the mortgage",
            "my savings account is at 5%",
        ] {
            assert!(!of_the_day(&w(not), not), "{not}");
        }
    }

    #[test]
    fn got_begins_a_thing_only_with_a_thing() {
        let begins = |s: &str| {
            let w = w(s);
            w.iter().position(|x| x == "got").is_some_and(|i| got_something(&w, i))
        };
        assert!(begins("we got a dog last year"));
        assert!(begins("i got back into running last year"));
        assert!(!begins("got stung by a wasp earlier"));
        assert!(!begins("just got back from the shops"));
    }
}
