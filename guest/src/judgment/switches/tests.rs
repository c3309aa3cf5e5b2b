use crate::judgment::{Verdict, judge};
use crate::supersession::RuleContext;

fn replaces(old: &str, new: &str) -> bool {
    judge(old, new, &RuleContext::default()).replaces()
}

#[test]
fn another_way_of_a_frame_told_as_news_replaces_the_old() {
    for (old, new) in [
        (
            "I work remotely",
            "they've got us back in the office four days a week now",
        ),
        ("I drive to work", "cycling in every day now, sold the car"),
        (
            "I live with two flatmates in Leith",
            "moved in with my boyfriend last month",
        ),
        (
            "We rent a terrace in Leeds",
            "we finally got the keys to our own place!!",
        ),
        ("I'm vegan", "eating fish again these days"),
        ("I take oat milk in my coffee", "back on regular milk now"),
        (
            "I'm on nights at the hospital",
            "on day shifts from this month, thank god",
        ),
        ("I smoke roll-ups", "switched to vaping, way cheaper"),
        ("I have a pint most nights", "6 weeks sober today"),
        (
            "I work part-time at the library",
            "gone full time at the library since march",
        ),
        ("I bank with Santander", "moved my current account to Starling"),
        (
            "My laptop is a MacBook Air",
            "work gave me a ThinkPad and I sold the mac",
        ),
        ("My car is a Ford Fiesta", "traded the fiesta in, we've got a Skoda now"),
    ] {
        assert!(replaces(old, new), "{old} / {new}");
    }
}

#[test]
fn a_one_off_a_plan_an_addition_or_someone_elses_keeps_the_old() {
    for (old, new) in [
        ("I work remotely", "in the office tomorrow for the offsite"),
        ("I work remotely", "thinking about asking to go back into the office"),
        (
            "I drive to work",
            "getting the bus this week while the car's in the garage",
        ),
        ("I drive to work", "bought a new bike for weekends"),
        (
            "I live with two flatmates in Leith",
            "my sister moved in with her boyfriend",
        ),
        ("We rent a terrace in Leeds", "should we buy a house or keep renting?"),
        ("I'm vegan", "my husband eats meat, I cook him chicken sometimes"),
        ("My phone is an iPhone 13", "got my son a Pixel for his birthday"),
        (
            "My phone is an iPhone 13",
            "work gave me a Samsung as well, for on-call",
        ),
        ("I smoke roll-ups", "my dad quit smoking after 40 years"),
        ("I bank with Santander", "might open a Monzo account for travel"),
    ] {
        assert!(!replaces(old, new), "{old} / {new}");
    }
}

#[test]
fn a_new_holder_of_a_role_replaces_the_old_one() {
    for (old, new) in [
        (
            "My physio is Anna",
            "changed physios, I see Tom at the sports clinic now",
        ),
        ("My manager is Ruth", "ruth's retired, got a new manager called Femi"),
        ("I report to Sam", "reorg happened, I report to Dev now"),
        ("My hairdresser is Kelly", "new hairdresser, Jo on the high street"),
        // As a note holds it, and told as ours.
        (
            "Cleaner is Magda",
            "magda's gone back to poland so we've got a new cleaner, Joanne",
        ),
        (
            "Our landlord is Mr Patel",
            "we have a new landlord, a woman called Sandra Kirby",
        ),
        (
            "My driving instructor is Leanne",
            "switched instructors, I'm with Steve now",
        ),
    ] {
        assert!(replaces(old, new), "{old} / {new}");
    }
    for (old, new) in [
        ("My manager is Ruth", "Ruth's off sick so Femi is covering this week"),
        ("My manager is Ruth", "my brother's got a new manager, he's awful"),
        ("My dentist is Dr Khan", "should I switch dentists?"),
        ("My GP is Dr Lowe", "the practice has a new GP, Dr Ames"),
        ("Our landlord is Mr Patel", "my sister has a new landlord too"),
        ("Cleaner is Magda", "I'm a cleaner now, nights at the hospital"),
        ("My wife is a teacher", "the kids have a new teacher this year"),
    ] {
        assert!(!replaces(old, new), "{old} / {new}");
    }
}

#[test]
fn a_new_favourite_replaces_the_old_when_the_old_is_named_put_aside() {
    assert_eq!(
        judge(
            "My favourite film is Alien",
            "Arrival has overtaken Alien as my favourite",
            &RuleContext::default()
        ),
        Verdict::Change
    );
    assert!(!replaces("My favourite film is Alien", "Alien is still my favourite"));
    assert!(!replaces(
        "My favourite film is Alien",
        "my son's favourite is Cars now, over Alien"
    ));
}

#[test]
fn a_class_told_as_someones_moved_is_the_old_ones() {
    assert!(replaces(
        "My pilates class is Mondays at 6pm",
        "pilates's moved to wednesdays at 7"
    ));
    assert!(replaces(
        "I go to bed around 11pm",
        "lights out by midnight lately, work's been mad"
    ));
    assert!(!replaces(
        "My pilates class is Mondays at 6pm",
        "Sarah's moved to wednesdays at 7"
    ));
}

#[test]
fn a_plan_is_not_moved_with_the_class() {
    assert!(!replaces(
        "I might try the Thursday spin class",
        "they moved my spin class to Wednesdays at 7"
    ));
    assert!(!replaces(
        "I might try the Thursday spin class",
        "spin's moved to wednesdays at 7 now"
    ));
}

/// A review's look-alikes (2026-12-01): shared words, someone else's news, plans and the
/// past, additions, and roles that are no holder of the teller's.
#[test]
fn look_alikes_of_a_switch_keep_the_old_way() {
    for (old, new) in [
        ("I live with my husband", "I've been feeling really alone lately"),
        ("I live with my husband", "joined a new yoga studio"),
        ("I work from home", "I'm back in London now"),
        ("I work from home", "finally met my penpal in person"),
        ("I work from home", "lost the TV remote again"),
        ("I work from home", "I'll be back in the office in September"),
        ("I work from home", "went into the office last Thursday"),
        ("I work from home", "I barely go into the office these days"),
        ("I love playing golf", "just bought a Toyota Yaris"),
        ("My TV is a Samsung", "finally got an iPhone"),
        ("I work at Tesco", "we do our big shop at Lidl now"),
        ("I'm allergic to dairy", "switched to oat milk in my coffee now"),
        ("I have a pint most nights", "I play football on weekends now"),
        ("I work full time", "I've been off sick for 3 days now"),
        ("I work out 5 days a week", "I'm working 3 days a week now"),
        ("I drive to work", "I walk the dog every morning now"),
        ("I drive to work", "I lift weights 3x a week now"),
        ("I drive to work", "The boys walk to school now"),
        ("I'm vegan", "The kids have gone vegetarian"),
        ("I'm vegetarian", "Sarah went vegan and I'm so impressed"),
        ("My phone is a Pixel", "Sarah got an iPhone, I'm jealous"),
        ("I have a PS5", "finally got a Nintendo Switch"),
        ("I drink coffee every morning", "started having green tea lately"),
        ("We rent a flat", "I own my own business now"),
        ("I'm teetotal", "I have a glass of water every morning now"),
        ("My manager is Priya", "I'm a manager now"),
        ("My manager is Priya", "Priya left the meeting in tears"),
        ("My manager is Dave", "Priya got a new manager"),
        ("My personal trainer is Jake", "got some new trainers"),
        ("My GP is Dr Lowe", "there's a new GP at the practice"),
        (
            "My daughter's dentist is Dr Khan",
            "switched dentists, I go to Smile Clinic now",
        ),
        ("I work 9 to 5", "I've started running at 6am before work now"),
        ("I go to the gym 3 times a week", "I'm down to once a week now"),
    ] {
        assert!(!replaces(old, new), "{old} / {new}");
    }
}
