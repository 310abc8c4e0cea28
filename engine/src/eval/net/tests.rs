use super::*;
use crate::bitboard::{Bitboard, Symmetry};
use crate::board::Board;
use crate::rng::GameRng;

/// Random parameters large enough that the network's output depends on the position.
fn random_params(shape: NetShape, seed: u64) -> NetParams {
    let mut rng = GameRng::new(seed);
    let mut uniform = |scale: f32| (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 * scale - scale;
    let embed = (0..shape.buckets * shape.rows_per_bucket() * shape.dim).map(|_| uniform(0.1)).collect();
    let dense = (0..shape.buckets * Net::dense_len(shape)).map(|_| uniform(1.0)).collect();
    NetParams::from_parts(shape, embed, dense)
}

/// A network with [`random_params`] (the search's tests use it too).
pub(crate) fn random_net(shape: NetShape, seed: u64) -> Net {
    random_params(shape, seed).into_net()
}

/// Positions after 0 to 59 random moves.
fn positions(seed: u64, count: usize) -> Vec<Board> {
    let mut rng = GameRng::new(seed);
    (0..count)
        .map(|_| {
            let plies = rng.below(60);
            Board::INITIAL.after_random_moves(plies, |n| rng.below(n))
        })
        .collect()
}

/// Both sides' mobility in `board`.
fn mobility(board: &Board) -> (u32, u32) {
    (board.moves().count(), board.pass().moves().count())
}

/// The rows (absolute, bucket included) a network of `shape` reads for `board` in the training's reading.
fn training_rows(shape: NetShape, board: &Board) -> (usize, Vec<u32>) {
    let layout = layout();
    let moves = 60 - board.empty_count() as usize;
    let b = bucket(moves, shape.buckets);
    let first = (b * shape.rows_per_bucket()) as u32;
    let indices = Features::new(board.player, board.opponent).pattern_indices();
    let patterns = indices
        .iter()
        .zip(&layout.feature_group)
        .map(|(&i, &g)| first + layout.group_start[g] + layout.canonical[g][i as usize]);
    let (m, o) = mobility(board);
    let extras = Inputs::extras(moves, m, o).map(|e| first + (layout.total + e) as u32);
    (b, patterns.chain(extras.into_iter().take(shape.inputs.extra_features())).collect())
}

/// The training path (`run` on canonical rows) and the search path (`evaluate` from Black's or White's view, with
/// its rows rounded to integers) give the same number within rounding, and the board's eight symmetric
/// images the same number exactly; with the extra rows too.
#[test]
fn every_view_and_symmetry_gives_the_training_value() {
    for inputs in [Inputs::Patterns, Inputs::MovesAndMobility] {
        view_and_symmetry(NetShape { dim: 8, hidden: 16, buckets: 3, inputs });
    }
}

fn view_and_symmetry(shape: NetShape) {
    let params = random_params(shape, 7);
    let net = params.clone().into_net();
    let mut spread = 0f32;
    let mut first = None;
    for board in positions(3, 300) {
        let discs = 64 - board.empty_count();
        let (b, rows) = training_rows(shape, &board);
        let trained = params.run(&rows, b, &mut Scratch::new(shape));
        let (m, o) = mobility(&board);
        let mut images = None;
        for symmetry in Symmetry::ALL {
            let (p, q) = (symmetry.apply(board.player.0), symmetry.apply(board.opponent.0));
            let black_view = net.evaluate(discs, &Features::new(Bitboard(p), Bitboard(q)), Color::Black, m, o);
            let white_view = net.evaluate(discs, &Features::new(Bitboard(q), Bitboard(p)), Color::White, m, o);
            // The rows are rounded to 1/q (q ≈ 5,800 for this network): about 0.005 on each of the 16 hidden units,
            // whose output weights reach ±1 and are scaled by 16.
            assert!((black_view - trained).abs() < 0.05, "{board:?} {symmetry:?}: {black_view} vs {trained}");
            assert_eq!(white_view, black_view, "{board:?} {symmetry:?}");
            let identity = *images.get_or_insert(black_view);
            assert_eq!(black_view, identity, "{board:?} {symmetry:?}");
        }
        let f = *first.get_or_insert(trained);
        spread = spread.max((trained - f).abs());
    }
    assert!(spread > 1.0, "the random network should not be constant (spread {spread})");
    if shape.inputs == Inputs::MovesAndMobility {
        // The extra rows are read: the same patterns with other mobility counts or another move number give
        // another value.
        let board = positions(4, 1)[0];
        let (discs, features) = (64 - board.empty_count(), Features::new(board.player, board.opponent));
        let (m, o) = mobility(&board);
        let value = net.evaluate(discs, &features, Color::Black, m, o);
        assert_ne!(value, net.evaluate(discs, &features, Color::Black, m + 1, o));
        assert_ne!(value, net.evaluate(discs, &features, Color::Black, m, o + 1));
        assert_ne!(value, net.evaluate(discs + 1, &features, Color::Black, m, o));
        // Counts past the last row share it.
        let cap = crate::eval::MAX_MOBILITY as u32;
        assert_eq!(
            net.evaluate(discs, &features, Color::Black, cap, 40),
            net.evaluate(discs, &features, Color::Black, cap + 5, 33)
        );
    }
}

/// A network read back from its file evaluates every position to the same bits as the one written (both views,
/// every bucket), and writes the same bytes again; damaged files are refused with `InvalidData`.
#[test]
fn a_saved_network_evaluates_as_the_original_and_bad_files_are_refused() {
    let net = random_net(NetShape { dim: 32, hidden: 16, buckets: 3, inputs: Inputs::Patterns }, 11);
    let dir = std::env::temp_dir().join(format!("shirokuro-net-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("a.net");
    net.save(&path).unwrap();
    let back = Net::load(&path).unwrap();
    assert_eq!(back.shape(), net.shape());
    for board in positions(5, 300) {
        let features = Features::new(board.player, board.opponent);
        let discs = 64 - board.empty_count();
        for side in [Color::Black, Color::White] {
            let (a, b) = (net.evaluate(discs, &features, side, 7, 3), back.evaluate(discs, &features, side, 7, 3));
            assert_eq!(a.to_bits(), b.to_bits(), "{a} vs {b}");
        }
    }
    assert!(back == net, "the rows read straight from the file are the ones written");
    // Rows of 16 numbers share their cache lines: read back in place too.
    let small = random_net(NetShape { dim: 16, hidden: 8, buckets: 2, inputs: Inputs::Patterns }, 12);
    small.save(&dir.join("small.net")).unwrap();
    assert!(Net::load(&dir.join("small.net")).unwrap() == small);
    // A network with the extra rows: its inputs are told by the file's row counts.
    let extra = random_net(NetShape { dim: 16, hidden: 8, buckets: 2, inputs: Inputs::MovesAndMobility }, 13);
    extra.save(&dir.join("extra.net")).unwrap();
    let extra_back = Net::load(&dir.join("extra.net")).unwrap();
    assert_eq!(extra_back.shape().inputs, Inputs::MovesAndMobility);
    assert!(extra_back == extra);
    assert!(extra_back.params().into_net() == extra);
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(file::write(&back).unwrap(), bytes, "read and written again, the file is the same");
    // The floats made back from the search's rows (for training and `eval-error`) give the same network again.
    assert!(back.params().into_net() == back, "params() and into_net() go back to the same bits");
    let mut nan = net.clone();
    nan.dense[0] = f32::NAN;
    let nan = file::write(&nan).unwrap();
    let mut flipped = bytes.clone();
    let middle = bytes.len() / 2;
    flipped[middle] ^= 0x10;
    let mut layout = bytes.clone();
    layout[8 + 12] ^= 1;
    let mut unit = bytes.clone();
    unit[8 + 20..8 + 24].copy_from_slice(&0u32.to_le_bytes());
    let mut bigger = bytes.clone();
    bigger[8 + 20..8 + 24].copy_from_slice(&16384u32.to_le_bytes());
    let mut huge = bytes.clone();
    huge[8..12].copy_from_slice(&64u32.to_le_bytes());
    huge[16..20].copy_from_slice(&60u32.to_le_bytes());
    let bad = dir.join("bad.net");
    for (what, content, expected) in [
        ("short", bytes[..bytes.len() - 4].to_vec(), "damaged"),
        ("magic", [b"NOTANET\n".as_slice(), &bytes[8..]].concat(), "not a network"),
        ("empty", Vec::new(), "not a network"),
        ("header only", bytes[..32].to_vec(), "damaged"),
        ("longer", [bytes.as_slice(), &[0; 8]].concat(), "bytes after"),
        ("flipped", flipped, "damaged"),
        ("layout", layout, "pattern layout"),
        ("unit", unit, "unit q"),
        ("unit too fine for the rows", bigger, "too large for their unit"),
        ("nan", nan, "not finite"),
        ("too large", huge, "too large: "),
    ] {
        std::fs::write(&bad, &content).unwrap();
        let error = Net::load(&bad).expect_err(what);
        assert_eq!(error.kind(), std::io::ErrorKind::InvalidData, "{what}: {error}");
        assert!(error.to_string().contains(expected), "{what}: {error}");
        assert!(error.to_string().starts_with(&bad.display().to_string()), "{what}: {error}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The evaluator with a network is the evaluator without it plus the network's output.
#[test]
fn the_evaluator_adds_the_network() {
    let mut weights = crate::eval::weights::bundled().unwrap();
    let plain = crate::eval::Evaluator::new(&weights);
    let net = random_net(NetShape { dim: 8, hidden: 8, buckets: 4, inputs: Inputs::MovesAndMobility }, 5);
    weights.net = Some(std::sync::Arc::new(net.clone()));
    let with = crate::eval::Evaluator::new(&weights);
    let mut differ = 0;
    for board in positions(9, 200) {
        let features = Features::new(board.player, board.opponent);
        let discs = 64 - board.empty_count();
        let args = (board.player.0.count_ones(), board.moves().count(), board.pass().moves().count());
        let a = plain.evaluate_scaled(discs, args.0, &features, Color::Black, args.1, args.2);
        let b = with.evaluate_scaled(discs, args.0, &features, Color::Black, args.1, args.2);
        let n = net.evaluate(discs, &features, Color::Black, args.1, args.2);
        assert_eq!(b - a, net.evaluate_scaled(discs, &features, Color::Black, args.1, args.2));
        assert!((n * crate::eval::SCALE as f32 - (b - a) as f32).abs() <= 0.5, "{n}: {}", b - a);
        differ += usize::from(a != b);
    }
    assert!(differ > 150);
}

/// The vector code gives the portable code's value bit for bit, for every shape it has code for, in every bucket and
/// from both views, with and without the extra rows (and it is the code the search runs where the CPU has AVX2 and
/// FMA).
#[test]
fn the_vector_code_gives_the_portable_value_exactly() {
    let boards = positions(21, 120);
    let shapes = [16, 32, 48, 64, 80, 96, 128].into_iter().flat_map(|d| [16, 32, 64].map(|h| (d, h)));
    let inputs = [Inputs::Patterns, Inputs::MovesAndMobility];
    for (n, ((dim, hidden), inputs)) in shapes.flat_map(|s| inputs.map(|i| (s, i))).enumerate() {
        let shape = NetShape { dim, hidden, buckets: 2, inputs };
        let net = random_net(shape, 100 + n as u64);
        #[cfg(target_arch = "x86_64")]
        if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
            assert!(net.forward.is_vectorised(), "{shape:?}");
        }
        for board in &boards {
            let discs = 64 - board.empty_count();
            let b = bucket(discs as usize - 4, shape.buckets);
            let features = Features::new(board.player, board.opponent);
            let (m, o) = mobility(board);
            let extras = net.forward.extra_row_starts(b, discs as usize - 4, m, o);
            let extras = &extras[..inputs.extra_features()];
            for view in 0..2 {
                let fast = net.forward.evaluate(discs, &features, view, m, o);
                let reference = net.forward.portable(b, &features, view, extras);
                assert_eq!(fast.to_bits(), reference.to_bits(), "{shape:?} view {view}: {fast} vs {reference}");
            }
        }
    }
}
