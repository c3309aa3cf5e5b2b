//! The collections on a real temporary folder.

use std::collections::HashSet;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use base64::Engine as _;

use crate::native::NativeFs;
use crate::*;

type Store = FileStore<NativeFs>;

/// A home's folders, as the host makes them.
fn home() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("memory")).unwrap();
    dir
}

fn store() -> (tempfile::TempDir, Store) {
    let dir = home();
    let files = FileStore::new(NativeFs::new(dir.path()));
    (dir, files)
}

/// Where a collection's file is, on the disk.
fn at(dir: &Path, c: Collection) -> PathBuf {
    dir.join(paths::collection(c))
}

#[test]
fn reads_incrementally_and_notices_a_replace() {
    let (_d, mut files) = store();
    assert_eq!(files.read(Collection::Memories, 0, None).unwrap().data, "");
    files.append(Collection::Memories, &["a".into(), "b".into()]).unwrap();
    let first = files.read(Collection::Memories, 0, None).unwrap();
    assert_eq!(first.data, "a\nb\n");
    let state = files.append(Collection::Memories, &["c".into()]).unwrap();
    let next = files
        .read(Collection::Memories, first.end, Some(first.generation))
        .unwrap();
    assert_eq!((next.data.as_str(), next.generation), ("c\n", first.generation));
    assert_eq!((state.end, state.generation), (next.end, next.generation));
    files.replace(Collection::Memories, &["z".into()]).unwrap();
    let after = files
        .read(Collection::Memories, next.end, Some(next.generation))
        .unwrap();
    assert_eq!(after.data, "z\n");
    assert_ne!(after.generation, next.generation);
}

#[test]
fn a_pinned_read_sees_the_files_as_they_stood() {
    let (d, mut writer) = store();
    writer.append(Collection::Memories, &["a".into()]).unwrap();
    writer.commit().unwrap();
    let mut reader = FileStore::new(NativeFs::new(d.path()));
    reader.pin().unwrap();
    let pinned = reader.state(Collection::Memories).unwrap();
    // Another process appends, replaces, and makes a collection that was missing.
    writer.append(Collection::Memories, &["b".into()]).unwrap();
    writer.append(Collection::People, &["p".into()]).unwrap();
    writer.commit().unwrap();
    let whole = reader.read(Collection::Memories, 0, None).unwrap();
    assert_eq!((whole.data.as_str(), whole.end), ("a\n", pinned.end));
    assert_eq!(whole.generation, pinned.generation);
    assert_eq!(reader.read(Collection::People, 0, None).unwrap().data, "");
    writer.replace(Collection::Memories, &["z".into()]).unwrap();
    writer.commit().unwrap();
    let again = reader.read(Collection::Memories, 0, Some(whole.generation)).unwrap();
    assert_eq!(again.data, "a\n", "the replaced file is read through its old handle");
    assert_eq!(reader.state(Collection::Memories).unwrap(), pinned);
    // Let go, the reader sees the files as they are.
    reader.unpin();
    let now = reader
        .read(Collection::Memories, whole.end, Some(whole.generation))
        .unwrap();
    assert_eq!(now.data, "z\n");
    assert_ne!(now.generation, whole.generation);
    assert_eq!(reader.read(Collection::People, 0, None).unwrap().data, "p\n");
}

/// A reader that never took the lock pins the collections where a commit reported them,
/// whatever a writer appends meanwhile; a collection replaced or cut since pins nothing.
#[test]
fn a_read_without_the_lock_pins_where_the_last_commit_left_the_files() {
    let (d, mut writer) = store();
    writer.append(Collection::Memories, &["a".into(), "b".into()]).unwrap();
    let states = writer.commit_reporting().unwrap().expect("every state");
    assert_eq!(states.len(), Collection::ALL.len());
    assert_eq!(states[Collection::Memories.position()].end, 4);
    assert_eq!(states[Collection::People.position()].end, 0);
    // The next call is under way: a line appended, a collection made.
    writer.append(Collection::Memories, &["c".into()]).unwrap();
    writer.append(Collection::People, &["p".into()]).unwrap();
    let mut reader = FileStore::new(NativeFs::new(d.path()));
    assert!(reader.pin_at(&states).unwrap());
    let read = reader.read(Collection::Memories, 0, None).unwrap();
    assert_eq!((read.data.as_str(), read.end), ("a\nb\n", 4));
    assert_eq!(read.generation, states[0].generation);
    assert_eq!(reader.read(Collection::People, 0, None).unwrap().data, "");
    writer.commit().unwrap();
    assert_eq!(reader.state(Collection::Memories).unwrap(), states[0]);
    reader.unpin();

    // Replaced since, or cut shorter than recorded: nothing is pinned.
    let made = writer.commit_reporting().unwrap().unwrap();
    writer.replace(Collection::Memories, &["z".into()]).unwrap();
    assert!(!reader.pin_at(&made).unwrap());
    assert!(!reader.pinned());
    writer.commit().unwrap();
    let mut longer = writer.commit_reporting().unwrap().unwrap();
    longer[Collection::Memories.position()].end += 1;
    assert!(!reader.pin_at(&longer).unwrap());
    longer[Collection::Memories.position()].end -= 1;
    assert!(reader.pin_at(&longer).unwrap());
    // Of another layout: nothing.
    assert!(!reader.pin_at(&longer[..2]).unwrap());
}

/// A commit says whether the call wrote anything.
#[test]
fn a_store_knows_whether_its_call_wrote() {
    let (_d, mut files) = store();
    assert!(!files.has_writes());
    files.append(Collection::Messages, &["m".into()]).unwrap();
    assert!(files.has_writes());
    files.commit().unwrap();
    assert!(!files.has_writes());
}

#[test]
fn a_generation_is_never_handed_out_twice() {
    // ext4 gives a renamed-over file's inode number back after two replaces; the
    // generation must not follow it.
    let (_d, mut files) = store();
    let mut seen = HashSet::new();
    for i in 0..50 {
        let state = files.replace(Collection::Memories, &[format!("line {i}")]).unwrap();
        assert!(seen.insert(state.generation), "generation repeated at replace {i}");
    }
}

#[test]
fn an_append_ends_an_unterminated_last_line_first() {
    let d = home();
    let mut files = FileStore::new(NativeFs::new(d.path())).holding_lone_lines();
    std::fs::write(at(d.path(), Collection::Memories), "{\"torn\": 1}").unwrap();
    files.append(Collection::Memories, &["next".into()]).unwrap();
    files.commit().unwrap();
    files.append(Collection::Memories, &["a".into(), "b".into()]).unwrap();
    std::fs::write(at(d.path(), Collection::People), "{\"torn\": 2}").unwrap();
    files.append(Collection::People, &["p".into(), "q".into()]).unwrap();
    files.commit().unwrap();
    let text = std::fs::read_to_string(at(d.path(), Collection::Memories)).unwrap();
    assert_eq!(text, "{\"torn\": 1}\nnext\na\nb\n", "a line held for the commit");
    let text = std::fs::read_to_string(at(d.path(), Collection::People)).unwrap();
    assert_eq!(text, "{\"torn\": 2}\np\nq\n", "lines written at once");
}

/// Where a collection's file stands on the disk: its bytes.
fn on_disk(dir: &Path, c: Collection) -> String {
    std::fs::read_to_string(at(dir, c)).unwrap_or_default()
}

#[test]
fn a_calls_one_line_is_written_at_its_commit_without_the_journal() {
    let d = home();
    let mut files = FileStore::new(NativeFs::new(d.path())).holding_lone_lines();
    let journal = d.path().join(paths::JOURNAL);
    files.append(Collection::Memories, &["first".into()]).unwrap(); // a file made: journal
    files.commit().unwrap();
    let journal_before = std::fs::read(&journal).unwrap();
    let before = files.state(Collection::Memories).unwrap();
    let state = files.append(Collection::Memories, &["second".into()]).unwrap();
    assert_eq!(on_disk(d.path(), Collection::Memories), "first\n", "held, not written");
    assert_eq!(
        (state.generation, state.end),
        (before.generation, before.end + 7),
        "where the collection will stand"
    );
    files.commit().unwrap();
    assert_eq!(on_disk(d.path(), Collection::Memories), "first\nsecond\n");
    assert_eq!(files.state(Collection::Memories).unwrap(), state);
    assert_eq!(
        std::fs::read(&journal).unwrap(),
        journal_before,
        "the journal was not written"
    );

    // Killed before the commit (dropped): nothing was written, nothing to undo.
    files
        .append(Collection::Memories, &["never acknowledged".into()])
        .unwrap();
    drop(files);
    let mut next = FileStore::new(NativeFs::new(d.path())).holding_lone_lines();
    next.roll_back().unwrap();
    assert_eq!(on_disk(d.path(), Collection::Memories), "first\nsecond\n");
    // A call that fails is rolled back: the held line goes unwritten.
    next.append(Collection::Memories, &["failed".into()]).unwrap();
    next.roll_back().unwrap();
    next.commit().unwrap();
    assert_eq!(on_disk(d.path(), Collection::Memories), "first\nsecond\n");
}

#[test]
fn a_held_line_is_written_in_the_journal_once_the_call_does_more() {
    let d = home();
    let mut files = FileStore::new(NativeFs::new(d.path())).holding_lone_lines();
    files.append(Collection::Memories, &["m0".into(), "m1".into()]).unwrap();
    files.append(Collection::People, &["p0".into(), "p1".into()]).unwrap();
    files.commit().unwrap();

    // A second write: the held line goes first, both in one transaction, undone together.
    files.append(Collection::Memories, &["m2".into()]).unwrap();
    files.append(Collection::People, &["p2".into()]).unwrap();
    assert_eq!(on_disk(d.path(), Collection::Memories), "m0\nm1\nm2\n");
    assert!(files.journal.pending(&mut files.fs).unwrap().is_some());
    drop(files); // killed before the commit
    let mut files = FileStore::new(NativeFs::new(d.path())).holding_lone_lines();
    files.roll_back().unwrap();
    assert_eq!(on_disk(d.path(), Collection::Memories), "m0\nm1\n");
    assert_eq!(on_disk(d.path(), Collection::People), "p0\np1\n");

    // A read or the state of the collection, or a replace, sees the line written.
    files.append(Collection::Memories, &["m2".into()]).unwrap();
    let chunk = files.read(Collection::Memories, 0, None).unwrap();
    assert_eq!(chunk.data, "m0\nm1\nm2\n");
    files.roll_back().unwrap();
    assert_eq!(
        on_disk(d.path(), Collection::Memories),
        "m0\nm1\n",
        "undone in the journal"
    );
    files.append(Collection::Memories, &["m2".into()]).unwrap();
    assert_eq!(files.state(Collection::Memories).unwrap().end, 9);
    files.roll_back().unwrap();
    files.append(Collection::Memories, &["m2".into()]).unwrap();
    files.replace(Collection::People, &["p".into()]).unwrap();
    files.roll_back().unwrap();
    assert_eq!(
        on_disk(d.path(), Collection::Memories),
        "m0\nm1\nm2\n",
        "a replace is a commit point"
    );
    // Another collection's read leaves the line held.
    files.append(Collection::Memories, &["m3".into()]).unwrap();
    files.read(Collection::People, 0, None).unwrap();
    assert_eq!(on_disk(d.path(), Collection::Memories), "m0\nm1\nm2\n");
    files.commit().unwrap();
    assert_eq!(on_disk(d.path(), Collection::Memories), "m0\nm1\nm2\nm3\n");
}

/// The home's files, where every flush of `memories.jsonl` fails once written.
fn failing_flushes(dir: &Path) -> NativeFs {
    NativeFs::new(dir).with_fault_points(native::FaultPoints {
        point: |name| match name {
            "append:memories:synced" => Err("injected".into()),
            _ => Ok(()),
        },
        torn: |_| false,
        abort: |name| panic!("aborted at {name}"),
    })
}

#[test]
fn a_held_line_that_fails_to_be_written_is_cut_off_again() {
    let dir = home();
    std::fs::write(at(dir.path(), Collection::Memories), "kept\n").unwrap();
    let mut files = FileStore::new(failing_flushes(dir.path())).holding_lone_lines();
    let before = files.state(Collection::Memories).unwrap();
    let told = files
        .append(Collection::Memories, &["flushed, then failed".into()])
        .unwrap();
    assert!(files.commit().is_err(), "the call fails");
    assert_eq!(on_disk(dir.path(), Collection::Memories), "kept\n");
    // The guest was told where the collection would end: a new generation makes it read
    // again, rather than read on from there into whatever is appended next.
    let now = files.state(Collection::Memories).unwrap();
    assert_eq!(now.end, before.end);
    assert_ne!(now.generation, told.generation);
    // A call that goes on after its line was lost (one that committed before a remote
    // model) cannot succeed: its next write goes in the journal, and every commit fails
    // until the rollback, which undoes what it wrote after.
    files.append(Collection::People, &["p".into(), "q".into()]).unwrap();
    files.append(Collection::Archive, &["after the loss".into()]).unwrap();
    assert!(files.commit().is_err());
    assert!(files.commit().is_err());
    files.roll_back().unwrap();
    assert_eq!(on_disk(dir.path(), Collection::Memories), "kept\n");
    assert_eq!(on_disk(dir.path(), Collection::People), "");
    assert!(!at(dir.path(), Collection::Archive).exists());
    files.append(Collection::People, &["r".into(), "s".into()]).unwrap();
    files.commit().unwrap();
    assert_eq!(on_disk(dir.path(), Collection::People), "r\ns\n");
}

#[test]
fn a_held_line_that_fails_in_the_journal_is_cut_by_the_rollback() {
    let dir = home();
    std::fs::write(at(dir.path(), Collection::Memories), "kept\n").unwrap();
    std::fs::write(at(dir.path(), Collection::People), "p\n").unwrap();
    let mut files = FileStore::new(failing_flushes(dir.path())).holding_lone_lines();
    let told = files
        .append(Collection::Memories, &["written, then failed".into()])
        .unwrap();
    // A second write puts the line in the journal first: written, its flush fails.
    assert!(files.append(Collection::People, &["q".into()]).is_err());
    assert!(on_disk(dir.path(), Collection::Memories).contains("written, then failed"));
    assert!(files.commit().is_err(), "the call cannot succeed");
    files.roll_back().unwrap();
    assert_eq!(
        on_disk(dir.path(), Collection::Memories),
        "kept\n",
        "cut by the rollback"
    );
    assert_eq!(on_disk(dir.path(), Collection::People), "p\n");
    let now = files.state(Collection::Memories).unwrap();
    assert_ne!(now.generation, told.generation);
}

#[test]
fn a_held_line_dropped_by_a_rollback_changes_the_generation() {
    let d = home();
    std::fs::write(at(d.path(), Collection::Memories), "kept\n").unwrap();
    let mut files = FileStore::new(NativeFs::new(d.path())).holding_lone_lines();
    let told = files.append(Collection::Memories, &["undone".into()]).unwrap();
    files.roll_back().unwrap();
    let now = files.state(Collection::Memories).unwrap();
    assert_eq!(now.end, 5);
    assert_ne!(now.generation, told.generation, "read again, not on from {}", told.end);
    // Another process appends a line as long: a reader at the old generation starts over.
    let mut other = FileStore::new(NativeFs::new(d.path()));
    other.append(Collection::Memories, &["longer!".into()]).unwrap();
    other.commit().unwrap();
    let chunk = files
        .read(Collection::Memories, told.end, Some(told.generation))
        .unwrap();
    assert_eq!(chunk.data, "kept\nlonger!\n");
}

#[test]
fn refuses_lines_that_would_tear_the_file() {
    let (d, mut files) = store();
    for bad in ["", "two\nlines"] {
        let err = files
            .append(Collection::Memories, &["ok".into(), bad.into()])
            .unwrap_err();
        assert!(matches!(err, FileError::InvalidLine(_)));
        assert!(files.replace(Collection::Memories, &[bad.into()]).is_err());
    }
    assert!(!at(d.path(), Collection::Memories).exists(), "nothing was written");
}

#[test]
fn invalid_utf8_is_kept_raw_in_quarantine_and_hidden_from_the_guest() {
    let (d, mut files) = store();
    std::fs::write(at(d.path(), Collection::Memories), b"good\n\xff\xfe bad\n").unwrap();
    let chunk = files.read(Collection::Memories, 0, None).unwrap();
    assert!(chunk.data.starts_with("good\n"));
    assert!(
        !chunk.data.contains(" bad"),
        "the guest gets a marker, not a lossy copy"
    );
    assert_eq!(chunk.end, 12, "offsets count the raw bytes");
    let q = std::fs::read_to_string(d.path().join(paths::quarantine(Collection::Memories))).unwrap();
    let v: serde_json::Value = serde_json::from_str(q.trim()).unwrap();
    let raw = base64::engine::general_purpose::STANDARD
        .decode(v["line_base64"].as_str().unwrap())
        .unwrap();
    assert_eq!(raw, b"\xff\xfe bad");
}

#[test]
fn a_failed_call_is_rolled_back_and_a_replace_commits() {
    let (d, mut files) = store();
    files.append(Collection::Memories, &["kept".into()]).unwrap();
    files.commit().unwrap();
    let before = files.state(Collection::Memories).unwrap();
    files.append(Collection::People, &["p".into()]).unwrap();
    files.append(Collection::Memories, &["undone".into()]).unwrap();
    files.roll_back().unwrap();
    assert_eq!(
        std::fs::read_to_string(at(d.path(), Collection::Memories)).unwrap(),
        "kept\n"
    );
    assert!(
        !at(d.path(), Collection::People).exists(),
        "a file the call made is gone again"
    );
    assert_ne!(
        files.state(Collection::Memories).unwrap().generation,
        before.generation,
        "readers that saw the undone bytes read again"
    );

    files.append(Collection::Archive, &["archived".into()]).unwrap();
    files.replace(Collection::Memories, &["rewritten".into()]).unwrap();
    files
        .append(Collection::People, &["after the commit point".into()])
        .unwrap();
    files.roll_back().unwrap();
    assert_eq!(
        std::fs::read_to_string(at(d.path(), Collection::Archive)).unwrap(),
        "archived\n"
    );
    assert_eq!(
        std::fs::read_to_string(at(d.path(), Collection::Memories)).unwrap(),
        "rewritten\n"
    );
    assert!(!at(d.path(), Collection::People).exists());
}

#[test]
fn a_journal_left_by_a_dead_process_is_rolled_back_by_the_next() {
    let dir = home();
    {
        let mut files = FileStore::new(NativeFs::new(dir.path()));
        files.append(Collection::Memories, &["acknowledged".into()]).unwrap();
        files.commit().unwrap();
        files
            .append(Collection::Memories, &["never acknowledged".into()])
            .unwrap();
        // Dropped without commit or rollback, as a killed process would leave it.
    }
    let mut next = FileStore::new(NativeFs::new(dir.path()));
    next.roll_back().unwrap();
    assert_eq!(
        std::fs::read_to_string(at(dir.path(), Collection::Memories)).unwrap(),
        "acknowledged\n"
    );
}

#[test]
fn the_journal_keeps_one_length_and_is_written_over_in_place() {
    use std::os::unix::fs::MetadataExt;
    let dir = home();
    let journal = dir.path().join(paths::JOURNAL);
    let mut files = FileStore::new(NativeFs::new(dir.path()));
    files.append(Collection::Memories, &["first".into()]).unwrap();
    let open = std::fs::metadata(&journal).unwrap();
    let entry = std::fs::read_to_string(&journal).unwrap();
    assert_eq!(open.len(), 4096);
    assert!(entry.trim_start().starts_with('{'), "{entry:?}");
    files.commit().unwrap();
    for call in 0..3 {
        let text = std::fs::read_to_string(&journal).unwrap();
        assert_eq!(text.len(), 4096, "after commit {call}");
        assert!(text.trim().is_empty(), "a committed journal is empty: {text:?}");
        assert!(files.journal.pending(&mut files.fs).unwrap().is_none());
        files.append(Collection::Memories, &[format!("line {call}")]).unwrap();
        let during = std::fs::metadata(&journal).unwrap();
        // The same file, of the same length: written over, not cut and written again.
        assert_eq!((during.len(), during.ino()), (4096, open.ino()), "call {call}");
        assert!(files.journal.pending(&mut files.fs).unwrap().is_some());
        files.commit().unwrap();
    }
    // A journal of an older version, unpadded, is read as before and padded when written.
    files.append(Collection::Memories, &["kept".into()]).unwrap();
    let padded = std::fs::read_to_string(&journal).unwrap();
    std::fs::write(&journal, padded.trim_end()).unwrap();
    let mut next = FileStore::new(NativeFs::new(dir.path()));
    next.roll_back().unwrap();
    assert_eq!(
        std::fs::read_to_string(at(dir.path(), Collection::Memories)).unwrap(),
        "first\nline 0\nline 1\nline 2\n"
    );
    assert_eq!(std::fs::metadata(&journal).unwrap().len(), 4096);
}

#[test]
fn a_process_whose_journal_another_replaced_records_its_next_call_in_the_new_one() {
    // A long-lived process (a server, a JS or Python host) commits, lets the lock go, and
    // another process's replace renames a new journal over the one it had open.
    let dir = home();
    let mut long_lived = FileStore::new(NativeFs::new(dir.path()));
    long_lived
        .append(Collection::Memories, &["acknowledged".into()])
        .unwrap();
    long_lived.commit().unwrap();
    let mut other = FileStore::new(NativeFs::new(dir.path()));
    other.replace(Collection::People, &["someone".into()]).unwrap();
    other.commit().unwrap();
    long_lived.roll_back().unwrap(); // the next call begins, as every host begins one
    long_lived
        .append(Collection::Memories, &["never acknowledged".into()])
        .unwrap();
    drop(long_lived); // killed before it commits
    let mut next = FileStore::new(NativeFs::new(dir.path()));
    next.roll_back().unwrap();
    assert_eq!(
        std::fs::read_to_string(at(dir.path(), Collection::Memories)).unwrap(),
        "acknowledged\n"
    );
    assert_eq!(
        std::fs::read_to_string(at(dir.path(), Collection::People)).unwrap(),
        "someone\n"
    );
}

#[test]
fn a_call_records_the_tokens_another_process_wrote_since_the_last() {
    // Tokens are read once per call: the next call must not record the ones of the last.
    let dir = home();
    let mut first = FileStore::new(NativeFs::new(dir.path()));
    first.append(Collection::People, &["someone".into()]).unwrap();
    first.commit().unwrap();
    first.read(Collection::People, 0, None).unwrap();
    let mut other = FileStore::new(NativeFs::new(dir.path()));
    other.replace(Collection::People, &["someone else".into()]).unwrap();
    other.commit().unwrap();
    first.roll_back().unwrap();
    first.append(Collection::Memories, &["a memory".into()]).unwrap();
    let journal: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join(paths::JOURNAL)).unwrap()).unwrap();
    let on_disk: u64 = std::fs::read_to_string(dir.path().join(paths::token(Collection::People)))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let recorded = journal["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t[0] == "people")
        .map(|t| t[1].as_u64().unwrap());
    assert_eq!(recorded, Some(on_disk));
}

#[test]
fn files_are_owner_only() {
    let (d, mut files) = store();
    files.append(Collection::Memories, &["x".into()]).unwrap();
    files.replace(Collection::People, &["y".into()]).unwrap();
    for c in [Collection::Memories, Collection::People] {
        let mode = std::fs::metadata(at(d.path(), c)).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{c:?}");
    }
}

#[test]
fn a_rewrite_interrupted_before_its_rename_is_finished_by_the_next_call() {
    let (d, mut files) = store();
    files.append(Collection::Memories, &["a".into(), "b".into()]).unwrap();
    files.commit().unwrap();
    // A delete of "a": its archive copy, then the rewrite committed in the journal, and
    // the process dies before the rename.
    files.append(Collection::Archive, &["a archived".into()]).unwrap();
    let tmp = at(d.path(), Collection::Memories).with_file_name(".memories.jsonl.tmp-1");
    std::fs::write(&tmp, "b\n").unwrap();
    let states = files.states().unwrap();
    files
        .journal
        .record(
            &mut files.fs,
            &states,
            Some((Collection::Memories, "memory/.memories.jsonl.tmp-1")),
            &[],
        )
        .unwrap();
    let mut next = FileStore::new(NativeFs::new(d.path()));
    next.roll_back().unwrap();
    let read = |c| std::fs::read_to_string(at(d.path(), c)).unwrap();
    assert_eq!(read(Collection::Memories), "b\n", "the delete is whole");
    assert_eq!(read(Collection::Archive), "a archived\n", "and its copy kept");
    assert!(!tmp.exists());
}

/// A home with one acknowledged line in each of two collections, and a call's unfinished
/// appends to both, as a killed process leaves them.
fn home_with_an_open_transaction() -> tempfile::TempDir {
    let dir = home();
    let mut files = FileStore::new(NativeFs::new(dir.path()));
    files.append(Collection::Memories, &["kept".into()]).unwrap();
    files.append(Collection::Archive, &["kept copy".into()]).unwrap();
    files.commit().unwrap();
    files.append(Collection::Archive, &["undone copy".into()]).unwrap();
    files.append(Collection::Memories, &["undone".into()]).unwrap();
    dir
}

#[test]
fn a_rollback_killed_after_its_first_cut_finishes_the_others() {
    let d = home_with_an_open_transaction();
    let mut dying = FileStore::new(NativeFs::new(d.path()));
    let pending = dying.journal.pending(&mut dying.fs).unwrap().unwrap();
    let cut = [Collection::Archive, Collection::Memories];
    dying
        .journal
        .record(&mut dying.fs, &pending.states, None, &cut)
        .unwrap();
    // The first cut and its new token are done, then the process dies.
    let archive = pending
        .states
        .iter()
        .find(|b| b.collection == Collection::Archive)
        .unwrap();
    dying.cut_back(archive).unwrap();
    dying.new_token(Collection::Archive).unwrap();

    let mut next = FileStore::new(NativeFs::new(d.path()));
    next.roll_back().unwrap();
    let read = |c| std::fs::read_to_string(at(d.path(), c)).unwrap();
    assert_eq!(read(Collection::Archive), "kept copy\n");
    assert_eq!(read(Collection::Memories), "kept\n", "the second cut is not skipped");
    assert!(next.journal.pending(&mut next.fs).unwrap().is_none());
}

#[test]
fn a_home_copied_while_a_call_was_writing_is_rolled_back_too() {
    let d = home_with_an_open_transaction();
    let copy = tempfile::tempdir().unwrap();
    // Every file copied anew, as `cp -a` or a restore makes them: new inodes.
    let status = std::process::Command::new("cp")
        .arg("-a")
        .arg(format!("{}/.", d.path().display()))
        .arg(copy.path())
        .status()
        .unwrap();
    assert!(status.success());
    let mut next = FileStore::new(NativeFs::new(copy.path()));
    next.roll_back().unwrap();
    let read = |c| std::fs::read_to_string(at(copy.path(), c)).unwrap();
    assert_eq!(read(Collection::Memories), "kept\n");
    assert_eq!(read(Collection::Archive), "kept copy\n");
}

#[test]
fn recovery_touches_only_the_homes_own_files_whatever_the_journal_names() {
    let (d, mut files) = store();
    files.append(Collection::Memories, &["mine".into()]).unwrap();
    files.commit().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let outside = elsewhere.path().join("evil.jsonl");
    std::fs::write(&outside, "not yours\n").unwrap();
    for named in [outside.to_str().unwrap(), "../../etc/passwd", ".journal"] {
        let states = files.states().unwrap();
        files
            .journal
            .record(&mut files.fs, &states, Some((Collection::Memories, named)), &[])
            .unwrap();
        let mut next = FileStore::new(NativeFs::new(d.path()));
        next.roll_back().unwrap();
        assert_eq!(
            std::fs::read_to_string(at(d.path(), Collection::Memories)).unwrap(),
            "mine\n"
        );
    }
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "not yours\n");
}

#[test]
fn quarantine_keeps_every_line_set_aside() {
    let (d, mut files) = store();
    files.quarantine(Collection::People, &["first".into()], "bad").unwrap();
    files
        .quarantine(Collection::People, &["second".into(), "third".into()], "worse")
        .unwrap();
    let text = std::fs::read_to_string(d.path().join("people.quarantine.jsonl")).unwrap();
    let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let kept: Vec<(&str, &str)> = lines
        .iter()
        .map(|v| (v["line"].as_str().unwrap(), v["reason"].as_str().unwrap()))
        .collect();
    assert_eq!(kept, [("first", "bad"), ("second", "worse"), ("third", "worse")]);
    assert!(lines[0]["quarantined_at"].as_str().unwrap().starts_with("20"));
}

#[test]
fn a_replace_larger_than_its_write_size_is_written_whole() {
    let (d, mut files) = store();
    let lines: Vec<String> = (0..60_000)
        .map(|i| format!("{{\"n\":{i},\"pad\":\"{}\"}}", "x".repeat(40)))
        .collect();
    files.replace(Collection::Memories, &lines).unwrap();
    let text = std::fs::read_to_string(at(d.path(), Collection::Memories)).unwrap();
    assert!(
        text.len() > 2 << 20,
        "{} bytes: more than two writes' worth",
        text.len()
    );
    assert_eq!(text, lines.iter().map(|l| format!("{l}\n")).collect::<String>());
}
