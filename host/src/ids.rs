//! The `ids` capability: random UUIDs, or a counter for tests and the conformance suite,
//! where every host must hand out the same ids for the same calls.

/// Where new memory and person ids come from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Ids {
    /// A random UUID v4 each time: the default.
    #[default]
    Random,
    /// `00000000-0000-4000-8000-000000000001`, then `...0002`, counting from 1 for each
    /// opened store: ids that can be written into a test's expectations.
    Sequential,
}

/// The ids a store hands out.
#[derive(Debug, Default)]
pub(crate) struct IdSource {
    kind: Ids,
    issued: u64,
}

impl IdSource {
    pub(crate) fn new(kind: Ids) -> Self {
        IdSource { kind, issued: 0 }
    }

    /// Whether two sources of this kind never hand out the same id.
    pub(crate) fn unique_across_stores(&self) -> bool {
        self.kind == Ids::Random
    }

    /// How many ids were handed out, to hand them out again after a call that is run
    /// again ([`IdSource::rewind`]): nothing of the first run was kept.
    pub(crate) fn issued(&self) -> u64 {
        self.issued
    }

    /// Hands out ids again from after the first `issued`.
    pub(crate) fn rewind(&mut self, issued: u64) {
        self.issued = issued;
    }

    /// The next id.
    pub(crate) fn next(&mut self) -> String {
        match self.kind {
            Ids::Random => uuid::Uuid::new_v4().to_string(),
            Ids::Sequential => {
                self.issued += 1;
                format!("00000000-0000-4000-8000-{:012}", self.issued)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequential_ids_count_from_one_and_random_ones_differ() {
        let mut seq = IdSource::new(Ids::Sequential);
        assert_eq!(seq.next(), "00000000-0000-4000-8000-000000000001");
        assert_eq!(seq.next(), "00000000-0000-4000-8000-000000000002");
        let mut random = IdSource::new(Ids::Random);
        let (a, b) = (random.next(), random.next());
        assert_ne!(a, b);
        assert_eq!(uuid::Uuid::parse_str(&a).unwrap().get_version_num(), 4);
    }
}
