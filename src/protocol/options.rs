//! The engine's UCI options: their declarations (printed by `uci`) and value checking.

use super::command::truncate;
use crate::rules::Variant;
use crate::search::elo;
use crate::search::skill::FULL_LEVEL;

/// The type and range of an option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionType {
    /// An integer in `min..=max`.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// `true` or `false`.
    Check {
        /// Default value.
        default: bool,
    },
    /// One of a list of words.
    Combo {
        /// Default value.
        default: String,
        /// The allowed values.
        vars: Vec<String>,
    },
    /// Free text.
    Text {
        /// Default value (`<empty>` is printed for "").
        default: String,
    },
    /// An action without a value.
    Button,
}

/// An option's declaration.
#[derive(Clone, Debug)]
pub struct OptionDecl {
    /// Name, as in `setoption name <name>` (case-insensitive on input).
    pub name: &'static str,
    /// Type and range.
    pub kind: OptionType,
}

/// A checked option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// A spin value.
    Int(i64),
    /// A check value.
    Bool(bool),
    /// A combo or string value.
    Text(String),
    /// A button press.
    Pressed,
}

impl OptionDecl {
    /// The `option ...` line printed by `uci`.
    pub fn uci_line(&self) -> String {
        match &self.kind {
            OptionType::Spin { default, min, max } => {
                format!(
                    "option name {} type spin default {default} min {min} max {max}",
                    self.name
                )
            }
            OptionType::Check { default } => {
                format!("option name {} type check default {default}", self.name)
            }
            OptionType::Combo { default, vars } => {
                let vars: Vec<String> = vars.iter().map(|v| format!("var {v}")).collect();
                format!(
                    "option name {} type combo default {default} {}",
                    self.name,
                    vars.join(" ")
                )
            }
            OptionType::Text { default } => format!(
                "option name {} type string default {}",
                self.name,
                if default.is_empty() {
                    "<empty>"
                } else {
                    default
                }
            ),
            OptionType::Button => format!("option name {} type button", self.name),
        }
    }

    /// Checks a `setoption` value against the declaration.
    pub fn check(&self, value: Option<&str>) -> Result<OptionValue, String> {
        self.kind.check(self.name, value)
    }
}

/// The words a declaration's fields start with (`default 1500 min 400 max 2430`).
const FIELD_WORDS: [&str; 4] = ["default", "min", "max", "var"];

impl OptionType {
    /// Reads the type and range of an option from the `option` line of an engine's handshake:
    /// the part after `type ` (`spin default 1500 min 400 max 2430`, `check default false`,
    /// `combo default Normal var Solid var Normal`, `string default <empty>`, `button`).
    /// Used by `strata gui` to check the values a page asks for against what its engine
    /// declared. A field's value runs to the next field word, so a combo's `var` may hold
    /// spaces; a string's default runs to the end of the line.
    pub fn parse(declaration: &str) -> Result<OptionType, String> {
        let mut words = declaration.split_whitespace();
        let kind = words.next().ok_or("the declaration is empty")?;
        let rest: Vec<&str> = words.collect();
        if kind == "string" {
            let default = match rest.iter().position(|&w| w == "default") {
                Some(i) => rest[i + 1..].join(" "),
                None => String::new(),
            };
            let default = if default == "<empty>" {
                String::new()
            } else {
                default
            };
            return Ok(OptionType::Text { default });
        }
        // (field word, its value) in order.
        let mut fields: Vec<(&str, Vec<&str>)> = Vec::new();
        for w in rest {
            if FIELD_WORDS.contains(&w) {
                fields.push((w, Vec::new()));
            } else if let Some((_, value)) = fields.last_mut() {
                value.push(w);
            } else {
                return Err(format!("'{w}' is not a field of a {kind} declaration"));
            }
        }
        let field = |name: &str| {
            fields
                .iter()
                .find(|(f, _)| *f == name)
                .map(|(_, v)| v.join(" "))
        };
        let number = |name: &str| -> Result<i64, String> {
            let v = field(name).ok_or(format!("a spin declaration needs '{name}'"))?;
            v.parse()
                .map_err(|_| format!("the {name} of a spin, '{v}', is not an integer"))
        };
        match kind {
            "spin" => {
                let (default, min, max) = (number("default")?, number("min")?, number("max")?);
                if min > max {
                    return Err(format!("a spin from {min} to {max} holds no value"));
                }
                Ok(OptionType::Spin { default, min, max })
            }
            "check" => match field("default").as_deref() {
                Some("true") => Ok(OptionType::Check { default: true }),
                Some("false") => Ok(OptionType::Check { default: false }),
                _ => Err("a check declaration needs 'default true' or 'default false'".into()),
            },
            "combo" => {
                let vars: Vec<String> = fields
                    .iter()
                    .filter(|(f, _)| *f == "var")
                    .map(|(_, v)| v.join(" "))
                    .collect();
                if vars.is_empty() {
                    return Err("a combo declaration needs at least one 'var'".into());
                }
                Ok(OptionType::Combo {
                    default: field("default").unwrap_or_default(),
                    vars,
                })
            }
            "button" if fields.is_empty() => Ok(OptionType::Button),
            "button" => Err("a button declaration has no fields".into()),
            other => Err(format!("unknown option type '{other}'")),
        }
    }

    /// The values the option takes, in words: `an integer from 400 to 2430`.
    pub fn allowed(&self) -> String {
        match self {
            OptionType::Spin { min, max, .. } => format!("an integer from {min} to {max}"),
            OptionType::Check { .. } => "true or false".into(),
            OptionType::Combo { vars, .. } => format!("one of: {}", vars.join(", ")),
            OptionType::Text { .. } => "text".into(),
            OptionType::Button => "no value (it is a button)".into(),
        }
    }

    /// The default value as `setoption` writes it (`None` for a button).
    pub fn default_text(&self) -> Option<String> {
        match self {
            OptionType::Spin { default, .. } => Some(default.to_string()),
            OptionType::Check { default } => Some(default.to_string()),
            OptionType::Combo { default, .. } | OptionType::Text { default } => {
                Some(default.clone())
            }
            OptionType::Button => None,
        }
    }

    /// Checks a `setoption` value for option `name` against this type and range.
    pub fn check(&self, name: &str, value: Option<&str>) -> Result<OptionValue, String> {
        let need = |v: Option<&str>| {
            v.map(str::to_string)
                .ok_or(format!("option '{name}' needs a value"))
        };
        match self {
            OptionType::Spin { min, max, .. } => {
                let v = need(value)?;
                let n: i64 = v.parse().map_err(|_| {
                    format!("option '{name}': '{}' is not an integer", truncate(&v, 40))
                })?;
                if n < *min || n > *max {
                    return Err(format!("option '{name}': {n} is out of range {min}..{max}"));
                }
                Ok(OptionValue::Int(n))
            }
            OptionType::Check { .. } => match need(value)?.as_str() {
                "true" => Ok(OptionValue::Bool(true)),
                "false" => Ok(OptionValue::Bool(false)),
                v => Err(format!(
                    "option '{name}': '{}' is not true or false",
                    truncate(v, 40)
                )),
            },
            OptionType::Combo { vars, .. } => {
                let v = need(value)?;
                match vars.iter().find(|x| x.eq_ignore_ascii_case(&v)) {
                    Some(x) => Ok(OptionValue::Text(x.clone())),
                    None => Err(format!(
                        "option '{name}': unknown value '{}' (one of: {})",
                        truncate(&v, 40),
                        vars.join(", ")
                    )),
                }
            }
            OptionType::Text { .. } => Ok(OptionValue::Text(value.unwrap_or("").to_string())),
            OptionType::Button => Ok(OptionValue::Pressed),
        }
    }
}

impl OptionValue {
    /// The value as `setoption ... value V` writes it (`None` for a button press).
    pub fn text(&self) -> Option<String> {
        match self {
            OptionValue::Int(n) => Some(n.to_string()),
            OptionValue::Bool(b) => Some(b.to_string()),
            OptionValue::Text(t) => Some(t.clone()),
            OptionValue::Pressed => None,
        }
    }
}

/// Default transposition table size in MiB.
pub const DEFAULT_HASH: i64 = 16;

/// The options this engine declares.
pub fn declarations() -> Vec<OptionDecl> {
    let spin = |name, default, min, max| OptionDecl {
        name,
        kind: OptionType::Spin { default, min, max },
    };
    vec![
        OptionDecl {
            name: "UCI_Variant",
            kind: OptionType::Combo {
                default: Variant::Chess.name().to_string(),
                vars: Variant::available()
                    .iter()
                    .map(|v| v.name().to_string())
                    .collect(),
            },
        },
        OptionDecl {
            name: "VariantPath",
            kind: OptionType::Text {
                default: String::new(),
            },
        },
        OptionDecl {
            name: "EvalFile",
            kind: OptionType::Text {
                default: String::new(),
            },
        },
        OptionDecl {
            name: "UCI_Chess960",
            kind: OptionType::Check { default: false },
        },
        spin("Threads", 1, 1, 512),
        spin("Hash", DEFAULT_HASH, 1, 65536),
        OptionDecl {
            name: "Clear Hash",
            kind: OptionType::Button,
        },
        spin("MultiPV", 1, 1, 256),
        spin(
            "Move Overhead",
            crate::search::DEFAULT_MOVE_OVERHEAD_MS as i64,
            0,
            5000,
        ),
        OptionDecl {
            name: "Ponder",
            kind: OptionType::Check { default: false },
        },
        spin("Skill Level", FULL_LEVEL as i64, 0, FULL_LEVEL as i64),
        OptionDecl {
            name: "UCI_LimitStrength",
            kind: OptionType::Check { default: false },
        },
        spin("UCI_Elo", elo::DEFAULT_ELO, elo::MIN_ELO, elo::MAX_ELO),
        spin("Seed", 0, 0, i64::from(u32::MAX)),
        OptionDecl {
            name: "Debug Log File",
            kind: OptionType::Text {
                default: String::new(),
            },
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_values() {
        let spin = OptionDecl {
            name: "Hash",
            kind: OptionType::Spin {
                default: 16,
                min: 1,
                max: 1024,
            },
        };
        assert_eq!(spin.check(Some("64")), Ok(OptionValue::Int(64)));
        assert!(spin.check(Some("0")).unwrap_err().contains("out of range"));
        assert!(
            spin.check(Some("lots"))
                .unwrap_err()
                .contains("not an integer")
        );
        assert!(spin.check(None).is_err());
        let long = "9".repeat(100_000);
        assert!(spin.check(Some(&long)).unwrap_err().len() < 200);
        assert_eq!(
            spin.uci_line(),
            "option name Hash type spin default 16 min 1 max 1024"
        );
        let variant = &declarations()[0];
        assert_eq!(
            variant.check(Some("pole")),
            Ok(OptionValue::Text("pole".into()))
        );
        assert!(
            variant
                .check(Some("checkers"))
                .unwrap_err()
                .contains("unknown value")
        );
    }

    #[test]
    fn declarations_are_read_back() {
        // Every option this engine declares reads back as itself.
        for d in declarations() {
            let line = d.uci_line();
            let (_, tail) = line.split_once(" type ").unwrap();
            assert_eq!(OptionType::parse(tail), Ok(d.kind.clone()), "{line}");
        }
        assert_eq!(
            OptionType::parse("combo default Very Strong var Weak var Very Strong"),
            Ok(OptionType::Combo {
                default: "Very Strong".into(),
                vars: vec!["Weak".into(), "Very Strong".into()],
            })
        );
        assert_eq!(
            OptionType::parse("string default a min b"),
            Ok(OptionType::Text {
                default: "a min b".into()
            })
        );
        for bad in [
            "",
            "spin default 1 min 5 max 2",
            "spin default 1 max 2",
            "spin default x min 0 max 2",
            "check default maybe",
            "combo default a",
            "button default 1",
            "slider default 1",
            "spin 5 default 1 min 0 max 9",
        ] {
            assert!(OptionType::parse(bad).is_err(), "{bad}");
        }
        let elo = OptionType::parse("spin default 1500 min 400 max 2430").unwrap();
        assert_eq!(elo.allowed(), "an integer from 400 to 2430");
        assert_eq!(elo.default_text().as_deref(), Some("1500"));
        assert_eq!(
            elo.check("UCI_Elo", Some("99999")),
            Err("option 'UCI_Elo': 99999 is out of range 400..2430".into())
        );
        assert_eq!(
            elo.check("UCI_Elo", Some("+1600")).map(|v| v.text()),
            Ok(Some("1600".into()))
        );
    }
}
