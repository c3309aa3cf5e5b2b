//! The word lists the offline extractor reads by: openers that carry nothing, what blocks
//! a statement, negations, and the relations, diets and conditions it knows; `having` and
//! `living` hold the lists of their readers.

pub(super) mod having;
pub(super) mod living;

/// Openers that carry nothing: "btw, I live in Porto" is "I live in Porto".
pub(super) const LEADS: &[&str] = &[
    "just so you know",
    "for the record",
    "by the way",
    "fyi",
    "fwiw",
    "btw",
    "oh",
    "also",
    "and",
    "so",
    "well",
    "ok",
    "okay",
    "hey",
    "hi",
    "actually",
    "anyway",
    "yes",
    "yeah",
    "fun fact",
    "note",
    "heads up",
];

/// Words of time or focus that change nothing a fact says when they sit after its subject:
/// "I just moved to Glasgow", "I'm also vegetarian", "my wife also works at Google".
pub(super) const SOFTENERS: &[&str] = &[
    "just",
    "recently",
    "also",
    "still",
    "actually",
    "now",
    "currently",
    "finally",
    "already",
    "newly",
    "officially",
];

/// Tastes that "just" makes as often a sneer as a taste: "Oh great, I just LOVE being
/// stuck in traffic". After "just" they are left unread.
pub(super) const SNEERED: &[&str] = &["love", "adore", "like", "enjoy"];

/// The words a subject that a softener may follow opens with: the teller, or someone of
/// theirs ("me and my wife just got a dog").
pub(super) const SUBJECTS: &[&str] = &[
    "i", "i'm", "im", "i've", "ive", "we", "we're", "we've", "my", "our", "me",
];

/// Words after which "just" and the like tell where, not when: "we live just outside York".
pub(super) const PLACE_WORDS: &[&str] = &[
    "outside", "across", "around", "down", "up", "off", "over", "past", "behind", "beyond", "round", "near", "by",
    "after", "before", "in", "on", "at",
];

/// Words and phrases that make what follows them in a sentence anything but a plain
/// statement of a lasting fact: a supposition, a doubt, a report of what someone else
/// said, the past, and the moments and plans below ([`blockers`] reads them all). "I'm a
/// nurse and I'm thinking about retraining" still tells that the teller is a nurse.
const BLOCKERS: &[&str] = &[
    "if",
    "would",
    "could",
    "should",
    "might",
    "wonder",
    "said",
    "says",
    "told me",
    "tells me",
    "used to",
    "anymore",
    "any more",
    "no longer",
];

/// Every blocker: [`BLOCKERS`], [`MOMENTS`] and [`PLANS`].
pub(super) fn blockers() -> impl Iterator<Item = &'static str> {
    BLOCKERS.iter().chain(MOMENTS).chain(PLANS).copied()
}

/// The blockers that name the moment: beside a standing amount they pass nothing ("I'm
/// 84kg at the moment").
pub(super) const MOMENTS: &[&str] = &["today", "tonight", "right now", "this morning", "at the moment"];

/// The blockers that open a plan or a wish of its own, which holds from where it is said:
/// what a clause before it told stands ("I'm 84kg and want to start lifting"). Not a
/// supposition, which may govern the clause before it ("My rent is £1,100 a month, if we
/// go for the bigger flat").
pub(super) const PLANS: &[&str] = &[
    "wish",
    "hope",
    "someday",
    "one day",
    "thinking about",
    "considering",
    "planning to",
    "want to",
    "going to",
    "gonna",
];

/// Suppositions that are courtesies, not conditions of what was told before them.
pub(super) const ASIDES: &[&str] = &[
    "if possible",
    "if that helps",
    "if it helps",
    "if that matters",
    "if it matters",
    "if that makes sense",
    "if you can",
    "if relevant",
    "if needed",
    "if you need to know",
    "if that's relevant",
    "if that's useful",
];

/// Words that hedge: from where they are said like a blocker, and over the whole sentence
/// when no blocker comes before them ("I'm 34, I think" tells nothing; in "I work at Google
/// and I might move, not sure yet" the doubt is the move's).
pub(super) const HEDGES: &[&str] = &["maybe", "perhaps", "probably", "i think", "i guess", "not sure"];

/// Words that frame a whole sentence as not meant: a joke, a game, a supposition, words
/// to translate. "I'm a vegan, I'm kidding" tells nothing.
pub(super) const FRAMES: &[&str] = &[
    "kidding",
    "jk",
    "joking",
    "sarcasm",
    "yeah right",
    "as if",
    "hypothetically",
    "let's say",
    "lets say",
    "roleplay",
    "role play",
    "role-play",
    "character",
    "translate",
    "imagine",
    "suppose",
    "pretend",
];

/// Words that set a scene for the whole message: what is said in it is a part played.
/// "Let's role-play: you're an innkeeper and I'm a knight. Start the scene."
pub(super) const SCENES: &[&str] = &[
    "roleplay",
    "role play",
    "role-play",
    "let's pretend",
    "lets pretend",
    "hypothetically",
    "in character",
];

/// Words inside a taste that point into the talk: "I don't like the ending of this story".
pub(super) const POINTERS: &[&str] = &["this", "these", "your"];

/// Words that open a question after a statement: "I'm allergic to penicillin, is
/// amoxicillin ok?", "I don't drive, so what's the easiest way there?".
pub(super) const QUESTION_OPENERS: &[&str] = &[
    "what",
    "what's",
    "whats",
    "how",
    "how's",
    "hows",
    "which",
    "who",
    "where",
    "when",
    "why",
    "can",
    "could",
    "should",
    "would",
    "will",
    "is",
    "are",
    "was",
    "were",
    "do",
    "does",
    "did",
    "any",
    "anything",
    "am",
    "tips",
    "ideas",
    "thoughts",
    "advice",
    "help",
    "suggestions",
    "recommendations",
];

/// Words that negate; a sentence holding one is skipped unless the negation is the fact
/// ("I don't like olives").
pub(super) const NEGATIONS: &[&str] = &["not", "never", "no", "nobody", "nothing", "neither", "nor"];

/// People whose name is worth a relationship memory.
pub(super) const RELATIONS: &[&str] = &[
    "wife",
    "husband",
    "partner",
    "girlfriend",
    "boyfriend",
    "fiance",
    "fiancee",
    "fiancé",
    "fiancée",
    "twins",
    "kids",
    "sons",
    "daughters",
    "son",
    "daughter",
    "mother",
    "mom",
    "mum",
    "father",
    "dad",
    "sister",
    "brother",
    "grandmother",
    "grandma",
    "grandfather",
    "grandpa",
    "aunt",
    "uncle",
    "cousin",
    "niece",
    "nephew",
    "boss",
    "dog",
    "cat",
    "kid",
    "child",
    "baby",
    "stepson",
    "stepdaughter",
    "stepdad",
    "stepfather",
    "stepmum",
    "stepmom",
    "stepmother",
    "stepbrother",
    "stepsister",
    "half-brother",
    "half-sister",
    "grandad",
    "granddad",
    "gran",
    "granny",
    "nan",
    "nana",
    "grandson",
    "granddaughter",
    "godmother",
    "godfather",
    "mother-in-law",
    "father-in-law",
    "sister-in-law",
    "brother-in-law",
    "flatmate",
    "housemate",
    "roommate",
    "best friend",
];

/// What one studies for, after "I'm doing a": "a PhD in marine biology", "my masters".
pub(super) const COURSES: &[&str] = &[
    "phd",
    "masters",
    "master's",
    "degree",
    "doctorate",
    "apprenticeship",
    "diploma",
    "mba",
    "msc",
    "bsc",
    "course",
    "postdoc",
    "residency",
    "traineeship",
];

/// Objects that point at the conversation, not at a lasting taste ("I love it").
pub(super) const DEICTIC: &[&str] = &[
    "it",
    "that",
    "this",
    "you",
    "them",
    "those",
    "these",
    "him",
    "her",
    "when",
    "how",
    "what",
    "the idea",
    "your",
    "the first",
    "the second",
    "the third",
    "the last",
    "the other",
    "the former",
    "the latter",
    "the previous",
    "the next",
    "the new",
    "the old",
    "option",
    "one",
    "both",
    "either",
    "neither",
];

/// What follows "I hate", "I love" or "I like" in a courtesy, not a taste: "I hate to ask",
/// "I'd love to hear", "I like to think".
pub(super) const COURTESIES: &[&str] = &[
    "to ask",
    "to say",
    "to bother",
    "to admit",
    "to interrupt",
    "to be that",
    "to break it",
    "to trouble",
    "to hear",
    "to see",
    "to think",
    "to know",
];

/// Words after "I'm a" that describe a moment, not a person ("I'm a bit tired").
pub(super) const NOT_A_ROLE: &[&str] = &[
    "bit", "little", "lot", "tad", "mess", "huge", "total", "complete", "fan", "big", "wreck", "terrible", "awful",
    "horrible", "bad", "lousy", "hopeless", "useless", "poor",
];

/// Diets and conditions stated as "I'm X".
pub(super) const DIETS: &[&str] = &["vegetarian", "vegan", "pescatarian", "pescetarian"];
pub(super) const CONDITIONS: &[&str] = &[
    "diabetic",
    "celiac",
    "coeliac",
    "lactose intolerant",
    "gluten intolerant",
    "epileptic",
    "asthmatic",
    "colorblind",
    "colourblind",
    "color blind",
    "colour blind",
    "left-handed",
    "left handed",
    "deaf",
    "allergic to",
];

/// Capitalised words after "I'm" or "my wife is" that are no name: peoples and states one
/// is in ("I'm Brazilian", "I'm Bored"). A language's people ("Irish") is read from
/// `living::LANGUAGES`, so it is not here again.
pub(super) const NOT_NAMES: &[&str] = &[
    "english",
    "scottish",
    "british",
    "american",
    "canadian",
    "australian",
    "kiwi",
    "brazilian",
    "mexican",
    "indian",
    "pakistani",
    "bangladeshi",
    "nigerian",
    "ghanaian",
    "kenyan",
    "jamaican",
    "filipino",
    "belgian",
    "swiss",
    "austrian",
    "czech",
    "hungarian",
    "romanian",
    "bulgarian",
    "ukrainian",
    "finnish",
    "icelandic",
    "iranian",
    "iraqi",
    "syrian",
    "lebanese",
    "egyptian",
    "moroccan",
    "israeli",
    "colombian",
    "argentinian",
    "chilean",
    "peruvian",
    "venezuelan",
    "cuban",
    "european",
    "asian",
    "african",
    "latina",
    "latino",
    "jewish",
    "muslim",
    "christian",
    "catholic",
    "hindu",
    "sikh",
    "buddhist",
    "atheist",
    "hungry",
    "sorry",
    "bored",
    "tired",
    "fine",
    "good",
    "great",
    "back",
    "home",
    "here",
    "done",
    "ready",
    "sure",
    "excited",
    "happy",
    "sad",
    "single",
    "married",
    "vegan",
    "vegetarian",
    "pregnant",
    "late",
    "sick",
    "ill",
    "free",
    "busy",
    "stuck",
    "lost",
    "confused",
    "stressed",
    "exhausted",
    "knackered",
    "gutted",
    "thrilled",
    "alright",
    "well",
    "glad",
    "retired",
    "unemployed",
    "divorced",
    "engaged",
    "ok",
    "okay",
    "new",
    "old",
    "off",
    "in",
    "out",
    "up",
    "not",
    "so",
    "just",
    "still",
    "also",
    "currently",
    "now",
    "really",
    "very",
];
