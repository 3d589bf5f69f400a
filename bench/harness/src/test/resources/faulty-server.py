#!/usr/bin/env python3
"""A server that goes wrong on purpose, for the harness's own tests: the floor server, except that
after CALLS tool calls it does one thing wrong.

Usage: faulty-server.py MODE CALLS FLOOR_SERVER_PY WORKSPACE
  MODE drop:  it never answers call CALLS+1 (and answers the rest): a lost reply
  MODE wrong: its answer to call CALLS+1 holds other content: a wrong reply
  MODE exit:  it exits after CALLS calls: its stdout ends while replies are owed
"""
import importlib.util
import json
import os
import sys


def main():
    mode, calls, floor_path, root = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    spec = importlib.util.spec_from_file_location("floor", floor_path)
    floor = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(floor)
    root = os.path.realpath(root)
    out = sys.stdout.buffer
    seen = 0
    for line in sys.stdin.buffer:
        message = json.loads(line)
        if "id" not in message:
            continue
        if message.get("method") == "tools/call":
            seen += 1
            if seen > calls and mode == "exit":
                return 0
            if seen == calls + 1 and mode == "drop":
                continue
        result = floor.answer(root, message)
        if seen == calls + 1 and mode == "wrong" and message.get("method") == "tools/call":
            result["content"][0]["text"] = json.dumps({"path": "notes.txt", "content": "other"})
        reply = {"jsonrpc": "2.0", "id": message["id"], "result": result}
        out.write(json.dumps(reply).encode("utf-8") + b"\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
