#!/usr/bin/env python3
"""The vault benchmark's floor: the least a server can do to answer notes-mcp's two vault tools.

A benchmark baseline, not a product (bench/README.md, "The vault benchmark"). It speaks the
`initialize` era (2025-11-25) and answers `list_notes` and `read_note` in notes-mcp's shapes:
the listing in pages of 500 paths in code-point order with an opaque `nextCursor`, and a note
whole up to the page size, else in pages that end on a character boundary with `offset`,
`totalBytes` and `nextOffset`. It checks nothing: no policy, no name rules, no careful open, no
call budget, no threads; the listing is one `os.scandir` walk made on the first `list_notes`
(every `*.md` in NFC not under a folder or name starting with '.'). Python's `json` module and file
reads are C code, so what is left per call is one line in, one line out, and the work no server
can skip.

Usage: floor-server.py VAULT [PAGE_BYTES]     (PAGE_BYTES: 16384; 0 sends every note whole)
"""
import json
import os
import sys
import unicodedata

PAGE_NOTES = 500


def schema(properties, required):
    return {"type": "object", "properties": properties, "required": required}


TOOLS = [
    {
        "name": "list_notes",
        "description": 'List the notes, as {"notes":[paths]}, 500 a page, with "nextCursor".',
        "inputSchema": schema({"cursor": {"type": "string"}}, []),
    },
    {
        "name": "read_note",
        "description": "Read one note, whole or a page from an offset.",
        "inputSchema": schema(
            {"path": {"type": "string"}, "offset": {"type": "integer", "minimum": 0}}, ["path"]
        ),
    },
]


def walk(root):
    found = []
    stack = [""]
    while stack:
        folder = stack.pop()
        with os.scandir(os.path.join(root, folder) if folder else root) as entries:
            for entry in entries:
                if entry.name.startswith(".") or not unicodedata.is_normalized("NFC", entry.name):
                    continue
                path = folder + "/" + entry.name if folder else entry.name
                if entry.is_dir(follow_symlinks=False):
                    stack.append(path)
                elif entry.name.endswith(".md") and entry.is_file(follow_symlinks=False):
                    found.append(path)
    found.sort(key=lambda p: p.encode("utf-8", "surrogateescape"))
    return found


def text(value):
    return {"content": [{"type": "text", "text": json.dumps(value, ensure_ascii=False)}]}


def main():
    root = sys.argv[1]
    page_bytes = int(sys.argv[2]) if len(sys.argv) > 2 else 16384
    listing = None
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        request = json.loads(line)
        if "id" not in request:
            continue
        method = request["method"]
        params = request.get("params") or {}
        if method == "initialize":
            result = {
                "protocolVersion": params.get("protocolVersion", "2025-11-25"),
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "floor", "version": "0.1.0"},
            }
        elif method == "tools/list":
            result = {"tools": TOOLS}
        elif method == "tools/call" and params.get("name") == "list_notes":
            if listing is None:
                listing = walk(root)
            start = int(params.get("arguments", {}).get("cursor", "0"))
            page = {"notes": listing[start : start + PAGE_NOTES]}
            if start + PAGE_NOTES < len(listing):
                page["nextCursor"] = str(start + PAGE_NOTES)
            result = text(page)
        elif method == "tools/call" and params.get("name") == "read_note":
            arguments = params["arguments"]
            path = arguments["path"]
            with open(os.path.join(root, path), "rb") as f:
                data = f.read()
            if page_bytes == 0 or len(data) <= page_bytes:
                result = text({"path": path, "content": data.decode("utf-8")})
            else:
                offset = arguments.get("offset", 0)
                end = min(len(data), offset + page_bytes)
                while end < len(data) and data[end] & 0xC0 == 0x80:
                    end -= 1  # back to the start of the character the page would cut
                result = text(
                    {
                        "path": path,
                        "content": data[offset:end].decode("utf-8"),
                        "offset": offset,
                        "totalBytes": len(data),
                        "nextOffset": end if end < len(data) else None,
                    }
                )
        else:
            reply = {"jsonrpc": "2.0", "id": request["id"],
                     "error": {"code": -32601, "message": "method not found"}}
            out.write(json.dumps(reply).encode("utf-8") + b"\n")
            out.flush()
            continue
        reply = {"jsonrpc": "2.0", "id": request["id"], "result": result}
        out.write(json.dumps(reply, ensure_ascii=False).encode("utf-8") + b"\n")
        out.flush()


if __name__ == "__main__":
    main()
