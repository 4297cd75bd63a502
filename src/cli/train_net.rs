//! `strata train-net`: trains a variant's evaluation network ([`crate::tuning::net_train`])
//! on datagen positions.

use std::cell::Cell;
use std::path::PathBuf;
use std::time::Instant;

use super::{command_line, say, variant_named};
use crate::eval::nnue::net::MAX_TERMS_SHARE;
use crate::eval::nnue::spec::carried_inputs;
use crate::eval::nnue::{Net, Spec};
use crate::tuning::net_train::{
    Config, FloatNet, blended_loss, mean_loss, read, save, terms_loss, train,
};

/// The arguments of `strata train-net`.
#[derive(clap::Args)]
pub struct Args {
    /// The variant (a built-in one, or one loaded with `--variant-file`).
    #[arg(long, default_value = "chess")]
    variant: String,
    /// Position files of that variant written by `strata datagen`, text or binary (one or
    /// more).
    #[arg(long, num_args = 1.., required = true)]
    data: Vec<PathBuf>,
    /// Full passes over the training positions.
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    /// Positions per step.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// AdamW's initial step size (it falls on a cosine to a tenth).
    #[arg(long, default_value_t = 0.001)]
    rate: f32,
    /// AdamW's weight decay.
    #[arg(long, default_value_t = 0.01)]
    weight_decay: f32,
    /// Target = LAMBDA * result + (1 - LAMBDA) * sigmoid(score / K).
    #[arg(long, default_value_t = 0.5)]
    lambda: f32,
    /// The logistic scale of scores, in centipawns; by default the one under which the
    /// data's scores best predict their games' results (chess's is near 180).
    #[arg(long)]
    k: Option<f32>,
    /// Hold out every N-th game for validation.
    #[arg(long, default_value_t = 20)]
    holdout: usize,
    /// Training threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Mirror a random half of the positions left to right each epoch (for variants whose
    /// rules are symmetric that way, as chess's are but for castling).
    #[arg(long)]
    mirror: bool,
    /// Show a random half of the positions with their levels in reverse order each epoch
    /// (top for bottom), independently of --mirror: for variants whose rules are symmetric
    /// that way, as Polyhedron's are (not Raumschach's, whose pawns go up). Ignored on a
    /// board of one level.
    #[arg(long)]
    mirror_levels: bool,
    /// Factorise the inputs: each piece also turns on inputs of its relation and kind
    /// alone, whatever its cell, and on its file, its rank and its level, added into every
    /// cell's weights when the network is written (the file is the same size). Helps where
    /// there are many cells for the positions played (docs/results.md, Raumschach).
    #[arg(long)]
    factorise: bool,
    /// King buckets: a set of board inputs for each bucket of cells the side's royal piece
    /// may stand on, as it sees the board. The ranks from its first, separated by `/`, each
    /// a digit (or a to f) per file: chess `0011/2222/3333` with --king-mirror. The last rank
    /// given stands for the ranks beyond; on a board of several levels every level is
    /// alike. The file is version 6 and its board inputs that many times as many.
    #[arg(long, value_name = "LAYOUT")]
    king_buckets: Option<String>,
    /// With --king-buckets: a side whose royal piece stands on the right half of the board
    /// sees the board mirrored left to right, and --king-buckets gives the left half's
    /// files only (the middle one too where their number is odd).
    #[arg(long, requires = "king_buckets")]
    king_mirror: bool,
    /// Give the network a linear path: a value per input added straight to the output (half
    /// the difference of the two perspectives' sums, as Stockfish's PSQT values), so that
    /// material and where it stands are learnt without passing through the clipped neurons
    /// (with --factorise, one value per piece kind is learnt from every position). The file
    /// is version 3, 4 bytes an input larger. Kept where --init's network has one.
    #[arg(long)]
    linear: bool,
    /// Hidden neurons per perspective (a multiple of 16, at most 2048) [default: 256]. With
    /// --init, more than its network has grows it: the new neurons start with small random
    /// input weights and no output weights, so the network evaluates as before.
    #[arg(long)]
    hidden: Option<usize>,
    /// Output buckets, by the number of pieces on the board (1 to 64).
    #[arg(long, default_value_t = 8)]
    buckets: usize,
    /// Start from this network file instead of random weights: to train a network further
    /// on new games, or to carry another variant's network into this one where the boards
    /// and pieces coincide (chess's into Pole Chess's: the Pole's inputs start at zero). Its
    /// size replaces --buckets, and --hidden unless that grows it.
    #[arg(long)]
    init: Option<PathBuf>,
    /// Write the network only after an epoch whose validation loss is the lowest so far,
    /// so that `--out` ends as the epoch that predicted the held-out games best (where the
    /// data are few and the later epochs fit the training games more than the variant).
    #[arg(long)]
    keep_best: bool,
    /// Blend the network with the variant's hand-written terms when it plays: the search's
    /// evaluation is the network's and the terms' mixed, the terms at this share in percent
    /// (0 to 99; 0, the default, the network alone). The share is written in the file
    /// (version 4, or 5 with the name of fewer terms), not learnt; it keeps a network learnt
    /// from few games from deciding alone (docs/results.md, Polyhedron). The network is trained blended, to correct what
    /// the terms miss, which needs text data files (each position's terms are evaluated as
    /// it is read). With --init, the default is that network's share, and --epochs 0
    /// writes it with the new share without training (any data files).
    #[arg(long)]
    terms_share: Option<u32>,
    /// Write the network here after every epoch (e.g. src/eval/nets/chess.net).
    #[arg(long)]
    out: PathBuf,
}

/// Hidden neurons per perspective of a new network when --hidden does not say.
const DEFAULT_HIDDEN: usize = 256;

/// Runs `strata train-net`.
pub fn run(args: Args) -> Result<(), String> {
    let paths: Vec<String> = args
        .data
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let variant = variant_named(&args.variant)?;
    if !(1..=256).contains(&args.threads) {
        return Err(format!("--threads {}: 1 to 256", args.threads));
    }
    if args.batch == 0 || (args.epochs == 0 && args.init.is_none()) {
        return Err("--batch and --epochs must be at least 1 (--epochs 0 only with --init)".into());
    }
    if let Some(share) = args.terms_share
        && share > MAX_TERMS_SHARE
    {
        return Err(format!(
            "--terms-share {share}: 0 to {MAX_TERMS_SHARE} percent"
        ));
    }
    if !(args.rate.is_finite() && args.rate > 0.0 && args.rate <= 1.0) {
        return Err(format!(
            "--rate {}: a step size above 0, at most 1",
            args.rate
        ));
    }
    if let Some(k) = args.k
        && !(k.is_finite() && (1.0..=100_000.0).contains(&k))
    {
        return Err(format!("--k {k}: 1 to 100000 centipawns"));
    }
    if !(0.0..=1.0).contains(&args.lambda) || !(0.0..=1.0).contains(&args.weight_decay) {
        return Err("--lambda and --weight-decay must be within 0 to 1".into());
    }
    if let Some(hidden) = args.hidden
        && (hidden == 0
            || !hidden.is_multiple_of(16)
            || hidden > crate::eval::nnue::net::MAX_HIDDEN)
    {
        return Err(format!(
            "--hidden {hidden}: a multiple of 16 from 16 to 2048"
        ));
    }
    if args.buckets == 0 || args.buckets > crate::eval::nnue::net::MAX_BUCKETS {
        return Err(format!("--buckets {}: 1 to 64", args.buckets));
    }
    let spec = Spec::of(variant);
    // The king layout asked for: a new network's, or the one a plain network given with
    // --init grows into.
    let kings = match &args.king_buckets {
        Some(layout) => Some(
            spec.clone()
                .with_kings(spec.parse_kings(layout, args.king_mirror)?)?,
        ),
        None => None,
    };
    let net = match &args.init {
        None => FloatNet::random(
            kings.as_ref().unwrap_or(&spec),
            args.hidden.unwrap_or(DEFAULT_HIDDEN),
            args.buckets,
            args.seed,
        ),
        Some(path) => {
            let shown = path.to_string_lossy();
            let bytes = crate::files::read_regular_bytes(
                &shown,
                crate::eval::nnue::net::MAX_FILE,
                "a network file",
            )
            .map_err(|e| format!("{shown}: {e}"))?;
            let of = Net::variant_of(&bytes).map_err(|e| format!("{shown}: {e}"))?;
            if of == variant.name() {
                let net = Net::read(&bytes, &spec).map_err(|e| format!("{shown}: {e}"))?;
                FloatNet::from_network(&net)
            } else {
                // Another variant's network: its weights carried over where the inputs
                // mean the same.
                let from = crate::rules::Variant::from_name(&of).ok_or_else(|| {
                    format!(
                        "{shown}: the network is for the variant '{}', which is not loaded \
                         (a variant from a file needs --variant-file)",
                        crate::text::echo(&of, 64)
                    )
                })?;
                let net =
                    Net::read(&bytes, &Spec::of(from)).map_err(|e| format!("{shown}: {e}"))?;
                if !net.spec.kings.is_plain() {
                    return Err(format!(
                        "{shown}: a network with king buckets is not carried into another \
                         variant's"
                    ));
                }
                let map = carried_inputs(from, variant).map_err(|e| format!("{shown}: {e}"))?;
                say(&format!(
                    "carried {} of {} inputs from the '{of}' network; the others start at zero",
                    map.iter().flatten().count(),
                    map.len()
                ));
                FloatNet::carried(&net, &spec, &map)
            }
        }
    };
    let net = match &kings {
        Some(k) if args.init.is_some() => {
            let net = net
                .with_kings(k)
                .map_err(|e| format!("--king-buckets with --init: {e}"))?;
            say("grew the network into king buckets, each starting as the plain layout's rows");
            net
        }
        _ => net,
    };
    let net = match args.hidden {
        Some(hidden) if args.init.is_some() && hidden != net.hidden => {
            let from = net.hidden;
            let net = net
                .widened(hidden, args.seed)
                .map_err(|e| format!("--hidden with --init: {e}"))?;
            say(&format!(
                "grew the network from {from} to {hidden} hidden neurons; the new ones start \
                 with no output weights"
            ));
            net
        }
        _ => net,
    };
    let net = if args.linear { net.linear() } else { net };
    let mut net = if args.factorise {
        net.factorised()
    } else {
        net
    };
    if let Some(share) = args.terms_share {
        net.terms_share = share;
    }
    // A network with a share of the terms is trained as it plays: blended with them, on
    // positions whose terms' value is known (text files).
    let blend = net.terms_share > 0 && args.epochs > 0;
    let start = Instant::now();
    // The positions carry the terms a blended network plays beside whether or not it is
    // trained (`--epochs 0` still reports the blend's loss), not the whole evaluation.
    let (mut training, validation) = read(&paths, variant, args.holdout, net.terms_share > 0)?;
    say(&format!(
        "{} training and {} validation positions ({:.1} s)",
        training.len(),
        validation.len(),
        start.elapsed().as_secs_f64()
    ));
    if training.is_empty() {
        return Err("no training positions".into());
    }
    if blend && !training.terms_known() {
        return Err(format!(
            "--terms-share {}: a network blended with the terms is trained blended, which \
             needs every position's terms: text data files only (a binary record has no \
             position to evaluate); train it alone (--terms-share 0), then give it the share \
             with --init and --epochs 0",
            net.terms_share
        ));
    }
    let config = Config {
        epochs: args.epochs,
        batch: args.batch.max(1),
        rate: args.rate,
        lambda: args.lambda,
        k: match args.k {
            Some(k) => k,
            None => {
                let k = crate::tuning::net_train::fit_k(&training);
                say(&format!(
                    "the scores' scale, fitted to the results: k = {k:.0}"
                ));
                k
            }
        },
        threads: args.threads.max(1),
        seed: args.seed,
        weight_decay: args.weight_decay,
        mirror: args.mirror,
        mirror_levels: args.mirror_levels,
        blend,
    };
    say(&format!(
        "{}: {} inputs{}, {} hidden neurons, {} buckets{}{}",
        variant.name(),
        net.spec.inputs(),
        match &net.spec.kings {
            k if k.is_plain() => String::new(),
            k => format!(
                " ({} king buckets{})",
                k.buckets,
                if k.mirror { ", mirrored" } else { "" }
            ),
        },
        net.hidden,
        net.buckets,
        if net.psqt.is_empty() {
            ""
        } else {
            ", a linear path"
        },
        match net.terms_share {
            0 => String::new(),
            s => format!(", blended {}/{s} with the terms when it plays", 100 - s),
        }
    ));
    if let Some(loss) = terms_loss(&validation, &config) {
        // With a share, the validation positions carry the terms the network blends with
        // (`Evaluate::blend_terms`), which may be fewer than the whole evaluation.
        let what = if net.terms_share > 0 {
            "the terms it blends with, alone"
        } else {
            "the evaluation by terms"
        };
        say(&format!("{what}: validation loss {loss:.6}"));
    }
    let alone = Config {
        blend: false,
        ..config.clone()
    };
    say(&format!(
        "before: training loss {:.6}, validation loss {:.6}",
        mean_loss(&net, &training, &alone),
        mean_loss(&net, &validation, &alone)
    ));
    if let Some(loss) = blended_loss(&net, &validation, &config) {
        say(&format!(
            "before, blended with the terms as it plays: validation loss {loss:.6}"
        ));
    }
    let out = args.out.to_string_lossy().into_owned();
    if args.epochs == 0 {
        save(&net, &out)?;
        say(&format!("written {out}; made by: {}", command_line()));
        return Ok(());
    }
    // The epoch just reported, and the one written last.
    let last = Cell::new((0, f64::INFINITY));
    let mut kept = Kept::default();
    train(
        &mut net,
        &mut training,
        &validation,
        &config,
        &mut |epoch, t, v| {
            last.set((epoch, v));
            say(&format!(
                "epoch {epoch}: training loss {t:.6}, validation loss {v:.6}{} ({:.0} s)",
                if blend {
                    ", blended with the terms"
                } else {
                    ""
                },
                start.elapsed().as_secs_f64()
            ))
        },
        &mut |net| {
            let (epoch, loss) = last.get();
            match kept.offer(epoch, loss, args.keep_best) {
                true => save(net, &out),
                false => Ok(()),
            }
        },
    )?;
    if args.keep_best {
        say(&format!(
            "kept epoch {} (validation loss {:.6})",
            kept.epoch, kept.loss
        ));
    }
    say(&format!("written {out}; made by: {}", command_line()));
    Ok(())
}

/// The epoch whose network is in `--out`.
#[derive(Debug, PartialEq)]
struct Kept {
    epoch: usize,
    loss: f64,
}

impl Default for Kept {
    fn default() -> Self {
        Kept {
            epoch: 0,
            loss: f64::INFINITY,
        }
    }
}

impl Kept {
    /// Whether the network of `epoch`, of validation loss `loss`, is to be written: every
    /// epoch's is, or with `best` only one that predicts the held-out games better than every
    /// earlier epoch (a loss that is not a number never does; the first epoch's always is).
    fn offer(&mut self, epoch: usize, loss: f64, best: bool) -> bool {
        let better = self.epoch == 0 || loss < self.loss;
        if best && !better {
            return false;
        }
        *self = Kept { epoch, loss };
        true
    }
}

#[cfg(test)]
mod tests {
    use super::Kept;

    #[test]
    fn keep_best_writes_only_an_epoch_that_lowers_the_validation_loss() {
        let mut kept = Kept::default();
        let losses = [0.5, 0.4, 0.45, f64::NAN, 0.39, 0.39];
        let written: Vec<bool> = losses
            .iter()
            .enumerate()
            .map(|(i, &l)| kept.offer(i + 1, l, true))
            .collect();
        assert_eq!(written, [true, true, false, false, true, false]);
        assert_eq!(
            kept,
            Kept {
                epoch: 5,
                loss: 0.39
            }
        );
        // Without --keep-best every epoch is written, the last one stays.
        let mut every = Kept::default();
        assert!(
            losses
                .iter()
                .enumerate()
                .all(|(i, &l)| every.offer(i + 1, l, false))
        );
        assert_eq!(every.epoch, 6);
    }
}
