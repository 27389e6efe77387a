import { createServer } from 'vite';
import { closeOnSignals, describeStartFailure, printUpstream, readConfigOrExit } from './launch';
import { startPortal } from './start';

// `npm run dev`: the portal server (API + sandbox) plus Vite with hot reload, which sends /api
// to the portal server so the browser still talks to one origin.
const config = readConfigOrExit();
try {
  const portal = await startPortal(config);
  const vite = await createServer({
    server: { host: config.host, proxy: { '/api': { target: portal.url } } },
  });
  await vite.listen();
  const appUrl = vite.resolvedUrls?.local[0] ?? `http://${config.host}:${vite.config.server.port}`;
  console.log(`VMS submission portal (dev, hot reload): ${appUrl}`);
  console.log(`portal server (API): ${portal.url}`);
  printUpstream(config, portal);
  closeOnSignals(async () => {
    await vite.close();
    await portal.drain();
  });
} catch (error) {
  console.error(describeStartFailure(error, config));
  process.exit(1);
}
