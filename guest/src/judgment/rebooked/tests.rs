use std::collections::BTreeSet;

use super::times::{When, tokens, told, whens};
use crate::judgment::{Verdict, judge};
use crate::supersession::RuleContext;

fn times(text: &str) -> BTreeSet<When> {
    whens(&tokens(text))
}

#[test]
fn times_are_read_as_written() {
    assert_eq!(
        times("Conference in Berlin 4-6 March"),
        BTreeSet::from([When::Day(4), When::Day(6), When::Month(2)])
    );
    assert_eq!(
        times("train leaves at 09:15 on weds"),
        BTreeSet::from([When::Clock(9 * 60 + 15), When::Weekday(2)])
    );
    // An hour told with or without its half of the day is one hour.
    assert_eq!(times("meeting at 4"), times("meeting at 4pm"));
    assert_eq!(times("Tennis is on Thursdays"), BTreeSet::from([When::Weekday(3)]));
    // "may" and "march" are months beside a day only.
    assert!(times("I may march on").is_empty());
    assert_eq!(times("12 May"), BTreeSet::from([When::Day(12), When::Month(4)]));
    // A count is no time, nor a grade.
    assert!(times("I have 2 kids and 3 cats").is_empty());
    assert!(times("my daughter's in 6th grade").is_empty());
}

#[test]
fn a_time_denied_or_moved_from_is_not_told() {
    let told = |t: &str| told(&tokens(t));
    assert_eq!(
        told("sorry, the lisbon flight is the 13th not the 12th"),
        BTreeSet::from([When::Day(13)])
    );
    assert_eq!(
        told("physio can't do fridays anymore so it's tuesdays 8am"),
        BTreeSet::from([When::Weekday(1), When::Clock(8 * 60)])
    );
    assert_eq!(
        told("moved from monday to wednesday"),
        BTreeSet::from([When::Weekday(2)])
    );
}

fn replaces(old: &str, new: &str) -> bool {
    judge(old, new, &RuleContext::default()) == Verdict::Change
}

#[test]
fn a_booking_moved_or_corrected_replaces_it() {
    for (old, new) in [
        (
            "Bin day is Tuesday",
            "sorry it's actually wednesday for the bins, i always mix it up",
        ),
        (
            "Conference in Berlin 4-6 March",
            "berlin conf has been postponed to 13-15 may",
        ),
        (
            "My GP appointment is at 11:10 tomorrow",
            "sorry, it's 11:40 not 11:10 for the GP",
        ),
        (
            "Boiler service booked for 2 Nov",
            "engineer can't make the 2nd so the boiler service is on the 9th now",
        ),
        (
            "Yoga class is Monday 7pm at the community hall",
            "yoga's relocated to the studio above the bakery, still monday nights",
        ),
        ("Tennis is on Thursdays", "tennis has moved to wednesdays"),
        // "wed" is also the stem of "wedding"; "her bedtime" is the daughter's.
        (
            "our wedding date is 14 June 2027",
            "we brought the wedding forward, it's 20 March 2027 now! eek",
        ),
        (
            "my daughter's bedtime is 7pm",
            "we've pushed her bedtime back to 8 now that she's a bit older",
        ),
        (
            "Orthodontist appointment 23 Jan 3:15pm",
            "ortho called, appt is now 30 jan at 3:15",
        ),
    ] {
        assert!(replaces(old, new), "{old} / {new}");
    }
}

#[test]
fn a_second_booking_one_session_or_someone_elses_keeps_it() {
    for (old, new) in [
        (
            "Dentist appointment on 14 March",
            "also got a hygienist appt on the 28th",
        ),
        ("Tennis is every Tuesday at 6", "no tennis this week, coach is ill"),
        (
            "Piano lesson every Tuesday at 5",
            "no piano next tuesday, it's half term",
        ),
        (
            "Flight to Lisbon on 13 June",
            "my sister flies into lisbon on the 14th to meet us",
        ),
        ("My shift starts at 8am", "Tom's shift starts at 10am instead of 8"),
        (
            "Dentist appointment on Thursday at 3pm",
            "my dentist moved to Leeds on Friday",
        ),
        (
            "My daughter's dentist is Dr Khan",
            "switched dentists, I go to Smile Clinic now",
        ),
        (
            "Gym: Anytime Fitness on Mill Lane",
            "thinking of switching to David Lloyd, anytime's always rammed",
        ),
        (
            "Talked to Caroline: the bus route changed last month",
            "Talked to Caroline: the farmers market moved indoors",
        ),
    ] {
        assert!(!judge(old, new, &RuleContext::default()).replaces(), "{old} / {new}");
    }
}
