//! The sweep's grid: design `k`'s value on each axis (the last axis varies fastest), every
//! design priced on `jobs` threads in grid order, and the outcome of each kept small (a total,
//! or the reason it was refused). Designs are priced through `parts` where the workload allows
//! (each table priced once per combination of its own values), else — and for any design
//! `parts` cannot price exactly — through the whole document, as `estimate --set` would.

use std::ops::Range;
use std::sync::Arc;

use rust_decimal::Decimal;
use serde_json::Value;

use super::parts::Plan;
use super::{Axis, Sweep};
use crate::commands::pricing::DocumentPricer;
use crate::error::Error;
use crate::scenario;

/// One design's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Priced {
    /// Its monthly total, exact.
    Total(Decimal),
    /// Why the loader or the engine refused it (shared by the designs refused alike).
    Refused(Arc<str>),
}

/// How designs are priced: `Fastest` takes the per-table path where it is exact; `Documents`
/// patches and loads the whole document for every design (what the fast path is tested
/// against).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Path {
    Fastest,
    #[cfg_attr(not(test), allow(dead_code))]
    Documents,
}

/// Design `k`'s value index on each axis, written into `choice`.
pub(super) fn decode(axes: &[Axis], mut k: usize, choice: &mut Vec<usize>) {
    choice.clear();
    choice.resize(axes.len(), 0);
    for (slot, a) in choice.iter_mut().zip(axes).rev() {
        let len = a.values.len().max(1);
        *slot = k.checked_rem(len).unwrap_or(0);
        k = k.checked_div(len).unwrap_or(0);
    }
}

/// Every design, in grid order.
///
/// # Errors
/// A worker panicked: its designs are lost, so the run fails rather than report fewer.
pub(super) fn price_all(sweep: &Sweep<'_>, jobs: usize, path: Path) -> Result<Vec<Priced>, Error> {
    let (axes, base, model, pricer) =
        (&sweep.axes[..], &sweep.base, &sweep.workload, &sweep.pricer);
    let n = usize::try_from(sweep.count).unwrap_or(usize::MAX);
    let jobs = threads(jobs);
    let label = format!("{} (a sweep design)", pricer.file);
    let whole = Whole {
        axes,
        base,
        pricer,
        label: &label,
    };
    let plan = match path {
        Path::Fastest => Plan::new(axes, base, model, pricer, &label, n),
        Path::Documents => None,
    };
    let Some(mut plan) = plan else {
        return in_parallel(n, jobs, |range| {
            let mut choice = Vec::new();
            range
                .map(|k| {
                    decode(axes, k, &mut choice);
                    whole.price(&choice)
                })
                .collect()
        });
    };
    plan.remember(jobs)?;
    in_parallel(n, jobs, |range| {
        let mut choice = Vec::new();
        let mut worker = plan.worker();
        range
            .map(|k| {
                decode(axes, k, &mut choice);
                plan.design(&choice, &mut worker)
                    .unwrap_or_else(|| whole.price(&choice))
            })
            .collect()
    })
}

/// A design priced as `estimate --set` prices it: every patch merged into the document, the
/// whole document loaded and priced.
struct Whole<'a> {
    axes: &'a [Axis],
    base: &'a Value,
    pricer: &'a DocumentPricer<'a>,
    label: &'a str,
}

impl Whole<'_> {
    fn price(&self, choice: &[usize]) -> Priced {
        let mut doc = self.base.clone();
        for (a, &i) in self.axes.iter().zip(choice) {
            scenario::apply(&mut doc, &a.values[i].1);
        }
        match self.pricer.estimate(doc, self.label) {
            Ok(e) => Priced::Total(e.total),
            Err(e) => Priced::Refused(Arc::from(&*e.message)),
        }
    }
}

/// The threads `--jobs` asks for: 0 is one a core.
pub(super) fn threads(jobs: usize) -> usize {
    if jobs == 0 {
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
    } else {
        jobs
    }
}

/// `f` over `0..n` split into one contiguous range per thread, the results joined in order.
///
/// # Errors
/// A worker panicked.
pub(super) fn in_parallel<T: Send>(
    n: usize,
    jobs: usize,
    f: impl Fn(Range<usize>) -> Vec<T> + Sync,
) -> Result<Vec<T>, Error> {
    let workers = jobs.clamp(1, n.max(1));
    let per = n.div_ceil(workers);
    std::thread::scope(|s| {
        let f = &f;
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let from = w.saturating_mul(per).min(n);
                let to = from.saturating_add(per).min(n);
                s.spawn(move || f(from..to))
            })
            .collect();
        let mut all = Vec::with_capacity(n);
        for h in handles {
            all.extend(h.join().map_err(|_| {
                Error::input("a sweep worker panicked: its designs are lost, so the sweep is not reported")
                    .help("Consider reporting it with the workload and the --vary lines: it is a bug in ddbcost.")
            })?);
        }
        Ok(all)
    })
}

/// One design's figures per group, labelled.
pub(super) type Figures = Vec<(String, Decimal)>;

/// Each design's figures per group (`sweep --by`): one tenant's monthly cost per tier or rank
/// (labelled `TIER (TABLE)`), or a tag value's monthly total (labelled by the value); `None`
/// for a design refused. Every design is loaded and priced whole, on `jobs` threads.
///
/// # Errors
/// A worker panicked.
pub(super) fn groups_all(
    sweep: &Sweep<'_>,
    jobs: usize,
    by: &crate::cli::ByArg,
    designs: &[Priced],
) -> Result<Vec<Option<Figures>>, Error> {
    let jobs = threads(jobs);
    let label = format!("{} (a sweep design)", sweep.pricer.file);
    in_parallel(designs.len(), jobs, |range| {
        let mut choice = Vec::new();
        range
            .map(|k| {
                if matches!(designs.get(k), Some(Priced::Refused(_)) | None) {
                    return None;
                }
                decode(&sweep.axes, k, &mut choice);
                let mut doc = sweep.base.clone();
                for (a, &i) in sweep.axes.iter().zip(&choice) {
                    scenario::apply(&mut doc, &a.values[i].1);
                }
                let w = sweep.pricer.load(doc, &label).ok()?;
                let e = sweep.pricer.price(&w, &label).ok()?;
                groups_of(&e, &w, by).ok()
            })
            .collect()
    })
}

/// One estimate's figures per group, labelled.
///
/// # Errors
/// No table states its tenants (`--by tenant`); a figure past a decimal's range.
pub(super) fn groups_of(
    e: &crate::engine::Estimate,
    w: &crate::model::Workload,
    by: &crate::cli::ByArg,
) -> Result<Figures, Error> {
    let (rows, _) = crate::report::groups::rows_of(&[e], w, by)?;
    Ok(rows
        .into_iter()
        .filter_map(|r| {
            let v = r.values.first().copied().flatten()?;
            let label = if r.table.is_empty() {
                r.group
            } else {
                format!("{} ({})", r.group, r.table)
            };
            Some((label, v))
        })
        .collect())
}
