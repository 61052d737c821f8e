//! Validated domain types: a workload, its tables, indexes and access patterns, price tables
//! and the settings an estimate runs under. Values here are already checked by `load`, so the
//! engine can trust them (non-negative quantities, shares within [0, 1], known indexes).
//! Also the calendar (`period`), index specs as `size`, `keys` and `init` take them
//! (`index_spec`), and the seam through which the loader measures samples (`sample`).

mod fx;
pub mod index_spec;
pub mod period;
mod prices;
mod quantity;
pub mod sample;
mod settings;
mod workload;

pub use fx::Fx;
pub use prices::{
    CapacityKind, FreeTier, PRICE_SLOTS, PriceBook, PriceKey, PriceTable, SavingsPlanRates,
    term_code,
};
pub use quantity::{DataSize, Period, Rate, SizeUnit};
pub use settings::{GbConvention, Settings};
pub use workload::{
    AccessPattern, Backups, Capacity, CapacityMode, Consistency, ConsumerKind, Forecasting, Growth,
    Index, IndexKind, IndexObserved, KeySchema, KeySpread, Operation, PatternNeeds, Projection,
    ProvisionedCapacity, Reservation, Reserved, ReservedTerm, Retention, SavingsPlan, SizeClass,
    SparseRule, Stream, StreamConsumer, Table, TableClass, TableObserved, TrafficProfile, Workload,
    is_dynamodb_name,
};
