//! Command lines that carry a password: `curl -u admin:letmein`, `mysql -u root -pS3cret`,
//! `sshpass -p tulips ssh pi@host`. The flag says what its value is, so any literal value
//! counts, letters alone too; a shell variable (`$PASS`, `${TOKEN}`) or no value (the
//! command then asks for it: `mysql -u root -p shop`) does not.

use std::sync::LazyLock;

use super::SecretKind;
use super::passwords::{is_description, worth_keeping};
use super::text::{Text, bucket_of};
use super::values::{is_placeholder, strip_wrapping};

/// Where the value of a flag is written.
#[derive(Clone, Copy, PartialEq)]
enum Form {
    /// Joined to the flag: `-pS3cret` (for `mysql`, a spaced `-p` asks and names a database).
    Attached,
    /// The next word: `-p S3cret`.
    Spaced,
    /// Either.
    Both,
}

/// What the value holds: the password, or a user name and the password after a separator.
#[derive(Clone, Copy)]
enum Value {
    Password,
    UserPass(char),
}

struct Flag {
    /// The commands, separated by spaces; `_` stands for a space in a two-word command.
    commands: &'static str,
    /// The flags, separated by spaces, matched with their case (`-p` is not `-P`).
    flags: &'static str,
    form: Form,
    value: Value,
}

const fn f(commands: &'static str, flags: &'static str, form: Form, value: Value) -> Flag {
    Flag {
        commands,
        flags,
        form,
        value,
    }
}

use Form::{Attached, Both, Spaced};
use Value::{Password, UserPass};

const FLAGS: &[Flag] = &[
    f("curl", "-u --user", Both, UserPass(':')),
    f("smbclient", "-U --user", Spaced, UserPass('%')),
    f(
        "mysql mysqldump mysqladmin mysqlimport mysqlcheck mysqlshow mysqlsh mariadb mariadb-dump mariadb-admin",
        "-p",
        Attached,
        Password,
    ),
    f("7z 7za 7zz rar unrar", "-p", Attached, Password),
    f("xfreerdp wlfreerdp", "/p:", Attached, Password),
    f("sshpass", "-p", Both, Password),
    f("redis-cli", "-a --pass", Spaced, Password),
    f(
        "mongo mongosh mongodump mongorestore mongoexport mongoimport",
        "-p --password",
        Spaced,
        Password,
    ),
    f(
        "docker_login podman_login buildah_login skopeo_login nerdctl_login oras_login helm_registry_login",
        "-p --password",
        Spaced,
        Password,
    ),
    f(
        "sqlcmd bcp mosquitto_pub mosquitto_sub zip unzip",
        "-P",
        Spaced,
        Password,
    ),
    f(
        "ldapsearch ldapadd ldapmodify ldapdelete ldapwhoami ldappasswd",
        "-w",
        Spaced,
        Password,
    ),
    f(
        "keytool",
        "-storepass -keypass -srcstorepass -deststorepass",
        Spaced,
        Password,
    ),
];

/// How many words after a command are read for its flags.
const REACH: usize = 24;

/// Each command by its first character: (index into `FLAGS`, the command).
static BY_FIRST: LazyLock<Vec<Vec<(usize, &'static str)>>> = LazyLock::new(|| {
    let mut out = vec![Vec::new(); 129];
    for (k, flag) in FLAGS.iter().enumerate() {
        for command in flag.commands.split(' ') {
            out[bucket_of(command.chars().next().unwrap_or('\0'))].push((k, command));
        }
    }
    out
});

pub(super) fn command_password(t: &Text) -> Option<SecretKind> {
    let by_first = &*BY_FIRST;
    let mut start = 0;
    while start < t.len() {
        let end = (start..t.len()).find(|&i| t.c[i] == '\n').unwrap_or(t.len());
        let words = words_between(t, start, end);
        for (k, &(s, e)) in words.iter().enumerate() {
            // "/usr/bin/mysql" is "mysql", and "Curl" at the start of a sentence is "curl".
            let base = (s..e).rev().find(|&i| t.c[i] == '/').map_or(s, |i| i + 1);
            let name = &t.low[base..e];
            let Some(&first) = name.first() else { continue };
            for &(f, command) in &by_first[bucket_of(first)] {
                let Some(taken) = command_at(t, command, name, &words[k + 1..]) else {
                    continue;
                };
                let args: Vec<&[char]> = words[k + 1 + taken..]
                    .iter()
                    .take(REACH)
                    .map(|&(s, e)| &t.c[s..e])
                    .collect();
                if reads_password(&FLAGS[f], &args) {
                    return Some(SecretKind::Password);
                }
            }
        }
        start = end + 1;
    }
    None
}

/// The words of `t` from `start` to `end`, as index ranges.
fn words_between(t: &Text, start: usize, end: usize) -> Vec<(usize, usize)> {
    let mut words = Vec::new();
    let mut i = start;
    while i < end {
        if t.c[i].is_whitespace() {
            i += 1;
            continue;
        }
        let s = i;
        while i < end && !t.c[i].is_whitespace() {
            i += 1;
        }
        words.push((s, i));
    }
    words
}

/// Whether the word `name` and the words after it are `command` ("docker_login" is two
/// words); how many words after `name` it took.
fn command_at(t: &Text, command: &str, name: &[char], rest: &[(usize, usize)]) -> Option<usize> {
    let same = |part: &str, word: &[char]| part.chars().eq(word.iter().copied());
    let mut parts = command.split('_');
    same(parts.next()?, name).then_some(())?;
    let mut taken = 0;
    for part in parts {
        let &(s, e) = rest.get(taken)?;
        same(part, &t.low[s..e]).then_some(())?;
        taken += 1;
    }
    Some(taken)
}

/// Whether one of the flag's forms in `args` holds a literal password. Reading stops where
/// the shell starts another command.
fn reads_password(flag: &Flag, args: &[&[char]]) -> bool {
    let is = |arg: &[char], text: &str| arg.iter().copied().eq(text.chars());
    for (k, &arg) in args.iter().enumerate() {
        if ["|", "||", "&&", ";", "&"].iter().any(|sep| is(arg, sep)) {
            return false;
        }
        for name in flag.flags.split(' ') {
            let n = name.chars().count();
            if arg.len() < n || !is(&arg[..n], name) {
                continue;
            }
            let rest = &arg[n..];
            let value = match rest.first() {
                None if flag.form != Attached => args.get(k + 1).copied(),
                Some('=') => Some(&rest[1..]),
                Some(_) if flag.form != Spaced => Some(rest),
                _ => None,
            };
            // A spaced value may be prose: "the zip -P flag", "sshpass -p with the password".
            let spaced = rest.is_empty();
            if value.is_some_and(|v| holds_password(flag.value, &v.iter().collect::<String>(), spaced)) {
                return true;
            }
        }
        if arg.last() == Some(&';') {
            return false;
        }
    }
    false
}

fn holds_password(kind: Value, value: &str, spaced: bool) -> bool {
    let value = strip_wrapping(value.trim_end_matches(';'));
    let literal = |v: &str| worth_keeping(v) && !is_placeholder(v) && !v.starts_with(['$', '%', '-', '<', '{']);
    match kind {
        Value::Password => literal(&value) && !(spaced && is_description(&value)),
        Value::UserPass(sep) => value
            .split_once(sep)
            .is_some_and(|(user, pass)| !user.is_empty() && literal(pass)),
    }
}
