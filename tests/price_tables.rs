//! The README's list of what each bundled price table lacks is what `ddbcost prices show`
//! marks `absent`, table by table: the list cannot drift from the tables.

mod common;

use common::Case;

#[test]
fn the_readme_lists_exactly_the_prices_each_bundled_table_lacks() {
    let readme = common::documentation_text();
    let section = readme
        .split("# What each bundled table lacks")
        .nth(1)
        .expect("the reference's section (docs/price-tables.md)")
        .split("\n#")
        .next()
        .unwrap();
    let rows: Vec<(String, Vec<String>)> = section
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let table = cells[1].trim_matches('`').to_string();
            let absent = cells[2]
                .split(", ")
                .filter(|s| !s.is_empty())
                .map(|s| s.trim_matches('`').to_string())
                .collect();
            (table, absent)
        })
        .collect();
    // Every bundled table has its row.
    let listed = Case::new()
        .args(["prices", "--format", "json"])
        .run()
        .success();
    let bundled: Vec<serde_json::Value> = serde_json::from_str(&listed.stdout).unwrap();
    assert_eq!(rows.len(), bundled.len(), "{rows:?}");
    for (table, absent) in rows {
        let out = Case::new().args(["prices", "show", &table]).run().success();
        let shown: Vec<String> = out
            .stdout
            .lines()
            .filter(|l| l.contains("│ absent"))
            .filter_map(|l| l.split('│').nth(1).map(|c| c.trim().to_string()))
            .collect();
        assert_eq!(absent, shown, "{table}");
    }
}
