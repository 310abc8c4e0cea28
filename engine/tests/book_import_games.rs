//! `shirokuro-cli book import-games` as a user runs it: a small record file written here, leaves searched at level 1,
//! the fill, a resumed run, two shards merged, and a stop by SIGTERM.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use shirokuro_engine::book::{Book, Entry, load};
use shirokuro_engine::notation::parse_transcript;
use shirokuro_engine::{Board, Move};

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shirokuro-import-games-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shirokuro-cli")).arg("book").args(args).output().expect("run shirokuro-cli")
}

fn stdout(output: &Output) -> String {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// Runs `import-games OUT RECORDS… --plies 4 --min-games 2 --level 1` plus `extra`.
fn import(out: &Path, records: &[&Path], extra: &[&str]) -> String {
    let mut args = vec!["import-games", out.to_str().unwrap()];
    args.extend(records.iter().map(|p| p.to_str().unwrap()));
    args.extend(["--plies", "4", "--min-games", "2", "--level", "1", "--zero-weights", "--hash-level", "12"]);
    args.extend(extra);
    stdout(&cli(&args))
}

fn book_at(path: &Path) -> Book {
    load(path, None, Default::default()).unwrap().0
}

fn entries(book: &Book) -> Vec<(Board, Entry)> {
    let mut all: Vec<_> = book.iter().collect();
    all.sort_unstable_by_key(|(b, _)| (b.player.0, b.opponent.0));
    all
}

fn after(text: &str) -> Board {
    parse_transcript(text).unwrap().end.board
}

/// Two record files: f5 d6 c3 d3 ×3 (once as its mirror image e6 f4 c3 c4), f5 f6 e6 f4 ×2, f5 f4 e3 f6 ×2 (once in
/// the CSV file, after its header); a bad line. Within 4 plies and at least 2 games: the start, f5, f5 d6, f5 d6 c3,
/// f5 d6 c3 d3, f5 f6, f5 f6 e6, f5 f6 e6 f4, f5 f4, f5 f4 e3, f5 f4 e3 f6 — 11 positions, 3 of them leaves.
fn records(dir: &Path) -> (PathBuf, PathBuf) {
    let text = dir.join("games.txt");
    let lines = "f5d6c3d3c4 33 31\nf5d6c3d3c4f4\ne6f4c3c4d3 10 12\nf5f6e6f4e3\nf5f6e6f4\nf5f4e3f6d3 1\nnot a game\n";
    std::fs::write(&text, lines).unwrap();
    let csv = dir.join("games.csv");
    std::fs::write(&csv, "id,winner,moves\n7,1,f5f4e3f6\n").unwrap();
    (text, csv)
}

#[test]
fn imports_resumes_and_shards_merge_into_the_same_book() {
    let dir = temp_dir("run");
    let (text, csv) = records(&dir);
    let out = dir.join("book.egbk3");
    let printed = import(&out, &[&text, &csv], &["--threads", "2"]);
    assert!(printed.contains("7 games read"), "{printed}");
    assert!(printed.contains("11 positions kept (plies 0..=4), 3 leaves"), "{printed}");
    assert!(printed.contains("leaves: 3 searched at level 1"), "{printed}");
    let book = book_at(&out);
    assert_eq!(book.len(), 11);
    for line in ["", "f5", "f5d6", "f5d6c3", "f5d6c3d3", "f5f6", "f5f6e6", "f5f6e6f4", "f5f4", "f5f4e3", "f5f4e3f6"] {
        assert!(book.contains(&after(line)), "{line}");
    }
    // Every position with links holds the negamax of its children, the start included.
    let start = book.get(&Board::INITIAL).unwrap();
    let children = book.move_values(&Board::INITIAL);
    assert_eq!(children.len(), 4);
    assert_eq!(start.value, children.iter().map(|m| m.value).max().unwrap());
    for (board, entry) in book.iter() {
        if let Some(best) = book.best_link_value(&board) {
            assert_eq!(entry.value, best, "{board}");
        }
        assert_eq!(entry.level, 1);
    }
    // The leaves carry the search's best move.
    assert!(book.get(&after("f5f4e3f6")).unwrap().leaf.mv().is_some_and(|mv| mv != Move::Pass));

    // Again: nothing is searched and nothing changes.
    let printed = import(&out, &[&text, &csv], &[]);
    assert!(printed.contains("leaves: 0 searched at level 1, 0 finished games, 3 already in the book"), "{printed}");
    assert_eq!(entries(&book_at(&out)), entries(&book));

    // Two shards, merged, then the unsharded command on the merged book: the same book, with no search.
    let shards: Vec<PathBuf> = (1..=2).map(|k| dir.join(format!("shard-{k}.egbk3"))).collect();
    let mut leaves = 0;
    for (k, shard) in shards.iter().enumerate() {
        let printed = import(shard, &[&text, &csv], &["--shard", &format!("{}/2", k + 1)]);
        let part = book_at(shard);
        leaves += part.len();
        if part.len() < 3 {
            assert!(printed.contains("leaves of other shards are missing"), "{printed}");
        }
    }
    assert_eq!(leaves, 3, "each leaf in one shard");
    let merged = dir.join("merged.egbk3");
    let (first, second) = (shards[0].to_str().unwrap(), shards[1].to_str().unwrap());
    let _ = stdout(&cli(&["merge", first, second, "--out", merged.to_str().unwrap()]));
    let printed = import(&merged, &[&text, &csv], &[]);
    assert!(printed.contains("leaves: 0 searched"), "{printed}");
    assert_eq!(entries(&book_at(&merged)), entries(&book));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unreadable_record_file_is_named() {
    let dir = temp_dir("missing");
    let missing = dir.join("no-such-file.txt");
    let output = cli(&["import-games", dir.join("b.egbk3").to_str().unwrap(), missing.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("no-such-file.txt"));
    assert!(!dir.join("b.egbk3").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Distinct games of 14 plies from a fixed generator (an xorshift choosing among the legal moves).
fn random_games(n: usize) -> String {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut text = String::new();
    for _ in 0..n {
        let mut board = Board::INITIAL;
        for _ in 0..14 {
            let moves: Vec<_> = board.moves().into_iter().collect();
            if moves.is_empty() {
                break;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let square = moves[(state % moves.len() as u64) as usize];
            text.push_str(&square.to_lowercase());
            board = board.play(Move::Place(square)).unwrap();
            if !board.has_moves() {
                break;
            }
        }
        text.push('\n');
    }
    text
}

#[cfg(unix)]
#[test]
fn sigterm_stops_after_the_searches_under_way_saves_and_exits_143() {
    use std::io::Read;
    use std::process::Stdio;

    let dir = temp_dir("sigterm");
    let records = dir.join("random.txt");
    std::fs::write(&records, random_games(3000)).unwrap();
    let out = dir.join("book.egbk3");
    let args = ["--plies", "14", "--min-games", "1", "--level", "10", "--zero-weights", "--threads", "1"];
    let mut child = Command::new(env!("CARGO_BIN_EXE_shirokuro-cli"))
        .args(["book", "import-games", out.to_str().unwrap(), records.to_str().unwrap()])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for a few leaves to be searched.
    let mut stderr = child.stderr.take().unwrap();
    let mut seen = String::new();
    let mut buffer = [0; 4096];
    while !seen.contains("leaves searched 5 /") {
        let n = stderr.read(&mut buffer).unwrap();
        assert!(n > 0, "the command ended before searching: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buffer[..n]));
    }
    let pid = child.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    let _ = stderr.read_to_string(&mut seen);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(143), "{seen}");
    assert!(seen.contains("SIGTERM: stopping"), "{seen}");
    let saved = book_at(&out).len();
    assert!((5..2000).contains(&saved), "{saved} leaves saved");
    let _ = std::fs::remove_dir_all(&dir);
}
