// A scripted model API on loopback, for driving real hosts headless against notes-mcp (HostsIT,
// and the measurements in docs/hosts.md's host table). It speaks the four wire formats the hosts use:
// Anthropic Messages (Claude Code), OpenAI Responses (Codex), OpenAI Chat Completions (Qwen Code)
// and Gemini generateContent (Gemini CLI), each as server-sent events.
//
//   node scripted-model.mjs PORT_FILE LOG_FILE TOOL:ARGS_JSON ...
//
// Each model turn asks for the next scripted tool call (TOOL is the tool's bare name; the host's
// own name for it, such as mcp__notes__read_note, is found in the tools the host offered), until
// the script is done; then it answers with text. Every tool result the host sends back is logged
// to LOG_FILE as one JSON line {"tool", "offered", "result"}, so a test can tell a call the host ran
// from one it refused. The port it listens on (127.0.0.1, chosen by the system) goes to PORT_FILE.
import { createServer } from "node:http";
import { appendFileSync, writeFileSync } from "node:fs";

const [portFile, logFile, ...script] = process.argv.slice(2);
const calls = script.map((step) => {
  const colon = step.indexOf(":");
  return { tool: step.slice(0, colon), args: JSON.parse(step.slice(colon + 1)) };
});
let next = 0;
let lastAsked = null;

function log(entry) {
  appendFileSync(logFile, JSON.stringify(entry) + "\n");
}

/** The host's name for a bare tool name among the names it offered, or null. */
function hostName(offered, tool) {
  return offered.find((n) => n === tool || n.endsWith("__" + tool) || n.endsWith("_" + tool)) ?? null;
}

/** The next call of the script, or null when it is done: {name, args, tool}. */
function nextCall(offered, results) {
  for (const result of results) {
    log({ tool: lastAsked, offered, result });
  }
  while (next < calls.length) {
    const step = calls[next++];
    const name = hostName(offered, step.tool);
    if (name) {
      lastAsked = step.tool;
      return { name, args: step.args, tool: step.tool };
    }
    // Qwen Code offers an MCP server's tools through its bridge: tool_call {name, arguments}.
    if (offered.includes("tool_call")) {
      lastAsked = step.tool;
      const deferred = "mcp__" + (process.env.SCRIPT_SERVER ?? "notes") + "__" + step.tool;
      return { name: "tool_call", args: { name: deferred, arguments: step.args }, tool: step.tool };
    }
    log({ tool: step.tool, offered, result: null, notOffered: true });
  }
  return null;
}

function sse(res, events) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const [event, data] of events) {
    if (event) res.write(`event: ${event}\n`);
    res.write(`data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
  }
  res.end();
}

const text = (content) =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((c) => (typeof c === "string" ? c : c.text ?? JSON.stringify(c))).join("")
      : JSON.stringify(content);

// Anthropic Messages (Claude Code).
function anthropic(body, res) {
  const offered = (body.tools ?? []).map((t) => t.name);
  const last = body.messages?.[body.messages.length - 1];
  const results = Array.isArray(last?.content)
    ? last.content.filter((c) => c.type === "tool_result").map((c) => text(c.content))
    : [];
  const call = nextCall(offered, results);
  const id = "msg_" + Date.now();
  const usage = { input_tokens: 1, output_tokens: 1 };
  const block = call
    ? { type: "tool_use", id: "toolu_" + next, name: call.name, input: {} }
    : { type: "text", text: "" };
  const events = [
    ["message_start", { type: "message_start", message: { id, type: "message", role: "assistant", model: body.model, content: [], stop_reason: null, usage } }],
    ["content_block_start", { type: "content_block_start", index: 0, content_block: block }],
    call
      ? ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: JSON.stringify(call.args) } }]
      : ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "done" } }],
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    ["message_delta", { type: "message_delta", delta: { stop_reason: call ? "tool_use" : "end_turn" }, usage }],
    ["message_stop", { type: "message_stop" }],
  ];
  if (body.stream === false) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ id, type: "message", role: "assistant", model: body.model, content: [call ? { ...block, input: call.args } : { type: "text", text: "done" }], stop_reason: call ? "tool_use" : "end_turn", usage }));
    return;
  }
  sse(res, events);
}

// OpenAI Responses (Codex).
function responses(body, res) {
  // Codex groups an MCP server's tools in a namespace ({"type":"namespace","name":"mcp__notes",
  // "tools":[...]}); a call names the namespace and the inner tool.
  const offered = [];
  const namespaces = new Map();
  for (const t of body.tools ?? []) {
    if (t.type !== "namespace" && t.name) offered.push(t.name);
    for (const inner of t.tools ?? []) {
      const full = t.name + "__" + inner.name;
      offered.push(full);
      namespaces.set(full, { namespace: t.name, name: inner.name });
    }
  }
  const input = body.input ?? [];
  const results = [];
  for (let i = input.length - 1; i >= 0 && input[i].type === "function_call_output"; i--) {
    results.unshift(typeof input[i].output === "string" ? input[i].output : JSON.stringify(input[i].output));
  }
  const call = nextCall(offered, results);
  const id = "resp_" + Date.now();
  const item = call
    ? { type: "function_call", id: "fc_" + next, call_id: "call_" + next, ...(namespaces.get(call.name) ?? { name: call.name }), arguments: JSON.stringify(call.args), status: "completed" }
    : { type: "message", id: "msg_" + next, role: "assistant", status: "completed", content: [{ type: "output_text", text: "done", annotations: [] }] };
  const usage = { input_tokens: 1, input_tokens_details: { cached_tokens: 0 }, output_tokens: 1, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 2 };
  sse(res, [
    ["response.created", { type: "response.created", response: { id, object: "response", status: "in_progress", output: [] } }],
    ["response.output_item.added", { type: "response.output_item.added", output_index: 0, item }],
    ["response.output_item.done", { type: "response.output_item.done", output_index: 0, item }],
    ["response.completed", { type: "response.completed", response: { id, object: "response", status: "completed", output: [item], usage } }],
  ]);
}

// OpenAI Chat Completions (Qwen Code).
function chat(body, res) {
  const offered = (body.tools ?? []).map((t) => t.function?.name).filter(Boolean);
  const messages = body.messages ?? [];
  const results = [];
  for (let i = messages.length - 1; i >= 0 && messages[i].role === "tool"; i--) {
    results.unshift(text(messages[i].content));
  }
  const call = nextCall(offered, results);
  const base = { id: "chatcmpl-" + Date.now(), object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model: body.model };
  const delta = call
    ? { role: "assistant", tool_calls: [{ index: 0, id: "call_" + next, type: "function", function: { name: call.name, arguments: JSON.stringify(call.args) } }] }
    : { role: "assistant", content: "done" };
  if (!body.stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ ...base, object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: call ? null : "done", tool_calls: delta.tool_calls }, finish_reason: call ? "tool_calls" : "stop" }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
    return;
  }
  sse(res, [
    [null, { ...base, choices: [{ index: 0, delta, finish_reason: null }] }],
    [null, { ...base, choices: [{ index: 0, delta: {}, finish_reason: call ? "tool_calls" : "stop" }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }],
    [null, "[DONE]"],
  ]);
}

// Gemini generateContent / streamGenerateContent (Gemini CLI).
function gemini(body, res, streamed) {
  const offered = [];
  for (const t of body.tools ?? []) for (const f of t.functionDeclarations ?? []) offered.push(f.name);
  const contents = body.contents ?? [];
  const last = contents[contents.length - 1];
  const results = (last?.parts ?? [])
    .filter((p) => p.functionResponse)
    .map((p) => JSON.stringify(p.functionResponse.response));
  const call = nextCall(offered, results);
  const part = call ? { functionCall: { name: call.name, args: call.args } } : { text: "done" };
  const reply = {
    candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
    modelVersion: "scripted",
  };
  if (!streamed) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(reply));
    return;
  }
  sse(res, [[null, reply]]);
}

const server = createServer((req, res) => {
  let raw = "";
  req.on("data", (chunk) => (raw += chunk));
  req.on("end", () => {
    let body = {};
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      // not JSON: answered below by path
    }
    const url = req.url ?? "";
    if (req.method === "POST" && url.startsWith("/v1/messages") && !url.includes("count_tokens")) return anthropic(body, res);
    if (req.method === "POST" && url.includes("count_tokens")) {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify({ input_tokens: 1 }));
    }
    if (req.method === "POST" && url.startsWith("/v1/responses")) return responses(body, res);
    if (req.method === "POST" && url.startsWith("/v1/chat/completions")) return chat(body, res);
    if (req.method === "POST" && url.includes(":streamGenerateContent")) return gemini(body, res, true);
    if (req.method === "POST" && url.includes(":generateContent")) return gemini(body, res, false);
    if (req.method === "POST" && url.includes(":countTokens")) {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify({ totalTokens: 1 }));
    }
    if (req.method === "GET" && url.startsWith("/v1/models")) {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify({ object: "list", data: [{ id: "scripted", object: "model" }], models: [] }));
    }
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message: "not scripted: " + req.method + " " + url } }));
  });
});
server.listen(0, "127.0.0.1", () => writeFileSync(portFile, String(server.address().port)));
// Bounded: a forgotten model server stops by itself.
setTimeout(() => process.exit(0), 10 * 60 * 1000).unref();
