// Loaded with `node --import` into a browser shell by paint-timeline.ts: writes a line to stderr for
// each HTTP request the process receives and for each answer it has finished writing, stamped in
// CLOCK_MONOTONIC microseconds (the clock of Chromium's trace), so both land on one timeline.
import http from 'node:http';
import { syncBuiltinESMExports } from 'node:module';

const now = () => Number(process.hrtime.bigint() / 1000n);
const createServer = http.createServer;
http.createServer = function (...args) {
  const server = createServer.apply(this, args);
  server.prependListener('request', (req, res) => {
    // The page's token never reaches the log.
    const what = `${req.method} ${(req.url ?? '').replace(/\?.*$/, '')}`;
    process.stderr.write(`http-timing ${now()} request ${what}\n`);
    res.on('finish', () => process.stderr.write(`http-timing ${now()} answered ${what}\n`));
  });
  return server;
};
// The shell imports `createServer` by name: its ES module binding follows the patched property.
syncBuiltinESMExports();
