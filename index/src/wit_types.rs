//! The mapping between a host's WIT bindings and the index's types, written once for the
//! Rust host's wasmtime bindings and the index component's wit-bindgen ones: both generate
//! records of the same names and fields from `wit/index.wit`.

/// Each item of a list, converted: what a bindings layer does to every list it passes.
pub fn each<A, B: From<A>>(list: Vec<A>) -> Vec<B> {
    list.into_iter().map(B::from).collect()
}

/// Each item of a list, converted where every item can be; the first failure otherwise.
pub fn try_each<A, B: TryFrom<A>>(list: Vec<A>) -> Result<Vec<B>, B::Error> {
    list.into_iter().map(B::try_from).collect()
}

/// Implements `From` both ways between the records of a bindings module for
/// `ash:memory/index` (`$wit`) and `ash:memory/files` (`$files`, for `file-state`) and the
/// index crate's types. Called where the bindings are generated (the orphan rule asks for
/// it), with the two modules in scope under those names.
#[macro_export]
macro_rules! map_wit_types {
    ($wit:ident, $files:ident) => {
        impl From<$wit::EntryKind> for $crate::EntryKind {
            fn from(k: $wit::EntryKind) -> Self {
                match k {
                    $wit::EntryKind::Memory => $crate::EntryKind::Memory,
                    $wit::EntryKind::Message => $crate::EntryKind::Message,
                }
            }
        }

        impl From<$wit::ScopeFilter> for $crate::ScopeFilter {
            fn from(s: $wit::ScopeFilter) -> Self {
                $crate::ScopeFilter {
                    kind: s.kind.into(),
                    user_id: s.user_id,
                    chat_id: s.chat_id,
                }
            }
        }

        impl From<$wit::Marks> for $crate::Marks {
            fn from(m: $wit::Marks) -> Self {
                $crate::Marks {
                    keys: m.keys,
                    lapses: m.lapses,
                    observed: m.observed,
                    made: m.made,
                }
            }
        }

        impl TryFrom<$wit::Entry> for $crate::Entry {
            type Error = $crate::IndexError;

            fn try_from(e: $wit::Entry) -> Result<Self, $crate::IndexError> {
                Ok($crate::Entry {
                    kind: e.kind.into(),
                    id: e.id,
                    content: e.content,
                    context: e.context,
                    embedding: e.embedding.as_deref().map($crate::packed::unpack).transpose()?,
                    owner_user_id: e.owner_user_id,
                    chat_id: e.chat_id,
                    record: e.record,
                    marks: e.marks.into(),
                })
            }
        }

        impl From<$wit::Revision> for $crate::Revision {
            fn from(r: $wit::Revision) -> Self {
                $crate::Revision {
                    id: r.id,
                    record: r.record,
                    marks: r.marks.into(),
                }
            }
        }

        impl From<$wit::IndexInfo> for $crate::IndexInfo {
            fn from(i: $wit::IndexInfo) -> Self {
                $crate::IndexInfo {
                    model: i.model,
                    dimension: i.dimension,
                }
            }
        }

        impl From<$crate::IndexInfo> for $wit::IndexInfo {
            fn from(i: $crate::IndexInfo) -> Self {
                $wit::IndexInfo {
                    model: i.model,
                    dimension: i.dimension,
                }
            }
        }

        impl From<$files::FileState> for $crate::FileState {
            fn from(s: $files::FileState) -> Self {
                $crate::FileState {
                    generation: s.generation,
                    end: s.end,
                }
            }
        }

        impl From<$crate::FileState> for $files::FileState {
            fn from(s: $crate::FileState) -> Self {
                $files::FileState {
                    generation: s.generation,
                    end: s.end,
                }
            }
        }

        impl From<$crate::Hit> for $wit::Hit {
            fn from(h: $crate::Hit) -> Self {
                $wit::Hit {
                    id: h.id,
                    score: h.score,
                }
            }
        }

        impl From<$crate::Held> for $wit::Held {
            fn from(h: $crate::Held) -> Self {
                $wit::Held {
                    id: h.id,
                    record: h.record,
                    embedding: h.embedding.as_deref().map($crate::packed::pack),
                }
            }
        }

        impl From<$crate::Counts> for $wit::Counts {
            fn from(c: $crate::Counts) -> Self {
                $wit::Counts {
                    live: c.live,
                    holding: c.holding,
                }
            }
        }

        impl From<$crate::IndexError> for $wit::Error {
            fn from(e: $crate::IndexError) -> Self {
                match e {
                    $crate::IndexError::Unavailable(m) => $wit::Error::Unavailable(m),
                    $crate::IndexError::DimensionMismatch(d) => $wit::Error::DimensionMismatch(d),
                    $crate::IndexError::Sql(m) => $wit::Error::Sql(m),
                    $crate::IndexError::ReadOnly(m) => $wit::Error::ReadOnly(m),
                }
            }
        }
    };
}
