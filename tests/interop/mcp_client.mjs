// The official MCP TypeScript client (v2, `@modelcontextprotocol/client`,
// pinned in package.json) driving examples/mcp_server.rs over stdio, for
// tests/it/mcp_ts.rs.
//
//   node mcp_client.mjs <server-binary> <legacy|modern> <scenario>
//
// `legacy` is the client's default (MCP 2025-11-25: `initialize`, then
// `elicitation/create` requests); `modern` pins 2026-07-28 (`server/discover`,
// per-request `_meta`, input-required results the client fulfils and retries
// by itself). On stdio the pinned client spawns the server twice: a sibling
// process for the `server/discover` probe, then the session's.
//
// The `elicitation/create` handler answers from the scenario's script and
// records every request it got. At the end one JSON line goes to stdout:
//   {"era", "version", "isError", "text", "requests": [{id, mode, message,
//    requestedSchema}], "wire": {elicitationRequests, inputRequired},
//    "error": null | {name, code, message, data}, ...}
// A failed call is reported in `error` (exit 0); only a broken run (bad
// usage, a script that ran out of answers) exits non-zero.
//
// Scenarios: accept, invalid-then-valid, three-invalid, decline, cancel,
// no-capability (the client declares no elicitation), tampered (modern only:
// manual rounds, the sealed `requestState` sent back with one character
// changed, then untouched).

import { Client, ProtocolError, SdkError } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const accept = (content) => ({ action: 'accept', content });

/** Each scenario's answers, one per `elicitation/create`, in order. */
const SCRIPTS = {
  accept: [accept({ env: 'production', replicas: 3, notify: true })],
  // The client never sees the branch's pattern; the server checks it.
  'invalid-then-valid': [
    accept({ env: 'staging', branch: 'Not A Branch' }),
    accept({ env: 'staging', replicas: 1, branch: 'fix-42' }),
  ],
  'three-invalid': [accept({ env: 'moon' }), accept({ env: 'moon' }), accept({ env: 'moon' })],
  decline: [{ action: 'decline' }],
  cancel: [{ action: 'cancel' }],
  'no-capability': [],
  // Answers by hand (manual rounds), below.
  tampered: [],
};

const [server, era, scenario] = process.argv.slice(2);
if (!server || !['legacy', 'modern'].includes(era) || !(scenario in SCRIPTS)) {
  console.error(
    `usage: node mcp_client.mjs <server-binary> <legacy|modern> <${Object.keys(SCRIPTS).join('|')}>`,
  );
  process.exit(2);
}
if (scenario === 'tampered' && era !== 'modern') {
  console.error('tampered: 2026-07-28 only (2025-11-25 has no requestState)');
  process.exit(2);
}

const script = [...SCRIPTS[scenario]];
const requests = [];

const client = new Client(
  { name: 'elicit-ts-interop', version: '0.0.0' },
  {
    capabilities: scenario === 'no-capability' ? {} : { elicitation: { form: {} } },
    ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    // Manual rounds for the tampered state; automatic fulfilment otherwise.
    ...(scenario === 'tampered' ? { inputRequired: { autoFulfill: false } } : {}),
  },
);

const record = (id, params) =>
  requests.push({
    id,
    mode: params.mode ?? null, // as sent (optional for form mode on 2025-11-25)
    message: params.message,
    requestedSchema: params.requestedSchema ?? null,
  });

// One handler for both versions: a real request on 2025-11-25 (a numeric
// id), an input request of an input-required result on 2026-07-28 (the id
// is its key). A client without the capability may not register it (the
// SDK refuses): there, what the server sent shows in `wire` below.
const handler = async (request, ctx) => {
  record(ctx?.mcpReq?.id ?? null, request.params);
  const answer = script.shift();
  if (answer === undefined) {
    // Fails the run: the server asked more than the scenario expects.
    console.error(`mcp_client: no scripted answer left for request ${requests.length}`);
    process.exitCode = 3;
    throw new Error('no scripted answer left');
  }
  return answer;
};
if (scenario !== 'no-capability') client.setRequestHandler('elicitation/create', handler);

// Only what the server needs: the client's default passes a "safe" subset.
const env = { PATH: process.env.PATH ?? '' };
for (const name of ['RUST_BACKTRACE', 'RUST_LOG']) {
  if (process.env[name] !== undefined) env[name] = process.env[name];
}
const transport = new StdioClientTransport({ command: server, args: [], env, stderr: 'inherit' });

// What came over the session's wire (the pinned client's `server/discover`
// probe runs on a sibling process, not tapped): `elicitation/create`
// requests, and results with input requests (by key).
const wire = { elicitationRequests: 0, inputRequired: [] };
let deliver;
Object.defineProperty(transport, 'onmessage', {
  configurable: true,
  get: () =>
    deliver &&
    ((message, extra) => {
      if (message?.method === 'elicitation/create') wire.elicitationRequests += 1;
      if (message?.result?.resultType === 'input_required') {
        wire.inputRequired.push(Object.keys(message.result.inputRequests ?? {}));
      }
      return deliver(message, extra);
    }),
  set: (f) => {
    deliver = f;
  },
});

const describe = (error) => ({
  name: error?.constructor?.name ?? typeof error,
  code: error instanceof ProtocolError || error instanceof SdkError ? error.code : (error?.code ?? null),
  message: String(error?.message ?? error),
  data: error?.data ?? null,
});

const textOf = (result) => (result?.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');

const report = {
  era: null,
  version: null,
  isError: null,
  text: null,
  requests,
  wire,
  error: null,
};

/** The tampered scenario: manual rounds with a forged, then the real, state. */
async function tampered() {
  const call = (extra) =>
    client.callTool({ name: 'deploy', arguments: {}, ...extra }, { allowInputRequired: true });
  const first = await call({});
  if (first?.resultType !== 'input_required') {
    throw new Error(`expected an input-required result, got ${JSON.stringify(first)}`);
  }
  for (const [key, input] of Object.entries(first.inputRequests ?? {})) {
    if (input.method === 'elicitation/create') record(key, input.params);
  }
  const state = first.requestState;
  const at = Math.floor(state.length / 2);
  const forged = state.slice(0, at) + (state[at] === 'A' ? 'B' : 'A') + state.slice(at + 1);
  const inputResponses = { deploy: accept({ env: 'staging' }) };
  try {
    const result = await call({ inputResponses, requestState: forged });
    report.tamperedResult = result;
  } catch (error) {
    report.error = describe(error);
  }
  // The untouched state still works.
  const result = await call({ inputResponses, requestState: state });
  report.isError = result.isError ?? false;
  report.text = textOf(result);
}

try {
  await client.connect(transport);
  report.era = client.getProtocolEra?.() ?? null;
  report.version = client.getNegotiatedProtocolVersion?.() ?? null;
  const tools = await client.listTools();
  report.tools = tools.tools.map((t) => t.name);
  if (scenario === 'tampered') {
    await tampered();
  } else {
    const result = await client.callTool({ name: 'deploy', arguments: {} });
    report.isError = result.isError ?? false;
    report.text = textOf(result);
  }
} catch (error) {
  report.error = describe(error);
} finally {
  await client.close().catch(() => {});
}
if (script.length > 0) {
  console.error(`mcp_client: ${script.length} scripted answer(s) unused`);
  process.exitCode = 3;
}
process.stdout.write(`${JSON.stringify(report)}\n`);
