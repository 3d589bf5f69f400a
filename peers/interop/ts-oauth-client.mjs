// The official TypeScript SDK v1's OAuth client (@modelcontextprotocol/sdk 1.32.2: `auth` and an
// OAuthClientProvider, unmodified) against notes-mcp -serve -http ... -auth oauth, with the owner's
// browser played by fetch: the SDK discovers the authorization server from the 401, registers by
// DCR (or uses a client ID metadata document), and hands over the authorization URL; the "browser"
// opens it with the owner's session cookie and submits the consent form's approve button; the SDK
// exchanges the code, then lists, reads and proposes over Streamable HTTP with the token,
// refreshes, and fails once the owner has revoked the grant on the owner's page.
// Usage: node ts-oauth-client.mjs MCP_URL OWNER_COOKIE [CLIENT_METADATA_URL]
// Prints one JSON report on stdout.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';

const [mcpUrl, ownerCookie, metadataUrl] = process.argv.slice(2);
if (!mcpUrl || !ownerCookie) {
  process.stderr.write('usage: node ts-oauth-client.mjs MCP_URL OWNER_COOKIE [METADATA_URL]\n');
  process.exit(2);
}
const base = new URL(mcpUrl).origin;
const cookie = `__Host-notes-mcp-owner=${ownerCookie}`;
const redirectUrl = 'http://127.0.0.1:9/callback';
const report = { steps: [] };
const step = (name, value) => report.steps.push({ name, ...value });

class Provider {
  constructor() {
    this.store = {};
  }
  get redirectUrl() {
    return redirectUrl;
  }
  get clientMetadata() {
    return {
      client_name: 'ts-sdk-oauth-client',
      redirect_uris: [redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  get clientMetadataUrl() {
    return metadataUrl;
  }
  state() {
    return 'state-' + Math.random().toString(36).slice(2);
  }
  clientInformation() {
    return this.store.client;
  }
  saveClientInformation(info) {
    this.store.client = info;
  }
  tokens() {
    return this.store.tokens;
  }
  saveTokens(tokens) {
    this.store.tokens = tokens;
  }
  redirectToAuthorization(url) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

const hidden = (html) =>
  Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([a-z]+)" value="([^"]*)">/g)].map((m) => [
      m[1],
      m[2].replaceAll('&amp;', '&'),
    ]),
  );

/** The owner's browser: opens the authorization URL, approves on the consent form. */
async function consent(authorizationUrl) {
  const page = await fetch(authorizationUrl, { headers: { cookie }, redirect: 'manual' });
  const html = await page.text();
  if (page.status !== 200 || !html.includes('name="approve"')) {
    throw new Error(`no consent page (${page.status}): ${html.slice(0, 300)}`);
  }
  const fields = hidden(html);
  const decided = await fetch(`${base}/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      csrf: fields.csrf,
      request: fields.request,
      propose: '1',
      approve: '1',
    }).toString(),
  });
  const back = new URL(decided.headers.get('location'));
  return {
    status: decided.status,
    code: back.searchParams.get('code'),
    state: back.searchParams.get('state'),
    iss: back.searchParams.get('iss'),
    sentState: authorizationUrl.searchParams.get('state'),
    resource: authorizationUrl.searchParams.get('resource'),
    challengeMethod: authorizationUrl.searchParams.get('code_challenge_method'),
  };
}

async function connect(provider) {
  const client = new Client({ name: 'ts-sdk-oauth-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
  return client;
}

const text = (result) => result.content?.map((c) => c.text ?? '').join('') ?? '';

try {
  const provider = new Provider();
  const first = await auth(provider, { serverUrl: mcpUrl });
  step('auth', { result: first, clientId: provider.store.client?.client_id });
  const decided = await consent(provider.authorizationUrl);
  step('consent', decided);
  const second = await auth(provider, { serverUrl: mcpUrl, authorizationCode: decided.code });
  step('exchange', {
    result: second,
    scope: provider.store.tokens?.scope,
    hasRefresh: Boolean(provider.store.tokens?.refresh_token),
  });

  const client = await connect(provider);
  const tools = await client.listTools();
  const read = await client.callTool({ name: 'read_note', arguments: { path: 'notes.txt' } });
  const proposed = await client.callTool({
    name: 'propose_note',
    arguments: { path: 'draft.txt', content: 'from the TypeScript SDK over OAuth\n' },
  });
  step('calls', {
    tools: tools.tools.map((t) => t.name),
    read: text(read),
    proposed: text(proposed),
    proposedIsError: Boolean(proposed.isError),
  });

  const before = provider.store.tokens.refresh_token;
  const refreshed = await auth(provider, { serverUrl: mcpUrl });
  const again = await client.callTool({ name: 'read_note', arguments: { path: 'notes.txt' } });
  step('refresh', {
    result: refreshed,
    rotated: provider.store.tokens.refresh_token !== before,
    readAfter: text(again),
  });
  await client.close();

  // The owner revokes every grant on the owner's page.
  const home = await fetch(`${base}/owner`, { headers: { cookie }, redirect: 'manual' });
  const html = await home.text();
  const forms = [...html.matchAll(/<form method="post" action="\/owner\/revoke">(.*?)<\/form>/g)];
  for (const form of forms) {
    const fields = hidden(form[1]);
    await fetch(`${base}/owner/revoke`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: base, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }
  provider.authorizationUrl = undefined;
  let afterRevoke;
  try {
    const late = await connect(provider);
    await late.callTool({ name: 'read_note', arguments: { path: 'notes.txt' } });
    afterRevoke = { failed: false };
  } catch (error) {
    afterRevoke = {
      failed: true,
      error: `${error?.constructor?.name}: ${error?.message}`,
      startedNewAuthorization: Boolean(provider.authorizationUrl),
    };
  }
  step('revoked', { grantsRevoked: forms.length, ...afterRevoke });
} catch (error) {
  report.error = `${error?.constructor?.name}: ${error?.message}\n${error?.stack ?? ''}`;
}
process.stdout.write(JSON.stringify(report) + '\n');
