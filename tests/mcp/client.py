"""An MCP client for the end-to-end tests, on the official Python SDK (`mcp` on PyPI).

It connects to ash-memory, initializes, lists the tools, resources, resource templates and
prompts, runs the calls it reads as JSON from stdin (a list of [name, arguments]) in order,
and prints one JSON report: {"server": {...}, "tools": [...], "resources": [...],
"templates": [...], "prompts": [...], "results": [{"tool", "is_error", "text"}]}. A call
named "@read" reads the resource {"uri": ...}; "@prompt" gets the prompt {"name": ...};
"@subscribe" subscribes to the resource {"uri": ...}. The resources the server says were
updated are reported in order as "updated".

    python3 client.py stdio ENV_JSON COMMAND [ARG...]   # launches the server, as desktop apps do
    python3 client.py http URL TOKEN                     # streamable HTTP with a bearer token
"""

import json
import sys
import warnings

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


UPDATED = []


async def on_message(message):
    # Notifications arrive here; only resource updates are kept.
    root = getattr(message, "root", message)
    if getattr(root, "method", None) == "notifications/resources/updated":
        UPDATED.append(str(root.params.uri))


async def drive(session, calls):
    init = await session.initialize()
    listed = await session.list_tools()
    resources = await session.list_resources()
    templates = await session.list_resource_templates()
    prompts = await session.list_prompts()
    results = []
    for name, arguments in calls:
        if name == "@subscribe":
            try:
                with warnings.catch_warnings():
                    # Deprecated from 2026-07-28 on; this server speaks 2025-11-25.
                    warnings.simplefilter("ignore")
                    await session.subscribe_resource(arguments["uri"])
                results.append({"tool": name, "is_error": False, "text": ""})
            except MCPError as e:
                results.append({"tool": name, "is_error": True, "text": str(e)})
            continue
        if name in ("@read", "@prompt"):
            # Protocol errors are what a client sees for an unknown or foreign resource.
            try:
                if name == "@read":
                    read = await session.read_resource(arguments["uri"])
                    text = "\n".join(c.text for c in read.contents)
                else:
                    got = await session.get_prompt(arguments["name"])
                    text = "\n".join(m.content.text for m in got.messages)
                results.append({"tool": name, "is_error": False, "text": text})
            except MCPError as e:
                results.append({"tool": name, "is_error": True, "text": str(e)})
            continue
        result = await session.call_tool(name, arguments)
        text = "\n".join(block.text for block in result.content if block.type == "text")
        results.append({"tool": name, "is_error": bool(result.is_error), "text": text,
                        "structured": result.structured_content})
    # One more round trip, so that every notification sent before it has been handled.
    await session.list_prompts()
    return {
        "server": {"name": init.server_info.name, "version": init.server_info.version,
                   "instructions": init.instructions, "protocol": init.protocol_version},
        "tools": [{"name": t.name, "title": t.title, "description": t.description,
                   "input_schema": t.input_schema, "output_schema": t.output_schema,
                   "annotations": t.annotations.model_dump(by_alias=True, exclude_none=True)
                   if t.annotations else None}
                  for t in listed.tools],
        "resources": [{"uri": str(r.uri), "name": r.name, "mime_type": r.mime_type} for r in resources.resources],
        "templates": [t.uri_template for t in templates.resource_templates],
        "prompts": [p.name for p in prompts.prompts],
        "results": results,
        "updated": list(UPDATED),
    }


async def over_stdio(env, command, args, calls):
    params = StdioServerParameters(command=command, args=args, env=env)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, message_handler=on_message) as session:
            return await drive(session, calls)


async def over_http(url, token, calls):
    client = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    async with client:
        async with streamable_http_client(url, http_client=client) as (read, write):
            async with ClientSession(read, write) as session:
                return await drive(session, calls)


def main():
    calls = json.load(sys.stdin)
    mode = sys.argv[1]
    if mode == "stdio":
        report = anyio.run(over_stdio, json.loads(sys.argv[2]), sys.argv[3], sys.argv[4:], calls)
    elif mode == "http":
        report = anyio.run(over_http, sys.argv[2], sys.argv[3], calls)
    else:
        raise SystemExit(__doc__)
    json.dump(report, sys.stdout)


if __name__ == "__main__":
    main()
