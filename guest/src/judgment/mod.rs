//! One judgment of a new fact against one the scope already holds: the same fact told
//! again, a refinement (the same and more), a change (the same attribute of the same
//! subject with a new value, or the old one denied), or a different fact.
//!
//! The rules read both facts as words ([`words`]), whom they are about and whether they
//! are denied or past ([`fact`]), and the one-valued attributes everyday phrasings state
//! ([`slots`]); the conservative supersession rule is one more witness of a change. What
//! the rules cannot settle is [`Verdict::Unsure`]: a language model, when there is one,
//! is asked ([`judgment_request`], [`parse_judgment`]); without one, both facts stay.
//!
//! Both paths fail closed. A wrong replacement hides a true fact; a missed one leaves a
//! stale fact beside the new one, which the user can still see and correct.

mod as_usual;
mod birth;
mod death;
mod details;
mod ending;
mod fact;
mod for_good;
mod fronted;
mod gained;
mod history;
mod household;
mod instead;
mod news;
mod others;
mod over;
mod partners;
mod placement;
mod plans;
mod rebooked;
mod reversal;
mod school;
mod slots;
mod someone;
mod switches;
mod synonyms;
mod taste;
mod tellers;
#[cfg(test)]
mod tests;
mod word_order;
mod words;

use std::cell::OnceCell;
use std::collections::BTreeSet;

use details::{Detail, Ordering, compare, detail_of};
use ending::{ended, rescheduled, switched};
use fact::{Fact, Subject, same_subject, two_people};
pub(crate) use slots::is_occupation;
use slots::{PARTNERS, allegiance_changed, ends_employment, job_quit, out_of_work, role_head, slot_of};
use words::{is_frame, is_generic};

use crate::ports::LlmRequest;
use crate::supersession::{self, RuleContext};

/// What a new fact is to an older one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The same fact told again: nothing new is stored.
    Same,
    /// The same fact and more: the new one replaces the old.
    Refinement,
    /// A new value of the same attribute, or the old fact denied: the new one replaces it.
    Change,
    /// Both can be true: both stay.
    Different,
    /// The rules cannot tell; a language model may be asked. Without one, both stay.
    Unsure,
}

impl Verdict {
    /// Whether the new fact replaces the old one.
    pub fn replaces(self) -> bool {
        matches!(self, Verdict::Refinement | Verdict::Change)
    }

    /// The lowercase word for the verdict, as the language model is asked to answer.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Same => "same",
            Verdict::Refinement => "refinement",
            Verdict::Change => "change",
            Verdict::Different => "different",
            Verdict::Unsure => "unsure",
        }
    }
}

/// A new fact as the rules read it, read once to be judged against each of its
/// candidates (an add weighs up to sixteen).
#[derive(Debug, Clone)]
pub struct NewFact<'a> {
    text: &'a str,
    fact: Fact,
    detail: Option<Detail>,
    /// Its clauses after someone else's news, read when a candidate first asks.
    clauses: OnceCell<Option<tellers::Clauses<'a>>>,
}

impl<'a> NewFact<'a> {
    /// Reads `text` in `ctx`, the context every candidate is judged in.
    pub fn read(text: &'a str, ctx: &RuleContext) -> Self {
        let fact = Fact::read(text, ctx);
        NewFact {
            text,
            detail: detail_of(text, &fact),
            fact,
            clauses: OnceCell::new(),
        }
    }

    /// The fact's words, as given.
    pub fn text(&self) -> &'a str {
        self.text
    }
}

/// Judges `new` against `old` by the rules alone.
pub fn judge(old: &str, new: &str, ctx: &RuleContext) -> Verdict {
    judge_read(old, &NewFact::read(new, ctx), ctx)
}

/// [`judge`] with the new fact already read, in the same `ctx`.
pub fn judge_read(old: &str, new: &NewFact<'_>, ctx: &RuleContext) -> Verdict {
    judge_asking(old, new, ctx, false).0
}

/// [`judge_read`], and, when `news` asks it, whether a pair the rules call different is
/// news that may end the old fact, for a language model to weigh ([`news::may_end`]). The
/// old fact is read once for both.
pub fn judge_asking(old: &str, new: &NewFact<'_>, ctx: &RuleContext, news: bool) -> (Verdict, bool) {
    let o = Fact::read(old, ctx);
    let mut verdict = judge_facts(old, &o, new, ctx);
    // History ends nothing that holds now: "I got divorced from my first husband back in
    // 2010" after "I'm married". (Told again or told with more, it still restates or
    // refines: "I relocated to Berlin back in 2019".)
    if verdict == Verdict::Change && history::long_ago(&new.fact) && !o.past && !history::long_ago(&o) {
        verdict = Verdict::Different;
    }
    // "Jess stopped but I still hit the gym before work": what the teller says of
    // themself after someone else's news. Told again against the news, the old fact is
    // refined: the new one holds it and the news beside it. A change of a day or a week
    // ("Pool's closed all week so no swims for me") ends nothing.
    if matches!(verdict, Verdict::Different | Verdict::Unsure)
        && let Some(clauses) = new.clauses.get_or_init(|| tellers::Clauses::read(new.text, ctx))
    {
        let told = clauses
            .after_news(&o)
            .iter()
            .find_map(|(clause, kept)| match judge_facts(old, &o, clause, ctx) {
                Verdict::Change if clauses.lasts => Some(Verdict::Change),
                Verdict::Same | Verdict::Refinement if *kept => Some(Verdict::Refinement),
                _ => None,
            });
        if let Some(v) = told {
            verdict = v;
        }
    }
    // A turn of several sentences that holds a shorter one's words ("Keep it up!" in a
    // turn of news and thanks) is talk, not the same fact told with more.
    if verdict == Verdict::Refinement && talk_of_several_sentences(&o, &new.fact) {
        verdict = Verdict::Different;
    }
    let may_end = news && verdict == Verdict::Different && news::may_end(&o, &new.fact);
    (verdict, may_end)
}

/// Whether a pair of which one is a line of a conversation ("Ana: ...") has a turn of
/// several sentences: talk, with greetings, thanks, questions back and news, whose denials
/// in passing and shared words the rules for single facts would read as a change or a
/// fuller telling (docs/judgment.md, "Turns of talk").
fn talk_of_several_sentences(o: &Fact, n: &Fact) -> bool {
    (o.speaker.is_some() || n.speaker.is_some()) && (o.sentences() > 1 || n.sentences() > 1)
}

/// [`judge_read`] with the old fact read too.
fn judge_facts(old: &str, o: &Fact, new: &NewFact<'_>, ctx: &RuleContext) -> Verdict {
    let n = &new.fact;
    let new_detail = new.detail.as_ref();
    let new = new.text;
    if let (Some(a), Some(b)) = (&o.speaker, &n.speaker)
        && a != b
    {
        // Two people's lines of a conversation: neither restates or ends the other's.
        return Verdict::Different;
    }
    // "Jess stopped going to the gym" after "I go to the gym on Mondays": Jess's.
    if others::someone_elses(o, n) {
        return Verdict::Different;
    }
    let alike = o.denied == n.denied && o.former == n.former && o.past == n.past && o.wish == n.wish;
    if o.plain == n.plain && !o.plain.is_empty() {
        return Verdict::Same;
    }
    // A question states nothing: "is it worth trying vegan for January?" changes no diet.
    // (Two tellings of one question still restate it.)
    let asks = |f: &Fact| !f.words.is_empty() && f.words.iter().all(|w| w.asks);
    if asks(o) != asks(n) {
        return Verdict::Different;
    }
    // "Fish Friday as always." after "I eat fish on Fridays".
    if as_usual::told_again(o, n) {
        return Verdict::Same;
    }
    // A detail's value decides, whatever else the words share: "My pronouns are she/her"
    // and "... they/them" differ only in function words.
    if let Some(d) = new_detail
        && same_subject(&o.subject, &n.subject)
        && let Some(v) = by_detail(old, o, new, n, d)
    {
        return v;
    }
    // The same words in another order: "Dune is my favorite book". Not of two people: the
    // words that tell them apart ("ex", "step") are no content. Nor with the roles turned
    // round: "I'm Ravi's accountant" is not "Ravi is my accountant".
    if alike
        && o.all == n.all
        && !o.all.is_empty()
        && !two_people(&o.subject, &n.subject)
        && !reversal::turned_round(o, n)
    {
        return Verdict::Same;
    }
    // "I worked at Apple before Google", "I was married before Claire, we divorced in
    // 2010": what came before the old value, read before any rule of a change.
    if same_subject(&o.subject, &n.subject) && told_before(o, n) {
        return Verdict::Different;
    }
    // "Sofia and I broke up" after "My girlfriend is Sofia": subjects apart, one partner.
    // In talk, a parting names the partner: "I like breaking up my revision into short
    // blocks" after "so happy for you and your new wife!".
    let talk = talk_of_several_sentences(o, n);
    if partners::parted(o, n, talk) || partners::married(o, n) || partners::no_longer_single(o, n) {
        return Verdict::Change;
    }
    // "switched GPs, I see Dr Okafor now" after "My doctor is Dr Patel", "yoga's moved to
    // thursdays" after "My yoga class is on Monday evenings": subjects apart, one role.
    // "they've got us back in the office four days a week now" after "I work remotely".
    // Not between lines of a conversation, which record what was said then.
    let lines = o.speaker.is_some() || n.speaker.is_some();
    if !lines
        && (switches::new_holder(o, n)
            || switches::new_favourite(o, n)
            || switches::moved_thing(o, n)
            || switches::switched_way(o, n)
            || switches::new_rate(o, n)
            || switches::retimed(o, n) && !rebooked::not_done(new)
            || rebooked::rebooked(old, o, new, n))
    {
        return Verdict::Change;
    }
    // "Biscuit passed away" after "We have a dog called Biscuit": the same.
    if death::ends_having(o, n) {
        return Verdict::Change;
    }
    // "We had the baby!" after "My wife is pregnant".
    if birth::ends_pregnancy(o, n) {
        return Verdict::Change;
    }
    // "My mum's moved in with us" after "I live alone".
    if household::ends_living_alone(o, n) {
        return Verdict::Change;
    }
    // "landlord put the rent up to £950" after "my rent is £900 a month".
    // Read once: the pair's amounts answer this and, further on, whether the same amount
    // is told again.
    let amounts = details::AmountReading::of(old, o, new, n);
    if amounts.as_ref().is_some_and(|r| details::another_amount(r, o, n)) {
        return Verdict::Change;
    }
    // Not between lines of a conversation, as for the switches above.
    if !lines && (over::thing_over(o, n) || over::opening_thing_ended(o, n) || school::moved_schools(o, n)) {
        return Verdict::Change;
    }
    // "Tom and I carpool every day now, so no more bus for me" after "I take the bus to
    // work". Not between lines of a conversation, as for the switches above.
    if !lines && for_good::ended(o, n, new, ctx) {
        return Verdict::Change;
    }
    if !same_subject(&o.subject, &n.subject) {
        return Verdict::Different;
    }
    // (What came before, told of the same subject, was read above.)
    // "my mum has moved in with us now" after "My mum lives in Norwich".
    if household::moves_in(n) && slot_of(o).is_some_and(|s| s.name == "home") && !o.past && !n.wish {
        return Verdict::Change;
    }
    if o.content.is_empty() || n.content.is_empty() {
        return Verdict::Unsure;
    }
    // The words of one held by the other in another place: neither the same fact nor
    // more of it, whatever attribute each seems to state ("I run a vegan bakery").
    let mut moved = false;
    if alike {
        if o.content == n.content {
            return Verdict::Same;
        }
        // Told again with less detail, what is kept already says it; told with more, the
        // new one says it better. Unless the words shared stand somewhere else ("I have a
        // cold" / "I hate the cold", "I love coffee cake" / "I love coffee").
        if n.content.is_subset(&o.content) {
            if placement::kept_in_place(n, o) {
                return Verdict::Same;
            }
            moved = true;
        }
        if o.content.is_subset(&n.content) {
            if placement::kept_in_place(o, n) {
                return Verdict::Refinement;
            }
            moved = true;
        }
        if words::same_roots(&o.content, &n.content) || words::same_but_a_light_verb(&o.content, &n.content) {
            return Verdict::Same;
        }
    }
    // "my sertraline dose went up to 100mg" after "I take 50mg of sertraline".
    if o.wish == n.wish
        && !(o.denied || n.denied || o.former || n.former || o.past || n.past)
        && details::another_dose(o, n)
    {
        return Verdict::Change;
    }
    // "we got the dog!" or "decided against the dog" after "we're thinking about getting
    // a dog".
    if plans::settled(o, n) {
        return Verdict::Change;
    }
    // "the wedding is going to be in Cornwall instead of Tuscany", "we adopted a kitten!!"
    // after "I don't have any pets", "I actually like coriander now" after "I hate
    // coriander". Not between lines of a conversation, as for the switches above.
    if !lines && (instead::replaced(o, n) || gained::one_after_none(o, n) || taste::flipped(o, n)) {
        return Verdict::Change;
    }
    if o.wish != n.wish {
        // A wish or a plan beside what holds: "I don't have kids" / "I don't want kids".
        return Verdict::Different;
    }
    // "Turns out I'm not allergic to penicillin after all, the test was negative".
    if ending::retracted(o, n, new, ctx) {
        return Verdict::Change;
    }
    if let Some(v) = ended(o, n, talk) {
        return v;
    }
    // "Started a new job as a data analyst!" after "I'm unemployed at the moment".
    if work_found(o, n) {
        return Verdict::Change;
    }
    // "quit the cafe job!! starting at Lloyds on monday" after "I work as a barista": what
    // the new fact denies is the old job.
    if !o.denied && n.denied && !n.former && !n.past && job_quit(o, n) {
        return Verdict::Change;
    }
    // "my house number is 24 not 42" after "my house number is 42".
    if !o.denied && n.denied && details::corrected_number(o, n) {
        return Verdict::Change;
    }
    // "i live in Adelaide not brisbane" after "I live in Brisbane": a value put in place
    // of the old one, which is denied by name.
    if !o.denied && n.denied && !o.past && !o.former && !n.former && corrected_value(o, n) {
        return Verdict::Change;
    }
    if o.denied || n.denied || o.former || n.former || o.past != n.past {
        return if overlap(&o.content, &n.content) >= 0.5 {
            Verdict::Unsure
        } else {
            Verdict::Different
        };
    }
    if let Some(v) = by_slot(o, n) {
        return if moved && matches!(v, Verdict::Same | Verdict::Refinement) {
            Verdict::Unsure
        } else {
            v
        };
    }
    // A price is no time: "a coffee at my local is $5.50 now" after "I drink 4 coffees a
    // day" (the figures lose their currency when read).
    let priced = |text: &str| text.contains(['£', '$', '€', '₹', '₦']);
    let retimed = rescheduled(o, n) && (priced(old) || !priced(new)) && !rebooked::not_done(new);
    if switched(o, n) || retimed || details::another_number(o, n) {
        return Verdict::Change;
    }
    if supersession::rule_replaces(old, new, ctx) {
        return Verdict::Change;
    }
    // "i'm 85 kilos" after "I weigh 85kg".
    if let Some(v) = amounts.as_ref().and_then(|r| details::same_amount(r, o, n)) {
        return v;
    }
    if overlap(&o.content, &n.content) >= 0.5 {
        Verdict::Unsure
    } else {
        Verdict::Different
    }
}

/// "I worked at Apple before Google", "I lived in York before moving to Leeds": the new
/// fact tells what came before the old one's value, which still holds.
fn told_before(o: &Fact, n: &Fact) -> bool {
    // The word first: reading the old fact's attribute is the dearer half.
    let Some(at) = n
        .words
        .iter()
        .position(|w| matches!(w.low.as_str(), "before" | "prior"))
    else {
        return false;
    };
    let after = &n.words[at + 1..];
    // "I was married before Claire" after "I'm married to Claire": the name the old fact
    // holds, whatever its attribute's value is read as.
    after.iter().any(|w| (w.cap || w.upper) && o.content.contains(&w.stem))
        || slot_of(o).is_some_and(|slot| after.iter().any(|w| slot.value.contains(&w.stem)))
}

/// The verdict of two facts that give one detail ([`details`]): the same value written
/// another way is the same fact, another value a change. "It's June 12, not June 2"
/// corrects the June 2 it denies.
fn by_detail(old: &str, o: &Fact, new: &str, n: &Fact, d: &Detail) -> Option<Verdict> {
    let kept = detail_of(old, o)?;
    if kept.kind != d.kind {
        // A work phone beside a mobile, an anniversary beside a birthday.
        return Some(Verdict::Different);
    }
    if o.denied || o.former || n.former || o.wish != n.wish {
        return None;
    }
    if n.denied && !details::denies_only(new, &kept.value) {
        return None;
    }
    // "My number was ..." beside "My number is ...": history beside what holds. A birthday
    // is told in either tense.
    let dated = matches!(d.kind.as_str(), "birthday" | "anniversary");
    if o.past != n.past && !dated {
        return None;
    }
    Some(match compare(&kept.value, &d.value)? {
        Ordering::Same => Verdict::Same,
        Ordering::More => Verdict::Refinement,
        Ordering::Other => Verdict::Change,
    })
}

/// Whether the new fact tells work found after the old told one out of work. A job told
/// in the past is history ("I worked at Tesco for ten years"), unless it is told as got
/// ("started a new job", "got a job at"); one sought is none ("I got a job interview at
/// Tesco", "got rejected for the job").
fn work_found(o: &Fact, n: &Fact) -> bool {
    let lows = n.body_lows();
    let sought = lows.iter().any(|w| {
        matches!(
            *w,
            "interview" | "interviews" | "application" | "applied" | "applying" | "rejected"
        )
    });
    if sought {
        return false;
    }
    let began = || {
        lows.iter().any(|w| {
            matches!(
                *w,
                "started" | "new" | "got" | "landed" | "joined" | "hired" | "accepted"
            )
        })
    };
    // "Started a new job as a data analyst!" states no employer or role the slots read.
    let a_job = || lows.iter().any(|w| matches!(*w, "job" | "role" | "position"));
    (slot_of(n).is_some_and(|b| matches!(b.name.as_str(), "employer" | "role")) || a_job() && began())
        && out_of_work(o)
        && !out_of_work(n)
        && !(o.past || o.former || o.denied || n.denied || n.former)
        && (!n.past || began())
}

/// Whether `n` gives its own value of `o`'s attribute and denies `o`'s beside it: "i
/// live in Adelaide not brisbane", "I work at Aldi, not Lidl".
fn corrected_value(o: &Fact, n: &Fact) -> bool {
    let (Some(a), Some(b)) = (slot_of(o), slot_of(n)) else {
        return false;
    };
    if a.name != b.name || a.value.iter().any(|v| b.value.contains(v)) {
        return false;
    }
    // The words right after "not" are the old value, and nothing else is denied.
    let nots: Vec<usize> = (0..n.words.len())
        .filter(|&i| matches!(n.words[i].low.as_str(), "not" | "never" | "no"))
        .collect();
    let [at] = nots.as_slice() else {
        return false;
    };
    let clause = n.words[at + 1..]
        .iter()
        .position(|w| w.stop)
        .map_or(n.words.len(), |k| at + 2 + k);
    let after: Vec<&str> = n.words[at + 1..clause]
        .iter()
        .filter(|w| !fact::is_ignored(w))
        .map(|w| w.stem.as_str())
        .collect();
    !after.is_empty() && after.len() <= a.value.len() + 1 && a.value.iter().all(|v| after.contains(&v.as_str()))
}

/// The verdict of two facts that state one-valued attributes.
fn by_slot(o: &Fact, n: &Fact) -> Option<Verdict> {
    let (a, b) = (slot_of(o), slot_of(n));
    // A job ended: "I work at Google" / "I retired last year".
    if let Some(a) = &a
        && matches!(a.name.as_str(), "employer" | "role")
        && ends_employment(n)
    {
        return Some(Verdict::Change);
    }
    // "I'm single" / "I got engaged to Tom".
    // Not in a question: "How long have you been married?" tells no one's partner.
    let told = |f: &Fact, said: &dyn Fn(&str) -> bool| {
        f.words[f.body.min(f.words.len())..]
            .iter()
            .any(|w| !w.asks && said(&w.low))
    };
    let single = |f: &Fact| told(f, &|w| w == "single");
    // "met someone ..., we've been together two months now".
    let told_together = |f: &Fact| {
        matches!(f.subject, Subject::User | Subject::We)
            && f.words.windows(2).any(|p| {
                !p[1].asks
                    && matches!(
                        (p[0].low.as_str(), p[1].low.as_str()),
                        ("been", "together") | ("seeing", "someone") | ("met", "someone")
                    )
            })
    };
    let partnered = |f: &Fact| told(f, &|w| PARTNERS.contains(&w));
    // "I'm a single mum to two boys" tells no one's partner.
    let single_parent = |f: &Fact| {
        f.words.windows(2).any(|p| {
            p[0].low == "single"
                && matches!(
                    p[1].low.as_str(),
                    "mum" | "mom" | "dad" | "parent" | "mother" | "father"
                )
        })
    };
    let together = single(o) && !single_parent(o) && told_together(n);
    if single(o) != single(n) && (partnered(o) || partnered(n) || together) {
        return Some(Verdict::Change);
    }
    let (a, b) = (a?, b?);
    // "got the job at the bank!!" after "I work as a barista at a cafe": a job begun at
    // another place ends the one told with its place.
    if a.name == "role"
        && b.name == "employer"
        && job_begun(n)
        && o.body_lows().iter().any(|w| matches!(*w, "at" | "for"))
        && !a.value.iter().any(|v| b.value.contains(v))
        && !(o.past || o.former || o.denied || n.denied || n.former || n.wish)
    {
        return Some(Verdict::Change);
    }
    if a.name != b.name {
        return None;
    }
    if a.value == b.value {
        return Some(Verdict::Same);
    }
    // "I support Spurs now" ends "I support Arsenal"; "I'm a Beyonce fan" may be one more.
    // "I'm done with Chelsea, I follow Spurs now": the old one named beside the new.
    let old_named = || {
        let lows = n.body_lows();
        a.value.iter().all(|v| lows.contains(&v.as_str()))
    };
    if matches!(a.name.as_str(), "team" | "vote") && !allegiance_changed(n, old_named()) {
        return Some(Verdict::Unsure);
    }
    // "a vet nurse" / "a vet now": another job, though one holds the other's words.
    if a.name == "role"
        && let (Some(x), Some(y)) = (role_head(&a.value), role_head(&b.value))
        && x != y
    {
        return Some(Verdict::Change);
    }
    if contains(&b.value, &a.value) {
        return Some(Verdict::Refinement);
    }
    if contains(&a.value, &b.value) {
        return Some(Verdict::Same);
    }
    // "Got promoted to senior developer" after "I'm a junior developer".
    if a.name == "role" && n.body_lows().contains(&"promoted") {
        return Some(Verdict::Change);
    }
    // "a freelance photographer" / "a freelance writer": the same standing, another
    // occupation.
    if a.name == "role"
        && a.value.len() > 1
        && b.value.len() > 1
        && a.value[0] == b.value[0]
        && !a.value[1..].iter().any(|v| b.value[1..].contains(v))
    {
        return Some(Verdict::Change);
    }
    if a.value.iter().any(|v| b.value.contains(v)) {
        return Some(Verdict::Unsure);
    }
    // "got a job at Tesco on the tills" after "I work at a call centre": a job begun is
    // another employer, whether the old one was named or described.
    if a.name == "employer" && job_begun(n) {
        return Some(Verdict::Change);
    }
    // "Lisbon" and "a flat", "Portugal" and "Lisbon": both may hold.
    let region = |v: &[String]| supersession::is_region(&v.join(" "));
    if a.proper != b.proper || region(&a.value) != region(&b.value) {
        return Some(Verdict::Unsure);
    }
    Some(Verdict::Change)
}

/// "got a job at", "landed a new role with", "started a new job at": a job begun, not one
/// sought ("a job interview", "a job offer").
fn job_begun(n: &Fact) -> bool {
    let lows = n.body_lows();
    lows.iter().enumerate().any(|(i, w)| {
        matches!(*w, "got" | "landed" | "started" | "new")
            && lows[i + 1..(i + 4).min(lows.len())]
                .iter()
                .position(|x| matches!(*x, "job" | "role" | "position"))
                .is_some_and(|k| {
                    !lows
                        .get(i + 2 + k)
                        .is_some_and(|x| matches!(*x, "interview" | "offer" | "application" | "fair" | "hunting"))
                })
    })
}

fn contains(outer: &[String], inner: &[String]) -> bool {
    inner.iter().all(|w| outer.contains(w))
}

/// The share of the smaller set that the other holds.
fn overlap(a: &BTreeSet<String>, b: &BTreeSet<String>) -> f32 {
    let small = a.len().min(b.len());
    if small == 0 {
        return 0.0;
    }
    a.intersection(b).count() as f32 / small as f32
}

/// The question put to the language model about a pair the rules cannot settle. The
/// answer must be one word.
pub fn judgment_request(old: &str, new: &str) -> LlmRequest {
    LlmRequest {
        system: "You maintain a user's long-term memory. Compare a NEW fact with an OLD fact about the same \
                 person or thing. Answer with exactly one word: same (NEW says what OLD says, nothing more), \
                 refinement (NEW says all of OLD and adds detail), change (NEW gives the same attribute a new \
                 value, or says OLD is no longer true), or different (both can be true at once, such as liking \
                 dogs and liking cats)."
            .to_owned(),
        prompt: format!("OLD: {old}\nNEW: {new}\nWhich one word: same, refinement, change or different?"),
        max_tokens: 4,
    }
}

/// Reads the model's answer strictly: one of the four words, alone (a full stop
/// allowed); anything else is `None`, which keeps both facts.
pub fn parse_judgment(answer: &str) -> Option<Verdict> {
    let word = answer.trim().trim_end_matches(['.', '!']).trim().to_lowercase();
    match word.as_str() {
        "same" => Some(Verdict::Same),
        "refinement" => Some(Verdict::Refinement),
        "change" => Some(Verdict::Change),
        "different" => Some(Verdict::Different),
        _ => None,
    }
}

/// A text's words as a restatement compares them: two texts with the same key say the
/// same words (case, punctuation, contractions, spelling variants and filler aside). A
/// text of filler alone has an empty key, which restates nothing.
pub fn restatement_key(text: &str) -> String {
    Fact::read(text, &RuleContext::default()).plain.join(" ")
}

/// The words of what the teller ends ("Gary and I quit the club after the row": "club"),
/// to look for the fact it ends by: an ending is often little alike by meaning what it
/// ends ("I ride with a cycling club on Sunday mornings").
fn ended_terms(fact: &Fact) -> Vec<String> {
    if !matches!(fact.subject, Subject::User | Subject::We) || fact.wish {
        return Vec::new();
    }
    let stems: Vec<String> = ending::ended_things(fact).into_iter().flatten().collect();
    let mut terms: Vec<String> = fact.words[fact.body.min(fact.words.len())..]
        .iter()
        .filter(|w| {
            stems.contains(&w.stem)
                && w.low.chars().count() > 2
                && w.low.chars().all(char::is_alphabetic)
                && !is_generic(&w.stem)
                && !words::is_light_verb(&w.stem)
        })
        .map(|w| w.low.clone())
        .collect();
    terms.dedup();
    terms.truncate(4);
    terms
}

/// Words to find a new fact's candidates by, beside its meaning: its telling words, and
/// the words that state the attribute it gives a value, so that "I started a new job at
/// Microsoft" finds "I work at Google".
///
/// A fact that states no attribute the rules know gets none: its candidates by meaning
/// are all the rules could judge, and words common in a store make a costly search.
pub fn candidate_terms(text: &str) -> Vec<String> {
    let fact = Fact::read(text, &RuleContext::default());
    let Some(slot) = slot_of(&fact) else {
        if household::moves_in(&fact) {
            return ["alone", "myself", "own"].map(str::to_owned).to_vec();
        }
        if birth::born(&fact) {
            return ["pregnant", "expecting"].map(str::to_owned).to_vec();
        }
        // "I've started seeing someone": the memory that says the user is single.
        if partners::seeing_someone(&fact) {
            return vec!["single".to_owned()];
        }
        // "we had to put Max down": the memories that name Max.
        if let Some(name) = death::died(&fact) {
            return vec![name];
        }
        // "sold the car": the memories of the car one drives.
        if let Some(kind) = ending::ends_a_kind(&fact) {
            return slots::family(kind).iter().map(|w| (*w).to_owned()).collect();
        }
        if let Some(terms) = partners::parting_terms(&fact) {
            return terms;
        }
        // "finally switched to octopus": the memories of the energy supplier; "our old boy
        // can't manage walks anymore": those of its thing too.
        let mut terms = switches::candidate_terms(&fact);
        for term in for_good::candidate_terms(&fact, text)
            .unwrap_or_default()
            .into_iter()
            .chain(ended_terms(&fact))
        {
            if !terms.contains(&term) {
                terms.push(term);
            }
        }
        return terms;
    };
    let mut terms: Vec<String> = fact.words[fact.body.min(fact.words.len())..]
        .iter()
        .filter(|w| {
            w.low.chars().count() > 2
                && !is_frame(&w.low)
                && !is_generic(&w.stem)
                && w.low.chars().all(|c| c.is_alphanumeric())
        })
        .map(|w| w.low.clone())
        .collect();
    terms.extend(slots::family(&slot.name).iter().map(|w| (*w).to_owned()));
    terms.sort();
    terms.dedup();
    terms.truncate(12);
    for term in switches::candidate_terms(&fact) {
        if terms.len() < 12 && !terms.contains(&term) {
            terms.push(term);
        }
    }
    // "I've started seeing someone, her name's Ana" states her name, and ends "I'm single".
    if partners::seeing_someone(&fact) && !terms.iter().any(|t| t == "single") {
        terms.insert(0, "single".to_owned());
        terms.truncate(12);
    }
    terms
}
