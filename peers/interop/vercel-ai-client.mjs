// The Vercel AI SDK's MCP client, current line (@ai-sdk/mcp 2.x), unmodified: createMCPClient with
// its stdio transport, as an AI SDK host builds it. It probes with server/discover (2026-07-28) and
// falls back to initialize when the server is not modern.
// Usage: node vercel-ai-client.mjs SERVER_COMMAND [ARGS...]
// Prints one JSON report on stdout (see report.mjs); exits non-zero on an unexpected failure.
import { createMCPClient } from '@ai-sdk/mcp';
import { StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import {
  eraOnTheWire,
  installedVersion,
  main,
  outcome,
  serverCommand,
  traceTransport,
} from './report.mjs';

const sdkVersion = installedVersion('@ai-sdk/mcp');

await main(async () => {
  const { command, args } = serverCommand(process.argv);
  // The transport passes its default inherited variables (HOME, PATH, ...); JAVA_HOME, when set,
  // lets ./notes-mcp find the JDK the build used.
  const env = process.env.JAVA_HOME ? { JAVA_HOME: process.env.JAVA_HOME } : undefined;
  const transport = new StdioMCPTransport({ command, args, env, stderr: 'inherit' });
  const wire = traceTransport(transport);
  const client = await createMCPClient({ transport });
  const listed = await client.listTools();
  // What a model host does with the list: AI SDK tools, each with its JSON schema and execute().
  const toolSet = client.toolsFromDefinitions(listed);
  const report = {
    sdk: { package: '@ai-sdk/mcp', version: sdkVersion },
    serverInfo: client.serverInfo,
    serverCapabilities: client.initializeResult?.capabilities,
    tools: listed.tools.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema,
    })),
    aiSdkTools: Object.keys(toolSet),
    readNote: await outcome(() =>
      toolSet.read_note.execute({ path: 'notes.txt' }, { messages: [], toolCallId: 'read-1' }),
    ),
    refusedRead: await outcome(() =>
      client.callTool({ name: 'read_note', arguments: { path: '../secret.txt' } }),
    ),
    unknownTool: await outcome(() =>
      client.callTool({ name: 'save_note', arguments: { path: 'draft.txt', content: 'x' } }),
    ),
  };
  await client.close();
  report.wire = wire;
  Object.assign(report, eraOnTheWire(wire));
  return report;
});
