//! The frames of daily life that hold one way at a time, as data: what the old fact must
//! be about, and the phrases (lowercase words, as the judgment reads them) of each way.

use super::super::words::Word;

/// One way of living that holds one way at a time.
pub(super) struct Frame {
    /// Phrases one of which the old fact must say: what the frame is about.
    pub(super) about: &'static [&'static str],
    /// Each way, and the phrases that tell it.
    pub(super) ways: &'static [(&'static str, &'static [&'static str])],
    /// Whether the ways are doings, which a day can make one-off ("drove in today").
    pub(super) doings: bool,
    /// Whether a way is also a thing one may get without living by it ("bought a car").
    pub(super) things: bool,
    /// Whether a way told names what the frame is about ("I'm on Vodafone").
    pub(super) named: bool,
    /// Whether the frame is one of work, read in a fact of one's job too.
    pub(super) of_work: bool,
    /// Whether the new fact must say what the frame is about, or tell a new home: "alone"
    /// is no household in "I've been feeling really alone lately".
    pub(super) about_in_new: bool,
    /// Whether one holds one way at a time; else only a switch told as one ends the old
    /// (one may have a PS5 and a Switch).
    pub(super) exclusive: bool,
    /// A new fact the frame does not read: "in the office 3 days a week" tells no hours.
    pub(super) excludes: fn(&[Word]) -> bool,
}

fn nothing(_: &[Word]) -> bool {
    false
}

/// What a frame is unless it says otherwise: about what it names, of ways of being rather
/// than doings, one way at a time.
const BASE: Frame = Frame {
    about: &[],
    ways: &[],
    doings: false,
    things: false,
    named: false,
    of_work: false,
    about_in_new: false,
    exclusive: true,
    excludes: nothing,
};

/// "oat milk on my cereal" after "I take my coffee black": milk in food, not in a drink.
fn tells_milk_in_food(words: &[Word]) -> bool {
    words.iter().any(|w| {
        matches!(
            w.low.as_str(),
            "cereal"
                | "porridge"
                | "granola"
                | "muesli"
                | "baking"
                | "cooking"
                | "smoothie"
                | "smoothies"
                | "recipe"
                | "recipes"
        )
    })
}

/// "in the office 3 days a week" counts days in the office, not days of work.
fn tells_a_place_of_work(words: &[Word]) -> bool {
    let (told, _) = super::ways(&WORKPLACE, words);
    !told.is_empty()
}

const WORKPLACE: Frame = Frame {
    about: &[
        "work", "working", "job", "office", "remote", "remotely", "wfh", "company", "team",
    ],
    ways: &[
        (
            "home",
            &[
                "from home",
                "wfh",
                "fully remote",
                "remote now",
                "work remote",
                "working remote",
                "remote job",
                "remote role",
                "remote worker",
                "gone remote",
                "went remote",
                "remote full time",
                "remotely",
                "home based",
                "work from my",
                "kitchen table",
            ],
        ),
        (
            "office",
            &[
                "in the office",
                "into the office",
                "in office",
                "to the office",
                "at the office",
                "office based",
                "office every day",
                "office full time",
                "back in full time",
                "back in every day",
                "go in every day",
                "going in every day",
                "go back in",
                "going back in",
                "back in 2",
                "back in 3",
                "back in 4",
                "back in 5",
                "go in 2",
                "go in 3",
                "go in 4",
                "back on site",
                "on site every day",
            ],
        ),
        (
            "hybrid",
            &[
                "hybrid working",
                "work hybrid",
                "working hybrid",
                "hybrid now",
                "gone hybrid",
                "went hybrid",
                "hybrid role",
                "hybrid job",
                "am hybrid",
            ],
        ),
    ],
    doings: true,
    of_work: true,
    ..BASE
};

pub(super) const FRAMES: &[Frame] = &[
    WORKPLACE,
    // How one gets to work or to classes.
    Frame {
        about: &[
            "to work",
            "into work",
            "to uni",
            "to school",
            "to college",
            "to the office",
            "to campus",
            "commute",
            "commuting",
            "carpool",
            "car pool",
        ],
        ways: &[
            ("cycle", &["cycle", "cycles", "cycling", "bike", "biking", "push bike"]),
            ("drive", &["drive", "drives", "driving", "car", "drive myself"]),
            ("train", &["train", "trains", "rail"]),
            ("tube", &["tube", "underground", "metro", "subway"]),
            ("bus", &["bus", "buses"]),
            ("tram", &["tram"]),
            ("walk", &["walk", "walking", "on foot"]),
            ("scooter", &["scooter", "e scooter"]),
            ("e-bike", &["e bike", "ebike"]),
            ("motorbike", &["motorbike", "moped", "motorcycle"]),
            ("carpool", &["carpool", "car pool", "lift"]),
        ],
        doings: true,
        things: true,
        of_work: true,
        ..BASE
    },
    // Whom one lives with.
    Frame {
        about: &[
            "live",
            "living",
            "lives",
            "share",
            "sharing",
            "lodger",
            "flatmates",
            "housemates",
            "roommates",
            "halls",
        ],
        ways: &[
            (
                "parents",
                &[
                    "with my parents",
                    "with my mum",
                    "with my mom",
                    "with my dad",
                    "with my folks",
                    "at my parents",
                    "at my mum's",
                    "at my mom's",
                    "my mum's place",
                    "family home",
                    "back home with",
                ],
            ),
            (
                "sharing",
                &[
                    "flatmates",
                    "flatmate",
                    "housemates",
                    "housemate",
                    "roommates",
                    "roommate",
                    "flatshare",
                    "flat share",
                    "house share",
                    "houseshare",
                    "share a flat",
                    "share a house",
                    "sharing a flat",
                    "sharing a house",
                    "halls",
                ],
            ),
            ("alone", &["alone", "on my own", "by myself", "just me"]),
            ("lodging", &["lodger", "lodging", "with a family", "host family"]),
            (
                "partner",
                &[
                    "with my girlfriend",
                    "with my boyfriend",
                    "with my partner",
                    "with my wife",
                    "with my husband",
                    "with my fiance",
                    "with my fiancee",
                    "moved in with",
                    "moved in together",
                    "both of us",
                    "two of us",
                ],
            ),
            (
                "own",
                &[
                    "moved out",
                    "own place",
                    "own flat",
                    "own house",
                    "own apartment",
                    "studio",
                    "got a flat",
                    "got a place",
                ],
            ),
        ],
        about_in_new: true,
        ..BASE
    },
    // Whether one rents or owns one's home.
    Frame {
        about: &["rent", "renting", "rented", "lodger", "landlord", "tenant", "council"],
        ways: &[
            (
                "renting",
                &[
                    "rent a",
                    "rent an",
                    "rent my",
                    "rent our",
                    "rent the",
                    "rent from",
                    "renting",
                    "lodger",
                    "tenant",
                    "private landlord",
                ],
            ),
            (
                "owning",
                &[
                    "bought a flat",
                    "bought a house",
                    "bought a place",
                    "bought a home",
                    "bought an apartment",
                    "bought our",
                    "bought my own",
                    "got the keys",
                    "homeowner",
                    "homeowners",
                    "mortgage",
                    "is ours",
                    "ours now",
                    "own our home",
                    "own our house",
                    "own our apartment",
                    "own our place",
                    "own my home",
                    "own my house",
                    "own my apartment",
                    "own my place",
                    "first home",
                    "first house",
                ],
            ),
            (
                "social",
                &["council flat", "council house", "housing association", "social housing"],
            ),
        ],
        about_in_new: true,
        ..BASE
    },
    // What one eats.
    Frame {
        about: &[
            "vegetarian",
            "veggie",
            "vegan",
            "pescatarian",
            "pescetarian",
            "plant based",
            "meat",
            "eat everything",
            "dietary",
        ],
        ways: &[
            (
                "meat",
                &[
                    "eat meat",
                    "eating meat",
                    "meat again",
                    "eat everything",
                    "eat anything",
                    "no dietary",
                    "no restrictions",
                ],
            ),
            ("vegetarian", &["vegetarian", "veggie"]),
            ("vegan", &["vegan", "plant based", "fully plant"]),
            (
                "pescatarian",
                &["pescatarian", "pescetarian", "eat fish", "eating fish", "fish again"],
            ),
        ],
        ..BASE
    },
    // How the assistant gives temperatures, and measures. These frames of answering need
    // the new fact to say what it is about too: "I ran 5 miles today" asks for no miles.
    Frame {
        about: &["temp", "temps", "temperature", "temperatures", "weather"],
        ways: &[("celsius", &["celsius", "centigrade"]), ("fahrenheit", &["fahrenheit"])],
        about_in_new: true,
        ..BASE
    },
    Frame {
        about: &["units", "unit", "measurements", "distances", "weights", "system"],
        ways: &[
            ("metric", &["metric", "kilometres", "kilometers", "kilograms"]),
            ("imperial", &["imperial", "miles", "stones", "feet and inches"]),
        ],
        about_in_new: true,
        ..BASE
    },
    // The language the assistant answers in.
    Frame {
        about: &[
            "reply",
            "replies",
            "answer",
            "answers",
            "respond",
            "responses",
            "talk to me",
            "write to me",
            "speak to me",
            "chat with me",
        ],
        ways: &[
            ("english", &["english"]),
            ("spanish", &["spanish"]),
            ("french", &["french"]),
            ("german", &["german"]),
            ("italian", &["italian"]),
            ("portuguese", &["portuguese"]),
            ("dutch", &["dutch"]),
            ("afrikaans", &["afrikaans"]),
            ("welsh", &["welsh"]),
            ("irish", &["irish"]),
            ("polish", &["polish"]),
            ("hindi", &["hindi"]),
            ("urdu", &["urdu"]),
            ("arabic", &["arabic"]),
            ("chinese", &["chinese", "mandarin"]),
            ("japanese", &["japanese"]),
            ("korean", &["korean"]),
            ("turkish", &["turkish"]),
            ("swahili", &["swahili"]),
            ("zulu", &["zulu"]),
            ("yoruba", &["yoruba"]),
        ],
        about_in_new: true,
        ..BASE
    },
    // How the assistant sets out an answer.
    Frame {
        about: &[
            "reply",
            "replies",
            "answer",
            "answers",
            "respond",
            "responses",
            "write",
            "format",
            "explain",
        ],
        ways: &[
            ("bullets", &["bullet points", "bullet point", "bullets", "bulleted"]),
            ("prose", &["paragraphs", "prose", "full sentences"]),
        ],
        about_in_new: true,
        ..BASE
    },
    // What one has in one's tea.
    Frame {
        about: &["milk", "dairy", "coffee black", "tea black", "it black", "black coffee"],
        ways: &[
            (
                "none",
                &[
                    "coffee black",
                    "tea black",
                    "it black",
                    "black coffee",
                    "no milk",
                    "without milk",
                ],
            ),
            (
                "dairy",
                &[
                    "regular milk",
                    "cow's milk",
                    "whole milk",
                    "semi skimmed",
                    "skimmed milk",
                    "dairy",
                ],
            ),
            (
                "plant",
                &[
                    "oat milk",
                    "almond milk",
                    "soy milk",
                    "soya milk",
                    "oat",
                    "cut dairy",
                    "dairy free",
                    "no dairy",
                ],
            ),
        ],
        excludes: tells_milk_in_food,
        ..BASE
    },
    // How much one works.
    Frame {
        about: &[
            "work",
            "job",
            "hours",
            "week",
            "shifts",
            "contract",
            "full time",
            "fulltime",
            "part time",
            "parttime",
        ],
        ways: &[
            (
                "full",
                &[
                    "full time",
                    "fulltime",
                    "five days",
                    "5 days",
                    "five day",
                    "5 day",
                    "monday to friday",
                    "mon to fri",
                ],
            ),
            (
                "part",
                &[
                    "part time",
                    "parttime",
                    "four days",
                    "4 days",
                    "4 day week",
                    "four day week",
                    "three days",
                    "3 days",
                    "two days",
                    "2 days",
                    "compressed hours",
                    "reduced hours",
                    "fewer hours",
                ],
            ),
        ],
        of_work: true,
        about_in_new: true,
        excludes: tells_a_place_of_work,
        ..BASE
    },
    // Which shifts one works.
    Frame {
        about: &[
            "work",
            "working",
            "shift",
            "shifts",
            "rota",
            "job",
            "on nights",
            "on days",
            "on earlies",
            "on lates",
        ],
        ways: &[
            (
                "nights",
                &[
                    "on nights",
                    "night shift",
                    "night shifts",
                    "working nights",
                    "work nights",
                    "doing nights",
                    "do nights",
                    "nights now",
                ],
            ),
            (
                "days",
                &[
                    "on days",
                    "day shift",
                    "day shifts",
                    "working days",
                    "work days",
                    "doing days",
                    "do days",
                ],
            ),
            ("lates", &["on lates", "late shift", "late shifts", "doing lates"]),
            (
                "earlies",
                &["on earlies", "early shift", "early shifts", "doing earlies"],
            ),
            (
                "evenings",
                &[
                    "evening shift",
                    "evening shifts",
                    "working evenings",
                    "work evenings",
                    "of evenings",
                ],
            ),
            ("lunches", &["lunch shift", "lunch shifts", "working lunches"]),
            (
                "weekends",
                &["weekend shift", "weekend shifts", "working weekends", "work weekends"],
            ),
        ],
        of_work: true,
        ..BASE
    },
    // Smoking.
    Frame {
        about: &[
            "smoke",
            "smoking",
            "smoker",
            "cigs",
            "cigarettes",
            "fags",
            "vape",
            "vaping",
        ],
        ways: &[
            (
                "smoke",
                &["smoke", "smoking", "smoker", "cigs", "cigarettes", "fags", "roll ups"],
            ),
            ("vape", &["vape", "vaping", "vapes", "e cig", "e cigs"]),
            (
                "none",
                &[
                    "smoke free",
                    "smokefree",
                    "non smoker",
                    "ex smoker",
                    "quit smoking",
                    "stopped smoking",
                    "gave up smoking",
                    "given up smoking",
                    "quit the fags",
                    "off the cigs",
                    "off the fags",
                ],
            ),
        ],
        ..BASE
    },
    // Drinking.
    Frame {
        about: &[
            "wine", "beer", "pint", "pints", "booze", "alcohol", "drinking", "drink", "teetotal", "sober",
        ],
        ways: &[
            (
                "drink",
                &[
                    "wine",
                    "beer",
                    "pint",
                    "pints",
                    "booze",
                    "alcohol",
                    "drinking again",
                    "drink again",
                ],
            ),
            (
                "none",
                &[
                    "sober",
                    "teetotal",
                    "quit drinking",
                    "stopped drinking",
                    "gave up drinking",
                    "given up drinking",
                    "off the booze",
                    "alcohol free",
                    "quit alcohol",
                    "gave up alcohol",
                    "given up alcohol",
                    "quit booze",
                ],
            ),
        ],
        ..BASE
    },
    // What one drinks to wake up.
    Frame {
        about: &["coffee", "coffees", "caffeine", "tea", "espresso", "latte", "decaf"],
        ways: &[
            (
                "coffee",
                &[
                    "coffee",
                    "coffees",
                    "caffeine",
                    "espresso",
                    "latte",
                    "flat white",
                    "black coffee",
                ],
            ),
            ("tea", &["tea", "green tea", "builder's tea", "chai", "matcha"]),
            (
                "none",
                &[
                    "decaf",
                    "cut caffeine",
                    "no caffeine",
                    "caffeine free",
                    "off coffee",
                    "quit coffee",
                    "gave up coffee",
                    "off caffeine",
                    "quit caffeine",
                ],
            ),
        ],
        exclusive: false,
        ..BASE
    },
];

/// Frames of the companies and things one uses, whose ways are brands: "moved everything
/// over to monzo" after "I bank with Barclays", "finally got a galaxy s24" after "My phone
/// is an iPhone 11". A brand or model that is also an everyday word ("Three", "Sky",
/// "Chase", "Golf", "Jazz", "Focus", "Iceland") is left out.
pub(super) const BRANDS: &[Frame] = &[
    Frame {
        about: &["bank", "banking", "account", "current account"],
        ways: &[
            ("barclays", &["barclays"]),
            ("hsbc", &["hsbc"]),
            ("lloyds", &["lloyds"]),
            ("natwest", &["natwest"]),
            ("santander", &["santander"]),
            ("monzo", &["monzo"]),
            ("starling", &["starling"]),
            ("revolut", &["revolut"]),
            ("nationwide", &["nationwide"]),
            ("halifax", &["halifax"]),
            ("first direct", &["first direct"]),
            ("wells fargo", &["wells fargo"]),
            ("bank of america", &["bank of america"]),
            ("commbank", &["commbank", "commonwealth bank"]),
            ("westpac", &["westpac"]),
            ("anz", &["anz"]),
            ("ing", &["ing"]),
            ("aib", &["aib"]),
            ("bank of ireland", &["bank of ireland"]),
            ("hdfc", &["hdfc"]),
            ("icici", &["icici"]),
            ("sbi", &["sbi"]),
        ],
        named: true,
        ..BASE
    },
    Frame {
        about: &["phone", "network", "contract", "sim", "number", "plan"],
        ways: &[
            ("vodafone", &["vodafone"]),
            ("ee", &["ee"]),
            ("o2", &["o2"]),
            ("giffgaff", &["giffgaff"]),
            ("lebara", &["lebara"]),
            ("voxi", &["voxi"]),
            ("tesco mobile", &["tesco mobile"]),
            ("smarty", &["smarty"]),
            ("verizon", &["verizon"]),
            ("at&t", &["at&t", "att"]),
            ("t-mobile", &["t mobile", "tmobile"]),
            ("telstra", &["telstra"]),
            ("optus", &["optus"]),
            ("jio", &["jio"]),
            ("airtel", &["airtel"]),
        ],
        named: true,
        ..BASE
    },
    Frame {
        about: &["energy", "supplier", "gas", "electricity", "electric"],
        ways: &[
            ("british gas", &["british gas"]),
            ("octopus", &["octopus"]),
            ("edf", &["edf"]),
            ("eon", &["eon", "e on"]),
            ("ovo", &["ovo"]),
            ("scottish power", &["scottish power"]),
            ("agl", &["agl"]),
            ("origin", &["origin energy"]),
        ],
        named: true,
        ..BASE
    },
    Frame {
        about: &["broadband", "internet", "wifi", "fibre", "fiber"],
        ways: &[
            ("bt", &["bt"]),
            ("virgin", &["virgin media", "virgin"]),
            ("talktalk", &["talktalk"]),
            ("plusnet", &["plusnet"]),
            ("hyperoptic", &["hyperoptic"]),
            ("community fibre", &["community fibre"]),
            ("comcast", &["comcast", "xfinity"]),
            ("starlink", &["starlink"]),
        ],
        named: true,
        ..BASE
    },
    Frame {
        about: &["phone"],
        ways: &[
            ("iphone", &["iphone"]),
            ("pixel", &["pixel", "google pixel"]),
            ("samsung", &["samsung", "galaxy"]),
            ("oneplus", &["oneplus"]),
            ("xiaomi", &["xiaomi"]),
            ("motorola", &["motorola", "moto"]),
            ("nokia", &["nokia"]),
            ("huawei", &["huawei"]),
            ("fairphone", &["fairphone"]),
            ("android", &["android"]),
        ],
        named: true,
        ..BASE
    },
    Frame {
        about: &["laptop", "computer", "pc"],
        ways: &[
            ("macbook", &["macbook", "mac"]),
            ("thinkpad", &["thinkpad", "lenovo"]),
            ("chromebook", &["chromebook"]),
            ("dell", &["dell", "xps"]),
            ("hp", &["hp"]),
            ("surface", &["surface"]),
            ("asus", &["asus"]),
            ("acer", &["acer"]),
        ],
        named: true,
        exclusive: false,
        ..BASE
    },
    Frame {
        about: &["car", "drive", "drives", "driving"],
        ways: &[
            ("honda", &["honda", "civic"]),
            (
                "toyota",
                &["toyota", "corolla", "yaris", "prius", "rav4", "camry", "aygo"],
            ),
            ("ford", &["ford", "kuga"]),
            ("volkswagen", &["vw", "volkswagen", "passat", "tiguan"]),
            ("kia", &["kia", "sportage", "picanto", "niro", "ceed"]),
            ("hyundai", &["hyundai", "tucson", "ioniq", "creta", "i10", "i20", "i30"]),
            ("nissan", &["nissan", "qashqai", "micra", "juke"]),
            ("mazda", &["mazda", "mx5"]),
            ("bmw", &["bmw"]),
            ("audi", &["audi"]),
            ("mercedes", &["mercedes", "merc"]),
            ("tesla", &["tesla"]),
            ("skoda", &["skoda", "octavia", "fabia"]),
            ("vauxhall", &["vauxhall", "corsa", "astra"]),
            ("renault", &["renault", "clio"]),
            ("peugeot", &["peugeot"]),
            ("citroen", &["citroen"]),
            ("fiat", &["fiat"]),
            ("volvo", &["volvo"]),
            ("subaru", &["subaru"]),
            ("mini", &["mini cooper"]),
            ("mitsubishi", &["mitsubishi"]),
            ("suzuki", &["suzuki", "maruti", "baleno"]),
            ("lexus", &["lexus"]),
            ("jeep", &["jeep"]),
            ("mg", &["mg"]),
            ("byd", &["byd"]),
        ],
        named: true,
        ..BASE
    },
    Frame {
        about: &["bike", "cycle", "ride"],
        ways: &[
            ("road", &["road bike", "racer"]),
            ("electric", &["e bike", "ebike", "electric bike"]),
            ("mountain", &["mountain bike", "mtb"]),
            ("folding", &["folding bike", "brompton"]),
            ("hybrid", &["hybrid bike"]),
            ("gravel", &["gravel bike"]),
        ],
        exclusive: false,
        ..BASE
    },
    Frame {
        about: &["watch", "tracker", "smartwatch"],
        ways: &[
            ("fitbit", &["fitbit"]),
            ("garmin", &["garmin", "forerunner"]),
            ("apple watch", &["apple watch"]),
            ("galaxy watch", &["galaxy watch"]),
            ("whoop", &["whoop"]),
            ("oura", &["oura"]),
        ],
        named: true,
        ..BASE
    },
    Frame {
        about: &["ps4", "ps5", "playstation", "xbox", "console", "nintendo", "steam deck"],
        ways: &[
            ("ps4", &["ps4", "playstation 4"]),
            ("ps5", &["ps5", "playstation 5"]),
            ("xbox one", &["xbox one"]),
            ("xbox series", &["xbox series", "series x", "series s"]),
            ("nintendo switch", &["nintendo switch"]),
            ("steam deck", &["steam deck"]),
        ],
        exclusive: false,
        ..BASE
    },
    Frame {
        about: &["headphones", "earbuds", "airpods", "buds", "headset"],
        ways: &[
            ("airpods", &["airpods"]),
            ("bose", &["bose"]),
            ("sony", &["sony", "xm4", "xm4s", "xm5", "xm5s"]),
            ("beats", &["beats"]),
            ("jabra", &["jabra"]),
            ("sennheiser", &["sennheiser"]),
            ("galaxy buds", &["galaxy buds"]),
            ("pixel buds", &["pixel buds"]),
        ],
        exclusive: false,
        ..BASE
    },
    Frame {
        about: &["spotify", "apple music", "music", "youtube music", "tidal", "deezer"],
        ways: &[
            ("spotify", &["spotify"]),
            ("apple music", &["apple music"]),
            ("youtube music", &["youtube music"]),
            ("amazon music", &["amazon music"]),
            ("tidal", &["tidal"]),
            ("deezer", &["deezer"]),
        ],
        exclusive: false,
        ..BASE
    },
    // Where one does the food shop.
    Frame {
        about: &[
            "shop",
            "shopping",
            "groceries",
            "grocery",
            "food shop",
            "big shop",
            "supermarket",
        ],
        ways: &[
            ("tesco", &["tesco", "tesco's"]),
            ("sainsbury's", &["sainsbury's", "sainsburys"]),
            ("asda", &["asda"]),
            ("morrisons", &["morrisons"]),
            ("aldi", &["aldi"]),
            ("lidl", &["lidl"]),
            ("waitrose", &["waitrose"]),
            ("ocado", &["ocado"]),
            ("woolworths", &["woolworths", "woolies"]),
            ("coles", &["coles"]),
            ("kroger", &["kroger"]),
            ("walmart", &["walmart"]),
            ("costco", &["costco"]),
            ("trader joe's", &["trader joe's", "trader joes"]),
            ("bigbasket", &["bigbasket"]),
            ("blinkit", &["blinkit"]),
            ("zepto", &["zepto"]),
            ("loblaws", &["loblaws"]),
            ("no frills", &["no frills"]),
            ("dunnes", &["dunnes"]),
        ],
        doings: true,
        exclusive: false,
        ..BASE
    },
];
