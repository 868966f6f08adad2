// fastmcp-resources.mjs is a small resource server written only with the
// fastmcp framework (npm fastmcp, pinned in package.json), as a server team
// would write one: cmd/readbench's fastmcp_test.go runs `readbench check`
// and `readbench run` against it over stdio and over fastmcp's HTTP stream
// (Streamable HTTP), so that readbench is judged against the framework's own
// transports and error handling rather than against code of readbench's.
//
// Usage:
//   node fastmcp-resources.mjs stdio
//   node fastmcp-resources.mjs http PORT stateful|stateless
//
// HTTP listens on 127.0.0.1:PORT only, path /mcp. "stateful" gives each
// session an id (Mcp-Session-Id); "stateless" is fastmcp's stateless mode
// (httpStream.stateless: every POST served by a new session, no id).
//
// Resources (sizes are the decoded bytes; the tests compare them):
//   doc://text/1k        text/plain, 1,024 bytes
//   doc://text/64k       text/plain, 65,536 bytes
//   doc://blob/4k        application/octet-stream, 4,096 bytes (blob)
//   doc://sized/{bytes}  text/plain of that many bytes (a template; 0 to
//                        1,048,576)
//
// fastmcp answers a URI that is neither a resource nor matches a template
// with its own error, kept here as the framework sends it: -32601 (Method
// not found) with the message "Resource not found: 'URI'. Available
// resources: …" — the misuse of the code readbench must tell from a
// server that lacks resources/read.
import { FastMCP } from 'fastmcp';

// text returns n bytes of printable ASCII that repeat every 64 bytes.
function text(n) {
  const line = 'readbench fastmcp-resources: a document of known size, ASCII.\n';
  return line.repeat(Math.ceil(n / line.length)).slice(0, n);
}

// blob returns n bytes 0, 1, ..., 255, 0, 1, ... as base64.
function blob(n) {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = i % 256;
  return b.toString('base64');
}

// quiet is the logger: fastmcp logs to the console by default, and over
// stdio the console's stdout is the protocol's channel.
const quiet = {
  debug() {}, info() {}, log() {}, warn() {},
  error(...args) { process.stderr.write(`fastmcp-resources: ${args.join(' ')}\n`); },
};

function newServer() {
  const server = new FastMCP({ name: 'readbench-fastmcp-resources', version: '1.0.0', logger: quiet });
  for (const [name, n] of [['text-1k', 1024], ['text-64k', 65536]]) {
    server.addResource({
      uri: `doc://text/${n >> 10}k`, name, mimeType: 'text/plain', description: `${n} bytes of text`,
      load: async () => ({ text: text(n) }),
    });
  }
  server.addResource({
    uri: 'doc://blob/4k', name: 'blob-4k', mimeType: 'application/octet-stream', description: '4096 bytes',
    load: async () => ({ blob: blob(4096) }),
  });
  server.addResourceTemplate({
    uriTemplate: 'doc://sized/{bytes}', name: 'sized', mimeType: 'text/plain', description: 'that many bytes of text',
    arguments: [{ name: 'bytes', description: 'the size in bytes, 0 to 1048576', required: true }],
    load: async ({ bytes }) => {
      const n = Number(bytes);
      if (!Number.isInteger(n) || n < 0 || n > 1 << 20) throw new Error(`size ${bytes} is not 0 to 1048576`);
      return { text: text(n) };
    },
  });
  return server;
}

const [mode, port, state] = process.argv.slice(2);
const server = newServer();
if (mode === 'stdio') {
  await server.start({ transportType: 'stdio' });
} else if (mode === 'http' && /^\d+$/.test(port ?? '') && ['stateless', 'stateful'].includes(state)) {
  await server.start({
    transportType: 'httpStream',
    httpStream: { host: '127.0.0.1', port: Number(port), endpoint: '/mcp', stateless: state === 'stateless' },
  });
  process.stderr.write(`fastmcp-resources: listening on http://127.0.0.1:${port}/mcp (${state})\n`);
  const stop = () => server.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} else {
  process.stderr.write('usage: node fastmcp-resources.mjs stdio | http PORT stateful|stateless\n');
  process.exit(2);
}
