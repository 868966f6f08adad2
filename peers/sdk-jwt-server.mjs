// sdk-jwt-server.mjs is an MCP resource server protected by OAuth as a
// team would write one with the official TypeScript SDK
// (@modelcontextprotocol/sdk, pinned in package.json): the SDK's
// Streamable HTTP transport behind its requireBearerAuth middleware, whose
// verifier checks the provider's JWT access tokens with jose
// (createRemoteJWKSet from the provider's jwks_uri; issuer, audience,
// expiry). cmd/readbench's oidc_test.go runs it behind oidc-provider.mjs.
//
// Usage:
//   node sdk-jwt-server.mjs --port PORT --issuer URL [--scope SCOPES]
//
// It listens on 127.0.0.1:PORT only, path /mcp (stateful sessions, JSON
// answers), and serves its protected resource metadata (RFC 9728) at
// /.well-known/oauth-protected-resource/mcp naming the issuer. Every
// request needs a token of SCOPES (space-separated, default mcp:read): a
// token without them is answered 403 insufficient_scope with
// scope="SCOPES", one missing, invalid or expired 401 invalid_token, both
// with resource_metadata (the SDK's challenge). It prints
// "sdk-jwt-server: listening on http://127.0.0.1:PORT/mcp" on stderr, and
// at exit (SIGTERM, SIGINT) "sdk-jwt-server: N accepted, N 401, N 403".
//
// Resources: doc://text/1k and doc://text/16k (text/plain, that many bytes).
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import express from 'express';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';

const { values: opt } = parseArgs({
  options: { port: { type: 'string' }, issuer: { type: 'string' }, scope: { type: 'string', default: 'mcp:read' } },
});
if (!/^\d+$/.test(opt.port ?? '') || !opt.issuer) {
  process.stderr.write('usage: node sdk-jwt-server.mjs --port PORT --issuer URL [--scope SCOPES]\n');
  process.exit(2);
}
const resource = `http://127.0.0.1:${opt.port}/mcp`;
const prmURL = `http://127.0.0.1:${opt.port}/.well-known/oauth-protected-resource/mcp`;
const scopes = opt.scope.split(' ').filter(Boolean);
const jwks = createRemoteJWKSet(new URL(`${opt.issuer}/jwks`));

const verifier = {
  async verifyAccessToken(token) {
    try {
      const { payload } = await jwtVerify(token, jwks, { issuer: opt.issuer, audience: resource });
      return {
        token, clientId: String(payload.client_id ?? ''), scopes: String(payload.scope ?? '').split(' ').filter(Boolean),
        expiresAt: payload.exp, resource: new URL(resource),
      };
    } catch (err) {
      throw new InvalidTokenError(`token rejected: ${err.code ?? err.message}`);
    }
  },
};

function text(n) {
  const line = 'readbench sdk-jwt-server: a document of known size, ASCII only\n';
  return line.repeat(Math.ceil(n / line.length)).slice(0, n);
}

function newServer() {
  const server = new McpServer({ name: 'readbench-sdk-jwt-server', version: '1.0.0' });
  for (const n of [1024, 16384]) {
    const uri = `doc://text/${n / 1024}k`;
    server.registerResource(`text-${n / 1024}k`, uri, { mimeType: 'text/plain' },
      async (u) => ({ contents: [{ uri: u.href, mimeType: 'text/plain', text: text(n) }] }));
  }
  return server;
}

const counts = { accepted: 0, 401: 0, 403: 0 };
const app = express();
app.use(express.json());
app.get('/.well-known/oauth-protected-resource/mcp', (_req, res) => {
  res.json({ resource, authorization_servers: [opt.issuer], scopes_supported: scopes, bearer_methods_supported: ['header'] });
});
const sessions = new Map();
const bearer = requireBearerAuth({ verifier, requiredScopes: scopes, resourceMetadataUrl: prmURL });
app.all('/mcp', (req, res, next) => {
  res.on('finish', () => {
    if (res.statusCode === 401 || res.statusCode === 403) counts[res.statusCode]++;
    else counts.accepted++;
  });
  next();
}, bearer, async (req, res) => {
  try {
    const id = req.headers['mcp-session-id'];
    if (id !== undefined) {
      const t = sessions.get(id);
      if (t === undefined) {
        res.status(404).json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
        return;
      }
      await t.handleRequest(req, res, req.body);
      return;
    }
    const t = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(), enableJsonResponse: true,
      onsessioninitialized: (sid) => sessions.set(sid, t),
    });
    t.onclose = () => { if (t.sessionId !== undefined) sessions.delete(t.sessionId); };
    await newServer().connect(t);
    await t.handleRequest(req, res, req.body);
  } catch (err) {
    process.stderr.write(`sdk-jwt-server: ${err.stack}\n`);
    if (!res.headersSent) res.status(500).end();
  }
});

const http = app.listen(Number(opt.port), '127.0.0.1', () => {
  process.stderr.write(`sdk-jwt-server: listening on ${resource}\n`);
});
http.on('error', (err) => {
  process.stderr.write(`sdk-jwt-server: ${err.message}\n`);
  process.exit(1);
});
const stop = () => {
  process.stderr.write(`sdk-jwt-server: ${counts.accepted} accepted, ${counts[401]} 401, ${counts[403]} 403\n`);
  http.close(() => process.exit(0));
  http.closeAllConnections?.();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
