use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::*;
use crate::rules::MoveList;

/// A scratch file path unique to this test process and `name`.
fn scratch(name: &str) -> String {
    std::env::temp_dir()
        .join(format!("strata-records-{}-{name}", std::process::id()))
        .to_string_lossy()
        .to_string()
}

/// Positions of `variant` along a few seeded random games: the start and every ply after.
fn positions(variant: Variant, seed: u64, plies: usize) -> Vec<AnyGame> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut g = AnyGame::startpos(variant);
    let mut out = vec![g.clone()];
    let mut list = MoveList::new();
    for _ in 0..plies {
        list.clear();
        g.generate(&mut list);
        if list.is_empty() || g.outcome().is_some() {
            break;
        }
        g.make(list.as_slice()[rng.gen_range(0..list.len())]);
        out.push(g.clone());
    }
    out
}

/// The records of `positions`, with scores and results that use the whole range.
fn records_of(positions: &[AnyGame]) -> Vec<Record> {
    positions
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let score = [0, -1, 1, 32767, -32768, 100_000, -100_000, 517][i % 8];
            let result = [0.0, 0.5, 1.0][i % 3];
            let game = [1, 127, 128, 16_384, u32::MAX][i % 5];
            Record::from_game(g, score, result, game)
        })
        .collect()
}

/// Writes `records` as one chunk of `variant`.
fn chunk(variant: Variant, note: &str, records: &[Record]) -> Vec<u8> {
    let mut out = Vec::new();
    write_header(&mut out, variant, note).unwrap();
    for r in records {
        write_record(&mut out, r).unwrap();
    }
    out
}

fn read_bytes(name: &str, bytes: &[u8], variant: Variant) -> Result<Vec<Record>, String> {
    let path = scratch(name);
    std::fs::write(&path, bytes).unwrap();
    let got = read(&path, variant);
    std::fs::remove_file(&path).unwrap();
    got
}

fn check_round_trip(variant: Variant) {
    let cells = Geometry::of(variant).cells;
    let games = positions(variant, 7, 60);
    let records = records_of(&games);
    for (g, r) in games.iter().zip(&records) {
        // The pieces are piece_at over the variant's cells, in ascending order.
        let by_cell: Vec<(Cell, Piece)> = (0..cells)
            .map(|c| (c, g.piece_at(c)))
            .filter(|(_, p)| p.is_some())
            .collect();
        assert_eq!(r.pieces, by_cell, "{}", variant.name());
        assert_eq!(r.side, g.side_to_move());
    }
    let bytes = chunk(variant, "a note", &records);
    let back = read_bytes(variant.name(), &bytes, variant).unwrap();
    assert_eq!(back, records, "{}", variant.name());
    // Scores are clamped, results coded.
    assert_eq!(records[3].score, 32767);
    assert_eq!(records[6].score, -32768);
    assert_eq!(
        records.iter().take(3).map(|r| r.result).collect::<Vec<_>>(),
        [0, 1, 2]
    );
}

#[test]
fn every_builtin_variant_round_trips() {
    for v in Variant::ALL {
        check_round_trip(v);
    }
}

#[test]
fn raumschach_from_its_file_round_trips() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/variants/raumschach.toml");
    let loaded = crate::rules::defined::load_file(path, crate::eval::nnue::check_net).unwrap();
    let v = loaded
        .into_iter()
        .find(|v| v.name() == "raumschach")
        .unwrap();
    assert_eq!(Geometry::of(v).cells, 125);
    check_round_trip(v);
}

#[test]
fn a_chess_record_takes_about_27_bytes() {
    let g = AnyGame::from_fen(
        Variant::Chess,
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    )
    .unwrap();
    let r = Record::from_game(&g, 35, 0.5, 300);
    let mut b = Vec::new();
    write_record(&mut b, &r).unwrap();
    // flags 1, game 2, score 2, length 1, occupancy 8, 32 pieces x 4 bits 16.
    assert_eq!(b.len(), 1 + 2 + 2 + 1 + 8 + 16);
}

#[test]
fn hands_are_recorded() {
    // Pole Chess: both Poles in hand (available after 2.exd5); after White places its Pole,
    // Black's only.
    let pole = AnyGame::from_fen(
        Variant::Pole,
        "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR[Oo+] w KQkq - 0 3",
    )
    .unwrap();
    let r = Record::from_game(&pole, 0, 0.5, 1);
    assert_eq!(r.hands.len(), 2, "{:?}", r.hands);
    assert_eq!(r.hands[0].0, Colour::WHITE);
    assert_eq!(r.hands[1].0, Colour::BLACK);
    let pole_kind = r.hands[0].1;
    let mut list = MoveList::new();
    pole.generate(&mut list);
    let placed = list
        .as_slice()
        .iter()
        .map(|&m| {
            let mut g = pole.clone();
            g.make(m);
            g
        })
        .find(|g| g.in_hand(Colour::WHITE).iter().all(|&(_, n)| n == 0))
        .expect("a move places White's Pole");
    let r = Record::from_game(&placed, 0, 0.5, 1);
    assert_eq!(r.hands, [(Colour::BLACK, pole_kind, 1)]);
    assert!(r.pieces.iter().any(|&(_, p)| p.kind() == pole_kind));
    // Polyhedron: each Queen taken off the board and into its owner's reserve.
    let start = Variant::Polyhedron.start_fen();
    let fen = start
        .replace("dsafqkfasd", "dsaf1kfasd")
        .replace("DSAFQKFASD", "DSAF1KFASD")
        .replace("[]", "[Qq]");
    let poly = AnyGame::from_fen(Variant::Polyhedron, &fen).unwrap();
    let r = Record::from_game(&poly, 0, 1.0, 2);
    assert_eq!(r.hands.len(), 2, "{:?}", r.hands);
    assert_eq!((r.hands[0].0, r.hands[0].2), (Colour::WHITE, 1));
    assert_eq!((r.hands[1].0, r.hands[1].2), (Colour::BLACK, 1));
    assert!(
        Record::from_game(&AnyGame::startpos(Variant::Polyhedron), 0, 1.0, 2)
            .hands
            .is_empty()
    );
    // Future Generation: four colours on the board, the side to move among them.
    let future = positions(Variant::FutureGeneration, 3, 3);
    let r = Record::from_game(&future[2], 0, 0.0, 3);
    assert_eq!(r.side, Colour::GOLD);
    let colours: std::collections::BTreeSet<u8> = r.pieces.iter().map(|p| p.1.colour().0).collect();
    assert_eq!(colours.into_iter().collect::<Vec<_>>(), [0, 1, 2, 3]);
    // All three read back.
    for (v, g) in [
        (Variant::Pole, &placed),
        (Variant::Polyhedron, &poly),
        (Variant::FutureGeneration, &future[2]),
    ] {
        let r = Record::from_game(g, 5, 0.5, 9);
        let bytes = chunk(v, "", std::slice::from_ref(&r));
        assert_eq!(read_bytes("hands", &bytes, v).unwrap(), [r]);
    }
}

#[test]
fn a_file_of_another_variant_is_refused() {
    let bytes = chunk(
        Variant::Chess,
        "",
        &records_of(&positions(Variant::Chess, 1, 4)),
    );
    let e = read_bytes("other", &bytes, Variant::Pole).unwrap_err();
    assert!(
        e.contains("written for variant 'chess' (64 cells, 6 kinds, 2 colours), not for 'pole'"),
        "{e}"
    );
    let e = read_bytes("other", &bytes, Variant::Polyhedron).unwrap_err();
    assert!(e.contains("not for 'polyhedron' (300 cells"), "{e}");
}

#[test]
fn truncated_and_corrupt_files_give_errors() {
    let records = records_of(&positions(Variant::Chess, 2, 6));
    let bytes = chunk(Variant::Chess, "note", &records);
    // Cut anywhere inside: an error naming a byte offset, or (cut between records) fewer
    // records, never a panic.
    let mut whole = 0;
    for cut in 1..bytes.len() {
        match read_bytes("cut", &bytes[..cut], Variant::Chess) {
            Ok(got) => {
                assert!(got.len() < records.len());
                assert_eq!(got[..], records[..got.len()]);
                whole += 1;
            }
            Err(e) => assert!(e.contains("truncated at byte"), "{cut}: {e}"),
        }
    }
    assert_eq!(
        whole,
        records.len(),
        "one clean cut after the header and each record but the last"
    );
    let e = read_bytes("cut", &bytes[..bytes.len() - 1], Variant::Chess).unwrap_err();
    assert!(
        e.contains(&format!("truncated at byte {}", bytes.len() - 1)),
        "{e}"
    );
    // A header with impossible bounds.
    let mut bad = bytes.clone();
    bad[6..8].copy_from_slice(&5000u16.to_le_bytes());
    let e = read_bytes("bad", &bad, Variant::Chess).unwrap_err();
    assert!(e.contains("byte 0: header of 5000 cells"), "{e}");
    // Another version.
    let mut bad = bytes.clone();
    bad[5] = 9;
    let e = read_bytes("bad", &bad, Variant::Chess).unwrap_err();
    assert!(e.contains("data format version 9"), "{e}");
    // A record whose flags say result 3 (a header's first byte would be 0xFF).
    let header_len = chunk(Variant::Chess, "note", &[]).len();
    let mut bad = bytes.clone();
    bad[header_len] |= 0x0c;
    let e = read_bytes("bad", &bad, Variant::Chess).unwrap_err();
    assert!(
        e.contains(&format!("record 1 (byte {header_len}): bad flags")),
        "{e}"
    );
    // A piece code beyond the variant's kinds: 15 << 1 in the first piece's nibble.
    let mut bad = bytes.clone();
    let pieces_at = header_len + 1 + 1 + 2 + 1 + 8;
    bad[pieces_at] |= 0x0f;
    let e = read_bytes("bad", &bad, Variant::Chess).unwrap_err();
    assert!(e.contains("kind 7") && e.contains("6 kinds"), "{e}");
    // Garbage after a header; garbage without one (binary by its 0xFF).
    let mut bad = chunk(Variant::Chess, "", &[]);
    bad.extend_from_slice(&[0x1f; 100]);
    assert!(read_bytes("bad", &bad, Variant::Chess).is_err());
    let e = read_bytes("bad", &[0xff; 64], Variant::Chess).unwrap_err();
    assert!(e.contains("byte 0: not a strata data file header"), "{e}");
    // Binary garbage read as text: refused by its first line.
    let e = read_bytes("bad", &[0x00, 0x9f, 0x92, b'\n'], Variant::Chess).unwrap_err();
    assert!(e.contains(":1: not UTF-8 text"), "{e}");
}

#[test]
fn a_large_garbage_file_is_refused_at_its_start() {
    // 64 MiB of zeros read as text: one line longer than MAX_TEXT_LINE, refused after at
    // most that many bytes were held.
    let path = scratch("zeros");
    let f = std::fs::File::create(&path).unwrap();
    f.set_len(64 << 20).unwrap();
    let e = read(&path, Variant::Chess).unwrap_err();
    assert!(e.contains(":1: a line longer than 65536 bytes"), "{e}");
    std::fs::remove_file(&path).unwrap();
    // A directory is not a data file.
    let e = read(&std::env::temp_dir().to_string_lossy(), Variant::Chess).unwrap_err();
    assert!(e.contains("not a regular file"), "{e}");
}

#[test]
fn concatenated_files_read_as_both() {
    let a = records_of(&positions(Variant::Podionic, 4, 10));
    let b = records_of(&positions(Variant::Podionic, 5, 10));
    let mut both = chunk(Variant::Podionic, "shard 0", &a);
    both.extend(chunk(Variant::Podionic, "shard 1", &b));
    let got = read_bytes("cat", &both, Variant::Podionic).unwrap();
    assert_eq!(got, [a.clone(), b].concat());
    // An empty chunk in between changes nothing; a chunk of another variant is refused.
    let mut three = chunk(Variant::Podionic, "", &a);
    three.extend(chunk(Variant::Podionic, "", &[]));
    assert_eq!(read_bytes("cat", &three, Variant::Podionic).unwrap(), a);
    three.extend(chunk(Variant::Chess, "", &[]));
    let e = read_bytes("cat", &three, Variant::Podionic).unwrap_err();
    assert!(e.contains("written for variant 'chess'"), "{e}");
}

#[test]
fn text_files_read_as_records() {
    let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
    let text = format!(
        "# strata datagen ...\n# game 7\n{fen} | 5 | 1.0\n{fen} | -9 | 0.0\n# game 8\n{fen} | 0 | 0.5\n"
    );
    let got = read_bytes("text", text.as_bytes(), Variant::Chess).unwrap();
    let g = AnyGame::from_fen(Variant::Chess, fen).unwrap();
    assert_eq!(
        got,
        [
            Record::from_game(&g, 5, 1.0, 7),
            Record::from_game(&g, -9, 0.0, 7),
            Record::from_game(&g, 0, 0.5, 8)
        ]
    );
    assert_eq!(got[1].result, 0);
    assert_eq!(got[1].pieces.len(), 3);
    let e = read_bytes(
        "text",
        format!("{fen} | 5 | 1.0\nnot a fen | 1 | 1.0\n").as_bytes(),
        Variant::Chess,
    )
    .unwrap_err();
    assert!(e.contains(":2: "), "{e}");
}

#[test]
fn bad_records_are_not_written() {
    let mut out = Vec::new();
    let r = Record {
        side: Colour::WHITE,
        pieces: vec![
            (5, Piece::new(0, Colour::WHITE)),
            (3, Piece::new(0, Colour::BLACK)),
        ],
        hands: vec![],
        score: 0,
        result: 1,
        game: 1,
    };
    assert!(write_record(&mut out, &r).is_err());
    let r = Record {
        pieces: vec![(MAX_CELLS, Piece::new(0, Colour::WHITE))],
        ..r
    };
    assert!(write_record(&mut out, &r).is_err());
    let r = Record {
        pieces: vec![],
        result: 3,
        ..r
    };
    assert!(write_record(&mut out, &r).is_err());
    assert!(out.is_empty());
}
