//! The engine options a page may set: only the strength options, each value checked against
//! the type and range the engine declared in its handshake before anything reaches the
//! engine.
//!
//! A value goes into `setoption name N value V`; unchecked, a value holding a line break
//! would become a command of its own (`Debug Log File`, which writes a file), and any value
//! within a line could ask for anything the option allows (`Hash 60000`). So the page names
//! an option of [`STRENGTH_OPTIONS`], and its value must be one the engine's own declaration
//! allows: an integer within `min..max` for a spin, `true`/`false` for a check, one of the
//! `var`s for a combo, printable text for a string, nothing for a button.

use super::bounds::{self, MAX_OPTION_VALUE, MAX_WORD};
use crate::protocol::command::truncate;
use crate::protocol::line::{self, escape};
use crate::protocol::options::OptionType;

/// The engine options the page may set: the strength options.
pub const STRENGTH_OPTIONS: [&str; 3] = ["UCI_LimitStrength", "UCI_Elo", "Skill Level"];

/// An option's declaration in `declared` (the engine's handshake: name, and what follows
/// `type `), by name in any case.
fn declaration<'a>(declared: &'a [(String, String)], name: &str) -> Option<&'a str> {
    declared
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, d)| d.as_str())
}

/// The strength options to set for a game: those `asked` for, each checked, and the others
/// the engine declares back at their declared defaults. Refuses any other option, one the
/// engine does not declare (or declares in a way that cannot be checked), one given twice,
/// and a value its declaration does not allow; the error names the option and what it
/// takes.
pub fn strength_options(
    declared: &[(String, String)],
    asked: &[(String, String)],
) -> Result<Vec<(String, Option<String>)>, String> {
    for (i, (name, _)) in asked.iter().enumerate() {
        bounds::text("the name of an engine option", name, MAX_WORD)?;
        let Some(official) = STRENGTH_OPTIONS
            .iter()
            .find(|o| o.eq_ignore_ascii_case(name))
        else {
            return Err(format!(
                "option '{name}' cannot be set from the page (only {})",
                STRENGTH_OPTIONS.join(", ")
            ));
        };
        if asked[..i].iter().any(|(n, _)| n.eq_ignore_ascii_case(name)) {
            return Err(format!("option '{official}' is given twice"));
        }
        if declaration(declared, name).is_none() {
            return Err(format!("the engine has no option '{official}'"));
        }
    }
    let mut set = Vec::new();
    for name in STRENGTH_OPTIONS {
        let Some(decl) = declaration(declared, name) else {
            continue;
        };
        let kind = OptionType::parse(decl);
        let value = match asked.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
            Some((_, v)) => {
                let kind = kind.map_err(|e| {
                    format!(
                        "the engine declares option '{name}' as '{}', which cannot be \
                         checked ({e}), so the page cannot set it",
                        escape(&truncate(decl, 80))
                    )
                })?;
                checked_value(name, &kind, v)?
            }
            // An option whose declaration cannot be read, or whose default could not be
            // sent, is left as it is.
            None => match kind.ok().and_then(|k| k.default_text()) {
                Some(d) if line::check("", &d).is_ok() && d.len() <= MAX_OPTION_VALUE => Some(d),
                _ => continue,
            },
        };
        set.push((name.to_string(), value));
    }
    Ok(set)
}

/// `value` for option `name` of type `kind`, as it is to be sent (`None`: a button press),
/// or why it is refused.
fn checked_value(name: &str, kind: &OptionType, value: &str) -> Result<Option<String>, String> {
    let takes = || format!("option '{name}' takes {}", kind.allowed());
    line::check(&format!("the value of option '{name}'"), value)
        .map_err(|e| format!("{e}; {}", takes()))?;
    if value.len() > MAX_OPTION_VALUE {
        return Err(format!(
            "the value of option '{name}' is {} bytes long (at most {MAX_OPTION_VALUE}); {}",
            value.len(),
            takes()
        ));
    }
    if *kind == OptionType::Button {
        return match value {
            "" => Ok(None),
            _ => Err(takes()),
        };
    }
    kind.check(name, Some(value))
        .map(|v| v.text())
        .map_err(|_| format!("{}, not '{}'", takes(), truncate(value, 40)))
}

/// How the engine's seat names its strength: " (Elo N)" with `UCI_LimitStrength`, " (level
/// N)" with a `Skill Level` other than the declared default, nothing at full strength.
pub fn strength_label(
    options: &[(String, Option<String>)],
    declared: Option<&[(String, String)]>,
) -> String {
    let value = |name: &str| {
        options
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .and_then(|(_, v)| v.as_deref())
    };
    if value("UCI_LimitStrength").is_some_and(|v| v.eq_ignore_ascii_case("true"))
        && let Some(elo) = value("UCI_Elo")
    {
        return format!(" (Elo {elo})");
    }
    let default = declared
        .and_then(|d| declaration(d, "Skill Level"))
        .and_then(|d| OptionType::parse(d).ok())
        .and_then(|k| k.default_text());
    match value("Skill Level") {
        Some(level) if Some(level) != default.as_deref() => format!(" (level {level})"),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strata() -> Vec<(String, String)> {
        [
            ("Hash", "spin default 16 min 1 max 65536"),
            ("Skill Level", "spin default 20 min 0 max 20"),
            ("UCI_LimitStrength", "check default false"),
            ("UCI_Elo", "spin default 1500 min 400 max 2430"),
            ("Debug Log File", "string default <empty>"),
        ]
        .iter()
        .map(|(n, d)| (n.to_string(), d.to_string()))
        .collect()
    }

    fn ask(pairs: &[(&str, &str)]) -> Result<Vec<(String, Option<String>)>, String> {
        let asked: Vec<(String, String)> = pairs
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect();
        strength_options(&strata(), &asked)
    }

    #[test]
    fn values_are_checked_by_their_declared_type_and_range() {
        let set = ask(&[("uci_limitstrength", "true"), ("UCI_Elo", "1600")]).unwrap();
        let pairs = |s: &[(String, Option<String>)]| -> Vec<(String, String)> {
            s.iter()
                .map(|(n, v)| (n.clone(), v.clone().unwrap_or_default()))
                .collect()
        };
        assert_eq!(
            pairs(&set),
            [
                ("UCI_LimitStrength".to_string(), "true".to_string()),
                ("UCI_Elo".into(), "1600".into()),
                ("Skill Level".into(), "20".into()),
            ]
        );
        assert_eq!(strength_label(&set, Some(&strata())), " (Elo 1600)");
        let e = ask(&[(
            "UCI_Elo",
            "1500\nsetoption name Debug Log File value /tmp/x",
        )])
        .unwrap_err();
        assert!(
            e.contains("option 'UCI_Elo' holds a line break")
                && e.contains("takes an integer from 400 to 2430"),
            "{e}"
        );
        assert_eq!(
            ask(&[("UCI_Elo", "99999")]).unwrap_err(),
            "option 'UCI_Elo' takes an integer from 400 to 2430, not '99999'"
        );
        assert!(
            ask(&[("UCI_LimitStrength", "yes")])
                .unwrap_err()
                .contains("true or false")
        );
        assert!(
            ask(&[("Hash", "60000")])
                .unwrap_err()
                .contains("cannot be set")
        );
        assert!(
            ask(&[("Debug Log File", "/x")])
                .unwrap_err()
                .contains("cannot be set")
        );
        assert!(
            ask(&[("UCI_Elo", "1600"), ("uci_elo", "1700")])
                .unwrap_err()
                .contains("twice")
        );
        let e = ask(&[("UCI_Elo\n", "1")]).unwrap_err();
        assert!(e.contains("holds a line break"), "{e}");
        let e = strength_options(&strata()[..1], &[("UCI_Elo".into(), "1600".into())]);
        assert!(e.unwrap_err().contains("has no option 'UCI_Elo'"));
    }

    #[test]
    fn defaults_come_from_the_declarations() {
        let set = ask(&[]).unwrap();
        assert_eq!(
            set,
            [
                ("UCI_LimitStrength".to_string(), Some("false".to_string())),
                ("UCI_Elo".into(), Some("1500".into())),
                ("Skill Level".into(), Some("20".into())),
            ]
        );
        assert_eq!(strength_label(&set, Some(&strata())), "");
        // An engine whose declaration cannot be read: left alone unless asked, refused if
        // asked.
        let odd = vec![("Skill Level".to_string(), "spin default high".to_string())];
        assert_eq!(strength_options(&odd, &[]), Ok(Vec::new()));
        assert!(
            strength_options(&odd, &[("Skill Level".into(), "3".into())])
                .unwrap_err()
                .contains("cannot be checked")
        );
    }
}
