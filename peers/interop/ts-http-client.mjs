// The official TypeScript SDK clients over Streamable HTTP, unmodified, with a bearer token: v2
// (@modelcontextprotocol/client, automatic version negotiation: 2026-07-28 against this server)
// or v1 (@modelcontextprotocol/sdk, the initialize era with a session).
// Usage: node ts-http-client.mjs v1|v2 URL TOKEN ROOT
// ROOT is the served workspace, where the change-notification check rewrites notes.txt.
// Prints one JSON report on stdout (see report.mjs); exits non-zero on an unexpected failure.
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { installedVersion, main, runChecks, runResourceChecks, traceTransport } from './report.mjs';

const [sdk, url, token, root] = process.argv.slice(2);
if (!['v1', 'v2'].includes(sdk) || !url || !token || !root) {
  process.stderr.write('usage: node ts-http-client.mjs v1|v2 URL TOKEN ROOT\n');
  process.exit(2);
}
const requestInit = { headers: { Authorization: `Bearer ${token}` } };

await main(async () => {
  if (sdk === 'v2') {
    const version = installedVersion('@modelcontextprotocol/client');
    const client = new ClientV2(
      { name: 'ts-sdk-v2-http', version },
      { versionNegotiation: { mode: 'auto' } },
    );
    const transport = new TransportV2(new URL(url), { requestInit });
    const wire = traceTransport(transport);
    await client.connect(transport);
    const checks = await runChecks(client);
    let subscription;
    const resources = await runResourceChecks(client, {
      root,
      tools: checks.tools,
      subscribe: async (uri) => {
        if (client.getProtocolEra() === 'modern') {
          subscription = await client.listen({ resourceSubscriptions: [uri] });
          return { honoredFilter: subscription.honoredFilter };
        }
        return client.subscribeResource({ uri });
      },
      onUpdated: (handler) =>
        client.setNotificationHandler('notifications/resources/updated', handler),
    });
    const report = {
      sdk: { package: '@modelcontextprotocol/client', version },
      era: client.getProtocolEra(),
      protocolVersion: client.getNegotiatedProtocolVersion(),
      serverInfo: client.getServerVersion(),
      ...checks,
      ...resources,
    };
    if (subscription) {
      await subscription.close();
    }
    await client.close();
    report.wire = wire;
    return report;
  }
  const version = installedVersion('@modelcontextprotocol/sdk');
  const client = new ClientV1({ name: 'ts-sdk-v1-http', version }, { capabilities: {} });
  const transport = new TransportV1(new URL(url), { requestInit });
  const wire = traceTransport(transport);
  await client.connect(transport);
  const checks = await runChecks(client);
  const resources = await runResourceChecks(client, {
    root,
    tools: checks.tools,
    subscribe: (uri) => client.subscribeResource({ uri }),
    onUpdated: (handler) => client.setNotificationHandler(ResourceUpdatedNotificationSchema, handler),
  });
  const report = {
    sdk: { package: '@modelcontextprotocol/sdk', version },
    era: 'legacy',
    protocolVersion: transport.protocolVersion,
    sessionId: transport.sessionId === undefined ? null : 'issued',
    serverInfo: client.getServerVersion(),
    ...checks,
    ...resources,
  };
  await transport.terminateSession();
  await client.close();
  report.wire = wire;
  return report;
});
