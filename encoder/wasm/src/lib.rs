//! The transformer embedder's encoder (`ash-memory-encoder`) as a WebAssembly core module, so
//! that the JavaScript and Python hosts embed with the model the Rust host embeds with, from
//! the same arithmetic. The host's build script builds it for wasm32 and writes it to
//! `target/ash_memory_encoder.wasm`, where the other hosts' builds copy it from.
//!
//! The interface is a plain C ABI over the module's exported `memory` (the hosts load it
//! with Node's `WebAssembly` and wasmtime-py, no bindings generator):
//!
//! 1. `alloc(len) -> ptr` reserves `len` bytes; the caller writes the weights' file there
//!    (`host/model/transformer/model.safetensors`).
//! 2. `load(ptr, len) -> status` reads the weights, keeping the bytes for the instance's
//!    life (the matrices are read in place).
//! 3. `encode(ids, lens, count, out) -> status`: `count` texts whose token ids ([CLS] first,
//!    [SEP] last, as the model's `tokenizer.json` frames and truncates them) are laid end to
//!    end as little-endian u32 at `ids`, with each text's length at `lens`; writes
//!    `count * dimension()` float32 at `out`, one unit vector per text.
//! 4. `free(ptr, len)` gives back what `alloc` reserved.
//!
//! A status is 0, or the length of a message about what was wrong, at `error()`. Tokenizing
//! is the caller's: each host has the `tokenizers` library already.

#![cfg(target_arch = "wasm32")]

use std::alloc::Layout;
use std::sync::Mutex;

use ash_memory_encoder::{DIMENSION, Encoder, MAX_TOKENS};

struct State {
    /// Leaked, so that `encode` holds no lock while it runs: a trap there (out of memory)
    /// would otherwise leave the lock taken and every later call trapping.
    encoder: Option<&'static Encoder<'static>>,
    error: String,
}

static STATE: Mutex<State> = Mutex::new(State {
    encoder: None,
    error: String::new(),
});

fn state() -> std::sync::MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Records `message` for `error()` and returns its length, the failing status.
fn fail(message: String) -> u32 {
    let mut s = state();
    s.error = message;
    s.error.len() as u32
}

fn layout(len: u32) -> Option<Layout> {
    Layout::from_size_align(len.max(1) as usize, 8).ok()
}

/// Reserves `len` bytes, 8-aligned; 0 when memory cannot grow that far.
#[unsafe(no_mangle)]
pub extern "C" fn alloc(len: u32) -> *mut u8 {
    match layout(len) {
        // SAFETY: the layout's size is at least 1.
        Some(layout) => unsafe { std::alloc::alloc(layout) },
        None => std::ptr::null_mut(),
    }
}

/// Gives back `len` bytes at `ptr`, which `alloc(len)` returned.
///
/// # Safety
///
/// `ptr` came from `alloc(len)` and is not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn free(ptr: *mut u8, len: u32) {
    if let Some(layout) = layout(len) {
        // SAFETY: as the caller promises.
        unsafe { std::alloc::dealloc(ptr, layout) }
    }
}

/// Reads the weights at `ptr` (`len` bytes, from `alloc(len)`), which stay reserved for the
/// instance's life whether or not they load; a second load replaces the first.
///
/// # Safety
///
/// `ptr` came from `alloc(len)`, holds the file, and is not freed or written again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn load(ptr: *const u8, len: u32) -> u32 {
    // SAFETY: as the caller promises; the bytes are never freed, hence 'static.
    let bytes: &'static [u8] = unsafe { std::slice::from_raw_parts(ptr, len as usize) };
    match Encoder::load(bytes) {
        Ok(encoder) => {
            state().encoder = Some(Box::leak(Box::new(encoder)));
            0
        }
        Err(e) => fail(format!("the transformer's weights did not load: {e}")),
    }
}

/// One unit vector per text; see the crate's documentation for the layout.
///
/// # Safety
///
/// `lens` holds `count` u32, `ids` their sum, and `out` has room for `count * dimension()`
/// float32.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn encode(ids: *const u32, lens: *const u32, count: u32, out: *mut f32) -> u32 {
    if count == 0 {
        return 0;
    }
    let Some(floats) = (count as usize).checked_mul(DIMENSION) else {
        return fail(format!("{count} texts is more vectors than memory holds"));
    };
    let Some(encoder) = state().encoder else {
        return fail("encode before load: load the weights first".into());
    };
    // SAFETY: as the caller promises.
    let lens = unsafe { std::slice::from_raw_parts(lens, count as usize) };
    if let Some(bad) = lens.iter().find(|&&n| n == 0 || n as usize > MAX_TOKENS) {
        return fail(format!("a text of {bad} tokens: each needs 1 to {MAX_TOKENS}"));
    }
    let Some(total) = lens.iter().try_fold(0usize, |sum, &n| sum.checked_add(n as usize)) else {
        return fail("more tokens than memory holds".into());
    };
    // SAFETY: as the caller promises.
    let ids = unsafe { std::slice::from_raw_parts(ids, total) };
    let mut texts = Vec::with_capacity(lens.len());
    let mut at = 0;
    for &n in lens {
        texts.push(ids[at..at + n as usize].to_vec());
        at += n as usize;
    }
    let vectors = encoder.encode_many(&texts);
    // SAFETY: as the caller promises.
    let out = unsafe { std::slice::from_raw_parts_mut(out, floats) };
    for (chunk, v) in out.chunks_exact_mut(DIMENSION).zip(&vectors) {
        chunk.copy_from_slice(v);
    }
    0
}

/// Where the last failure's message is (UTF-8, the failing status's length).
#[unsafe(no_mangle)]
pub extern "C" fn error() -> *const u8 {
    state().error.as_ptr()
}

/// The length of every vector.
#[unsafe(no_mangle)]
pub extern "C" fn dimension() -> u32 {
    DIMENSION as u32
}

/// The most tokens a text may have, [CLS] and [SEP] included.
#[unsafe(no_mangle)]
pub extern "C" fn max_tokens() -> u32 {
    MAX_TOKENS as u32
}
