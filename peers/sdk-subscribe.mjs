// sdk-subscribe.mjs is a resource server with subscriptions written only
// with the official MCP TypeScript SDK (@modelcontextprotocol/sdk, pinned
// in package.json), as a server team would write one: it serves the
// legacy era's resources/subscribe and resources/unsubscribe, and tells a
// session's subscribers when a resource changes. cmd/readbench's
// listen_peers_test.go runs `readbench run` with listeners and changes
// against it, so that readbench's subscriptions are judged against the
// SDK's own transports.
//
// Usage:
//   node sdk-subscribe.mjs stdio
//   node sdk-subscribe.mjs http PORT     stateful Streamable HTTP at /mcp
//   node sdk-subscribe.mjs sse PORT      HTTP+SSE: GET /sse, POST /messages
//
// HTTP listens on 127.0.0.1:PORT only.
//
// Resources: doc://watched/a and doc://watched/b, text/plain, 64 bytes
// each, whose text names their revision. The tool touch {uri} makes a
// change of uri: its revision goes up and every session subscribed to it
// is sent notifications/resources/updated {uri} (Server.sendResourceUpdated),
// before the tool answers.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import {
  CallToolRequestSchema, ListToolsRequestSchema, SubscribeRequestSchema, UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

const uris = ['doc://watched/a', 'doc://watched/b'];
const revision = new Map(uris.map((u) => [u, 0]));
const sessions = new Set(); // { server, subs: Set<uri> } of every connected session

function text(uri) {
  return `${uri} revision ${revision.get(uri)}`.padEnd(64, '.');
}

// newSession is one session's server, registered in sessions until it closes.
function newSession() {
  const server = new McpServer({ name: 'readbench-sdk-subscribe', version: '1.0.0' },
    { capabilities: { resources: { subscribe: true }, tools: {} } });
  const entry = { server, subs: new Set() };
  for (const uri of uris) {
    server.registerResource(uri, uri, { mimeType: 'text/plain', description: 'changes on touch' },
      async (u) => ({ contents: [{ uri: u.href, mimeType: 'text/plain', text: text(u.href) }] }));
  }
  server.server.setRequestHandler(SubscribeRequestSchema, async (req) => {
    entry.subs.add(req.params.uri);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, async (req) => {
    entry.subs.delete(req.params.uri);
    return {};
  });
  server.server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{
      name: 'touch',
      description: 'change a resource and tell its subscribers',
      inputSchema: { type: 'object', properties: { uri: { type: 'string' } }, required: ['uri'] },
    }],
  }));
  server.server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const uri = req.params.arguments?.uri;
    if (req.params.name !== 'touch' || !revision.has(uri)) {
      return { isError: true, content: [{ type: 'text', text: `no such tool or resource: ${req.params.name} ${uri}` }] };
    }
    revision.set(uri, revision.get(uri) + 1);
    const told = [...sessions].filter((s) => s.subs.has(uri));
    await Promise.all(told.map((s) => s.server.server.sendResourceUpdated({ uri }).catch(() => {})));
    return { content: [{ type: 'text', text: `${uri}: revision ${revision.get(uri)}, ${told.length} sessions told` }] };
  });
  sessions.add(entry);
  server.server.onclose = () => sessions.delete(entry);
  return server;
}

// listen serves handler on 127.0.0.1:port until SIGINT or SIGTERM.
async function listen(port, handler) {
  const http = createServer(async (req, res) => {
    try {
      await handler(req, res, new URL(req.url, 'http://127.0.0.1'));
    } catch (err) {
      process.stderr.write(`sdk-subscribe: ${err.stack}\n`);
      if (!res.headersSent) res.writeHead(500).end();
    }
  });
  await new Promise((resolve, reject) => http.once('error', reject).listen(port, '127.0.0.1', resolve));
  process.stderr.write(`sdk-subscribe: listening on http://127.0.0.1:${http.address().port}\n`);
  const stop = () => { http.closeAllConnections(); http.close(() => process.exit(0)); };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

// serveHTTP is stateful Streamable HTTP at /mcp: a session per initialize.
function serveHTTP(port) {
  const transports = new Map(); // session id -> transport
  return listen(port, async (req, res, url) => {
    if (url.pathname !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    const id = req.headers['mcp-session-id'];
    if (id !== undefined) {
      const t = transports.get(id);
      if (t === undefined) {
        res.writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
        return;
      }
      await t.handleRequest(req, res);
      return;
    }
    const t = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => transports.set(sid, t),
    });
    t.onclose = () => { if (t.sessionId !== undefined) transports.delete(t.sessionId); };
    await newSession().connect(t);
    await t.handleRequest(req, res);
  });
}

// serveSSE is the legacy HTTP+SSE transport: GET /sse opens a session's
// stream, POST /messages?sessionId= carries its requests.
function serveSSE(port) {
  const transports = new Map(); // session id -> transport
  return listen(port, async (req, res, url) => {
    if (req.method === 'GET' && url.pathname === '/sse') {
      const t = new SSEServerTransport('/messages', res);
      transports.set(t.sessionId, t);
      res.on('close', () => { transports.delete(t.sessionId); t.close(); });
      await newSession().connect(t);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/messages') {
      const t = transports.get(url.searchParams.get('sessionId'));
      if (t === undefined) {
        res.writeHead(404).end('no such session');
        return;
      }
      await t.handlePostMessage(req, res);
      return;
    }
    res.writeHead(404).end();
  });
}

const [mode, port] = process.argv.slice(2);
if (mode === 'stdio') {
  await newSession().connect(new StdioServerTransport());
} else if (mode === 'http' && /^\d+$/.test(port ?? '')) {
  await serveHTTP(Number(port));
} else if (mode === 'sse' && /^\d+$/.test(port ?? '')) {
  await serveSSE(Number(port));
} else {
  process.stderr.write('usage: node sdk-subscribe.mjs stdio | http PORT | sse PORT\n');
  process.exit(2);
}
