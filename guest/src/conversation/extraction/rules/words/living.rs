//! The word lists `living` reads: where "we" live, ways of working, keeping from
//! something, what one plays or learns, standings.

use crate::memory_type::MemoryType;

/// "We" and the places a household lives in.
pub(in crate::conversation::extraction::rules) const WE_PLACES: &[&str] = &[
    "we live in ",
    "we live on ",
    "we live near ",
    "we live just outside ",
    "we moved to ",
    "we've moved to ",
    "we relocated to ",
    "we're based in ",
    "we are based in ",
    "we're from ",
    "we are from ",
];

/// Ways of working that last, after "I work".
pub(in crate::conversation::extraction::rules) const WORKING: &[&str] = &[
    "in ",
    "from home",
    "remotely",
    "nights",
    "night shifts",
    "nightshifts",
    "shifts",
    "lates",
    "earlies",
    "part-time",
    "part time",
    "full-time",
    "full time",
    "weekends",
    "freelance",
    "for myself",
    "two jobs",
    "in a ",
    "with ",
];

/// A keeping-from, each with its type: what is eaten or drunk is a taste, the rest who the
/// teller is.
pub(in crate::conversation::extraction::rules) const ABSTAINING: &[(&str, MemoryType)] = &[
    ("i don't eat ", MemoryType::Preference),
    ("i do not eat ", MemoryType::Preference),
    ("i never eat ", MemoryType::Preference),
    ("i can't eat ", MemoryType::Preference),
    ("i cannot eat ", MemoryType::Preference),
    ("i don't drink", MemoryType::Preference),
    ("i do not drink", MemoryType::Preference),
    ("i never drink", MemoryType::Preference),
    ("i can't drink ", MemoryType::Preference),
    ("i haven't eaten ", MemoryType::Preference),
    ("i haven't had a drink", MemoryType::Preference),
    ("i don't smoke", MemoryType::Identity),
    ("i do not smoke", MemoryType::Identity),
    ("i never smoke", MemoryType::Identity),
    ("i don't drive", MemoryType::Identity),
    ("i do not drive", MemoryType::Identity),
    ("i can't drive", MemoryType::Identity),
    ("i gave up ", MemoryType::Preference),
    ("i've given up ", MemoryType::Preference),
    ("i quit ", MemoryType::Preference),
    ("i stopped eating ", MemoryType::Preference),
    ("i stopped drinking", MemoryType::Preference),
];

/// What may not follow a keeping-from: a measure of the moment ("I don't eat much"), a
/// pointer into the talk, or a time of the day.
pub(in crate::conversation::extraction::rules) const NOT_KEPT_FROM: &[&str] = &[
    "much", "a lot", "enough", "anything", "properly", "well", "yet", "for", "on", "and", "until", "today", "tonight",
    "my job", "work", "school", "the",
];

/// What "gave up" and "quit" must name to be a habit left: not a job or a game.
pub(in crate::conversation::extraction::rules) const HABITS_LEFT: &[&str] = &[
    "smoking",
    "drinking",
    "alcohol",
    "booze",
    "meat",
    "sugar",
    "caffeine",
    "coffee",
    "dairy",
    "gluten",
    "cigarettes",
    "vaping",
    "red meat",
    "pork",
    "beef",
    "social media",
    "gambling",
];

/// What one plays that lasts: instruments, sports, games.
pub(in crate::conversation::extraction::rules) const PLAYED: &[&str] = &[
    "guitar",
    "piano",
    "drums",
    "violin",
    "viola",
    "cello",
    "bass",
    "ukulele",
    "uke",
    "saxophone",
    "sax",
    "trumpet",
    "trombone",
    "flute",
    "clarinet",
    "harp",
    "keyboard",
    "keys",
    "banjo",
    "mandolin",
    "accordion",
    "harmonica",
    "tennis",
    "football",
    "soccer",
    "basketball",
    "golf",
    "chess",
    "cricket",
    "rugby",
    "squash",
    "badminton",
    "volleyball",
    "hockey",
    "netball",
    "pickleball",
    "padel",
    "baseball",
    "softball",
    "bridge",
    "poker",
    "d&d",
    "dnd",
    "dungeons",
    "table tennis",
    "ping pong",
    "darts",
    "pool",
    "snooker",
    "bowls",
    "in a band",
    "in an orchestra",
    "for a ",
    "in a league",
    "video games",
    "board games",
];

/// Languages, for "I'm learning".
pub(in crate::conversation::extraction::rules) const LANGUAGES: &[&str] = &[
    "spanish",
    "french",
    "german",
    "italian",
    "portuguese",
    "japanese",
    "mandarin",
    "chinese",
    "cantonese",
    "korean",
    "arabic",
    "hindi",
    "russian",
    "dutch",
    "swedish",
    "norwegian",
    "danish",
    "polish",
    "greek",
    "turkish",
    "welsh",
    "irish",
    "gaelic",
    "hebrew",
    "latin",
    "urdu",
    "bengali",
    "tamil",
    "vietnamese",
    "thai",
    "sign language",
    "bsl",
    "asl",
    "esperanto",
];

/// A standing that lasts, after "I'm" or "I've been".
pub(in crate::conversation::extraction::rules) const STANDINGS: &[(&str, MemoryType)] = &[
    ("married", MemoryType::Relationship),
    ("divorced", MemoryType::Relationship),
    ("separated", MemoryType::Relationship),
    ("widowed", MemoryType::Relationship),
    ("engaged", MemoryType::Relationship),
    ("single", MemoryType::Relationship),
    ("retired", MemoryType::Identity),
    ("self-employed", MemoryType::Identity),
    ("freelance", MemoryType::Identity),
    ("unemployed", MemoryType::Identity),
    ("pregnant", MemoryType::Identity),
    ("sober", MemoryType::Identity),
    ("teetotal", MemoryType::Identity),
    ("a stay-at-home", MemoryType::Identity),
    ("a single mum", MemoryType::Identity),
    ("a single mom", MemoryType::Identity),
    ("a single dad", MemoryType::Identity),
    ("a single parent", MemoryType::Identity),
    ("jewish", MemoryType::Identity),
    ("muslim", MemoryType::Identity),
    ("christian", MemoryType::Identity),
    ("catholic", MemoryType::Identity),
    ("protestant", MemoryType::Identity),
    ("hindu", MemoryType::Identity),
    ("sikh", MemoryType::Identity),
    ("buddhist", MemoryType::Identity),
    ("mormon", MemoryType::Identity),
    ("quaker", MemoryType::Identity),
    ("atheist", MemoryType::Identity),
    ("an atheist", MemoryType::Identity),
    ("agnostic", MemoryType::Identity),
];

/// Food kept by a rule of faith or conscience: "I keep kosher", "I only eat halal".
pub(in crate::conversation::extraction::rules) const KEEPING: &[&str] = &[
    "i keep kosher",
    "i keep halal",
    "i eat halal",
    "i eat kosher",
    "i only eat halal",
    "i only eat kosher",
];

/// Groups one belongs to for years: "I'm in a choir", "I'm in an amateur orchestra".
pub(in crate::conversation::extraction::rules) const GROUPS: &[&str] = &[
    "band",
    "choir",
    "orchestra",
    "club",
    "league",
    "team",
    "society",
    "guild",
];

/// Verbs of work or practice that "I've been ... for years" makes lasting.
pub(in crate::conversation::extraction::rules) const PRACTISED: &[&str] = &[
    "teaching",
    "working",
    "nursing",
    "coaching",
    "training",
    "playing",
    "learning",
    "volunteering",
    "running",
    "painting",
    "writing",
    "cooking",
    "practising",
    "practicing",
    "studying",
    "dancing",
    "singing",
    "climbing",
    "cycling",
    "swimming",
    "doing",
];

/// Words that make a stretch of time long: "for 20 years", "for a decade", "since 2015".
pub(in crate::conversation::extraction::rules) const LONG: &[&str] = &["years", "year", "decades", "decade", "since"];

/// Kinds of car driven, beside the vehicles a household has (`having::VEHICLES`): a make
/// names itself with a capital ("a Honda CB500").
pub(in crate::conversation::extraction::rules) const DRIVEN: &[&str] = &[
    "electric",
    "estate",
    "hatchback",
    "suv",
    "convertible",
    "saloon",
    "sedan",
];

/// What may not follow a standing: "engaged in a debate", "single-handedly".
pub(in crate::conversation::extraction::rules) const NOT_A_STANDING: &[&str] =
    &["in", "with", "by", "out", "of", "from", "on"];
