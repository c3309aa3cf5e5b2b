//! Test-only support for the e2e tests.

pub mod postgres;

/// The path of the hostile component (`tests/hostile-guest`): it implements the policy
/// world, but `memories.add` of "loop" spins forever and of "hog" allocates without bound.
pub const HOSTILE_COMPONENT: &str = env!("ASH_HOSTILE_COMPONENT");
