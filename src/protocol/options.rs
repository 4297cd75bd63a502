//! The engine's UCI options: their declarations (printed by `uci`) and value checking.

use super::command::truncate;
use crate::rules::Variant;
use crate::search::elo;
use crate::search::skill::FULL_LEVEL;

/// The type and range of an option.
#[derive(Clone, Debug)]
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
        let need = |v: Option<&str>| {
            v.map(str::to_string)
                .ok_or(format!("option '{}' needs a value", self.name))
        };
        match &self.kind {
            OptionType::Spin { min, max, .. } => {
                let v = need(value)?;
                let n: i64 = v.parse().map_err(|_| {
                    format!(
                        "option '{}': '{}' is not an integer",
                        self.name,
                        truncate(&v, 40)
                    )
                })?;
                if n < *min || n > *max {
                    return Err(format!(
                        "option '{}': {n} is out of range {min}..{max}",
                        self.name
                    ));
                }
                Ok(OptionValue::Int(n))
            }
            OptionType::Check { .. } => match need(value)?.as_str() {
                "true" => Ok(OptionValue::Bool(true)),
                "false" => Ok(OptionValue::Bool(false)),
                v => Err(format!(
                    "option '{}': '{}' is not true or false",
                    self.name,
                    truncate(v, 40)
                )),
            },
            OptionType::Combo { vars, .. } => {
                let v = need(value)?;
                match vars.iter().find(|x| x.eq_ignore_ascii_case(&v)) {
                    Some(x) => Ok(OptionValue::Text(x.clone())),
                    None => Err(format!(
                        "option '{}': unknown value '{}' (one of: {})",
                        self.name,
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
}
