//! Validated domain types: a workload, its tables, indexes and access patterns, price tables
//! and the settings an estimate runs under. Values here are already checked by `load`, so the
//! engine can trust them (non-negative quantities, shares within [0, 1], known indexes).
//! Also the calendar (`period`), index specs as `size`, `keys` and `init` take them
//! (`index_spec`), and the seam through which the loader measures samples (`sample`).

mod fx;
pub(crate) mod index_spec;
pub(crate) mod period;
mod prices;
mod quantity;
pub(crate) mod sample;
mod settings;
mod workload;

pub use fx::Fx;
pub use prices::{CapacityKind, PriceBook, PriceKey, PriceTable};
pub(crate) use prices::{FreeTier, PRICE_SLOTS, SavingsPlanRates, Tiers, term_code};
pub(crate) use quantity::{DataSize, Period, Rate, SizeUnit};
pub use settings::{GbConvention, Settings};
pub use workload::{
    AccessPattern, Capacity, CapacityMode, Index, IndexKind, Projection, ProvisionedCapacity, Table,
};
pub(crate) use workload::{
    Backups, Consistency, ConsumerKind, Dax, Forecasting, Growth, IndexObserved, KeySchema,
    Operation, OverwriteChanges, PatternNeeds, Reservation, Reserved, Retention, SavingsPlan,
    SentOut, SizeClass, SparseRule, Stream, StreamConsumer, TableObserved, TrafficProfile,
    VectorIndex, is_dynamodb_name,
};
pub use workload::{KeySpread, ReservedTerm, TableClass, Workload};
pub(crate) use workload::{Once, Rewrite, WarmThroughput};
pub(crate) use workload::{TenantSpread, TenantTier, Tenants};
