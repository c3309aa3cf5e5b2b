//! Tests of the crate as a whole, and the in-memory ports every module's tests run on.

pub mod fake;
mod reader_props;
mod reading_props;
