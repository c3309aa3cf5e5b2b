//! Writes confined to scopes: what they lock, and what they learn of the writes beside
//! them.

use super::{pg, storage};
use crate::files::Collection;
use crate::home::Access;
use crate::storage::Storage;
use crate::storage::postgres::PgStorage;

fn line(n: u32) -> Vec<String> {
    vec![format!("{{\"id\":\"m{n}\"}}")]
}

#[test]
fn a_confined_write_knows_when_another_appended_or_rolled_back_beside_it() {
    let Some(pg) = pg() else { return };
    let (mut alice, namespace) = storage(pg, "overtaken");
    let mut bob = PgStorage::connect(&pg.url(), &namespace).expect("connect");
    let alice_scopes = ["u:alice".to_owned()];
    let bob_scopes = ["u:bob".to_owned()];

    // Alone: reads, appends, and is not overtaken.
    alice.begin(Access::Write, Some(&alice_scopes)).unwrap();
    assert!(alice.confined());
    let read = alice.read(Collection::Memories, 0, None).unwrap();
    alice.append(Collection::Memories, &line(1)).unwrap();
    assert!(!alice.overtaken());
    alice.commit().unwrap();
    alice.release();

    // Bob's write lands between alice's read and her append: her lines go after his.
    alice.begin(Access::Write, Some(&alice_scopes)).unwrap();
    let read = alice
        .read(Collection::Memories, read.end, Some(read.generation))
        .unwrap();
    bob.begin(Access::Write, Some(&bob_scopes)).unwrap();
    let bobs = bob.append(Collection::Memories, &line(2)).unwrap();
    bob.commit().unwrap();
    bob.release();
    let hers = alice.append(Collection::Memories, &line(3)).unwrap();
    assert!(alice.overtaken() && !alice.regenerated());
    assert_eq!(hers.end, bobs.end + line(3)[0].len() as u64 + 1);
    assert!(read.end < bobs.end);
    alice.commit().unwrap();
    alice.release();

    // Bob's write is rolled back between alice's read and her append: the collection has
    // a new generation, which says nothing of what changed.
    alice.begin(Access::Write, Some(&alice_scopes)).unwrap();
    let read = alice
        .read(Collection::Memories, hers.end, Some(hers.generation))
        .unwrap();
    bob.begin(Access::Write, Some(&bob_scopes)).unwrap();
    bob.append(Collection::Memories, &line(4)).unwrap();
    bob.roll_back().unwrap();
    bob.release();
    let after = alice.append(Collection::Memories, &line(5)).unwrap();
    assert_ne!(after.generation, read.generation);
    assert!(alice.overtaken() && alice.regenerated());
    alice.commit().unwrap();
    alice.release();

    // A write of the whole namespace is not confined, and a new call starts afresh.
    alice.begin(Access::Write, None).unwrap();
    assert!(!alice.confined() && !alice.overtaken() && !alice.regenerated());
    let all = alice.read(Collection::Memories, 0, None).unwrap();
    assert_eq!(all.data.lines().count(), 4, "bob's rolled-back line is not among them");
    alice.commit().unwrap();
    alice.release();
}
