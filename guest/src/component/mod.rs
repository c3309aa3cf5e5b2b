//! The thin wit-bindgen adapter. No policy lives here; every conversion between the WIT
//! types and the policy's plain-Rust mirrors (`api`, `ports`) is in this folder and
//! nowhere else:
//!
//! - `wit_ports.rs`: the WIT imports as the policy's [`Ports`](crate::ports::Ports);
//! - `convert.rs`: the export types and the policy's one error onto each interface's;
//! - `guest.rs`: one `Guest` impl per exported interface, each a call on the service.

mod convert;
mod guest;
mod wit_ports;

wit_bindgen::generate!({
    world: "policy",
    path: "../wit",
});
