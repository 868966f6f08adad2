// sdk-common.mjs is what peers/sdk-resources.mjs and peers/sdk-http2.mjs
// share: the resources their official-SDK servers serve, and the
// Streamable HTTP handler that serves them (node:http's and node:http2's
// requests alike).
import { randomUUID } from 'node:crypto';
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

// newServer is a server named name with the resources the peers list.
export function newServer(name) {
  const server = new McpServer({ name, version: '1.0.0' });
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

// streamableHandler serves Streamable HTTP at /mcp with servers named
// readbench-NAME (NAME also prefixes what it logs): "stateful" gives each session an id (Mcp-Session-Id),
// "stateless" serves every POST with a new server and no id; json
// answers each POST with one JSON body, else with an event stream.
export function streamableHandler(name, stateful, json) {
  const sessions = new Map(); // session id -> transport (stateful only)
  return async (req, res) => {
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
      const server = newServer(`readbench-${name}`);
      if (!stateful) res.on('close', () => { t.close(); server.close(); });
      await server.connect(t);
      await t.handleRequest(req, res);
    } catch (err) {
      process.stderr.write(`${name}: ${err.stack}\n`);
      if (!res.headersSent) res.writeHead(500).end();
    }
  };
}
