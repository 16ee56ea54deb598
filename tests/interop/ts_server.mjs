// A server on the official MCP TypeScript SDK (v2, `@modelcontextprotocol/server`,
// pinned in package.json at the client's version) over stdio, driven by elicit's
// Rust MCP client in tests/it/mcp_client_interop.rs.
//
//   node ts_server.mjs        (cwd tests/interop, after `npm ci` there)
//
// `serveStdio` lets the connection's opening pick the era and builds one
// server per connection (plus a throwaway one for a `server/discover` probe):
//
// - MCP 2025-11-25 (`initialize`): the tools send real `elicitation/create`
//   requests (`ctx.mcpReq.elicitInput`), and `connect` sends
//   `notifications/elicitation/complete` for `ts-1` after an accept.
// - MCP 2026-07-28 (`server/discover` or a per-request `_meta` envelope): the
//   tools return input-required results (`inputRequired(...)`) with one input
//   request (key `deploy` / `connect`) and a `requestState` signed by the
//   SDK's `createRequestStateCodec` (HMAC-SHA256, per-process key; an altered
//   echo gets -32602 "Invalid or expired requestState"), and read the answer
//   from the retry's `inputResponses`. URL mode there has no elicitationId
//   and no completion notification (that revision removed both).
//
// Tools:
// - `deploy`: form mode, `env` (staging | production, required) and
//   `replicas` (integer 1..16, default 2); answers `deployed <env> x<replicas>`,
//   `declined`, `cancelled`, or (isError) `invalid answer: ...`.
// - `connect`: URL mode, "Connect your account.",
//   https://auth.example.com/connect?id=ts-1; answers `url <action>`, or
//   `url accept, completed` once the completion notification went out
//   (2025-11-25 only).

import { randomBytes } from 'node:crypto';

import {
  McpServer,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const DEPLOY_MESSAGE = 'Deploy where?';
const DEPLOY_SCHEMA = {
  type: 'object',
  properties: {
    env: { type: 'string', enum: ['staging', 'production'] },
    replicas: { type: 'integer', minimum: 1, maximum: 16, default: 2 },
  },
  required: ['env'],
};
const CONNECT_MESSAGE = 'Connect your account.';
const CONNECT_URL = 'https://auth.example.com/connect?id=ts-1';
const CONNECT_ID = 'ts-1';

// One process serves every round of a stdio connection, so a per-process key will do.
const codec = createRequestStateCodec({ key: randomBytes(32) });

const text = (value, isError = false) => ({ content: [{ type: 'text', text: value }], isError });

function deployOutcome(action, content) {
  if (action === 'decline') return text('declined');
  if (action === 'cancel') return text('cancelled');
  const env = content?.env;
  const replicas = content?.replicas ?? 2;
  if (env !== 'staging' && env !== 'production') {
    return text(`invalid answer: env ${JSON.stringify(env)}`, true);
  }
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > 16) {
    return text(`invalid answer: replicas ${JSON.stringify(replicas)}`, true);
  }
  return text(`deployed ${env} x${replicas}`);
}

/** The round-two answer under `key`, or null when this is round one. */
function answerOf(ctx, key, tool) {
  const view = inputResponse(ctx.mcpReq.inputResponses, key);
  if (view.kind === 'missing') return null;
  // Verified (and decoded) by the codec before the handler runs.
  const state = ctx.mcpReq.requestState();
  if (state?.tool !== tool) return { error: text(`unexpected requestState ${JSON.stringify(state)}`, true) };
  if (view.kind !== 'elicit') return { error: text(`unexpected input response ${view.kind}`, true) };
  return view;
}

function build({ era }) {
  const server = new McpServer(
    { name: 'elicit-interop-ts', version: '0.0.0' },
    { capabilities: { tools: {} }, requestState: { verify: codec.verify } },
  );

  server.registerTool(
    'deploy',
    { description: 'Deploy somewhere, asking where (form elicitation).' },
    async (ctx) => {
      if (era === 'legacy') {
        const result = await ctx.mcpReq.elicitInput({
          mode: 'form',
          message: DEPLOY_MESSAGE,
          requestedSchema: DEPLOY_SCHEMA,
        });
        return deployOutcome(result.action, result.content);
      }
      const answer = answerOf(ctx, 'deploy', 'deploy');
      if (answer === null) {
        return inputRequired({
          inputRequests: {
            deploy: inputRequired.elicit({ mode: 'form', message: DEPLOY_MESSAGE, requestedSchema: DEPLOY_SCHEMA }),
          },
          requestState: await codec.mint({ tool: 'deploy' }),
        });
      }
      return answer.error ?? deployOutcome(answer.action, answer.content);
    },
  );

  server.registerTool(
    'connect',
    { description: 'Connect an account (URL elicitation).' },
    async (ctx) => {
      if (era === 'legacy') {
        const result = await ctx.mcpReq.elicitInput({
          mode: 'url',
          message: CONNECT_MESSAGE,
          url: CONNECT_URL,
          elicitationId: CONNECT_ID,
        });
        if (result.action !== 'accept') return text(`url ${result.action}`);
        await server.server.createElicitationCompletionNotifier(CONNECT_ID)();
        return text('url accept, completed');
      }
      const answer = answerOf(ctx, 'connect', 'connect');
      if (answer === null) {
        return inputRequired({
          inputRequests: { connect: inputRequired.elicitUrl({ message: CONNECT_MESSAGE, url: CONNECT_URL }) },
          requestState: await codec.mint({ tool: 'connect' }),
        });
      }
      return answer.error ?? text(`url ${answer.action}`);
    },
  );

  return server;
}

serveStdio(build, { onerror: (error) => console.error(`ts_server: ${error?.message ?? error}`) });
