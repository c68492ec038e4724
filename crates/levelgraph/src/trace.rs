//! The trace of a derivation: every application in order, stored compactly.
//!
//! A derivation of a million steps records a million applications; with a
//! heap vector per application for the matched and created vertices that
//! was about 110 bytes and one allocation each, more than the rewriting
//! itself touched. Here the vertices of all applications share one
//! vector and each application is a 24-byte record, and [`Application`]
//! is a borrowed view of one of them.

use std::fmt;
use std::sync::Arc;

use crate::graph::VertexId;

/// A rule's name, shared between the grammar and every application of
/// the rule in a trace (cloning it copies a pointer, not the text).
/// Compares and prints like a `str`.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RuleName(Arc<str>);

impl RuleName {
    /// The name as a string slice.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<&str> for RuleName {
    fn from(name: &str) -> Self {
        RuleName(Arc::from(name))
    }
}

impl std::ops::Deref for RuleName {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for RuleName {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for RuleName {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for RuleName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for RuleName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl PartialEq<str> for RuleName {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for RuleName {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl PartialEq<String> for RuleName {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<RuleName> for str {
    fn eq(&self, other: &RuleName) -> bool {
        self == &*other.0
    }
}

impl PartialEq<RuleName> for &str {
    fn eq(&self, other: &RuleName) -> bool {
        *self == &*other.0
    }
}

impl PartialEq<RuleName> for String {
    fn eq(&self, other: &RuleName) -> bool {
        **self == *other.0
    }
}

/// One rule application of a derivation, as recorded in a [`Trace`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Application<'a> {
    /// Name of the rule applied.
    pub rule: &'a RuleName,
    /// Index of the right-hand alternative applied (0 for single-sided rules).
    pub alternative: usize,
    /// Host vertex matched by each pattern vertex, in pattern order.
    pub matched: &'a [VertexId],
    /// Vertices created, in right-hand order.
    pub created: &'a [VertexId],
}

/// Where one application's data lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Step {
    /// Start of its matched vertices in `Trace::vertices`; its created
    /// vertices follow them.
    start: usize,
    rule: u32,
    alternative: u32,
    matched: u32,
    created: u32,
}

/// A run of one application repeated right after itself, identically:
/// the same rule, alternative and match, nothing created (a rule that
/// changes nothing, drawn at the same match again).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Repeat {
    /// The step repeated (an index into `Trace::steps`).
    step: usize,
    /// The application index of that step's first application.
    first: usize,
    /// How many times it was applied again.
    extra: usize,
}

/// Every application of a derivation, in order. Two traces are equal
/// when their applications are (rule names compared as text).
///
/// An application identical to the one before it (possible only when it
/// creates nothing) is stored as a repeat count, not again: a rule that
/// changes nothing, applied millions of times by a recipe stage at the
/// same match, takes constant room. Reading the trace back gives every
/// application all the same.
#[derive(Clone, Default)]
pub struct Trace {
    /// Rule names by rule index (the grammar's rules).
    names: Vec<RuleName>,
    steps: Vec<Step>,
    vertices: Vec<VertexId>,
    /// The repeated steps, in step order.
    repeats: Vec<Repeat>,
    /// Number of applications: steps and their repeats.
    len: usize,
}

impl Trace {
    /// An empty trace for a grammar whose rules are `names`, in order.
    pub(crate) fn new(names: Vec<RuleName>) -> Self {
        Trace {
            names,
            ..Trace::default()
        }
    }

    /// Makes room for `applications` more applications.
    pub(crate) fn reserve(&mut self, applications: usize) {
        self.steps.reserve(applications);
        self.vertices.reserve(3 * applications);
    }

    /// Records an application of rule `rule` (an index into the names).
    #[inline(always)]
    pub(crate) fn push(
        &mut self,
        rule: usize,
        alternative: usize,
        matched: &[VertexId],
        created: &[VertexId],
    ) {
        debug_assert!(rule < self.names.len());
        self.len += 1;
        if let Some(last) = self.steps.last() {
            let same = last.rule as usize == rule
                && last.alternative as usize == alternative
                && created.is_empty()
                && last.created == 0
                && self.view(last).matched == matched;
            if same {
                let step = self.steps.len() - 1;
                match self.repeats.last_mut() {
                    Some(r) if r.step == step => r.extra += 1,
                    _ => self.repeats.push(Repeat {
                        step,
                        first: self.len - 2,
                        extra: 1,
                    }),
                }
                return;
            }
        }
        let start = self.vertices.len();
        self.vertices.extend_from_slice(matched);
        self.vertices.extend_from_slice(created);
        self.steps.push(Step {
            start,
            rule: rule as u32,
            alternative: alternative as u32,
            matched: matched.len() as u32,
            created: created.len() as u32,
        });
    }

    /// Appends the applications of `other` (a derivation that went on from
    /// this one's graph with `derive_from`, possibly with another grammar):
    /// their rules are matched to this trace's by name, and names it lacks
    /// are added.
    pub fn append(&mut self, other: &Trace) {
        let map: Vec<u32> = other
            .names
            .iter()
            .map(|name| match self.names.iter().position(|n| n == name) {
                Some(i) => i as u32,
                None => {
                    self.names.push(name.clone());
                    (self.names.len() - 1) as u32
                }
            })
            .collect();
        for i in 0..other.len {
            let step = &other.steps[other.step_of(i).expect("below len")];
            let a = other.view(step);
            self.push(
                map[step.rule as usize] as usize,
                a.alternative,
                a.matched,
                a.created,
            );
        }
    }

    /// Number of applications.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no rule was applied.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Estimated bytes the trace takes, with fixed per-entry costs (the
    /// same on every platform): 32 per distinct application, 4 per vertex
    /// it lists, 24 per run of repeats.
    pub fn estimated_bytes(&self) -> u64 {
        32 * self.steps.len() as u64
            + 4 * self.vertices.len() as u64
            + 24 * self.repeats.len() as u64
    }

    /// Application `i` (0-based), if there is one.
    pub fn get(&self, i: usize) -> Option<Application<'_>> {
        self.step_of(i).map(|s| self.view(&self.steps[s]))
    }

    /// The step that application `i` is (an index into `steps`).
    fn step_of(&self, i: usize) -> Option<usize> {
        if i >= self.len {
            return None;
        }
        // Applications before the first repeat are their own steps; after
        // a run, the offset is the run's extra applications.
        let runs = self.repeats.partition_point(|r| r.first <= i);
        let Some(r) = runs.checked_sub(1).map(|k| self.repeats[k]) else {
            return Some(i);
        };
        if i <= r.first + r.extra {
            Some(r.step)
        } else {
            Some(r.step + (i - r.first - r.extra))
        }
    }

    /// The first application, if any.
    pub fn first(&self) -> Option<Application<'_>> {
        self.get(0)
    }

    /// The last application, if any.
    pub fn last(&self) -> Option<Application<'_>> {
        self.steps.last().map(|s| self.view(s))
    }

    /// The applications in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            trace: self,
            front: 0,
            back: self.len,
        }
    }

    fn view(&self, s: &Step) -> Application<'_> {
        let matched_end = s.start + s.matched as usize;
        Application {
            rule: &self.names[s.rule as usize],
            alternative: s.alternative as usize,
            matched: &self.vertices[s.start..matched_end],
            created: &self.vertices[matched_end..matched_end + s.created as usize],
        }
    }
}

impl PartialEq for Trace {
    fn eq(&self, other: &Trace) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Trace {}

impl fmt::Debug for Trace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Iterator over a [`Trace`]'s applications, in order.
#[derive(Clone, Debug)]
pub struct Iter<'a> {
    trace: &'a Trace,
    /// The applications `front..back` are still to come.
    front: usize,
    back: usize,
}

impl<'a> Iterator for Iter<'a> {
    type Item = Application<'a>;

    fn next(&mut self) -> Option<Application<'a>> {
        if self.front == self.back {
            return None;
        }
        self.front += 1;
        self.trace.get(self.front - 1)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.front == self.back {
            return None;
        }
        self.back -= 1;
        self.trace.get(self.back)
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl<'a> IntoIterator for &'a Trace {
    type Item = Application<'a>;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn applications_read_back_in_order() {
        let mut t = Trace::new(vec!["a".into(), "b".into()]);
        assert!(t.is_empty() && t.first().is_none());
        t.push(1, 0, &[VertexId(3), VertexId(4)], &[VertexId(9)]);
        t.push(0, 2, &[VertexId(5)], &[]);
        assert_eq!(t.len(), 2);
        let first = t.first().unwrap();
        assert_eq!(
            (
                first.rule.as_str(),
                first.alternative,
                first.matched,
                first.created
            ),
            ("b", 0, &[VertexId(3), VertexId(4)][..], &[VertexId(9)][..])
        );
        let last = t.last().unwrap();
        assert_eq!((last.rule.as_str(), last.alternative), ("a", 2));
        assert_eq!((last.matched, last.created), (&[VertexId(5)][..], &[][..]));
        let names: Vec<&str> = t.iter().rev().map(|a| a.rule.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(t.iter().len(), 2);
        assert!(t.get(2).is_none());
    }

    /// Repeats are stored once and read back as every application, at
    /// every index, forwards and backwards, beside applications that are
    /// not repeated (against a plain list of what was pushed).
    #[test]
    fn repeated_applications_take_no_room_and_read_back_in_full() {
        let names: Vec<RuleName> = vec!["noop".into(), "grow".into()];
        let mut t = Trace::new(names);
        let mut pushed: Vec<(usize, usize, Vec<VertexId>, Vec<VertexId>)> = Vec::new();
        let mut push = |t: &mut Trace, r: usize, m: u32, c: &[u32]| {
            let m = vec![VertexId(m)];
            let c: Vec<VertexId> = c.iter().map(|&x| VertexId(x)).collect();
            t.push(r, 0, &m, &c);
            pushed.push((r, 0, m, c));
        };
        push(&mut t, 1, 0, &[1]);
        for _ in 0..1000 {
            push(&mut t, 0, 1, &[]);
        }
        push(&mut t, 0, 0, &[]);
        push(&mut t, 1, 1, &[2]);
        push(&mut t, 1, 1, &[3]);
        for _ in 0..5 {
            push(&mut t, 0, 2, &[]);
        }
        push(&mut t, 0, 3, &[]);
        assert_eq!(t.len(), pushed.len());
        assert_eq!(t.steps.len(), 7, "1000 and 5 repeats stored once each");
        let read = |a: Application<'_>| {
            (
                0,
                a.alternative,
                a.matched.to_vec(),
                a.created.to_vec(),
                a.rule.clone(),
            )
        };
        for (i, want) in pushed.iter().enumerate() {
            let a = t.get(i).unwrap();
            let (_, alt, m, c, rule) = read(a);
            let name = if want.0 == 0 { "noop" } else { "grow" };
            assert_eq!(
                (rule.as_str(), alt, &m, &c),
                (name, want.1, &want.2, &want.3),
                "application {i}"
            );
        }
        assert!(t.get(pushed.len()).is_none());
        assert_eq!(t.iter().count(), pushed.len());
        assert!(t
            .iter()
            .rev()
            .map(|a| a.matched.to_vec())
            .eq(pushed.iter().rev().map(|p| p.2.clone())));
        let mut copy = Trace::new(vec!["noop".into(), "grow".into()]);
        copy.append(&t);
        assert_eq!(copy, t);
        assert_eq!(copy.steps.len(), 7);
    }

    #[test]
    fn append_matches_rules_by_name() {
        let mut t = Trace::new(vec!["a".into(), "b".into()]);
        t.push(0, 0, &[VertexId(1)], &[]);
        let mut u = Trace::new(vec!["c".into(), "b".into()]);
        u.push(1, 1, &[VertexId(2)], &[VertexId(3)]);
        u.push(0, 0, &[VertexId(4)], &[]);
        t.append(&u);
        let got: Vec<(&str, usize, &[VertexId], &[VertexId])> = t
            .iter()
            .map(|a| (a.rule.as_str(), a.alternative, a.matched, a.created))
            .collect();
        assert_eq!(
            got,
            [
                ("a", 0, &[VertexId(1)][..], &[][..]),
                ("b", 1, &[VertexId(2)][..], &[VertexId(3)][..]),
                ("c", 0, &[VertexId(4)][..], &[][..]),
            ]
        );
    }
}
