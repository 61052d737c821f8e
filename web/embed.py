"""Writes the classic scripts web/build.sh puts beside the page: the engine's bytes as
base64 (ddbcost_web_bg.wasm.js, for a page opened from disk) and the bundled example
workloads (examples.js), each as one global assignment."""

import base64
import json
import pathlib
import sys

dist, workloads = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
wasm = (dist / "ddbcost_web_bg.wasm").read_bytes()
(dist / "ddbcost_web_bg.wasm.js").write_text(
    "window.DDBCOST_WASM_BASE64 = " + json.dumps(base64.b64encode(wasm).decode()) + ";\n"
)
# A workload that measures its items from a sample file cannot be priced in a page, which
# has no file system: it is left out of the list (the README says so).
examples = {
    p.name: p.read_text()
    for p in sorted(workloads.glob("*.yaml"))
    if "{ sample:" not in p.read_text() and "sample:" not in p.read_text()
}
(dist / "examples.js").write_text(
    "window.DDBCOST_EXAMPLES = " + json.dumps(examples, indent=1) + ";\n"
)
