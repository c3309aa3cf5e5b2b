use super::*;

fn contents(message: &str) -> Vec<String> {
    extract(message).into_iter().map(|f| f.content).collect()
}

#[test]
fn reads_clear_statements() {
    assert_eq!(
        contents("btw I'm allergic to peanuts, so no satay please."),
        ["I'm allergic to peanuts"]
    );
    assert_eq!(contents("My wife's name is Sarah."), ["My wife's name is Sarah"]);
    let f = extract("my son is called Leo, he's 6");
    assert_eq!(
        (f[0].memory_type, f[0].subjects.clone()),
        (MemoryType::Relationship, vec!["my son Leo".to_owned()])
    );
    assert_eq!(contents("I live in Lisbon now."), ["I live in Lisbon now"]);
    assert_eq!(
        contents("I prefer tea over coffee, always have."),
        ["I prefer tea over coffee"]
    );
    assert_eq!(contents("I don't like olives."), ["I don't like olives"]);
    assert_eq!(
        contents("Please remember that the spare key is under the blue pot"),
        ["The spare key is under the blue pot"]
    );
    assert_eq!(contents("Call me Jay, nobody uses Jayden."), ["I go by Jay"]);
    assert_eq!(
        contents("I'm vegetarian. I live in Porto!"),
        ["I'm vegetarian", "I live in Porto"]
    );
    assert_eq!(contents("Hi! I'm Kenji, nice to meet you"), ["My name is Kenji"]);
    assert_eq!(
        contents("I'm a nurse at the county hospital."),
        ["I'm a nurse at the county hospital"]
    );
    assert_eq!(
        contents("Please remember my mother's name is Grace"),
        ["My mother's name is Grace"]
    );
    // Each clause the teller opens is read: two facts in one sentence are two facts.
    assert_eq!(
        contents("I live in Leeds and I work at the council"),
        ["I live in Leeds", "I work at the council"]
    );
    assert_eq!(
        contents("My name is Omar; I'm a nurse, and I'm allergic to latex."),
        ["My name is Omar", "I'm a nurse", "I'm allergic to latex"]
    );
    assert_eq!(
        contents("I'm a nurse and I'm allergic to latex, and I live in Leeds"),
        ["I'm a nurse", "I'm allergic to latex", "I live in Leeds"]
    );
    assert_eq!(
        contents("I'm vegan, but I don't like tofu"),
        ["I'm vegan", "I don't like tofu"]
    );
    // The statement before a question is told; a supposition or a plan holds from where
    // it is said.
    assert_eq!(contents("I live in Oslo, do you know it?"), ["I live in Oslo"]);
    assert_eq!(
        contents("been pescatarian about 5 years now"),
        ["I've been pescatarian about 5 years now"]
    );
    assert_eq!(
        contents("I'm severely allergic to shellfish and we're eating out tonight."),
        ["I'm severely allergic to shellfish"]
    );
    assert_eq!(
        contents("I have type 1 diabetes, what snacks are good for hypos?"),
        ["I have type 1 diabetes"]
    );
    assert_eq!(
        contents("I'm allergic to peanuts and I'm starving right now"),
        ["I'm allergic to peanuts"]
    );
    assert_eq!(
        contents("My husband and I have three kids."),
        ["My husband and I have three kids"]
    );
    assert_eq!(
        contents("I live in Oslo and I might move to Zurich"),
        ["I live in Oslo"]
    );
}

#[test]
fn reads_past_a_word_of_time_or_focus_after_the_subject() {
    for (message, fact) in [
        ("I just moved to Glasgow.", "I moved to Glasgow"),
        ("I recently moved to Glasgow, any tips?", "I moved to Glasgow"),
        ("I also live in Leeds", "I live in Leeds"),
        ("I still work at the council", "I work at the council"),
        ("I currently work as a chef", "I work as a chef"),
        ("I'm also vegetarian", "I'm vegetarian"),
        ("I'm now based in Leeds", "I'm based in Leeds"),
        ("I'm actually a nurse", "I'm a nurse"),
        ("I'm also allergic to shellfish", "I'm allergic to shellfish"),
        ("I've also been vegan for years", "I've been vegan for years"),
        ("We recently moved to Bristol", "We moved to Bristol"),
        ("we also have two cats", "We have two cats"),
        ("We just got a puppy", "We got a puppy"),
        ("I've just adopted a kitten", "I've adopted a kitten"),
        ("My wife also works at Google", "My wife works at Google"),
    ] {
        assert_eq!(contents(message), [fact], "{message}");
    }
    for message in [
        "I'm just tired",
        "I'm currently stuck at the airport",
        "I'm still deciding whether to move to Leeds",
        "I just read your answer",
        "I also have a question about my dog",
        "I'm actually thinking about going vegan",
        "I'm just wondering if I should move",
        "I'm now in Leeds for the week",
        // A mark before the word: it is not known to follow the subject.
        "I also, honestly, live in Leeds",
        "Oh great, I just LOVE being stuck in traffic for two hours.",
    ] {
        assert!(extract(message).is_empty(), "{message}: {:?}", contents(message));
    }
    // Where "just" tells where, the form is read as it stands.
    assert_eq!(contents("We live just outside York."), ["We live just outside York"]);
    for message in ["I just \u{130}\u{130} moved", "my \u{212A} also \u{130}"] {
        let _ = extract(message);
    }
}

#[test]
fn refuses_everything_else() {
    for message in [
        "Do I live in Paris?",
        "what should I cook if I'm allergic to nuts?",
        "If I lived in Berlin, would I need a car?",
        "my friend is allergic to cats",
        "She said \"I love Rome\" and left.",
        "I'm not sure I prefer tea",
        "I'm not allergic to anything",
        "I used to live in Oslo",
        "I'm tired today",
        "I love it!",
        "I like that idea",
        "I'd like you to draft an email",
        "I think I live too far away",
        "thanks!",
        "my wife is tired",
        "my boss Tom is annoying",
        "I'm planning to move to Rome",
        "I love you",
        "I prefer the second draft",
        "I'm a bit tired",
        "I'm a big fan of it",
        "I'm Happy to help, said no one",
        "Translate 'my name is Carlos and I love football' into German",
        "I have a dog, right?",
        "Let's role-play: you're a grumpy innkeeper and I'm a wandering knight. Start the scene.",
        "I don't like the ending of this story I wrote, it feels rushed.",
        "I love your second draft",
        "I hate to ask, but can you check this again?",
        "I live in Leeds, I think",
        "I'm a nurse and maybe I'll retrain",
        "I'm a vegan, I'm kidding",
        "Is it true that I'm allergic to penicillin, or is that a myth?",
    ] {
        assert!(extract(message).is_empty(), "{message}: {:?}", contents(message));
    }
    // Characters whose lowercase has another length cannot misalign a slice.
    for message in [
        "O\u{212A} \u{130}\u{130}",
        "I live in \u{2126}\u{2126}, \u{130}\u{130}",
        "\u{212A}id",
        // The household readers slice after a subject, a verb and names.
        "I have a dog, Zo\u{eb}\u{3000}and \u{dc}nal",
        "my husband and I\u{3000}have two kids",
        "been \u{212A}\u{130} vegan",
        "I drive a \u{130}\u{130}",
        "We've got two cats, \u{130}\u{130}, \u{212A}",
    ] {
        let _ = extract(message);
    }
}

/// What a probe of `turn` and `extract` found unread (2026-11-30): a name told with
/// "name's", a course, a job or a diagnosis begun, a type of diabetes, and relations of a
/// step-family, grandparents and in-laws.
#[test]
fn reads_courses_beginnings_diagnoses_and_more_relations() {
    for (said, fact) in [
        ("My name's actually Siobhan, not Susan", "My name is Siobhan"),
        (
            "I'm currently doing a PhD in marine biology",
            "I'm doing a PhD in marine biology",
        ),
        (
            "I've recently started working as a paramedic",
            "I've started working as a paramedic",
        ),
        (
            "I got diagnosed with coeliac disease last year",
            "I got diagnosed with coeliac disease last year",
        ),
        ("I'm type 1 diabetic", "I'm type 1 diabetic"),
        ("My granddad is called Ted", "My granddad's name is Ted"),
        ("my stepmum's name is Carol", "My stepmum's name is Carol"),
    ] {
        assert_eq!(contents(said), [fact], "{said}");
    }
    assert_eq!(extract("My stepdad is a firefighter")[0].subjects, ["my stepdad"]);
    for nothing in [
        "I'm doing a presentation tomorrow",
        "I'm doing a course of antibiotics, any tips?",
        "my gran's dog is called Pip but she hates it",
    ] {
        assert!(contents(nothing).is_empty(), "{nothing}: {:?}", contents(nothing));
    }
}

/// A probe (2026-12-01): "I'm Irish, so I know a thing or two about rain" was kept as "My
/// name is Irish" and replaced the user's real name. A people, a language or a state is
/// no name; a name still is.
#[test]
fn a_people_or_a_state_is_no_name() {
    for message in [
        "I'm Irish, so I know a thing or two about rain",
        "I'm Welsh",
        "I'm Bored",
        "My husband is Greek",
        "my wife is Brazilian",
    ] {
        let kept = contents(message);
        assert!(!kept.iter().any(|f| f.contains("name is")), "{message}: {kept:?}");
    }
    assert_eq!(contents("Hi, I'm Megan"), ["My name is Megan"]);
    assert_eq!(contents("my wife is Sarah"), ["My wife's name is Sarah"]);
}

/// What the ninth probe's conversations told in passing (2026-12-01), and their look-alikes.
#[test]
fn reads_names_in_passing_conditions_and_pay() {
    assert_eq!(
        contents("Need a gift idea for my wife Laura, her birthday's on 9 April"),
        ["My wife's name is Laura"]
    );
    assert_eq!(
        contents("Rome in June, with my partner Ben"),
        ["My partner's name is Ben"]
    );
    assert_eq!(
        contents("my twins are called Ava and Isla, they're 5"),
        ["My twins are called Ava and Isla"]
    );
    assert_eq!(
        contents("I've got insomnia, been diagnosed last year"),
        ["I've got insomnia"]
    );
    assert_eq!(
        contents("I get carsick in the back so I always drive"),
        ["I get carsick in the back"]
    );
    assert_eq!(
        contents("I take home about £2,300 a month"),
        ["I take home about £2,300 a month"]
    );
    assert_eq!(
        contents("I'm a secondary school maths teacher and marking is killing me"),
        ["I'm a secondary school maths teacher"]
    );
    assert_eq!(
        contents("Also I am pure vegetarian, no eggs also"),
        ["I am pure vegetarian"]
    );
    // Said at the start, a description; with a change of the relation, that change's.
    assert!(contents("my boss Tom is annoying").is_empty());
    assert!(contents("I've just got engaged to my girlfriend Chloe!! where do I even start").is_empty());
    assert!(contents("Translate 'my wife Laura is a doctor' into French").is_empty());
}
