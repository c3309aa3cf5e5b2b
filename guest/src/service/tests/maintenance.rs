//! Maintenance: a broken index is rebuilt from the file.

use super::{alice, search, service};
use crate::api::*;
use crate::fake::FakePorts;
use crate::service::MemoryService;

#[test]
fn a_broken_index_is_rebuilt_from_the_file_without_embedding_calls() {
    let mut s = service();
    s.add(&alice(), NewMemory::text("I'm allergic to peanuts")).unwrap();
    s.add(&alice(), NewMemory::text("My favorite color is blue")).unwrap();
    let calls = s.ports().embed_calls.get();
    // A fresh instance over a broken index, as after `rm memory.db`.
    let ports = std::mem::take(&mut *s.ports().files.borrow_mut());
    let fresh = FakePorts::new();
    *fresh.files.borrow_mut() = ports;
    fresh.index_broken.set(true);
    let mut s2 = MemoryService::new(fresh);
    let report = s2.rebuild_index().unwrap();
    assert_eq!((report.indexed, report.embedded, report.pending), (2, 0, 0));
    assert_eq!(
        s2.ports().embed_calls.get(),
        0,
        "rebuild reused stored vectors ({calls} before)"
    );
    assert_eq!(search(&mut s2, &alice(), "peanuts")[0], "I'm allergic to peanuts");
}
