//! How long a new fact should live, read from its words: a passing state ("I'm stuck in
//! traffic") passes in days, a plan or an appointment some time after the moment it names
//! ("dentist tomorrow at 3pm"), and a lasting state stays however it was told, including
//! one that began at a past moment ("I became vegan two years ago"). The type's cues
//! (`memory_type::classify`) decide the rest.

use chrono::{DateTime, Utc};

use crate::memory_type::{MemoryType, classify};
use begun::{BEGAN, BEGAN_WHEN_DATED, begun_by_phrase, past_anchor, told_as_begun};
use cues::{CHRONIC, HERE_FOR_NOW, PASSING, PLACES_OF_NOW, ROUTINE};
use moment::{DAYS, moment};

/// A type for a new fact, and the moment it stops mattering when its words name one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lifetime {
    pub memory_type: MemoryType,
    pub expires_at: Option<DateTime<Utc>>,
}

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
    // "just tired today like always, I've got chronic fatigue syndrome, have had it since
    // 2019": a condition told with how long it has lasted.
    let for_years = has("since") && w.iter().any(|x| crate::entities::year(Some(&x.as_str())).is_some());
    if w.iter().any(|x| CHRONIC.contains(&x.as_str())) && (!now_words || learned || for_years) {
        return lasting(base);
    }
    // A birth, a death, a job got, a lasting state to come, a new level of an amount: the
    // day it is told with begins what lasts.
    if news::life_event(&w, content) || begins::a_lasting_state(&w, content) || level::a_new_level(&w) {
        return lasting(base);
    }
    // "I have porridge for breakfast", "these days I have my tea black": a meal's words
    // pass elsewhere.
    if meal::habit(&w) {
        return lasting(base);
    }
    // "From now on it's oat milk for me", "can't manage walks anymore": news for good.
    if for_good::told(&w) {
        return lasting(base);
    }
    // "I take metformin with breakfast", "I feed the cat at 6pm": a routine's time of day.
    if routine::kept_at_a_time(&w) {
        return lasting(base);
    }
    // "I work at the airport", "I'm a driving instructor", "I live in a windy city": the
    // words of a passing state tell of the work or the home, which last.
    if (work::told(&w) || home::told(&w)) && !now_words && !has("just") {
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
            // "quit the club after the row": the reason a change is told with.
            && !(i > 1 && w[i - 2] == "after" && matches!(w[i - 1].as_str(), "the" | "a" | "our" | "that"))
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
        // "in a taxi on the way to the station", "on my way to work".
        || phrase(&w, &["on", "the", "way", "to"])
        || phrase(&w, &["on", "my", "way", "to"])
        || phrase(&w, &["on", "our", "way", "to"])
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
    // "I've got a headache this morning": a passing state got begins nothing.
    let got_passing = |i: usize| {
        w[i + 1..(i + 3).min(w.len())]
            .iter()
            .any(|x| PASSING.contains(&x.as_str()))
    };
    let began_when_dated = w.iter().enumerate().any(|(i, x)| {
        BEGAN_WHEN_DATED.contains(&x.as_str()) && (x != "got" || mishap::got_something(&w, i) && !got_passing(i))
    });
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
    // "Jake's birthday party is Saturday", "a scarf for my dad's birthday" and "it was our
    // anniversary" are one day's: a plan for the day, or the day gone, not the day.
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
            }) || w[i.saturating_sub(3)..i]
                .iter()
                .any(|b| matches!(b.as_str(), "for" | "was" | "were")))
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
        // "just had lunch": a meal of the day is no event of a month.
        let t = if base.is_ephemeral() && !(base == MemoryType::Event && mishap::meal(&w)) {
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

/// Whether `content` tells a change that holds from now on ("from now on it's oat milk for
/// me", "no more Sunday phone calls"), not a break of a day or a month.
pub fn told_for_good(content: &str) -> bool {
    for_good::told(&words(content))
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

fn phrase(w: &[String], p: &[&str]) -> bool {
    w.windows(p.len()).any(|win| win.iter().zip(p).all(|(a, b)| a == b))
}

mod begins;
mod begun;
mod cues;
mod doing;
mod for_good;
mod habit;
mod home;
mod level;
mod meal;
mod mishap;
mod moment;
mod news;
mod pregnancy;
mod reaction;
mod routine;
mod schedule;
mod state;
mod stay;
mod talk;
#[cfg(test)]
mod tests;
mod work;
