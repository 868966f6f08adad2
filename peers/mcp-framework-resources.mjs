// mcp-framework-resources.mjs is a small resource server written with the
// npm framework mcp-framework (pinned in package.json) and nothing else, as
// a team would write one: plain JavaScript classes extending MCPResource,
// added with addResource (no TypeScript build, no dist/ directory to
// scan). cmd/readbench's checkreads_test.go runs `readbench check` (and init) against
// it, so that the rows which read what was listed are judged against a
// framework's own behaviour rather than against code of readbench's.
//
// Usage:
//   node mcp-framework-resources.mjs stdio
//   node mcp-framework-resources.mjs http PORT
//
// HTTP is the framework's http-stream transport on 127.0.0.1:PORT only,
// path /mcp, one JSON body per POST (responseMode "batch").
//
// What it shows, each by the framework's own behaviour where it has one:
//
//   docs://guides/intro   text/markdown, listed with size 100 (the
//                         framework lists a resource's size as the class
//                         declares it, and never looks at what read()
//                         returns): it reads 5,000 bytes.
//   docs://files          text/plain, an index of the files; the class also
//                         declares the template docs://files/{path}, which
//                         the framework lists (resources/templates/list)
//                         and completes (completion/complete: readme.md,
//                         changelog.md). Every instance fails: the
//                         framework's resources/read looks the URI up among
//                         the listed resources' URIs only, so
//                         docs://files/readme.md is -32603 "Unknown
//                         resource: ...". That is mcp-framework 0.2.22's
//                         behaviour for any template.
//   db://tables/users     application/json, the columns of a table, and
//   db://tables/orders    its template db://tables/{name}. The framework
//                         cannot read a template's instance (above), so the
//                         team added what server-postgres and server-mysql
//                         do: a read of db://tables/NAME runs the column
//                         query for NAME, which answers ok with [] for a
//                         table that does not exist.
//
// Not changed: the framework replaces the SDK's notifications/cancelled
// handler with its own, which aborts only requests it registered itself,
// and it registers none, so a cancelled read is answered anyway (check's
// cancellation row fails "ignored the cancel").
import { MCPServer, MCPResource, MCPTool } from 'mcp-framework';
import { ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

// text returns n bytes of printable ASCII.
function text(n) {
  const line = 'readbench mcp-framework-resources: a guide that grew.\n';
  return line.repeat(Math.ceil(n / line.length)).slice(0, n);
}

class Intro extends MCPResource {
  uri = 'docs://guides/intro';
  name = 'intro';
  description = 'Getting started';
  mimeType = 'text/markdown';
  size = 100; // written when the guide was a paragraph
  async read() {
    return [{ uri: this.uri, mimeType: this.mimeType, text: text(5000) }];
  }
}

const files = { 'readme.md': '# readme\n', 'changelog.md': '# changelog\n' };

class Files extends MCPResource {
  uri = 'docs://files';
  name = 'files';
  description = 'The files of the project';
  mimeType = 'text/plain';
  template = { uriTemplate: 'docs://files/{path}', description: 'One file of the project' };
  async complete(argument, value) {
    return { values: argument === 'path' ? Object.keys(files).filter((f) => f.startsWith(value ?? '')) : [] };
  }
  async read() {
    return [{ uri: this.uri, mimeType: this.mimeType, text: Object.keys(files).join('\n') + '\n' }];
  }
}

// The tables and their columns; any other name is a table that does not exist.
const tables = {
  users: [{ column_name: 'id', data_type: 'integer' }, { column_name: 'email', data_type: 'text' }],
  orders: [{ column_name: 'id', data_type: 'integer' }, { column_name: 'user_id', data_type: 'integer' }],
};

// columns is what the column query answers for a table: its rows, or none.
function columns(uri, name) {
  return [{ uri, mimeType: 'application/json', text: JSON.stringify(tables[name] ?? [], null, 2) }];
}

class UsersTable extends MCPResource {
  uri = 'db://tables/users';
  name = 'users';
  description = 'The columns of table users';
  mimeType = 'application/json';
  template = { uriTemplate: 'db://tables/{name}', description: 'The columns of a table' };
  async complete(argument, value) {
    return { values: argument === 'name' ? Object.keys(tables).filter((t) => t.startsWith(value ?? '')) : [] };
  }
  async read() { return columns(this.uri, 'users'); }
}

class OrdersTable extends MCPResource {
  uri = 'db://tables/orders';
  name = 'orders';
  description = 'The columns of table orders';
  mimeType = 'application/json';
  async read() { return columns(this.uri, 'orders'); }
}

// ListTables is the server's one tool (the framework registers tools/list
// whatever it serves, and the SDK refuses that without a tool).
class ListTables extends MCPTool {
  name = 'list_tables';
  description = 'The names of the tables';
  schema = {};
  async execute() { return Object.keys(tables).join('\n'); }
}

// TablesServer reads db://tables/{name} for any name, as the framework
// cannot; every other URI is left to the framework's own handler.
class TablesServer extends MCPServer {
  setupHandlers(server) {
    super.setupHandlers(server);
    const framework = server._requestHandlers.get('resources/read');
    server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
      const m = /^db:\/\/tables\/([^/?#]+)$/.exec(request.params.uri);
      if (m) return { contents: columns(request.params.uri, decodeURIComponent(m[1])) };
      return framework(request, extra);
    });
  }
}

const [mode, port] = process.argv.slice(2);
let transport;
if (mode === 'stdio') {
  transport = { type: 'stdio' };
} else if (mode === 'http' && /^\d+$/.test(port ?? '')) {
  transport = { type: 'http-stream', options: { port: Number(port), host: '127.0.0.1', endpoint: '/mcp', responseMode: 'batch' } };
} else {
  process.stderr.write('usage: node mcp-framework-resources.mjs stdio | http PORT\n');
  process.exit(2);
}
// basePath: this folder, which has no tools/, prompts/ or resources/ for
// the framework's loaders to pick up; everything is added below.
const server = new TablesServer({
  name: 'readbench-mcp-framework-resources', version: '1.0.0', transport,
  basePath: dirname(fileURLToPath(import.meta.url)),
});
server.addTool(ListTables);
server.addResource(Intro);
server.addResource(Files);
server.addResource(UsersTable);
server.addResource(OrdersTable);
await server.start();
