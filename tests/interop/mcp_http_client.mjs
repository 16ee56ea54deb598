// The official MCP TypeScript client (v2, pinned in package.json) calling
// the `connect` tool of examples/replica.rs through a load balancer, over
// Streamable HTTP at MCP 2026-07-28, for tests/it/deploy.rs.
//
//   node mcp_http_client.mjs <mcp-url> <bearer-token> <secret> <bob-token> [pause|browser|legacy]
//
// With `legacy`, the client speaks MCP 2025-11-25 (its default), to a server
// without sessions: the call fails with -32042 (URL elicitation required)
// listing the page; the user opens and submits it, and the client retries
// the call once.
//
// With `pause`, the client prints {"asked": <message>, "url": <url>} on its
// own line once the URL request is in (before anyone opens the page) and
// waits for a line on stdin: the test kills a replica meanwhile. With
// `browser`, the same, and the user's browser (the test's Chromium) opens
// and submits the page instead of this script.
//
// The user, shown the URL request of the server's page: Bob (`bob-token`)
// tries the page first; then the user opens it (through the balancer, with
// the call's bearer token), submits `secret`, and accepts; the client
// retries the call with the answer by itself. One JSON line goes to
// stdout: {"text", "isError", "statuses", "requests", "error"}.

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const [url, token, secret, bobToken, pause] = process.argv.slice(2);

/** The next line on stdin. */
const nextLine = () =>
  new Promise((resolve) => {
    process.stdin.setEncoding('utf8');
    process.stdin.once('data', (chunk) => resolve(chunk));
  });
if (!url || !token || !secret || !bobToken) {
  console.error('usage: node mcp_http_client.mjs <mcp-url> <bearer-token> <secret> <bob-token>');
  process.exit(2);
}

const requests = [];
const statuses = [];
const legacy = pause === 'legacy';
const client = new Client(
  { name: 'elicit-ts-replicas', version: '0.0.0' },
  {
    capabilities: { elicitation: { url: {} } },
    ...(legacy ? {} : { versionNegotiation: { mode: { pin: '2026-07-28' } } }),
  },
);

/** The user, shown the URL of the server's page: Bob tries it, then she
 * opens and submits it. */
const visit = async (pageUrl) => {
  const bob = await fetch(pageUrl, { headers: { authorization: `Bearer ${bobToken}` } });
  await bob.text();
  statuses.push(bob.status);
  const auth = { authorization: `Bearer ${token}` };
  const page = await fetch(pageUrl, { headers: auth, redirect: 'manual' });
  const html = await page.text();
  statuses.push(page.status);
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0];
  const csrf = /name="csrf" value="([0-9a-f]{32})"/.exec(html)?.[1] ?? '';
  const posted = await fetch(pageUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      ...auth,
      cookie,
      origin: new URL(pageUrl).origin,
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: `csrf=${csrf}&token=${encodeURIComponent(secret)}`,
  });
  statuses.push(posted.status);
};

client.setRequestHandler('elicitation/create', async (request) => {
  const params = request.params;
  requests.push({ mode: params.mode ?? null, url: params.url ?? null, message: params.message });
  if (params.mode !== 'url') throw new Error('a URL request was expected');
  if (statuses.length === 0) {
    if (pause === 'pause' || pause === 'browser') {
      console.log(JSON.stringify({ asked: params.message, url: params.url }));
      await nextLine();
      process.stdin.pause();
    }
    if (pause === 'browser') return { action: 'accept' };
    await visit(params.url);
  }
  return { action: 'accept' };
});

const transport = new StreamableHTTPClientTransport(new URL(url), {
  authProvider: { token: async () => token },
});
const report = { text: null, isError: null, statuses, requests, error: null, required: null };
const call = () => client.callTool({ name: 'connect', arguments: {} });
try {
  await client.connect(transport);
  let result;
  try {
    result = await call();
  } catch (error) {
    // -32042: complete the URL elicitation(s), then retry the call once.
    if (!legacy || error?.code !== -32042) throw error;
    report.required = error.data?.elicitations ?? null;
    for (const elicitation of report.required ?? []) {
      requests.push({ mode: elicitation.mode, url: elicitation.url, message: elicitation.message });
      await visit(elicitation.url);
    }
    result = await call();
  }
  report.isError = result.isError ?? false;
  report.text = (result.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
} catch (error) {
  report.error = { name: error?.constructor?.name, code: error?.code ?? null, message: String(error?.message ?? error) };
}
await client.close().catch(() => {});
console.log(JSON.stringify(report));
