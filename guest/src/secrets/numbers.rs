//! Numbers with a structure: US SSNs outside the never-issued ranges and IBANs with their
//! country's length and the mod-97 check. Card numbers are in `cards`.

use super::SecretKind;
use super::text::Text;

/// ddd-dd-dddd, outside the ranges never issued (area 000, 666, 900-999; group 00; serial
/// 0000), and not part of a longer number.
pub(super) fn ssn(t: &Text) -> Option<SecretKind> {
    for i in 0..t.len() {
        if !t.c[i].is_ascii_digit() {
            continue;
        }
        let prev = t.before(i);
        if prev.is_alphanumeric() || matches!(prev, '-' | '.' | '/' | '+') {
            continue;
        }
        let shape = "ddd-dd-dddd";
        if !shape.chars().enumerate().all(|(k, s)| {
            if s == 'd' {
                t.at(i + k).is_ascii_digit()
            } else {
                t.at(i + k) == '-'
            }
        }) {
            continue;
        }
        let next = t.at(i + 11);
        if next.is_alphanumeric() || (matches!(next, '-' | '.' | '/') && t.at(i + 12).is_ascii_digit()) {
            continue;
        }
        if ssn_digits(&t.string(i, i + 11)) {
            return Some(SecretKind::NationalId);
        }
    }
    None
}

/// An SSN after its name: nine digits, separators allowed ("SSN: 123 45 6789").
pub(super) fn ssn_at(t: &Text, from: usize) -> bool {
    let mut v = from;
    while matches!(t.at(v), ':' | '#' | ' ' | '=') && v - from < 4 {
        v += 1;
    }
    let mut e = v;
    while (t.at(e).is_ascii_digit() || matches!(t.at(e), '-' | ' ' | '.')) && e - v < 13 {
        e += 1;
    }
    !t.at(e).is_ascii_digit() && ssn_digits(&t.string(v, e))
}

pub(super) fn ssn_digits(value: &str) -> bool {
    let d: Vec<u32> = value.chars().filter_map(|c| c.to_digit(10)).collect();
    if d.len() != 9
        || !value
            .trim()
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '-' | ' ' | '.'))
    {
        return false;
    }
    let area = d[0] * 100 + d[1] * 10 + d[2];
    let group = d[3] * 10 + d[4];
    let serial = d[5] * 1000 + d[6] * 100 + d[7] * 10 + d[8];
    area != 0 && area != 666 && area < 900 && group != 0 && serial != 0
}

/// Registered IBAN lengths by country, in order; an IBAN must have its country's length and
/// pass the mod-97 check.
pub(super) const IBAN_LENGTHS: &[(&str, usize)] = &[
    ("AD", 24),
    ("AE", 23),
    ("AL", 28),
    ("AT", 20),
    ("AZ", 28),
    ("BA", 20),
    ("BE", 16),
    ("BG", 22),
    ("BH", 22),
    ("BI", 27),
    ("BR", 29),
    ("BY", 28),
    ("CH", 21),
    ("CR", 22),
    ("CY", 28),
    ("CZ", 24),
    ("DE", 22),
    ("DJ", 27),
    ("DK", 18),
    ("DO", 28),
    ("EE", 20),
    ("EG", 29),
    ("ES", 24),
    ("FI", 18),
    ("FK", 18),
    ("FO", 18),
    ("FR", 27),
    ("GB", 22),
    ("GE", 22),
    ("GI", 23),
    ("GL", 18),
    ("GR", 27),
    ("GT", 28),
    ("HN", 28),
    ("HR", 21),
    ("HU", 28),
    ("IE", 22),
    ("IL", 23),
    ("IQ", 23),
    ("IS", 26),
    ("IT", 27),
    ("JO", 30),
    ("KW", 30),
    ("KZ", 20),
    ("LB", 28),
    ("LC", 32),
    ("LI", 21),
    ("LT", 20),
    ("LU", 20),
    ("LV", 21),
    ("LY", 25),
    ("MC", 27),
    ("MD", 24),
    ("ME", 22),
    ("MK", 19),
    ("MN", 20),
    ("MR", 27),
    ("MT", 31),
    ("MU", 30),
    ("NI", 28),
    ("NL", 18),
    ("NO", 15),
    ("OM", 23),
    ("PK", 24),
    ("PL", 28),
    ("PS", 29),
    ("PT", 25),
    ("QA", 29),
    ("RO", 24),
    ("RS", 22),
    ("RU", 33),
    ("SA", 24),
    ("SC", 31),
    ("SD", 18),
    ("SE", 24),
    ("SI", 19),
    ("SK", 24),
    ("SM", 27),
    ("SO", 23),
    ("ST", 25),
    ("SV", 28),
    ("TL", 23),
    ("TN", 24),
    ("TR", 26),
    ("UA", 29),
    ("VA", 22),
    ("VG", 24),
    ("XK", 20),
    ("YE", 30),
];

/// An IBAN, written whole or in groups ("GB82 WEST 1234 5698 7654 32"): its country's
/// length, ending at a group boundary, and the mod-97 check.
pub(super) fn iban(t: &Text) -> Option<SecretKind> {
    let upper_or_digit = |c: char| c.is_ascii_uppercase() || c.is_ascii_digit();
    for i in 0..t.len() {
        if !t.c[i].is_ascii_uppercase()
            || t.before(i).is_alphanumeric()
            || !t.at(i + 1).is_ascii_uppercase()
            || !t.at(i + 2).is_ascii_digit()
            || !t.at(i + 3).is_ascii_digit()
        {
            continue;
        }
        let country = [t.c[i] as u8, t.c[i + 1] as u8];
        let Ok(k) = IBAN_LENGTHS.binary_search_by(|(c, _)| c.as_bytes().cmp(&country[..])) else {
            continue;
        };
        let len = IBAN_LENGTHS[k].1;
        let mut chars: Vec<char> = t.c[i..i + 4].to_vec();
        let mut j = i + 4;
        while chars.len() < len {
            let c = t.at(j);
            if upper_or_digit(c) {
                chars.push(c);
            } else if !(c == ' ' && upper_or_digit(t.at(j + 1))) {
                break;
            }
            j += 1;
        }
        if chars.len() == len && !t.at(j).is_alphanumeric() && mod97(&chars) == 1 {
            return Some(SecretKind::BankAccount);
        }
    }
    None
}

/// The IBAN check: the first four characters moved to the end, letters as 10 to 35.
fn mod97(chars: &[char]) -> u32 {
    let mut rem = 0;
    for &c in chars[4..].iter().chain(&chars[..4]) {
        rem = match c.to_digit(36) {
            Some(d) if d < 10 => (rem * 10 + d) % 97,
            Some(d) => (rem * 100 + d) % 97,
            None => return 0,
        };
    }
    rem
}
