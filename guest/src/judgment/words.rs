//! A fact's words as the judgment compares them: lowercased, contractions expanded,
//! spelling and number variants folded, filler dropped, and each word reduced to a stem,
//! so that "I'm REALLY into jazz music!" and "i am into jazz music" read the same.

/// One word of a fact: its stem, and whether it was capitalized mid-sentence (a name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Word {
    pub(super) stem: String,
    pub(super) low: String,
    pub(super) cap: bool,
    /// Capitalized as written, the first word included.
    pub(super) upper: bool,
    /// Punctuation ends a clause after it.
    pub(super) stop: bool,
    /// A full stop, an exclamation or a question mark ends a sentence after it.
    pub(super) end: bool,
    /// Its sentence ends with a question mark: it asks, it states nothing.
    pub(super) asks: bool,
    /// Punctuation without a space joins it to the next word: one token of an address,
    /// a file name or a number ("gmail" in "priya@gmail.com").
    pub(super) joined: bool,
}

/// Contractions and the words they stand for.
fn expand(word: &str) -> Option<&'static [&'static str]> {
    Some(match word {
        "i'm" | "im" => &["i", "am"],
        "i've" | "ive" => &["i", "have"],
        "i'd" => &["i", "would"],
        "i'll" => &["i", "will"],
        "we're" => &["we", "are"],
        "we've" => &["we", "have"],
        "they're" => &["they", "are"],
        "they've" => &["they", "have"],
        "you're" => &["you", "are"],
        "she's" => &["she", "is"],
        "he's" => &["he", "is"],
        "it's" => &["it", "is"],
        "that's" => &["that", "is"],
        "don't" | "dont" => &["do", "not"],
        "doesn't" | "doesnt" => &["does", "not"],
        "didn't" | "didnt" => &["did", "not"],
        "isn't" | "isnt" => &["is", "not"],
        "aren't" => &["are", "not"],
        "wasn't" => &["was", "not"],
        "weren't" => &["were", "not"],
        "haven't" => &["have", "not"],
        "hasn't" => &["has", "not"],
        "can't" | "cant" | "cannot" => &["can", "not"],
        "won't" => &["will", "not"],
        "wouldn't" => &["would", "not"],
        "couldn't" => &["could", "not"],
        "ain't" => &["am", "not"],
        "gonna" => &["going", "to"],
        "wanna" => &["want", "to"],
        _ => return None,
    })
}

/// Spellings and everyday words folded onto one form.
fn fold(word: &str) -> &str {
    match word {
        "favourite" | "fave" | "fav" => "favorite",
        "favourites" => "favorites",
        "colour" => "color",
        "colours" => "colors",
        "flavour" => "flavor",
        "neighbour" => "neighbor",
        "neighbourhood" => "neighborhood",
        "centre" => "center",
        "theatre" => "theater",
        "programme" => "program",
        "grey" => "gray",
        "mum" | "mommy" | "mummy" | "mother" | "ma" => "mom",
        "father" | "daddy" | "pa" => "dad",
        "children" | "kids" => "kid",
        "child" => "kid",
        "organise" => "organize",
        "realise" => "realize",
        "travelling" => "traveling",
        "cosy" => "cozy",
        "tv" => "television",
        "film" => "movie",
        "films" => "movies",
        "mate" | "pal" | "buddy" => "friend",
        "sis" => "sister",
        "bro" => "brother",
        "hubby" => "husband",
        "mates" | "pals" | "buddies" => "friends",
        "cilantro" => "coriander",
        "autumn" => "fall",
        "cellphone" | "mobile" => "phone",
        "physio" => "physiotherapy",
        "uni" | "college" => "university",
        "nan" | "gran" | "granny" | "nana" | "grandmother" => "grandma",
        "grandad" | "granddad" | "grandfather" => "grandpa",
        "flat" => "apartment",
        "u" => "you",
        "ur" => "your",
        "pls" | "plz" => "please",
        "thx" => "thanks",
        "bc" | "cuz" | "coz" => "because",
        "w/" => "with",
        "&" => "and",
        "one" => "1",
        "two" => "2",
        "three" => "3",
        "four" => "4",
        "five" => "5",
        "six" => "6",
        "seven" => "7",
        "eight" => "8",
        "nine" => "9",
        "ten" => "10",
        "eleven" => "11",
        "twelve" => "12",
        "thirteen" => "13",
        "fourteen" => "14",
        "fifteen" => "15",
        "sixteen" => "16",
        "seventeen" => "17",
        "eighteen" => "18",
        "nineteen" => "19",
        "twenty" => "20",
        "thirty" => "30",
        "forty" => "40",
        "fifty" => "50",
        "sixty" => "60",
        "seventy" => "70",
        "eighty" => "80",
        "ninety" => "90",
        _ => super::synonyms::word(word).unwrap_or(word),
    }
}

/// A light stem: plurals, "-ing" and a final "e" come off, so "lives", "living" and
/// "live" meet. Past tenses keep their "-ed": "I lived in Paris" is not "I live in Paris".
pub(super) fn stem(word: &str) -> String {
    let w = word.trim_end_matches("'s");
    let n = w.chars().count();
    if n <= 3 || w.chars().any(|c| c.is_ascii_digit()) {
        return w.to_owned();
    }
    let mut s = if let Some(base) = w.strip_suffix("ies") {
        format!("{base}y")
    } else if let Some(base) = w.strip_suffix("ing").filter(|b| b.chars().count() >= 3) {
        let b: Vec<char> = base.chars().collect();
        // "running" -> "run", "swimming" -> "swim".
        if b.len() >= 3 && b[b.len() - 1] == b[b.len() - 2] && !matches!(b[b.len() - 1], 'l' | 's' | 'z') {
            b[..b.len() - 1].iter().collect()
        } else {
            base.to_owned()
        }
    } else if let Some(base) = w
        .strip_suffix("es")
        .filter(|b| b.ends_with(['s', 'x', 'z']) || b.ends_with("ch") || b.ends_with("sh"))
    {
        base.to_owned()
    } else if w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") && !w.ends_with("is") {
        w[..w.len() - 1].to_owned()
    } else {
        w.to_owned()
    };
    if s.chars().count() > 3 && s.ends_with('e') {
        s.pop();
    }
    s
}

/// Whether two sets of content words are one set but for the endings of one root:
/// "allergic" and "allergy", "diabetic" and "diabetes", "intolerant" and a misspelt
/// "intolerent". Words of one root share five letters or more, and differ in at most
/// three after them ("vegetarian" and "vegetable" do not).
pub(super) fn same_roots(a: &std::collections::BTreeSet<String>, b: &std::collections::BTreeSet<String>) -> bool {
    let root = |x: &str, y: &str| {
        if x == y {
            return true;
        }
        // A number, or a word read with one ("is#4512"), is only itself.
        if !x.chars().chain(y.chars()).all(char::is_alphabetic) {
            return false;
        }
        let common = x.chars().zip(y.chars()).take_while(|(p, q)| p == q).count();
        common >= 5 && x.chars().count() - common <= 3 && y.chars().count() - common <= 3
    };
    let covered = |from: &std::collections::BTreeSet<String>, to: &std::collections::BTreeSet<String>| {
        from.iter().all(|x| to.iter().any(|y| root(x, y)))
    };
    !a.is_empty() && !b.is_empty() && covered(a, b) && covered(b, a)
}

/// "I take my coffee black" and "I drink my coffee black": the same words but for one
/// light verb on each side (take, have, drink, eat, use), which say the same of what follows.
pub(super) fn same_but_a_light_verb(
    a: &std::collections::BTreeSet<String>,
    b: &std::collections::BTreeSet<String>,
) -> bool {
    let light = |x: &String| ["take", "have", "drink", "eat", "use"].iter().any(|v| stem(v) == *x);
    let only_a: Vec<&String> = a.difference(b).collect();
    let only_b: Vec<&String> = b.difference(a).collect();
    only_a.len() == 1 && only_b.len() == 1 && light(only_a[0]) && light(only_b[0]) && a.len() > 1
}

/// Idioms and synonyms read as the words they mean ([`super::synonyms`]): "I can't
/// stand cilantro" hates it, and is no denial; "I don't drink." is teetotal.
fn idioms(text: &str) -> String {
    use super::synonyms::{CLOSING, PHRASES, TOLD_AGAIN};
    // Every fact read for a judgment comes here, and few hold an idiom: one lowercasing,
    // and a copy only when one is found.
    let lower = text.to_ascii_lowercase();
    let all = || {
        PHRASES
            .iter()
            .map(|p| (p, false))
            .chain(CLOSING.iter().map(|p| (p, true)))
            .chain(TOLD_AGAIN.iter().map(|p| (p, false)))
    };
    if !all().any(|((idiom, _), _)| lower.contains(idiom)) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    'text: while at < text.len() {
        for ((idiom, meaning), closing) in all() {
            let end = at + idiom.len();
            let rest = lower.get(end..).unwrap_or("");
            // Whole words only: "can't standardise" is no idiom.
            let whole = !rest.starts_with(|c: char| c.is_ascii_alphanumeric());
            let closes = rest.trim_start().is_empty() || rest.trim_start().starts_with(['.', ',', ';', '!', ':']);
            if lower[at..].starts_with(idiom)
                && (at == 0 || !lower.as_bytes()[at - 1].is_ascii_alphanumeric())
                && whole
                && (!closing || closes)
            {
                out.push_str(meaning);
                at = end;
                continue 'text;
            }
        }
        let c = text[at..].chars().next().expect("within the text");
        out.push(c);
        at += c.len_utf8();
    }
    out
}

/// "ok weirdly i love olives now??": news told with surprise, not asked. Only with the
/// marks doubled, and only where the teller is the subject of a plain verb: "i should try
/// olives??" and "do i like olives??" still ask.
fn surprised_statement(sentence: &[Word], gap: &str) -> bool {
    if !(gap.contains("??") || gap.contains("?!") || gap.contains("!?")) {
        return false;
    }
    let lows: Vec<&str> = sentence.iter().map(|w| w.low.as_str()).collect();
    let Some(i) = lows.iter().position(|w| matches!(*w, "i" | "we")) else {
        return false;
    };
    // After the teller, only a modal asks: "i'm pescatarian now??" states.
    let modal = |w: &str| {
        matches!(
            w,
            "should" | "shall" | "can" | "could" | "would" | "will" | "may" | "might" | "must" | "or"
        )
    };
    // Before the teller, a question word or any auxiliary does: "do i like olives??".
    let asking = |w: &str| {
        modal(w)
            || matches!(
                w,
                "what"
                    | "who"
                    | "why"
                    | "how"
                    | "when"
                    | "where"
                    | "which"
                    | "do"
                    | "does"
                    | "did"
                    | "is"
                    | "are"
                    | "am"
                    | "was"
                    | "were"
                    | "have"
                    | "has"
                    | "if"
                    | "whether"
            )
    };
    !lows[..i].iter().any(|w| asking(w)) && lows.get(i + 1).is_some_and(|w| !modal(w))
}

/// The words of a text, for the judgment: `None` words are dropped.
pub(super) fn words(text: &str) -> Vec<Word> {
    let text = idioms(&text.replace(['\u{2019}', '\u{2018}', '`'], "'"));
    let mut out: Vec<Word> = Vec::new();
    let mut first = true;
    let mut sentence = 0;
    let mut rest = text.as_str();
    while !rest.is_empty() {
        let start = rest
            .find(|c: char| c.is_alphanumeric() || c == '&')
            .unwrap_or(rest.len());
        let gap = &rest[..start];
        // A dash between spaces ends a clause as a comma does: "it's paying off - I'm ...".
        let dash = gap.contains(['\u{2013}', '\u{2014}']) || gap.contains(" - ");
        if !gap.is_empty()
            && !gap.contains(char::is_whitespace)
            && start < rest.len()
            && let Some(last) = out.last_mut()
        {
            last.joined = true;
        }
        if (dash || gap.contains([',', ';', '.', '!', '?', ':']))
            && let Some(last) = out.last_mut()
        {
            last.stop = true;
            // "St. Mary's", "Dr. Shah" and "3.5" go on.
            let decimal = gap == "." && rest[start..].starts_with(|c: char| c.is_ascii_digit());
            let short = matches!(
                last.low.as_str(),
                "mr" | "mrs" | "ms" | "dr" | "st" | "prof" | "mt" | "jr" | "sr" | "vs" | "etc" | "no"
            ) && gap.trim_end() == ".";
            // Nor an initial: "Fontaines D.C. now", "J. K. Rowling".
            let initial = last.low.chars().count() == 1 && gap.trim_end() == ".";
            last.end = gap.contains(['!', '?']) || (gap.contains('.') && !decimal && !short && !initial);
            let ends = last.end;
            if gap.contains('?') && !surprised_statement(&out[sentence..], gap) {
                out[sentence..].iter_mut().for_each(|w| w.asks = true);
            }
            if ends {
                sentence = out.len();
            }
        }
        rest = &rest[start..];
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '&'))
            .unwrap_or(rest.len());
        let raw = rest[..end].trim_matches('\'');
        rest = &rest[end..];
        if raw.is_empty() {
            continue;
        }
        let upper = raw.chars().next().is_some_and(char::is_uppercase) && raw != "I";
        let cap = !first && upper;
        first = false;
        let low = raw.to_lowercase();
        let push = |out: &mut Vec<Word>, low: &str, cap: bool, upper: bool| {
            out.push(Word {
                stem: stem(low),
                low: low.to_owned(),
                cap,
                upper,
                stop: false,
                end: false,
                asks: false,
                joined: false,
            })
        };
        if let Some(parts) = expand(&low) {
            for p in parts {
                push(&mut out, p, false, false);
            }
            continue;
        }
        // "3x a week" is three times a week.
        if let Some(count) = low
            .strip_suffix('x')
            .filter(|c| !c.is_empty() && c.chars().all(|d| d.is_ascii_digit()))
        {
            push(&mut out, count, false, false);
            push(&mut out, "times", false, false);
            continue;
        }
        // "n't" on a word not listed: "needn't", "shan't".
        if let Some(base) = low.strip_suffix("n't") {
            push(&mut out, base, false, false);
            push(&mut out, "not", false, false);
            continue;
        }
        // "moved 2 leeds": in a text, "2" after a verb of going is "to".
        let going = out.last().is_some_and(|w: &Word| {
            matches!(
                w.low.as_str(),
                "moved" | "moving" | "move" | "went" | "going" | "go" | "back" | "relocated"
            )
        });
        let low = if low == "2" && going { "to".to_owned() } else { low };
        let folded = match low.strip_suffix("'s") {
            Some(base) => format!("{}'s", fold(base)),
            None => fold(&low).to_owned(),
        };
        // "thirty-four" and "thirty four" are 34, as the figures read.
        if let Some(tens) = out
            .last_mut()
            .filter(|w| !w.stop && is_tens(&w.low) && matches!(gap, "-" | " "))
            && folded.len() == 1
            && folded != "0"
            && folded.chars().all(|c| c.is_ascii_digit())
            && low != folded
        {
            tens.low = format!("{}{folded}", &tens.low[..1]);
            tens.stem = tens.low.clone();
            continue;
        }
        push(&mut out, &folded, cap, upper);
        // "I've lived here", "she has worked there": the perfect holds now, as the present.
        let perfect = out.len() >= 2 && matches!(out[out.len() - 2].low.as_str(), "have" | "has");
        if perfect && let Some(base) = folded.strip_suffix("ed").filter(|b| b.chars().count() >= 3) {
            let last = out.last_mut().expect("just pushed");
            last.stem = stem(base);
        }
    }
    out
}

/// Whether a word is a number of tens written in words, as [`fold`] gives it ("30").
fn is_tens(low: &str) -> bool {
    matches!(low, "20" | "30" | "40" | "50" | "60" | "70" | "80" | "90")
}

/// Words that say how, not what: dropped before facts are compared.
pub(super) const FILLER: &[&str] = &[
    "really",
    "actually",
    "just",
    "very",
    "so",
    "quite",
    "totally",
    "definitely",
    "absolutely",
    "truly",
    "honestly",
    "basically",
    "literally",
    "seriously",
    "genuinely",
    "tbh",
    "lol",
    "haha",
    "ok",
    "okay",
    "oh",
    "well",
    "yeah",
    "yes",
    "um",
    "hey",
    "btw",
    "fyi",
    "please",
    "remember",
    "that",
    "indeed",
    "pretty",
    "super",
    "kinda",
    "sorta",
    "fact",
    // How often a routine is kept, which its days or hours tell better: "I work from home
    // on Mondays and Fridays" refines "I work from home sometimes".
    "sometimes",
    "regularly",
    "usually",
    "normally",
    "generally",
    "occasionally",
    "often",
    "typically",
];

/// Words that mark a change of what held before: they say nothing of the fact itself.
pub(super) const CHANGE_MARKERS: &[&str] = &[
    "now",
    "currently",
    "anymore",
    "nowadays",
    "lately",
    "recently",
    "finally",
    "instead",
    "today",
    "since",
    "new",
    "moment",
    "officially",
    "again",
    "still",
    "correction",
    "sorry",
    "meant",
    "mean",
    "wrong",
    "earlier",
    "said",
];

/// Function words: the frame of a sentence, not its content.
pub(super) const FUNCTION: &[&str] = &[
    "a", "an", "the", "i", "me", "my", "mine", "myself", "am", "is", "are", "be", "been", "being", "do", "does", "of",
    "to", "in", "on", "for", "with", "and", "it", "its", "this", "by", "as", "from", "into", "up", "we", "us", "our",
    "you", "your", "he", "she", "him", "her", "his", "they", "them", "their", "there", "here", "some", "any", "have",
    "has", "got", "get", "gets", "getting", "thing", "things", "stuff", "kind", "sort", "user", "user's", "about",
    "around", "who", "which", "what", "all", "too", "also", "own", "at", "named", "called", "name", "one", "'s",
];

/// Whether a stem is one of [`GENERIC`]'s words.
pub(super) fn is_generic(stem_of_word: &str) -> bool {
    static STEMS: std::sync::OnceLock<std::collections::HashSet<String>> = std::sync::OnceLock::new();
    STEMS
        .get_or_init(|| GENERIC.iter().map(|g| stem(g)).collect())
        .contains(stem_of_word)
}

/// Verbs and words so common that sharing them says nothing: "I like dogs" and "I don't
/// like cats" share "like" and are about different things.
pub(super) const GENERIC: &[&str] = &[
    "like", "love", "liv", "work", "go", "goe", "went", "use", "eat", "drink", "play", "want", "need", "take", "make",
    "get", "do", "did", "done", "know", "think", "feel", "see", "say", "told", "tell", "prefer", "enjoy", "hat",
    "keep", "find", "start", "started", "every", "most", "more", "less", "lot", "bit", "much", "many", "good", "great",
    "best", "bad", "favorite", "usual", "usually", "always", "often", "day", "time", "week", "year", "month", "people",
    "person", "place", "home", "job", "thing", "way", "well", "back", "over", "off", "out", "up", "down", "now", "new",
    "old",
];

/// Verbs a routine is told with, which say nothing of which routine it is: "I take the bus"
/// and "no more bus for me" share the bus, not "take".
const LIGHT_VERBS: &[&str] = &[
    "work", "go", "use", "have", "eat", "drink", "take", "wear", "do", "get", "make", "live", "play", "be", "keep",
];

/// Whether a stem is a light verb's ("live" is stemmed as "liv").
pub(super) fn is_light_verb(stem_of_word: &str) -> bool {
    static STEMS: std::sync::OnceLock<std::collections::HashSet<String>> = std::sync::OnceLock::new();
    STEMS
        .get_or_init(|| LIGHT_VERBS.iter().map(|v| stem(v)).collect())
        .contains(stem_of_word)
}

/// Words that frame what a clause says rather than say it: function words, filler, the
/// markers of a change, and a few more.
pub(super) fn is_frame(low: &str) -> bool {
    FUNCTION.contains(&low)
        || FILLER.contains(&low)
        || CHANGE_MARKERS.contains(&low)
        || matches!(
            low,
            "longer"
                | "anymore"
                | "more"
                | "of"
                | "to"
                | "with"
                | "in"
                | "on"
                | "for"
                | "my"
                | "the"
                | "give"
                | "giving"
                | "sure"
        )
}
