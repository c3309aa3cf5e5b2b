//! Payment card numbers: 13 to 19 digits with the Luhn check, read with the words around
//! them. A Luhn-valid number is as often an order, tracking or invoice number (about one
//! number in ten passes the check by chance), so the words decide: "card", "Visa", "expires"
//! make it a card, "order", "shipped", "tracking" an order number, and a number alone is
//! taken for a card, since refusing is the safer error.

use super::SecretKind;
use super::text::Text;
use super::words::WordSet;

/// Words that make a number a card, before or after it.
static CARD_WORDS: WordSet = WordSet::new(
    "card cards visa mastercard amex american discover maestro jcb diners unionpay credit debit cvv cvc
     cvv2 cvc2 exp expiry expires expiring expiration thru cardholder prepaid",
);

/// Words that make a number a reference to something ordered, sent or registered.
static REFERENCE_WORDS: WordSet = WordSet::new(
    "order orders ordered tracking track tracked shipped shipping shipment delivery delivered parcel
     package invoice receipt confirmation booking reservation reference ref ticket claim case imei serial
     refund return waybill consignment awb",
);

/// How many words on each side of a number are read for its meaning.
const CONTEXT_WORDS: usize = 6;

/// 13 to 19 digits that pass the Luhn check and start as card numbers do (2 to 6), written
/// whole or in groups of 3 to 7 separated by a space, dash or dot, and not said to be an
/// order or tracking number. A run of groups is tried at every group boundary, so "paid
/// 2024 4111 1111 1111 1111" is still found.
pub(super) fn card_number(t: &Text) -> Option<SecretKind> {
    let mut digits: Vec<u32> = Vec::new();
    let mut groups: Vec<(usize, usize)> = Vec::new(); // (start in `digits`, length)
    let mut cur = 0;
    let mut run_start = 0;
    for i in 0..=t.len() {
        let c = t.at(i);
        if c.is_ascii_digit() {
            if digits.is_empty() {
                run_start = i;
            }
            digits.push(c as u32 - '0' as u32);
            cur += 1;
            continue;
        }
        if digits.is_empty() {
            continue;
        }
        if cur > 0 {
            groups.push((digits.len() - cur, cur));
            cur = 0;
        }
        let separator = matches!(c, ' ' | '-' | '.' | '\u{a0}' | '\u{2009}' | '\u{202f}');
        if separator && t.before(i).is_ascii_digit() && t.at(i + 1).is_ascii_digit() {
            continue;
        }
        // Digits inside a word ("a1b2...", hex hashes) are not a card number, nor is a
        // number after "+" (a phone number).
        let in_word = t.before(run_start).is_alphabetic() || c.is_alphabetic();
        let phone = t.before(run_start) == '+';
        if !in_word && !phone && card_in_run(&digits, &groups) && said_to_be_card(t, run_start, i) {
            return Some(SecretKind::CardNumber);
        }
        digits.clear();
        groups.clear();
    }
    None
}

/// Whether the words around the number from `s` to `e` leave it a card: a card word, or
/// no word that makes it a reference. Reading stops at a line break.
fn said_to_be_card(t: &Text, s: usize, e: usize) -> bool {
    let mut reference = false;
    let mut judge = |from: usize, to: usize| {
        let word = t.lower_string(from, to);
        let word = word.trim_matches(|c: char| !c.is_alphanumeric());
        if CARD_WORDS.contains(word) {
            return Some(true);
        }
        reference |= REFERENCE_WORDS.contains(word);
        None
    };
    let mut pos = s;
    for _ in 0..CONTEXT_WORDS {
        let Some((ws, we)) = t.prev_word(pos) else { break };
        if t.c[we..pos].contains(&'\n') {
            break;
        }
        if let Some(card) = judge(ws, we) {
            return card;
        }
        pos = ws;
    }
    let mut pos = e;
    for _ in 0..CONTEXT_WORDS {
        let Some((ws, we)) = t.next_word(pos) else { break };
        if t.c[pos..ws].contains(&'\n') {
            break;
        }
        if let Some(card) = judge(ws, we) {
            return card;
        }
        pos = we;
    }
    !reference
}

fn card_in_run(digits: &[u32], groups: &[(usize, usize)]) -> bool {
    let grouped = |len: usize| (3..=7).contains(&len);
    for g0 in 0..groups.len() {
        let mut total = 0;
        for g1 in g0..groups.len() {
            if g1 > g0 && !(grouped(groups[g0].1) && grouped(groups[g1].1)) {
                break;
            }
            total += groups[g1].1;
            if total > 19 {
                break;
            }
            // Whole numbers stop at 16 digits: longer ones are ids ("381444945443732332")
            // far more often than 19-digit cards, which are written in groups.
            if total >= 13 && (g1 > g0 || total <= 16) {
                let number = &digits[groups[g0].0..groups[g0].0 + total];
                if (2..=6).contains(&number[0]) && luhn(number) {
                    return true;
                }
            }
        }
    }
    false
}

fn luhn(digits: &[u32]) -> bool {
    let sum: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &d)| {
            if i % 2 == 1 {
                if d * 2 > 9 { d * 2 - 9 } else { d * 2 }
            } else {
                d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}
