use std::sync::OnceLock;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::*;
use crate::eval::PHASES;
use std::fs;

/// `Weights::zero()` written once, shared by the tests.
fn zero_file() -> &'static [u8] {
    static FILE: OnceLock<Vec<u8>> = OnceLock::new();
    FILE.get_or_init(|| {
        let mut bytes = Vec::new();
        write(&Weights::zero(), &mut bytes).unwrap();
        bytes
    })
}

/// [`sparse_weights`]`(2)` written once.
fn sparse_file() -> &'static [u8] {
    static FILE: OnceLock<Vec<u8>> = OnceLock::new();
    FILE.get_or_init(|| to_bytes(&sparse_weights(2)))
}

/// [`random_weights`]`(1)` written once.
fn random_file() -> &'static [u8] {
    static FILE: OnceLock<Vec<u8>> = OnceLock::new();
    FILE.get_or_init(|| to_bytes(&random_weights(1)))
}

/// Zero weights but for `count` random entries (quick to compress).
fn few_weights(seed: u64, count: usize) -> Weights {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut w = Weights::zero();
    for _ in 0..count {
        let phase = rng.random_range(0..PHASES);
        let group = rng.random_range(0..w.patterns[phase].len());
        let index = rng.random_range(0..w.patterns[phase][group].len());
        w.patterns[phase][group][index] = rng.random();
    }
    w
}

/// Every weight uniform over the whole `i16` range (incompressible).
fn random_weights(seed: u64) -> Weights {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut w = Weights::zero();
    for v in w.patterns.iter_mut().flatten().flatten() {
        *v = rng.random();
    }
    for v in w.mobility.iter_mut().chain(w.opponent_mobility.iter_mut()).flatten() {
        *v = rng.random();
    }
    for v in &mut w.bias {
        *v = rng.random();
    }
    for v in w.discs.iter_mut().flatten() {
        *v = rng.random();
    }
    w
}

/// Like trained weights: 80 % of the pattern entries zero (never-seen configurations), the rest small.
fn sparse_weights(seed: u64) -> Weights {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut w = Weights::zero();
    for v in w.patterns.iter_mut().flatten().flatten() {
        if rng.random_bool(0.2) {
            *v = rng.random_range(-1500..1500);
        }
    }
    for v in w.mobility.iter_mut().chain(w.opponent_mobility.iter_mut()).flatten() {
        *v = rng.random_range(-500..500);
    }
    w.tie_symmetric_indices();
    w
}

fn to_bytes(weights: &Weights) -> Vec<u8> {
    let mut bytes = Vec::new();
    write(weights, &mut bytes).unwrap();
    bytes
}

/// A file with this build's header around an arbitrary payload and compressed bytes.
fn craft(payload: &[u8], compressed: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::new();
    write_file(&mut bytes, &expected_shape(PHASES), crc32fast::hash(payload), compressed).unwrap();
    bytes
}

fn deflate(data: &[u8]) -> Vec<u8> {
    let mut encoder = DeflateEncoder::new(Vec::new(), Compression::fast());
    encoder.write_all(data).unwrap();
    encoder.finish().unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shirokuro-weights-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn dir_entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

#[test]
fn weights_round_trip() {
    assert_eq!(parse(zero_file()).unwrap(), Weights::zero());
    for (bytes, weights) in [(random_file(), random_weights(1)), (sparse_file(), sparse_weights(2))] {
        let parsed = parse(bytes).unwrap();
        assert_eq!(parsed, weights);
        // Writing is deterministic: the canonical bytes come back.
        assert_eq!(to_bytes(&parsed), bytes);
    }
}

/// A version-1 file (no disc-count table) is still read, with a zero disc-count table.
#[test]
fn weights_version_1_files_are_read() {
    let mut weights = random_weights(3);
    let mut payload = encode(&weights, &expected_shape(PHASES)).unwrap();
    payload.truncate(payload.len() - PHASES * DISC_TABLE * 2);
    let v1 = shape_of_version(1, PHASES);
    assert_eq!(payload.len(), v1.payload_length);
    let mut bytes = Vec::new();
    write_file(&mut bytes, &v1, crc32fast::hash(&payload), &deflate(&payload)).unwrap();
    bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
    for table in &mut weights.discs {
        table.fill(0);
    }
    assert_eq!(parse(&bytes).unwrap(), weights);
}

#[test]
fn weights_golden_header() {
    let bytes = zero_file();
    assert_eq!(header_len(), 100);
    let mut expected = Vec::new();
    expected.extend_from_slice(b"SHKREVAL");
    for field in [2u32, 30, 256, 33, 11, 9, 10, 10, 8, 8, 8, 8, 7, 6, 5, 4] {
        expected.extend_from_slice(&field.to_le_bytes());
    }
    // The pattern-squares fingerprint of the current 11 groups: changes only if a shape's squares change.
    expected.extend_from_slice(&0xe835_5c89u32.to_le_bytes());
    // 167 462 weights per phase × 30 phases × 2 bytes.
    expected.extend_from_slice(&10_047_720u64.to_le_bytes());
    // CRC-32 of 10 047 720 zero bytes.
    expected.extend_from_slice(&0x9a7e_c3a9u32.to_le_bytes());
    assert_eq!(bytes[..88], expected[..], "header of Weights::zero()");
    let compressed_length = u64::from_le_bytes(bytes[88..96].try_into().unwrap());
    assert_eq!(compressed_length, (bytes.len() - 100) as u64);
    assert_eq!(bytes[96..100], crc32fast::hash(&bytes[100..]).to_le_bytes());
}

#[test]
fn weights_truncated_prefixes_name_an_offset() {
    let bytes = zero_file();
    let len = bytes.len();
    let mut lengths: Vec<usize> = (0..=header_len()).collect();
    lengths.extend((0..200).map(|k| header_len() + (len - header_len()) * k / 200));
    lengths.push(len - 1);
    for cut in lengths {
        match parse(&bytes[..cut]) {
            Err(WeightsError::Truncated { offset, needed, available, .. }) => {
                assert!(offset <= cut, "cut {cut}: offset {offset}");
                assert_eq!(available, cut - offset, "cut {cut}");
                assert!(needed > available as u64, "cut {cut}");
            }
            other => panic!("prefix of {cut} bytes: {other:?}"),
        }
    }
    let message = parse(&bytes[..50]).unwrap_err().to_string();
    assert_eq!(message, "truncated at offset 48: pattern length needs 4 bytes, 2 left");
    let message = parse(&bytes[..1000]).unwrap_err().to_string();
    assert_eq!(message, format!("truncated at offset 100: compressed payload needs {} bytes, 900 left", len - 100));
}

#[test]
fn weights_bit_flips_are_detected() {
    // Every bit of the zero-weights file (about 10 KB).
    let bytes = zero_file();
    for byte in 0..bytes.len() {
        for bit in 0..8 {
            let mut corrupt = bytes.to_vec();
            corrupt[byte] ^= 1 << bit;
            let error = parse(&corrupt).expect_err("flip not detected");
            if byte >= header_len() {
                assert!(
                    matches!(error, WeightsError::ChecksumMismatch { what: "compressed payload", .. }),
                    "byte {byte} bit {bit}: {error}"
                );
            }
        }
    }
    // 300 bits spread over the compressed payload of the sparse file (about 2.8 MB).
    let bytes = sparse_file();
    let len = bytes.len() - header_len();
    for k in 0..300 {
        let byte = header_len() + len * k / 300;
        let mut corrupt = bytes.to_vec();
        corrupt[byte] ^= 1 << (k % 8);
        let error = parse(&corrupt).expect_err("flip not detected");
        assert!(matches!(error, WeightsError::ChecksumMismatch { what: "compressed payload", .. }), "{error}");
    }
}

#[test]
fn weights_header_errors() {
    let bytes = zero_file();

    let mut zip = bytes.to_vec();
    zip[..4].copy_from_slice(b"PK\x03\x04");
    let error = parse(&zip).unwrap_err();
    assert!(matches!(&error, WeightsError::BadMagic { found } if found[..4] == *b"PK\x03\x04"));
    assert_eq!(
        error.to_string(),
        "not a weights file: magic at offset 0 is \"PK\\x03\\x04EVAL\", expected \"SHKREVAL\""
    );
    assert!(matches!(parse(b"hello"), Err(WeightsError::BadMagic { .. })));
    assert!(matches!(parse(b""), Err(WeightsError::Truncated { offset: 0, .. })));

    let mut v3 = bytes.to_vec();
    v3[8] = 3;
    let error = parse(&v3).unwrap_err();
    assert!(matches!(error, WeightsError::UnsupportedVersion { found: 3 }));
    assert_eq!(
        error.to_string(),
        "unsupported weights format version 3 at offset 8: this build reads versions 1 and 2"
    );
    // A version-2 payload under a version-1 header has the wrong length for version 1.
    let mut v1 = bytes.to_vec();
    v1[8] = 1;
    assert!(matches!(
        parse(&v1),
        Err(WeightsError::ShapeMismatch { offset: 76, found: 10_047_720, expected: 10_039_920, .. })
    ));

    // A phase count out of range is named; one in range must fit the stated payload length.
    for count in [0u32, 61, u32::MAX] {
        let mut phases = bytes.to_vec();
        phases[12..16].copy_from_slice(&count.to_le_bytes());
        assert_eq!(
            parse(&phases).unwrap_err().to_string(),
            format!("weights for a different evaluation: phases at offset 12 is {count}, this build reads 1 to 60")
        );
    }
    let mut phases = bytes.to_vec();
    phases[12] = 60;
    assert!(matches!(
        parse(&phases),
        Err(WeightsError::ShapeMismatch { offset: 76, found: 10_047_720, expected: 20_095_440, .. })
    ));
    let mut group = bytes.to_vec();
    group[40] = 9; // group 4 (row 2) has length 8
    assert_eq!(
        parse(&group).unwrap_err().to_string(),
        "weights for a different evaluation: pattern length of group 4 (row 2) at offset 40 is 9, this build expects 8"
    );
    let mut groups = bytes.to_vec();
    groups[24] = 12;
    assert!(matches!(parse(&groups), Err(WeightsError::ShapeMismatch { offset: 24, found: 12, expected: 11, .. })));
    let mut fingerprint = bytes.to_vec();
    fingerprint[72] ^= 0x80;
    assert!(matches!(parse(&fingerprint), Err(WeightsError::ShapeMismatch { offset: 72, .. })));
    // A huge stated payload is rejected before anything is allocated.
    let mut huge = bytes.to_vec();
    huge[76..84].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(matches!(
        parse(&huge),
        Err(WeightsError::ShapeMismatch { offset: 76, found: u64::MAX, expected: 10_047_720, .. })
    ));
    let mut compressed_length = bytes.to_vec();
    compressed_length[88..96].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(matches!(parse(&compressed_length), Err(WeightsError::Truncated { offset: 100, needed: u64::MAX, .. })));

    let mut trailing = bytes.to_vec();
    trailing.extend_from_slice(b"extra");
    let error = parse(&trailing).unwrap_err();
    assert!(matches!(error, WeightsError::TrailingBytes { count: 5, .. }));
    assert_eq!(error.to_string(), format!("5 unexpected bytes at offset {} after the compressed payload", bytes.len()));
}

#[test]
fn weights_payload_errors() {
    let expected = expected_shape(PHASES).payload_length;
    let payload = vec![0u8; expected];

    // The compressed CRC matches but the stream is not DEFLATE.
    let error = parse(&craft(&payload, &[0xff; 64])).unwrap_err();
    assert!(matches!(error, WeightsError::Decompress { offset: 100, .. }), "{error}");
    assert!(error.to_string().starts_with("cannot decompress the payload at offset 100: "));

    // The payload checksum does not match.
    let mut wrong = craft(&payload, &deflate(&payload));
    wrong[84] ^= 1;
    let error = parse(&wrong).unwrap_err();
    assert!(matches!(error, WeightsError::ChecksumMismatch { what: "payload", offset: 84, .. }), "{error}");
    assert_eq!(
        error.to_string(),
        "payload checksum mismatch: the header at offset 84 says 9a7ec3a8, the data gives 9a7ec3a9"
    );

    // Too short.
    let short = &payload[..expected - 2];
    let error = parse(&craft(short, &deflate(short))).unwrap_err();
    assert!(matches!(error, WeightsError::PayloadTooShort { found, .. } if found == expected - 2), "{error}");

    // Too long, e.g. a decompression bomb: inflating stops one byte past the expected length.
    let bomb = vec![0u8; 64 << 20];
    let compressed = deflate(&bomb);
    assert!(compressed.len() < 1 << 20);
    let error = parse(&craft(&payload, &compressed)).unwrap_err();
    assert!(matches!(error, WeightsError::PayloadTooLong { expected: e } if e == expected), "{error}");

    // Bytes after the end of the DEFLATE stream, inside the stated compressed length.
    let mut compressed = deflate(&payload);
    let end = 100 + compressed.len();
    compressed.extend_from_slice(&[1, 2, 3]);
    let error = parse(&craft(&payload, &compressed)).unwrap_err();
    assert!(matches!(error, WeightsError::UnusedCompressedBytes { count: 3, offset } if offset == end), "{error}");
}

#[test]
fn weights_write_rejects_malformed_weights() {
    let mut w = Weights::zero();
    w.patterns[3][2].truncate(59_048);
    let mut out = Vec::new();
    let error = write(&w, &mut out).unwrap_err();
    assert_eq!(error.to_string(), "cannot write weights: patterns[3][2] has 59048 entries, expected 59049");
    assert!(out.is_empty());
    // The bias sets the phase count; every other table must have as many phases.
    let mut w = Weights::zero();
    w.bias.push(0);
    let error = write(&w, &mut out).unwrap_err();
    assert_eq!(error.to_string(), "cannot write weights: patterns has 30 entries, expected 31");
    let mut w = Weights::zero_with_phases(60);
    w.bias.push(0);
    assert!(matches!(write(&w, &mut out), Err(WeightsError::BadWeights { found: 61, expected: 60, .. })));
    assert!(out.is_empty());
}

#[test]
fn weights_load_reports_the_path() {
    let dir = temp_dir("load");
    let missing = dir.join("missing.weights");
    let error = load(&missing).unwrap_err();
    assert!(
        matches!(&error, WeightsError::Read { path, source } if path == &missing && source.kind() == io::ErrorKind::NotFound)
    );
    assert!(error.to_string().starts_with(&format!("cannot read weights file {}: ", missing.display())));

    let corrupt = dir.join("corrupt.weights");
    fs::write(&corrupt, &zero_file()[..500]).unwrap();
    let error = load(&corrupt).unwrap_err();
    assert!(matches!(&error, WeightsError::Parse { path, source } if path == &corrupt
        && matches!(**source, WeightsError::Truncated { offset: 100, .. })));
    assert!(error.to_string().starts_with(&format!("weights file {}: truncated at offset 100", corrupt.display())));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_shipped_network_loads_with_the_weights_and_a_bad_one_is_named() {
    let eval_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../resources/eval");
    let weights_file = eval_dir.join(SHIPPED_FILE);
    let network_file = eval_dir.join(SHIPPED_NETWORK_FILE);
    let plain = load(&weights_file).unwrap();
    assert!(plain.net.is_none());
    let with_net = with_network(plain.clone(), &network_file).unwrap();
    assert!(with_net.net.is_some());
    // The network changes the evaluation (the initial position: the patterns' value plus the network's correction).
    let start = crate::position::Position::INITIAL;
    let features = crate::eval::Features::new(start.black(), start.white());
    let value = |w: &Weights| {
        let b = start.board;
        crate::eval::Evaluator::new(w).evaluate_scaled(
            64 - b.empty_count(),
            b.player.0.count_ones(),
            &features,
            start.side_to_move,
            b.moves().count(),
            b.pass().moves().count(),
        )
    };
    assert_ne!(value(&plain), value(&with_net));

    let dir = temp_dir("network");
    for (name, bytes) in [("missing.net", None), ("damaged.net", Some(&b"SKNET02 and nothing else"[..]))] {
        let path = dir.join(name);
        if let Some(bytes) = bytes {
            fs::write(&path, bytes).unwrap();
        }
        let error = with_network(plain.clone(), &path).unwrap_err();
        assert!(matches!(&error, WeightsError::Network { path: named, .. } if named == &path), "{error}");
        assert!(error.to_string().starts_with(&format!("cannot read network file {}: ", path.display())), "{error}");
        assert_eq!(error.to_string().matches(name).count(), 1, "the file is named once: {error}");
    }
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn weights_save_is_atomic_and_keeps_a_backup() {
    let dir = temp_dir("save");
    let path = dir.join("eval.weights");
    let first = few_weights(4, 1000);
    save(&first, &path).unwrap();
    assert_eq!(load(&path).unwrap(), first);
    assert_eq!(dir_entries(&dir), ["eval.weights"]);

    let second = few_weights(5, 1000);
    save(&second, &path).unwrap();
    assert_eq!(load(&path).unwrap(), second);
    assert_eq!(load(&dir.join("eval.weights.bak")).unwrap(), first);
    assert_eq!(dir_entries(&dir), ["eval.weights", "eval.weights.bak"]);

    // A third save replaces the backup with the second weights.
    save(&Weights::zero(), &path).unwrap();
    assert_eq!(load(&path).unwrap(), Weights::zero());
    assert_eq!(load(&dir.join("eval.weights.bak")).unwrap(), second);

    // A failing save leaves no temporary file behind: the target is a directory, so it cannot be replaced.
    let blocked = dir.join("blocked");
    fs::create_dir(&blocked).unwrap();
    let error = save(&Weights::zero(), &blocked).unwrap_err();
    assert!(matches!(error, WeightsError::Save { .. }), "{error}");
    assert!(error.to_string().starts_with(&format!("cannot save weights file {} (", blocked.display())));
    assert_eq!(dir_entries(&dir), ["blocked", "eval.weights", "eval.weights.bak"]);

    // A missing directory.
    let error = save(&Weights::zero(), &dir.join("no/such/dir/eval.weights")).unwrap_err();
    assert!(matches!(error, WeightsError::Save { step: crate::fsutil::SaveStep::WriteTemporary, .. }), "{error}");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn weights_file_sizes() {
    let zero = zero_file().len();
    let sparse = sparse_file().len();
    let random = random_file().len();
    println!(
        "weights file sizes: zero {zero} bytes, sparse (80 % zero, small values) {sparse} bytes, \
         uniform random i16 {random} bytes"
    );
    for size in [zero, random, sparse] {
        assert!(size < 20_000_000);
    }
}

/// Weights with any phase count from 1 to 60 are written and read back; the header states the count and the
/// payload grows with it.
#[test]
fn weights_with_other_phase_counts_round_trip() {
    for phases in [1, 15, 30, 60] {
        let mut rng = StdRng::seed_from_u64(phases as u64);
        let mut w = Weights::zero_with_phases(phases);
        assert_eq!(w.phases(), phases);
        for _ in 0..2000 {
            let phase = rng.random_range(0..phases);
            let group = rng.random_range(0..w.patterns[phase].len());
            let index = rng.random_range(0..w.patterns[phase][group].len());
            w.patterns[phase][group][index] = rng.random();
        }
        for v in w.discs.iter_mut().flatten().chain(&mut w.bias) {
            *v = rng.random_range(-900..900);
        }
        let bytes = to_bytes(&w);
        assert_eq!(bytes[12..16], (phases as u32).to_le_bytes());
        assert_eq!(u64::from_le_bytes(bytes[76..84].try_into().unwrap()), 167_462 * 2 * phases as u64);
        assert_eq!(parse(&bytes).unwrap(), w, "{phases} phases");
    }
}
