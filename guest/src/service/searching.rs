//! `search`: vector, full-text, person-graph and entity search, and the memories of the
//! days a query names (`named_days`), fused by rank, within the caller's scope and over
//! live memories only.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};

use super::marked::Census;
use super::{DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT, MemoryService};
use crate::api::{Error, MatchReason, Memory, SearchHit, SearchQuery, SearchResults};
use crate::asked_time::{self, ASKED_TIME_WEIGHT};
use crate::decay;
use crate::entities;
use crate::index_time;
use crate::lifecycle;
use crate::period::Period;
use crate::ports::{Level, Ports};
use crate::record::{MemoryRecord, parse_time};
use crate::scope::Caller;
use crate::search::{Floor, LIST_DEPTH, QUESTION_WEIGHT, TIME_WEIGHT, asks, fuse, mentions, query_terms};
use crate::vectors::{self, cosine};

/// A query's vectors, made before anything is read.
#[derive(Debug, Clone, Default)]
pub(crate) struct QueryVectors {
    /// Of the whole query; none when the embedder could not make one.
    pub whole: Option<Vec<f32>>,
    /// The names the query holds, lowercased as `name:` entities hold them.
    pub names: Vec<String>,
    /// Of the query without some of its names, for when those prove too common
    /// ([`name_sets`]).
    pub unnamed: Vec<Unnamed>,
}

impl QueryVectors {
    /// The query without exactly `names` and its vector, if it was embedded so.
    pub fn without(&self, names: &[String]) -> Option<&Unnamed> {
        if names.is_empty() {
            return None;
        }
        self.unnamed
            .iter()
            .find(|u| u.names.len() == names.len() && names.iter().all(|n| u.names.contains(n)))
    }

    /// The query without the names `common` picks out of its own as common, if it was
    /// embedded so. `common` counts holders over every memory or message, so it is asked
    /// only when there is a query without names to search.
    pub fn without_common(&self, common: impl FnOnce(&[String]) -> Vec<String>) -> Option<&Unnamed> {
        if self.unnamed.is_empty() {
            return None;
        }
        self.without(&common(&self.names))
    }
}

/// A query without some of its names, and its vector.
#[derive(Debug, Clone)]
pub(crate) struct Unnamed {
    /// The names left out, lowercased as `name:` entities hold them.
    pub names: Vec<String>,
    pub text: String,
    pub vector: Vec<f32>,
}

/// The ids of `records`, closest to `query_vector` first, each with its similarity when
/// both have a vector (one without ranks as one at similarity zero), then the newest, then
/// by id: exact ties by id, so the order is the same whether the records came from the file
/// or the index.
pub(super) fn closest_first<'a>(
    records: impl Iterator<Item = &'a MemoryRecord>,
    query_vector: Option<&[f32]>,
) -> Vec<(String, Option<f32>)> {
    let mut ranked: Vec<(Option<f32>, DateTime<Utc>, String)> = records
        .map(|r| {
            let sim = query_vector.zip(r.vector()).map(|(q, v)| cosine(q, &v));
            let made = parse_time(&r.created_at).unwrap_or(DateTime::UNIX_EPOCH);
            (sim, made, r.id.clone())
        })
        .collect();
    let rank = |sim: Option<f32>| sim.unwrap_or(0.0);
    ranked.sort_by(|a, b| rank(b.0).total_cmp(&rank(a.0)).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    ranked.into_iter().map(|(sim, _, id)| (id, sim)).collect()
}

/// The most names a query may hold for each of them to be left out apart.
const NAMES_APART: usize = 2;

/// The sets of a query's names it is embedded without, beside the whole query: each set
/// when it holds one or two, since a speaker every line names may be asked about beside a
/// friend few lines name ("What flaw in Tomasz's running did Ines notice?"), and only
/// the first is common; all of them together when it holds more (at most four texts
/// embedded).
fn name_sets(names: &[String]) -> Vec<Vec<String>> {
    if names.len() > NAMES_APART {
        return vec![names.to_vec()];
    }
    (1..1usize << names.len())
        .map(|mask| {
            names
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, n)| n.clone())
                .collect()
        })
        .collect()
}

impl<P: Ports> MemoryService<P> {
    /// Vector, full-text and person-graph search, fused, within the caller's scope, live
    /// memories only; see `search` in `wit/recall.wit`.
    pub fn search(&mut self, caller: &Caller, query: &SearchQuery) -> Result<SearchResults, Error> {
        let text = query.text.trim();
        if text.is_empty() {
            return Err(Error::InvalidInput("the query is empty".into()));
        }
        super::validation::check_limit(query.limit, &format!("the default of {DEFAULT_SEARCH_LIMIT}"))?;
        // The query is embedded before the collections are read: a remote embedder is
        // asked without the home's lock.
        let (vectors, notices) = self.embed_query(text);
        let floor = Floor::search(self.ports.settings().weak_similarity);
        self.search_embedded(caller, query, floor, vectors, notices)
    }

    /// The query's vectors, or none and a notice saying why: of the whole text and, when
    /// it names someone, of the text without the names (in one call to the embedder).
    pub(crate) fn embed_query(&self, text: &str) -> (QueryVectors, Vec<String>) {
        let names: Vec<String> = entities::recognise(text, &[])
            .into_iter()
            .filter_map(|e| e.strip_prefix("name:").map(str::to_owned))
            .collect();
        // Left out only when words to search are left: "Who is Caroline?" keeps her.
        let unnamed: Vec<(Vec<String>, String)> = name_sets(&names)
            .into_iter()
            .filter_map(|set| {
                let left = entities::without_names(text, &set).filter(|t| !query_terms(t).is_empty())?;
                Some((set, left))
            })
            .collect();
        let texts: Vec<String> = std::iter::once(text.to_owned())
            .chain(unnamed.iter().map(|(_, t)| t.clone()))
            .collect();
        let dimension = self.ports.embedder_dimension();
        match self.ports.embed(&texts) {
            Ok(made) if made.len() == texts.len() => {
                let mut made = made.into_iter().map(|v| vectors::usable(v, dimension));
                let whole = made.next().flatten();
                let unnamed = unnamed
                    .into_iter()
                    .zip(made)
                    .filter_map(|((names, text), vector)| {
                        Some(Unnamed {
                            names,
                            text,
                            vector: vector?,
                        })
                    })
                    .collect();
                (QueryVectors { whole, names, unnamed }, Vec::new())
            }
            Ok(_) | Err(_) => {
                let notice = "the embedding service is unavailable: full-text search only".to_owned();
                self.ports.log(Level::Warn, &notice);
                (QueryVectors::default(), vec![notice])
            }
        }
    }

    /// Search with the query's vector already made (or none), leaving out what `floor`
    /// calls noise.
    pub(crate) fn search_embedded(
        &mut self,
        caller: &Caller,
        query: &SearchQuery,
        floor: Floor,
        vectors: QueryVectors,
        mut notices: Vec<String>,
    ) -> Result<SearchResults, Error> {
        // Kept for a search run again over the whole file (`find_replies`).
        let notices_given = notices.clone();
        let text = query.text.trim();
        let limit = query.limit.unwrap_or(DEFAULT_SEARCH_LIMIT).clamp(1, MAX_SEARCH_LIMIT);
        // Liveness in whole microseconds, as the index compares expiries; the accesses are
        // stamped with the clock's own time.
        let stamp = self.now()?;
        let now = index_time::whole_micros(stamp);
        let scope = caller.filter();
        // The time the query names or counts from today. The days of one are a list of
        // their own (`named_days`), found by walking the whole collection; else the index
        // answers when it stands in for the file (`from_index`).
        let period = Period::asked_in(text, stamp.date_naive());
        if period.is_some_and(|p| p.is_days()) {
            self.load()?;
        } else {
            self.load_as_needed()?;
        }

        // Whom the search is about: `about` filters to that person and one hop; a person
        // named in the query only adds their memories to the candidates.
        let mut about: HashSet<String> = HashSet::new();
        let mut filter_to_about = false;
        if let Some(reference) = query.about.as_deref().map(str::trim).filter(|r| !r.is_empty()) {
            match self.find_person(caller, reference)? {
                Some(person) => {
                    about = self.neighbourhood(caller, &person.id);
                    filter_to_about = true;
                }
                None => notices.push(format!("no person {reference:?} is known to you; showing all results")),
            }
        } else {
            let named: Vec<String> = crate::people::named_in(text, &self.people_of(caller))
                .iter()
                .map(|p| p.id.clone())
                .chain(self.relations_in(caller, text))
                .collect();
            for id in named {
                about.extend(self.neighbourhood(caller, &id));
            }
        }

        // The person graph and the entity list need every live memory about those people
        // or holding those entities: fetched by their marks when the index stands in for
        // the file, named by them when the whole collection is cached and the index is in
        // step with it (`walking`), else walked in the whole collection.
        let wanted = self.wanted_entities(caller, text);
        self.begin_walk()?;
        let census = if self.memories.is_partial() || self.walk.is_some() {
            self.hold_marked(&scope, &about, &wanted, now)?
        } else {
            None
        };

        // Over-fetch: expired memories stay in the index until GC and are dropped here,
        // and a list that ends early cuts its share from memories just past its end.
        let k = (limit * 4).clamp(LIST_DEPTH, 4096);
        // A name most memories hold is read as a stop word by the vector and full-text
        // lists too: in the query's vector it pulls toward every memory that holds it.
        let unnamed = vectors.without_common(|names| self.common_names(caller, names, census.as_ref(), &wanted, now));
        let (searched, query_vector) = match unnamed {
            Some(unnamed) => (unnamed.text.as_str(), Some(unnamed.vector.clone())),
            None => (text, vectors.whole.clone()),
        };
        let terms = query_terms(searched);
        let (vector_hits, text_hits) = loop {
            let vector_hits = match &query_vector {
                Some(v) => self.ports.index_knn(v, k, &scope)?,
                None => Vec::new(),
            };
            let text_hits = self.ports.index_text_search(&terms, k, &scope)?;
            if self.memories.is_partial() {
                let ids: Vec<String> = vector_hits.iter().chain(&text_hits).map(|h| h.id.clone()).collect();
                if !self.hold_records(&ids)? {
                    self.load()?;
                    continue;
                }
            }
            break (vector_hits, text_hits);
        };
        if self.memories.is_partial() {
            self.ports.log(
                Level::Debug,
                &format!(
                    "search: answered from the index, which reflects memories.jsonl up to byte {}",
                    self.memories.state().end
                ),
            );
        }
        let usable = |id: &str| {
            self.memories
                .get(id)
                .is_some_and(|r| caller.can_see(r) && lifecycle::is_live(r, now))
        };
        let mut similarity = HashMap::new();
        let vector_ids: Vec<String> = vector_hits
            .into_iter()
            .filter(|h| h.score >= floor.min_similarity && usable(&h.id))
            .map(|h| {
                similarity.insert(h.id.clone(), h.score);
                h.id
            })
            .collect();
        let mut text_ids: Vec<String> = text_hits.into_iter().filter(|h| usable(&h.id)).map(|h| h.id).collect();
        // A memory found only by the words of its context comes after those that say
        // the words themselves: the turn after an answer holds the answer as its context.
        // (A memory without one was found by its own words, whatever the stemmer made of
        // them.)
        text_ids.sort_by_cached_key(|id| {
            self.memories
                .get(id)
                .is_some_and(|r| r.context.is_some() && !terms.iter().any(|t| mentions(&r.content, t)))
        });

        let graph = self.graph_list(caller, &about, query_vector.as_deref(), now);
        let mut graph_ids = Vec::with_capacity(graph.len());
        for (id, sim) in graph {
            if let Some(sim) = sim {
                similarity.entry(id.clone()).or_insert(sim);
            }
            graph_ids.push(id);
        }

        let entity_ids = self.entity_matches(caller, &wanted, census.as_ref(), now, &similarity);

        let day_ids = self.named_days(caller, period.as_ref(), query_vector.as_deref(), k as usize, now);

        let worded: HashSet<String> = text_ids
            .iter()
            .chain(&graph_ids)
            .chain(&entity_ids)
            .chain(&day_ids)
            .cloned()
            .collect();
        // The order of `fuse`'s lists, and what a memory in each was found by.
        let lists = [vector_ids, text_ids, graph_ids, entity_ids, day_ids];
        let found_by = [
            MatchReason::Meaning,
            MatchReason::Words,
            MatchReason::Person,
            MatchReason::Entity,
            MatchReason::Time,
        ];
        // Confidence is a gentle prior: a long-unrecalled fact ranks a little lower, and
        // so does a memory that only asks; one of the time the query names, higher.
        // A question that asks when of a time counted from today ("when did I run last
        // week?") still wants the lines that say when.
        let asks_time = Period::named_in(text).is_none() && asked_time::asks(text);
        let mut fused = fuse(&lists);
        for (id, score) in &mut fused {
            if let Some(r) = self.memories.get(id) {
                *score = decay::weigh(*score, decay::confidence(r, now));
                if asks(&r.content) {
                    *score *= QUESTION_WEIGHT;
                }
                if period.is_some_and(|p| p.covers(r, r.entities.as_deref())) {
                    *score *= TIME_WEIGHT;
                }
            }
        }
        fused.sort_by(|a, b| b.1.total_cmp(&a.1));
        floor.drop_noise(&mut fused, &worded, &similarity);
        let Some(replies) = self.find_replies(caller, &mut fused, now)? else {
            // The index could not hand over a reply's record, and the whole file has been
            // read instead: what the lists found came from the index, so search again, over
            // the file (it is whole now: this happens once).
            return self.search_embedded(caller, query, floor, vectors, notices_given);
        };
        // Weighed after the replies gained: "Thursday after next", the reply to "When?",
        // says when as much as a line found by its own words.
        if asks_time {
            for (id, score) in &mut fused {
                if self.memories.get(id).is_some_and(|r| asked_time::tells(&r.content)) {
                    *score *= ASKED_TIME_WEIGHT;
                }
            }
            fused.sort_by(|a, b| b.1.total_cmp(&a.1));
        }
        let Some(followed) = self.follow_lines(caller, &mut fused, now)? else {
            // As for a reply above.
            return self.search_embedded(caller, query, floor, vectors, notices_given);
        };
        // A search about someone keeps only their memories before the best hits are taken.
        if filter_to_about {
            fused.retain(|(id, _)| {
                self.memories
                    .get(id)
                    .is_some_and(|r| r.subject_person_ids.iter().any(|s| about.contains(s)))
            });
        }
        self.weigh_nearby(&mut fused, now)?;
        // Strongest first: the list where it ranked highest; a reply found through its
        // question, or a line through the one before it, last.
        let reasons = |id: &str| -> Vec<MatchReason> {
            if replies.joined.iter().chain(&followed).any(|r| r == id) {
                // What a list found of it was left out as noise, or nothing found it.
                return vec![MatchReason::Reply];
            }
            let mut held: Vec<(usize, MatchReason)> = lists
                .iter()
                .zip(found_by)
                .filter_map(|(ids, reason)| ids.iter().position(|x| x == id).map(|rank| (rank, reason)))
                .collect();
            held.sort_by_key(|(rank, _)| *rank);
            let mut reasons: Vec<MatchReason> = held.into_iter().map(|(_, reason)| reason).collect();
            if replies.gained.iter().any(|r| r == id) {
                reasons.push(MatchReason::Reply);
            }
            reasons
        };
        let hits: Vec<SearchHit> = fused
            .into_iter()
            .take(limit as usize)
            .filter_map(|(id, score)| {
                let record = self.memories.get(&id)?;
                Some(SearchHit {
                    memory: Memory::from(record),
                    score,
                    similarity: similarity.get(&id).copied(),
                    subjects: self.names(caller, &record.subject_person_ids),
                    reasons: reasons(&id),
                })
            })
            .collect();
        self.record_access(&hits, stamp)?;
        Ok(SearchResults { hits, notices })
    }

    /// The third list, the person graph: memories about the people in `about`, closest
    /// to the query first, then the newest; each with its similarity to the query when
    /// both have a vector, so that it is decoded once.
    fn graph_list(
        &self,
        caller: &Caller,
        about: &HashSet<String>,
        query_vector: Option<&[f32]>,
        now: DateTime<Utc>,
    ) -> Vec<(String, Option<f32>)> {
        if about.is_empty() {
            return Vec::new();
        }
        // Every memory about them is walked: the whole collection, or those `hold_marked`
        // fetched or named.
        let about_them = self
            .walked()
            .filter(|r| r.subject_person_ids.iter().any(|s| about.contains(s)))
            .filter(|r| caller.can_see(r) && lifecycle::is_live(r, now));
        closest_first(about_them, query_vector)
    }

    /// The entities the query names, people the caller knows among them.
    pub(super) fn wanted_entities(&self, caller: &Caller, text: &str) -> Vec<String> {
        let names: Vec<String> = self.known_names(caller);
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        entities::recognise(text, &names)
    }

    /// Those of `names` too many of the caller's live memories hold to tell them apart
    /// ([`entities::is_common`]), counted as `entity_matches` counts them: by `census`
    /// (its counts are per entity of `wanted`) or over the walk.
    pub(super) fn common_names(
        &self,
        caller: &Caller,
        names: &[String],
        census: Option<&Census>,
        wanted: &[String],
        now: DateTime<Utc>,
    ) -> Vec<String> {
        if names.is_empty() {
            return Vec::new();
        }
        let entities: Vec<String> = names.iter().map(|n| format!("name:{n}")).collect();
        let telling: Vec<bool> = match census {
            Some(census) => {
                let telling = census.telling();
                entities
                    .iter()
                    .map(|n| wanted.iter().position(|w| w == n).is_none_or(|i| telling[i]))
                    .collect()
            }
            None => self.holding(caller, &entities, now).0.telling(),
        };
        names
            .iter()
            .zip(telling)
            .filter(|(_, telling)| !telling)
            .map(|(n, _)| n.clone())
            .collect()
    }

    /// The live memories of the walk the caller sees, counted with the holders of each of
    /// `wanted`, and those holding any of them, each with the positions in `wanted` of the
    /// entities it holds. The walk is the whole collection, or what `hold_marked` fetched
    /// or named.
    fn holding(
        &self,
        caller: &Caller,
        wanted: &[String],
        now: DateTime<Utc>,
    ) -> (Census, Vec<(&MemoryRecord, Vec<usize>)>) {
        let mut memo = self.entity_memo.borrow_mut();
        let mut census = Census {
            visible: 0,
            holders: vec![0; wanted.len()],
        };
        let mut holding = Vec::new();
        for r in self
            .walked()
            .filter(|r| caller.can_see(r) && lifecycle::is_live(r, now))
        {
            census.visible += 1;
            // Records from before entities were kept have theirs found once.
            let held = match &r.entities {
                Some(held) => held,
                None => memo
                    .entry(r.id.clone())
                    .or_insert_with(|| entities::held(&r.content, &[])),
            };
            let shared: Vec<usize> = (0..wanted.len()).filter(|&i| held.contains(&wanted[i])).collect();
            shared.iter().for_each(|&i| census.holders[i] += 1);
            if !shared.is_empty() {
                holding.push((r, shared));
            }
        }
        (census, holding)
    }

    /// The names of the caller's people, for recognising them in a query.
    fn known_names(&self, caller: &Caller) -> Vec<String> {
        self.people_of(caller)
            .iter()
            .filter(|p| !p.has_placeholder_name())
            .map(|p| p.name.clone())
            .collect()
    }

    /// The fourth list: memories that hold an entity the query names (an address, a URL,
    /// a date, a mention, a tag, a name), most shared entities first, then the closest
    /// to the query, then the newest. Empty when the query names none.
    ///
    /// An entity that most of the caller's memories hold tells them apart no better than
    /// a stop word ([`entities::is_common`]) and is left out: in a stored conversation
    /// the speaker's name is in every other turn, and ranking those turns by it alone
    /// drowns the other lists (figures: docs/judgment.md).
    ///
    /// `census` counts the caller's live memories and the holders of each wanted entity
    /// when the cache is partial or walked by marks (see `hold_marked`); a whole walk is
    /// counted here.
    pub(super) fn entity_matches(
        &self,
        caller: &Caller,
        wanted: &[String],
        census: Option<&Census>,
        now: DateTime<Utc>,
        similarity: &HashMap<String, f32>,
    ) -> Vec<String> {
        if wanted.is_empty() {
            return Vec::new();
        }
        let (counted, holding) = self.holding(caller, wanted, now);
        // A partial walk counts only what was fetched: the census counts the rest.
        let telling = census.unwrap_or(&counted).telling();
        let mut matches: Vec<(usize, f32, DateTime<Utc>, String)> = holding
            .into_iter()
            .filter_map(|(r, shared)| {
                let shared = shared.into_iter().filter(|&i| telling[i]).count();
                (shared > 0).then(|| {
                    let sim = similarity.get(&r.id).copied().unwrap_or(0.0);
                    let at = parse_time(&r.created_at).unwrap_or(DateTime::UNIX_EPOCH);
                    (shared, sim, at, r.id.clone())
                })
            })
            .collect();
        matches.sort_by(|a, b| {
            b.0.cmp(&a.0)
                .then(b.1.total_cmp(&a.1))
                .then(b.2.cmp(&a.2))
                .then(a.3.cmp(&b.3))
        });
        matches.into_iter().map(|m| m.3).collect()
    }

    /// People the text refers to by relation: "my wife" in "What does my wife like?".
    fn relations_in(&self, caller: &Caller, text: &str) -> Vec<String> {
        let lower = text.to_lowercase();
        self.people_of(caller)
            .into_iter()
            .filter(|p| {
                p.relation.as_deref().is_some_and(|r| {
                    let needle = format!("my {r}");
                    lower.match_indices(&needle).any(|(i, _)| {
                        let after = lower[i + needle.len()..].chars().next();
                        after.is_none_or(|c| !c.is_alphanumeric() || c == '\'')
                    })
                })
            })
            .map(|p| p.id.clone())
            .collect()
    }
}
