//! Who the bill is for (issue #50, in progress): splitting a billed amount over who caused
//! it — shares in proportion to each party's driver, exact to 12 decimal places, the
//! remainder named, and the shares shown to a currency's minor unit so that they add up —
//! and the drivers from application logs with `ConsumedCapacity` (`read_log`: units per
//! table, index, tenant and pattern).
//!
//! ```
//! use ddbcost::api::allocate::{split, to_minor_unit};
//! use rust_decimal::Decimal;
//! let d = |s: &str| s.parse::<Decimal>().unwrap();
//! // $100 of reads over tenants that drove 50, 30 and 15 read units; 5 units had no tenant.
//! let s = split(d("100"), &[d("50"), d("30"), d("15")], d("5")).unwrap();
//! assert_eq!(s.shares, vec![d("50"), d("30"), d("15")]);
//! assert_eq!(s.remainder, d("5"));
//! assert_eq!(to_minor_unit(&[d("0.005"), d("0.005")], 2), vec![d("0.01"), d("0.00")]);
//! ```

pub use crate::allocate::log::{LogUsage, Place, Tenancy, Units, read as read_log};
pub use crate::allocate::split::{Split, SplitError, split, to_minor_unit};
