// oidc-provider.mjs runs oidc-provider (pinned in package.json), a
// certified OpenID provider no one at readbench wrote, as the authorization
// server in front of sdk-jwt-server.mjs: cmd/readbench's oidc_test.go logs
// in and runs against the two, as a team whose MCP server sits behind a
// real OAuth provider would.
//
// Usage:
//   node oidc-provider.mjs --port PORT --resource URL --keys FILE
//        [--ttl SECONDS] [--cc-client ID:SECRET] [--code-client ID]
//        [--code-client-no-refresh ID]
//
// It listens on 127.0.0.1:PORT only, issuer http://127.0.0.1:PORT, and
// prints "oidc-provider: issuer http://127.0.0.1:PORT" on stderr once it
// listens; SIGTERM or SIGINT stops it. FILE holds its signing keys (a
// private JWKS): made on the first start and read on the next, so that a
// provider stopped and started again on the same port signs with the same
// key and the tokens it issued before stay valid.
//
// What it offers:
//   - the resource URL (RFC 8707 resource indicators): JWT access tokens
//     (RS256) whose aud is URL, lasting SECONDS (default 4), with scope
//     mcp:read at most; any other scope asked for it is silently dropped
//     (mcp:write, as the provider did);
//   - --cc-client: a confidential client of the client credentials grant
//     (client_secret_basic or client_secret_post);
//   - --code-client: a public native client of the authorization code
//     grant with PKCE and refresh tokens, whose redirect URI is
//     http://127.0.0.1/callback on any port (RFC 8252 §7.3), as readbench
//     login listens;
//   - --code-client-no-refresh: the same without the refresh_token grant:
//     a provider that issues no refresh token whatever is asked;
//   - dynamic client registration (RFC 7591), open;
//   - the built-in login and consent pages (devInteractions): a form of
//     login and password (any will do), then a consent form. offline_access
//     is granted only with prompt=consent, as OpenID Connect Core §11 has
//     it: oidc-provider drops it otherwise, silently.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import Provider, { errors } from 'oidc-provider';

const { values: opt } = parseArgs({
  options: {
    port: { type: 'string' },
    resource: { type: 'string' },
    keys: { type: 'string' },
    ttl: { type: 'string', default: '4' },
    'cc-client': { type: 'string' },
    'code-client': { type: 'string' },
    'code-client-no-refresh': { type: 'string' },
  },
});
if (!/^\d+$/.test(opt.port ?? '') || !opt.resource || !opt.keys || !/^\d+$/.test(opt.ttl)) {
  process.stderr.write('usage: node oidc-provider.mjs --port PORT --resource URL --keys FILE [--ttl SECONDS] [--cc-client ID:SECRET] [--code-client ID] [--code-client-no-refresh ID]\n');
  process.exit(2);
}
const ttl = Number(opt.ttl);
const issuer = `http://127.0.0.1:${opt.port}`;

// signingKeys is the provider's private JWKS, the same on every start.
function signingKeys(file) {
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwks = { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), use: 'sig', alg: 'RS256' }] };
  writeFileSync(file, JSON.stringify(jwks), { mode: 0o600 });
  return jwks;
}

const clients = [];
if (opt['cc-client']) {
  const [id, secret] = opt['cc-client'].split(':');
  clients.push({
    client_id: id, client_secret: secret, grant_types: ['client_credentials'], response_types: [], redirect_uris: [],
    token_endpoint_auth_method: 'client_secret_basic',
  });
}
for (const [flag, grants] of [['code-client', ['authorization_code', 'refresh_token']], ['code-client-no-refresh', ['authorization_code']]]) {
  if (!opt[flag]) continue;
  clients.push({
    client_id: opt[flag], application_type: 'native', token_endpoint_auth_method: 'none',
    grant_types: grants, response_types: ['code'], redirect_uris: ['http://127.0.0.1/callback'],
  });
}

const provider = new Provider(issuer, {
  clients,
  jwks: signingKeys(opt.keys),
  scopes: ['openid', 'offline_access'],
  pkce: { required: () => true },
  clientBasedCORS: () => true,
  ttl: {
    AccessToken: ttl, ClientCredentials: ttl, AuthorizationCode: 60, IdToken: 3600,
    RefreshToken: 24 * 3600, Interaction: 600, Session: 3600, Grant: 24 * 3600,
  },
  features: {
    devInteractions: { enabled: true },
    clientCredentials: { enabled: true },
    registration: { enabled: true },
    revocation: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => opt.resource,
      useGrantedResource: () => true,
      getResourceServerInfo: (_ctx, indicator) => {
        if (indicator !== opt.resource) throw new errors.InvalidTarget(`unknown resource ${indicator}`);
        return { scope: 'mcp:read', audience: opt.resource, accessTokenTTL: ttl, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } };
      },
    },
  },
});
provider.proxy = false;

const server = provider.listen(Number(opt.port), '127.0.0.1', () => {
  process.stderr.write(`oidc-provider: issuer ${issuer}\n`);
});
server.on('error', (err) => {
  process.stderr.write(`oidc-provider: ${err.message}\n`);
  process.exit(1);
});
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections?.();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
