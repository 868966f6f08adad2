// sdk-http2.mjs serves the official MCP TypeScript SDK's Streamable HTTP
// server transport (@modelcontextprotocol/sdk, pinned in package.json)
// over Node's own HTTP/2 (node:http2), through its compatibility API
// (Http2ServerRequest/Http2ServerResponse, which the SDK's Node transport
// takes as it takes node:http's): an HTTP/2 MCP peer that no one at
// readbench wrote. internal/h2peers starts it for the tests.
//
// Usage:
//   node sdk-http2.mjs tls PORT stateless|stateful json|sse CERT.pem KEY.pem
//   node sdk-http2.mjs h2c PORT stateless|stateful json|sse
//
// "tls" is HTTP/2 over TLS (ALPN h2; HTTP/1.1 is refused: allowHTTP1 is
// false); "h2c" is cleartext HTTP/2 with prior knowledge (no Upgrade
// from HTTP/1.1). It listens on 127.0.0.1:PORT only (0: a free port), path
// /mcp, and says where on stderr, as the other peers here do:
//   sdk-http2: listening on https://127.0.0.1:PORT/mcp (tls stateful json)
// "stateful" gives each session an id (Mcp-Session-Id); "stateless"
// serves every POST with a new server and no id. "json" answers each POST
// with one JSON body, "sse" with an event stream.
//
// Resources (sizes are the decoded bytes), as peers/sdk-resources.mjs
// serves them:
//   doc://text/1k        text/plain, 1,024 bytes
//   doc://text/64k       text/plain, 65,536 bytes
//   doc://blob/4k        application/octet-stream, 4,096 bytes (blob)
//   doc://sized/{bytes}  text/plain of that many bytes (0 to 1,048,576)
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http2 from 'node:http2';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

// text returns n bytes of printable ASCII that repeat every 64 bytes.
function text(n) {
  const line = 'readbench sdk-resources: a document of known size, ASCII only.\n';
  return line.repeat(Math.ceil(n / line.length)).slice(0, n);
}

// blob returns n bytes 0, 1, ..., 255, 0, 1, ... as base64.
function blob(n) {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = i % 256;
  return b.toString('base64');
}

function textResource(server, name, uri, n) {
  server.registerResource(name, uri, { mimeType: 'text/plain', description: `${n} bytes of text` },
    async (u) => ({ contents: [{ uri: u.href, mimeType: 'text/plain', text: text(n) }] }));
}

function newServer() {
  const server = new McpServer({ name: 'readbench-sdk-http2', version: '1.0.0' });
  textResource(server, 'text-1k', 'doc://text/1k', 1024);
  textResource(server, 'text-64k', 'doc://text/64k', 65536);
  server.registerResource('blob-4k', 'doc://blob/4k', { mimeType: 'application/octet-stream', description: '4096 bytes' },
    async (u) => ({ contents: [{ uri: u.href, mimeType: 'application/octet-stream', blob: blob(4096) }] }));
  server.registerResource('sized', new ResourceTemplate('doc://sized/{bytes}', { list: undefined }),
    { mimeType: 'text/plain', description: 'that many bytes of text' },
    async (u, { bytes }) => {
      const n = Number(bytes);
      if (!Number.isInteger(n) || n < 0 || n > 1 << 20) throw new Error(`size ${bytes} is not 0 to 1048576`);
      return { contents: [{ uri: u.href, mimeType: 'text/plain', text: text(n) }] };
    });
  return server;
}

async function serve(tls, port, stateful, json, certFile, keyFile) {
  const sessions = new Map(); // session id -> transport (stateful only)
  const handler = async (req, res) => {
    if (new URL(req.url, 'http://127.0.0.1').pathname !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    try {
      const id = req.headers['mcp-session-id'];
      if (stateful && id !== undefined) {
        const t = sessions.get(id);
        if (t === undefined) {
          res.writeHead(404, { 'content-type': 'application/json' })
            .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
          return;
        }
        await t.handleRequest(req, res);
        return;
      }
      const t = new StreamableHTTPServerTransport({
        sessionIdGenerator: stateful ? () => randomUUID() : undefined,
        enableJsonResponse: json,
        onsessioninitialized: (sid) => sessions.set(sid, t),
      });
      t.onclose = () => { if (t.sessionId !== undefined) sessions.delete(t.sessionId); };
      const server = newServer();
      if (!stateful) res.on('close', () => { t.close(); server.close(); });
      await server.connect(t);
      await t.handleRequest(req, res);
    } catch (err) {
      process.stderr.write(`sdk-http2: ${err.stack}\n`);
      if (!res.headersSent) res.writeHead(500).end();
    }
  };
  const h2 = tls
    ? http2.createSecureServer({ cert: readFileSync(certFile), key: readFileSync(keyFile), allowHTTP1: false }, handler)
    : http2.createServer({}, handler);
  await new Promise((resolve, reject) => h2.once('error', reject).listen(port, '127.0.0.1', resolve));
  const scheme = tls ? 'https' : 'http';
  process.stderr.write(`sdk-http2: listening on ${scheme}://127.0.0.1:${h2.address().port}/mcp (${tls ? 'tls' : 'h2c'} ${stateful ? 'stateful' : 'stateless'} ${json ? 'json' : 'sse'})\n`);
  // An HTTP/2 server's close waits for every session to end; a peer
  // ended by its test need not.
  const stop = () => process.exit(0);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

const [mode, port, state, body, cert, key] = process.argv.slice(2);
const ok = /^\d+$/.test(port ?? '') && ['stateless', 'stateful'].includes(state) && ['json', 'sse'].includes(body);
if (ok && mode === 'tls' && cert !== undefined && key !== undefined) {
  await serve(true, Number(port), state === 'stateful', body === 'json', cert, key);
} else if (ok && mode === 'h2c' && cert === undefined) {
  await serve(false, Number(port), state === 'stateful', body === 'json');
} else {
  process.stderr.write('usage: node sdk-http2.mjs tls PORT stateless|stateful json|sse CERT.pem KEY.pem | h2c PORT stateless|stateful json|sse\n');
  process.exit(2);
}
