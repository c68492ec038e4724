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

/// Every application of a derivation, in order. Two traces are equal
/// when their applications are (rule names compared as text).
#[derive(Clone, Default)]
pub struct Trace {
    /// Rule names by rule index (the grammar's rules).
    names: Vec<RuleName>,
    steps: Vec<Step>,
    vertices: Vec<VertexId>,
}

impl Trace {
    /// An empty trace for a grammar whose rules are `names`, in order.
    pub(crate) fn new(names: Vec<RuleName>) -> Self {
        Trace {
            names,
            steps: Vec::new(),
            vertices: Vec::new(),
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
        for step in &other.steps {
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
        self.steps.len()
    }

    /// Whether no rule was applied.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Application `i` (0-based), if there is one.
    pub fn get(&self, i: usize) -> Option<Application<'_>> {
        self.steps.get(i).map(|s| self.view(s))
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
            steps: self.steps.iter(),
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
    steps: std::slice::Iter<'a, Step>,
}

impl<'a> Iterator for Iter<'a> {
    type Item = Application<'a>;

    fn next(&mut self) -> Option<Application<'a>> {
        self.steps.next().map(|s| self.trace.view(s))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.steps.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.steps.next_back().map(|s| self.trace.view(s))
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
