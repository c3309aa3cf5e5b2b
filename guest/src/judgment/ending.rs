//! What a new fact ends, switches or moves of an older one: "I sold the Civic last
//! weekend", "I switched from Vim to VS Code", "Tennis is on Wednesdays now".
//!
//! A denial told in passing ends nothing, and most of a conversation's denials are:
//! "Oh no, Jon!", "I hate not being on the court", "never give up", "who can say no to
//! chocolate?", "we never go hiking when it rains". So an ending counts only when it
//! states, is not under another verb or a condition, and what it ends is what the old
//! fact is about ([`Fact::topic`]), not a word it mentions in passing.

use std::collections::BTreeSet;

use super::Verdict;
use super::fact::{Fact, is_ignored, is_lead};
use super::someone::is_relation;
use super::words::{Word, is_frame, is_generic};
use crate::entities::{MONTHS, WEEKDAYS};

/// The old fact denied or ended, or a denied one affirmed: "I'm vegetarian" / "I'm not
/// vegetarian anymore", "I drive a Corolla" / "I sold the Corolla", "I have a car" / "I got
/// rid of my car, I cycle everywhere now".
///
/// In `talk` (turns of a conversation of several sentences, see `talk_of_several_sentences`),
/// only endings told for good count: a denial in passing ("I haven't been able to volunteer
/// much lately", "I couldn't agree more") or a piece of work finished is no ending there.
pub(super) fn ended(o: &Fact, n: &Fact, talk: bool) -> Option<Verdict> {
    // A question ends nothing, nor is ended: "Do you not like jazz?", "Do you still smoke?".
    let asks = |f: &Fact| f.words.iter().all(|w| w.asks);
    if o.former || o.past || asks(o) || asks(n) {
        return None;
    }
    // What the new fact ends, clause by clause: every telling word of it is in the old
    // fact, and one is what the old fact is about.
    let new_things = things_ended(n, talk);
    let ends_old = !o.denied && (ends_what_it_is_about(o, &new_things) || ends_the_one(o, &new_things));
    if o.denied != n.denied && !n.former {
        let old_things;
        let (yes, no, things, about) = if o.denied {
            old_things = ended_things(o);
            let about = ends_what_it_is_about(n, &old_things);
            (n, o, &old_things, about)
        } else {
            (o, n, &new_things, ends_old)
        };
        // The denial must state an ending ("Oh no, Jon!" does not); between longer
        // tellings, of what the other is about: "Keep going for your dreams and don't
        // quit!" is not denied by a later "Thanks! Keep going after your dreams!".
        if no.content.is_subset(&yes.content)
            && !things.is_empty()
            && ((yes.sentences() == 1 && no.sentences() == 1) || about)
        {
            return Some(Verdict::Change);
        }
    }
    // Now past: "I'm a nurse" / "I used to be a nurse".
    if n.former && !o.denied && n.content.is_subset(&o.content) {
        return Some(Verdict::Change);
    }
    ends_old.then_some(Verdict::Change)
}

/// Whether `n` takes the old fact back as a mistake: "Turns out I'm not allergic to
/// penicillin after all, the allergy test was negative" after "I'm allergic to penicillin".
/// The denial's own clause must say nothing the old fact does not, and the retraction be
/// told as one ("turns out", "after all", "actually", "apparently"); a denial in passing
/// ends nothing, as above.
pub(super) fn retracted(o: &Fact, n: &Fact, new: &str, ctx: &crate::supersession::RuleContext) -> bool {
    if o.denied || o.former || o.past || o.wish || !n.denied || n.wish {
        return false;
    }
    let lower = new.to_lowercase().replace('\u{2019}', "'");
    const MARKS: [&str; 5] = ["turns out", "turned out", "after all", "actually", "apparently"];
    if !MARKS.iter().any(|m| lower.contains(m)) {
        return false;
    }
    // The denial's clause without the words that mark it a retraction.
    let mut first = lower.split([',', ';', '.', '!']).next().unwrap_or_default().to_owned();
    for m in MARKS {
        first = first.replace(m, " ");
    }
    let told = Fact::read(&first, ctx);
    told.denied
        && !told.content.is_empty()
        && told.content.is_subset(&o.content)
        && super::fact::same_subject(&o.subject, &told.subject)
}

/// Whether one of `things` is the one thing of its kind that `o` tells the user has: "sold
/// the car" after "I drive a 2015 Ford Focus", "got rid of my phone" after "I use an
/// iPhone 12".
fn ends_the_one(o: &Fact, things: &[Vec<String>]) -> bool {
    super::slots::slot_of(o).is_some_and(|slot| ended_kind(things) == Some(slot.name.as_str()))
}

/// The attribute whose one thing `things` names alone ("the car", "my phone"), if any.
fn ended_kind(things: &[Vec<String>]) -> Option<&'static str> {
    things.iter().find_map(|t| {
        let telling: Vec<&String> = t.iter().filter(|w| !is_generic(w)).collect();
        match telling.as_slice() {
            [w] if matches!(w.as_str(), "car" | "motor") => Some("car"),
            [w] if w.as_str() == "phon" => Some("phone"),
            _ => None,
        }
    })
}

/// The attribute a fact ends the one thing of ("sold the car, just getting the bus now"),
/// for finding what it replaces.
pub(super) fn ends_a_kind(n: &Fact) -> Option<&'static str> {
    ended_kind(&ended_things(n))
}

/// Whether one of `things` (what another fact ends) is told in `o`, all its telling
/// words, and one of them is what `o` is about.
fn ends_what_it_is_about(o: &Fact, things: &[Vec<String>]) -> bool {
    let topic = o.topic();
    things.iter().any(|thing| {
        // "I cancelled my gym membership" ends going to the gym: a standing's word names
        // how one had the thing, not another thing.
        let telling: Vec<&String> = thing
            .iter()
            .filter(|w| !is_generic(w) && !STANDINGS.contains(&w.as_str()))
            .collect();
        // "I quit smoking" ends "I'm a smoker": the doer is the doing and "-er".
        let holds = |set: &BTreeSet<String>, w: &str| {
            set.contains(w)
                || set
                    .iter()
                    .any(|c| c.strip_prefix(w).is_some_and(|rest| matches!(rest, "er" | "ers")))
        };
        !telling.is_empty() && telling.iter().all(|w| holds(&o.content, w)) && telling.iter().any(|w| holds(&topic, w))
    })
}

/// Stems of the words by which one holds a thing: a membership of the gym, a
/// subscription to a paper.
const STANDINGS: &[&str] = &["membership", "subscription", "contract", "account", "pass"];

/// The stems of what each ending in a fact ends, up to the end of its clause.
pub(super) fn ended_things(f: &Fact) -> Vec<Vec<String>> {
    things_ended(f, false)
}

/// [`ended_things`], of only the endings told for good when `for_good` asks it.
fn things_ended(f: &Fact, for_good: bool) -> Vec<Vec<String>> {
    let words = &f.words[f.body.min(f.words.len())..];
    let mut out = Vec::new();
    let mut clause_start = 0;
    for i in 0..words.len() {
        let start = clause_start;
        if words[i].stop || is_clause_break(&words[i].low) {
            clause_start = i + 1;
        }
        if ends_at(words, start, i)
            && let Some(thing) = thing_after(words, i, for_good)
        {
            out.push(thing);
        }
        // "let the nanny go", "let my national trust membership lapse": the thing stands
        // between.
        if words[i].low == "let"
            && !words[i].asks
            && let Some(go) = words[i + 1..(i + 6).min(words.len())]
                .iter()
                .position(|w| matches!(w.low.as_str(), "go" | "lapse" | "expire"))
            && words[i + 1..i + 1 + go].iter().all(|w| !w.stop)
            && (i == start || is_ignored(&words[i - 1]) || is_lead(&words[i - 1].low))
        {
            let thing: Vec<String> = words[i + 1..i + 1 + go]
                .iter()
                .filter(|w| !is_ignored(w) && !is_frame(&w.low))
                .map(|w| w.stem.clone())
                .collect();
            if !thing.is_empty() {
                out.push(thing);
            }
        }
    }
    out
}

/// Whether `words[i]` states an ending, in a clause that began at `start`.
fn ends_at(words: &[super::words::Word], start: usize, i: usize) -> bool {
    let w = &words[i];
    let before = i.checked_sub(1).map(|b| words[b].low.as_str());
    let after = words.get(i + 1).map(|n| n.low.as_str());
    let opens = match w.low.as_str() {
        "not" | "never" | "no" | "quit" | "stopped" | "ditched" | "dropped" | "sold" | "left" | "rid" | "finished"
        | "cancelled" | "canceled" | "abandoned" | "former" | "formerly" | "ex" | "uninstalled" | "deleted"
        | "unsubscribed" | "resigned" | "binned" => true,
        "up" => matches!(before, Some("gave" | "given" | "give" | "split" | "broke")),
        // "came off", "called off", not "show off" or "off to Ireland".
        "off" => !matches!(before, Some("show" | "shows" | "showed" | "showing" | "shown")) && after != Some("to"),
        "out" => matches!(
            before,
            Some("moved" | "moving" | "cut" | "dropped" | "pulled" | "opted")
        ),
        "down" => matches!(before, Some("stepped" | "stepping" | "shut" | "closed" | "wound")),
        // "stepped back from the food bank".
        "back" => matches!(before, Some("stepped" | "stepping")),
        // "done with windows for good".
        "with" => matches!(before, Some("done")),
        // "jacked in the chef job", "packed in my job".
        "in" => matches!(before, Some("jacked" | "packed" | "chucked")),
        _ => false,
    };
    // An ending that ends its own clause ends nothing ("Oh no, Jon!", "why not!"), nor one
    // in a question ("who can say no to chocolate?").
    if !opens || w.stop || w.asks {
        return false;
    }
    // Nor one denied itself: "I'm not going to give up", "I haven't left Google".
    let denial = |low: &str| matches!(low, "not" | "never" | "no");
    if !denial(&w.low) && words[start..i].iter().any(|p| denial(&p.low)) {
        return false;
    }
    // Nor one right after another verb: "I hate not being on the court". A particle's
    // word before is its own verb ("came off", "split up"), and a name is a subject ("Jack
    // quit").
    let particle = matches!(w.low.as_str(), "off" | "up" | "out" | "down" | "in" | "back" | "with");
    if particle {
        // One word with the one before it is a thing: "the chili cook-off", "the kick-off".
        if i > start && words[i - 1].joined {
            return false;
        }
        // A particle needs its verb ("came off", "took me off", "I'm off nights"): "Off the
        // court, I ..." is a place, "the off-season" a time.
        return i > start
            && !matches!(
                words[i - 1].low.as_str(),
                "the" | "a" | "an" | "my" | "your" | "our" | "their" | "this" | "that" | "its" | "his" | "some" | "any"
            );
    }
    i <= start || {
        let p = &words[i - 1];
        p.upper || is_ignored(p) || is_frame(&p.low) || is_lead(&p.low)
    }
}

/// What the ending at `words[i]` ends: the telling stems after it in its clause, or
/// `None` when it ends nothing for good.
/// With `told_for_good`, a denial counts only when it says so ("anymore", "no longer",
/// "after all"), and "finished" and "off" not at all: talk finishes a piece of work,
/// takes five minutes off and sees an effort pay off far more often than it ends a thing.
fn thing_after(words: &[super::words::Word], i: usize, told_for_good: bool) -> Option<Vec<String>> {
    let denial = matches!(words[i].low.as_str(), "not" | "never" | "no");
    if told_for_good && matches!(words[i].low.as_str(), "finished" | "off") {
        return None;
    }
    // "I'm not sure what to paint", "it's not just about winning": no denial of the rest;
    // "don't quit!", "never give up", "I'm not going to give up": an ending denied is none.
    if denial
        && words[i + 1..]
            .iter()
            .find(|n| !matches!(n.low.as_str(), "going" | "to" | "ever"))
            .is_some_and(|n| {
                matches!(
                    n.low.as_str(),
                    "sure" | "certain" | "convinced" | "just" | "only" | "even" | "quit" | "stop" | "give" | "gave"
                )
            })
    {
        return None;
    }
    // "didn't renew the season ticket this year": a renewal let go is an ending.
    let renewal = denial
        && words
            .get(i + 1)
            .is_some_and(|w| matches!(w.low.as_str(), "renew" | "renewing"));
    // "finished up with an post", "finished up therapy": the particle is no thing.
    let finished_up = words[i].low == "finished" && words.get(i + 1).is_some_and(|w| w.low == "up");
    let skip = usize::from(renewal || finished_up);
    let mut thing = Vec::new();
    let mut for_good = false;
    for (k, next) in words[i + 1 + skip..].iter().enumerate() {
        let k = k + skip;
        let low = next.low.as_str();
        for_good |= matches!(low, "anymore" | "longer");
        for_good |= low == "after" && words.get(i + k + 2).is_some_and(|w| w.low == "all");
        if is_clause_break(low) {
            // "We never go hiking when it rains", "no coffee after 3pm": a habit, not an
            // ending; "I quit smoking when my daughter was born" ends it.
            let condition = matches!(low, "when" | "if" | "unless" | "until" | "while" | "before" | "after");
            if denial && condition && !for_good {
                return None;
            }
            break;
        }
        // "I ditched Lightroom for Darktable", "I left Google for Meta"; not "I stopped
        // going to yoga", whose place is what it ends.
        let going = k > 0 && is_going(&words[i + k].low);
        // "sold my ps5 on facebook marketplace": where it went is not what ended ("gave up on
        // Spanish" ends Spanish).
        let venue = k > 0 && matches!(low, "on" | "via" | "through");
        // "resigned from the school at the end of term": when, not what.
        let at_a_time = k > 0
            && low == "at"
            && words
                .get(i + k + 3)
                .is_some_and(|w| matches!(w.low.as_str(), "end" | "start" | "beginning" | "weekend"));
        if at_a_time {
            break;
        }
        if !denial && (low == "for" || (low == "to" && !going) || venue) {
            break;
        }
        // "I didn't run today", "no piano next tuesday": once, not for good.
        if denial && !renewal && matches!(low, "today" | "tonight" | "yesterday" | "this" | "next") {
            return None;
        }
        // "six months ago", "a few weeks back": a count of time is when, not what.
        let counts_time = is_count(low) && words.get(i + k + 2).is_some_and(|t| is_when(&t.low));
        // "cut out coffee completely": how much is not what.
        let degree = matches!(low, "completely" | "entirely" | "totally" | "altogether" | "fully");
        if !is_frame(low) && !is_when(low) && !counts_time && !degree && !is_ignored(next) {
            thing.push(next.stem.clone());
        }
        if next.stop || k >= 5 {
            break;
        }
    }
    if told_for_good && denial && !for_good {
        return None;
    }
    Some(thing)
}

/// Words that open a new clause.
fn is_clause_break(low: &str) -> bool {
    matches!(
        low,
        "and"
            | "but"
            | "because"
            | "so"
            | "since"
            | "after"
            | "when"
            | "as"
            | "if"
            | "unless"
            | "until"
            | "while"
            | "before"
    )
}

/// Words that say when, not what: "I sold the Civic last weekend" ends the Civic.
fn is_when(low: &str) -> bool {
    WEEKDAYS.contains(&low)
        || MONTHS.contains(&low)
        || matches!(
            low,
            "last"
                | "this"
                | "next"
                | "ago"
                | "yesterday"
                | "today"
                | "tonight"
                | "recently"
                | "again"
                | "week"
                | "weeks"
                | "weekend"
                | "month"
                | "months"
                | "year"
                | "years"
                | "days"
                | "hours"
                | "night"
                | "morning"
                | "afternoon"
                | "evening"
                | "back"
                | "spring"
                | "summer"
                | "autumn"
                | "fall"
                | "winter"
                | "easter"
                | "christmas"
                | "at"
        )
}

/// A number of something, as in "six months ago", "a few weeks", "3 days".
fn is_count(low: &str) -> bool {
    low.bytes().all(|b| b.is_ascii_digit())
        || matches!(
            low,
            "one"
                | "two"
                | "three"
                | "four"
                | "five"
                | "six"
                | "seven"
                | "eight"
                | "nine"
                | "ten"
                | "eleven"
                | "twelve"
                | "few"
                | "couple"
                | "several"
                | "many"
        )
}

/// A verb of going somewhere regularly, whose place follows "to": "going to yoga",
/// "cycling to work".
fn is_going(low: &str) -> bool {
    matches!(
        low,
        "going"
            | "go"
            | "coming"
            | "walking"
            | "cycling"
            | "driving"
            | "commuting"
            | "travelling"
            | "traveling"
            | "listening"
            | "talking"
            | "swimming"
            | "running"
    )
}

/// "I switched from Vim to VS Code" after "I use Vim", "We switched broadband to
/// Virgin" after "Our broadband is with BT": what was moved is what the old fact is about.
pub(super) fn switched(o: &Fact, n: &Fact) -> bool {
    let words = &n.words[n.body.min(n.words.len())..];
    let Some(verb) = words.iter().position(|w| {
        !w.asks
            && matches!(
                w.low.as_str(),
                "switched"
                    | "switch"
                    | "changed"
                    | "moved"
                    | "upgraded"
                    | "migrated"
                    | "swapped"
                    | "replaced"
                    | "traded"
                    | "postponed"
                    | "rescheduled"
                    | "pushed"
                    | "ditched"
            )
    }) else {
        return false;
    };
    // What was moved ends at its preposition; "on" right after the verb is its particle
    // ("moved on from Google"), later it is not ("changed my view on helping others").
    let end = words[verb..]
        .iter()
        .enumerate()
        .position(|(k, w)| {
            matches!(
                w.low.as_str(),
                "to" | "for" | "with" | "into" | "since" | "after" | "when"
            ) || (w.low == "on" && k > 1)
                || w.stop
        })
        .map_or(words.len(), |e| verb + e);
    // "swapped mum's car insurance over to AAMI for her": someone else's thing.
    let theirs = words[verb + 1..end.max(verb + 1)].iter().any(|w| {
        matches!(w.low.as_str(), "his" | "her" | "their")
            || (w.low.ends_with("'s") && !matches!(w.low.as_str(), "it's" | "that's" | "what's" | "there's"))
    });
    if theirs {
        return false;
    }
    let topic = o.topic();
    let things: Vec<&Word> = words[verb + 1..end.max(verb + 1)]
        .iter()
        .filter(|w| !is_frame(&w.low) && w.low != "from" && !is_generic(&w.stem))
        .collect();
    // What was moved is its last word: "moved my spanish lessons" moved lessons, not the
    // Spanish one learns; "switched my phone contract" the phone's service.
    let head_held = things.last().is_none_or(|head| {
        o.content.contains(&head.stem)
            || matches!(
                head.low.as_str(),
                "contract" | "plan" | "deal" | "tariff" | "account" | "provider" | "supplier" | "subscription"
            )
    });
    let moved = head_held
        && things
            .iter()
            .any(|w| o.content.contains(&w.stem) && topic.contains(&w.stem));
    moved || switched_to_another_kind(o, &topic, words, end)
}

/// "I switched to day shifts" after "I work night shifts": the new value's head is what
/// the old fact is about, with a word the old one does not have.
fn switched_to_another_kind(o: &Fact, topic: &BTreeSet<String>, words: &[super::words::Word], at: usize) -> bool {
    if !words.get(at).is_some_and(|w| matches!(w.low.as_str(), "to" | "onto")) {
        return false;
    }
    let told: Vec<&super::words::Word> = words[at + 1..]
        .iter()
        .take_while(|w| !w.stop)
        .chain(words[at + 1..].iter().find(|w| w.stop))
        .filter(|w| !is_frame(&w.low) && !w.low.chars().all(|c| c.is_ascii_digit()))
        .collect();
    // The head is the last telling word; the kind may be a common one ("day").
    let Some(head) = told.iter().rev().find(|w| !is_generic(&w.stem)) else {
        return false;
    };
    o.content.contains(&head.stem) && topic.contains(&head.stem) && told.iter().any(|w| !o.content.contains(&w.stem))
}

/// "I play tennis on Mondays" / "Tennis is on Wednesdays now": the same thing at a new
/// time, told as a change.
pub(super) fn rescheduled(o: &Fact, n: &Fact) -> bool {
    rescheduled_in(o, n, &n.content)
}

/// One routine told in other words: "lights out by 11" and "I go to sleep at 1am" are both
/// bedtime, "alarm's at 7:30" and "I get up at 6am" both waking. (Work is no such word:
/// "running at 6am before work" is no working hour.)
fn routine(stem: &str) -> Option<&'static str> {
    let is = |p: &[&str]| p.iter().any(|p| stem.starts_with(p));
    if is(&["sleep", "asleep", "bed", "light"]) {
        Some("bed")
    } else if is(&["wak", "woke", "alarm"]) {
        Some("wake")
    } else {
        None
    }
}

/// [`rescheduled`], with the new fact's telling words given: those of its subject too, when
/// its "'s" read a thing as someone ("yoga's moved to thursdays").
pub(super) fn rescheduled_in(o: &Fact, n: &Fact, n_content: &BTreeSet<String>) -> bool {
    let is_time = |w: &str| {
        WEEKDAYS.contains(&w)
            || matches!(
                w,
                "weekday" | "weekend" | "morning" | "afternoon" | "evening" | "night" | "midnight" | "midday" | "noon"
            )
            || w.rsplit('#').next().is_some_and(|n| n.parse::<f32>().is_ok())
            // "the 20th", "the 27th": a day of the month.
            || ["st", "nd", "rd", "th"].iter().any(|s| {
                w.strip_suffix(s)
                    .is_some_and(|d| !d.is_empty() && d.len() <= 2 && d.chars().all(|c| c.is_ascii_digit()))
            })
            // "3pm", "10am".
            || w.strip_suffix("am")
                .or_else(|| w.strip_suffix("pm"))
                .is_some_and(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_digit()))
    };
    let lows = n.body_lows();
    let marked = lows.iter().enumerate().any(|(i, w)| {
        matches!(
            *w,
            "now"
                | "instead"
                | "moved"
                | "moving"
                | "changed"
                | "anymore"
                | "bumped"
                | "pushed"
                | "shifted"
                | "lately"
                | "nowadays"
        ) || (*w == "from" && lows.get(i + 1).is_some_and(|x| matches!(*x, "this" | "next")))
            || (*w == "these" && lows.get(i + 1) == Some(&"days"))
    });
    let times = |c: &BTreeSet<String>| -> Vec<String> { c.iter().filter(|w| is_time(w)).cloned().collect() };
    let (a, b) = (times(&o.content), times(n_content));
    if !marked || a.is_empty() || b.is_empty() || a == b {
        return false;
    }
    // "the toddler's bedtime is 7 now" is no routine of the teller's to read as one.
    let theirs = lows.iter().any(|w| is_relation(w.trim_end_matches("'s")));
    let routine = |w: &str| if theirs { None } else { routine(w) };
    let rest = |c: &BTreeSet<String>, t: &[String]| -> BTreeSet<String> {
        c.iter()
            .filter(|w| !t.contains(w) && (routine(w).is_some() || !is_generic(w)))
            .map(|w| routine(w).map_or_else(|| w.clone(), str::to_owned))
            .collect()
    };
    let (ra, rb) = (rest(&o.content, &a), rest(n_content, &b));
    !ra.is_empty() && ra.intersection(&rb).count() * 2 >= ra.len().min(rb.len()).max(1)
}
