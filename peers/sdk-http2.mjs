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
import { readFileSync } from 'node:fs';
import http2 from 'node:http2';
import { streamableHandler } from './sdk-common.mjs';

async function serve(tls, port, stateful, json, certFile, keyFile) {
  const handler = streamableHandler('sdk-http2', stateful, json);
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
