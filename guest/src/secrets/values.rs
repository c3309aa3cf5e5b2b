//! The shape of a value, shared by the detectors: wrapping quotes, placeholders and references
//! that stand for a secret, and token, PIN and CVV shapes.

/// Removes quotes and brackets around a word: "(hunter2)" reads as "hunter2".
pub(super) fn strip_wrapping(value: &str) -> String {
    value
        .trim_start_matches(['"', '\'', '`', '(', '“', '‘', '«', '「', '『', '„'])
        .trim_end_matches(['"', '\'', '`', ')', '”', '’', '»', '」', '』'])
        .to_owned()
}

pub(super) fn closing_quote(c: char) -> Option<char> {
    Some(match c {
        '"' => '"',
        '\'' => '\'',
        '`' => '`',
        '“' => '”',
        '‘' => '’',
        '«' => '»',
        '「' => '」',
        '『' => '』',
        '„' => '“',
        _ => return None,
    })
}

/// Placeholders and references stand for a secret without being one: `****`, `<password>`,
/// `${DB_PASSWORD}`, `your_api_key_here`, `os.environ["TOKEN"]`.
pub(super) fn is_placeholder(value: &str) -> bool {
    let value = value.trim();
    let lower = value.to_lowercase();
    let inner = lower.trim_matches(['"', '\'', '`']);
    if inner.is_empty()
        || inner
            .chars()
            .all(|c| matches!(c, '*' | '•' | '●' | 'x' | '.' | '#' | '?' | '_' | '-' | '…'))
    {
        return true;
    }
    let wrapped = |open: char, close: char| inner.starts_with(open) && inner.ends_with(close);
    if wrapped('[', ']') || inner.starts_with(['<', '{']) || inner.starts_with("${") || inner.starts_with("%(") {
        return true; // <password>, {{token}}, ${TOKEN}, [redacted]
    }
    if let Some(var) = value.strip_prefix('$')
        && !var.is_empty()
        && var
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    {
        return true; // $DB_PASSWORD
    }
    if matches!(
        inner,
        "redacted"
            | "hidden"
            | "removed"
            | "omitted"
            | "none"
            | "null"
            | "nil"
            | "undefined"
            | "n/a"
            | "tbd"
            | "todo"
            | "true"
            | "false"
            | "placeholder"
    ) {
        return true;
    }
    // Code: type annotations (`password: &str`, `pw: u32`, `Option<String>`), paths
    // (`sys::PASS`) and field accesses (`node.token`).
    let primitive = inner.trim_start_matches('_');
    if inner.starts_with('&')
        || inner.contains("::")
        || matches!(
            primitive,
            "str"
                | "string"
                | "text"
                | "varchar"
                | "bytes"
                | "int"
                | "integer"
                | "bool"
                | "boolean"
                | "secretstring"
                | "u8"
                | "u16"
                | "u32"
                | "u64"
                | "u128"
                | "usize"
                | "i8"
                | "i16"
                | "i32"
                | "i64"
                | "i128"
                | "isize"
        )
        || generic_type(value)
        || field_path(value)
    {
        return true;
    }
    if inner.starts_with("your") || inner.ends_with("_here") || inner.ends_with("-here") {
        return true; // your_api_key_here, YOUR-TOKEN
    }
    inner.contains('(')
        || [
            "os.",
            "process.env",
            "env.",
            "env[",
            "secrets.",
            "settings.",
            "config.",
            "self.",
            "this.",
            "vault:",
        ]
        .iter()
        .any(|r| inner.starts_with(r))
}

/// `Option<...`, `Vec<u8>`: an identifier directly followed by `<`.
fn generic_type(value: &str) -> bool {
    value
        .split_once('<')
        .is_some_and(|(head, _)| !head.is_empty() && head.chars().all(|c| c.is_ascii_alphanumeric()))
}

/// `node.colon2_token`, `config.db.password`: identifiers joined by dots, the first a plain
/// lower-case word, as random tokens never begin.
fn field_path(value: &str) -> bool {
    let mut segments = value.split('.');
    let first = segments.next().unwrap_or("");
    let ident = |s: &str| {
        s.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    value.contains('.')
        && first.len() >= 2
        && first.chars().all(|c| c.is_ascii_lowercase() || c == '_')
        && segments.all(ident)
}

/// Whether a value is shaped like a key or token: long, from the token alphabet, and
/// machine-made (digits and letters, or both cases).
pub(super) fn token_like(value: &str, min: usize) -> bool {
    let chars: Vec<char> = value.chars().collect();
    if chars.len() < min {
        return false;
    }
    let upper = chars.iter().any(|c| c.is_ascii_uppercase());
    let lower = chars.iter().any(|c| c.is_ascii_lowercase());
    let digit = chars.iter().any(|c| c.is_ascii_digit());
    // Identifiers ("_bindgen_ty_5", "v1.2.3-beta") switch between letters and digits once or
    // twice; random strings do so often.
    let alnum: Vec<char> = chars.iter().copied().filter(char::is_ascii_alphanumeric).collect();
    let switches = alnum
        .windows(2)
        .filter(|w| w[0].is_ascii_digit() != w[1].is_ascii_digit())
        .count();
    chars.len() >= min
        && chars
            .iter()
            .all(|&c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/' | '+' | '=' | '~' | '%'))
        && (upper || lower)
        && ((digit && (switches >= 3 || (upper && lower))) || (upper && lower && chars.len() >= 20))
        && !is_placeholder(value)
}

/// A numeric code: digits, with the separators people type.
pub(super) fn pin_like(value: &str, min_digits: usize) -> bool {
    let value = value.trim_matches(['#', '*']);
    let digits = value.chars().filter(|c| c.is_ascii_digit()).count();
    (min_digits..=12).contains(&digits)
        && value
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '-' | ' ' | '.'))
}

pub(super) fn cvv_like(value: &str) -> bool {
    (3..=4).contains(&value.chars().count()) && value.chars().all(|c| c.is_ascii_digit())
}
