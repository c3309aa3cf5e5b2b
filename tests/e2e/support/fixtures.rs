//! Stand-ins shared by the tests: a free loopback port, a word-hashing embedding, the
//! hostile component, and a conversation's small talk.

use std::path::Path;

/// A loopback port that was free a moment ago, with nothing listening on it: a service
/// that is down, or one to start there later.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind loopback")
        .local_addr()
        .expect("a local address")
        .port()
}

/// Words (of three letters or more) hashed into `dim` buckets, so texts that share words
/// are similar. Stands in for a model, not for a good one; never the zero vector.
pub fn hash_embedding(text: &str, dim: usize) -> Vec<f32> {
    let mut v = vec![0.0f32; dim];
    for word in text
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 2)
    {
        let h = word
            .bytes()
            .fold(7u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)));
        v[h as usize % dim] += 1.0;
    }
    v[0] += 0.01;
    v
}

/// The test-only hostile component (`tests/hostile-guest`: it loops forever or allocates
/// without bound on request), built by `tests/support`'s build script, which only test
/// builds run.
pub fn hostile_component() -> &'static Path {
    Path::new(ash_memory_test_support::HOSTILE_COMPONENT)
}

/// Small talk: lines that say little but who said them, for a stored conversation in which
/// a speaker's name is in most lines.
pub const CHATTER: [&str; 30] = [
    "Hey Mel!",
    "Thanks so much!",
    "Haha, totally.",
    "See you soon!",
    "Good morning!",
    "That's so sweet.",
    "Aww, I love that.",
    "Wow, amazing!",
    "Sounds fun!",
    "Same here.",
    "Oh no, sorry to hear.",
    "Yes, definitely!",
    "Take care!",
    "Talk later!",
    "Hi again!",
    "Lol, so true.",
    "Congrats!",
    "Miss you.",
    "Good night!",
    "That's wild.",
    "Cool!",
    "Nice one.",
    "Right?",
    "Totally agree.",
    "Bye for now!",
    "Hugs!",
    "You rock!",
    "Ha, me too.",
    "Oh wow.",
    "Happy Friday!",
];
