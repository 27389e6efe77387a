/**
 * Proxy benchmark helper, run as a child process: the minimal upstream every leg ends at. It reads
 * the whole body (as a VMS would) and answers like the sandbox accepts a batch.
 */
import { createServer } from 'node:http';

const answer = Buffer.from('{"batchid":"x","received":100}');

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(202, { 'content-type': 'application/json', 'content-length': answer.length });
    res.end(answer);
  });
});
server.keepAliveTimeout = 60_000;

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
});
process.on('disconnect', () => process.exit(0));
