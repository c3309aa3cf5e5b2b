//! The judgment measured on labelled pairs written apart from the rules: the development
//! half (`eval/judgment/pairs-dev.tsv`) is what the rules were developed on; the held-out
//! half (`pairs-held-out.tsv`, by another author) is only measured. Print the tables with
//! `cargo test -p ash-memory-guest judgment -- --nocapture`.

use super::{Verdict, judge, parse_judgment};
use crate::supersession::RuleContext;

const DEV: &str = include_str!("../../../eval/judgment/pairs-dev.tsv");
const HELD_OUT: &str = include_str!("../../../eval/judgment/pairs-held-out.tsv");
const LONG_DEV: &str = include_str!("../../../eval/judgment/long-dev.tsv");
const LONG_HELD_OUT: &str = include_str!("../../../eval/judgment/long-held-out.tsv");
const TALK_DEV: &str = include_str!("../../../eval/judgment/talk-dev.tsv");
const TALK_HELD_OUT: &str = include_str!("../../../eval/judgment/talk-held-out.tsv");
const ENDINGS_HELD_OUT: &str = include_str!("../../../eval/judgment/endings-held-out.tsv");
const PEOPLE_DEV: &str = include_str!("../../../eval/judgment/people-dev.tsv");
const PEOPLE_HELD_OUT: &str = include_str!("../../../eval/judgment/people-held-out.tsv");
const PARTNERS_DEV: &str = include_str!("../../../eval/judgment/partners-dev.tsv");
const PARTNERS_HELD_OUT: &str = include_str!("../../../eval/judgment/partners-held-out.tsv");
const JOBS_DEV: &str = include_str!("../../../eval/judgment/jobs-dev.tsv");
const JOBS_HELD_OUT: &str = include_str!("../../../eval/judgment/jobs-held-out.tsv");
const DETAILS_DEV: &str = include_str!("../../../eval/judgment/details-dev.tsv");
const DETAILS_HELD_OUT: &str = include_str!("../../../eval/judgment/details-held-out.tsv");
const HOME_HELD_OUT: &str = include_str!("../../../eval/judgment/home-held-out.tsv");
const LOOK_ALIKES_DEV: &str = include_str!("../../../eval/judgment/look-alikes-dev.tsv");
const LOOK_ALIKES_HELD_OUT: &str = include_str!("../../../eval/judgment/look-alikes-held-out.tsv");
const RESTATEMENTS_HELD_OUT: &str = include_str!("../../../eval/judgment/restatements-held-out.tsv");
const REORDERED_HELD_OUT: &str = include_str!("../../../eval/judgment/reordered-held-out.tsv");
const TRANSITIONS_HELD_OUT: &str = include_str!("../../../eval/judgment/transitions-held-out.tsv");
const AMOUNTS_DEV: &str = include_str!("../../../eval/judgment/amounts-dev.tsv");
const AMOUNTS_HELD_OUT: &str = include_str!("../../../eval/judgment/amounts-held-out.tsv");
const AMOUNTS_DEV_2: &str = include_str!("../../../eval/judgment/amounts-dev-2.tsv");
const PLANS_DEV: &str = include_str!("../../../eval/judgment/plans-dev.tsv");
const PLANS_HELD_OUT: &str = include_str!("../../../eval/judgment/plans-held-out.tsv");
const SWITCHES_DEV: &str = include_str!("../../../eval/judgment/switches-dev.tsv");
const SWITCHES_DEV_2: &str = include_str!("../../../eval/judgment/switches-dev-2.tsv");
const SWITCHES_HELD_OUT: &str = include_str!("../../../eval/judgment/switches-held-out.tsv");
const FRONTED_DEV: &str = include_str!("../../../eval/judgment/fronted-dev.tsv");
const FRONTED_HELD_OUT: &str = include_str!("../../../eval/judgment/fronted-held-out.tsv");
const EXCEPTIONS_DEV: &str = include_str!("../../../eval/judgment/exceptions-dev.tsv");
const EXCEPTIONS_HELD_OUT: &str = include_str!("../../../eval/judgment/exceptions-held-out.tsv");
const OTHERS_DEV: &str = include_str!("../../../eval/judgment/others-dev.tsv");
const OTHERS_HELD_OUT: &str = include_str!("../../../eval/judgment/others-held-out.tsv");
const BOOKINGS_DEV: &str = include_str!("../../../eval/judgment/bookings-dev.tsv");
const BOOKINGS_HELD_OUT: &str = include_str!("../../../eval/judgment/bookings-held-out.tsv");
const BOOKINGS_ADVERSARIAL: &str = include_str!("../../../eval/judgment/bookings-adversarial.tsv");

const LABELS: [Verdict; 4] = [Verdict::Same, Verdict::Refinement, Verdict::Change, Verdict::Different];

struct Pair {
    label: Verdict,
    ctx: RuleContext,
    old: String,
    new: String,
}

fn pairs(tsv: &str) -> Vec<Pair> {
    tsv.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 4, "{l:?}");
            let label = parse_judgment(f[0]).unwrap_or_else(|| panic!("label {:?}", f[0]));
            let ctx = match f[1] {
                "me" => RuleContext::default(),
                "group" => RuleContext {
                    group: true,
                    subject_names: Vec::new(),
                },
                about => RuleContext {
                    group: false,
                    subject_names: about
                        .strip_prefix("about:")
                        .unwrap_or_else(|| panic!("context {about:?}"))
                        .split(',')
                        .map(|n| n.trim().to_owned())
                        .collect(),
                },
            };
            Pair {
                label,
                ctx,
                old: f[2].to_owned(),
                new: f[3].to_owned(),
            }
        })
        .collect()
}

/// Counts of (label, decision): what happened to each labelled pair.
struct Table {
    counts: [[u32; 4]; 4],
}

fn position(v: Verdict) -> usize {
    // Unsure keeps both, as "different" does.
    match v {
        Verdict::Same => 0,
        Verdict::Refinement => 1,
        Verdict::Change => 2,
        Verdict::Different | Verdict::Unsure => 3,
    }
}

/// The table for one set; `oracle` stands in for a language model that answers the
/// unsure pairs with their label (the most a perfect model could add to the rules).
fn measure(set: &[Pair], oracle: bool) -> Table {
    measure_with(set, oracle, judge)
}

fn measure_with(set: &[Pair], oracle: bool, judge: impl Fn(&str, &str, &RuleContext) -> Verdict) -> Table {
    let mut counts = [[0; 4]; 4];
    for p in set {
        let mut v = judge(&p.old, &p.new, &p.ctx);
        if oracle && v == Verdict::Unsure {
            v = p.label;
        }
        counts[position(p.label)][position(v)] += 1;
    }
    Table { counts }
}

impl Table {
    fn precision(&self, l: usize) -> f32 {
        let predicted: u32 = (0..4).map(|t| self.counts[t][l]).sum();
        if predicted == 0 {
            return 1.0;
        }
        self.counts[l][l] as f32 / predicted as f32
    }

    fn recall(&self, l: usize) -> f32 {
        let total: u32 = self.counts[l].iter().sum();
        if total == 0 {
            return 1.0;
        }
        self.counts[l][l] as f32 / total as f32
    }

    /// Pairs of different facts where one was dropped (merged or replaced).
    fn different_lost(&self) -> u32 {
        self.counts[3][0] + self.counts[3][1] + self.counts[3][2]
    }

    fn print(&self, title: &str) {
        println!("\n{title}");
        println!("| label | pairs | precision | recall | judged same / refinement / change / kept both |");
        println!("| --- | --- | --- | --- | --- |");
        for (l, label) in LABELS.iter().enumerate() {
            let c = self.counts[l];
            println!(
                "| {} | {} | {:.2} | {:.2} | {} / {} / {} / {} |",
                label.as_str(),
                c.iter().sum::<u32>(),
                self.precision(l),
                self.recall(l),
                c[0],
                c[1],
                c[2],
                c[3]
            );
        }
        println!("different pairs where a true fact was lost: {}", self.different_lost());
    }
}

#[test]
fn the_sets_are_large_and_balanced() {
    for (name, set) in [("dev", pairs(DEV)), ("held-out", pairs(HELD_OUT))] {
        assert!(set.len() >= 300, "{name}: {} pairs", set.len());
        for label in LABELS {
            let n = set.iter().filter(|p| p.label == label).count();
            assert!(n >= 60, "{name}: {n} pairs labelled {}", label.as_str());
        }
    }
}

#[test]
fn held_out_pairs_are_judged_as_labelled() {
    let dev = measure(&pairs(DEV), false);
    dev.print("development half, rules alone");
    measure(&pairs(DEV), true).print("development half, rules with the language-model stand-in");
    let held = pairs(HELD_OUT);
    // Before: the conservative supersession rule alone, which knew no restatements.
    let before = |old: &str, new: &str, ctx: &RuleContext| {
        if crate::supersession::rule_replaces(old, new, ctx) {
            Verdict::Change
        } else {
            Verdict::Different
        }
    };
    measure_with(&held, false, before).print("held-out half, the supersession rule before the judgment");
    let rules = measure(&held, false);
    rules.print("held-out half, rules alone");
    let with_model = measure(&held, true);
    with_model.print("held-out half, rules with the language-model stand-in");
    // Floors a little under what was measured when the rules were last changed (see
    // docs/judgment.md): a change to the rules that loses ground here fails.
    // A wrong replacement hides a true fact: different facts are kept.
    assert!(rules.recall(3) >= 0.95, "different facts kept: {:.2}", rules.recall(3));
    assert!(
        rules.precision(0) >= 0.95,
        "restatements: precision {:.2}",
        rules.precision(0)
    );
    assert!(
        rules.precision(2) >= 0.75,
        "changes: precision {:.2}",
        rules.precision(2)
    );
    assert!(rules.recall(0) >= 0.15, "restatements: recall {:.2}", rules.recall(0));
    assert!(rules.recall(2) >= 0.2, "changes: recall {:.2}", rules.recall(2));
    assert!(
        with_model.recall(2) >= 0.35,
        "changes with a model: recall {:.2}",
        with_model.recall(2)
    );
}

#[test]
fn the_issues_examples() {
    let me = RuleContext::default();
    let cases = [
        ("I work at Google", "I started a new job at Microsoft", Verdict::Change),
        ("I'm vegetarian", "I'm not vegetarian anymore", Verdict::Change),
        (
            "My favorite color is blue",
            "Actually my favourite colour is green now",
            Verdict::Change,
        ),
        ("I use Vim", "I switched from Vim to VS Code", Verdict::Change),
        ("I like jazz", "I like jazz", Verdict::Same),
        ("I like jazz music", "I really like jazz music", Verdict::Same),
        ("I like jazz music", "i like Jazz music!", Verdict::Same),
        ("I drive a blue Volvo", "I drive a blue volvo", Verdict::Same),
        (
            "My sister lives in Berlin",
            "My sister lives in Berlin, Germany",
            Verdict::Refinement,
        ),
        ("I live in Lisbon", "I moved to Porto last month", Verdict::Change),
        ("I like dogs", "I like cats", Verdict::Unsure),
        (
            "My sister lives in Berlin",
            "My brother lives in Berlin",
            Verdict::Different,
        ),
        ("I work at Google", "My wife works at Google", Verdict::Different),
        ("I like jazz", "I don't like jazz anymore", Verdict::Change),
        // The seventh probe: a state of not working now lasts, and work found ends it.
        (
            "I'm unemployed at the moment",
            "Started a new job as a data analyst!",
            Verdict::Change,
        ),
        ("I'm between jobs", "I work at Tesco now", Verdict::Change),
        // The seventh probe: a retraction.
        (
            "I'm allergic to penicillin",
            "Turns out I'm not allergic to penicillin after all, the allergy test was negative",
            Verdict::Change,
        ),
        ("I'm vegan", "Actually I'm not vegan, just vegetarian", Verdict::Change),
    ];
    // Look-alikes of work found and of a partnership's step, from a review of the rules.
    for (old, new) in [
        (
            "I'm unemployed at the moment",
            "I got a job interview at Tesco next week!",
        ),
        ("I work out 4 times a week", "Started a new job as a data analyst!"),
        (
            "My girlfriend is Sophie",
            "I asked my manager for Friday off and she said yes",
        ),
        (
            "My boyfriend is Tom",
            "My sister got engaged last night, I'm so happy for her",
        ),
        ("I'm a single mum to two boys", "I've started seeing someone from work"),
        ("I'm single", "My brother's seeing someone new, I'm so jealous"),
        (
            "I'm single",
            "I'm seeing a woman from the council about my housing benefit",
        ),
        (
            "I'm allergic to penicillin",
            "Turns out I'm not allergic to amoxicillin after all",
        ),
        ("I like jazz", "turns out my wife doesn't like jazz after all"),
    ] {
        assert_ne!(judge(old, new, &me), Verdict::Change, "{old:?} then {new:?}");
    }
    for (old, new, want) in cases {
        assert_eq!(judge(old, new, &me), want, "{old:?} then {new:?}");
    }
}

/// Where one lives is changed by one's own move told done, not by a thing of one's that
/// moved nor by a move planned (found by a helper probing the CLI blind).
#[test]
fn a_home_is_changed_by_ones_own_move_only() {
    let me = RuleContext::default();
    for (old, new, want) in [
        ("I live in Leeds", "My office moved to Bradford", Verdict::Different),
        (
            "I live in Leeds",
            "My company relocated to Manchester",
            Verdict::Different,
        ),
        (
            "I live in Leeds",
            "My favourite bakery moved to Harrogate",
            Verdict::Different,
        ),
        (
            "I live in Leeds",
            "Our church moved to a new building in Otley",
            Verdict::Different,
        ),
        (
            "I live in Leeds",
            "Our local pub relocated to Headingley",
            Verdict::Different,
        ),
        (
            "My sister lives in Madrid",
            "My sister's office moved to Barcelona",
            Verdict::Different,
        ),
        ("I live in London", "I'm moving to Berlin next year", Verdict::Different),
        (
            "I live in London",
            "I'm relocating to Berlin in January",
            Verdict::Different,
        ),
        ("I live in Leeds", "I've just moved to Bradford", Verdict::Change),
        ("I live in Leeds", "We finally moved to Bradford", Verdict::Change),
        ("I live in Leeds", "I recently relocated to Bradford", Verdict::Change),
        (
            "My sister lives in Madrid",
            "My sister moved to Barcelona",
            Verdict::Change,
        ),
        (
            "I'm moving to Lisbon in June",
            "Change of plan, I'm moving to Porto instead",
            Verdict::Change,
        ),
    ] {
        assert_eq!(judge(old, new, &me), want, "{old:?} then {new:?}");
    }
}

/// Long old facts are still changed by a short ending or switch of their main thing. A
/// guard against turns of a conversation replacing each other (a denial in passing that
/// shares a word with a long turn) must keep these: one that asked the ending's words to
/// be a share of the old fact's did not, and was reverted.
#[test]
fn a_long_fact_is_changed_by_a_short_ending_of_its_main_thing() {
    let me = RuleContext::default();
    for (old, new) in [
        (
            "I work at Google as a senior engineer on the Maps team, mostly backend",
            "I'm not at Google anymore, I joined Meta",
        ),
        (
            "I use Vim for everything, with a dozen plugins and my own colour scheme",
            "I switched from Vim to VS Code",
        ),
        (
            "I sing in the choir every Thursday with my neighbour Ruth, mostly folk songs",
            "I quit the choir",
        ),
        (
            "I play tennis with Mark every Monday evening at the club near the river",
            "I don't play tennis anymore",
        ),
    ] {
        assert_eq!(judge(old, new, &me), Verdict::Change, "{old:?} then {new:?}");
    }
}

/// Endings told with when they happened, or in longer facts, still end.
#[test]
fn an_ending_told_with_its_moment_ends() {
    let me = RuleContext::default();
    let couple = RuleContext {
        group: false,
        subject_names: vec!["Emma".into(), "Jack".into()],
    };
    for (old, new, ctx) in [
        ("I smoke a pack a day", "I quit smoking when my daughter was born", &me),
        (
            "I work at Google",
            "I don't work at Google anymore after the layoffs",
            &me,
        ),
        (
            "I work at St. Mary's hospital as a nurse.",
            "I'm not a nurse anymore",
            &me,
        ),
        ("Emma and Jack are dating", "Emma and Jack split up", &couple),
        (
            "I drive a 2012 Honda Civic, silver, from my uncle",
            "I sold the Civic last weekend",
            &me,
        ),
        // A count of time is when, and a chat line may leave its subject out.
        ("I smoke", "I quit smoking 6 months ago", &me),
        ("I smoke", "quit smoking a few months ago", &me),
        ("I'm reading Dune", "Finished Dune last night", &me),
        // Going somewhere is a habit when it stops, not a plan.
        ("I go to yoga on Mondays", "I stopped going to yoga", &me),
    ] {
        assert_eq!(judge(old, new, ctx), Verdict::Change, "{old:?} then {new:?}");
    }
    for (old, new) in [
        ("I go to the gym on Mondays", "I stopped going to the cinema"),
        ("I smoke", "I quit my job six months ago"),
        ("I'm going to Japan in April", "I love going to the theatre"),
        ("I go to yoga on Mondays", "I'm going to try pilates next week"),
    ] {
        assert_ne!(judge(old, new, &me), Verdict::Change, "{old:?} then {new:?}");
    }
}

#[test]
fn the_model_is_read_strictly() {
    assert_eq!(parse_judgment("Change."), Some(Verdict::Change));
    assert_eq!(parse_judgment(" same\n"), Some(Verdict::Same));
    assert_eq!(parse_judgment("unsure"), None);
    assert_eq!(parse_judgment("yes"), None);
    assert_eq!(parse_judgment("change, probably"), None);
    assert_eq!(parse_judgment(""), None);
}

/// The development half's mistakes, for whoever works on the rules:
/// `cargo test -p ash-memory-guest judgment::tests::dev_mistakes -- --ignored --nocapture`.
#[test]
#[ignore]
fn dev_mistakes() {
    for p in pairs(DEV)
        .into_iter()
        .chain(pairs(LONG_DEV))
        .chain(pairs(DETAILS_DEV))
        .chain(pairs(PARTNERS_DEV))
    {
        let v = judge(&p.old, &p.new, &p.ctx);
        if position(v) != position(p.label) {
            println!("{:<10} {:<10} {:?} -> {:?}", p.label.as_str(), v.as_str(), p.old, p.new);
        }
    }
}

/// Long facts and the lines of a conversation (`eval/judgment/long-*.tsv`; the held-out
/// half by another author, who had not seen the rules): a denial in passing must not
/// replace a long fact, nor one speaker's line another's.
#[test]
fn long_facts_and_conversation_lines() {
    let dev = measure(&pairs(LONG_DEV), false);
    dev.print("long facts and conversation lines, development half, rules alone");
    let held = measure(&pairs(LONG_HELD_OUT), false);
    held.print("long facts and conversation lines, held-out half, rules alone");
    // Floors a little under what was measured (docs/judgment.md).
    assert!(held.recall(3) >= 0.97, "different facts kept: {:.2}", held.recall(3));
    assert!(held.precision(2) >= 0.9, "changes: precision {:.2}", held.precision(2));
    assert!(
        held.precision(0) >= 0.9,
        "restatements: precision {:.2}",
        held.precision(0)
    );
    assert!(held.recall(2) >= 0.2, "changes: recall {:.2}", held.recall(2));
}

/// One speaker's turns of talk (`eval/judgment/talk-*.tsv`; the held-out half by another
/// author, who had not seen the rules): a later turn's greetings, thanks, questions back
/// and denials in passing end none of an earlier turn's words, and a change told for good
/// in a turn of news still replaces it.
#[test]
fn turns_of_talk() {
    let held = held_out_beside("one speaker's turns of talk", TALK_HELD_OUT, TALK_DEV);
    // Floors a little under what was measured (docs/judgment.md).
    assert!(held.recall(3) >= 0.98, "different turns kept: {:.2}", held.recall(3));
    assert!(held.precision(2) >= 0.9, "changes: precision {:.2}", held.precision(2));
    assert!(held.recall(2) >= 0.28, "changes: recall {:.2}", held.recall(2));
}

/// Endings told as chat tells them (with a count of time, without a subject, a habit of
/// going somewhere stopped), and the same wordings about something else; written apart
/// from the rules and only measured.
#[test]
fn endings_told_in_everyday_words() {
    let held = measure(&pairs(ENDINGS_HELD_OUT), false);
    held.print("endings in everyday words, held-out, rules alone");
    // Floors a little under what was measured (docs/judgment.md).
    assert!(held.recall(3) >= 0.95, "different facts kept: {:.2}", held.recall(3));
    assert!(held.precision(2) >= 0.9, "changes: precision {:.2}", held.precision(2));
    assert!(held.recall(2) >= 0.55, "changes: recall {:.2}", held.recall(2));
}

/// Denials told in passing, as conversations are full of them, end nothing of a longer
/// fact that shares a word with them.
#[test]
fn a_denial_in_passing_ends_nothing() {
    let me = RuleContext::default();
    for (old, new) in [
        (
            "Gina: Hey Jon! Good to see you. Anything new?",
            "Gina: Oh no, Jon! Sorry to hear that.",
        ),
        (
            "I coach the under-12s on Mondays and I give them advice on and off the court.",
            "I hate not being on the court.",
        ),
        (
            "So much happened this month, on and off the court. I scored 30 points on Friday.",
            "I'm not on the court this week, my ankle is sore.",
        ),
        ("My favourite dessert is chocolate cake", "Who can say no to chocolate?"),
        (
            "I love painting seascapes in watercolour",
            "I'm not sure what to paint next",
        ),
        (
            "I run a dance studio in town, it's my dream",
            "I went to a fair to show off my studio",
        ),
        (
            "I swim at the lido most mornings",
            "I never swim when it's below ten degrees",
        ),
        ("I cycle to work every day", "I didn't cycle today, it was icy"),
        (
            "Thanks for your help, it keeps me motivated",
            "I'll never give up, thanks to you!",
        ),
        ("I drink a lot of coffee", "No coffee after 4pm though"),
        (
            "Our team won the cup final, I scored twice",
            "It's not just about winning",
        ),
        (
            "Keep going for your dreams and don't quit!",
            "Thanks! Keep going after your dreams!",
        ),
        // One sentence each.
        ("Gina: Hey Jon!", "Gina: Oh no, Jon!"),
        ("I run every morning", "I didn't run today"),
        ("Keep going and don't quit!", "Keep going after your dreams!"),
        ("I keep chasing my dreams", "I'm not gonna give up on my dreams"),
        (
            "Thanks! I'm gonna keep chasing my dreams. Dance is my passion.",
            "Thanks! I'm not gonna give up on my dreams - the studio needs the work.",
        ),
        ("I work at Google", "I haven't left Google, I love it there"),
        // A question is not ended.
        ("Gina: Do you still smoke?", "Gina: I quit smoking"),
        // "Off" as a time, and a particle whose clause a dash ends.
        (
            "I just signed with a new team - excited for the season!",
            "I'm mentoring the younger players. It keeps me busy in the off-season.",
        ),
        (
            "I love seeing my students progress",
            "The work is paying off - I'm seeing progress.",
        ),
        // A particle joined to its word is a thing: a cook-off, a kick-off.
        (
            "I'm running the school fundraiser next month",
            "We're holding a chili cook-off at the fundraiser",
        ),
        ("I play five-a-side on Thursdays", "The kick-off on Thursday is at 8"),
    ] {
        assert_ne!(judge(old, new, &me), Verdict::Change, "{old:?} then {new:?}");
    }
}

/// Two people's lines of a transcript are two people's: the same words said by both are
/// two facts, and one's denial ends nothing of the other's. One speaker's own lines are
/// judged as any facts.
#[test]
fn one_speakers_line_never_restates_or_changes_anothers() {
    let me = RuleContext::default();
    for (old, new) in [
        ("Ana: Thanks!", "Ben: Thanks!"),
        (
            "Ana: I work at Google on the Maps team.",
            "Ben: I don't work at Google, I'm at Amazon.",
        ),
        (
            "Ana: My favourite colour is green.",
            "Ben: My favourite colour is blue.",
        ),
    ] {
        assert_eq!(judge(old, new, &me), Verdict::Different, "{old:?} then {new:?}");
    }
    assert_eq!(
        judge("Ana: I live in Porto.", "Ana: I live in Porto!", &me),
        Verdict::Same
    );
    assert_eq!(
        judge("Ana: I drive an old Golf.", "Ana: I sold the Golf and got a bike.", &me),
        Verdict::Change
    );
    // A line told without a speaker is judged as the speaker's.
    assert_eq!(
        judge("Diet: Vegetarian", "I'm not vegetarian anymore", &me),
        Verdict::Change
    );
    // A label is no speaker, and is read past.
    assert_eq!(
        judge(
            "Update: I work at the library as an archivist. I love it.",
            "I don't work at the library anymore",
            &me
        ),
        Verdict::Change
    );
    assert_eq!(
        judge("I'm vegan", "Correction: I'm not vegan, I'm vegetarian", &me),
        Verdict::Change
    );
    assert_eq!(
        judge("Note: I'm allergic to penicillin", "I'm allergic to penicillin", &me),
        Verdict::Same
    );
}

/// Prints the table of a held-out set, holds each pair of its development half to its
/// label (unsure counting as kept both), and returns the table for the caller's floors.
fn held_out_beside(title: &str, held_out: &str, dev: &str) -> Table {
    let held = measure(&pairs(held_out), false);
    held.print(&format!("{title}: held-out, rules alone"));
    for p in pairs(dev) {
        let v = judge(&p.old, &p.new, &p.ctx);
        assert_eq!(position(v), position(p.label), "{:?} -> {:?}: {v:?}", p.old, p.new);
    }
    held
}

/// Who a fact is about, when two people share a relation word ("my friend Sam" and "my
/// friend Priya", "my wife" and "my ex-wife"), a job told with an adjective, and a past
/// told beside what holds (`eval/judgment/people-*.tsv`: the development half is what a
/// probe of the rules found wrong; the held-out half was written by another author, who
/// had not seen the rules).
#[test]
fn two_people_of_one_relation_stay_two() {
    let title = "two people of one relation, jobs with an adjective, the past";
    let held = held_out_beside(title, PEOPLE_HELD_OUT, PEOPLE_DEV);
    // Floors a little under what was measured (docs/judgment.md).
    assert!(held.recall(3) >= 0.95, "different facts kept: {:.2}", held.recall(3));
    assert!(
        held.precision(0) >= 0.95,
        "restatements: precision {:.2}",
        held.precision(0)
    );
}

/// A partnership of the user's that ended ("Sofia and I broke up" after "My girlfriend is
/// Sofia") and look-alikes that end nothing of theirs (`eval/judgment/partners-*.tsv`).
#[test]
fn a_partnership_ended_replaces_it_and_nothing_else() {
    let held = held_out_beside("a partnership ended, and look-alikes", PARTNERS_HELD_OUT, PARTNERS_DEV);
    assert!(held.recall(3) >= 0.95, "different facts kept: {:.2}", held.recall(3));
    assert!(held.recall(2) >= 0.5, "changes: recall {:.2}", held.recall(2));
}

/// A parting shares little meaning with the partnership it ends ("Sofia and I broke up",
/// "My girlfriend is called Sofia"), so it is found by the partner's name and the words
/// of partnership; someone else's parting looks for nothing.
#[test]
fn a_parting_looks_for_its_partnership_by_name() {
    let terms = super::candidate_terms("Sofia and I broke up last week");
    assert!(
        terms.contains(&"sofia".to_owned()) && terms.contains(&"girlfriend".to_owned()),
        "{terms:?}"
    );
    assert!(super::candidate_terms("My sister broke up with her boyfriend").is_empty());
    assert!(super::candidate_terms("We split the bill").is_empty());
}

/// A job told with "I'm a ..." after another ("I'm a nurse" / "I'm a teacher now"), and
/// what is no job or a second one (`eval/judgment/jobs-*.tsv`).
#[test]
fn a_job_told_with_a_replaces_the_last_and_nothing_else() {
    let held = held_out_beside("a job told with \"a\", and what is no job", JOBS_HELD_OUT, JOBS_DEV);
    assert!(held.recall(3) >= 0.95, "different facts kept: {:.2}", held.recall(3));
    assert!(held.recall(2) >= 0.45, "changes: recall {:.2}", held.recall(2));
}

/// Personal details that hold one value (a birthday, a phone number, an email address, a
/// postcode, pronouns, a time zone, a number in the same words) and corrections of them
/// (`eval/judgment/details-*.tsv`).
#[test]
fn a_detail_told_again_or_corrected_is_one_fact() {
    let held = held_out_beside("personal details and corrections", DETAILS_HELD_OUT, DETAILS_DEV);
    assert!(held.recall(3) >= 0.95, "different facts kept: {:.2}", held.recall(3));
    assert!(held.recall(2) >= 0.3, "changes: recall {:.2}", held.recall(2));
    assert!(
        held.precision(0) >= 0.95,
        "restatements: precision {:.2}",
        held.precision(0)
    );
}

/// Where people live, told in everyday words: one's own or a relative's move, beside a
/// thing of theirs that moved, a plan, a trip, the past and another person's move
/// (`eval/judgment/home-held-out.tsv`, written blind; no development half).
#[test]
fn a_home_changed_and_its_look_alikes() {
    let held = measure(&pairs(HOME_HELD_OUT), false);
    held.print("where people live, and look-alikes: held-out, rules alone");
    assert_eq!(
        held.different_lost(),
        0,
        "a thing moved, a plan or a trip replaced a home"
    );
    assert!(held.recall(2) >= 0.65, "changes: recall {:.2}", held.recall(2));
}

/// A fact that holds another's words in another place ("I love coffee cake" / "I love
/// coffee", "I'm dating a lawyer" / "I'm a lawyer") is another fact, and a detail added
/// still refines (`eval/judgment/look-alikes-*.tsv`, written blind; `placement`).
#[test]
fn the_same_words_in_another_place_are_another_fact() {
    let dev = measure(&pairs(LOOK_ALIKES_DEV), false);
    dev.print("look-alikes, restatements and refinements: development, rules alone");
    let held = measure(&pairs(LOOK_ALIKES_HELD_OUT), false);
    held.print("look-alikes, restatements and refinements: held-out, rules alone");
    // Floors at what was measured (docs/judgment.md): 42 of 230 and 3 of 80 lost.
    assert!(dev.different_lost() <= 42, "look-alikes lost: {}", dev.different_lost());
    assert!(
        held.different_lost() <= 3,
        "look-alikes lost: {}",
        held.different_lost()
    );
    assert!(held.recall(1) >= 0.75, "refinements: recall {:.2}", held.recall(1));
}

/// A fact told again with an everyday synonym is stored once ("I don't eat meat" / "I'm
/// vegetarian"), and a near-synonym that says less stays apart
/// (`eval/judgment/restatements-held-out.tsv`, written blind; `synonyms`).
#[test]
fn a_synonym_told_again_is_stored_once() {
    let held = measure(&pairs(RESTATEMENTS_HELD_OUT), false);
    held.print("restatements in other words, and near-synonyms: held-out, rules alone");
    // Floors at what was measured (docs/judgment.md): 62 of 150 kept once, 20 of 75 lost.
    let kept_once = held.counts[0][0] + held.counts[0][1] + held.counts[0][2];
    assert!(kept_once >= 62, "restatements kept once: {kept_once}");
    assert!(
        held.different_lost() <= 20,
        "look-alikes lost: {}",
        held.different_lost()
    );
}

/// A fact told back to front is the same fact ("Sofia is my girlfriend", "Glasgow is where
/// I grew up", "oat milk is what I drink"), and one whose people trade places is not ("I'm
/// Lucy's boss" / "Lucy is my boss"; `eval/judgment/reordered-held-out.tsv`, written
/// blind; `word_order`, `reversal`).
#[test]
fn a_fact_told_back_to_front_is_the_same_fact() {
    let held = measure(&pairs(REORDERED_HELD_OUT), false);
    held.print("facts told in another order, and look-alikes: held-out, rules alone");
    // Floors at what was measured (docs/judgment.md): 96 of 110 kept once, 23 of 40 changes
    // replaced, 11 of 70 look-alikes lost.
    let kept_once = held.counts[0][0] + held.counts[0][1] + held.counts[0][2];
    assert!(kept_once >= 96, "restatements kept once: {kept_once}");
    assert!(held.counts[2][1] + held.counts[2][2] >= 23, "changes replaced");
    assert!(
        held.different_lost() <= 11,
        "look-alikes lost: {}",
        held.different_lost()
    );
}

/// Life changes told as events that share no words with the state they end ("walked
/// across the stage, diploma in hand" after "I'm a sophomore"): what the rules find
/// without a model, and that the look-alikes beside them stay
/// (`eval/judgment/transitions-held-out.tsv`, written blind, no rule written on it).
#[test]
fn life_changes_told_as_events() {
    let held = measure(&pairs(TRANSITIONS_HELD_OUT), false);
    held.print("life changes told as events, and look-alikes: held-out, rules alone");
    // Floors at what was measured (docs/judgment.md): 7 of 110 found, 1 of 90 lost.
    assert!(held.counts[2][2] + held.counts[2][1] >= 7, "changes found");
    assert!(
        held.different_lost() <= 1,
        "look-alikes lost: {}",
        held.different_lost()
    );
}

/// An amount changed in other words ("landlord put the rent up to £950" after "my rent is
/// £900 a month") replaces it, the same amount told again is kept once, and an amount of
/// something else, someone else's, wished for or past stays apart
/// (`eval/judgment/amounts-*.tsv`, written blind; `details::amounts`).
#[test]
fn an_amount_changed_in_other_words_replaces_it() {
    let dev = measure(&pairs(AMOUNTS_DEV), false);
    dev.print("amounts changed, told again and look-alikes: development, rules alone");
    let held = measure(&pairs(AMOUNTS_HELD_OUT), false);
    held.print("amounts changed, told again and look-alikes: held-out, rules alone");
    // A third set, told with asides and in texting style: measured blind once (38 of 82
    // changes, 6 of 63 look-alikes lost), then developed on.
    let dev2 = measure(&pairs(AMOUNTS_DEV_2), false);
    dev2.print("amounts told with asides: second development set, rules alone");
    // Floors at what was measured (docs/judgment.md): 42 and 34 of 90 changes found, 49 of
    // 82, no look-alike lost.
    assert!(dev.counts[2][2] >= 42, "changes found: {}", dev.counts[2][2]);
    assert!(held.counts[2][2] >= 34, "changes found: {}", held.counts[2][2]);
    assert!(dev2.counts[2][2] >= 49, "changes found: {}", dev2.counts[2][2]);
    assert_eq!(
        dev.different_lost() + held.different_lost() + dev2.different_lost(),
        0,
        "look-alikes lost"
    );
}

/// "my husbands in the office", "my partners lost 10kg": a relation one has one of, told
/// with an "s" and no apostrophe, is that person's, and changes nothing of the user's.
#[test]
fn a_relations_s_without_its_apostrophe_is_theirs() {
    let me = RuleContext::default();
    for (old, new) in [
        (
            "I go into the office 3 days a week",
            "my husbands in the office 5 days a week now, poor thing",
        ),
        ("I weigh 90kg", "my partners lost 10kg on keto, im jealous"),
        ("My medical aid is R2,800 a month", "my moms medical aid is R4,100 now"),
    ] {
        assert!(!judge(old, new, &me).replaces(), "{old} / {new}");
    }
}

/// A plan that came about or was given up ends the plan ("we got the dog!" after "we're
/// thinking about getting a dog"); progress, someone else's doing and a question leave it
/// (`eval/judgment/plans-*.tsv`, written blind; `plans`).
#[test]
fn a_plan_come_about_or_given_up_ends_it() {
    let dev = measure(&pairs(PLANS_DEV), false);
    dev.print("plans come about, given up, and look-alikes: development, rules alone");
    let held = measure(&pairs(PLANS_HELD_OUT), false);
    held.print("plans come about, given up, and look-alikes: held-out, rules alone");
    // Floors at what was measured (docs/judgment.md): 30 and 15 of 90 found; the older
    // rules lose 1 and 2 look-alikes, this one none.
    assert!(dev.counts[2][2] >= 30, "changes found: {}", dev.counts[2][2]);
    assert!(held.counts[2][2] >= 15, "changes found: {}", held.counts[2][2]);
    assert!(
        dev.different_lost() <= 1 && held.different_lost() <= 2,
        "look-alikes lost"
    );
}

/// The small switches of daily life (a place of work, a home, a diet, a provider, a device,
/// a routine's time or rate, who holds a role) beside their look-alikes
/// (`eval/judgment/switches-*.tsv`, three authors who had not read the rules; `switches`).
#[test]
fn a_switch_of_daily_life_replaces_the_old_way() {
    let dev = measure(&pairs(SWITCHES_DEV), false);
    dev.print("switches of daily life: development, rules alone");
    let dev2 = measure(&pairs(SWITCHES_DEV_2), false);
    dev2.print("switches of daily life: second development set, rules alone");
    let held = measure(&pairs(SWITCHES_HELD_OUT), false);
    held.print("switches of daily life: held-out, rules alone");
    // Floors at what was measured (docs/judgment.md): 55 of 70, 56 of 85 and 36 of 70
    // replaced, and no look-alike.
    let replaced = |t: &Table| t.counts[2][2] + t.counts[2][1];
    assert!(replaced(&dev) >= 55, "changes found: {}", replaced(&dev));
    assert!(replaced(&dev2) >= 56, "changes found: {}", replaced(&dev2));
    assert!(replaced(&held) >= 36, "changes found: {}", replaced(&held));
    for t in [&dev, &dev2, &held] {
        assert_eq!(t.different_lost(), 0, "look-alikes lost");
    }
}

/// Changes of daily life told with words of the present, as often first as last ("These
/// days I drive to work"), beside look-alikes that share the words: someone else's way, a
/// one-off, a plan, an addition, the past (`eval/judgment/fronted-*.tsv`, by an author who
/// had not read the rules; `fronted`).
#[test]
fn a_change_told_with_the_present_first_replaces_the_old() {
    let dev = measure(&pairs(FRONTED_DEV), false);
    dev.print("words of the present first: development, rules alone");
    let held = measure(&pairs(FRONTED_HELD_OUT), false);
    held.print("words of the present first: held-out, rules alone");
    // Floors at what was measured (docs/judgment.md): 32 of 45 and 28 of 45 replaced
    // (18 and 19 before); the look-alikes lost are the older rules' (3 and 5 before).
    let replaced = |t: &Table| t.counts[2][2] + t.counts[2][1];
    assert!(replaced(&dev) >= 32, "changes found: {}", replaced(&dev));
    assert!(replaced(&held) >= 28, "changes found: {}", replaced(&held));
    assert!(dev.different_lost() <= 1, "look-alikes lost: {}", dev.different_lost());
    assert!(
        held.different_lost() <= 5,
        "look-alikes lost: {}",
        held.different_lost()
    );
}

/// Routines changed for good ("Tom and I carpool every day now, so no more bus for me"),
/// told again as the usual ("Fish Friday as always."), or told in more detail, beside the
/// same routines broken once ("Got the bus today because of the rain")
/// (`eval/judgment/exceptions-*.tsv`, by an author who had not read the rules;
/// `for_good`, `as_usual`).
#[test]
fn a_routine_changed_for_good_replaces_it_and_one_broken_once_does_not() {
    let dev = measure(&pairs(EXCEPTIONS_DEV), false);
    dev.print("routines and their exceptions: development, rules alone");
    let held = measure(&pairs(EXCEPTIONS_HELD_OUT), false);
    held.print("routines and their exceptions: held-out, rules alone");
    // Floors at what was measured (docs/judgment.md): changes 26 of 38 and 17 of 32 (19
    // and 15 before), restatements 8 of 16 and 7 of 24 (none before); the one look-alike
    // lost on each half was lost before.
    for (t, changes, same) in [(&dev, 26, 8), (&held, 17, 7)] {
        assert!(t.counts[2][2] >= changes, "changes found: {}", t.counts[2][2]);
        assert!(t.counts[0][0] >= same, "told again: {}", t.counts[0][0]);
        assert!(t.different_lost() <= 1, "look-alikes lost: {}", t.different_lost());
    }
}

/// Other people in what the user tells: someone else's change beside the user's own fact
/// ("Jess stopped going to the gym" after "I go to the gym on Mondays"), and the user's own
/// change told with other people in it ("my boss moved me to nights", "Tom and I carpool
/// now", "Jess stopped but I still go") (`eval/judgment/others-*.tsv`, two authors who had
/// not read the rules; `others`, `tellers`, the subject read after hearsay).
#[test]
fn someone_elses_change_keeps_the_users_fact_and_the_users_own_replaces_it() {
    let dev = measure(&pairs(OTHERS_DEV), false);
    dev.print("other people's changes and the user's: development, rules alone");
    let held = measure(&pairs(OTHERS_HELD_OUT), false);
    held.print("other people's changes and the user's: held-out, rules alone");
    // Floors at what was measured (docs/judgment.md): look-alikes lost 11 -> 0 of 110 and
    // 9 -> 5 of 70; changes found 32 -> 47 of 90 and 14 -> 19 of 60; told again or in more
    // detail kept (as a refinement, which keeps the news beside it) 5 -> 18 of 40 and
    // 2 -> 7 of 40.
    for (t, lost, changes, kept) in [(&dev, 0, 47, 18), (&held, 5, 19, 7)] {
        assert!(t.different_lost() <= lost, "look-alikes lost: {}", t.different_lost());
        assert!(t.counts[2][2] >= changes, "changes found: {}", t.counts[2][2]);
        let kept_found = t.counts[0][0] + t.counts[0][1] + t.counts[1][0] + t.counts[1][1];
        assert!(kept_found >= kept, "told again or refined: {kept_found}");
    }
}

/// Bookings and regular sessions moved or corrected, and providers switched, beside their
/// look-alikes: a second booking, one session missed, someone else's, a plan
/// (`eval/judgment/bookings-*.tsv`, two authors who had not read the rules; `rebooked`).
#[test]
fn a_booking_moved_or_corrected_replaces_it() {
    let dev = measure(&pairs(BOOKINGS_DEV), false);
    dev.print("bookings moved or corrected: development, rules alone");
    let held = measure(&pairs(BOOKINGS_HELD_OUT), false);
    held.print("bookings moved or corrected: held-out, rules alone");
    // Floors at what was measured (docs/judgment.md): 49 of 78 and 36 of 75 judged
    // changes, and no look-alike replaced.
    assert!(dev.counts[2][2] >= 49, "changes found: {}", dev.counts[2][2]);
    assert!(held.counts[2][2] >= 36, "changes found: {}", held.counts[2][2]);
    for t in [&dev, &held] {
        assert_eq!(t.different_lost(), 0, "look-alikes lost");
    }
    // Look-alikes written against the rule's code: it replaces none of them. The 27 lost
    // are the older rules' (a routine's time told anew, `ending::rescheduled`, and a thing
    // read as someone, `switches::moved_thing`), lost before this rule too; those rules now
    // ask `rebooked::not_done` (29 were lost before).
    let aimed = measure(&pairs(BOOKINGS_ADVERSARIAL), false);
    aimed.print("bookings: look-alikes aimed at the rule, rules alone");
    assert!(
        aimed.different_lost() <= 27,
        "look-alikes lost: {}",
        aimed.different_lost()
    );
}

/// One fact told again with another ending of a word's root is the same fact; words
/// that share only a beginning, or numbers, are not.
#[test]
fn a_root_told_with_another_ending_is_the_same_fact() {
    let me = RuleContext::default();
    for (old, new) in [
        ("Dad is diabetic", "Dad has diabetes"),
        ("I'm lactose intolerant", "im lactose intolerent"),
        ("Mia is allergic to eggs", "Mia has an egg allergy"),
    ] {
        assert_eq!(judge(old, new, &me), Verdict::Same, "{old} / {new}");
    }
    for (old, new) in [
        ("I'm vegetarian", "I love vegetables"),
        ("The gate code is 4512", "The gate code is 4521"),
        ("I'm a pharmacist", "I work in a pharmacy"),
    ] {
        assert_ne!(judge(old, new, &me), Verdict::Same, "{old} / {new}");
    }
}

/// "I cancelled my gym membership" ends the gym habit it was had by; a membership of
/// something else ends nothing of it.
#[test]
fn a_membership_cancelled_ends_what_it_was_for() {
    let me = RuleContext::default();
    assert_eq!(
        judge(
            "I go to the gym three times a week",
            "I cancelled my gym membership",
            &me
        ),
        Verdict::Change
    );
    assert_ne!(
        judge(
            "I go to the gym three times a week",
            "I cancelled my Netflix subscription",
            &me
        ),
        Verdict::Change
    );
}

/// What a probe found: "back in 2015 I worked at ITV" replaced "I work at the BBC". A state
/// told in the simple past ("worked", "lived") is history beside what holds; a move told
/// in it is still a change.
#[test]
fn history_told_in_the_simple_past_replaces_nothing() {
    let me = RuleContext::default();
    for (old, new) in [
        ("I work at the BBC", "back in 2015 I worked at ITV"),
        ("I live in York", "I lived in Leeds for ten years"),
        ("I teach at Park Primary", "I taught at a school in Spain before"),
    ] {
        assert!(!judge(old, new, &me).replaces(), "{old} / {new}");
    }
    assert_eq!(judge("I live in York", "I moved to Leeds", &me), Verdict::Change);
}

/// "I can't stand cilantro" is a taste, the same as "I hate coriander", and no denial.
#[test]
fn an_idiom_of_taste_is_the_taste_it_means() {
    let me = RuleContext::default();
    assert_eq!(judge("I hate coriander", "I can't stand cilantro", &me), Verdict::Same);
    assert_eq!(judge("I can't stand jazz", "I hate jazz", &me), Verdict::Same);
    assert_ne!(judge("I love coriander", "I can't stand cilantro", &me), Verdict::Same);
    // Whole words only.
    let lows: Vec<String> = super::words::words("I can't standardise the forms")
        .into_iter()
        .map(|w| w.low)
        .collect();
    assert!(lows.contains(&"standardise".to_owned()), "{lows:?}");
}

/// A wedding replaces the engagement it follows; another couple's wedding, or one hoped
/// for, ends nothing.
#[test]
fn a_wedding_replaces_the_engagement() {
    let me = RuleContext::default();
    for (old, new) in [
        ("I'm engaged to Tom", "Tom and I got married in June!"),
        ("I'm engaged", "We tied the knot last Saturday!"),
        ("My fiancee is Ana", "Ana and I got married yesterday"),
    ] {
        assert_eq!(judge(old, new, &me), Verdict::Change, "{old} / {new}");
    }
    for (old, new) in [
        ("I'm engaged to Tom", "My sister got married in June"),
        ("I'm engaged to Tom", "Tom and I might get married in Rome"),
        ("I'm engaged to Tom", "Sam and Jo got married in June"),
    ] {
        assert!(!judge(old, new, &me).replaces(), "{old} / {new}");
    }
}

/// In a text, "2" after a verb of going is "to": "moved 2 leeds last wk" moves home.
#[test]
fn a_texted_to_after_a_move_is_read() {
    let me = RuleContext::default();
    assert_eq!(judge("i live in york", "moved 2 leeds last wk", &me), Verdict::Change);
    assert_eq!(judge("I have 2 kids", "I have two kids", &me), Verdict::Same);
}

/// "I switched to day shifts" after "I work night shifts": the same thing of another
/// kind. Switching to something the old fact is not about changes nothing of it.
#[test]
fn a_switch_to_another_kind_of_the_same_thing_is_a_change() {
    let me = RuleContext::default();
    for (old, new) in [
        (
            "I work night shifts at the hospital",
            "switched to day shifts from this week",
        ),
        ("I drink whole milk in my tea", "I switched to oat milk"),
    ] {
        assert_eq!(judge(old, new, &me), Verdict::Change, "{old} / {new}");
    }
    assert!(!judge("I work night shifts at the hospital", "I switched to a new bank", &me).replaces());
    assert!(!judge("I drink whole milk in my tea", "I switched to a standing desk", &me).replaces());
}

/// A number told in words is its figures: "thirty-four" is 34, and "thirty five" is not.
#[test]
fn a_number_told_in_words_is_its_figures() {
    let me = RuleContext::default();
    for (old, new) in [
        ("I'm 34 years old", "I am thirty-four"),
        ("We have 21 chickens", "we have twenty-one chickens"),
        ("My daughter is 15", "my daughter is fifteen"),
    ] {
        assert_eq!(judge(old, new, &me), Verdict::Same, "{old} / {new}");
    }
    // Told with more words, the new telling is kept in the old one's place.
    assert_eq!(judge("I'm 34", "I'm thirty four years old", &me), Verdict::Refinement);
    assert_eq!(judge("I'm 34", "I'm thirty-five now", &me), Verdict::Change);
    assert_ne!(judge("I'm 30", "I am thirty-four", &me), Verdict::Same);
}

/// Another dose of the same thing, told in other words, replaces the old dose.
#[test]
fn another_dose_of_the_same_thing_is_a_change() {
    let me = RuleContext::default();
    for (old, new) in [
        ("I take 50mg of sertraline", "my sertraline dose went up to 100mg"),
        ("I'm on 50mg sertraline", "I'm on 100mg sertraline now"),
        ("I take 50mg of sertraline daily", "I take 100mg of sertraline now"),
    ] {
        assert_eq!(judge(old, new, &me), Verdict::Change, "{old} / {new}");
    }
    assert!(
        !judge(
            "I take 50mg of sertraline",
            "I take 500mg of paracetamol for headaches",
            &me
        )
        .replaces()
    );
    assert!(!judge("My dog takes 5mg of meloxicam", "I take 10mg of meloxicam now", &me).replaces());
}

/// What a probe found: "dad finally retired from plumbing after 40 years" replaced "I'm a
/// plumber", and "gran turned 90 yesterday!" replaced "I'm 42". A relation told without
/// "my", before its verb, is someone else.
#[test]
fn a_relation_told_without_my_is_someone_else() {
    let me = RuleContext::default();
    for (old, new) in [
        ("I'm a plumber", "dad finally retired from plumbing after 40 years"),
        ("I'm 42", "gran turned 90 yesterday!"),
        ("I live in Leeds", "mum moved to Leeds last year"),
        ("I work at Tesco", "hubby just started at Tesco"),
    ] {
        assert!(!judge(old, new, &me).replaces(), "{old} / {new}");
    }
    // Said of the relation, it is theirs to change.
    assert_eq!(
        judge("My dad works as a plumber", "dad retired last month", &me),
        Verdict::Change
    );
    // A title is the user's own: "Partner at Deloitte".
    assert_eq!(
        judge("I work at KPMG", "Partner at Deloitte since June", &me),
        judge("I work at KPMG", "Senior auditor at Deloitte since June", &me)
    );
}

/// What a probe found: "we moved to Jersey City over the holidays, rent was insane" left
/// "Our apartment is in Brooklyn" live: the later clause's "was" made the move history.
/// The first clause's tense is the fact's.
#[test]
fn the_first_clause_tells_the_tense() {
    let me = RuleContext::default();
    assert_eq!(
        judge(
            "I live in Leeds",
            "we moved to York over the holidays, rent was insane",
            &me
        ),
        Verdict::Change
    );
    assert!(!judge("I live in Leeds", "I lived in York for years, the rent was insane", &me).replaces());
    // Where one's flat or apartment is, is where one lives.
    assert_eq!(
        judge("Our apartment is in Brooklyn", "we moved to Jersey City", &me),
        Verdict::Change
    );
    assert!(!judge("Our flat is in Leeds", "our office moved to York", &me).replaces());
}

/// What a probe found: "my doctor took me off metformin, I'm on insulin injections now"
/// and "I quit smoking three months ago" left the old facts live. What is done to the
/// user is the user's fact, and a doing ends its doer ("smoking", "a smoker").
#[test]
fn an_ending_done_to_me_or_of_a_doer_is_a_change() {
    let me = RuleContext::default();
    for (old, new) in [
        (
            "I'm on metformin for my type 2 diabetes",
            "my doctor took me off metformin, I'm on insulin injections now",
        ),
        (
            "I'm a smoker, about ten a day",
            "I quit smoking three months ago and haven't had one since",
        ),
    ] {
        assert_eq!(judge(old, new, &me), Verdict::Change, "{old} / {new}");
    }
    assert!(!judge("I'm on metformin", "my doctor took my sister off metformin", &me).replaces());
    assert!(!judge("I'm a smoker", "my dad quit smoking last year", &me).replaces());
}

/// What a probe found: "you can reach me at jane.doe@example.com" was stored beside "My
/// email is jane.doe@example.com". An address given as the way to reach the user is their
/// email.
#[test]
fn an_address_to_reach_me_at_is_my_email() {
    let me = RuleContext::default();
    assert_eq!(
        judge(
            "My email is jane.doe@example.com",
            "you can reach me at jane.doe@example.com",
            &me
        ),
        Verdict::Same
    );
    assert_eq!(
        judge(
            "My email is jane.doe@example.com",
            "you can reach me at jane@newjob.com now",
            &me
        ),
        Verdict::Change
    );
    assert!(!judge("My work email is jd@acme.com", "reach me at jane.doe@example.com", &me).replaces());
}

/// What a probe found: "actually just call me Kate, everyone does" left "I prefer to be
/// called Katherine" live. "to be called" tells the name one goes by.
#[test]
fn a_name_to_be_called_by_is_the_name() {
    let me = RuleContext::default();
    assert_eq!(
        judge(
            "I prefer to be called Katherine",
            "actually just call me Kate, everyone does",
            &me
        ),
        Verdict::Change
    );
    assert!(!judge("My sister prefers to be called Kat", "just call me Kate", &me).replaces());
    assert!(!judge("I'd love to be called Dr Smith one day", "call me Kate", &me).replaces());
}

/// What a probe found: "dentist rang and moved it to Friday at 10am" left "Dentist
/// appointment on Thursday at 3pm" live. An hour told as "3pm" is a time, and "my dentist
/// appointment" is a thing, not the dentist.
#[test]
fn an_appointment_moved_to_another_day_and_hour_is_a_change() {
    let me = RuleContext::default();
    for new in [
        "dentist rang and moved it to Friday at 10am",
        "my dentist appointment got moved to Friday at 10am",
    ] {
        assert_eq!(
            judge("Dentist appointment on Thursday at 3pm", new, &me),
            Verdict::Change,
            "{new}"
        );
    }
    assert!(
        !judge(
            "Dentist appointment on Thursday at 3pm",
            "my dentist moved to Leeds on Friday",
            &me
        )
        .replaces()
    );
}

/// What a second blind probe found: a question replaced a diet, "Dad sold his Fiesta" and
/// "Sis cancelled her Netflix" replaced the user's own, and a mother moving in (or into a
/// care home) left where she lived live.
#[test]
fn the_second_probes_findings() {
    let me = RuleContext::default();
    for (old, new) in [
        ("I'm vegetarian", "is it worth trying vegan for January?"),
        ("I drive a Ford Fiesta", "Dad sold his Fiesta"),
        ("I've got Netflix", "Sis cancelled her Netflix"),
        ("I work at Tesco", "hubby quit Tesco last week"),
    ] {
        assert!(!judge(old, new, &me).replaces(), "{old} / {new}");
    }
    for (old, new) in [
        ("My mum lives in Norwich", "my mum has moved in with us now"),
        ("Gran lives in Whitby", "gran's moved into a care home in Scarborough"),
    ] {
        assert_eq!(judge(old, new, &me), Verdict::Change, "{old} / {new}");
    }
    assert!(!judge("My mum lives in Norwich", "my sister has moved in with us now", &me).replaces());
}

/// What a third blind probe found, both true facts lost: "gaz from work traded his ranger
/// in for a hilux" replaced "I drive a Ford Ranger", and "swapped mum's car insurance over
/// to AAMI for her" replaced the user's own insurance.
#[test]
fn someone_elses_switch_replaces_nothing_of_the_users() {
    let me = RuleContext::default();
    for (old, new) in [
        (
            "I drive a Ford Ranger",
            "gaz from work traded his ranger in for a hilux",
        ),
        (
            "my car insurance is with NRMA",
            "swapped mum's car insurance over to AAMI for her",
        ),
    ] {
        assert!(!judge(old, new, &me).replaces(), "{old} / {new}");
    }
    assert_eq!(
        judge(
            "my car insurance is with NRMA",
            "swapped my car insurance over to AAMI",
            &me
        ),
        Verdict::Change
    );
}

/// Found by storing LoCoMo's development turns one `add` at a time: a question about a
/// marriage replaced a line that said "single", and a greeting before a line of history
/// ("Hey Nate! Another movie script that I contributed to was shown ...") made it the
/// present.
#[test]
fn a_question_or_a_greeting_changes_no_line_of_a_conversation() {
    let me = RuleContext::default();
    for (old, new) in [
        (
            "Caroline: I'm thrilled to make a family for kids who need one. It'll be tough as a single parent",
            "Caroline: Wow, what an amazing family pic! How long have you been married?",
        ),
        (
            "Joanna: Hey Nate! Another movie script that I contributed to was shown on the big screen last night",
            "Joanna: Great to hear! I just finished with the intro to my next movie script",
        ),
    ] {
        assert!(!judge(old, new, &me).replaces(), "{old} / {new}");
    }
}

/// The sixth probe's changes: a thing sold where it was sold, the one car or phone sold
/// without its make, a provider switched from in a plan's words ("my phone plan" is no
/// plan of the user's); and a job applied for, which changes nothing.
#[test]
fn a_thing_sold_or_switched_from_is_a_change() {
    let me = RuleContext::default();
    for (old, new) in [
        ("I own a PS5", "sold my ps5 on facebook marketplace"),
        ("I drive a 2015 Ford Focus", "sold the car, just getting the bus now"),
        (
            "I'm with Verizon for my phone",
            "switched my phone plan from verizon to t-mobile",
        ),
        (
            "my partner Jamie works as a chef",
            "Jamie's jacked in the chef job and is driving for Uber now",
        ),
        ("my boyfriend is Ryan", "ryan and i aren't together anymore"),
        ("I'm married", "my husband and I got divorced last month"),
    ] {
        assert!(judge(old, new, &me).replaces(), "{old} / {new}");
    }
    for (old, new) in [
        ("I'm learning Spanish", "gave up on Spanish tbh"),
        ("I drive a 2015 Ford Focus", "my dad sold his car last week"),
        ("I work at Tesco", "I'm applying for a job at Aldi"),
        (
            "We're planning a trip to Lisbon in June",
            "the plan is Lisbon in June for our trip",
        ),
    ] {
        let v = judge(old, new, &me);
        assert_eq!(v.replaces(), old.contains("Spanish"), "{old} / {new}: {v:?}");
    }
}

/// The seventh probe's changes through `add` that a partnership or a household rule
/// missed, beside look-alikes that must leave the old fact.
#[test]
fn a_step_in_a_partnership_or_a_pet_rehomed_replaces_it() {
    let me = RuleContext::default();
    for (old, new) in [
        ("My girlfriend is Sophie", "Sophie and I got engaged!"),
        (
            "I'm going to propose to Kate at Christmas",
            "She said yes!! Kate and I are engaged",
        ),
        ("I'm single", "I've started seeing someone, her name's Ana"),
        (
            "I have a dog named Charlie",
            "We rehomed Charlie with my aunt, couldn't give him enough attention",
        ),
    ] {
        assert_eq!(judge(old, new, &me), Verdict::Change, "{old:?} then {new:?}");
    }
    for (old, new) in [
        ("My girlfriend is Sophie", "My sister got engaged!"),
        ("My girlfriend is Sophie", "Tom and Ana got engaged last night"),
        ("I'm single", "I'm seeing the physio tomorrow about my knee"),
        ("I'm single", "my brother is seeing someone new"),
        ("I have a dog named Charlie", "We rehomed a cat from the shelter"),
    ] {
        assert_ne!(judge(old, new, &me), Verdict::Change, "{old:?} then {new:?}");
    }
}

/// What an eighth blind probe found left both versions live, and the look-alikes beside
/// each rule that must keep the old fact.
#[test]
fn the_eighth_probes_changes_and_their_look_alikes() {
    let me = RuleContext::default();
    for (old, new) in [
        (
            "I work as a barista at Grindhouse Coffee",
            "quit the cafe job!! starting as a bank teller at Lloyds on monday",
        ),
        (
            "I'm a junior developer at Acme",
            "Got promoted to senior developer at Acme!",
        ),
        ("My surname is Patel", "I got married and my surname is Okafor now"),
        (
            "I bank with Barclays",
            "moved my current account over to Monzo, closed the Barclays one",
        ),
        ("I weigh 82 kg", "down to 76kg now after the diet, so chuffed"),
        (
            "I've got about £12k saved for a house deposit",
            "house deposit savings are up to £18k now",
        ),
        (
            "My mum lives in Glasgow",
            "Mum moved down to Brighton to be closer to us",
        ),
        ("I support Arsenal", "I support Spurs now, long story, don't ask"),
        ("I'm a Labour voter", "I'm voting Green from now on"),
        (
            "Flying to New York on 3 June",
            "the New York trip is cancelled altogether",
        ),
    ] {
        assert_eq!(judge(old, new, &me), Verdict::Change, "{old} / {new}");
    }
    for (old, new) in [
        ("I support Arsenal", "I'm an Arsenal fan"),
        ("I drive a Tesla Model 3", "my car's a tesla model 3"),
        ("I take my coffee black", "I drink my coffee black"),
        ("I'm afraid of flying", "flying terrifies me"),
    ] {
        assert_eq!(judge(old, new, &me), Verdict::Same, "{old} / {new}");
    }
    for (old, new) in [
        ("I work at Google", "My wife quit her job last week"),
        ("I work as a barista", "I didn't quit my job, I just changed shifts"),
        (
            "I'm a junior developer at Acme",
            "My brother got promoted to senior developer",
        ),
        ("My surname is Patel", "My name is Priya"),
        ("I weigh 82 kg", "my suitcase is down to 20kg now after repacking"),
        ("I support Arsenal", "I'm a Taylor Swift fan"),
        ("I'm a Taylor Swift fan", "I'm a huge Beyonce fan"),
        ("I support Arsenal", "My son supports Spurs now"),
        ("I take my coffee black", "I take my tea black"),
        (
            "I go to Oakfield Primary",
            "Lily changed schools, she's at St Mary's now",
        ),
        ("Flying to New York on 3 June", "the Paris conference is cancelled"),
        // A review of these rules (2026-12-01) traced these.
        ("I work as a nurse", "left work early today, no energy"),
        ("I work as a nurse", "I quit sugar and work out every day now"),
        ("I work as a nurse", "nearly quit my job today"),
        ("I'm a student", "quit my job at the pub, exams are more important"),
        ("I don't have any kids", "I bought a baby blanket for my niece"),
        ("We don't have pets", "we had a dog growing up"),
        ("I support Arsenal", "I'm a Taylor Swift fan now lol"),
        ("I'm a Labour voter", "Priya votes Green now"),
        ("I support Arsenal", "Ben supports Spurs now"),
        ("I'm a Labour voter", "don't ask, my sister votes Green now lol"),
        ("I love running", "I hate running in these shoes"),
        ("I hate the tube", "the tube's like a sauna now"),
        (
            "Driving to Leeds on Saturday",
            "football on saturday got cancelled so i'm free all day",
        ),
        (
            "Travelling to Manchester every Tuesday for work",
            "the Manchester office cancelled the Christmas party",
        ),
        (
            "We do our food shop at Tesco",
            "did the food shop at Aldi instead of Tesco this week",
        ),
        ("My surname is Patel", "my surname's Welsh, it's from my dad's side"),
        (
            "I weigh 82 kg",
            "got it down to 23kg now, so the suitcase is under the limit",
        ),
    ] {
        assert!(!judge(old, new, &me).replaces(), "{old} / {new}");
    }
}

/// What the ninth probe (the eighth's held-out set, read after it was measured) found left
/// both versions live, with look-alikes that keep the old fact.
#[test]
fn the_ninth_probes_changes_and_their_look_alikes() {
    let me = RuleContext::default();
    for (old, new) in [
        (
            "I've got an iPhone 12",
            "upgraded my phone to a Pixel 8, goodbye iPhone",
        ),
        (
            "I bank with Barclays",
            "Moved my current account from Barclays to Monzo",
        ),
        (
            "I'm hosting a dinner party this Saturday for 8 people",
            "Dinner party's off, half the guests have covid",
        ),
        (
            "My shift starts at 8am",
            "From this week my shift starts at 10am instead of 8",
        ),
        (
            "I hate coffee",
            "Weirdly I've come round to coffee, I have a flat white every morning now",
        ),
        (
            "I don't have any pets",
            "We adopted a rescue greyhound called Biscuit! First pet ever",
        ),
    ] {
        assert_eq!(judge(old, new, &me), Verdict::Change, "{old} / {new}");
    }
    for (old, new) in [
        (
            "I get my groceries from BigBasket",
            "my sister gets hers from Blinkit now",
        ),
        (
            "I'm hosting a dinner party this Saturday for 8 people",
            "I'm off to the shops for the dinner party",
        ),
        ("I hate coffee", "my mum's come round to coffee"),
        ("My shift starts at 8am", "Tom's shift starts at 10am instead of 8"),
    ] {
        assert!(!judge(old, new, &me).replaces(), "{old} / {new}");
    }
}

/// The eleventh probe's look-alikes that replaced a fact, and the changes beside them.
#[test]
fn the_eleventh_probes_look_alikes_keep_the_old_fact() {
    let me = RuleContext::default();
    for (old, new) in [
        (
            "I have Spanish lessons on Saturday mornings",
            "moved my spanish lessons to sunday afternoons",
        ),
        ("My phone is on O2", "switched my phone contract to EE"),
        (
            "we have a goldfish called Bubbles",
            "bubbles died sadly, we don't have any pets at the moment",
        ),
        (
            "we're going to Portugal for our summer holiday this year",
            "portugal's off, flights were too expensive, we're doing Cornwall for the summer holiday instead",
        ),
        (
            "my mum's birthday is on the 14th of June",
            "scratch that, mum's birthday is the 16th of june, I always mix it up",
        ),
        (
            "I go to bed around midnight",
            "my bedtime is 10pm these days, early starts",
        ),
        (
            "my house number is 42",
            "oops I typed that wrong, my house number is 24 not 42",
        ),
        (
            "I do a pottery class on Thursday nights",
            "pottery's finished, I do a life drawing class on thursday nights now",
        ),
        ("I work at a call centre", "got a job at Tesco on the tills"),
        (
            "my mum teaches at a secondary school in Leicester",
            "mum retired from teaching at Easter",
        ),
    ] {
        assert_eq!(judge(old, new, &me), Verdict::Change, "{old} / {new}");
    }
    for (old, new) in [
        (
            "I'm learning Spanish for a move to Valencia",
            "moved my spanish lessons to sunday afternoons",
        ),
        ("I drive a Ford Focus", "changed my car insurance to Aviva"),
        (
            "I'm married to Claire",
            "I was married before Claire, we divorced in 2010",
        ),
        ("I work at a call centre", "got a job interview at Tesco"),
    ] {
        assert!(!judge(old, new, &me).replaces(), "{old} / {new}");
    }
    for (first, again) in [
        ("I have two kids", "I've got 2 children"),
        ("I'm scared of spiders", "I have a fear of spiders"),
        ("I go to the gym three times a week", "I hit the gym 3x a week"),
    ] {
        assert_eq!(judge(first, again, &me), Verdict::Same, "{first} / {again}");
    }
    assert_eq!(judge("I have two kids", "I've got 3 children", &me), Verdict::Change);
}

/// The twelfth probe's look-alikes that replaced a fact, and changes it read.
#[test]
fn the_twelfth_probes_look_alikes_keep_the_old_fact() {
    let me = RuleContext::default();
    for (old, new) in [
        (
            "use Fahrenheit when you tell me temperatures",
            "actually give me temps in celsius from now on",
        ),
        (
            "I'm a software engineer at Stripe",
            "just accepted an offer at Datadog, my last day at stripe was friday",
        ),
    ] {
        assert_eq!(judge(old, new, &me), Verdict::Change, "{old} / {new}");
    }
    for (old, new) in [
        (
            "I'm married to Fiona",
            "I was married to someone else in my twenties, we divorced in 2005",
        ),
        (
            "I'm vegetarian and have been for years",
            "ate a bit of chicken at the wedding yesterday by accident, felt awful",
        ),
        ("I prefer metric units", "I ran 5 miles today"),
        ("please reply to me in English", "I'm learning Spanish"),
        (
            "please reply to me in English",
            "can you translate this into Afrikaans?",
        ),
    ] {
        assert!(!judge(old, new, &me).replaces(), "{old} / {new}");
    }
    // A diet taken up again is still told with its day.
    assert_eq!(
        judge(
            "I'm vegetarian.",
            "started eating meat again after 6 yrs, had a burger yesterday and it was unreal",
            &me
        ),
        Verdict::Change
    );
}

/// A passive told with its doer is the active told again; what was done to the teller is
/// not done to someone else.
#[test]
fn a_passive_is_the_active_told_again() {
    let me = RuleContext::default();
    for (first, again) in [
        ("my aunt maria raised me", "i was raised by my aunt Maria"),
        (
            "my daughter named our cat Mittens",
            "our cat was named Mittens by my daughter",
        ),
    ] {
        assert_eq!(judge(first, again, &me), Verdict::Same, "{first} / {again}");
    }
    for (old, new) in [
        ("i was raised by my grandparents", "my grandparents raised my dad"),
        ("my grandparents raised me", "my grandparents raised my dad"),
    ] {
        assert!(!judge(old, new, &me).replaces(), "{old} / {new}");
    }
}

/// A thirteenth blind probe's changes (2026-12-02), each told as people tell news, beside
/// the look-alikes written with them that must keep the old fact.
#[test]
fn the_thirteenth_probes_changes_replace_and_look_alikes_keep() {
    let me = RuleContext::default();
    for (old, new) in [
        (
            "I can't stand olives",
            "ok weirdly i love olives now?? had some proper ones in greece",
        ),
        (
            "I've got a golden retriever called Biscuit",
            "we had to have Biscuit put to sleep on tuesday",
        ),
        (
            "Netflix is the only streaming thing I pay for",
            "cancelled netflix, just have disney+ now",
        ),
        (
            "I use VS Code for all my coding",
            "fully moved to neovim, uninstalled vs code yesterday",
        ),
        (
            "I drink about four coffees a day",
            "cut out coffee completely, two weeks caffeine free",
        ),
        (
            "I've got a season ticket at Stamford Bridge",
            "didn't renew the season ticket this year, far too dear",
        ),
        (
            "we have a nanny who does the school pickups",
            "let the nanny go, my mum's doing pickups now",
        ),
        (
            "I teach maths at a high school in Durban",
            "resigned from the school at the end of term, I'm tutoring online full-time now",
        ),
        (
            "we rent an apartment in Brooklyn",
            "we bought a place!! we live in Jersey City now",
        ),
        ("I rent a flat in Leeds", "I live in York now"),
        (
            "my birthday is 14 March",
            "sorry, typo earlier - my birthday is the 14th of May, not March",
        ),
        (
            "I work as a barista at a cafe on Byres Road",
            "got the job at the bank!! starting as a teller on monday",
        ),
        (
            "I'm single at the moment",
            "met someone at a wedding, we've been together two months now",
        ),
        ("I'm on 45k a year", "omg guess what, got a payrise, 52k now"),
    ] {
        assert_eq!(judge(old, new, &me), Verdict::Change, "{old} / {new}");
    }
    for (old, new) in [
        ("I can't stand olives", "i should try olives again??"),
        ("I can't stand olives", "do i like olives now??"),
        (
            "I've got a season ticket at Stamford Bridge",
            "didn't renew my passport this year",
        ),
        (
            "we have a nanny who does the school pickups",
            "let the dog go off the lead in the park",
        ),
        ("we rent an apartment in Brooklyn", "my sister lives in Jersey City now"),
        ("my birthday is 14 March", "we went to Paris in May, not March"),
        ("I work as a barista at a cafe", "my sister got a job at the bank"),
        ("I work as a barista at a cafe", "I'm hoping to get a job at the bank"),
        ("I'm a nurse", "got a job at the hospital"),
        ("I'm single", "my parents have been together 40 years"),
        ("I'm single", "are we together on this??"),
    ] {
        assert!(!judge(old, new, &me).replaces(), "{old} / {new}");
    }
}

/// The same facts in other words: one who plays an instrument, a fear, a deaf ear, an
/// office, a night owl.
#[test]
fn a_player_a_fear_or_an_office_told_in_other_words_is_the_same_fact() {
    let me = RuleContext::default();
    for (old, new) in [
        ("I play the drums", "I'm a drummer"),
        ("I play the piano", "I'm a pianist"),
        ("I'm deaf in my left ear", "I can't hear out of my left ear"),
        ("I work in Canary Wharf", "my office is in canary wharf"),
        ("I'm afraid of heights", "heights terrify me"),
    ] {
        assert_eq!(judge(old, new, &me), Verdict::Same, "{old} / {new}");
    }
    assert_ne!(judge("I play the drums", "my son is a drummer", &me), Verdict::Same);
    assert_ne!(judge("I play the piano", "I'm a guitarist", &me), Verdict::Same);
}

/// A fourteenth probe's changes (2026-12-02, read after the thirteenth's rules were
/// measured on it): a pet's name in lower case, a reason clause read as no plan, a value
/// corrected by name, stepping back, binning, being done with a thing.
#[test]
fn the_fourteenth_probes_changes_replace_and_look_alikes_keep() {
    let me = RuleContext::default();
    for (old, new) in [
        (
            "I've got an old golden retriever called Biscuit",
            "we had to have biscuit put to sleep yesterday",
        ),
        (
            "I'm learning Spanish on Duolingo",
            "dropped the spanish, doing japanese instead since we're going to tokyo next year",
        ),
        (
            "I live in Brisbane",
            "oops, typo before, i live in Adelaide not brisbane lol",
        ),
        ("I work at Aldi", "I work at Lidl, not Aldi"),
        (
            "I wear contact lenses",
            "had laser eye surgery last month, binned all my contacts",
        ),
        (
            "I've got a Liverpool season ticket",
            "gave up the season ticket this year, couldn't justify the price anymore",
        ),
        (
            "my home PC runs Windows 10",
            "wiped the home pc and put linux mint on it, done with windows for good",
        ),
        (
            "I volunteer at the food bank on Saturdays",
            "stepped back from the food bank, i was burnt out",
        ),
        ("I play in a band called The Loose Ends", "The Loose Ends have split up"),
        (
            "I play drums in a band called Wolfsbane",
            "Wolfsbane broke up last month",
        ),
        (
            "I'm a member of the National Trust",
            "let my national trust membership lapse, we weren't going enough",
        ),
        (
            "my birthday is march 14",
            "actually my birthday's march 15th, not the 14th",
        ),
    ] {
        assert_eq!(judge(old, new, &me), Verdict::Change, "{old} / {new}");
    }
    for (old, new) in [
        (
            "I've got a dog called Biscuit",
            "we had to have the boiler put in last week",
        ),
        (
            "I'm learning Spanish on Duolingo",
            "I'm going to try Japanese, since I'm off to Tokyo next year",
        ),
        ("I live in Brisbane", "my sister lives in Adelaide, not Perth"),
        ("I live in Brisbane", "we went to Adelaide not Perth for the holiday"),
        ("I wear contact lenses", "binned my old glasses"),
        ("my home PC runs Windows 10", "done with work for the week"),
        (
            "I volunteer at the food bank on Saturdays",
            "stepped back from the edge of the cliff",
        ),
        ("I play in a band called The Loose Ends", "Oasis have split up again"),
        (
            "I'm dating Kofi",
            "Kofi broke up with his girlfriend before we got together",
        ),
        (
            "I go to my mum's for Sunday dinner",
            "couldn't go to mum's on Sunday, she had a cold",
        ),
        (
            "I'm a member of the National Trust",
            "let the kids run wild at the national trust place",
        ),
    ] {
        assert!(!judge(old, new, &me).replaces(), "{old} / {new}");
    }
}

/// A favourite asked of the one spoken to states none of the teller's (the words shared
/// leave it unsure, for a model to settle); one asked and answered in one breath still does.
#[test]
fn a_favourite_asked_of_the_other_states_none() {
    let me = RuleContext::default();
    let asked = judge(
        "My favourite film is Arrival",
        "Yeah, you're right! What's your favourite film to watch with her?",
        &me,
    );
    assert!(!asked.replaces(), "{asked:?}");
    assert_eq!(
        judge(
            "My favourite food is pizza.",
            "fave food these days? biryani hands down",
            &me
        ),
        Verdict::Change
    );
}
