//! How many connections one peer of the sandbox socket may hold before presenting a token.
//!
//! A listener serves at most 512 connections at once. Without a share per peer, one
//! sandbox could open 512 connections and never authenticate, and every other sandbox
//! would wait out its auth window in the kernel's backlog. A peer is a process, as the
//! kernel names it (`SO_PEERCRED`): not a uid, because sandboxes usually share one (the
//! owner's, or one sandbox user), and a cap per uid would let one sandbox lock out its
//! siblings, the very failure this prevents. A connection counts only until it presents a
//! token: an authenticated one is its token's caller's, and revocable.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The most connections one process may hold on the sandbox socket without a token. A
/// client authenticates in its first line, so even a pool opening many connections at
/// once holds few of them here for more than a moment.
pub const MAX_WAITING_PER_PEER: usize = 16;

/// Who is at the other end of a connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Peer {
    Process(i32),
    /// The kernel gave no pid: the uid is all there is.
    User(u32),
}

impl Peer {
    /// The process at the other end of a Unix socket, if the kernel says.
    pub fn of(stream: &tokio::net::UnixStream) -> Option<Peer> {
        let cred = stream.peer_cred().ok()?;
        Some(cred.pid().map_or(Peer::User(cred.uid()), Peer::Process))
    }
}

impl std::fmt::Display for Peer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Peer::Process(pid) => write!(f, "process {pid}"),
            Peer::User(uid) => write!(f, "uid {uid}"),
        }
    }
}

/// The token-less connections of each peer of one listener.
#[derive(Debug, Default)]
pub struct Waiting {
    counts: Mutex<HashMap<Peer, usize>>,
}

/// One token-less connection counted against its peer; dropping it uncounts it.
#[derive(Debug)]
pub struct Ticket {
    waiting: Arc<Waiting>,
    peer: Peer,
}

impl Waiting {
    /// Counts one more connection of `peer`, or `None` when it already holds its share.
    pub fn admit(self: &Arc<Self>, peer: Peer) -> Option<Ticket> {
        let mut counts = self.counts.lock().expect("the counts are never poisoned");
        let count = counts.entry(peer).or_default();
        if *count >= MAX_WAITING_PER_PEER {
            return None;
        }
        *count += 1;
        Some(Ticket {
            waiting: self.clone(),
            peer,
        })
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut counts = self.waiting.counts.lock().expect("the counts are never poisoned");
        if let Some(count) = counts.get_mut(&self.peer) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&self.peer);
            }
        }
    }
}

/// The most connections a listener whose peers cannot be told apart (loopback TCP) holds
/// without a token; a newcomer past it ends the one that has waited longest.
pub const MAX_WAITING_UNNAMED: usize = 64;

/// The token-less connections of a listener whose peers cannot be told apart, oldest
/// first. Refusing newcomers would let one process that holds the share lock everyone out
/// (it stalled every login for the whole auth window); ending the oldest instead costs a
/// client nothing, as it presents its token in its first line, within moments.
#[derive(Debug, Default)]
pub struct Queue {
    waiting: Mutex<std::collections::VecDeque<(u64, Arc<tokio::sync::Notify>)>>,
    next: std::sync::atomic::AtomicU64,
}

/// One token-less connection's place in a [`Queue`]; dropping it leaves the queue.
#[derive(Debug)]
pub struct Place {
    queue: Arc<Queue>,
    id: u64,
    /// Notified when a newcomer ended this connection's wait.
    pub ended: Arc<tokio::sync::Notify>,
}

impl Queue {
    /// A place for one more connection, ending the wait of the oldest beyond the share.
    pub fn join(self: &Arc<Self>) -> Place {
        let id = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let ended = Arc::new(tokio::sync::Notify::new());
        let mut waiting = self.waiting.lock().expect("the queue is never poisoned");
        while waiting.len() >= MAX_WAITING_UNNAMED {
            if let Some((_, oldest)) = waiting.pop_front() {
                // A permit is kept if the connection is not waiting on it this moment.
                oldest.notify_one();
            }
        }
        waiting.push_back((id, ended.clone()));
        Place {
            queue: self.clone(),
            id,
            ended,
        }
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut waiting = self.queue.waiting.lock().expect("the queue is never poisoned");
        waiting.retain(|(id, _)| *id != self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_newcomer_past_the_share_ends_the_longest_wait() {
        let queue = Arc::new(Queue::default());
        let first = queue.join();
        let rest: Vec<Place> = (1..MAX_WAITING_UNNAMED).map(|_| queue.join()).collect();
        let newcomer = queue.join();
        tokio::time::timeout(std::time::Duration::from_secs(1), first.ended.notified())
            .await
            .expect("the oldest is told to end");
        assert_eq!(queue.waiting.lock().unwrap().len(), MAX_WAITING_UNNAMED);
        drop((rest, newcomer, first));
        assert!(queue.waiting.lock().unwrap().is_empty(), "no place is left behind");
    }

    #[test]
    fn a_peer_holds_its_share_and_no_more_and_gets_it_back() {
        let waiting = Arc::new(Waiting::default());
        let mine: Vec<Ticket> = (0..MAX_WAITING_PER_PEER)
            .map(|_| waiting.admit(Peer::Process(7)).expect("within the share"))
            .collect();
        assert!(waiting.admit(Peer::Process(7)).is_none());
        assert!(
            waiting.admit(Peer::Process(8)).is_some(),
            "another process is not held back"
        );
        drop(mine);
        assert!(waiting.admit(Peer::Process(7)).is_some());
        assert!(waiting.counts.lock().unwrap().is_empty(), "no count is left behind");
    }
}
