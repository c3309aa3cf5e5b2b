//! How long a new fact should live, read from its words: a passing state ("I'm stuck in
//! traffic") passes in days, a plan or an appointment some time after the moment it names
//! ("dentist tomorrow at 3pm"), and a lasting state stays however it was told, including
//! one that began at a past moment ("I became vegan two years ago"). The type's cues
//! (`memory_type::classify`) decide the rest.

use chrono::{DateTime, Datelike, TimeDelta, Utc, Weekday};

use crate::entities::MONTHS;
use crate::memory_type::{MemoryType, classify};

/// A type for a new fact, and the moment it stops mattering when its words name one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lifetime {
    pub memory_type: MemoryType,
    pub expires_at: Option<DateTime<Utc>>,
}

/// Words for conditions that last: a fact about one is kept.
const CHRONIC: &[&str] = &[
    "diabetes",
    "diabetic",
    "asthma",
    "asthmatic",
    "allergic",
    "allergy",
    "allergies",
    "chronic",
    "coeliac",
    "celiac",
    "epilepsy",
    "epileptic",
    "migraines",
    "arthritis",
    "autistic",
    "autism",
    "adhd",
    "dyslexic",
    "dyslexia",
    "intolerant",
    "intolerance",
    "vegan",
    "vegetarian",
    "crohn's",
    "thyroid",
    "deaf",
    "blind",
    "wheelchair",
];

/// States that pass within days.
/// Places one is at for an evening or a visit, not for good: "at the pub with the lads".
const PLACES_OF_NOW: &[&str] = &[
    "pub",
    "bar",
    "gym",
    "shops",
    "beach",
    "park",
    "airport",
    "station",
    "cinema",
    "match",
    "game",
    "party",
    "hospital",
    "dentist's",
    "doctor's",
    "vet's",
    "hairdresser's",
    "pictures",
    "footy",
];

const PASSING: &[&str] = &[
    "headache",
    "migraine",
    "cold",
    "flu",
    "fever",
    "cough",
    "hangover",
    "hungover",
    "hungry",
    "starving",
    "tired",
    "exhausted",
    "knackered",
    "shattered",
    "sleepy",
    "bored",
    "drunk",
    "tipsy",
    "sick",
    "ill",
    "unwell",
    "nauseous",
    "traffic",
    "late",
    "stuck",
    "stressed",
    "anxious",
    "nervous",
    "excited",
    "grumpy",
    "sore",
    "sunburnt",
    "jetlagged",
    "jet-lagged",
    "broke",
    "skint",
    "busy",
    "swamped",
    "airport",
    "queue",
    "waiting",
    "heading",
    "omw",
    "en",
    "cooking",
    "eating",
    "watching",
    "driving",
    "walking",
    "sitting",
    "lying",
    "lunch",
    "dinner",
    "breakfast",
    "tonight",
    "today",
    "meeting",
    "appointment",
    "appt",
    "bug",
    "infection",
    "sprained",
    "delayed",
    "cancelled",
    "canceled",
    "mess",
    "freezing",
    "boiling",
    "snowing",
    "raining",
    "drizzling",
    "hailing",
    "pissing",
    "bucketing",
    "teething",
    "pouring",
    "windy",
    "humid",
    "rash",
    "stomach",
    "missed",
    "spilled",
    "spilt",
    "forgot",
    "lost",
    "outage",
    "power's",
    "battery",
    "queueing",
    "commuting",
    "hiccups",
    "crying",
    "row",
    "argument",
    "fight",
    "mood",
    "dizzy",
    "queasy",
    "bloated",
    "achy",
    "itchy",
    "jittery",
    "shaky",
];

/// Where one is for now: "I'm on the train", "I'm at the vet", "I'm at my sister's".
const HERE_FOR_NOW: &[&str] = &[
    "train", "bus", "plane", "tube", "ferry", "phone", "call", "break", "way", "road", "motorway", "highway",
];

/// Verbs, in the past, that began a state which then lasts: "I became vegan", "we
/// adopted a dog", "I started a new job on Monday".
const BEGAN: &[&str] = &[
    "became",
    "started",
    "moved",
    "married",
    "engaged",
    "divorced",
    "adopted",
    "bought",
    "joined",
    "graduated",
    "retired",
    "promoted",
    "diagnosed",
    "converted",
    "switched",
    "born",
    "hired",
    "opened",
    "launched",
    "founded",
    "inherited",
    "qualified",
    "emigrated",
    "relocated",
    "separated",
    "enrolled",
    "signed",
    "remortgaged",
    "refixed",
    "refinanced",
];

/// Verbs that begin a lasting state only with a past moment beside them: "I quit smoking
/// in January", but "I got a headache".
const BEGAN_WHEN_DATED: &[&str] = &[
    "quit",
    "stopped",
    "passed",
    "gave",
    "finished",
    "left",
    "split",
    "lost",
    "sold",
    "got",
    "become",
    "start",
    // A dose or an amount changed: "doc upped my sertraline to 100mg today".
    "upped",
    "increased",
    "raised",
    "lowered",
    "reduced",
    "doubled",
    "halved",
];

/// Words that say a fact is a habit: it lasts, whatever day it names.
const ROUTINE: &[&str] = &[
    "every",
    "always",
    "usually",
    "tend",
    "tends",
    "each",
    "weekly",
    "daily",
    "normally",
    "often",
    "never",
    "mondays",
    "tuesdays",
    "wednesdays",
    "thursdays",
    "fridays",
    "saturdays",
    "sundays",
    "weekends",
    "weekdays",
    "mornings",
    "evenings",
    "nights",
    "generally",
    "typically",
    "whenever",
];

const DAYS: [(&str, Weekday); 7] = [
    ("monday", Weekday::Mon),
    ("tuesday", Weekday::Tue),
    ("wednesday", Weekday::Wed),
    ("thursday", Weekday::Thu),
    ("friday", Weekday::Fri),
    ("saturday", Weekday::Sat),
    ("sunday", Weekday::Sun),
];

fn words(content: &str) -> Vec<String> {
    let low = content.to_lowercase().replace('\u{2019}', "'");
    let raw: Vec<&str> = low
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-'))
        .filter(|w| !w.is_empty())
        .collect();
    raw.iter()
        .enumerate()
        // "Friday's five-a-side" is Friday's; "in the sun" is no Sunday.
        .map(|(i, w)| match w.strip_suffix("'s") {
            Some(day) if DAYS.iter().any(|(d, _)| *d == day) => day,
            _ if *w == "sun" && i > 0 && raw[i - 1] == "the" => "the-sun",
            _ => w,
        })
        .map(|w| match w {
            "tmrw" | "tmr" | "tomoz" | "tmrow" => "tomorrow".to_owned(),
            "tonite" => "tonight".to_owned(),
            "mon" => "monday".to_owned(),
            "tue" | "tues" => "tuesday".to_owned(),
            "wed" | "weds" => "wednesday".to_owned(),
            "thu" | "thur" | "thurs" => "thursday".to_owned(),
            "fri" => "friday".to_owned(),
            "sat" => "saturday".to_owned(),
            "sun" => "sunday".to_owned(),
            _ => w.to_owned(),
        })
        .collect()
}

/// The type and expiry a new fact gets when none is given; `said` is when it was told.
pub fn infer(content: &str, said: DateTime<Utc>) -> Lifetime {
    let base = classify(content);
    let w = words(content);
    let has = |x: &str| w.iter().any(|v| v == x);
    let lasting = |t: MemoryType| Lifetime {
        memory_type: if t.is_ephemeral() { MemoryType::Knowledge } else { t },
        expires_at: None,
    };
    // A question, a request, thanks or a daydream: the day's talk, not a fact.
    if talk::tells_nothing(&w, content) {
        return Lifetime {
            memory_type: MemoryType::Context,
            expires_at: None,
        };
    }
    let now_words = has("today") || has("tonight") || has("tomorrow");
    // "Found out today I'm allergic to penicillin": learned on a day, and lasting; "my
    // asthma's bad today" is the day's.
    let learned = phrase(&w, &["found", "out"])
        || phrase(&w, &["turns", "out"])
        || phrase(&w, &["turned", "out"])
        || has("diagnosed")
        || has("confirmed");
    if w.iter().any(|x| CHRONIC.contains(&x.as_str())) && (!now_words || learned) {
        return lasting(base);
    }
    // A birth, a death, a job got, a lasting state to come, a new level of an amount: the
    // day it is told with begins what lasts.
    if news::life_event(&w, content) || begins::a_lasting_state(&w, content) || level::a_new_level(&w) {
        return lasting(base);
    }
    let broke_up = phrase(&w, &["broke", "up"]);
    let told_of_a_time = phrase(&w, &["last", "night"]) || phrase(&w, &["this", "morning"]) || has("earlier");
    let recent = has("just") || told_of_a_time;
    if reaction::told_as_habit(&w) && !now_words && !told_of_a_time && !has("yesterday") && !has("ago") {
        return lasting(base);
    }
    // "never" before a verb in the past is one occasion: "the bus never turned up".
    // "hungover as hell, never again" ends on one occasion regretted; "never again flying
    // Ryanair" is a resolution, which lasts.
    let once = |i: usize| {
        w[i] == "never"
            && w.get(i + 1).is_some_and(|v| {
                v.ends_with("ed") || matches!(v.as_str(), "showed" | "rang") || v == "again" && w.get(i + 2).is_none()
            })
    };
    let routine = w
        .iter()
        .enumerate()
        .any(|(i, x)| ROUTINE.contains(&x.as_str()) && !once(i))
        && !now_words;
    let mishap = mishap::of_the_day(&w, content) && !routine;
    // "I cancelled my gym membership" ends a thing of one's own; "my flight got cancelled"
    // is a plan gone.
    // "cancelled netflix today", "mum cancelled Spotify" too: "cancelled" as someone's own
    // verb with a thing after it, not what happened to a plan ("got cancelled", "the
    // ferry's cancelled", "my uber cancelled on me").
    let ended_by_me = w.iter().enumerate().any(|(i, x)| {
        let passive = i > 0
            && (w[i - 1].ends_with("'s")
                || matches!(
                    w[i - 1].as_str(),
                    "got" | "get" | "gets" | "getting" | "was" | "were" | "been" | "is" | "are" | "be" | "being"
                ));
        let object = w.get(i + 1).is_some_and(|n| {
            !matches!(
                n.as_str(),
                "because"
                    | "cos"
                    | "coz"
                    | "cuz"
                    | "due"
                    | "again"
                    | "on"
                    | "so"
                    | "and"
                    | "but"
                    | "as"
                    | "at"
                    | "for"
                    | "by"
                    | "till"
                    | "until"
                    | "last"
                    | "this"
                    | "today"
                    | "tonight"
                    | "tomorrow"
                    | "yesterday"
            )
        });
        matches!(x.as_str(), "cancelled" | "canceled") && !passive && object
    });
    // A state that passes. The words of the present ("currently", "right now") pass too,
    // but a habit is told with them as well: they are read apart.
    let passing_word = |i: usize, x: &String| {
        PASSING.contains(&x.as_str())
            // "on long-term sick leave", "sick pay".
            && !w.get(i + 1).is_some_and(|n| matches!(n.as_str(), "leave" | "pay" | "note"))
            && !(x == "broke" && broke_up)
            && !(x == "lost" && recent && has("weight"))
            && !(ended_by_me && matches!(x.as_str(), "cancelled" | "canceled"))
            // "glasses for driving", "I love cooking": a doing named, not done now.
            && !(x.ends_with("ing")
                && i > 0
                && matches!(
                    w[i - 1].as_str(),
                    "for" | "of" | "about" | "by" | "without" | "before" | "after" | "love" | "enjoy" | "hate" | "like"
                ))
    };
    // "Barclays app was driving me mad": a passing state told as past passes nothing now;
    // nor is the day a change is told of ("today") a passing state of it.
    let passing_now = w
        .iter()
        .enumerate()
        .any(|(i, x)| x != "today" && passing_word(i, x) && !(i > 0 && matches!(w[i - 1].as_str(), "was" | "were")));
    // "Freelancing as a UX designer for now", "working from home these days": a pursuit or
    // a state of months, not a doing of now.
    let of_months = habit::told_as_present(&w) && (habit::lasts(&w) || state::of_months(&w));
    let passing_state = w.iter().enumerate().any(|(i, x)| passing_word(i, x))
        || doing::told_as_now(&w) && !of_months
        || doing::minutes_up_to_now(&w)
        || mishap
        || phrase(&w, &["for", "the", "weekend"])
        || phrase(&w, &["killing", "me"])
        // "at the pub with the lads": a place of now, told without "I'm".
        || (w.first().is_some_and(|x| x == "at")
            && w.get(1).is_some_and(|x| x == "the")
            && w.get(2).is_some_and(|x| PLACES_OF_NOW.contains(&x.as_str())))
        || w.windows(3).any(|p| {
            matches!(p[0].as_str(), "am" | "i'm" | "im" | "we're")
                && matches!(p[1].as_str(), "at" | "on")
                && (matches!(p[2].as_str(), "the" | "my" | "a") || (p[1] == "at" && p[2].ends_with("'s")))
                && (p[1] == "at" || w.iter().any(|x| HERE_FOR_NOW.contains(&x.as_str())))
        });
    let state_passes = passing_state
        || has("currently")
        || has("atm")
        || has("rn")
        || phrase(&w, &["right", "now"])
        || phrase(&w, &["at", "the", "moment"]);
    let dated = past_anchor(&w, said) || recent;
    // A verb that begins a lasting state when its moment is told: "I quit smoking in
    // January", "started my new job this week".
    let began_when_dated = w
        .iter()
        .enumerate()
        .any(|(i, x)| BEGAN_WHEN_DATED.contains(&x.as_str()) && (x != "got" || mishap::got_something(&w, i)));
    // "switched to day shifts from this week": the moment begins the fact.
    let changed_from = schedule::changed_from_a_moment(&w);
    // A mishap's verb ("left my umbrella", "lost my keys") begins nothing; nor does a
    // "got" without a thing got ("got stung", "got home").
    let began = !mishap
        && (w.iter().any(|x| BEGAN.contains(&x.as_str()))
            || broke_up
            || begun_by_phrase(&w)
            || changed_from
            || (dated && began_when_dated));
    // "It's my birthday today!" is today's; "my birthday is 3 May" is every year's.
    // "Jake's birthday party is Saturday" and "a scarf for my dad's birthday" are one
    // day's: a plan for the day, not the day.
    let for_the_day = w.iter().enumerate().any(|(i, x)| {
        matches!(x.as_str(), "birthday" | "birthday's" | "anniversary")
            && (w.get(i + 1).is_some_and(|n| {
                matches!(
                    n.as_str(),
                    "party"
                        | "dinner"
                        | "drinks"
                        | "meal"
                        | "present"
                        | "gift"
                        | "card"
                        | "cake"
                        | "plans"
                        | "celebration"
                )
            }) || w[i.saturating_sub(3)..i].iter().any(|b| b == "for"))
    });
    let yearly =
        (has("birthday") || has("birthday's") || has("anniversary") || has("born")) && !now_words && !for_the_day;
    // A yearly day, or a moment a change begins at, is no moment the fact ends at.
    let moment = if yearly || changed_from {
        None
    } else {
        moment(&w, said, told_as_begun(&w))
    };
    // "running late for the standup": a doing of now, not the standup's schedule.
    let routine = routine || (schedule::standing(&w) && !now_words && !doing::told_as_now(&w));
    let state_passes_now = passing_now || (state_passes && !passing_state);
    if began && moment.is_none() && (dated || !state_passes_now) {
        return lasting(base);
    }
    // News of a change, told with the day it began ("started my new job this week"), a
    // test passed, a name to be called by.
    // A purchase told so ("bought new trainers today") is a day's news: the sets label it
    // passing.
    let begun_now =
        news::told_of_now(&w) && !mishap && !has("bought") && (told_as_begun(&w) || ended_by_me || began_when_dated);
    if (begun_now && !passing_now) || news::passed_a_test(&w) || news::name_to_call(content) {
        return lasting(base);
    }
    if began && dated {
        return lasting(base);
    }
    if routine || yearly {
        return lasting(base);
    }
    if let Some(at) = moment {
        // The type whose lifetime covers the moment, so that it is the moment that ends
        // the memory; past a month, a long-lived type with the moment as its expiry.
        let days = (at - said).num_days();
        let covers = |t: MemoryType| t.ttl().is_some_and(|ttl| ttl.num_days() > days);
        let t = if base.is_ephemeral() && covers(base) {
            base
        } else if days < 30 {
            MemoryType::Event
        } else {
            MemoryType::Knowledge
        };
        return Lifetime {
            memory_type: t,
            expires_at: Some(at),
        };
    }
    if base == MemoryType::Preference {
        return lasting(base);
    }
    // "These days I cycle to work", "I'm currently learning Japanese".
    if !passing_state && !now_words && !recent && of_months {
        return lasting(base);
    }
    if state_passes || recent {
        let t = if base.is_ephemeral() {
            base
        } else {
            MemoryType::Observation
        };
        return Lifetime {
            memory_type: t,
            expires_at: None,
        };
    }
    Lifetime {
        memory_type: base,
        expires_at: None,
    }
}

/// Whether `content` tells a beginning in the past ("I started a new job on Monday", "we
/// got married on Saturday"), beside which a weekday is the one before: "I'm getting
/// married on Saturday" is ahead. `dates::resolve` reads such a weekday the same way.
pub fn begun_in_the_past(content: &str) -> bool {
    told_as_begun(&words(content))
}

fn told_as_begun(w: &[String]) -> bool {
    begun_by_phrase(w)
        || w.iter().enumerate().any(|(i, x)| {
            BEGAN.contains(&x.as_str())
                && !(i > 0
                    && matches!(
                        w[i - 1].as_str(),
                        "getting" | "get" | "be" | "being" | "to" | "will" | "i'll" | "we'll" | "i'm" | "am" | "are"
                    ))
        })
}

/// Whether a word is a count: in figures, or a number word ("five", "twenty").
fn is_number(x: &str) -> bool {
    x.parse::<u32>().is_ok()
        || matches!(
            x,
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
                | "thirteen"
                | "sixteen"
                | "eighteen"
                | "twenty"
                | "thirty"
                | "forty"
                | "fifty"
                | "sixty"
                | "seventy"
                | "eighty"
                | "ninety"
        )
}

/// Beginnings told in a phrase: "we had a baby boy", "Leo turned 5", "I just turned 35".
fn begun_by_phrase(w: &[String]) -> bool {
    // A job lost: "I was made redundant today", "got laid off".
    let job_lost = w
        .windows(2)
        .any(|p| matches!((p[0].as_str(), p[1].as_str()), ("made", "redundant") | ("laid", "off")))
        || w.windows(2)
            .any(|p| matches!(p[0].as_str(), "got" | "was" | "been") && matches!(p[1].as_str(), "fired" | "sacked"));
    job_lost
        || w.windows(2).any(|p| p[0] == "turned" && is_number(&p[1]))
        || w.iter().enumerate().any(|(i, x)| {
            x == "had"
                && w[i + 1..(i + 4).min(w.len())]
                    .iter()
                    .any(|n| matches!(n.as_str(), "baby" | "twins" | "boy" | "girl"))
                && !w[..i]
                    .iter()
                    .any(|b| matches!(b.as_str(), "if" | "we'd" | "i'd" | "wish"))
        })
}

fn phrase(w: &[String], p: &[&str]) -> bool {
    w.windows(p.len()).any(|win| win.iter().zip(p).all(|(a, b)| a == b))
}

/// Whether the words place the fact's start in the past: "two years ago", "since 2015",
/// "last month", "in 2019", "for ten years", "was born".
fn past_anchor(w: &[String], said: DateTime<Utc>) -> bool {
    let has = |x: &str| w.iter().any(|v| v == x);
    // A date before the day it was said: "yesterday" as extraction writes it.
    let before = |x: &String| iso_date(x).is_some_and(|d| d < said.date_naive());
    w.iter().any(before)
        || has("ago")
        || has("since")
        || has("yesterday")
        || has("born")
        || phrase(w, &["last", "year"])
        || phrase(w, &["last", "month"])
        || phrase(w, &["last", "week"])
        || phrase(w, &["last", "summer"])
        || phrase(w, &["last", "spring"])
        || phrase(w, &["last", "autumn"])
        || phrase(w, &["last", "winter"])
        || phrase(w, &["this", "year"])
        || w.windows(2)
            .any(|p| p[0] == "in" && p[1].len() == 4 && p[1].parse::<u32>().is_ok_and(|y| y < 2100))
        || w.windows(2).any(|p| p[0] == "in" && MONTHS.contains(&p[1].as_str()))
        || w.windows(3).any(|p| p[0] == "for" && p[2].starts_with("year"))
}

/// A word that is a date as "2026-03-18" (as extraction writes one it resolved).
fn iso_date(word: &str) -> Option<chrono::NaiveDate> {
    chrono::NaiveDate::parse_from_str(word, "%Y-%m-%d").ok()
}

/// The moment the words name ahead of `said`, as when it has certainly passed (the end of
/// the day named, and a day's grace): "tomorrow at 3pm", "next Friday", "until Wednesday",
/// "this weekend", "in two weeks", "on the 14th". `None` when they name none.
fn moment(w: &[String], said: DateTime<Utc>, weekdays_past: bool) -> Option<DateTime<Utc>> {
    let has = |x: &str| w.iter().any(|v| v == x);
    let today = said.date_naive();
    let end_of = |days: i64| {
        (today + TimeDelta::days(days))
            .and_hms_opt(23, 59, 59)
            .map(|t| t.and_utc() + TimeDelta::days(1))
    };
    let count = |x: &str| -> Option<i64> {
        match x {
            "a" | "an" | "one" => Some(1),
            "two" | "couple" => Some(2),
            "three" | "few" => Some(3),
            "four" => Some(4),
            "five" => Some(5),
            "six" => Some(6),
            "ten" => Some(10),
            n => n.parse().ok().filter(|n: &i64| *n > 0 && *n < 400),
        }
    };
    let mut days: Option<i64> = None;
    let mut later = |d: i64| days = Some(days.map_or(d, |x: i64| x.max(d)));
    if has("tonight")
        || has("today")
        || has("later")
        || phrase(w, &["this", "evening"])
        || phrase(w, &["this", "afternoon"])
    {
        later(0);
    }
    if has("tomorrow") {
        later(1);
    }
    // "at 2", "at 3pm", "by 5", "in an hour", "in 20 minutes": today. Not the hour one
    // rises or sleeps at ("up at 5:30", "in bed by 10", "my alarm goes off at 6"), nor the hour of what one does in
    // the simple present ("I go to the gym at 6am before work"): a habit's.
    let simple_present = w.first().is_some_and(|x| x == "i")
        && w.get(1).is_some_and(|v| {
            v.len() > 1
                && !v.ends_with("ing")
                && !v.ends_with("ed")
                && !matches!(
                    v.as_str(),
                    "am" | "have"
                        | "will"
                        | "need"
                        | "must"
                        | "should"
                        | "can"
                        | "could"
                        | "was"
                        | "had"
                        | "got"
                        | "would"
                        | "might"
                        | "want"
                        | "think"
                        | "hope"
                        | "just"
                        | "only"
                        | "really"
                )
        });
    if !simple_present
        && w.windows(2).enumerate().any(|(i, p)| {
            // "my alarm goes off at 4:45 now": the hour one rises, a few words on.
            let rising = w[i.saturating_sub(3)..i].iter().any(|v| {
                matches!(
                    v.as_str(),
                    "up" | "wake" | "wakes" | "bed" | "asleep" | "sleep" | "bedtime" | "alarm"
                )
            });
            !rising
                && matches!(p[0].as_str(), "at" | "by" | "till" | "until" | "til")
                && p[1]
                    .trim_end_matches("am")
                    .trim_end_matches("pm")
                    .split(':')
                    .next()
                    .and_then(|h| h.parse::<u32>().ok())
                    .is_some_and(|h| (1..=12).contains(&h) || p[1].contains(':'))
                || (matches!(p[0].as_str(), "at" | "by") && matches!(p[1].as_str(), "midnight" | "noon" | "lunchtime"))
        })
        || w.windows(3)
            .any(|p| p[0] == "in" && (p[2].starts_with("hour") || p[2].starts_with("min")))
    {
        later(0);
    }
    let to_weekday = |day: Weekday| -> i64 {
        let from = today.weekday().num_days_from_monday() as i64;
        let to = day.num_days_from_monday() as i64;
        (to - from).rem_euclid(7)
    };
    for (i, x) in w.iter().enumerate() {
        // "2026-03-18", as extraction writes a date it resolved ("in two weeks" becomes
        // "on Wednesday 2026-03-18"): that day, and not the weekday before it. A past one
        // names no moment to come.
        if let Some(d) = iso_date(x) {
            if d >= today {
                later((d - today).num_days());
            }
            continue;
        }
        let dated = w.get(i + 1).is_some_and(|next| iso_date(next).is_some());
        if let Some((_, day)) = DAYS.iter().find(|(n, _)| n == x).filter(|_| !dated && !weekdays_past) {
            let mut d = to_weekday(*day);
            if d == 0 {
                d = 7;
            }
            if i > 0 && w[i - 1] == "next" {
                d += 7;
            }
            later(d);
        }
        let prev = |k: usize| (i >= k).then(|| w[i - k].as_str());
        match x.as_str() {
            "weekend" if matches!(prev(1), Some("this" | "the")) => later(to_weekday(Weekday::Sun)),
            "weekend" if prev(1) == Some("next") => later(to_weekday(Weekday::Sun) + 7),
            "week" if prev(1) == Some("this") => later(to_weekday(Weekday::Sun)),
            "week" if prev(1) == Some("next") => later(to_weekday(Weekday::Sun) + 7),
            "month" if prev(1) == Some("next") => later(31 + 30 - today.day() as i64),
            "month" if matches!(prev(1), Some("this")) || phrase(w, &["end", "of", "the", "month"]) => {
                later(31 - today.day() as i64)
            }
            "days" | "day" | "weeks" | "week" | "fortnight"
                if matches!(prev(2), Some("in" | "for"))
                    || matches!(prev(1), Some("in" | "for"))
                    // "for a couple of weeks", "in a few days".
                    || (prev(1) == Some("of") && matches!(prev(4), Some("in" | "for")))
                    // "for the next two weeks".
                    || (prev(2) == Some("next") && prev(3) == Some("the") && matches!(prev(4), Some("in" | "for"))) =>
            {
                let n = if prev(1) == Some("of") { prev(2) } else { prev(1) }
                    .and_then(count)
                    .unwrap_or(1);
                let unit = if x.starts_with("week") {
                    7
                } else if x == "fortnight" {
                    14
                } else {
                    1
                };
                later(n * unit);
            }
            _ => {}
        }
        // "on March 10", "10 March", "the 10th of March".
        if let Some(m) = MONTHS
            .iter()
            .position(|m| x == m || (x.len() >= 3 && m.starts_with(x.as_str()) && x.len() == 3))
        {
            let number = |t: Option<&str>| {
                t.map(|t| t.trim_end_matches(|c: char| c.is_alphabetic()))
                    .and_then(|n| n.parse::<u32>().ok())
                    .filter(|n| (1..=31).contains(n))
            };
            let day = number(w.get(i + 1).map(String::as_str))
                .or_else(|| number(prev(1)))
                .or_else(|| (prev(1) == Some("of")).then(|| number(prev(2))).flatten());
            // "3 June 2019", "July 1, 2015": the year written, whose date may be past.
            let written_year = (1..=3)
                .filter_map(|k| w.get(i + k))
                .find_map(|y| y.parse::<i32>().ok().filter(|y| (1900..2200).contains(y)));
            if let Some(day) = day {
                let date = match written_year {
                    Some(year) => chrono::NaiveDate::from_ymd_opt(year, m as u32 + 1, day),
                    // "for 14 June next year".
                    None if w[i + 1..(i + 4).min(w.len())]
                        .windows(2)
                        .any(|p| p[0] == "next" && p[1] == "year") =>
                    {
                        chrono::NaiveDate::from_ymd_opt(today.year() + 1, m as u32 + 1, day)
                    }
                    None => {
                        let this_year = chrono::NaiveDate::from_ymd_opt(today.year(), m as u32 + 1, day);
                        match this_year {
                            Some(d) if d < today => {
                                chrono::NaiveDate::from_ymd_opt(today.year() + 1, m as u32 + 1, day)
                            }
                            d => d,
                        }
                    }
                };
                if let Some(d) = date.filter(|d| *d >= today) {
                    later((d - today).num_days());
                }
            }
        }
        // "on the 14th", "by the 20th".
        if let Some(n) = x
            .strip_suffix("th")
            .or_else(|| x.strip_suffix("st"))
            .or_else(|| x.strip_suffix("nd"))
            .or_else(|| x.strip_suffix("rd"))
            .and_then(|n| n.parse::<i64>().ok())
            .filter(|n| (1..=31).contains(n))
            && matches!(prev(1), Some("the" | "on" | "by"))
            // "the 3rd floor", "5th Avenue": an ordinal of a thing is no day.
            && w.get(i + 1).is_none_or(|next| {
                !next.chars().all(char::is_alphabetic)
                    || MONTHS.contains(&next.as_str())
                    || DAYS.iter().any(|(d, _)| d == next)
                    || matches!(
                        next.as_str(),
                        "of" | "at" | "by" | "in" | "and" | "or" | "for" | "so" | "but" | "then" | "when" | "from"
                            | "to" | "until" | "till" | "about" | "with" | "on" | "i" | "we" | "is" | "please"
                    )
            })
        {
            let here = today.day() as i64;
            later(if n >= here { n - here } else { n + 30 - here });
        }
    }
    if let Some(d) = stay::season_left(w, today) {
        later(d);
    }
    // "in July", ahead this year and no day named: the month's end.
    for p in w.windows(2) {
        if p[0] == "in"
            && let Some(m) = MONTHS.iter().position(|m| *m == p[1])
            && m as u32 + 1 > today.month()
            && let Some(end) = chrono::NaiveDate::from_ymd_opt(today.year(), m as u32 + 2, 1)
                .or_else(|| chrono::NaiveDate::from_ymd_opt(today.year() + 1, 1, 1))
                .and_then(|first| first.pred_opt())
        {
            later((end - today).num_days());
        }
    }
    // A pregnancy ends within its forty weeks when nothing sooner than them but after this
    // week is named: "Today I found out I'm pregnant!" is no day's news.
    let days = match days {
        Some(d) if d >= 7 => Some(d),
        _ if pregnancy::told_as_now(w) => Some(pregnancy::days_left(w)),
        d => d,
    };
    let d = days?;
    // A moment named as past ("yesterday", "last Friday") is no plan; "the last one" is
    // none.
    let last_time = w.windows(2).any(|p| {
        p[0] == "last"
            && (DAYS.iter().any(|(d, _)| *d == p[1])
                || matches!(
                    p[1].as_str(),
                    "night"
                        | "week"
                        | "weekend"
                        | "month"
                        | "year"
                        | "time"
                        | "summer"
                        | "winter"
                        | "spring"
                        | "autumn"
                        | "christmas"
                ))
    });
    if has("yesterday") || has("ago") || last_time {
        return None;
    }
    end_of(d)
}

mod begins;
mod doing;
mod habit;
mod level;
mod mishap;
mod news;
mod pregnancy;
mod reaction;
mod schedule;
mod state;
mod stay;
mod talk;
#[cfg(test)]
mod tests;
