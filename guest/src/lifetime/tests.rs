//! Lifetimes measured on labelled facts written apart from the rules: the development
//! half (`eval/typing/facts-dev.tsv`) is what the rules were developed on; the held-out
//! half (`facts-held-out.tsv`, by another author) is only measured. Print the tables with
//! `cargo test -p ash-memory-guest lifetime -- --nocapture`.

use chrono::{DateTime, TimeDelta, Utc};

use super::{Lifetime, infer};
use crate::conversation::extraction::dates::resolve;
use crate::lifecycle;
use crate::memory_type::{MemoryType, classify};
use crate::record::{MemoryRecord, format_time};

const DEV: &str = include_str!("../../../eval/typing/facts-dev.tsv");
const HELD_OUT: &str = include_str!("../../../eval/typing/facts-held-out.tsv");
const HABITS_DEV: &str = include_str!("../../../eval/typing/habits-dev.tsv");
const HABITS_HELD_OUT: &str = include_str!("../../../eval/typing/habits-held-out.tsv");
const MEALS_DEV: &str = include_str!("../../../eval/typing/meals-dev.tsv");
const MEALS_HELD_OUT: &str = include_str!("../../../eval/typing/meals-held-out.tsv");
const MEALS_HELD_OUT_2: &str = include_str!("../../../eval/typing/meals-held-out-2.tsv");
const EVERYDAY_DEV: &str = include_str!("../../../eval/typing/everyday-dev.tsv");
const EVERYDAY_HELD_OUT: &str = include_str!("../../../eval/typing/everyday-held-out.tsv");
const ONGOING_DEV: &str = include_str!("../../../eval/typing/ongoing-dev.tsv");
const ONGOING_HELD_OUT: &str = include_str!("../../../eval/typing/ongoing-held-out.tsv");
const ROUTINES_DEV: &str = include_str!("../../../eval/typing/routines-dev.tsv");
const ROUTINES_HELD_OUT: &str = include_str!("../../../eval/typing/routines-held-out.tsv");
const TALK_DEV: &str = include_str!("../../../eval/typing/talk-dev.tsv");
const TALK_HELD_OUT: &str = include_str!("../../../eval/typing/talk-held-out.tsv");

/// When the sets' facts are told: Wednesday 4 March 2026, 10:00.
fn said() -> DateTime<Utc> {
    crate::record::parse_time("2026-03-04T10:00:00+00:00").unwrap()
}

struct Fact {
    lasting: bool,
    /// Talk that tells nothing of the teller: it should be gone within a fortnight.
    talk: bool,
    moment: Option<i64>,
    text: String,
}

fn facts(tsv: &str) -> Vec<Fact> {
    tsv.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 3, "{l:?}");
            Fact {
                lasting: match f[0] {
                    "lasting" => true,
                    "passing" | "noise" => false,
                    other => panic!("lifetime {other:?}"),
                },
                talk: f[0] == "noise",
                moment: f[1].parse().ok(),
                text: f[2].to_owned(),
            }
        })
        .collect()
}

/// When a fact of this lifetime, told at `said()`, stops being live; `None` for never.
fn expiry(l: &Lifetime) -> Option<DateTime<Utc>> {
    let record = MemoryRecord {
        memory_type: l.memory_type,
        created_at: format_time(said()),
        expires_at: l.expires_at.map(format_time),
        ..MemoryRecord::parse(r#"{"id":"m","version":1,"content":"x","memory_type":"knowledge","embedding":null,"created_at":"2026-03-04T10:00:00+00:00","owner_user_id":"u"}"#).unwrap()
    };
    lifecycle::expiry(&record)
}

#[derive(Default)]
struct Score {
    facts: u32,
    right: u32,
    passing_kept_forever: u32,
    talk_kept_forever: u32,
    lasting_passed: u32,
    with_moment: u32,
    lives_past_moment: u32,
    gone_within_a_week_of_it: u32,
}

fn measure(set: &[Fact], rule: impl Fn(&str) -> Lifetime) -> Score {
    let mut s = Score::default();
    for f in set {
        let l = rule(&f.text);
        let end = expiry(&l);
        s.facts += 1;
        let right = if f.talk {
            end.is_some_and(|e| e <= said() + TimeDelta::days(14))
        } else {
            end.is_none() == f.lasting
        };
        if right {
            s.right += 1;
        }
        if f.talk && end.is_none() {
            s.talk_kept_forever += 1;
        }
        if !f.lasting && end.is_none() {
            s.passing_kept_forever += 1;
        }
        if f.lasting && end.is_some() {
            s.lasting_passed += 1;
        }
        if let Some(days) = f.moment {
            s.with_moment += 1;
            let moment = (said().date_naive() + TimeDelta::days(days))
                .and_hms_opt(0, 0, 0)
                .unwrap()
                .and_utc();
            if end.is_some_and(|e| e >= moment) {
                s.lives_past_moment += 1;
            }
            if end.is_some_and(|e| e <= moment + TimeDelta::days(7)) {
                s.gone_within_a_week_of_it += 1;
            }
        }
    }
    s
}

fn print(title: &str, s: &Score) {
    println!(
        "{title}: {} facts, lifetime right {:.2} ({}), passing kept forever {}, lasting that pass {}, \
         named moments {}: still live at the moment {}, gone within a week after it {}",
        s.facts,
        s.right as f32 / s.facts as f32,
        s.right,
        s.passing_kept_forever,
        s.lasting_passed,
        s.with_moment,
        s.lives_past_moment,
        s.gone_within_a_week_of_it
    );
}

/// The type cues alone, as typing was before lifetimes were read.
fn cues_alone(text: &str) -> Lifetime {
    Lifetime {
        memory_type: classify(text),
        expires_at: None,
    }
}

#[test]
fn held_out_lifetimes_follow_the_facts() {
    let (dev, held) = (facts(DEV), facts(HELD_OUT));
    assert!(
        dev.len() >= 150 && held.len() >= 150,
        "{} and {} facts",
        dev.len(),
        held.len()
    );
    print("development half, type cues alone", &measure(&dev, cues_alone));
    print("development half, lifetimes", &measure(&dev, |t| infer(t, said())));
    print("held-out half, type cues alone", &measure(&held, cues_alone));
    let s = measure(&held, |t| infer(t, said()));
    print("held-out half, lifetimes", &s);
    // As extraction stores a fact: its relative dates resolved first ("tomorrow" becomes
    // "on Thursday 2026-03-05"), the named moment read from the date.
    let resolved = measure(&held, |t| infer(&resolve(t, said()), said()));
    print("held-out half, lifetimes of the text dates resolved", &resolved);
    // Floors a little under what was measured when the rules were last changed.
    assert!(s.right as f32 / s.facts as f32 >= 0.78, "lifetime right");
    assert!(s.passing_kept_forever <= 40, "passing things kept forever");
    assert!(s.lasting_passed <= 8, "lasting things that pass");
    assert!(
        s.lives_past_moment as f32 >= 0.75 * s.with_moment as f32,
        "plans outlive their moment"
    );
    for (what, before, after) in [
        ("lifetime right", s.right, resolved.right),
        (
            "still live at the moment",
            s.lives_past_moment,
            resolved.lives_past_moment,
        ),
        (
            "gone within a week",
            s.gone_within_a_week_of_it,
            resolved.gone_within_a_week_of_it,
        ),
    ] {
        assert!(after >= before, "resolved dates: {what} {before} -> {after}");
    }
}

#[test]
fn the_issues_examples() {
    let now = said();
    for passing in [
        "I'm stuck in traffic",
        "I'm flying to Tokyo next Friday",
        "I have a dentist appointment tomorrow at 3pm",
        "I have a headache",
    ] {
        let l = infer(passing, now);
        assert!(
            l.memory_type.is_ephemeral() || l.expires_at.is_some(),
            "{passing}: {l:?}"
        );
    }
    for lasting in [
        "I became vegan two years ago",
        "I've lived here since 2015",
        "I was born in Leeds",
    ] {
        let l = infer(lasting, now);
        assert!(
            !l.memory_type.is_ephemeral() && l.expires_at.is_none(),
            "{lasting}: {l:?}"
        );
    }
    // The dentist passes the day after tomorrow, not a month on.
    let dentist = infer("I have a dentist appointment tomorrow at 3pm", now);
    assert_eq!(dentist.memory_type, MemoryType::Event);
    let at = dentist.expires_at.unwrap();
    assert!(at > now + TimeDelta::days(1) && at <= now + TimeDelta::days(3), "{at}");
}

/// What a probe of the rules in everyday words found (2026-11-30): lasting facts that
/// passed because a weekday, a date of a past year or an ordinal read as a moment ahead,
/// and a place one is for now kept for ever.
#[test]
fn a_past_day_or_an_ordinal_names_no_moment_ahead() {
    let now = said();
    for lasting in [
        "I started a new job on Monday",
        "got promoted to team lead on monday",
        "I got married on Saturday",
        "We adopted a puppy on Sunday",
        "I moved to Leeds on Friday",
        "We got married on 3 June 2019",
        "I graduated on July 1, 2015",
        "We met on 14 February 2020",
        "My flat is on the 3rd floor",
        "Our office is on the 12th floor",
        "We live on 5th Avenue",
    ] {
        let l = infer(lasting, now);
        assert!(
            l.expires_at.is_none() && !l.memory_type.is_ephemeral(),
            "{lasting}: {l:?}"
        );
        // As extraction stores it, its dates written out.
        let resolved = resolve(lasting, now);
        let l = infer(&resolved, now);
        assert!(
            l.expires_at.is_none() && !l.memory_type.is_ephemeral(),
            "{resolved}: {l:?}"
        );
    }
    for (ahead, days) in [
        ("My sister's getting married on Saturday", 4),
        ("I'm seeing the GP on the 10th about my knee", 7),
        ("Dinner with Ana on 6 March 2026", 3),
    ] {
        let at = infer(ahead, now).expires_at;
        assert!(
            at.is_some_and(|at| at > now + TimeDelta::days(days - 1) && at <= now + TimeDelta::days(days + 1)),
            "{ahead}: {at:?}"
        );
    }
    for here in ["I'm at the vet", "I'm at the gym", "We're at the hospital with my mum"] {
        assert!(infer(here, now).memory_type.is_ephemeral(), "{here}");
    }
}

/// Habits and arrangements told with words of the present ("these days", "currently",
/// "for now") beside what truly passes (`eval/typing/habits-*.tsv`: the development half
/// is what a probe found; the held-out half was written by another author, who had not
/// seen the rules).
#[test]
fn a_habit_told_with_words_of_the_present_lasts() {
    let dev = measure(&facts(HABITS_DEV), |t| infer(t, said()));
    print("habits and the present, development half", &dev);
    let s = measure(&facts(HABITS_HELD_OUT), |t| infer(t, said()));
    print("habits and the present, held-out half", &s);
    assert_eq!(dev.right, dev.facts, "every development fact");
    // Floors a little under what was measured (docs/judgment.md).
    assert!(s.right >= 95, "lifetime right: {}", s.right);
    assert!(s.lasting_passed <= 10, "lasting things that pass: {}", s.lasting_passed);
}

/// Meals and drinks: habits told with "have" ("I have porridge for breakfast", "these days
/// I have my coffee with oat milk") beside meals of the moment ("having porridge now")
/// (`eval/typing/meals-*.tsv`, written by two helpers that had not seen the rules).
#[test]
fn a_meal_of_habit_lasts_and_one_of_the_moment_passes() {
    let dev = measure(&facts(MEALS_DEV), |t| infer(t, said()));
    print("meals and drinks, development half", &dev);
    let s = measure(&facts(MEALS_HELD_OUT), |t| infer(t, said()));
    print("meals and drinks, held-out half", &s);
    let s2 = measure(&facts(MEALS_HELD_OUT_2), |t| infer(t, said()));
    print("meals and drinks, second held-out set", &s2);
    // Floors at what was measured (docs/judgment.md): 65 of 70, 58 of 70 and 111 of 120
    // (56, 58 and 106 before), and no more meals of the moment kept for good.
    assert!(dev.right >= 65, "lifetime right: {}", dev.right);
    assert!(s.right >= 58, "lifetime right: {}", s.right);
    assert!(s2.right >= 111, "lifetime right: {}", s2.right);
    assert!(
        s2.passing_kept_forever <= 8,
        "kept for good: {}",
        s2.passing_kept_forever
    );
}

/// Routines told with their time of day, days of the week or a meal ("I feed the cat at
/// 6pm", "I take metformin with breakfast", "I go to the gym Monday, Wednesday and
/// Friday") and changes told for good, beside one-offs that name the same times
/// (`eval/typing/routines-*.tsv`, written by a helper that had not seen the rules).
#[test]
fn a_routine_kept_at_a_time_lasts_and_one_day_of_it_passes() {
    let dev = measure(&facts(ROUTINES_DEV), |t| infer(t, said()));
    print("routines, development half", &dev);
    let s = measure(&facts(ROUTINES_HELD_OUT), |t| infer(t, said()));
    print("routines, held-out half", &s);
    // Floors at what was measured (docs/judgment.md): 120 of 124 and 109 of 116 (116 and
    // 108 before).
    assert!(dev.right >= 120, "lifetime right: {}", dev.right);
    assert!(s.right >= 109, "lifetime right: {}", s.right);
    assert!(s.passing_kept_forever <= 4, "kept for good: {}", s.passing_kept_forever);
}

/// Everyday facts beside look-alikes of the other lifetime: a reaction told as a habit
/// ("shellfish makes me really ill") or as a moment ("the prawns last night made me ill"),
/// a mishap just now and a habit of mishaps, an ending and a cancelled plan, a standing
/// schedule and an appointment, a stay and a home (`eval/typing/everyday-*.tsv`, written
/// by a helper that had not seen the rules).
#[test]
fn everyday_facts_and_their_look_alikes() {
    let dev = measure(&facts(EVERYDAY_DEV), |t| infer(t, said()));
    print("everyday facts, development half", &dev);
    let s = measure(&facts(EVERYDAY_HELD_OUT), |t| infer(t, said()));
    print("everyday facts, held-out half", &s);
    assert!(dev.facts >= 130 && s.facts >= 130);
}

/// States of months told with words of the present ("I'm unemployed at the moment"), lasting
/// states that begin on a day to come ("I start my new job at Deloitte on Monday") and new
/// levels of standing amounts ("weighed in at 88.5 this morning"), beside their passing
/// look-alikes (`eval/typing/ongoing-*.tsv`, each half by its own helper session that had
/// not seen the rules; the held-out half was read once blind, docs/judgment.md).
#[test]
fn ongoing_states_and_states_to_come_last() {
    let dev = measure(&facts(ONGOING_DEV), |t| infer(t, said()));
    print("ongoing and to come, development half", &dev);
    let s = measure(&facts(ONGOING_HELD_OUT), |t| infer(t, said()));
    print("ongoing and to come, held-out half", &s);
    // Floors a little under what was measured.
    assert!(
        dev.right >= 118 && s.right >= 118,
        "lifetime right: {} and {}",
        dev.right,
        s.right
    );
    assert!(s.lasting_passed <= 3, "lasting things that pass: {}", s.lasting_passed);
    assert!(
        s.passing_kept_forever <= 8,
        "passing kept forever: {}",
        s.passing_kept_forever
    );
}

/// Talk an agent passes to `add` (questions to the assistant, requests, thanks, laughter,
/// daydreams) beside facts told in its forms ("I'm coeliac, can I have soy sauce?"), and
/// passing states (`eval/typing/talk-*.tsv`, each half by its own helper session that had
/// not seen the rules; the held-out half was measured once blind, docs/judgment.md).
#[test]
fn talk_fades_and_facts_told_as_talk_stay() {
    let dev = measure(&facts(TALK_DEV), |t| infer(t, said()));
    print("talk, development half", &dev);
    let s = measure(&facts(TALK_HELD_OUT), |t| infer(t, said()));
    print("talk, held-out half", &s);
    println!(
        "talk kept for ever: development {}, held-out {}",
        dev.talk_kept_forever, s.talk_kept_forever
    );
    // Floors a little under what was measured.
    assert!(
        dev.right >= 128 && s.right >= 114,
        "right: {} and {}",
        dev.right,
        s.right
    );
    assert!(s.lasting_passed <= 6, "lasting things that pass: {}", s.lasting_passed);
}

/// The development half's mistakes, for whoever works on the rules:
/// `cargo test -p ash-memory-guest lifetime::tests::dev_mistakes -- --ignored --nocapture`.
#[test]
#[ignore]
fn dev_mistakes() {
    for f in facts(DEV)
        .into_iter()
        .chain(facts(HABITS_DEV))
        .chain(facts(EVERYDAY_DEV))
        .chain(facts(ONGOING_DEV))
        .chain(facts(TALK_DEV))
    {
        let l = infer(&f.text, said());
        let end = expiry(&l);
        let wrong = if f.talk {
            end.is_none_or(|e| e > said() + TimeDelta::days(14))
        } else {
            end.is_none() != f.lasting
        };
        let early = f.moment.is_some_and(|d| {
            end.is_some_and(|e| {
                e < (said().date_naive() + TimeDelta::days(d))
                    .and_hms_opt(0, 0, 0)
                    .unwrap()
                    .and_utc()
            })
        });
        if wrong || early {
            let label = if f.lasting { "lasting" } else { "passing" };
            println!(
                "{label:<8} {:<12} {:?} {:?}",
                l.memory_type.as_str(),
                end.map(format_time),
                f.text
            );
        }
    }
}

/// The hour one rises or sleeps at is a habit's, not today's; an hour for a thing is.
#[test]
fn the_hour_one_rises_at_names_no_moment() {
    for lasting in [
        "I'm a morning person, up at 5:30 without an alarm",
        "I'm always in bed by 10",
        "I go to the gym at 6am before work",
    ] {
        assert!(infer(lasting, said()).expires_at.is_none(), "{lasting}");
    }
    assert!(infer("my dentist appointment is at 3", said()).expires_at.is_some());
    assert!(
        infer("I'm getting up at 5 tomorrow for the flight", said())
            .expires_at
            .is_some()
    );
}

/// What a probe found: "My wife is pregnant" was still live a year on. A pregnancy told as
/// now passes within forty weeks, sooner when a due month is told; one told as history
/// stays.
#[test]
fn a_pregnancy_passes_within_forty_weeks() {
    let within = |text: &str| infer(text, said()).expires_at.map(|at| (at - said()).num_days());
    assert_eq!(within("My wife is pregnant with our second"), Some(281));
    assert_eq!(within("we're expecting a baby!"), Some(281));
    // "in August": the month's end, and a day's grace.
    assert_eq!(within("I'm pregnant! due in August"), Some(181));
    assert_eq!(within("I was pregnant with Tom when we lived in Leeds"), None);
}

/// The sixth blind probe's lifetimes: moments told in slang or without "I'm" pass, a stay
/// told with its length ends with it, and a habit told with "tend to" lasts ("never" before
/// a verb in the past is one occasion, not a habit).
#[test]
fn moments_in_slang_pass_and_a_habit_that_tends_lasts() {
    for passing in [
        "it's pissing down here",
        "at the pub with the lads",
        "ugh running late, bus never turned up",
        "been up since 4 with Alfie, he's teething",
        "assignment due at midnight, kill me",
    ] {
        let l = infer(passing, said());
        assert!(
            l.memory_type.is_ephemeral() || l.expires_at.is_some(),
            "{passing}: {l:?}"
        );
    }
    let stay = infer("I'm on holiday in Spain for the next two weeks", said());
    assert_eq!(stay.expires_at.map(|at| (at - said()).num_days()), Some(15));
    for lasting in [
        "I tend to stay up really late",
        "I lost my sense of smell and it never came back",
        "I'm a massive Taylor Swift fan",
    ] {
        let l = infer(lasting, said());
        assert!(
            !l.memory_type.is_ephemeral() && l.expires_at.is_none(),
            "{lasting}: {l:?}"
        );
    }
}

/// The hour an alarm goes off is the hour one rises, a habit's: "new shift pattern means my
/// alarm goes off at 4:45 now" replaced "I get up at 6am" and passed within two days.
#[test]
fn the_hour_an_alarm_goes_off_lasts() {
    let l = infer("new shift pattern means my alarm goes off at 4:45 now", said());
    assert!(!l.memory_type.is_ephemeral() && l.expires_at.is_none(), "{l:?}");
    let tomorrow = infer("my alarm goes off at 4:45 tomorrow for the flight", said());
    assert!(tomorrow.expires_at.is_some(), "{tomorrow:?}");
}

/// A probe (2026-12-01): "Found out today I'm allergic to penicillin" expired the next day,
/// and a month on no allergy was known. A lasting condition learned on a day lasts; the
/// condition playing up today is the day's.
#[test]
fn a_condition_found_out_today_lasts() {
    for lasting in [
        "Found out today I'm allergic to penicillin",
        "got diagnosed with coeliac disease today",
    ] {
        let l = infer(lasting, said());
        assert!(
            !l.memory_type.is_ephemeral() && l.expires_at.is_none(),
            "{lasting}: {l:?}"
        );
    }
    let today = infer("my asthma is really bad today", said());
    assert!(
        today.memory_type.is_ephemeral() || today.expires_at.is_some(),
        "{today:?}"
    );
}

/// The seventh probe (2026-12-01): news of a lasting state to come expired on its day ("I
/// start my new job at Deloitte on Monday" was gone by Tuesday), states told "at the
/// moment" expired in a week, a new weight and a new rent passed and let the old ones back,
/// and "14 June next year" was this June.
#[test]
fn the_seventh_probes_lifetimes() {
    for lasting in [
        "I start my new job at Deloitte on Monday",
        "Got the Atlassian job! Starting next month",
        "We're moving into our new place in Hove on Saturday",
        "Getting married to Tom next Saturday!",
        "We refixed the mortgage at 5.1% for 2 years",
        "From next month my rent goes up to £1400",
        "I'm unemployed at the moment",
        "I'm single at the moment",
        "I'm on maternity leave at the moment, back at work in January",
        "I'm currently doing a part-time MSc in data science",
        "weighed in at 88.5 this morning",
        "rent's gone up to £1,020 pcm this month, gutted",
        // A review of the rules (2026-12-01).
        "I'm 84kg at the moment",
        "My rent is £950 at the moment",
        "Never again flying Ryanair, they lost my bag",
        "Starting my new job at Deloitte on Monday, hope they're nice",
    ] {
        let l = infer(lasting, said());
        assert!(
            !l.memory_type.is_ephemeral() && l.expires_at.is_none(),
            "{lasting}: {l:?}"
        );
    }
    for passing in [
        "I'm stuck in traffic at the moment",
        "I'm at the gym at the moment",
        "At the moment I'm reading Dune",
        "My sister's getting married on Saturday",
        "hungover as hell at the moment, never again",
    ] {
        let l = infer(passing, said());
        assert!(
            l.memory_type.is_ephemeral() || l.expires_at.is_some(),
            "{passing}: {l:?}"
        );
    }
    let venue = infer("We've booked our wedding venue for 14 June next year", said());
    assert_eq!(
        venue.expires_at.map(|at| at.date_naive().to_string()),
        Some("2027-06-15".to_owned()),
        "{venue:?}"
    );
}

/// What an eighth blind probe found kept for a month or for ever, and the lasting facts
/// told in the same shapes.
#[test]
fn the_eighth_probes_passing_remarks() {
    let within_a_week = |text: &str| {
        let l = infer(text, said());
        l.memory_type.ttl().is_some_and(|t| t.num_days() <= 7)
            || l.expires_at.is_some_and(|at| at - said() <= chrono::TimeDelta::days(7))
    };
    for passing in [
        "I've got a headache this morning",
        "just had lunch",
        "brb grabbing a coffee",
        "the wifi in this cafe is terrible",
        "hmm let me think about it",
        "gtg, speak later",
        "my driving test on friday terrifies me",
    ] {
        assert!(within_a_week(passing), "{passing}: {:?}", infer(passing, said()));
    }
    for lasting in [
        "flying terrifies me",
        "spiders freak me out",
        "I always have porridge for breakfast",
        "let me tell you, I'm allergic to nuts",
        "I got a new job at the hospital this morning",
        // A review of these rules (2026-12-01) traced these.
        "had coffee with Sam and he proposed!! we're engaged",
        "I own this cafe with my sister",
        "I've worked at this hotel for 5 years",
        "left my job in March and got bored within a week lol",
    ] {
        let l = infer(lasting, said());
        assert!(
            !l.memory_type.is_ephemeral() && l.expires_at.is_none(),
            "{lasting}: {l:?}"
        );
    }
}

/// Work told in words that pass elsewhere lasts; the same words told of now pass.
#[test]
fn work_or_home_told_with_words_of_passing_states_lasts() {
    for lasting in [
        "I work as an air traffic controller at Heathrow",
        "I work at the airport",
        "I'm a driving instructor",
        "I work as a traffic warden",
        "I live in a windy city",
        "I live near a busy road, the traffic is constant",
    ] {
        let l = infer(lasting, said());
        assert!(
            !l.memory_type.is_ephemeral() && l.expires_at.is_none(),
            "{lasting}: {l:?}"
        );
    }
    for passing in [
        "stuck in traffic again",
        "at the airport, flight delayed by two hours",
        "it's so foggy out I can barely see the end of the road",
    ] {
        assert!(infer(passing, said()).memory_type.is_ephemeral(), "{passing}");
    }
}

/// The fifteenth probe's passing remarks that were kept (2026-12-02): one on the way
/// somewhere, heavy rain told in Irish and British words; and a lasting condition told
/// beside the day's tiredness, with how long it has lasted.
#[test]
fn on_the_way_somewhere_passes_and_a_condition_had_for_years_lasts() {
    for passing in [
        "I'm in a taxi on the way to the station",
        "on my way to work, the bus is packed",
        "it's absolutely lashing here, I'm soaked through",
    ] {
        assert!(infer(passing, said()).memory_type.is_ephemeral(), "{passing}");
    }
    for lasting in [
        "just tired today like always, I've got chronic fatigue syndrome, have had it since 2019",
        "I live on the way to the station",
    ] {
        let l = infer(lasting, said());
        assert!(
            !l.memory_type.is_ephemeral() && l.expires_at.is_none(),
            "{lasting}: {l:?}"
        );
    }
    // The day's flare-up of a condition is still the day's.
    assert!(infer("my asthma's bad today", said()).memory_type.is_ephemeral());
}

/// A weekday or a yearly day told in the past is gone: "my last day at stripe was friday"
/// named no Friday to come, and "it was our anniversary" no day of every year.
#[test]
fn a_day_told_in_the_past_names_no_moment_ahead_and_no_year() {
    assert!(infer("my last day at stripe was friday", said()).expires_at.is_none());
    let steak = infer("Had a steak this Friday, it was our anniversary", said());
    assert!(expiry(&steak).is_some(), "{steak:?}");
    assert!(expiry(&infer("our anniversary is 12 June", said())).is_none());
}

/// A group left, and a change told with the row it came after, last; a belonging left
/// behind and a mood after a row pass. (Found putting `eval/judgment/others-dev.tsv`
/// through the CLI: the change passed in three days and so replaced nothing.)
#[test]
fn a_group_left_lasts_and_a_thing_left_behind_passes() {
    let lasting = |t: &str| infer(t, said()).expires_at.is_none() && !infer(t, said()).memory_type.is_ephemeral();
    for t in [
        "I left the book club",
        "I quit the club after the row with the chair",
        "Fiona and I both left the book club after the drama",
    ] {
        assert!(lasting(t), "{t}: {:?}", infer(t, said()));
    }
    for t in ["left my book on the bus", "in a foul mood after the row with my sister"] {
        assert!(!lasting(t), "{t}: {:?}", infer(t, said()));
    }
}

/// Hours told as a range are hours kept ("8 till 6"), not a moment today ("at the office
/// till 6"). (Found putting `eval/judgment/others-dev.tsv` through the CLI: "my boss put
/// me on a 4 day week, 8 till 6" was gone the next day.)
#[test]
fn hours_told_as_a_range_last_and_one_end_of_today_passes() {
    let lasts = |t: &str| infer(t, said()).expires_at.is_none();
    assert!(lasts("my boss put me on a 4 day week, 8 till 6"));
    assert!(lasts("I work 9 until 5"));
    assert!(!lasts("I'm at the office till 6"));
    assert!(!lasts("work until 5pm then gym"));
}
