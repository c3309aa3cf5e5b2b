//! A fact read for the judgment: whom it is about, whether it is denied or past, and the
//! set of words that carry what it says.

use std::collections::BTreeSet;

use super::someone::{Someone, is_relation, relation};
use super::word_order::in_usual_order;
use super::words::{CHANGE_MARKERS, FILLER, FUNCTION, Word, is_generic, words};
use crate::supersession::RuleContext;

/// Whom a fact is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Subject {
    /// The user ("I", "my car", or no subject at all in a personal memory).
    User,
    /// "We", "our": a group, or the user's household.
    We,
    /// Someone else: a name, "my sister", "Tom's wife", "she".
    Person(Someone),
    /// "I" in a group chat: whoever said it.
    Speaker,
}

/// Words that follow a name at the start of a fact: "Tom works at ...", "Sarah is ...".
pub(super) const NAME_VERBS: &[&str] = &[
    "is", "was", "has", "had", "lives", "works", "worked", "likes", "loves", "hates", "moved", "got", "just", "now",
    "does", "did", "can", "will", "and", "finally", "recently", "started", "left", "quit", "joined", "drives", "plays",
    "speaks", "eats", "prefers", "wants", "needs", "became", "retired", "used", "goes", "went", "still", "lost",
    "studies", "teaches", "owns", "runs", "uses", "switched", "turned", "took", "got", "broke", "married", "supports",
    "votes", "follows",
];

/// Verbs in the past that do not end in "-ed": "Dad sold his Fiesta".
pub(super) const PASTS: &[&str] = &[
    "sold", "bought", "made", "lost", "went", "came", "told", "said", "found", "kept", "won", "sent", "spent", "paid",
    "ran", "drove", "gave", "wrote", "fell", "felt", "thought", "brought", "caught", "chose", "began", "sat", "met",
    "put", "cut", "hit", "let", "set", "sang", "swam", "flew", "grew", "knew", "threw", "wore", "woke", "slept",
];

/// Those told with "the" who are the teller's kin: "the kids", "the twins".
const THE_KIN: &[&str] = &[
    "kid",
    "kids",
    "boys",
    "girls",
    "twins",
    "toddler",
    "teens",
    "teenagers",
    "grandkids",
];

/// Words that deny the fact, or end what it states ("I quit smoking").
const DENIALS: &[&str] = &[
    "not", "never", "no", "nope", "quit", "quitting", "stopped", "stop", "ditched", "dropped", "nobody", "none",
    "neither", "nor", "longer", "anymore", "sold",
];

/// Asides whose "not" denies nothing of the fact told before them: "I support Spurs now,
/// long story, don't ask". At the start ("don't ask, my sister votes Green now") the fact's
/// subject is not yet read, and the aside still denies.
const ASIDES: &[&[&str]] = &[
    &["do", "not", "ask"],
    &["do", "not", "judge"],
    &["do", "not", "laugh"],
    &["no", "joke"],
    &["no", "kidding"],
    &["not", "kidding"],
    &["no", "offence"],
    &["no", "offense"],
];

/// Phrases that end what follows them.
const ENDINGS: &[&[&str]] = &[
    &["gave", "up"],
    // "packed in the gym", "jacked in my job".
    &["packed", "in"],
    &["packing", "in"],
    &["jacked", "in"],
    &["given", "up"],
    &["give", "up"],
    &["broke", "up"],
    &["split", "up"],
    &["got", "rid"],
    &["cut", "out"],
    &["moved", "out"],
    &["no", "more"],
];

/// Words that say the fact held once and no longer does.
const FORMER: &[&str] = &["used", "former", "formerly", "ex", "previously"];

/// Words that put the fact in the past without saying it ended: "I was born in Leeds".
const PAST: &[&str] = &[
    "was", "were", "had", "did", "once", "grew", "been", "worked", "lived", "studied", "owned", "taught", "rented",
];

/// Words that make the fact a wish, a plan or a doubt rather than what holds.
pub(super) const WISH: &[&str] = &[
    "want",
    "would",
    "hope",
    "hoping",
    "planning",
    "someday",
    "one",
    "dream",
    "wish",
    "thinking",
    "considering",
    // A job applied for is no job yet: "I'm applying for a job at Aldi".
    "applying",
    "applied",
    "maybe",
    "might",
    "will",
    "could",
    "should",
    "if",
];

/// A fact as the judgment reads it.
#[derive(Debug, Clone)]
pub(super) struct Fact {
    pub(super) words: Vec<Word>,
    /// Who said it, when it is told as a line of a transcript ("Ana: I moved to Porto").
    pub(super) speaker: Option<String>,
    /// Where the words after the speaker's name begin.
    pub(super) lead: usize,
    pub(super) subject: Subject,
    /// Where the subject's words end.
    pub(super) body: usize,
    pub(super) denied: bool,
    pub(super) former: bool,
    pub(super) past: bool,
    pub(super) wish: bool,
    /// The stems that carry what the fact says.
    pub(super) content: BTreeSet<String>,
    /// Every stem but filler, in order: two facts with the same are the same words.
    pub(super) plain: Vec<String>,
    /// The content stems of the whole fact, its subject's included.
    pub(super) all: BTreeSet<String>,
}

impl Fact {
    pub(super) fn read(text: &str, ctx: &RuleContext) -> Fact {
        let (speaker, lead) = speaker(text);
        // A line of a transcript is read as said.
        let usual = match speaker {
            None => in_usual_order(text, &ctx.subject_names),
            Some(_) => std::borrow::Cow::Borrowed(text),
        };
        let words = words(&usual);
        let (subject, body) = subject(&words[lead.min(words.len())..], ctx);
        let body = body + lead;
        let lows: Vec<&str> = words.iter().map(|w| w.low.as_str()).collect();
        let ending = ENDINGS.iter().any(|e| lows.windows(e.len()).any(|w| w == *e));
        let aside = |i: usize| {
            ASIDES
                .iter()
                .any(|a| (i.saturating_sub(a.len() - 1)..=i).any(|s| lows.get(s..s + a.len()) == Some(*a)))
        };
        let denied = ending
            || lows
                .iter()
                .enumerate()
                .skip(body)
                .any(|(i, w)| DENIALS.contains(w) && !(i > body + 2 && aside(i)));
        let tail = &lows[body.min(lows.len())..];
        let former =
            lows.windows(2).any(|w| w == ["used", "to"]) || tail.iter().any(|w| FORMER.contains(w) && *w != "used");
        // The tense of the first clause: "we moved to York, rent was insane" is a move, not
        // history. A greeting before it ("Hey Nate!", "Wow!") is no clause of the fact.
        let rest = &words[body.min(words.len())..];
        let mut from = 0;
        let first_clause = loop {
            let end = rest[from..]
                .iter()
                .position(|w| w.stop)
                .map_or(rest.len(), |k| from + k + 1);
            if end - from >= 3 || end >= rest.len() {
                break end;
            }
            from = end;
        };
        // "I've been vegan for years", "I've had it since 2021": the perfect holds now.
        let past = tail[..first_clause]
            .iter()
            .enumerate()
            .any(|(k, w)| PAST.contains(w) && !(k > 0 && matches!(tail[k - 1], "have" | "has")));
        // "I'm going to Japan", "I'm moving to Berlin next year" are plans; "I stopped going
        // to yoga", "I love going to gigs" tell a habit.
        let plan = |k: usize| {
            [
                &["going", "to"][..],
                &["moving", "to"],
                &["moving", "back", "to"],
                &["relocating", "to"],
            ]
            .iter()
            .any(|p| lows[k..].starts_with(p))
                && !(k > 0
                    && matches!(
                        lows[k - 1],
                        "stopped"
                            | "stop"
                            | "quit"
                            | "started"
                            | "start"
                            | "keep"
                            | "kept"
                            | "been"
                            | "enjoy"
                            | "enjoyed"
                            | "love"
                            | "like"
                            | "hate"
                            | "miss"
                            | "avoid"
                            | "up"
                    ))
        };
        // A reason told after the first clause is no wish of the fact's: "dropped the
        // spanish, doing japanese instead since we're going to tokyo next year". Nor is a
        // later "couldn't", an ability denied: "..., couldn't justify the price anymore".
        let reason = (body..lows.len())
            .find(|&i| matches!(lows[i], "since" | "because" | "cos") && words[body..i].iter().any(|w| w.stop));
        let until = reason.unwrap_or(lows.len());
        // ("couldn't go to mum's on Sunday" in the first clause is one occasion missed.)
        let ability_denied =
            |i: usize| lows[i] == "could" && lows.get(i + 1) == Some(&"not") && words[body..i].iter().any(|w| w.stop);
        let wish = (body..until).any(|i| WISH.contains(&lows[i]) && !ability_denied(i))
            || (0..until).any(plan)
            || lows.windows(2).any(|w| w == ["love", "to"])
            // Someone else's wish for the teller: "my gf keeps telling me to quit".
            || lows[..until].windows(3).any(|w| {
                w[1] == "me"
                    && w[2] == "to"
                    && matches!(w[0], "telling" | "wants" | "want" | "wanting" | "nagging" | "begging" | "urging")
            })
            // A guess of someone's: "I think my brother moved to York".
            || lows[..body.min(lows.len())].windows(2).any(|w| w[0] == "i" && matches!(w[1], "think" | "guess" | "reckon"))
            // "we plan to move", not "my phone plan".
            || lows.windows(2).any(|w| matches!(w, ["plan", "to" | "on" | "is"]))
            || lows.contains(&"plan's");
        let content = telling(&words[body.min(words.len())..], &is_ignored);
        let all = telling(&words, &is_ignored);
        let plain = words
            .iter()
            .filter(|w| !FILLER.contains(&w.low.as_str()))
            .map(|w| w.stem.clone())
            .collect();
        Fact {
            words,
            speaker,
            lead,
            subject,
            body,
            denied,
            former,
            past,
            wish,
            content,
            plain,
            all,
        }
    }

    /// What the fact is mainly about: the first [`TOPIC_WORDS`] telling stems of the first
    /// clause of its first sentence, and of each later sentence that opens with a subject
    /// of its own ("I", "we", "my", ...). What a denial ends must be among them: "I hate
    /// not being on the court" ends nothing of a long turn that mentions a court in passing.
    pub(super) fn topic(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let mut words = &self.words[self.lead.min(self.words.len())..];
        let mut first = true;
        while !words.is_empty() {
            let len = words.iter().position(|w| w.end).map_or(words.len(), |e| e + 1);
            let (sentence, rest) = words.split_at(len);
            let opens = sentence
                .iter()
                .find(|w| !is_lead(&w.low))
                .is_some_and(|w| matches!(w.low.as_str(), "i" | "we" | "my" | "our" | "he" | "she" | "they"));
            if first || opens {
                // Its first clause: "So much happened, on and off the court" is not about
                // the court.
                let clause = sentence.iter().position(|w| w.stop).map_or(sentence.len(), |e| e + 1);
                out.extend(
                    sentence[..clause]
                        .iter()
                        .filter(|w| !is_ignored(w) && !is_generic(&w.stem))
                        .take(TOPIC_WORDS)
                        .map(|w| w.stem.clone()),
                );
            }
            first = false;
            words = rest;
        }
        out
    }

    /// How many sentences the fact tells.
    pub(super) fn sentences(&self) -> usize {
        let words = &self.words[self.lead.min(self.words.len())..];
        words.iter().filter(|w| w.end).count() + usize::from(words.last().is_some_and(|w| !w.end))
    }

    /// The lowercased words after the subject.
    pub(super) fn body_lows(&self) -> Vec<&str> {
        self.words[self.body.min(self.words.len())..]
            .iter()
            .map(|w| w.low.as_str())
            .collect()
    }
}

/// How many telling words of a sentence say what it is about (see [`Fact::topic`]).
const TOPIC_WORDS: usize = 5;

/// Words that carry nothing a fact says: its frame, filler, and the words that deny,
/// end, put in the past or wish.
pub(super) fn is_ignored(w: &Word) -> bool {
    let low = w.low.as_str();
    FUNCTION.contains(&low)
        || FILLER.contains(&low)
        || CHANGE_MARKERS.contains(&low)
        || DENIALS.contains(&low)
        || FORMER.contains(&low)
        || PAST.contains(&low)
        || WISH.contains(&low)
        || matches!(
            low,
            "gave" | "given" | "give" | "giving" | "broke" | "rid" | "out" | "more" | "split" | "going" | "plan"
        )
}

/// The speaker a transcript's line opens with ("Ana: ...", "Tom Reed: ..."), lowercased,
/// and how many words the name takes, which are read past as leading words. A label
/// ("Note: ...") is read past too but names no speaker (`crate::speaker`).
fn speaker(text: &str) -> (Option<String>, usize) {
    match crate::speaker::opening(text) {
        Some(crate::speaker::Opening::Speaker(name)) => (Some(name.to_lowercase()), words(name).len()),
        Some(crate::speaker::Opening::Label(label)) => (None, words(label).len()),
        None => (None, 0),
    }
}

/// The stems that carry what some words say. A number is bound to the word before it, so
/// that "item 1 in box 7" is not "item 0 in box 0" and more.
fn telling(words: &[Word], ignored: &impl Fn(&Word) -> bool) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (i, w) in words.iter().enumerate() {
        if ignored(w) {
            continue;
        }
        if w.stem.chars().all(|c| c.is_ascii_digit()) && i > 0 {
            // "I have two kids" and "I've got 2 children" bind the count to one having.
            let before = match words[i - 1].low.as_str() {
                "got" | "has" | "had" => "hav",
                _ => words[i - 1].stem.as_str(),
            };
            out.insert(format!("{before}#{}", w.stem));
        } else {
            out.insert(w.stem.clone());
        }
    }
    out
}

/// Whether the facts name two people who cannot be one ("my ex-wife" and "my wife"), so
/// that the same words about each are two facts.
pub(super) fn two_people(a: &Subject, b: &Subject) -> bool {
    matches!((a, b), (Subject::Person(a), Subject::Person(b)) if !a.may_be(b))
}

/// Whether two subjects can be one: the same, or the user and "we" in a personal memory.
pub(super) fn same_subject(a: &Subject, b: &Subject) -> bool {
    match (a, b) {
        (Subject::User, Subject::We) | (Subject::We, Subject::User) => true,
        (Subject::Speaker, _) | (_, Subject::Speaker) => false,
        (Subject::Person(a), Subject::Person(b)) => a.may_be(b),
        _ => a == b,
    }
}

/// Leading words that say nothing about whom the fact is about.
pub(super) fn is_lead(low: &str) -> bool {
    FILLER.contains(&low)
        || matches!(
            low,
            "correction" | "update" | "sorry" | "also" | "now" | "these" | "days" | "nowadays" | "anyway" | "but"
        )
}

/// Whom the words are about, and where the rest of the fact begins.
fn subject(words: &[Word], ctx: &RuleContext) -> (Subject, usize) {
    let mut i = 0;
    while i < words.len() && is_lead(&words[i].low) {
        i += 1;
    }
    // "Weird, I heard ...", "Guess what, we ...", "Mate, I quit smoking": an aside of a
    // word or two before the teller's own clause.
    // Not a clause of its own with a verb: "cancelled spotify, I'm using apple music now".
    let verb =
        |w: &Word| w.low.ends_with("ed") || PASTS.contains(&w.low.as_str()) || NAME_VERBS.contains(&w.low.as_str());
    if let Some(k) = words[i..].iter().take(2).position(|w| w.stop)
        && !words[i..=i + k].iter().any(verb)
        && words
            .get(i + k + 1)
            .is_some_and(|w| matches!(w.low.as_str(), "i" | "we"))
    {
        i += k + 1;
    }
    let names: Vec<String> = ctx.subject_names.iter().map(|n| n.to_lowercase()).collect();
    let one_name = (names.len() == 1).then(|| names[0].clone());
    // In a memory about one person, "she", "my wife" and "Sarah" are that person; "Sarah's
    // mum" is someone else.
    let direct = |someone: Subject| match &one_name {
        Some(name) => Someone::called(name.clone()),
        None => someone,
    };
    let Some(first) = words.get(i) else {
        return (Subject::User, i);
    };
    let me = me_of(ctx);
    let (subject, body) = match first.low.as_str() {
        "i" => (me, i + 1),
        // "me and tom both stopped", "me and my sister moved": the two of them, to the
        // verb (a name or a relation of at most three words).
        "me" if words.get(i + 1).is_some_and(|w| w.low == "and") => {
            let verb = (i + 3..(i + 6).min(words.len())).find(|&k| {
                let low = words[k].low.as_str();
                NAME_VERBS.contains(&low)
                    || PASTS.contains(&low)
                    || (low.len() > 4 && low.ends_with("ed"))
                    || matches!(low, "both" | "are" | "have")
            });
            match verb {
                Some(k) => (Subject::We, k + usize::from(words[k].low == "both")),
                None => (me, i),
            }
        }
        "we" => (Subject::We, i + 1),
        // "You can reach me on ...": told to the assistant, of the one who tells it.
        "you" => (me, i + 1),
        "he" | "she" | "they" => (direct(Someone::called(first.low.clone())), i + 1),
        // "The kids have gone vegetarian": the teller's children, not the teller.
        "the" if words.get(i + 1).is_some_and(|w| THE_KIN.contains(&w.low.as_str())) => {
            (direct(Someone::called(words[i + 1].low.clone())), i + 2)
        }
        "his" | "her" | "their" => match relation(&words[i + 1..]) {
            Some((someone, used)) => (someone.of(&first.low), i + 1 + used),
            None => (direct(Someone::called(first.low.clone())), i + 1),
        },
        owner @ ("my" | "our") => match relation(&words[i + 1..]) {
            Some((someone, used)) => (direct(Subject::Person(someone)), i + 1 + used),
            None if owner == "my" => (me, i + 1),
            None => (Subject::We, i + 1),
        },
        _ => {
            let low = first.low.trim_end_matches("'s").to_owned();
            let named = names
                .iter()
                .any(|n| *n == low || n.split(' ').next() == Some(low.as_str()));
            let possessive = first.low.ends_with("'s") && first.low.len() > 2;
            if possessive {
                // "Sarah's husband" is not Sarah; "Sarah's birthday" is hers.
                match relation(&words[i + 1..]) {
                    Some((someone, used)) => (someone.of(&low), i + 1 + used),
                    // "Dad's a plumber": a relation's "'s" is "is".
                    None if named || one_name.is_none() || is_relation(&low) => (direct(Someone::called(low)), i + 1),
                    None => (Someone::called(low), i + 1),
                }
            } else if named
                || ((first.cap || first.upper)
                    && words.get(i + 1).is_some_and(|w| NAME_VERBS.contains(&w.low.as_str())))
            {
                let someone = Someone::called(low);
                (if named { direct(someone) } else { someone }, i + 1)
            } else if let Some((someone, used)) = relation(&words[i..]).and_then(|(mut someone, used)| {
                // "dad finally retired", "gran turned 90", "Uncle Ray has moved": a relation
                // told without "my", and its name, before its verb ("Partner at Deloitte"
                // is the user's job).
                let verb = |k: usize| {
                    words.get(k).is_some_and(|w| {
                        NAME_VERBS.contains(&w.low.as_str()) || w.low.ends_with("ed") || PASTS.contains(&w.low.as_str())
                    })
                };
                // The name, in lower case too when a verb follows it ("aunt joy lives"); one
                // with "'s" is the subject's own ("aunt joy's house is in swansea").
                let at = i + used;
                let named = words.get(at).filter(|w| {
                    !verb(at)
                        && w.low.chars().all(|c| c.is_alphabetic() || c == '\'')
                        && (w.cap || w.low.ends_with("'s") || (verb(at + 1) && words[at + 1].low != "and"))
                });
                let owner = named.is_some_and(|w| w.low.ends_with("'s"));
                let used = used + usize::from(named.is_some());
                someone.name = named.map(|w| w.low.trim_end_matches("'s").to_owned()).or(someone.name);
                (owner || verb(i + used)).then_some((someone, used))
            }) {
                (direct(Subject::Person(someone)), i + used)
            } else if one_name.is_none() && (told_of_a_third(words, i) || named_then_told_of(words, i)) {
                // "gaz from work traded his ranger in": a name told in lower case, known by
                // the "his" that follows it, with nothing of the teller's own.
                (Someone::called(low), i + 1)
            } else {
                // No subject: "Allergic to peanuts", "Works at Acme".
                match &one_name {
                    Some(name) => (Someone::called(name.clone()), i),
                    None => (me, i),
                }
            }
        }
    };
    let (mut subject, mut body) = nested(words, subject, body);
    // "I heard Tom doesn't take the bus anymore", "turns out my neighbour stopped cycling":
    // hearsay is of whom the clause it reports tells ("I heard back, got the job" is still
    // the teller's).
    if subject == me_of(ctx)
        && let Some(from) = hearsay(words, body)
        && let (reported @ Subject::Person(_), at) = self::subject(&words[from..], ctx)
    {
        (subject, body) = (reported, from + at);
    }
    // "Tom and I carpool now": the two of them.
    if matches!(subject, Subject::Person(_))
        && words.get(body).is_some_and(|w| w.low == "and")
        && words
            .get(body + 1)
            .is_some_and(|w| matches!(w.low.as_str(), "i" | "me"))
    {
        return (Subject::We, body + 2);
    }
    // "my doctor took me off metformin", "they put me on nights": what is done to the user
    // is the user's fact (also after "has": "my boss has moved me to nights"). Not what
    // someone told or offered: "Dad told me he's retired" is Dad's.
    let verb_at = body + usize::from(words.get(body).is_some_and(|w| matches!(w.low.as_str(), "has" | "had")));
    let done_to_me = matches!(subject, Subject::Person(_))
        && words.get(verb_at).is_some_and(|w| {
            matches!(
                w.low.as_str(),
                "took"
                    | "taken"
                    | "put"
                    | "moved"
                    | "switched"
                    | "weaned"
                    | "started"
                    | "upped"
                    | "increased"
                    | "got"
                    | "talked"
                    | "convinced"
                    | "persuaded"
                    | "gives"
                    | "gave"
                    | "given"
                    | "transferred"
            )
        })
        && words.get(verb_at + 1).is_some_and(|w| w.low == "me");
    if done_to_me {
        (me_of(ctx), body)
    } else {
        (subject, body)
    }
}

/// Where the clause a frame of hearsay reports begins, when `words` go on from `at` with
/// one: "(I) heard (that)", "(I) think", "(I) found out", "turns out".
fn hearsay(words: &[Word], at: usize) -> Option<usize> {
    const FRAMES: &[&[&str]] = &[
        &["heard", "that"],
        &["heard"],
        &["hear"],
        &["think"],
        &["noticed"],
        &["found", "out", "that"],
        &["found", "out"],
        &["guess"],
        &["reckon"],
        &["was", "told"],
        &["turns", "out"],
        &["turned", "out"],
        &["apparently"],
    ];
    // What someone said, after the one who said it when no subject was read ("mike told
    // me he's off the early shift", "tom said he's stopped").
    const SAID: &[&[&str]] = &[
        &["told", "me", "that"],
        &["told", "me"],
        &["said", "that"],
        &["said"],
        &["says"],
    ];
    let lows: Vec<&str> = words[at.min(words.len())..].iter().map(|w| w.low.as_str()).collect();
    let heard = FRAMES.iter().find(|f| lows.starts_with(f)).map(|f| at + f.len());
    let said = || {
        (0..=1).find_map(|skip| {
            let rest = lows.get(skip..)?;
            SAID.iter().find(|f| rest.starts_with(f)).map(|f| at + skip + f.len())
        })
    };
    heard.or_else(said).filter(|&from| from < words.len())
}

/// Whether `words` tell of the teller in so many words ("I", "me", "my", "we", ...; not
/// "mine", often the teller's beside someone else's: "next to mine").
pub(super) fn tells_of_the_teller(words: &[Word]) -> bool {
    words
        .iter()
        .any(|w| matches!(w.low.as_str(), "i" | "me" | "my" | "myself" | "we" | "us" | "our"))
}

/// Whether the words from `start` tell of a third person and nothing of the teller: a
/// "his", "her" or "their" within the first clause, and no "I", "my" or "me" anywhere.
fn told_of_a_third(words: &[Word], start: usize) -> bool {
    let first_person = words.iter().any(|w| {
        matches!(
            w.low.as_str(),
            "i" | "my" | "me" | "mine" | "myself" | "we" | "our" | "us"
        )
    });
    let clause = words[start..]
        .iter()
        .position(|w| w.stop)
        .map_or(words.len(), |k| start + k + 1);
    !first_person
        && words[start..clause]
            .iter()
            .skip(1)
            .any(|w| matches!(w.low.as_str(), "his" | "her" | "their" | "he" | "she"))
}

/// "Lily changed schools, she's at St Mary's now": a name at the start before a verb in
/// the past, and "she" or "he" later, with nothing of the teller's own.
fn named_then_told_of(words: &[Word], start: usize) -> bool {
    let Some(first) = words.get(start) else {
        return false;
    };
    let verb = words
        .get(start + 1)
        .is_some_and(|w| w.low.len() > 4 && w.low.ends_with("ed") || PASTS.contains(&w.low.as_str()));
    let first_person = words.iter().any(|w| {
        matches!(
            w.low.as_str(),
            "i" | "my" | "me" | "mine" | "myself" | "we" | "our" | "us"
        )
    });
    // In lower case too, as texts are written ("kate gave up on duolingo, she lost her
    // streak"), when the word is no adverb.
    (first.upper || !first.low.ends_with("ly"))
        && first.low.chars().count() >= 3
        && first.low.chars().all(char::is_alphabetic)
        && !FILLER.contains(&first.low.as_str())
        && !CHANGE_MARKERS.contains(&first.low.as_str())
        && !matches!(
            first.low.as_str(),
            "sadly"
                | "luckily"
                | "happily"
                | "unfortunately"
                | "fortunately"
                | "apparently"
                | "suddenly"
                | "eventually"
        )
        && verb
        && !first_person
        && words[start + 2..]
            .iter()
            .any(|w| matches!(w.low.as_str(), "she" | "he" | "she's" | "he's"))
}

/// The user as a fact's subject: whoever says it in a group chat.
fn me_of(ctx: &RuleContext) -> Subject {
    if ctx.group { Subject::Speaker } else { Subject::User }
}

/// "My brother Tom's wife", "Leo's best friend", "my neighbour's dog": a possessive after
/// the subject names someone else.
fn nested(words: &[Word], mut subject: Subject, mut body: usize) -> (Subject, usize) {
    // "My brother Tom is ...": the name is the same person's, and tells them from another
    // brother.
    if let Some(w) = words.get(body)
        && w.cap
        && !w.low.ends_with("'s")
        && words.get(body + 1).is_some_and(|n| !n.cap)
        && let Subject::Person(someone) = &mut subject
    {
        if someone.key != w.low {
            someone.name = Some(w.low.clone());
        }
        body += 1;
    }
    let owner_of = |subject: &Subject| match subject {
        Subject::Person(p) => p.key.clone(),
        Subject::User => "my".to_owned(),
        Subject::We => "our".to_owned(),
        Subject::Speaker => "speaker".to_owned(),
    };
    // "my neighbour's dog": the relation itself was possessive.
    if body > 0
        && words[body - 1].low.ends_with("'s")
        && let Some((someone, used)) = relation(&words[body..])
    {
        return (someone.of(&owner_of(&subject)), body + used);
    }
    let Some(w) = words.get(body) else {
        return (subject, body);
    };
    if (w.low.ends_with("'s") || matches!(w.low.as_str(), "his" | "her" | "their"))
        && let Some((someone, used)) = relation(&words[body + 1..])
    {
        return (
            someone.of(&format!("{} {}", owner_of(&subject), w.low)),
            body + 1 + used,
        );
    }
    (subject, body)
}
