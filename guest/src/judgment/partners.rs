//! A partnership of the user's that ended: "Sofia and I broke up" after "My girlfriend is
//! Sofia", "Dan and I got divorced" after "I'm married to Dan". The two facts share a
//! name and little else, and their subjects differ ("my girlfriend", "Sofia"), so the
//! rules of one attribute do not meet them. This does, and only when the parting is the
//! user's own with the partner the old fact names: a friend's break-up, the bill split,
//! an ex of years ago or a break-up feared are not.

use super::fact::{Fact, Subject};
use super::slots::PARTNERS;
use super::someone::is_relation;
use super::words::{Word, stem};

/// Words that say a partnership ended, each with the words that must follow it.
const PARTINGS: &[&[&str]] = &[
    &["broke", "up"],
    &["broken", "up"],
    &["breaking", "up"],
    &["split", "up"],
    &["splitting", "up"],
    &["divorced"],
    &["divorcing"],
    &["separated"],
    &["dumped", "me"],
    &["left", "me"],
    &["ended", "things"],
    &["called", "it", "off"],
    &["longer", "together"],
    &["not", "together"],
    &["separate", "ways"],
    &["finished", "with"],
];

/// Words that begin a sentence without naming anyone, though written with a capital.
const NO_NAMES: &[&str] = &[
    "i",
    "my",
    "we",
    "our",
    "me",
    "so",
    "well",
    "sadly",
    "actually",
    "unfortunately",
    "yesterday",
    "today",
    "last",
    "after",
    "the",
    "oh",
    "just",
    "finally",
    "update",
    "anyway",
    "but",
    "and",
];

/// Words beside a name that make the old fact a partnership of the user's.
const PARTNERED: &[&str] = &["dating", "married", "engaged", "seeing", "together"];

/// Words that end a clause and begin another: "Aisha broke up with her ex before we met".
const CLAUSE_BREAKS: &[&str] = &[
    "but", "before", "after", "because", "when", "while", "so", "since", "though",
];

/// Words that make a parting not one: "we nearly broke up", "if we split up".
const HEDGES: &[&str] = &["nearly", "almost", "never", "might", "could", "would", "if"];

/// Whether `n` ends the partnership `o` states: in one clause, the user ("I", "we", "me")
/// and the old fact's partner (by name or relation, or no one else named) part. In `talk`
/// (turns of several sentences), only by the partner's name.
pub(super) fn parted(o: &Fact, n: &Fact, talk: bool) -> bool {
    let asks = |f: &Fact| f.words.iter().any(|w| w.asks);
    if o.denied || o.former || o.past || n.wish || asks(o) || asks(n) {
        return false;
    }
    // The new fact's parting first: most facts tell none, and every add weighs many pairs.
    let Some(clause) = parting_clause(&n.words) else {
        return false;
    };
    let Some((relation, partner)) = partnership(o) else {
        return false;
    };
    let lows: Vec<&str> = clause.iter().map(|w| w.low.as_str()).collect();
    let user = lows.iter().any(|w| matches!(*w, "i" | "we" | "me" | "us"));
    let hedged = lows.iter().any(|w| HEDGES.contains(w));
    // Whom it names is the old fact's partner, or it names no one: "I broke up with Emma
    // years ago" leaves "My girlfriend is Sofia".
    let named = names(clause);
    // The partner's name may come in lower case, as texts are written: "ryan and i aren't
    // together anymore".
    let partner_named = partner
        .as_ref()
        .is_some_and(|p| named.contains(p) || clause.iter().any(|w| &w.low == p));
    let relation_named = relation.as_ref().is_some_and(|r| clause.iter().any(|w| &w.stem == r));
    user && !hedged && (partner_named || (!talk && named.is_empty() && (relation_named || relation.is_none())))
}

/// Whether `n` tells that the user married the partner `o` is engaged to or dating: "Tom
/// and I got married in June!" after "I'm engaged to Tom", "We tied the knot" after "I'm
/// engaged"; or got engaged to the one `o` dates or means to propose to: "Sophie and I got
/// engaged!" after "My girlfriend is Sophie". The step replaces the one before; it ends
/// nothing else.
pub(super) fn married(o: &Fact, n: &Fact) -> bool {
    let asks = |f: &Fact| f.words.iter().any(|w| w.asks);
    if o.denied || o.former || o.past || n.wish || n.denied || asks(o) || asks(n) {
        return false;
    }
    let lows: Vec<&str> = n.words.iter().map(|w| w.low.as_str()).collect();
    let wed = lows
        .windows(2)
        .any(|p| matches!(p, ["got", "married"] | ["tied", "the"] | ["are", "married"]))
        || lows.windows(3).any(|p| p == ["tied", "the", "knot"])
        || lows.windows(2).any(|p| p[0] == "we" && p[1] == "married");
    // The user's own engagement: "Sophie and I got engaged", "we are engaged" (not "my
    // sister got engaged, I'm so happy"); "she said yes" only to a proposal the old fact
    // planned.
    let o_lows: Vec<&str> = o.words.iter().map(|w| w.low.as_str()).collect();
    let proposed = o_lows.iter().any(|w| matches!(*w, "propose" | "proposing"));
    let engaged = lows.iter().enumerate().any(|(e, w)| {
        *w == "engaged"
            && e > 0
            && matches!(lows[e - 1], "got" | "are" | "am" | "just" | "officially")
            && the_users(&lows, e)
    }) || proposed
        && lows
            .windows(3)
            .any(|p| matches!(p[0], "she" | "he") && p[1] == "said" && p[2] == "yes");
    let user = lows.iter().any(|w| matches!(*w, "i" | "we" | "me" | "us"));
    if !(wed || engaged) || !user || lows.iter().any(|w| HEDGES.contains(w)) {
        return false;
    }
    let before_wedding = o_lows
        .iter()
        .any(|w| matches!(*w, "engaged" | "fiance" | "fiancee" | "fiancé" | "fiancée" | "dating"));
    let before_engagement = o_lows
        .iter()
        .any(|w| matches!(*w, "girlfriend" | "boyfriend" | "dating" | "propose" | "proposing"));
    let step = (wed && before_wedding) || (engaged && !wed && before_engagement);
    if !step || !o_lows.iter().any(|w| matches!(*w, "i" | "we" | "my")) {
        return false;
    }
    // The partner the engagement names, if any, is the one married.
    let theirs = names(&o.words);
    let named = names(&n.words);
    theirs.is_empty() || named.is_empty() || theirs.iter().any(|t| named.contains(t))
}

/// Whether `n` tells the user has someone after `o` said they are single: "I've started
/// seeing someone, her name's Ana" after "I'm single".
pub(super) fn no_longer_single(o: &Fact, n: &Fact) -> bool {
    let asks = |f: &Fact| f.words.iter().any(|w| w.asks);
    if o.denied || o.former || o.past || n.denied || n.former || n.wish || asks(o) || asks(n) {
        return false;
    }
    // "I'm single", "I'm still single"; not "I'm a single mum" or "a single-storey house".
    let o_lows: Vec<&str> = o.words.iter().map(|w| w.low.as_str()).collect();
    let single = o_lows.iter().enumerate().any(|(i, w)| {
        *w == "single"
            && i > 0
            && matches!(
                o_lows[i - 1],
                "am" | "still" | "currently" | "happily" | "totally" | "completely"
            )
            && o_lows[..i].contains(&"i")
    });
    single && seeing_someone(n)
}

/// Whether the words tell the user has started seeing someone: "I've started seeing
/// someone", "I'm seeing a guy from work", "we started dating"; the user is the one seeing
/// (not "my brother's seeing someone new, I'm so jealous"), and no errand is told ("I'm
/// seeing a woman from the council about my benefit").
pub(super) fn seeing_someone(n: &Fact) -> bool {
    let lows: Vec<&str> = n.words.iter().map(|w| w.low.as_str()).collect();
    let seeing = (0..lows.len()).any(|i| {
        let p = &lows[i..];
        let someone = p.first() == Some(&"seeing")
            && (p.get(1).is_some_and(|w| matches!(*w, "someone" | "somebody"))
                || p.get(1) == Some(&"a")
                    && p.get(2)
                        .is_some_and(|w| matches!(*w, "guy" | "girl" | "man" | "woman" | "lad" | "bloke")));
        let dating = p.starts_with(&["started", "dating"]);
        (someone || dating) && the_users(&lows, i) && !p.contains(&"about")
    });
    seeing && !lows.iter().any(|w| HEDGES.contains(w))
}

/// Whether the word at `at` is told of the user: "I" or "we" among the four words before
/// it, and no one else's ("Sophie and I got engaged", not "my sister got engaged").
fn the_users(lows: &[&str], at: usize) -> bool {
    let before = &lows[at.saturating_sub(4)..at];
    before.iter().any(|b| matches!(*b, "i" | "we"))
        && !before
            .iter()
            .any(|b| matches!(*b, "my" | "his" | "her" | "their") || b.ends_with("'s"))
}

/// Words to find the partnership a parting may end, when `f` tells one of the user's:
/// the names in its clause, and the words a partnership is told with. "Sofia and I broke
/// up" shares little meaning with "My girlfriend is called Sofia", and names no attribute.
pub(super) fn parting_terms(f: &Fact) -> Option<Vec<String>> {
    let clause = parting_clause(&f.words)?;
    if !clause
        .iter()
        .any(|w| matches!(w.low.as_str(), "i" | "we" | "me" | "us"))
    {
        return None;
    }
    let mut terms: Vec<String> = names(clause)
        .into_iter()
        .filter(|n| n.chars().all(char::is_alphanumeric))
        .take(4)
        .collect();
    terms.extend(PARTNERS.iter().chain(PARTNERED).map(|w| (*w).to_owned()));
    terms.dedup();
    Some(terms)
}

/// The clause of the words that tells a partnership ended, if one does; not one that
/// goes on to a purpose ("we split up to cover the market").
fn parting_clause(words: &[Word]) -> Option<&[Word]> {
    let lows: Vec<&str> = words.iter().map(|w| w.low.as_str()).collect();
    let found = PARTINGS
        .iter()
        .find_map(|p| lows.windows(p.len()).position(|w| w == *p).map(|at| (at, at + p.len())))
        // "Sofia and I split last month", not "we split the bill".
        .or_else(|| {
            lows.iter().enumerate().find_map(|(i, w)| {
                let alone = words[i].stop
                    || lows.get(i + 1).is_none_or(|next| {
                        matches!(
                            *next,
                            "last" | "this" | "in" | "after" | "recently" | "yesterday" | "two" | "three"
                        )
                    });
                (*w == "split" && alone).then_some((i, i + 1))
            })
        });
    let (at, end) = found?;
    if lows.get(end) == Some(&"to") {
        return None;
    }
    let breaks = |i: usize| words[i].stop || CLAUSE_BREAKS.contains(&lows[i]);
    let start = (0..at).rev().find(|&i| breaks(i)).map_or(0, |i| i + 1);
    let stop = (end.saturating_sub(1)..words.len())
        .find(|&i| breaks(i))
        .map_or(words.len(), |i| i + 1);
    Some(&words[start..stop])
}

/// The partner a fact of the user's partnership names: its relation word's stem ("my
/// girlfriend") and the name (lowercased), each if told.
fn partnership(f: &Fact) -> Option<(Option<String>, Option<String>)> {
    let partner_word = |key: &str| PARTNERS.iter().any(|p| stem(p) == key);
    let named = names(&f.words[f.body.min(f.words.len())..]);
    // In a memory about one person, "my girlfriend" is read as that person: the relation
    // is then in the words before the body ("My girlfriend is called Emma", about Emma).
    // Not one whose relation follows: "Chloe is my wife's best friend".
    let before = &f.words[..f.body.min(f.words.len())];
    let told_relation = before
        .iter()
        .enumerate()
        .filter(|(k, w)| !(w.low.ends_with("'s") && before[k + 1..].iter().any(|v| is_relation(&v.low))))
        .map(|(_, w)| stem(w.low.trim_end_matches("'s")))
        .find(|s| partner_word(s));
    let my_partner = f.words[f.body.min(f.words.len())..]
        .windows(2)
        .find(|w| w[0].low == "my" && !w[1].low.ends_with("'s") && partner_word(&w[1].stem))
        .map(|w| w[1].stem.clone());
    match &f.subject {
        // "My girlfriend is Sofia", "my husband Tom works nights".
        Subject::Person(p) if partner_word(&p.key) => {
            Some((Some(p.key.clone()), p.name.clone().or_else(|| named.first().cloned())))
        }
        Subject::Person(p) if told_relation.is_some() => Some((
            told_relation,
            p.name
                .clone()
                .or_else(|| named.first().cloned())
                .or_else(|| Some(p.key.clone())),
        )),
        // "Chloe is my girlfriend".
        Subject::Person(p) if my_partner.is_some() => {
            Some((my_partner, Some(p.name.clone().unwrap_or_else(|| p.key.clone()))))
        }
        // "Sofia is who I'm seeing", "Dan is the one I married" ("Sofia and I" is "we":
        // below).
        Subject::Person(p)
            if f.words.iter().any(|w| w.low == "i") && f.words.iter().any(|w| PARTNERED.contains(&w.low.as_str())) =>
        {
            Some((None, Some(p.name.clone().unwrap_or_else(|| p.key.clone()))))
        }
        // "Sofia and I are together", "My partner Chris and I live together": the one told
        // before "and I".
        Subject::We if f.words.iter().any(|w| PARTNERED.contains(&w.low.as_str())) || told_relation.is_some() => {
            let companion = names(&f.words[..f.body.min(f.words.len())]).into_iter().next();
            (companion.is_some() || told_relation.is_some())
                .then(|| (told_relation, companion.or_else(|| named.first().cloned())))
        }
        // "I'm dating Marcus", "I'm married to Dan", "I have a girlfriend called Sofia".
        Subject::User | Subject::We => {
            let body = &f.words[f.body.min(f.words.len())..];
            let says = body
                .iter()
                .any(|w| PARTNERED.contains(&w.low.as_str()) || PARTNERS.contains(&w.low.as_str()));
            // "I'm married", unnamed: a parting that names no one else ends it.
            says.then(|| (None, named.first().cloned()))
        }
        _ => None,
    }
}

/// The names among the words, lowercased: words written with a capital that do not
/// begin a sentence by themselves ("My", "Yesterday").
fn names(words: &[Word]) -> Vec<String> {
    words
        .iter()
        .filter(|w| w.upper && !NO_NAMES.contains(&w.low.as_str()))
        .map(|w| w.low.trim_end_matches("'s").to_owned())
        .collect()
}
