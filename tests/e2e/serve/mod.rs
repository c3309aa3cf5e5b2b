//! `ash-memory serve` over its real Unix socket and loopback TCP: the seed's methods and
//! the rest, the protocol's error codes, oversized frames, tokens that pin a caller,
//! one server per home, clean and unclean stops, and the CLI writing beside the server.

mod lifecycle;
mod methods;
mod reads;
mod tokens;
