//! The typical table of the engine benchmark and of `examples/gen_workload.rs`: what most
//! tables have — an item count and size, PITR, one GSI with an INCLUDE projection, six
//! patterns (a get, two queries, a put, an update, a delete).

use std::fmt::Write;

/// Appends table `t{t}` with `items` million items of `size` bytes, its get at `r`00/s.
pub(crate) fn table(y: &mut String, t: u64, items: u64, size: u64, r: u64) {
    let _ = write!(
        y,
        "  t{t}:
    items: {items}M
    item_size: {size} B
    key_size: 40 B
    pitr: true
    indexes:
      by-owner: {{ type: gsi, projection: include, projected_size: 120 B, key_size: 30 B }}
    patterns:
      get: {{ op: get, rate: {r}00/s, consistency: eventual }}
      list: {{ op: query, rate: 50/s, items: 25, consistency: strong }}
      by-owner: {{ op: query, index: by-owner, rate: 20/s, items: 10 }}
      put: {{ op: put, rate: 10/s }}
      update: {{ op: update, rate: 30/s }}
      delete: {{ op: delete, rate: 2/s }}
"
    );
}
