"""A real MCP client against `ddbcost mcp`: the official Python SDK (`mcp` from PyPI).

Run by tests/mcp.rs as `python client.py DDBCOST ROOT CHECKS.json`: starts the server as the
README's snippet does (`ddbcost mcp --root ROOT`), initializes, lists tools, resources and
prompts, calls every tool, and writes what it saw as JSON on standard output; the Rust test
asserts the figures (so every number is derived there, beside its assertion)."""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def text_of(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


async def main(ddbcost, root, calls_file):
    calls = json.loads(text_of(calls_file))
    params = StdioServerParameters(command=ddbcost, args=["mcp", "--root", root])
    seen = {"calls": []}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            seen["protocol_version"] = init.protocol_version
            seen["server"] = init.server_info.name
            tools = await session.list_tools()
            seen["tools"] = {
                t.name: {"input": t.input_schema, "output": t.output_schema}
                for t in tools.tools
            }
            resources = await session.list_resources()
            seen["resources"] = [str(r.uri) for r in resources.resources]
            schema = await session.read_resource("ddbcost://schema/workload")
            seen["schema_title"] = json.loads(schema.contents[0].text).get("title")
            example = await session.read_resource("ddbcost://workloads/cloudshop")
            seen["cloudshop_resource"] = example.contents[0].text
            prompts = await session.list_prompts()
            seen["prompts"] = [p.name for p in prompts.prompts]
            prompt = await session.get_prompt(
                "design-table", {"application": "an online shop's orders"}
            )
            seen["prompt_text"] = prompt.messages[0].content.text
            for call in calls:
                result = await session.call_tool(call["tool"], call["arguments"])
                seen["calls"].append(
                    {
                        "tool": call["tool"],
                        "is_error": bool(result.is_error),
                        "structured": result.structured_content,
                        "texts": [c.text for c in result.content if hasattr(c, "text")],
                    }
                )
    json.dump(seen, sys.stdout)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3]))
