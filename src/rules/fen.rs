//! The parts of reading a FEN that every variant shares: its fields, a bracketed part after
//! the placement (Pole Chess's Poles, Polyhedron's reserves), and the side to move of a
//! two-colour game. The placement itself is [`super::placement`]; the clocks are
//! [`super::clocks::Clocks::read`].

use super::piece::Colour;

/// The whitespace-separated fields of `fen`: at least the placement and the side to move, at
/// most `names.len()` (`names` says what they are, for the error message).
pub fn fields<'a>(fen: &'a str, names: &[&str]) -> Result<Vec<&'a str>, String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() < 2 {
        return Err(format!(
            "FEN needs at least placement and side to move, got {} field(s)",
            fields.len()
        ));
    }
    if fields.len() > names.len() {
        return Err(format!(
            "FEN has {} fields, at most {} are allowed ({})",
            fields.len(),
            names.len(),
            names.join(", ")
        ));
    }
    Ok(fields)
}

/// Splits `placement[inside]` into the placement and what is inside the brackets (`None`
/// without brackets); `what` names the bracketed part for the error message.
pub fn bracketed<'a>(field: &'a str, what: &str) -> Result<(&'a str, Option<&'a str>), String> {
    match field.find('[') {
        None => Ok((field, None)),
        Some(_) if !field.ends_with(']') => Err(format!("FEN {what} must end with ']'")),
        Some(i) => Ok((&field[..i], Some(&field[i + 1..field.len() - 1]))),
    }
}

/// The side to move of a two-colour game: `w` or `b`.
pub fn two_colour_side(field: &str) -> Result<Colour, String> {
    match field {
        "w" => Ok(Colour::WHITE),
        "b" => Ok(Colour::BLACK),
        other => Err(format!(
            "FEN side to move must be 'w' or 'b', got '{other}'"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_fen_parts() {
        let names = ["placement", "side", "halfmove", "fullmove"];
        assert_eq!(fields("a w 0 1", &names).unwrap(), ["a", "w", "0", "1"]);
        assert!(fields("a", &names).unwrap_err().contains("at least"));
        let e = fields("a w 0 1 2", &names).unwrap_err();
        assert!(e.contains("at most 4") && e.contains("halfmove"), "{e}");
        assert_eq!(bracketed("x[Oo]", "holdings").unwrap(), ("x", Some("Oo")));
        assert_eq!(bracketed("x", "holdings").unwrap(), ("x", None));
        assert!(
            bracketed("x[O", "holdings")
                .unwrap_err()
                .contains("holdings")
        );
        assert_eq!(two_colour_side("b"), Ok(Colour::BLACK));
        assert!(two_colour_side("g").is_err());
    }
}
