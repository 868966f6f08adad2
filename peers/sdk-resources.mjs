// sdk-resources.mjs is a small resource server written only with the
// official MCP TypeScript SDK (@modelcontextprotocol/sdk, pinned in
// package.json), as a server team would write one: cmd/readbench's
// peers_more_test.go runs `readbench check` and `readbench run` against it
// over stdio and over Streamable HTTP, so that readbench is judged against
// the SDK's own transports and error handling rather than against code of
// readbench's.
//
// Usage:
//   node sdk-resources.mjs stdio
//   node sdk-resources.mjs http PORT stateless|stateful json|sse
//   node sdk-resources.mjs sse PORT global
//
// HTTP listens on 127.0.0.1:PORT only, path /mcp. "stateful" gives each
// session an id (Mcp-Session-Id); "stateless" serves every POST with a new
// server and no id. "json" answers each POST with one JSON body, "sse" with
// an event stream. "sse PORT global" serves the legacy HTTP+SSE transport
// (GET /sse, POST /messages) the way single-client examples do: one
// server and one global SSEServerTransport, replaced by each GET; a
// second client's GET makes the SDK throw "Already connected to a
// transport" and leaves the global transport one that never started.
//
// Resources (sizes are the decoded bytes; the tests compare them):
//   doc://text/1k        text/plain, 1,024 bytes
//   doc://text/64k       text/plain, 65,536 bytes
//   doc://blob/4k        application/octet-stream, 4,096 bytes (blob)
//   doc://slow           text/plain, 16 bytes, answered after 2 s unless
//                        the read is cancelled first (the SDK then sends no
//                        answer): the read that check's cancellation row
//                        can cancel
//   doc://sized/{bytes}  text/plain of that many bytes (a template; 0 to
//                        1,048,576)
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
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
  const server = new McpServer({ name: 'readbench-sdk-resources', version: '1.0.0' });
  textResource(server, 'text-1k', 'doc://text/1k', 1024);
  textResource(server, 'text-64k', 'doc://text/64k', 65536);
  server.registerResource('blob-4k', 'doc://blob/4k', { mimeType: 'application/octet-stream', description: '4096 bytes' },
    async (u) => ({ contents: [{ uri: u.href, mimeType: 'application/octet-stream', blob: blob(4096) }] }));
  server.registerResource('slow', 'doc://slow', { mimeType: 'text/plain', description: 'answered after 2 s' },
    (u, extra) => new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve({ contents: [{ uri: u.href, mimeType: 'text/plain', text: text(16) }] }), 2000);
      extra.signal.addEventListener('abort', () => { clearTimeout(timer); reject(new Error('cancelled')); });
    }));
  server.registerResource('sized', new ResourceTemplate('doc://sized/{bytes}', { list: undefined }),
    { mimeType: 'text/plain', description: 'that many bytes of text' },
    async (u, { bytes }) => {
      const n = Number(bytes);
      if (!Number.isInteger(n) || n < 0 || n > 1 << 20) throw new Error(`size ${bytes} is not 0 to 1048576`);
      return { contents: [{ uri: u.href, mimeType: 'text/plain', text: text(n) }] };
    });
  return server;
}

async function serveHTTP(port, stateful, json) {
  const sessions = new Map(); // session id -> transport (stateful only)
  const http = createServer(async (req, res) => {
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
      process.stderr.write(`sdk-resources: ${err.stack}\n`);
      if (!res.headersSent) res.writeHead(500).end();
    }
  });
  await new Promise((resolve, reject) => http.once('error', reject).listen(port, '127.0.0.1', resolve));
  process.stderr.write(`sdk-resources: listening on http://127.0.0.1:${http.address().port}/mcp\n`);
  const stop = () => http.close(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

// serveGlobalSSE is the legacy HTTP+SSE transport with one global
// transport and one server, as single-client examples write it.
async function serveGlobalSSE(port) {
  const server = newServer();
  let transport; // the one global transport: each GET replaces it
  const http = createServer(async (req, res) => {
    const path = new URL(req.url, 'http://127.0.0.1').pathname;
    try {
      if (req.method === 'GET' && path === '/sse') {
        transport = new SSEServerTransport('/messages', res);
        await server.connect(transport);
      } else if (req.method === 'POST' && path === '/messages' && transport !== undefined) {
        await transport.handlePostMessage(req, res);
      } else {
        res.writeHead(404).end();
      }
    } catch (err) {
      process.stderr.write(`sdk-resources: ${err.message}\n`);
      if (!res.headersSent) res.writeHead(500).end(err.message);
    }
  });
  await new Promise((resolve, reject) => http.once('error', reject).listen(port, '127.0.0.1', resolve));
  process.stderr.write(`sdk-resources: listening on http://127.0.0.1:${http.address().port}/sse\n`);
  const stop = () => { http.closeAllConnections(); http.close(() => process.exit(0)); };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

const [mode, port, state, body] = process.argv.slice(2);
if (mode === 'stdio') {
  await newServer().connect(new StdioServerTransport());
} else if (mode === 'http' && /^\d+$/.test(port ?? '') && ['stateless', 'stateful'].includes(state) && ['json', 'sse'].includes(body)) {
  await serveHTTP(Number(port), state === 'stateful', body === 'json');
} else if (mode === 'sse' && /^\d+$/.test(port ?? '') && state === 'global') {
  await serveGlobalSSE(Number(port));
} else {
  process.stderr.write('usage: node sdk-resources.mjs stdio | http PORT stateless|stateful json|sse | sse PORT global\n');
  process.exit(2);
}
