//! What the page is told about the variants and the position, built from the rules layer
//! alone: layouts from the geometry, the levels' stacking order from each variant's
//! [`VariantInfo`](crate::rules::VariantInfo), pieces from each variant's table, legal moves,
//! holdings, Kings in danger, full names and one line each. Nothing here is written for one
//! variant.

use super::messages::{CellView, LegalMove, LevelView, PieceView, VariantView};
use super::rules_pages;
use crate::rules::bitset::Cell;
use crate::rules::info::LevelOrder;
use crate::rules::piece::Colour;
use crate::rules::{AnyGame, Game, MoveFlag, MoveList, Variant};

/// A board in words, from its layout: "one 8x8 board", "5 levels of 5x5", "3 levels: 6x6,
/// 8x8, 6x6".
fn board_words(layout: &crate::rules::geometry::Layout) -> String {
    let sizes: Vec<String> = layout
        .levels
        .iter()
        .map(|l| {
            format!(
                "{}x{}",
                l.files.1 - l.files.0 + 1,
                l.ranks.1 - l.ranks.0 + 1
            )
        })
        .collect();
    match sizes.as_slice() {
        [one] => format!("one {one} board"),
        [first, ..] if sizes.iter().all(|s| s == first) => {
            format!("{} levels of {first}", sizes.len())
        }
        _ => format!("{} levels: {}", sizes.len(), sizes.join(", ")),
    }
}

/// The name players know `v` by, and what is special about it in one line.
pub fn title_and_summary(v: Variant) -> (String, String) {
    let summary = match v {
        Variant::Defined(d) => {
            let board = board_words(&v.layout());
            match (&d.0.summary, &d.0.source) {
                (s, _) if !s.is_empty() => s.clone(),
                (_, source) if source.is_empty() => format!("{board}, from a variant file"),
                (_, source) => format!("{board}, from a variant file: {source}"),
            }
        }
        _ => v.info().summary.to_string(),
    };
    (v.title().to_string(), summary)
}

/// A variant as the page draws it.
pub fn variant_view(v: Variant) -> VariantView {
    let info = v.info();
    let layout = v.layout();
    let levels = layout.levels.len();
    let (title, summary) = title_and_summary(v);
    VariantView {
        name: v.name(),
        title,
        summary,
        rules_page: rules_pages::page_for(v),
        from_file: v.is_defined(),
        source: match v {
            Variant::Defined(d) => Some(d.0.source.clone()),
            _ => None,
        },
        colours: info.colours,
        start_fen: info.start_fen,
        levels: layout
            .levels
            .iter()
            .enumerate()
            .map(|(z, l)| LevelView {
                letter: l.letter,
                files: l.files,
                ranks: l.ranks,
                height: info.level_order.height(z, levels),
            })
            .collect(),
        cells: layout
            .cells
            .into_iter()
            .map(|c| CellView {
                name: c.name,
                x: c.coord.x,
                y: c.coord.y,
                z: c.coord.z,
            })
            .collect(),
        pieces: info
            .pieces
            .iter()
            .map(|p| PieceView {
                letter: p.letter,
                name: p.name,
            })
            .collect(),
        levels_note: info.levels_note(levels),
        levels_top_down: info.level_order == LevelOrder::TopDown,
    }
}

/// The number of cells of `v`'s board.
pub fn cell_count(v: Variant) -> usize {
    v.layout().cells.len()
}

/// The pieces on the board: (cell, colour, kind).
pub fn pieces(game: &AnyGame, cells: usize) -> Vec<(u16, u8, u8)> {
    (0..cells)
        .filter_map(|c| {
            let p = game.piece_at(c);
            p.is_some().then(|| (c as u16, p.colour().0, p.kind()))
        })
        .collect()
}

/// The occupied cells.
pub fn occupied(game: &AnyGame, cells: usize) -> Vec<Cell> {
    (0..cells).filter(|&c| game.piece_at(c).is_some()).collect()
}

/// What each of `colours` colours holds off the board.
pub fn hands(game: &AnyGame, colours: usize) -> Vec<Vec<(u8, usize)>> {
    (0..colours)
        .map(|c| game.in_hand(Colour(c as u8)))
        .collect()
}

fn flag_name(f: MoveFlag) -> &'static str {
    match f {
        MoveFlag::Normal => "normal",
        MoveFlag::DoubleStep => "double_step",
        MoveFlag::EnPassant => "en_passant",
        MoveFlag::Castle => "castle",
        MoveFlag::Drop => "drop",
        MoveFlag::Shot => "shot",
        MoveFlag::Pass => "pass",
    }
}

/// Every legal move, with its cells. Castling written as the King taking its Rook is listed
/// twice: to the Rook's cell and to the King's destination (where a chess player points),
/// unless the King stays where it is.
pub fn legal_moves(game: &AnyGame) -> Vec<LegalMove> {
    let mut list = MoveList::new();
    game.generate(&mut list);
    let mut out = Vec::with_capacity(list.len());
    for &m in list.iter() {
        let entry = |to: Cell| LegalMove {
            mv: game.move_name(m),
            from: m.from() as u16,
            to: to as u16,
            promotion: m.promotion(),
            flag: flag_name(m.flag()),
        };
        if let Some(king_to) = game.king_destination(m)
            && king_to != m.from()
        {
            out.push(entry(king_to));
        }
        out.push(entry(m.to()));
    }
    out
}

/// The cells a move written as `text` goes from and to, read with the variant's cell names
/// (`e2e4`, `Cc3Cc5`, `Ca1*Ca4`, `Ce9Ce10q`; `O@e4` gives the drop cell twice). `None` if the
/// text does not start with two cell names.
pub fn move_cells(v: Variant, text: &str) -> Option<(Cell, Cell)> {
    let layout = v.layout();
    let cell_at_start = |s: &str| -> Option<(Cell, usize)> {
        layout
            .cells
            .iter()
            .enumerate()
            .filter(|(_, c)| s.starts_with(c.name.as_str()))
            .max_by_key(|(_, c)| c.name.len())
            .map(|(i, c)| (i, c.name.len()))
    };
    if let Some((_, rest)) = text.split_once('@') {
        let (c, n) = cell_at_start(rest)?;
        return (n == rest.len()).then_some((c, c));
    }
    let (from, n) = cell_at_start(text)?;
    let rest = text[n..].trim_start_matches(['*', '-', 'x']);
    let (to, _) = cell_at_start(rest)?;
    Some((from, to))
}

/// The cell named `name` in `v`.
pub fn cell_named(v: Variant, name: &str) -> Option<Cell> {
    v.layout().cells.iter().position(|c| c.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_and_move_cells() {
        for v in Variant::ALL {
            let view = variant_view(v);
            assert_eq!(view.cells.len(), cell_count(v));
            assert!(!view.pieces.is_empty());
            let g = AnyGame::startpos(v);
            assert!(!legal_moves(&g).is_empty(), "{}", v.name());
            for m in legal_moves(&g) {
                if m.flag != "pass" && m.flag != "drop" {
                    assert_eq!(
                        move_cells(v, &m.mv),
                        Some((m.from as usize, m.to as usize)),
                        "{} {}",
                        v.name(),
                        m.mv
                    );
                }
            }
        }
        let e4 = cell_named(Variant::Pole, "e4").unwrap();
        assert_eq!(move_cells(Variant::Pole, "O@e4"), Some((e4, e4)));
        let c9 = cell_named(Variant::Polyhedron, "Ce9").unwrap();
        let c10 = cell_named(Variant::Polyhedron, "Ce10").unwrap();
        assert_eq!(move_cells(Variant::Polyhedron, "Ce9Ce10q"), Some((c9, c10)));
        assert_eq!(move_cells(Variant::Chess, "zz"), None);
    }

    /// Every built-in variant has its full name, its line and its rules page; a variant
    /// from a file its own title and line (else a line made of its board and source).
    #[test]
    fn every_variant_is_named_for_people() {
        for v in Variant::ALL {
            let view = variant_view(v);
            assert!(
                !view.title.is_empty() && view.summary.len() > 20,
                "{}",
                v.name()
            );
            assert!(!view.from_file && view.rules_page.is_some(), "{}", v.name());
        }
        assert_eq!(variant_view(Variant::Polyhedron).title, "Polyhedron Chess");
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/variants/raumschach.toml");
        let raumschach =
            crate::rules::defined::load_file(path, crate::eval::nnue::check_net).unwrap()[0];
        let view = variant_view(raumschach);
        assert_eq!(view.title, "Raumschach");
        // The file's own line; a file without one: its board and source.
        assert_eq!(
            view.summary,
            "chess in a 5x5x5 cube, with the Unicorn that moves through the corners of the cells"
        );
        assert!(view.from_file);
        let text = std::fs::read_to_string(path).unwrap();
        let bare = std::env::temp_dir().join(format!("strata-summary-{}.toml", std::process::id()));
        let text = text.replace("name = \"raumschach\"", "name = \"raumschach-bare\"");
        let text: String = text
            .lines()
            .filter(|l| !l.starts_with("summary = ") && !l.starts_with("net = "))
            .map(|l| format!("{l}\n"))
            .collect();
        std::fs::write(&bare, text).unwrap();
        let bare_view = variant_view(
            crate::rules::defined::load_file(bare.to_str().unwrap(), crate::eval::nnue::check_net)
                .unwrap()[0],
        );
        std::fs::remove_file(&bare).ok();
        assert!(
            bare_view
                .summary
                .starts_with("5 levels of 5x5, from a variant file: F. Maack"),
            "{}",
            bare_view.summary
        );
        assert_eq!(view.rules_page.as_deref(), Some("/rules/raumschach.html"));
    }

    /// The levels' order is the variants' own (each one's page in `docs/variants/`): every
    /// level has its own height, level A is the top exactly where the rules put it there, and
    /// the note under the 2D board says the same.
    #[test]
    fn levels_stack_in_each_variants_order() {
        let expected = [
            (Variant::Chess, None),
            (Variant::Pole, None),
            (Variant::Polyhedron, Some(false)),
            (Variant::Podionic, Some(true)),
            (Variant::Pentaplane, Some(false)),
            (Variant::FutureGeneration, Some(true)),
        ];
        for (v, top_down) in expected {
            let view = variant_view(v);
            let n = view.levels.len();
            let mut heights: Vec<usize> = view.levels.iter().map(|l| l.height).collect();
            heights.sort();
            assert_eq!(heights, (0..n).collect::<Vec<_>>(), "{}", v.name());
            let Some(top_down) = top_down else {
                assert_eq!(n, 1);
                assert_eq!(view.levels_note, "");
                continue;
            };
            assert_eq!(view.levels_top_down, top_down, "{}", v.name());
            let a = view.levels[0].height;
            assert_eq!(a, if top_down { n - 1 } else { 0 }, "{}", v.name());
            let last = view.levels[n - 1].letter;
            let note = if top_down {
                format!("Level A is the top, {last} the bottom")
            } else {
                format!("Level A is the bottom, {last} the top")
            };
            assert!(view.levels_note.starts_with(&note), "{}", view.levels_note);
        }
    }
}
