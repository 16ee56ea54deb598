// A throwaway OpenID provider for end-to-end tests: oidc-provider (OpenID
// Certified) on 127.0.0.1, in memory, with its built-in dev interactions (any
// login name and password sign in; the login name becomes the account id).
//
// node provider.mjs [--port N] [--client-id ID] [--client-secret S]
//                   [--redirect-uri URI]... [--exit-with-stdin]
// Environment fallbacks: PORT, CLIENT_ID, CLIENT_SECRET, REDIRECT_URIS
// (space separated). Port 0 (the default) picks a free port.
//
// Once listening it prints ONE JSON line to stdout, e.g.
// {"issuer":"http://127.0.0.1:43123","port":43123,"client_id":"elicit",...}
// and everything else (oidc-provider's warnings) goes to stderr.
//
// The client is `application_type: 'native'`: http redirect URIs must be
// loopback (127.0.0.1, [::1], localhost) and, per RFC 8252 7.3, the port of
// a loopback redirect URI is ignored when matching, so register
// `http://127.0.0.1/callback` and redirect to any `http://127.0.0.1:<port>/callback`.
// Without --client-secret it is a public client (token_endpoint_auth_method
// 'none'), for which oidc-provider requires PKCE (S256 only). With a secret,
// client_secret_basic (and _post) work; PKCE is then optional but checked if sent.
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

import Provider from 'oidc-provider';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    'client-id': { type: 'string' },
    'client-secret': { type: 'string' },
    'redirect-uri': { type: 'string', multiple: true },
    'exit-with-stdin': { type: 'boolean', default: false },
  },
});

const host = values.host ?? '127.0.0.1';
const port = Number(values.port ?? process.env.PORT ?? 0);
const clientId = values['client-id'] ?? process.env.CLIENT_ID ?? 'elicit';
const clientSecret = values['client-secret'] ?? process.env.CLIENT_SECRET;
const redirectUris = values['redirect-uri']
  ?? (process.env.REDIRECT_URIS ? process.env.REDIRECT_URIS.split(/\s+/).filter(Boolean) : ['http://127.0.0.1/callback']);

const server = createServer();
await new Promise((resolve, reject) => {
  server.once('error', reject);
  server.listen(port, host, resolve);
});
const actualPort = server.address().port;
const issuer = `http://${host}:${actualPort}`;

const client = {
  client_id: clientId,
  application_type: 'native',
  redirect_uris: redirectUris,
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  ...(clientSecret
    ? { client_secret: clientSecret, token_endpoint_auth_method: 'client_secret_basic' }
    : { token_endpoint_auth_method: 'none' }),
};

const provider = new Provider(issuer, {
  clients: [client],
  // Any login name signs in; the account id is that name, the other claims are fixed.
  async findAccount(ctx, id) {
    return {
      accountId: id,
      async claims(use, scope) {
        return { sub: id, name: 'Test User', email: 'test.user@example.com', email_verified: true };
      },
    };
  },
  claims: {
    openid: ['sub'],
    profile: ['name'],
    email: ['email', 'email_verified'],
  },
  // Plain OAuth scopes (no `openid`) are accepted too, e.g. a GitHub-like `read:user`.
  scopes: ['openid', 'offline_access', 'read:user'],
  features: {
    devInteractions: { enabled: true },
    introspection: { enabled: true },
    userinfo: { enabled: true },
    revocation: { enabled: true },
  },
  // oidc-provider's default; stated for the reader: only S256 exists here.
  pkce: { required: (ctx, c) => c.clientAuthMethod === 'none' },
  // ephemeral in-memory signing keys are generated when `jwks` is absent.
});
// The issuer is plain http on loopback: nothing to do (no proxy, no TLS).
server.on('request', provider.callback());

process.stdout.write(`${JSON.stringify({
  issuer,
  port: actualPort,
  client_id: clientId,
  client_secret: clientSecret ?? null,
  redirect_uris: redirectUris,
  discovery: `${issuer}/.well-known/openid-configuration`,
  authorization_endpoint: `${issuer}/auth`,
  token_endpoint: `${issuer}/token`,
  userinfo_endpoint: `${issuer}/me`,
  introspection_endpoint: `${issuer}/token/introspection`,
})}\n`);

if (values['exit-with-stdin']) {
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
  process.stdin.on('error', () => process.exit(0));
}
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => process.exit(0));
