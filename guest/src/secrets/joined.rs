//! Languages written without spaces between words (Chinese, Japanese, Korean, Thai): a
//! trigger needs no word boundary, and particles such as 是 or は join it to its value.

use super::SecretKind;
use super::passwords::{is_description, password_like};
use super::text::Text;
use super::values::{closing_quote, is_placeholder, pin_like};
use super::words::Class;

/// Scripts written without spaces between words, where a trigger needs no word boundary.
pub(super) fn is_joined_script(c: char) -> bool {
    matches!(c as u32,
        0x0E00..=0x0E7F // Thai
        | 0x1100..=0x11FF | 0xAC00..=0xD7AF // Hangul
        | 0x3040..=0x30FF // kana
        | 0x3400..=0x4DBF | 0x4E00..=0x9FFF // CJK ideographs
    )
}

/// Values in languages written without spaces: after a particle (是, は, 는) or a colon, the
/// run of non-ideographic characters is the value.
pub(super) fn joined_value(t: &Text, end: usize, class: Class) -> Option<SecretKind> {
    const PARTICLES: &[&str] = &[
        "是",
        "为",
        "為",
        "は",
        "が",
        "も",
        "는",
        "은",
        "이",
        "가",
        "를",
        "을",
        "คือ",
        ":",
        "=",
        "-",
    ];
    let mut v = end;
    let mut particle = false;
    'skip: while v - end < 8 {
        if t.at(v).is_whitespace() || closing_quote(t.at(v)).is_some() {
            v += 1;
            continue;
        }
        for p in PARTICLES {
            if let Some(e) = t.match_at(v, p) {
                particle = true;
                v = e;
                continue 'skip;
            }
        }
        break;
    }
    let s = v;
    while v - s < 128 {
        let c = t.at(v);
        if c == '\0'
            || c.is_whitespace()
            || is_joined_script(c)
            || matches!(c, '。' | '、' | '」' | '』' | '”' | '"' | '\'' | ')')
        {
            break;
        }
        v += 1;
    }
    let value = t.string(s, v).trim_end_matches(['.', ',', '!', '?']).to_owned();
    let found = match class {
        Class::Pin => pin_like(&value, 4),
        _ if particle => !value.is_empty() && !is_placeholder(&value) && !is_description(&value),
        _ => password_like(&value),
    };
    found.then_some(SecretKind::Password)
}
