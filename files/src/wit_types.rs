//! The mapping between this crate's types and the `files` interface's, for every crate that
//! has bindings of `wit/files.wit` (the Rust host imports the interface, the files component
//! exports it): `map_wit_types!(files)`, with the bindings module in scope under that name,
//! writes the `From`s both ways (the orphan rule asks that it be written there).

/// Writes the `From` conversions between the bindings' `collection`, `file-state`, `chunk`
/// and `error` (in the bindings module `$wit`) and this crate's types.
#[macro_export]
macro_rules! map_wit_types {
    ($wit:ident) => {
        impl From<$wit::Collection> for $crate::Collection {
            fn from(c: $wit::Collection) -> Self {
                match c {
                    $wit::Collection::Memories => $crate::Collection::Memories,
                    $wit::Collection::People => $crate::Collection::People,
                    $wit::Collection::Archive => $crate::Collection::Archive,
                    $wit::Collection::Sessions => $crate::Collection::Sessions,
                    $wit::Collection::Messages => $crate::Collection::Messages,
                }
            }
        }

        impl From<$crate::Collection> for $wit::Collection {
            fn from(c: $crate::Collection) -> Self {
                match c {
                    $crate::Collection::Memories => $wit::Collection::Memories,
                    $crate::Collection::People => $wit::Collection::People,
                    $crate::Collection::Archive => $wit::Collection::Archive,
                    $crate::Collection::Sessions => $wit::Collection::Sessions,
                    $crate::Collection::Messages => $wit::Collection::Messages,
                }
            }
        }

        impl From<$crate::FileState> for $wit::FileState {
            fn from(s: $crate::FileState) -> Self {
                $wit::FileState {
                    generation: s.generation,
                    end: s.end,
                }
            }
        }

        impl From<$crate::Chunk> for $wit::Chunk {
            fn from(c: $crate::Chunk) -> Self {
                $wit::Chunk {
                    data: c.data,
                    end: c.end,
                    generation: c.generation,
                }
            }
        }

        impl From<$crate::FileError> for $wit::Error {
            fn from(e: $crate::FileError) -> Self {
                match e {
                    $crate::FileError::Io(m) => $wit::Error::Io(m),
                    $crate::FileError::InvalidLine(m) => $wit::Error::InvalidLine(m),
                    $crate::FileError::ReadOnly(m) => $wit::Error::ReadOnly(m),
                }
            }
        }
    };
}
