//! The policy linked natively (feature `native-policy`, on by default): the very guest
//! crate the component is built from, run on the host's capabilities without wasmtime.
//!
//! It is here to measure what the sandbox costs (`ash-memory bench --native` prints
//! component/native ratios from one run), to score retrieval without it
//! (`ash-memory eval --native`), and to show that both give the same answers
//! (the e2e test `native::*` compares their files byte for byte). Everything users reach
//! (the CLI, the servers, [`crate::MemoryStore`]) runs the component: a native policy
//! has no fuel or memory limit, and a bug in it can take the host down.
//!
//! ```no_run
//! use ash_memory::MemoryStore;
//! use ash_memory::native::policy::{Caller, NewMemory, SearchQuery};
//!
//! let mut store = MemoryStore::builder("/tmp/ash-home").open_native()?;
//! let me = Caller::new(Some("alice"), None);
//! store.call(|p| p.add(&me, NewMemory::text("I live in Lisbon")))?;
//! let query = SearchQuery { text: "where do I live".into(), limit: Some(5), about: None };
//! let found = store.call(|p| p.search(&me, &query))?;
//! assert_eq!(found.hits[0].memory.content, "I live in Lisbon");
//! # Ok::<(), ash_memory::Error>(())
//! ```

mod host_ports;

use std::cell::RefCell;

/// The policy crate itself, for its request and answer types.
pub use ash_memory_guest as policy;
use policy::MemoryService;

use crate::clock::Clock;
use crate::error::Error;
use crate::home::Home;
use crate::host_state::HostState;

pub use host_ports::HostPorts;

/// A memory home with the policy running natively; see the module's documentation.
pub struct NativeStore {
    home: Home,
    service: MemoryService<HostPorts>,
}

impl NativeStore {
    pub(crate) fn new(home: Home, state: HostState) -> Self {
        NativeStore {
            home,
            service: MemoryService::new(HostPorts {
                state: RefCell::new(state),
            }),
        }
    }

    /// The home folder.
    pub fn home(&self) -> &std::path::Path {
        self.home.root()
    }

    /// Runs one policy call the way [`crate::MemoryStore`] runs an export: under the
    /// home's lock, as one transaction, committed when it succeeds and rolled back when
    /// it fails.
    pub fn call<T>(
        &mut self,
        f: impl FnOnce(&mut MemoryService<HostPorts>) -> Result<T, policy::Error>,
    ) -> Result<T, Error> {
        self.state().begin_call(crate::home::Access::Write)?;
        let result = f(&mut self.service).map_err(Error::from);
        self.state().end_call(result)
    }

    /// Sets the clock for later calls.
    pub fn set_clock(&mut self, clock: Clock) {
        self.state().clock = clock;
    }

    fn state(&self) -> std::cell::RefMut<'_, HostState> {
        self.service.ports().state.borrow_mut()
    }
}

impl From<policy::Error> for Error {
    fn from(e: policy::Error) -> Self {
        use policy::Error as E;
        match e {
            E::InvalidInput(m) => Error::InvalidInput(m),
            E::SecretRefused(m) => Error::SecretRefused(m),
            E::NotFound(id) => Error::MemoryNotFound(id),
            E::AmbiguousId(prefix) => Error::AmbiguousId(prefix),
            E::UnknownPerson(reference) => Error::PersonNotFound(reference),
            E::Unauthorized(id) => Error::Unauthorized(id),
            E::UnknownTool(name) => Error::UnknownTool(name),
            E::Storage(m) => Error::Storage(m),
            E::Index(m) => Error::Index(m),
        }
    }
}
