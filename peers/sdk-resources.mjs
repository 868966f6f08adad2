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
import { createServer } from 'node:http';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { newServer as makeServer, streamableHandler } from './sdk-common.mjs';

const newServer = () => makeServer('readbench-sdk-resources');

async function serveHTTP(port, stateful, json) {
  const http = createServer(streamableHandler('sdk-resources', stateful, json));
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
