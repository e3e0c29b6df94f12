import { createServer } from 'node:http';

/**
 * The ceiling of the gateway comparison's `{ __typename }` rows: a bare
 * node:http server that reads each POST's body and answers it with the one
 * fixed answer, no GraphQL, no authentication. Whatever a gateway does per
 * request comes on top of this; run as a process of its own, as the
 * gateways are (its port is the one argument).
 */
const answer = JSON.stringify({ data: { __typename: 'Query' } });
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) }).end(answer));
});
server.listen(Number(process.argv[2]), '127.0.0.1', () => process.stdout.write('ready\n'));
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => server.close(() => process.exit(0)));
