//! The duplicate-rule lint: canonical forms against the pairwise
//! backtracking search it replaced, on grammars of many small rules.
//!
//! Each grammar has N random rules (2–6 pattern vertices of three tags, a
//! spanning tree plus up to two more corridors, the same right-hand side
//! shape) and a copy of every fourth rule with its vertices renamed and
//! its edges written in another order, so that duplicates exist. Both
//! methods must report the same pairs (asserted); the median of 7 rounds
//! is printed. Run with `cargo bench -p levelgraph --bench duplicates`.

use std::fmt::Write;
use std::hint::black_box;
use std::time::Instant;

use levelgraph::grammar;
use levelgraph::lint::duplicate_pairs;
use levelgraph::rng::Rng;

const ROUNDS: usize = 7;

/// A grammar of `n` random rules and `n / 4` renamed copies.
fn many_rules(n: usize, seed: u64) -> String {
    let tags = ["room", "hall", "key"];
    let mut rng = Rng::seeded(seed);
    let mut text = String::from(
        "grammar \"many\" { max_vertices 50 }\ntags { s room hall key cave }\n\
         rule start { (a:s) => (a:room) }\n",
    );
    let mut rules = Vec::new();
    for _ in 0..n {
        let size = 2 + rng.below(5);
        let tag: Vec<&str> = (0..size).map(|_| tags[rng.below(3)]).collect();
        let mut edges: Vec<(usize, usize)> = (1..size).map(|k| (rng.below(k), k)).collect();
        for _ in 0..rng.below(3) {
            let (a, b) = (rng.below(size), rng.below(size));
            let e = (a.min(b), a.max(b));
            if a != b && !edges.contains(&e) {
                edges.push(e);
            }
        }
        rules.push((tag, edges));
    }
    let write = |text: &mut String,
                 name: String,
                 tag: &[&str],
                 edges: &[(usize, usize)],
                 rename: &dyn Fn(usize) -> usize| {
        let mut named = vec![false; tag.len()];
        let mut side = Vec::new();
        for &(a, b) in edges {
            let mut end = |v: usize| {
                let id = rename(v);
                if std::mem::replace(&mut named[v], true) {
                    format!("(v{id})")
                } else {
                    format!("(v{id}:{})", tag[v])
                }
            };
            let (a, b) = (end(a), end(b));
            side.push(format!("{a} -- {b}"));
        }
        let _ = writeln!(
            text,
            "rule {name} {{ {} => (v{}) -- (v{}), (v{}) -- (n:cave) }}",
            side.join(", "),
            rename(0),
            rename(1),
            rename(0)
        );
    };
    for (i, (tag, edges)) in rules.iter().enumerate() {
        write(&mut text, format!("r{i}"), tag, edges, &|v| v);
    }
    for (i, (tag, edges)) in rules.iter().enumerate().step_by(4) {
        let mut reversed = edges.clone();
        reversed.reverse();
        let size = tag.len();
        write(&mut text, format!("copy{i}"), tag, &reversed, &|v| {
            size - 1 - v + 100
        });
    }
    text
}

fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn main() {
    println!("| rules | duplicate pairs | canonical forms, ms | backtracking search, ms | ratio |");
    println!("|---|---|---|---|---|");
    for n in [100, 400, 1600] {
        let model =
            grammar::parse(&many_rules(n, 7), "many").expect("the generated grammar parses");
        let by_form = duplicate_pairs(&model, false);
        let by_search = duplicate_pairs(&model, true);
        assert_eq!(by_form, by_search, "the two methods disagree at {n} rules");
        let time = |by_search: bool| {
            median(
                (0..ROUNDS)
                    .map(|_| {
                        let t = Instant::now();
                        black_box(duplicate_pairs(black_box(&model), by_search));
                        t.elapsed().as_secs_f64() * 1e3
                    })
                    .collect(),
            )
        };
        let (form, search) = (time(false), time(true));
        println!(
            "| {} | {} | {form:.2} | {search:.2} | {:.1}× |",
            model.rules.len(),
            by_form.len(),
            search / form
        );
    }
}
