#!/usr/bin/env python3
"""Writes a synthetic DynamoDB export-to-S3 file (one {"Item": ...} per line, DynamoDB JSON)
of about SIZE bytes to standard output, for measuring `ddbcost size`:

    python3 benches/gen_export.py 1GB > /tmp/export.json
    /usr/bin/time -v target/release/ddbcost size /tmp/export.json --jobs 1
    /usr/bin/time -v target/release/ddbcost size /tmp/export.json --jobs 2

Items vary in size (about 200 B to 6 KB) and use every attribute type. Deterministic.
"""
import random
import sys

UNITS = {"KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30}


def parse(text):
    for unit, factor in UNITS.items():
        if text.upper().endswith(unit):
            return int(float(text[: -len(unit)]) * factor)
    return int(text)


def item(rng, i):
    text = "x" * rng.randint(20, 4000)
    return (
        '{"Item":{"pk":{"S":"ORDER#%08d"},"sk":{"S":"HEADER"},"status":{"S":"%s"},'
        '"total":{"N":"%d.%02d"},"paid":{"BOOL":%s},"note":{"S":"%s"},'
        '"tags":{"SS":["a","bb","ccc"]},"blob":{"B":"YWJjZGVm"},'
        '"lines":{"L":[{"M":{"sku":{"S":"SKU-%d"},"qty":{"N":"%d"}}},{"M":{"sku":{"S":"SKU-%d"},"qty":{"N":"1"}}}]},'
        '"gone":{"NULL":true}}}\n'
        % (i, rng.choice(["PAID", "SHIPPED", "PENDING"]), rng.randint(1, 9999), rng.randint(0, 99),
           rng.choice(["true", "false"]), text, rng.randint(1, 999), rng.randint(1, 9), rng.randint(1, 999))
    )


def main():
    target = parse(sys.argv[1] if len(sys.argv) > 1 else "1GB")
    rng = random.Random(42)
    out = sys.stdout
    written, i, batch = 0, 0, []
    while written < target:
        line = item(rng, i)
        batch.append(line)
        written += len(line)
        i += 1
        if len(batch) == 10000:
            out.write("".join(batch))
            batch = []
    out.write("".join(batch))


if __name__ == "__main__":
    main()
