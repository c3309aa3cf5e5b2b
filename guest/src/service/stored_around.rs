//! What was stored around the best hits of a search: a question's reply (`replies`), the
//! lines after a transcript's best lines (`follow_ups`), and the stretch a sitting was
//! stored in (`nearby`). Each asks the index what was stored next to what.

use chrono::{DateTime, Utc};

use super::MemoryService;
use crate::api::Error;
use crate::follow_ups;
use crate::index_time;
use crate::lifecycle;
use crate::nearby;
use crate::ports::Ports;
use crate::replies;
use crate::scope::Caller;
use crate::search::asks;
use crate::speaker::{self, Opening};

impl<P: Ports> MemoryService<P> {
    /// Finds the replies to the questions among the best hits (`replies`): each gains a share
    /// of its question's score, and joins the hits if they left it out; `fused` is sorted
    /// again. None when a partial cache could not hold a reply's record and read the whole
    /// file instead: the caller searches again.
    pub(super) fn find_replies(
        &mut self,
        caller: &Caller,
        fused: &mut Vec<(String, f32)>,
        now: DateTime<Utc>,
    ) -> Result<Option<replies::Credited>, Error> {
        let questions = replies::questions(fused, |id| self.memories.get(id).is_some_and(|r| asks(&r.content)));
        if questions.is_empty() {
            return Ok(Some(replies::Credited::default()));
        }
        let ids: Vec<String> = questions.iter().map(|(id, _)| id.clone()).collect();
        let found = self
            .ports
            .index_made_after(&ids, index_time::micros(now), replies::WINDOW_MICROS)?;
        let reply_ids: Vec<String> = found.iter().flatten().cloned().collect();
        if self.memories.is_partial() && !self.hold_records(&reply_ids)? {
            self.load()?;
            return Ok(None);
        }
        let credited = replies::credit(fused, &questions, &found, |id| {
            self.memories
                .get(id)
                .is_some_and(|r| caller.can_see(r) && lifecycle::is_live(r, now))
        });
        fused.sort_by(|a, b| b.1.total_cmp(&a.1));
        Ok(Some(credited))
    }

    /// Weighs up what was stored around the best hits (`nearby`); `fused` is sorted again,
    /// the best hit first still.
    pub(super) fn weigh_nearby(&self, fused: &mut [(String, f32)], now: DateTime<Utc>) -> Result<(), Error> {
        let anchors = nearby::anchors(fused);
        if anchors.is_empty() {
            return Ok(());
        }
        let around = self
            .ports
            .index_made_around(&anchors, nearby::PLACES, index_time::micros(now))?;
        nearby::weigh(fused, &anchors, &around);
        nearby::keep_best_first(fused);
        Ok(())
    }

    /// Lends the best lines of a transcript stored without contexts to the lines stored
    /// after them (`follow_ups`): each gains a share of its best hit's score, and joins the
    /// hits if they left it out; `fused` is sorted again. Returns the lines that joined;
    /// None when a partial cache could not hold a line's record and read the whole file
    /// instead: the caller searches again.
    pub(super) fn follow_lines(
        &mut self,
        caller: &Caller,
        fused: &mut Vec<(String, f32)>,
        now: DateTime<Utc>,
    ) -> Result<Option<Vec<String>>, Error> {
        let is_line = |service: &Self, id: &str| {
            service.memories.get(id).is_some_and(|r| {
                r.context.is_none()
                    && matches!(speaker::opening(&r.content), Some(Opening::Speaker(_)))
                    && caller.can_see(r)
                    && lifecycle::is_live(r, now)
            })
        };
        let anchors = follow_ups::anchors(fused, |id| is_line(self, id));
        if anchors.is_empty() {
            return Ok(Some(Vec::new()));
        }
        // Line by line: the next after each anchor, then the next after that, while each
        // is a line too. `chains` holds, for each chain still going, its anchor's place and
        // its last line.
        let mut after: Vec<Vec<String>> = vec![Vec::new(); anchors.len()];
        let mut chains: Vec<(usize, String)> = anchors.iter().map(|(id, _)| id.clone()).enumerate().collect();
        for _ in 0..follow_ups::LINES {
            if chains.is_empty() {
                break;
            }
            let last: Vec<String> = chains.iter().map(|(_, id)| id.clone()).collect();
            let found = self
                .ports
                .index_made_after(&last, index_time::micros(now), replies::WINDOW_MICROS)?;
            let ids: Vec<String> = found.iter().flatten().cloned().collect();
            if self.memories.is_partial() && !self.hold_records(&ids)? {
                self.load()?;
                return Ok(None);
            }
            chains = chains
                .into_iter()
                .zip(found)
                .filter_map(|((anchor, _), line)| Some((anchor, line.filter(|l| is_line(self, l))?)))
                .collect();
            for (anchor, line) in &chains {
                after[*anchor].push(line.clone());
            }
        }
        let joined = follow_ups::credit(fused, &anchors, &after);
        fused.sort_by(|a, b| b.1.total_cmp(&a.1));
        Ok(Some(joined))
    }
}
