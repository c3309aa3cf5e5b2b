//! Talk that tells nothing of the teller, which an agent may still pass to `add`: a
//! question put to the assistant ("can i freeze cooked rice?"), a request for the task at
//! hand ("shorten that pls"), thanks, laughter and greetings ("cheers mate, legend"), and
//! a daydream ("if I won the lottery I'd buy a boat"). Kept for ever, it would crowd the
//! user's facts out of every search; it fades with the week's context instead.
//!
//! Any word of the teller's own life keeps the line to the other rules: "my", "we", "I'm"
//! ("I'm coeliac, can I have soy sauce?"), a standing request ("always", "from now on",
//! "don't ... with me"). Only the "I" of a question's first words is no such word
//! ("should I take the job?", "do i tip in japan").

use super::phrase;

/// Whether the words (lowercased, as `lifetime::words` reads them) are talk alone.
pub(super) fn tells_nothing(w: &[String], content: &str) -> bool {
    if w.is_empty() {
        return false;
    }
    if tells_of_the_teller(w) {
        return daydream(w) && !STANDING.iter().any(|s| w.iter().any(|x| x == s));
    }
    // Each sentence must be talk: "any tips for managing a team? just got promoted" tells
    // what the question does not. Within one, the clauses before its question must be talk
    // too: "Tom's allergic to nuts, any cake ideas?" tells Tom's allergy.
    daydream(w)
        || sentences(content).all(|(said, asks)| {
            let clauses: Vec<Vec<String>> = said.split(',').map(super::words).filter(|c| !c.is_empty()).collect();
            let talk = |c: &[String]| chatter(c) || asked(c) || requested(c) || reacted(c) || paused(c);
            let question = clauses.iter().position(|c| asked(c));
            match question {
                Some(q) => clauses[..q].iter().all(|c| talk(c)),
                None if asks => clauses[..clauses.len().saturating_sub(1)].iter().all(|c| talk(c)),
                None => clauses.iter().all(|c| talk(c)),
            }
        })
}

/// Words of a standing habit or wish, which no daydream is told with: "If I had to choose
/// I'd always pick the aisle seat".
const STANDING: &[&str] = &["always", "usually", "favourite", "favorite"];

/// The sentences of `content`, each with whether it ends in a question mark.
fn sentences(content: &str) -> impl Iterator<Item = (&str, bool)> {
    let mut rest = content;
    std::iter::from_fn(move || {
        while !rest.is_empty() {
            let end = rest.find(['?', '.', '!', '\n', ';']).unwrap_or(rest.len());
            let (said, mark) = (&rest[..end], rest[end..].chars().next());
            rest = &rest[end + mark.map_or(0, char::len_utf8)..];
            if !said.trim().is_empty() {
                return Some((said, mark == Some('?')));
            }
        }
        None
    })
}

/// Words of the teller's own life or of a standing wish.
fn tells_of_the_teller(w: &[String]) -> bool {
    w.iter().enumerate().any(|(i, x)| {
        // "should I take the job?", not "where I live it rains constantly".
        let asking_i = (x == "i" || x == "we")
            && i > 0
            && i <= 3
            && AUXILIARIES.contains(&w[i - 1].as_str())
            && i == w.iter().position(|v| v == x).unwrap_or(i);
        let me_asked = x == "me"
            && i > 0
            && matches!(
                w[i - 1].as_str(),
                "give" | "gimme" | "tell" | "show" | "write" | "send" | "help" | "remind" | "let"
            );
        // "that's not what I asked", "exactly what I needed": the talk's, not the teller's.
        let what_i_said = x == "i"
            && i > 0
            && w[i - 1] == "what"
            && w.get(i + 1).is_some_and(|v| {
                matches!(
                    v.as_str(),
                    "asked" | "needed" | "meant" | "said" | "wanted" | "wrote" | "was" | "had"
                )
            });
        // "stop using emojis" is a standing wish; "hahaha stop" is laughter.
        let stop = x == "stop" && w.get(i + 1).is_some_and(|v| v.ends_with("ing"));
        let self_word = matches!(
            x.as_str(),
            "i" | "i'm"
                | "im"
                | "i've"
                | "ive"
                | "i'd"
                | "i'll"
                | "me"
                | "my"
                | "mine"
                | "myself"
                | "we"
                | "we're"
                | "we've"
                | "we'd"
                | "we'll"
                | "our"
                | "ours"
                | "us"
                | "always"
                | "never"
                | "don't"
                | "dont"
                | "anymore"
        );
        (self_word || stop || STYLE.contains(&x.as_str())) && !asking_i && !me_asked && !what_i_said
    }) || (w.len() > 1 && w[0] == "as" && matches!(w[1].as_str(), "a" | "an"))
        || phrase(w, &["from", "now", "on"])
        || phrase(w, &["in", "future"])
        || phrase(w, &["every", "time"])
}

/// Words of how the assistant should answer, which a request tells as standing: "Please
/// use British spelling", "give answers in bullet points".
const STYLE: &[&str] = &[
    "answers",
    "replies",
    "responses",
    "spelling",
    "english",
    "units",
    "metric",
    "imperial",
    "celsius",
    "fahrenheit",
    "emojis",
    "emoji",
    "language",
];

/// Question words, which open a question wherever they stand first.
const QUESTION_WORDS: &[&str] = &[
    "what", "what's", "whats", "how", "how's", "why", "where", "where's", "when", "which", "who", "who's", "whose",
    "any",
];

/// Auxiliaries, which open a question when its subject follows them ("is it safe", "do i
/// tip"); a note without a subject opens with them too ("Is allergic to penicillin",
/// "Was born in 1988").
const AUXILIARIES: &[&str] = &[
    "is", "isn't", "are", "aren't", "was", "does", "do", "did", "can", "could", "would", "wouldn't", "should", "shall",
    "will", "am",
];

/// What follows an auxiliary that opens a question: its subject.
const SUBJECTS: &[&str] = &[
    "i", "you", "u", "it", "we", "they", "he", "she", "there", "this", "that", "these", "those", "the", "a", "an",
    "any", "anyone", "anybody", "someone", "everyone", "people",
];

/// A question told by its first words, with or without its mark.
fn asked(w: &[String]) -> bool {
    QUESTION_WORDS.contains(&w[0].as_str())
        || AUXILIARIES.contains(&w[0].as_str()) && w.get(1).is_some_and(|x| SUBJECTS.contains(&x.as_str()))
}

/// A request for the answer at hand: "can you make that shorter", "write me a limerick".
fn requested(w: &[String]) -> bool {
    const ASKS: &[&str] = &[
        "make",
        "write",
        "give",
        "gimme",
        "tell",
        "translate",
        "shorten",
        "try",
        "explain",
        "summarise",
        "summarize",
        "list",
        "show",
        "rewrite",
        "redo",
        "rephrase",
        "put",
        "pls",
        "please",
        "plz",
        "continue",
        "expand",
    ];
    ASKS.contains(&w[0].as_str())
}

/// A reaction to the answer given: "nah that's wrong, try again", "hmm not sure about
/// that one".
fn reacted(w: &[String]) -> bool {
    matches!(
        w[0].as_str(),
        "that's" | "thats" | "nah" | "perfect" | "exactly" | "hmm" | "hm" | "wrong" | "meh"
    )
}

/// A word told with its last letter drawn out, as it is written short: "wayyy", "sooo".
fn undrawn(x: &str) -> String {
    let mut chars: Vec<char> = x.chars().collect();
    let n = chars.len();
    if n >= 3 && chars[n - 1] == chars[n - 2] && chars[n - 2] == chars[n - 3] {
        let last = chars[n - 1];
        while chars.len() > 1 && chars[chars.len() - 2] == last {
            chars.pop();
        }
    }
    chars.into_iter().collect()
}

/// A pause in the talk: "hmm let me think about it", "brb grabbing a coffee", "gtg".
fn paused(w: &[String]) -> bool {
    let from = w
        .iter()
        .position(|x| !matches!(x.as_str(), "hmm" | "hm" | "ok" | "okay" | "um" | "erm" | "right" | "oh"))
        .unwrap_or(w.len());
    let w = &w[from..];
    let starts = |p: &[&str]| w.len() >= p.len() && w.iter().zip(p).all(|(a, b)| a == b);
    starts(&["let", "me", "think"])
        || starts(&["let", "me", "check"])
        || starts(&["let", "me", "see"])
        || starts(&["one", "sec"])
        || starts(&["give", "me", "a", "sec"])
        || starts(&["hang", "on"])
        || starts(&["hold", "on"])
        || w.first()
            .is_some_and(|x| matches!(x.as_str(), "brb" | "gtg" | "g2g" | "afk" | "ttyl"))
}

/// Thanks, laughter, greetings and reactions, and nothing else.
fn chatter(w: &[String]) -> bool {
    const CHAT: &[&str] = &[
        "thanks",
        "thank",
        "thx",
        "ty",
        "cheers",
        "ta",
        "ta-ra",
        "tara",
        "mate",
        "heaps",
        "legend",
        "lol",
        "lmao",
        "rofl",
        "omg",
        "wow",
        "ok",
        "okay",
        "kk",
        "cool",
        "nice",
        "great",
        "perfect",
        "awesome",
        "amazing",
        "brilliant",
        "lovely",
        "hi",
        "hiya",
        "hello",
        "hey",
        "heya",
        "yo",
        "sup",
        "g'day",
        "morning",
        "evening",
        "night",
        "gn",
        "bye",
        "goodbye",
        "later",
        "cya",
        "see",
        "ya",
        "speak",
        "soon",
        "now",
        "for",
        "no",
        "yes",
        "yeah",
        "yep",
        "nah",
        "way",
        "wait",
        "what",
        "fair",
        "enough",
        "hmm",
        "hm",
        "stop",
        "x",
        "xx",
        "so",
        "much",
        "very",
        "good",
        "that's",
        "thats",
        "it's",
        "you're",
        "youre",
        "wild",
        "hilarious",
        "funny",
        "true",
        "exactly",
        "needed",
        "helpful",
        "a",
        "the",
        "lifesaver",
        "star",
        "honestly",
        "really",
        "wrong",
        "right",
        "sure",
        "oh",
        "ah",
        "aww",
        "damn",
        "haha",
        "hahaha",
        "hehe",
        "jk",
        "all",
        "done",
        "got",
        "it",
        "noted",
    ];
    w.iter().map(|x| undrawn(x)).all(|x| {
        let x = x.as_str();
        CHAT.contains(&x)
            || x.starts_with("haha")
            || x.starts_with("lmao")
            || x.starts_with("lol")
            || x.starts_with("hehe")
            || x.chars().all(|c| !c.is_alphanumeric())
    })
}

/// A supposition of what is not: "if I won the lottery I'd buy a boat", "imagine living
/// on Mars". "If it rains I drive to work" is a habit: its verbs are of the present.
fn daydream(w: &[String]) -> bool {
    let first = w[0].as_str();
    let unreal = w.len() > 2
        && first == "if"
        && matches!(w[1].as_str(), "i" | "we")
        && matches!(
            w[2].as_str(),
            "had" | "won" | "were" | "was" | "could" | "lived" | "didn't"
        )
        && w.iter().any(|x| matches!(x.as_str(), "i'd" | "we'd" | "would"));
    // "imagine living on Mars", not "Imagine Dragons is my favourite band".
    let imagine = first == "imagine"
        && w.get(1).is_some_and(|x| {
            x.ends_with("ing") || matches!(x.as_str(), "if" | "a" | "the" | "how" | "what" | "being" | "having")
        });
    unreal
        || imagine
        || phrase(&w[..w.len().min(2)], &["what", "if"])
        || phrase(&w[..w.len().min(3)], &["wouldn't", "it", "be"])
}

#[cfg(test)]
mod tests {
    use super::tells_nothing;
    use crate::lifetime::words;

    fn talk(text: &str) -> bool {
        tells_nothing(&words(text), text)
    }

    #[test]
    fn talk_alone_tells_nothing() {
        for said in [
            "Should I move to Manchester?",
            "what would rent be for a 2-bed in Bristol",
            "Is fish vegetarian?",
            "lol that's hilarious",
            "thanks, that's perfect!",
            "If I won the lottery I'd buy a boat",
            "can you put that in a table pls",
            "nooo wayyy",
            "that's not what I meant, try again",
            "any tips for a first 10k? cheers",
            "which is cheaper, aldi or lidl",
            "is it worth getting a heat pump",
            "imagine living on Mars",
        ] {
            assert!(talk(said), "{said}");
        }
    }

    #[test]
    fn a_drawn_out_letter_of_four_bytes_is_read_whole() {
        for said in [
            "\u{1D75D}\u{1D75D}\u{1D75D} lol",
            "\u{20820}\u{20820}\u{20820}",
            "sooo\u{11451}\u{11451}\u{11451}",
        ] {
            talk(said);
        }
    }

    #[test]
    fn a_fact_told_in_the_forms_of_talk_is_no_talk() {
        for fact in [
            "I'm coeliac, can I have soy sauce?",
            "as a type 1 diabetic what snacks are good before a run?",
            "lol I have three cats",
            "thanks to my sister I speak Polish now",
            "if it rains I drive to work instead",
            "please always answer in bullet points",
            "stop using emojis with me",
            "reply in French from now on",
            "any ideas for a 5 year old's party? it's for my son",
            "what should I name my new puppy",
            "any tips for managing a team? just got promoted to team lead",
            // A note without a subject, a standing request, a fact before a question.
            "Is allergic to penicillin",
            "Was born in 1988",
            "Would like to be called Alex",
            "Please use British spelling",
            "Give answers in bullet points",
            "Tom's allergic to nuts, any cake ideas?",
            "What I do for a living is nursing",
            "Where I live it rains constantly",
            "Imagine Dragons is my favourite band",
            "If I had to choose I'd always pick the aisle seat",
            "When the baby comes in March we'll move to Leeds",
            "Almost 6 months sober",
            "Will proposed last night!",
        ] {
            assert!(!talk(fact), "{fact}");
        }
    }
}
