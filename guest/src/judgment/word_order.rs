//! Facts told back to front: "Sofia is my girlfriend", "Glasgow is where I grew up",
//! "2019 was the year I moved to Berlin", "oat milk is what I drink", "what I drink is oat
//! milk". The rules read whom a fact is about from its first words, so "Sofia is my
//! girlfriend" was a fact about someone called Sofia and never the same as "My girlfriend
//! is Sofia". Such a fact is read in the order it is usually told ("my girlfriend is
//! Sofia", "I grew up in Glasgow"): its first clause is put back in that order and the rest
//! is kept as told.
//!
//! Only a first clause of plain words is put back (no figures with points, no addresses, no
//! question), and only in these shapes; anything else is read as told.

use std::borrow::Cow;

use super::fact::is_lead;
use super::fronted::time_last;
use super::someone::relation;
use super::words::words;
use crate::entities::WEEKDAYS;

/// `text` with its first clause in the usual order, when it is told back to front. In a
/// memory about someone (`about`, the names as given), "Raj is my manager" already opens
/// with whom it is about, and is read as told.
pub(super) fn in_usual_order<'a>(text: &'a str, about: &[String]) -> Cow<'a, str> {
    // "scratch that, mum's birthday is the 16th": what is corrected comes after. (A loop:
    // a hostile fact may hold the preamble a thousand times.)
    let mut text = text;
    loop {
        let (clause, rest) = first_clause(text);
        // "oops, typo before, ...": an exclamation, then the correction.
        let (clause, rest) = match (clause.trim().to_lowercase().as_str(), rest.len() > 1) {
            ("oops" | "whoops" | "sorry" | "ah" | "oh", true) => {
                let (next, after) = first_clause(rest[1..].trim_start());
                if corrects(next) { (next, after) } else { (clause, rest) }
            }
            _ => (clause, rest),
        };
        if !(corrects(clause) && rest.len() > 1) {
            break;
        }
        text = rest[1..].trim_start();
    }
    // "These days I drive to work" is read as "I drive to work these days".
    if let Some(moved) = time_last(text) {
        return Cow::Owned(put_back(&moved, about).unwrap_or(moved));
    }
    put_back(text, about).map_or(Cow::Borrowed(text), Cow::Owned)
}

/// `text` in the usual order when it is told back to front, else none.
fn put_back(text: &str, about: &[String]) -> Option<String> {
    match named_then_related(text) {
        Some(usual) => Some(reordered(&usual, about).unwrap_or(usual)),
        None => reordered(text, about),
    }
}

/// `text` with its first clause put back in the usual order, when it is in one of the
/// shapes read here.
fn reordered(text: &str, about: &[String]) -> Option<String> {
    let (clause, rest) = first_clause(text);
    if rest.trim_start().starts_with('?') {
        return None;
    }
    let tokens: Vec<&str> = clause.split_whitespace().collect();
    let lows: Vec<String> = tokens
        .iter()
        .map(|t| t.to_lowercase().replace('\u{2019}', "'"))
        .collect();
    let lead = lows.iter().take_while(|l| is_lead(l)).count();
    let core = Told {
        tokens: &tokens[lead..],
        lows: &lows[lead..],
        about,
    };
    let order = core
        .cleft()
        .or_else(|| core.what_first())
        .or_else(|| core.owned_first())
        .or_else(|| core.passive())?;
    let mut out: Vec<String> = tokens[..lead].iter().map(|t| (*t).to_owned()).collect();
    out.extend(order);
    Some(format!("{}{rest}", out.join(" ")))
}

/// The first clause and the rest: the clause runs over letters, digits, apostrophes,
/// hyphens within a word and spaces, up to the first other character. A clause that stops
/// at anything but a clause's punctuation ("priya@...", "-2.75", "Dr. Shah") is no clause:
/// the whole text is the rest.
fn first_clause(text: &str) -> (&str, &str) {
    let mut end = text.len();
    let mut prev = ' ';
    for (i, c) in text.char_indices() {
        let within_word = c == '-' && prev.is_alphanumeric() && text[i + 1..].starts_with(char::is_alphanumeric);
        if !(c.is_alphanumeric() || c.is_whitespace() || c == '\'' || c == '\u{2019}' || within_word) {
            end = i;
            break;
        }
        prev = c;
    }
    let rest = &text[end..];
    let dash = rest.starts_with('-') && text[..end].ends_with(' ');
    let punctuation = rest.starts_with([',', ';', '!', '?', ':', '(']) || rest.starts_with(". ") || rest == ".";
    if rest.is_empty() || punctuation || dash {
        (&text[..end], rest)
    } else {
        ("", text)
    }
}

/// "Arjun, my son, is doing engineering" -> "my son Arjun is doing engineering": a name,
/// then whom it is to the teller between commas.
fn named_then_related(text: &str) -> Option<String> {
    let mut parts = text.splitn(3, ',');
    let (name, related, rest) = (parts.next()?.trim(), parts.next()?.trim(), parts.next()?.trim_start());
    let names: Vec<&str> = name.split_whitespace().collect();
    let plain = |t: &&str| t.chars().all(char::is_alphabetic);
    let one_name = match names.as_slice() {
        [one] => plain(one) && !NOT_FIRST.contains(&one.to_lowercase().as_str()) && !is_lead(&one.to_lowercase()),
        [first, second] => [first, second]
            .iter()
            .all(|t| plain(t) && t.starts_with(char::is_uppercase)),
        _ => false,
    };
    let related: Vec<&str> = related.split_whitespace().collect();
    let owner = related
        .first()
        .is_some_and(|o| matches!(o.to_lowercase().as_str(), "my" | "our"));
    if !one_name || !owner || rest.is_empty() || rest.starts_with(['?', ',']) {
        return None;
    }
    (relation_tokens(&related[1..])? == related.len() - 1).then(|| {
        let name: Vec<String> = names.iter().map(|n| capitalised(n)).collect();
        format!("{} {} {rest}", related.join(" "), name.join(" "))
    })
}

/// Whether a first clause only says that what follows corrects what was told: "scratch
/// that", "oops I typed that wrong", "my bad", "sorry, I meant".
fn corrects(clause: &str) -> bool {
    let lows: Vec<String> = clause
        .split_whitespace()
        .map(|w| w.to_lowercase().replace('\u{2019}', "'"))
        .collect();
    // "oops" alone is a mishap ("oops, dropped my phone"); a word of correcting is needed.
    let said = |w: &str| {
        matches!(
            w,
            "scratch" | "wrong" | "typo" | "mistake" | "correction" | "meant" | "ignore"
        )
    };
    let plain = |w: &str| {
        said(w)
            || matches!(
                w,
                "that"
                    | "oh"
                    | "oops"
                    | "whoops"
                    | "sorry"
                    | "i"
                    | "typed"
                    | "it"
                    | "got"
                    | "my"
                    | "bad"
                    | "no"
                    | "wait"
                    | "lol"
                    | "haha"
                    | "was"
                    | "earlier"
                    | "before"
            )
    };
    !lows.is_empty()
        && lows.len() <= 6
        && lows.iter().all(|w| plain(w))
        && (lows.iter().any(|w| said(w)) || lows == ["my", "bad"])
}

/// The words of a first clause after any leading words, as written and lowercased.
struct Told<'a> {
    tokens: &'a [&'a str],
    lows: &'a [String],
    about: &'a [String],
}

/// Words that cannot be what a fact told back to front puts first: "that is where I grew
/// up" points back, "it was when I moved" is no time.
const NOT_FIRST: &[&str] = &[
    "i",
    "i'm",
    "you",
    "he",
    "she",
    "it",
    "it's",
    "we",
    "they",
    "this",
    "that",
    "that's",
    "these",
    "those",
    "there",
    "there's",
    "here",
    "here's",
    "what",
    "who",
    "which",
    "where",
    "when",
    "why",
    "how",
    "my",
    "our",
    "your",
    "his",
    "her",
    "their",
    "mine",
    "ours",
    "yours",
    "a",
    "an",
    "the",
    "everyone",
    "everybody",
    "everything",
    "someone",
    "somebody",
    "something",
    "nobody",
    "nothing",
    "anyone",
    "anything",
    "one",
    "all",
    "life",
    "family",
    "home",
    "work",
    "today",
    "tomorrow",
    "tonight",
    "now",
];

/// Titles that may open a name: "Dr Shah is my dentist".
const TITLES: &[&str] = &[
    "dr", "mr", "mrs", "ms", "miss", "prof", "aunt", "auntie", "uncle", "nan", "grandma", "grandpa",
];

/// Words that may follow a relation told after a name: "Kate is my manager now".
const AFTER_RELATION: &[&str] = &[
    "now", "too", "btw", "lol", "these", "days", "nowadays", "again", "still", "though",
];

/// Words that open a statement's subject after "where", "when" or "what".
const SUBJECTS: &[&str] = &[
    "i", "i'm", "i've", "i'd", "i'll", "we", "we're", "we've", "my", "our", "he", "he's", "she", "she's", "they",
    "they're", "me",
];

impl Told<'_> {
    /// Where "is" or "was" follows the first one to `most` words, and the verb:
    /// "Sofia is", "Dr Shah is", "sofia's" (read as "Sofia is").
    fn copula(&self, most: usize) -> Option<(usize, usize, &'static str)> {
        for k in 1..=most.min(self.lows.len().saturating_sub(1)) {
            match self.lows[k].as_str() {
                "is" => return Some((k, k + 1, "is")),
                "was" => return Some((k, k + 1, "was")),
                "are" => return Some((k, k + 1, "are")),
                "were" => return Some((k, k + 1, "were")),
                _ => {}
            }
            if self.lows[k - 1].ends_with("'s") && self.lows[k - 1].len() > 2 && self.lows[k] != "'s" {
                return Some((k, k, "is"));
            }
        }
        None
    }

    /// The first `len` words as a name or a thing put first, "'s" read as "is".
    fn first(&self, len: usize) -> Option<Vec<String>> {
        let lows = &self.lows[..len];
        if lows.iter().any(|l| NOT_FIRST.contains(&l.trim_end_matches("'s"))) {
            return None;
        }
        Some(
            self.tokens[..len]
                .iter()
                .map(|t| t.trim_end_matches("'s").trim_end_matches("\u{2019}s").to_owned())
                .collect(),
        )
    }

    /// "Glasgow is where I grew up" -> "I grew up in Glasgow"; "2019 was the year I moved
    /// to Berlin" -> "I moved to Berlin in 2019"; "oat milk is what I drink" -> "I drink
    /// oat milk".
    fn cleft(&self) -> Option<Vec<String>> {
        let (len, after, _) = self.copula(4)?;
        let first = self.first(len)?;
        let lows = &self.lows[after..];
        let (kind, skip) = match lows.first()?.as_str() {
            "where" | "when" | "what" => (lows[0].as_str(), 1),
            // "the year I moved", "the team my dad supports": a noun, then the statement.
            "the" => {
                let kind = lows.get(1)?.as_str();
                if !kind.chars().all(char::is_alphabetic) || NOT_FIRST.contains(&kind) {
                    return None;
                }
                let joined = lows
                    .get(2)
                    .is_some_and(|w| matches!(w.as_str(), "that" | "when" | "where" | "which" | "who"));
                (kind, 2 + usize::from(joined))
            }
            _ => return None,
        };
        let statement = &self.tokens[after + skip..];
        if !opens_a_statement(&self.lows[after + skip..], statement) {
            return None;
        }
        let mut out: Vec<String> = statement.iter().map(|t| (*t).to_owned()).collect();
        // "Nigeria is where I'm from" is "I'm from Nigeria".
        let ends_open = self.lows.last().is_some_and(|w| {
            matches!(
                w.as_str(),
                "from" | "to" | "at" | "in" | "on" | "with" | "for" | "of" | "into"
            )
        });
        let preposition = match kind {
            _ if ends_open => None,
            "day" => Some("on"),
            "when" | "time" if first.iter().any(|w| is_day(w)) => Some("on"),
            "where" | "when" | "year" | "month" | "week" | "time" | "place" | "city" | "town" | "country" => Some("in"),
            _ => None,
        };
        out.extend(preposition.map(str::to_owned));
        out.extend(first);
        Some(out)
    }

    /// "what I drink is oat milk" -> "I drink oat milk".
    fn what_first(&self) -> Option<Vec<String>> {
        if self.lows.first()? != "what" || !opens_a_statement(&self.lows[1..], &self.tokens[1..]) {
            return None;
        }
        let verb = (2..self.lows.len()).find(|&k| matches!(self.lows[k].as_str(), "is" | "was"))?;
        if verb + 1 >= self.lows.len() {
            return None;
        }
        Some(
            self.tokens[1..verb]
                .iter()
                .chain(&self.tokens[verb + 1..])
                .map(|t| (*t).to_owned())
                .collect(),
        )
    }

    /// "Sofia is my girlfriend" -> "my girlfriend is Sofia"; "Biscuit is my cat's name"
    /// -> "my cat's name is Biscuit"; "Ruth is Tom's wife" -> "Tom's wife is Ruth"; "Max
    /// is my neighbour's dog" -> "my neighbour's dog is Max"; "coldplay is my wife's
    /// favourite band" -> "my wife's favourite band is coldplay".
    fn owned_first(&self) -> Option<Vec<String>> {
        let (len, after, verb) = self.copula(4)?;
        let first = self.first(len)?;
        let named = first.join(" ").to_lowercase();
        if self.about.iter().any(|a| a.to_lowercase() == named) {
            return None;
        }
        // Whose: "my", "our", or someone's ("Tom's").
        let owner = self.lows.get(after)?;
        let someones = owner.ends_with("'s")
            && owner.len() > 2
            && self.tokens[after]
                .chars()
                .all(|c| c.is_alphabetic() || c == '\'' || c == '\u{2019}');
        if !(matches!(owner.as_str(), "my" | "our") || someones) {
            return None;
        }
        // The people it goes through: "my girlfriend", "my neighbour's dog", "my wife's".
        let mut end = after + 1;
        let mut person = false;
        for _ in 0..2 {
            let Some(used) = relation_tokens(&self.tokens[end..]) else {
                break;
            };
            person = true;
            end += used;
            if !self.lows[end - 1].ends_with("'s") {
                break;
            }
        }
        // What is theirs: "name", "favourite band"; a few words and no clause of their own.
        let thing = self.lows[end..]
            .iter()
            .take_while(|w| !AFTER_RELATION.contains(&w.as_str()))
            .count();
        let plain = self.lows[end..end + thing].iter().all(|w| {
            w.chars().all(|c| c.is_alphabetic() || c == '\'' || c == '-')
                && !NOT_FIRST.contains(&w.as_str())
                && !CLAUSE_WORDS.contains(&w.as_str())
        });
        if thing > 3 || !plain || (thing == 0 && !person && !someones) {
            return None;
        }
        end += thing;
        if !self.lows[end..].iter().all(|w| AFTER_RELATION.contains(&w.as_str())) {
            return None;
        }
        // A person put first is a name: one word, or capitalised words ("Dr Shah").
        let name = first.iter().all(|w| w.chars().all(|c| c.is_alphabetic() || c == '-'))
            && (len == 1
                || first.iter().all(|w| w.starts_with(char::is_uppercase))
                || TITLES.contains(&first[0].to_lowercase().as_str()));
        let whom = person && thing == 0;
        if whom && !name {
            return None;
        }
        let mut out: Vec<String> = self.tokens[after..end].iter().map(|t| (*t).to_owned()).collect();
        out.push(verb.to_owned());
        if whom {
            out.extend(first.into_iter().map(|w| capitalised(&w)));
        } else {
            out.extend(first);
        }
        out.extend(self.tokens[end..].iter().map(|t| (*t).to_owned()));
        Some(out)
    }
}

/// Past participles not in "-ed" that a passive tells with "by": "I was taught by".
const PARTICIPLES: &[&str] = &[
    "taught", "brought", "bought", "made", "built", "given", "written", "driven", "bitten", "taken", "told", "sold",
    "paid", "kept", "seen", "known", "shown", "chosen", "found", "run", "sent", "grown", "drawn", "held", "led",
];

/// Words that open a clause of their own: "Sofia is my girlfriend and she ...".
const CLAUSE_WORDS: &[&str] = &[
    "and", "but", "or", "so", "because", "cos", "since", "who", "which", "that", "when", "if", "though", "is", "was",
    "are", "were",
];

impl Told<'_> {
    /// "i was raised by my aunt Maria" -> "my aunt Maria raised me"; "our cat was named
    /// Mittens by my daughter" -> "my daughter named our cat Mittens"; "a food truck is
    /// owned by my cousin" -> "my cousin owned a food truck".
    fn passive(&self) -> Option<Vec<String>> {
        let be = (1..=4.min(self.lows.len())).find(|&k| {
            self.lows
                .get(k)
                .is_some_and(|w| matches!(w.as_str(), "is" | "was" | "are" | "were" | "got" | "am"))
        })?;
        let done = self.lows.get(be + 1)?;
        let participle = (done.len() > 4 && done.ends_with("ed")) || PARTICIPLES.contains(&done.as_str());
        let by = be + 2 + self.lows.get(be + 2..)?.iter().position(|w| w == "by")?;
        let agent = &self.tokens[by + 1..];
        let agent_lows = &self.lows[by + 1..];
        let owned = agent_lows
            .first()
            .is_some_and(|w| matches!(w.as_str(), "my" | "our") || w.ends_with("'s"));
        let named = agent.first().is_some_and(|w| w.starts_with(char::is_uppercase));
        let plain = agent_lows
            .iter()
            .all(|w| w.chars().all(|c| c.is_alphabetic() || c == '\'') && !CLAUSE_WORDS.contains(&w.as_str()));
        let pointing = self.lows[..be].iter().any(|w| {
            matches!(
                w.as_str(),
                "it" | "that"
                    | "this"
                    | "there"
                    | "what"
                    | "which"
                    | "who"
                    | "everything"
                    | "everyone"
                    | "he"
                    | "she"
                    | "they"
            )
        });
        if !participle || agent.is_empty() || agent.len() > 4 || !(owned || named) || !plain || pointing {
            return None;
        }
        let object = self.tokens[..be].iter().map(|t| match t.to_lowercase().as_str() {
            "i" => "me".to_owned(),
            "we" => "us".to_owned(),
            _ => (*t).to_owned(),
        });
        let mut out: Vec<String> = agent.iter().map(|t| (*t).to_owned()).collect();
        out.push(self.tokens[be + 1].to_owned());
        out.extend(object);
        out.extend(self.tokens[be + 2..by].iter().map(|t| (*t).to_owned()));
        Some(out)
    }
}

/// How many of `tokens` a relation at their start takes, when it takes whole tokens.
fn relation_tokens(tokens: &[&str]) -> Option<usize> {
    let read = words(&tokens.join(" "));
    let (_, used) = relation(&read)?;
    let mut counted = 0;
    for (k, token) in tokens.iter().enumerate() {
        counted += words(token).len();
        if counted == used {
            return Some(k + 1);
        }
        if counted > used {
            return None;
        }
    }
    None
}

/// Whether words open a statement with its subject: "I grew up", "my wife was born".
fn opens_a_statement(lows: &[String], tokens: &[&str]) -> bool {
    lows.len() >= 2
        && (SUBJECTS.contains(&lows[0].as_str())
            || tokens[0].starts_with(char::is_uppercase) && tokens[0].chars().all(char::is_alphabetic))
}

/// Whether a word names a day of the week ("Saturday", "fridays").
fn is_day(word: &str) -> bool {
    let low = word.to_lowercase();
    WEEKDAYS.contains(&low.trim_end_matches('s'))
}

/// A name as a name is written: "sofia" -> "Sofia", so that it still reads as one.
fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::in_usual_order;

    #[test]
    fn a_fact_told_back_to_front_is_read_in_the_usual_order() {
        for (told, usual) in [
            ("Sofia is my girlfriend", "my girlfriend is Sofia"),
            ("sofia's my girlfriend btw", "my girlfriend is Sofia btw"),
            ("Dr Shah is my dentist", "my dentist is Dr Shah"),
            ("Biscuit is my cat's name", "my cat's name is Biscuit"),
            ("Ruth is Tom's wife", "Tom's wife is Ruth"),
            ("Max is my neighbour's dog", "my neighbour's dog is Max"),
            ("Kate is my manager now, Dan left", "my manager is Kate now, Dan left"),
            ("Glasgow is where I grew up", "I grew up in Glasgow"),
            ("Nigeria is where I'm from", "I'm from Nigeria"),
            ("2019 was the year I moved to Berlin", "I moved to Berlin in 2019"),
            ("Saturdays are when I swim", "I swim on Saturdays"),
            (
                "coldplay is my wife's favourite band",
                "my wife's favourite band is coldplay",
            ),
            ("liverpool is the team my dad supports", "my dad supports liverpool"),
            (
                "Tom is my brother's friend from school",
                "my brother's friend from school is Tom",
            ),
            ("Fridays is when I swim", "I swim on Fridays"),
            ("i was raised by my aunt Maria", "my aunt Maria raised me"),
            (
                "our cat was named Mittens by my daughter",
                "my daughter named our cat Mittens",
            ),
            ("a food truck is owned by my cousin", "my cousin owned a food truck"),
            ("oat milk is what I drink", "I drink oat milk"),
            ("what I drink is oat milk", "I drink oat milk"),
            ("btw Leeds is where we live now.", "btw we live now in Leeds."),
            (
                "scratch that, mum's birthday is the 16th of june",
                "mum's birthday is the 16th of june",
            ),
            ("my bad, I forgot to say I'm vegan", "I forgot to say I'm vegan"),
            (
                "Arjun, my son, is doing engineering at IIT Bombay",
                "my son Arjun is doing engineering at IIT Bombay",
            ),
            (
                "sam, my older brother, flies planes",
                "my older brother Sam flies planes",
            ),
            (
                "oops I typed that wrong, Leeds is where I grew up",
                "I grew up in Leeds",
            ),
        ] {
            assert_eq!(in_usual_order(told, &[]), usual, "{told}");
        }
    }

    #[test]
    fn other_shapes_are_read_as_told() {
        for told in [
            "That is where I grew up",
            "it was when I moved",
            "Glasgow is where you grew up?",
            "My girlfriend is Sofia",
            "work is my life",
            "Sofia is my girlfriend and she lives in Leeds",
            "priya@example.com is my email",
            "My glasses prescription is -2.75",
            "Dr. Shah is my dentist",
            "The Big Apple is where we met",
            "Sofia is lovely",
            "oops, dropped my phone",
            "Oh, my god, it's snowing",
            "it was made by hand",
            "I was bitten by a dog as a kid",
            "we were stopped by the police",
            "my flat is located by the river",
            "Hi, my name is Tom",
            "chloe, my bestie from school, is a vet",
        ] {
            assert_eq!(in_usual_order(told, &[]), told, "{told}");
        }
        // A hostile fact of the largest size a memory may have reads in one pass.
        let hostile = format!("{}Sofia is my girlfriend", "scratch that, ".repeat(1_170));
        assert_eq!(in_usual_order(&hostile, &[]), "my girlfriend is Sofia");
        let commas = "Nina, my sister, ".repeat(960);
        assert!(in_usual_order(&commas, &[]).len() <= commas.len() + 8);
        // In a memory about Raj, "Raj is my manager" is his fact as told.
        let about = ["Raj".to_owned()];
        assert_eq!(in_usual_order("Raj is my manager", &about), "Raj is my manager");
    }
}
