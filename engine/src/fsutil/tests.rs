use std::time::Duration;

use super::*;

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

#[test]
fn saves_keeps_a_backup_and_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("book.egbk3");
    save_atomically(&path, Backup::Keep, |w| w.write_all(b"first")).unwrap();
    assert!(!backup_path(&path).exists());
    save_atomically(&path, Backup::Keep, |w| w.write_all(b"second")).unwrap();
    assert_eq!(fs::read(&path).unwrap(), b"second");
    assert_eq!(fs::read(backup_path(&path)).unwrap(), b"first");
    assert_eq!(names_in(dir.path()), ["book.egbk3", "book.egbk3.bak"]);
}

#[test]
fn without_a_backup_an_older_bak_stays_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("book.egbk3");
    save_atomically(&path, Backup::Keep, |w| w.write_all(b"before the run")).unwrap();
    save_atomically(&path, Backup::Keep, |w| w.write_all(b"first autosave")).unwrap();
    save_atomically(&path, Backup::None, |w| w.write_all(b"second autosave")).unwrap();
    assert_eq!(fs::read(&path).unwrap(), b"second autosave");
    assert_eq!(fs::read(backup_path(&path)).unwrap(), b"before the run");
}

#[test]
fn a_failing_writer_leaves_the_old_file_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("book.dat");
    save_atomically(&path, Backup::None, |w| w.write_all(b"old")).unwrap();
    let error = save_atomically(&path, Backup::Keep, |w| {
        w.write_all(b"partial")?;
        Err(io::Error::other("stopped"))
    })
    .unwrap_err();
    assert_eq!(error.step, SaveStep::WriteTemporary);
    assert_eq!(error.refusal(), None);
    assert_eq!(fs::read(&path).unwrap(), b"old");
    assert_eq!(names_in(dir.path()), ["book.dat"]);
}

/// Makes `path` look untouched for `age`.
fn age(path: &Path, age: Duration) {
    let file = File::options().write(true).open(path).unwrap();
    file.set_modified(SystemTime::now() - age).unwrap();
}

#[cfg(target_os = "linux")]
#[test]
fn leftovers_of_a_dead_process_are_removed_and_those_of_a_live_one_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("book.egbk3");
    fs::write(&path, b"old").unwrap();
    // Above Linux's largest possible process id (2^22), so surely gone.
    let dead = 4_000_000_000_u32;
    assert!(!Path::new(&format!("/proc/{dead}")).exists());
    let live = std::process::id();
    let leftovers = [
        (format!(".book.egbk3.tmp-{dead}-0-123"), Duration::from_secs(3600), true),
        (format!(".book.egbk3.tmp-{dead}-7-99"), Duration::from_secs(120), true),
        // Just written: perhaps a process of another machine sharing the folder, so kept for now.
        (format!(".book.egbk3.tmp-{dead}-8-99"), Duration::ZERO, false),
        (format!(".book.egbk3.tmp-{live}-0-123"), Duration::from_secs(3600), false),
        // Another file's leftover, and names that only look alike.
        (format!(".other.egbk3.tmp-{dead}-0-123"), Duration::from_secs(3600), false),
        (format!(".book.egbk3.tmp-{dead}-0"), Duration::from_secs(3600), false),
        (format!(".book.egbk3.tmp-{dead}-0-12x"), Duration::from_secs(3600), false),
        (format!("book.egbk3.tmp-{dead}-0-123"), Duration::from_secs(3600), false),
    ];
    for (name, quiet, _) in &leftovers {
        fs::write(dir.path().join(name), b"partial").unwrap();
        age(&dir.path().join(name), *quiet);
    }
    let saved = save(&path, Backup::Keep, |w| w.write_all(b"new")).unwrap();
    assert_eq!(saved.leftovers_removed, 2);
    for (name, _, removed) in &leftovers {
        assert_eq!(!dir.path().join(name).exists(), *removed, "{name}");
    }
    assert_eq!(fs::read(&path).unwrap(), b"new");
}

#[test]
fn temporary_names_are_recognised_with_their_process() {
    let name = OsStr::new("a.toml");
    let tmp = leftover::temporary_name(name);
    assert_eq!(leftover::temporary_pid(&tmp, name), Some(std::process::id()));
    assert_eq!(leftover::temporary_pid(&tmp, OsStr::new("a.tom")), None);
    assert_eq!(leftover::process(std::process::id()), leftover::Process::Running);
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_is_followed_and_stays_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let real_dir = dir.path().join("books");
    fs::create_dir(&real_dir).unwrap();
    let target = real_dir.join("main.egbk3");
    fs::write(&target, b"old").unwrap();
    let link = dir.path().join("link.egbk3");
    std::os::unix::fs::symlink("books/main.egbk3", &link).unwrap();
    let saved = save(&link, Backup::Keep, |w| w.write_all(b"new")).unwrap();
    assert_eq!(saved.file, real_dir.join("main.egbk3"));
    assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link is still a link");
    assert_eq!(fs::read(&target).unwrap(), b"new");
    assert_eq!(fs::read(&link).unwrap(), b"new");
    // The backup and the temporary file live beside the target.
    assert_eq!(names_in(&real_dir), ["main.egbk3", "main.egbk3.bak"]);
    assert_eq!(fs::read(real_dir.join("main.egbk3.bak")).unwrap(), b"old");
    assert_eq!(names_in(dir.path()), ["books", "link.egbk3"]);
    // A dangling link gets its target created.
    let dangling = dir.path().join("new.egbk3");
    std::os::unix::fs::symlink(real_dir.join("later.egbk3"), &dangling).unwrap();
    save_atomically(&dangling, Backup::Keep, |w| w.write_all(b"created")).unwrap();
    assert_eq!(fs::read(real_dir.join("later.egbk3")).unwrap(), b"created");
    // Links in a circle are refused.
    std::os::unix::fs::symlink("loop-b", dir.path().join("loop-a")).unwrap();
    std::os::unix::fs::symlink("loop-a", dir.path().join("loop-b")).unwrap();
    let error = save_atomically(&dir.path().join("loop-a"), Backup::Keep, |w| w.write_all(b"x")).unwrap_err();
    assert_eq!(error.refusal(), Some(&Refusal::LinkLoop));
}

#[cfg(unix)]
#[test]
fn the_previous_files_permissions_are_kept() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("private.toml");
    fs::write(&path, b"secret").unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
    save_atomically(&path, Backup::Keep, |w| w.write_all(b"new secret")).unwrap();
    assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o7777, 0o600);
    fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
    save_atomically(&path, Backup::None, |w| w.write_all(b"again")).unwrap();
    assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o7777, 0o640);
}

#[test]
fn a_read_only_file_is_refused_and_left_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("protected.egbk3");
    fs::write(&path, b"keep me").unwrap();
    let mut permissions = fs::metadata(&path).unwrap().permissions();
    permissions.set_readonly(true);
    fs::set_permissions(&path, permissions).unwrap();
    // The permissions decide, not whether the system would let this process write (an administrator could).
    let error = save_atomically(&path, Backup::Keep, |w| w.write_all(b"replaced")).unwrap_err();
    assert_eq!((error.step, error.refusal()), (SaveStep::CheckPath, Some(&Refusal::ReadOnly)));
    assert!(error.to_string().contains("protected.egbk3"), "{error}");
    assert!(error.to_string().contains("read-only"), "{error}");
    assert_eq!(fs::read(&path).unwrap(), b"keep me");
    assert_eq!(names_in(dir.path()), ["protected.egbk3"]);
    let error = check_writable(&path).unwrap_err();
    assert_eq!(error.refusal(), Some(&Refusal::ReadOnly));
}

#[test]
fn a_folder_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("book.egbk3");
    fs::create_dir(&path).unwrap();
    let error = save_atomically(&path, Backup::Keep, |w| w.write_all(b"x")).unwrap_err();
    assert_eq!(error.refusal(), Some(&Refusal::NotAFile(NodeKind::Directory)));
    assert!(error.to_string().contains("it is a folder, not a regular file"), "{error}");
    assert!(path.is_dir());
    assert_eq!(names_in(dir.path()), ["book.egbk3"]);
    assert_eq!(check_writable(&path).unwrap_err().refusal(), Some(&Refusal::NotAFile(NodeKind::Directory)));
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&path).status();
    if !made.is_ok_and(|status| status.success()) {
        println!("skipped: mkfifo is not available");
        return;
    }
    let error = save_atomically(&path, Backup::Keep, |w| w.write_all(b"x")).unwrap_err();
    assert_eq!(error.refusal(), Some(&Refusal::NotAFile(NodeKind::Fifo)));
}

#[test]
fn check_writable_leaves_nothing_behind_and_fails_in_a_missing_folder() {
    let dir = tempfile::tempdir().unwrap();
    check_writable(&dir.path().join("new.egbk3")).unwrap();
    fs::write(dir.path().join("old.egbk3"), b"x").unwrap();
    check_writable(&dir.path().join("old.egbk3")).unwrap();
    assert_eq!(names_in(dir.path()), ["old.egbk3"]);
    let error = check_writable(&dir.path().join("missing").join("new.egbk3")).unwrap_err();
    assert_eq!((error.step, error.source.kind()), (SaveStep::CheckPath, io::ErrorKind::NotFound));
}

#[test]
fn a_second_lock_is_refused_until_the_first_is_released() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("book.egbk3");
    let first = FileLock::try_lock(&path).unwrap();
    assert_eq!(first.path(), path);
    match FileLock::try_lock(&path) {
        Err(LockError::Held { file, lock, holder }) => {
            assert_eq!((file, lock), (path.clone(), dir.path().join("book.egbk3.lock")));
            // On Windows the locked file cannot be read by others, so the holder may be unknown there.
            if cfg!(unix) {
                assert_eq!(holder, Some(std::process::id()));
            }
        }
        other => panic!("expected Held, got {other:?}"),
    }
    drop(first);
    let _again = FileLock::try_lock(&path).unwrap();
}

#[test]
fn a_rescue_file_goes_beside_the_file_with_a_time_stamp() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("book.egbk3");
    let time = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
    assert_eq!(rescue_path(&path, time), dir.path().join("book.rescue-20231114-221320.egbk3"));
    let first = save_rescue(&path, &mut |w| w.write_all(b"work")).unwrap();
    let second = save_rescue(&path, &mut |w| w.write_all(b"more work")).unwrap();
    assert_ne!(first, second, "a second rescue within the second gets its own name");
    assert_eq!(first.parent(), Some(dir.path()));
    assert_eq!((fs::read(&first).unwrap(), fs::read(&second).unwrap()), (b"work".to_vec(), b"more work".to_vec()));
}

#[test]
fn a_rescue_file_goes_to_the_temporary_folder_when_the_files_folder_fails() {
    let dir = tempfile::tempdir().unwrap();
    // The file's folder is a file: nothing can be written there.
    fs::write(dir.path().join("not-a-folder"), b"").unwrap();
    let path = dir.path().join("not-a-folder").join("book.egbk3");
    let rescue = save_rescue(&path, &mut |w| w.write_all(b"work")).unwrap();
    assert_eq!(rescue.parent(), Some(std::env::temp_dir().as_path()));
    assert_eq!(fs::read(&rescue).unwrap(), b"work");
    fs::remove_file(&rescue).unwrap();
}
