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
examples = {p.name: p.read_text() for p in sorted(workloads.glob("*.yaml"))}
(dist / "examples.js").write_text(
    "window.DDBCOST_EXAMPLES = " + json.dumps(examples, indent=1) + ";\n"
)
