// The Vercel AI SDK 4.x MCP client (ai 4.3.x, experimental_createMCPClient), unmodified, as an
// AI SDK 4 host uses it: createMCPClient with the stdio transport, then tools() for AI SDK tools
// whose execute() calls the server. It knows one protocol version, 2024-11-05 (initialize only),
// and disconnects from any other answer ("Server's protocol version is not supported").
// Its public surface has no generic call: a tool the server did not list cannot be called, so the
// report's unknownTool says what the client does instead.
// Usage: node vercel-ai-4/client.mjs SERVER_COMMAND [ARGS...]
// Prints one JSON report on stdout (see ../report.mjs); exits non-zero on an unexpected failure.
import { experimental_createMCPClient } from 'ai';
import { Experimental_StdioMCPTransport } from 'ai/mcp-stdio';
import {
  eraOnTheWire,
  installedVersion,
  main,
  outcome,
  serverCommand,
  traceTransport,
} from '../report.mjs';

const sdkVersion = installedVersion('ai', import.meta.url);

await main(async () => {
  const { command, args } = serverCommand(process.argv);
  const env = process.env.JAVA_HOME ? { JAVA_HOME: process.env.JAVA_HOME } : undefined;
  const transport = new Experimental_StdioMCPTransport({ command, args, env, stderr: 'inherit' });
  const wire = traceTransport(transport);
  const client = await experimental_createMCPClient({ transport, name: 'vercel-ai-4-interop' });
  const toolSet = await client.tools();
  const options = { messages: [], toolCallId: 'call-1' };
  const report = {
    sdk: { package: 'ai', version: sdkVersion },
    // The tools as the client built them: name, description and the server's JSON schema.
    tools: Object.entries(toolSet).map(([name, t]) => ({
      name,
      description: t.description,
      inputSchema: t.parameters.jsonSchema,
    })),
    readNote: await outcome(() => toolSet.read_note.execute({ path: 'notes.txt' }, options)),
    refusedRead: await outcome(() =>
      toolSet.read_note.execute({ path: '../secret.txt' }, options),
    ),
    unknownTool: {
      notCallable: `tools() offers only the listed tools: ${Object.keys(toolSet).join(', ')}`,
      offered: 'save_note' in toolSet,
    },
  };
  await client.close();
  report.wire = wire;
  Object.assign(report, eraOnTheWire(wire));
  const init = wire.find((w) => w.dir === 'server->client' && w.message.result?.serverInfo);
  report.serverInfo = init?.message.result.serverInfo;
  report.serverCapabilities = init?.message.result.capabilities;
  return report;
});
