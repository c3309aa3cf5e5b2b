//! Changes told in everyday words, through `add` on the CLI and the real component: each
//! replaces the one fact it changes and leaves a look-alike's. The pairs are the seventh
//! blind probe's (2026-12-01), which left both versions live.

use crate::support::ctx::{Ctx, contents};

const T0: &str = "2026-03-04T10:00:00Z";
const LATER: &str = "2026-03-20T10:00:00Z";

/// `old`, then its look-alike and its news, each through `add` in a home of their own: the
/// look-alike replaces nothing and the news one fact. What is live after them.
pub(crate) fn told_in_turn(old: &str, look_alike: &str, news: &str) -> Vec<String> {
    let ctx = Ctx::new();
    let add = |now: &str, text: &str| ctx.json(&["--user", "u", "--now", now, "add", text]);
    add(T0, old);
    let kept = add(LATER, look_alike);
    assert_eq!(kept["superseded"].as_array().map(Vec::len), Some(0), "{kept}");
    let replaced = add(LATER, news);
    assert_eq!(replaced["superseded"].as_array().map(Vec::len), Some(1), "{replaced}");
    contents(&ctx.json(&["--user", "u", "--now", LATER, "list"]))
}

/// [`told_in_turn`], then: the old fact is gone, the news and the look-alike live.
fn replaced_beside_its_look_alike(old: &str, look_alike: &str, news: &str) {
    let live = told_in_turn(old, look_alike, news);
    assert!(!live.iter().any(|c| c == old), "{old} then {news}: {live:?}");
    assert!(
        live.iter().any(|c| c == news) && live.iter().any(|c| c == look_alike),
        "{live:?}"
    );
}

/// `old`, then `look_alike` and `news` through `add`: the look-alike replaces nothing, the
/// news exactly `old` (by its content, not only its absence, which an expiry would also
/// give), and the look-alike stays live.
fn replaced_beside_its_look_alike_only(old: &str, look_alike: &str, news: &str) {
    let ctx = Ctx::new();
    let add = |now: &str, text: &str| ctx.json(&["--user", "u", "--now", now, "add", text]);
    add(T0, old);
    let kept = add(LATER, look_alike);
    assert_eq!(kept["superseded"].as_array().map(Vec::len), Some(0), "{kept}");
    let replaced = add(LATER, news);
    let gone: Vec<&str> = replaced["superseded"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| m["content"].as_str())
        .collect();
    assert_eq!(gone, [old], "{news}");
    let live = contents(&ctx.json(&["--user", "u", "--now", LATER, "list"]));
    assert!(live.iter().any(|c| c == look_alike), "{live:?}");
}

/// A change told with its time first ("These days I drive to work") replaces the old way
/// as one told with it last does; someone else's way told the same, or milk on one's
/// cereal, keeps it (`judgment::fronted`; `eval/judgment/fronted-*.tsv`).
#[test]
fn a_change_told_with_its_time_first_replaces_the_old_way() {
    for (old, look_alike, news) in [
        (
            "I walk to work",
            "These days my husband drives to work",
            "These days I drive to work",
        ),
        (
            "I take my coffee black",
            "nowadays there's oat milk on my porridge",
            "Nowadays I take oat milk in my coffee",
        ),
        (
            "I work from home",
            "Since the merger my wife is back in the office",
            "Since the merger I'm back in the office three days a week",
        ),
    ] {
        replaced_beside_its_look_alike_only(old, look_alike, news);
    }
}

#[test]
fn a_step_in_a_partnership_a_pet_rehomed_or_a_retraction_replaces_it() {
    for (old, look_alike, news) in [
        (
            "My girlfriend is Sophie",
            "My sister got engaged!",
            "Sophie and I got engaged!",
        ),
        (
            "I'm going to propose to Kate at Christmas",
            "Tom and Ana got engaged last night",
            "She said yes!! Kate and I are engaged",
        ),
        (
            "I'm single",
            "my brother is seeing someone new",
            "I've started seeing someone, her name's Ana",
        ),
        (
            "I have a dog named Charlie",
            "We rehomed a cat from the shelter",
            "We rehomed Charlie with my aunt, couldn't give him enough attention",
        ),
        (
            "I'm allergic to penicillin",
            "Turns out I'm not allergic to amoxicillin after all",
            "Turns out I'm not allergic to penicillin after all, the allergy test was negative",
        ),
    ] {
        let mut live = told_in_turn(old, look_alike, news);
        live.sort();
        let mut want = vec![look_alike.to_owned(), news.to_owned()];
        want.sort();
        assert_eq!(live, want, "{old} then {news}");
    }
}

/// The seventh probe's switches of daily life (2026-12-01): a place of work, a home, a diet,
/// a provider named by its brand alone, a routine's time and a role's new holder. Each
/// replaces its old way through `add`, found by the frame's words though the two share
/// none ("finally switched to octopus" after "My energy supplier is British Gas"); the
/// one-off, the plan and someone else's keep it.
#[test]
fn a_switch_of_daily_life_replaces_the_old_way() {
    for (old, look_alike, news) in [
        (
            "I work from home full time",
            "in the office tomorrow for the team offsite",
            "back in the office full time now, ugh",
        ),
        (
            "I live with my parents",
            "my brother moved out last year",
            "finally moved out into my own flat in Leith!",
        ),
        (
            "We rent a flat in Hackney",
            "thinking about buying somewhere next year",
            "We bought a house in Walthamstow, moving in done",
        ),
        (
            "I'm a vegetarian",
            "my husband eats meat, I cook him chicken sometimes",
            "I eat meat again now, the veggie thing didn't stick",
        ),
        (
            "My energy supplier is British Gas",
            "my mum switched to EDF",
            "finally switched to octopus",
        ),
        (
            "My spin class is Tuesdays at 6pm",
            "I might try the Thursday class too",
            "they moved my spin class to Wednesdays at 7",
        ),
        (
            "My doctor is Dr Patel",
            "should I switch GPs?",
            "switched GPs, I see Dr Okafor now",
        ),
    ] {
        replaced_beside_its_look_alike(old, look_alike, news);
    }
}

/// The eighth probe's changes (2026-12-01): an allegiance, a surname, a taste turned, one
/// gained after none, a value put "instead of" the old one, a promotion, a job quit while
/// the next is told, a weight told with its cause. Each replaces its old fact through
/// `add`; someone else's news of the same kind keeps it.
#[test]
fn an_allegiance_a_taste_or_a_value_put_instead_replaces_the_old_one() {
    for (old, look_alike, news) in [
        (
            "I support Arsenal",
            "My son supports Spurs now",
            "I support Spurs now, long story, don't ask",
        ),
        (
            "My surname is Patel",
            "My sister's surname is Okafor",
            "I got married and my surname is Okafor now",
        ),
        (
            "I hate coriander",
            "my wife loves coriander",
            "weirdly I actually like coriander now",
        ),
        (
            "I don't have any pets",
            "my sister adopted a kitten",
            "we adopted a kitten!! her name is Pepper",
        ),
        (
            "We're having the wedding in Tuscany",
            "my cousin's wedding is in Cornwall",
            "change of plan, the wedding is going to be in Cornwall instead of Tuscany",
        ),
        (
            "I'm a junior developer at Acme",
            "my brother got promoted to senior developer",
            "Got promoted to senior developer at Acme!",
        ),
        (
            "I work as a barista at Grindhouse Coffee",
            "My flatmate quit her job at the cafe",
            "quit the cafe job!! starting as a bank teller at Lloyds on monday",
        ),
        (
            "I weigh 82 kg",
            "my suitcase is down to 20kg now",
            "down to 76kg now after the diet, so chuffed",
        ),
    ] {
        replaced_beside_its_look_alike(old, look_alike, news);
    }
}

/// The same fact told again in other words is kept once: the second add restates it.
#[test]
fn the_eighth_probes_restatements_are_kept_once() {
    for (first, again) in [
        ("I support Arsenal", "I'm an Arsenal fan"),
        ("I drive a Tesla Model 3", "my car's a tesla model 3"),
        ("I take my coffee black", "I drink my coffee black"),
        ("I'm afraid of flying", "flying terrifies me"),
    ] {
        let ctx = Ctx::new();
        let add = |text: &str| ctx.json(&["--user", "u", "--now", T0, "add", text]);
        add(first);
        let out = add(again);
        assert_eq!(out["restated"], true, "{first} / {again}: {out}");
        assert_eq!(
            contents(&ctx.json(&["--user", "u", "--now", T0, "list"])).len(),
            1,
            "{again}"
        );
    }
}

/// The ninth probe's changes (2026-12-01): a phone said goodbye to, an account moved "from
/// Barclays to Monzo", a dinner party off before its day, a taste come round to. Someone
/// else's keeps the old fact.
#[test]
fn a_thing_said_goodbye_to_or_a_party_called_off_replaces_it() {
    for (old, look_alike, news) in [
        (
            "I've got an iPhone 12",
            "my sister upgraded to a Pixel 8",
            "upgraded my phone to a Pixel 8, goodbye iPhone",
        ),
        (
            "I bank with Barclays",
            "my mum moved her account to Monzo",
            "Moved my current account from Barclays to Monzo",
        ),
        (
            "I'm hosting a dinner party on 28 March for 8 people",
            "my neighbour's party is off",
            "Dinner party's off, half the guests have covid",
        ),
        (
            "I hate coffee",
            "my mum's come round to coffee",
            "Weirdly I've come round to coffee now",
        ),
    ] {
        replaced_beside_its_look_alike(old, look_alike, news);
    }
}

/// The eleventh probe's changes (2026-12-02): a pet named in lower case died, a class and a
/// holiday told over as things ("pottery's finished", "portugal's off"), a child moved
/// schools, a number corrected after "oops". Someone else's keeps the old fact.
#[test]
fn a_thing_told_over_or_a_child_at_another_school_replaces_it() {
    for (old, look_alike, news) in [
        (
            "we have a goldfish called Bubbles",
            "my neighbour's cat died last week",
            "bubbles died sadly, we don't have any pets at the moment",
        ),
        (
            "I do a pottery class on Thursday nights",
            "my sister's pottery class has finished",
            "pottery's finished, I do a life drawing class on thursday nights now",
        ),
        (
            "we're going to Portugal for our summer holiday this year",
            "my parents' trip to Spain is off",
            "portugal's off, flights were too expensive, we're doing Cornwall instead",
        ),
        (
            "my son Leo goes to St Mary's Primary",
            "my nephew Sam moved schools",
            "Leo's moved schools, he's at Oakfield Primary since this term",
        ),
        (
            "my house number is 42",
            "my mum's house number is 24",
            "oops I typed that wrong, my house number is 24 not 42",
        ),
        (
            "I work at a call centre",
            "got a job interview at Tesco",
            "got a job at Tesco on the tills",
        ),
        (
            "use Fahrenheit when you tell me temperatures",
            "I ran 5 miles today",
            "actually give me temps in celsius from now on",
        ),
        (
            "I'm a software engineer at Stripe",
            "my sister's last day at Stripe was friday",
            "just accepted an offer at Datadog, my last day at stripe was friday",
        ),
    ] {
        replaced_beside_its_look_alike(old, look_alike, news);
    }
}

/// The eleventh probe's restatements: told again with "like I mentioned", "as I think I
/// said", a name and its relation between commas, a count had, a fear.
#[test]
fn a_fact_told_again_with_an_aside_is_kept_once() {
    for (first, again) in [
        (
            "I work as a nurse at St Thomas' Hospital",
            "like I mentioned, I'm a nurse at St Thomas'",
        ),
        ("my mum lives in Swansea", "mum's in Swansea, as I think I said"),
        ("My sister Nina is a lawyer", "Nina, my sister, is a lawyer"),
        ("I have two kids", "I've got 2 children"),
        ("I'm scared of spiders", "I have a fear of spiders"),
    ] {
        let ctx = Ctx::new();
        let add = |text: &str| ctx.json(&["--user", "u", "--now", T0, "add", text]);
        add(first);
        let out = add(again);
        assert_eq!(out["restated"], true, "{first} / {again}: {out}");
    }
}

/// The eleventh and twelfth probes' look-alikes that replaced a fact: history, one meal,
/// lessons moved, what came before a name.
#[test]
fn history_a_meal_or_lessons_moved_keep_the_old_fact() {
    for (old, other) in [
        (
            "I'm married to Fiona",
            "I was married to someone else in my twenties, we divorced in 2005",
        ),
        (
            "I'm married to Claire",
            "I was married before Claire, we divorced in 2010",
        ),
        (
            "I'm vegetarian and have been for years",
            "ate a bit of chicken at the wedding yesterday by accident, felt awful",
        ),
        (
            "I'm learning Spanish for a move to Valencia",
            "moved my spanish lessons to sunday afternoons",
        ),
    ] {
        let ctx = Ctx::new();
        let add = |text: &str| ctx.json(&["--user", "u", "--now", T0, "add", text]);
        add(old);
        let added = add(other);
        assert!(contents(&added["superseded"]).is_empty(), "{other}: {added}");
        let mut live = contents(&ctx.json(&["--user", "u", "--now", T0, "list"]));
        live.sort();
        let mut both = vec![old.to_owned(), other.to_owned()];
        both.sort();
        assert_eq!(live, both, "{old} / {other}");
    }
}

/// Bookings moved or corrected in everyday words (`eval/judgment/bookings-dev.tsv`): each
/// replaces the booking it moves through `add`, and a look-alike beside it (another's
/// flight, one session off, a second booking, someone else's landlord) replaces nothing.
/// All seven left both versions live before the rule (`judgment/rebooked`).
#[test]
fn a_booking_moved_or_corrected_replaces_it() {
    for (old, look_alike, news) in [
        (
            "Flight to Lisbon is on 12 June",
            "my sister flies into lisbon on the 14th to meet us",
            "sorry, I got that wrong, the lisbon flight is the 13th not the 12th",
        ),
        (
            "Yoga class is every Monday 7pm at the community hall",
            "yoga's off this monday, the hall's being used as a polling station",
            "yoga's relocated to the studio above the bakery, still monday nights",
        ),
        (
            "Team standup is at 9:30 every day",
            "no standup friday, whole team's at the offsite",
            "new manager moved standup to 10 every morning",
        ),
        (
            "Conference in Berlin 4-6 May",
            "i've got a work trip to Paris on 2 June as well",
            "berlin conf has been postponed to 13-15 june",
        ),
        (
            "Our landlord is Mr Patel",
            "my sister has a new landlord too",
            "we have a new landlord, a woman called Sandra Kirby",
        ),
        (
            "Boiler service booked for 2 Nov",
            "the car's annual service is 3 dec at the same garage",
            "engineer can't make the 2nd so the boiler service is on the 9th now",
        ),
        (
            "Bin day is Tuesday",
            "garden waste gets collected fortnightly on fridays",
            "sorry it's actually wednesday for the bins, i always mix it up",
        ),
    ] {
        replaced_beside_its_look_alike_only(old, look_alike, news);
    }
}

/// Amounts changed with an aside, and look-alikes told in texting style
/// (`eval/judgment/amounts-dev-2.tsv`, read after its blind measure). Each news replaces
/// the old amount through `add`; a friend's dog minded for the week, a partner's weight
/// and a wife's salary replace nothing. Every news was missed, and two look-alikes
/// replaced the old amount, on the build before.
#[test]
fn an_amount_told_with_an_aside_replaces_it() {
    for (old, look_alike, news) in [
        (
            "I weigh about 95kg at the moment",
            "my suitcase is 23kg now",
            "down to 82 kilos now, all the running is paying off",
        ),
        (
            "I make $25 an hour at the warehouse",
            "my flatmate makes $30 an hour",
            "boss bumped me up to $28 an hour",
        ),
        (
            "I have 2 dogs",
            "dog sitting my mates labrador this week so its 3 dogs in the house lol",
            "we adopted a third dog!! so 3 dogs now",
        ),
        (
            "My salary is R38,000 a month",
            "my wife's salary is R52,000 a month",
            "got the promotion!! salary's R46k a month now",
        ),
        (
            "I weigh about 95kg",
            "my partners lost 10kg on keto, im jealous",
            "down to 91 kilos now, the no snacking thing is actually working lol",
        ),
    ] {
        replaced_beside_its_look_alike_only(old, look_alike, news);
    }
}
