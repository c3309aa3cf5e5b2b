//! Whether a run of characters was drawn at random, as keys are, or put together from words,
//! as names, identifiers, hashtags and file names are ("getUserAccountSettings",
//! "Family_Reunion_2023_Final"). No dictionary is needed: words are made of the letter pairs
//! that languages use over and over, and change case only where a word begins.

use std::sync::LazyLock;

/// The letter pairs most common in English text, which also carry most German, Dutch,
/// French, Spanish and Portuguese words. About a third of all pairs: a random run has as
/// many of them as chance gives (about a third of its pairs), words far more.
const COMMON_PAIRS: &str = "th he in er an re on at en nd ti es or te of ed is it al ar st to nt ng se ha as
    ou io le ve co me de hi ri ro ic ne ea ra ce li ch ll be ma si om ur ca el ta la ns di fo ho pe ec pr no
    ct us ac ot il tr ly nc et ut ss so rs un lo wa ge ie wh ee wi em ad ol rt po we na ul ni ts mo ow pa im
    mi ai sh ir su id os iv ia am fi ci vi pl ig tu ev ld ry mp fe bl ab gh ty op wo sa ay ex ke fr oo av ag
    if ap gr od bo sp rd do uc bu ei ov by rm ep tt oc fa ef cu rn sc gi da yo cr cl du ga qu ue ff ba ey ls
    va um pp ua up lu go ht ru ug ds lt pi rc rr eg au ck ew mu br bi pt ak pu ui rg ib tl ny ki rk ys ob mm
    fu ph og ms ye ud mb ip ub oi rl gu dr hr cc tw ft wn nu";

/// `COMMON_PAIRS` as a table indexed by the two letters.
static COMMON: LazyLock<[bool; 26 * 26]> = LazyLock::new(|| {
    let mut table = [false; 26 * 26];
    for pair in COMMON_PAIRS.split_whitespace() {
        let b = pair.as_bytes();
        table[pair_index(b[0] as char, b[1] as char).expect("two ASCII letters")] = true;
    }
    table
});

fn pair_index(a: char, b: char) -> Option<usize> {
    let letter = |c: char| {
        c.is_ascii_alphabetic()
            .then(|| (c.to_ascii_lowercase() as u8 - b'a') as usize)
    };
    Some(letter(a)? * 26 + letter(b)?)
}

/// Whether `run` reads as drawn at random. Words give a run at least three in five common
/// letter pairs and a change of case or class (letter, digit, symbol) at fewer than two in
/// five characters; random runs of 32 to 88 characters meet both 5 times in 36,000
/// (`random_keys_are_machine_made`).
pub(super) fn machine_made(run: &[char]) -> bool {
    let (mut pairs, mut common) = (0usize, 0usize);
    for w in run.windows(2) {
        if let Some(k) = pair_index(w[0], w[1]) {
            pairs += 1;
            common += usize::from(COMMON[k]);
        }
    }
    let wordy = pairs > 0 && common * 5 >= pairs * 3;
    let calm = class_changes(run) * 5 < run.len() * 2;
    !(wordy && calm)
}

/// How often the class of character changes: upper case, lower case, digit or symbol. A
/// capital that starts a lower-case word ("Settings") is not a change.
fn class_changes(run: &[char]) -> usize {
    let class = |c: char| {
        if c.is_ascii_uppercase() {
            0
        } else if c.is_ascii_lowercase() {
            1
        } else if c.is_ascii_digit() {
            2
        } else {
            3
        }
    };
    let mut changes = 0;
    for k in 1..run.len() {
        let (a, b) = (class(run[k - 1]), class(run[k]));
        let word_start = a == 0 && b == 1 && (k < 2 || class(run[k - 2]) != 0);
        if a != b && !word_start {
            changes += 1;
        }
    }
    changes
}

#[cfg(test)]
mod tests {
    use super::machine_made;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn words_are_not_machine_made_and_keys_are() {
        for words in [
            "getUserAccountSettingsFromDatabaseCache",
            "Family_Reunion_Photos_Summer_2023_Edited_Final",
            "HTTPServerErrorHandlerForIPv6AndTLS13Sockets",
            "Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch",
        ] {
            assert!(!machine_made(&chars(words)), "{words}");
        }
        for key in [
            concat!("wJalrXUtnFEMI/K7MDENG", "/bPxRfiCYEXAMPLEKEY"),
            "q0nv3Vth1Ls6v6+O9JL8ZsoWw/Rxl+IUiTeNUJ+H",
            "Eokd5ihu9lEmJcADwyQNeLnpT5xawz8r",
        ] {
            assert!(machine_made(&chars(key)), "{key}");
        }
    }

    /// Random keys of every common alphabet and length read as random; the few that read
    /// as words by chance are counted (deterministic: a fixed xorshift sequence).
    #[test]
    fn random_keys_are_machine_made() {
        const ALPHABETS: [&str; 3] = [
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-",
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (mut tried, mut wordy) = (0, 0);
        for alphabet in ALPHABETS {
            let alphabet: Vec<char> = alphabet.chars().collect();
            for len in [32, 40, 44, 48, 64, 88] {
                for _ in 0..2000 {
                    let key: Vec<char> = (0..len)
                        .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                        .collect();
                    tried += 1;
                    wordy += usize::from(!machine_made(&key));
                }
            }
        }
        println!("randomness: {wordy} of {tried} random keys read as words");
        assert!(wordy <= 5, "{wordy} of {tried}"); // as measured
    }
}
