//! What the runner prints: a line when a game starts and ends, and the results, in the
//! formats of fastchess (the default) or cutechess-cli.

use std::io::Write;

use super::args::OutputFormat;
use super::record::GameRecord;
use super::seats::team_of;
use super::stats::{Elo, Outcome, Sprt, SprtState, Stats, cutechess_elo};

/// Counts for the result lines, from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    /// W/D/L and pairs.
    pub stats: Stats,
    /// The first engine with team 0 (White): wins, losses, draws.
    pub as_white: [u32; 3],
    /// The first engine with team 1 (Black).
    pub as_black: [u32; 3],
    /// Team 0 against team 1: wins, losses, draws.
    pub teams: [u32; 3],
}

impl Tally {
    /// Adds a finished game.
    pub fn add(&mut self, rec: &GameRecord) {
        let o = rec.outcome_for(0);
        self.stats.add_game(o);
        let slot = match o {
            Outcome::Win => 0,
            Outcome::Loss => 1,
            Outcome::Draw => 2,
        };
        let white = team_of(&rec.seats, 0) == 0;
        if white {
            self.as_white[slot] += 1;
            self.teams[slot] += 1;
        } else {
            self.as_black[slot] += 1;
            self.teams[[1, 0, 2][slot]] += 1;
        }
    }
}

/// Fixed facts for the results header.
pub struct Header {
    /// Engine names.
    pub names: [String; 2],
    /// Time controls as fastchess prints them.
    pub tc: [String; 2],
    /// `Threads` per engine (`1t`, or `NULL`).
    pub threads: [String; 2],
    /// `Hash` per engine (`16MB`, or `NULL`).
    pub hash: [String; 2],
    /// The opening book's name, if any.
    pub book: String,
}

/// `x` with `decimals` decimals, `nan` spelled as fastchess (C++ `fmt`) and cutechess (Qt)
/// spell it.
fn fixed(x: f64, decimals: usize) -> String {
    if x.is_nan() {
        "nan".into()
    } else {
        format!("{x:.decimals$}")
    }
}

fn f2(x: f64) -> String {
    fixed(x, 2)
}

fn pair_text(a: &str, b: &str) -> String {
    if a == b {
        a.to_string()
    } else {
        format!("{a} - {b}")
    }
}

/// The printer.
pub struct Reporter<'a> {
    out: &'a mut dyn Write,
    format: OutputFormat,
    penta: bool,
    sprt: Option<Sprt>,
    header: Header,
}

impl<'a> Reporter<'a> {
    /// A printer in `format`, with pentanomial figures if `penta`, and SPRT lines if `sprt`.
    pub fn new(
        out: &'a mut dyn Write,
        format: OutputFormat,
        penta: bool,
        sprt: Option<Sprt>,
        header: Header,
    ) -> Self {
        Reporter {
            out,
            format,
            penta,
            sprt,
            header,
        }
    }

    fn line(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
        let _ = self.out.flush();
    }

    /// `Started game 3 of 10 (A vs B)`.
    pub fn started(&mut self, id: u64, total: usize, white: &str, black: &str) {
        self.line(&format!(
            "Started game {id} of {total} ({white} vs {black})"
        ));
    }

    /// `Finished game 3 (A vs B): 1-0 {White wins by checkmate}`.
    pub fn finished(&mut self, rec: &GameRecord) {
        self.line(&format!(
            "Finished game {} ({} vs {}): {} {{{}}}",
            rec.id,
            rec.names[0],
            rec.names[1],
            rec.result.pgn(),
            rec.reason
        ));
    }

    /// The LLR the SPRT uses for these counts.
    pub fn llr(&self, s: &Stats) -> Option<f64> {
        self.sprt.map(|sp| sp.llr(s, self.penta))
    }

    /// The results so far.
    pub fn results(&mut self, t: &Tally) {
        match self.format {
            OutputFormat::Fastchess => self.fastchess(t),
            OutputFormat::Cutechess => self.cutechess(t),
        }
    }

    fn fastchess(&mut self, t: &Tally) {
        let s = &t.stats;
        let h = &self.header;
        let mut lines = vec!["-".repeat(50)];
        let book = if h.book.is_empty() {
            String::new()
        } else {
            format!(", {}", h.book)
        };
        lines.push(format!(
            "Results of {} vs {} ({}, {}, {}{book}):",
            h.names[0],
            h.names[1],
            pair_text(&h.tc[0], &h.tc[1]),
            pair_text(&h.threads[0], &h.threads[1]),
            pair_text(&h.hash[0], &h.hash[1]),
        ));
        let penta = self.penta && s.pairs() > 0;
        let elo = if penta {
            Elo::pentanomial(s)
        } else {
            Elo::trinomial(s)
        };
        lines.push(format!(
            "Elo: {} +/- {}, nElo: {} +/- {}",
            f2(elo.diff),
            f2(elo.error),
            f2(elo.nelo),
            f2(elo.nelo_error)
        ));
        if penta {
            lines.push(format!(
                "LOS: {} %, DrawRatio: {} %, PairsRatio: {}",
                f2(elo.los * 100.0),
                f2(s.draw_ratio_penta()),
                f2(s.pairs_ratio())
            ));
        } else {
            lines.push(format!(
                "LOS: {} %, DrawRatio: {} %",
                f2(elo.los * 100.0),
                f2(s.draw_ratio())
            ));
        }
        lines.push(format!(
            "Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({:.2} %)",
            s.games(),
            s.wins,
            s.losses,
            s.draws,
            s.points(),
            100.0 * s.points() / s.games() as f64
        ));
        if self.penta {
            let p = s.pentanomial();
            lines.push(format!(
                "Ptnml(0-2): [{}, {}, {}, {}, {}], WL/DD Ratio: {}",
                p[0],
                p[1],
                p[2],
                p[3],
                p[4],
                f2(s.wl_dd_ratio())
            ));
        }
        if let (Some(sp), Some(llr)) = (self.sprt, self.llr(s)) {
            lines.push(format!(
                "LLR: {llr:.2} ({:.1}%) ({:.2}, {:.2}) [{:.2}, {:.2}]",
                sp.fraction(llr) * 100.0,
                sp.lower(),
                sp.upper(),
                sp.elo0,
                sp.elo1
            ));
        }
        lines.push("-".repeat(50));
        for l in lines {
            self.line(&l);
        }
    }

    fn cutechess(&mut self, t: &Tally) {
        let s = t.stats;
        let n = |x: [u32; 3]| x[0] + x[1] + x[2];
        let ratio = |x: [u32; 3]| (x[0] as f64 + 0.5 * x[2] as f64) / n(x).max(1) as f64;
        let row =
            |x: [u32; 3]| format!("{} - {} - {}  [{:.3}] {}", x[0], x[1], x[2], ratio(x), n(x));
        let all = [s.wins, s.losses, s.draws];
        let (a, b) = (self.header.names[0].clone(), self.header.names[1].clone());
        let mut lines = vec![format!("Score of {a} vs {b}: {}", row(all))];
        lines.push(format!("...      {a} playing White: {}", row(t.as_white)));
        lines.push(format!("...      {a} playing Black: {}", row(t.as_black)));
        lines.push(format!("...      White vs Black: {}", row(t.teams)));
        let (elo, margin, los) = cutechess_elo(&s);
        lines.push(format!(
            "Elo difference: {} +/- {}, LOS: {} %, DrawRatio: {} %",
            fixed(elo, 1),
            fixed(margin, 1),
            fixed(los, 1),
            fixed(s.draw_ratio(), 1)
        ));
        if let (Some(sp), Some(llr)) = (self.sprt, self.llr(&s)) {
            let pct = if llr < 0.0 {
                llr / sp.lower()
            } else {
                llr / sp.upper()
            } * 100.0;
            let verdict = match sp.state(llr) {
                SprtState::H1 => " - H1 was accepted",
                SprtState::H0 => " - H0 was accepted",
                SprtState::Continue => "",
            };
            lines.push(format!(
                "SPRT: llr {llr:.2} ({pct:.1}%), lbound {:.2}, ubound {:.2}{verdict}",
                sp.lower(),
                sp.upper()
            ));
        }
        for l in lines {
            self.line(&l);
        }
    }

    /// The SPRT's verdict, when a bound was crossed.
    pub fn sprt_done(&mut self, state: SprtState) {
        if let Some(sp) = self.sprt {
            let h = if state == SprtState::H1 { "H1" } else { "H0" };
            self.line(&format!(
                "SPRT ([{:.2}, {:.2}]) completed - {h} was accepted",
                sp.elo0, sp.elo1
            ));
        }
    }

    /// A free-form line (errors).
    pub fn note(&mut self, text: &str) {
        self.line(text);
    }

    /// The last line: fastchess's `Tournament finished`, cutechess's `Finished match`, or
    /// `Tournament stopped` after an engine failure.
    pub fn end(&mut self, failed: bool) {
        let text = match (failed, self.format) {
            (true, _) => "Tournament stopped",
            (false, OutputFormat::Fastchess) => "Tournament finished",
            (false, OutputFormat::Cutechess) => "Finished match",
        };
        self.line(text);
    }
}
